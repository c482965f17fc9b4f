use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::catalogue::{FILES, parse};
use super::lang::PluralForm;
use super::*;

#[test]
fn a_value_may_be_lowered_for_a_compound() {
    let text = t!("{{what}}-free", what = "Gluten");
    assert_eq!(text.render(Lang::De), "glutenfrei");
    assert_eq!(text.render(Lang::En), "Gluten-free");
}

#[test]
fn renders_values_and_nested_texts() {
    let text = t!(
        "{{name}} is allergic to {{what}}",
        name = "Leo",
        what = t!("Milk")
    );
    assert_eq!(text.render(Lang::En), "Leo is allergic to Milk");
    assert_eq!(text, "Leo is allergic to Milk");
    // A placeholder nobody filled stays visible.
    assert_eq!(t!("Hello {{who}}").render(Lang::En), "Hello {{who}}");
}

#[test]
fn counts_follow_each_language() {
    let one = t_plural!("{{count}} second", "{{count}} seconds", 1);
    let two = t_plural!("{{count}} second", "{{count}} seconds", 2);
    assert_eq!(one.render(Lang::En), "1 second");
    assert_eq!(two.render(Lang::En), "2 seconds");
    assert_eq!(Lang::Fr.plural_form(0), PluralForm::One);
    assert_eq!(Lang::En.plural_form(0), PluralForm::Other);
    assert_eq!(Lang::Es.plural_form(1_000_000), PluralForm::Many);
    assert_eq!(Lang::De.plural_form(1_000_000), PluralForm::Other);
}

#[test]
fn a_text_missing_from_a_catalogue_is_english() {
    let text = t!("A text no catalogue has {{n}}", n = 3);
    assert_eq!(text.render(Lang::De), "A text no catalogue has 3");
}

#[test]
fn accept_language_picks_the_best_known_language() {
    let pick = Lang::from_accept_language;
    assert_eq!(pick("fr-CH, fr;q=0.9, en;q=0.8"), Some(Lang::Fr));
    assert_eq!(pick("it-IT, it;q=0.9, de;q=0.5, en;q=0.4"), Some(Lang::De));
    assert_eq!(pick("en;q=0.2, es;q=0.9"), Some(Lang::Es));
    assert_eq!(pick("es;q=0, de"), Some(Lang::De));
    assert_eq!(pick("DE-de"), Some(Lang::De));
    assert_eq!(pick("it, pt"), None);
    assert_eq!(pick(""), None);
    assert_eq!(pick("fr;q=abc, en"), Some(Lang::En));
    assert_eq!(pick("*"), None);
}

#[tokio::test]
async fn the_request_language_is_scoped() {
    assert_eq!(scope::current(), Lang::En);
    let inside = scope::within(Lang::Fr, async { scope::current() }).await;
    assert_eq!(inside, Lang::Fr);
    assert_eq!(scope::current(), Lang::En);
}

// ---- The catalogues against the code ----------------------------------------------------

/// Every text the code holds: key -> English (a counting text gives `key_one` and `key_other`).
fn texts_in_code() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut files = Vec::new();
    collect_rs(&src, &mut files);
    for file in files {
        // The module's own tests and docs, and tests anywhere, name made-up texts.
        if file.starts_with(src.join("i18n")) || file.ends_with("tests.rs") {
            continue;
        }
        let code = std::fs::read_to_string(&file).unwrap();
        // A file's tests come last, after `#[cfg(test)]`.
        let code = code.split("\n#[cfg(test)]").next().unwrap_or_default();
        for (key, english) in texts_in(code)
            .unwrap_or_else(|e| panic!("{}: {e}", file.strip_prefix(&src).unwrap().display()))
        {
            if let Some(other) = out.insert(key.clone(), english.clone()) {
                assert_eq!(other, english, "{key}: two Englishes");
            }
        }
    }
    out
}

fn collect_rs(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The `t!` and `t_plural!` literals of one file, comments left out.
fn texts_in(code: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for (at, _) in line
            .match_indices("t!(")
            .chain(line.match_indices("t_plural!("))
        {
            let start = line[..at].len();
            // `t!(` only as the macro itself, not the end of another name (`format!(`: no
            // `t` before `!`; `print!(`: `t!(` preceded by `n`).
            let before = line[..start].chars().next_back();
            let plural = line[start..].starts_with("t_plural!(");
            if !plural && before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let offset = code.lines().take(n).map(|l| l.len() + 1).sum::<usize>() + start;
            let rest = &code[offset + if plural { 10 } else { 3 }..];
            let (first, rest) = literal(rest).map_err(|e| format!("line {}: {e}", n + 1))?;
            if plural {
                let rest = rest
                    .trim_start()
                    .strip_prefix(',')
                    .ok_or("t_plural! needs two texts")?;
                let (other, _) = literal(rest).map_err(|e| format!("line {}: {e}", n + 1))?;
                out.push((format!("{other}_one"), first));
                out.push((format!("{other}_other"), other));
            } else {
                out.push((first.clone(), first));
            }
        }
    }
    Ok(out)
}

/// A Rust string literal at the start of `s` (after whitespace), unescaped.
fn literal(s: &str) -> Result<(String, &str), String> {
    let s = s.trim_start();
    let body = s.strip_prefix('"').ok_or_else(|| {
        format!(
            "a text must be a plain string literal: {}",
            &s[..s.len().min(40)]
        )
    })?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &body[i + 1..])),
            '\\' => match chars.next().map(|(_, c)| c) {
                Some('n') => out.push('\n'),
                Some('"') => out.push('"'),
                Some('\\') => out.push('\\'),
                Some('\'') => out.push('\''),
                Some('\n') => {
                    // A line continuation: the next line's leading whitespace goes too.
                    let rest = chars.as_str();
                    let skip = rest.len() - rest.trim_start().len();
                    for _ in 0..rest[..skip].chars().count() {
                        chars.next();
                    }
                }
                other => return Err(format!("unsupported escape {other:?} in a text")),
            },
            c => out.push(c),
        }
    }
    Err("unterminated text".into())
}

fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        // A format ("{{what, lowercase}}") is the language's own: the value is the same.
        let inside = &rest[start + 2..start + 2 + len];
        let name = inside.split(',').next().unwrap_or(inside);
        out.insert(name.trim().to_string());
        rest = &rest[start + 4 + len..];
    }
    out
}

/// The base key of a plural form (`x_one` -> `x`), if it is one.
fn plural_base(key: &str) -> Option<&str> {
    ["_one", "_many", "_other"]
        .iter()
        .find_map(|s| key.strip_suffix(s))
}

/// Writes `locales/server/en.json` from the code when asked (`HIGHCHAIR_UPDATE_CATALOGUE=1`),
/// else checks it: the base file translators start from says exactly what the code says.
#[test]
fn the_english_catalogue_is_the_code() {
    let code = texts_in_code();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales/server/en.json");
    if std::env::var_os("HIGHCHAIR_UPDATE_CATALOGUE").is_some() {
        let json = serde_json::to_string_pretty(&code).unwrap();
        std::fs::write(&path, json + "\n").unwrap();
    }
    let shipped: BTreeMap<String, String> = parse(FILES[0].1).into_iter().collect();
    let missing: Vec<_> = code.keys().filter(|k| !shipped.contains_key(*k)).collect();
    let unused: Vec<_> = shipped.keys().filter(|k| !code.contains_key(*k)).collect();
    let changed: Vec<_> = code
        .iter()
        .filter(|(k, v)| shipped.get(*k).is_some_and(|s| s != *v))
        .map(|(k, _)| k)
        .collect();
    assert!(
        missing.is_empty() && unused.is_empty() && changed.is_empty(),
        "locales/server/en.json differs from the code (HIGHCHAIR_UPDATE_CATALOGUE=1 cargo test \
         --lib i18n rewrites it):\nmissing {missing:#?}\nunused {unused:#?}\nchanged {changed:#?}"
    );
}

/// Every language has every text, in each of its plural forms, naming the same values.
#[test]
fn every_catalogue_has_every_text() {
    let english: BTreeMap<String, String> = parse(FILES[0].1).into_iter().collect();
    let mut problems = Vec::new();
    for (lang, json) in FILES.iter().skip(1) {
        let raw: BTreeMap<String, serde_json::Value> = match serde_json::from_str(json) {
            Ok(map) => map,
            Err(e) => {
                problems.push(format!("{lang}: not a flat JSON object of texts: {e}"));
                continue;
            }
        };
        let catalogue: BTreeMap<String, String> = parse(json).into_iter().collect();
        let mut wanted = BTreeMap::new();
        for (key, en) in &english {
            match plural_base(key) {
                Some(base) if key.ends_with("_other") => {
                    for form in lang.plural_forms() {
                        wanted.insert(format!("{base}{}", form.suffix()), en.clone());
                    }
                }
                Some(_) => {}
                None => {
                    wanted.insert(key.clone(), en.clone());
                }
            }
        }
        for (key, en) in &wanted {
            let Some(text) = catalogue.get(key) else {
                problems.push(format!("{lang}: missing {key:?}"));
                continue;
            };
            let mut theirs = placeholders(text);
            let mut ours = placeholders(en);
            if plural_base(key).is_some() {
                // "une seconde": a form may say its number in words.
                theirs.remove("count");
                ours.remove("count");
            }
            if theirs != ours {
                problems.push(format!(
                    "{lang}: {key:?} names {theirs:?}, the English {ours:?}"
                ));
            }
        }
        for key in raw.keys().filter(|k| !wanted.contains_key(*k)) {
            problems.push(format!("{lang}: {key:?} is not a text of the code"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
