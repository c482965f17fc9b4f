//! schema.org Recipe data in a page's JSON-LD: every `<script type="application/ld+json">`,
//! each an object, a list, or a `@graph`, with the recipe at the top, in the graph or nested
//! (a WebPage's `mainEntity`); `@type` a string or a list ("Recipe", "schema:Recipe",
//! "http://schema.org/Recipe").

use serde_json::{Map, Value};

use serde::Deserialize;

use super::values::{clean, first_number, minutes, servings};
use super::{Draft, Found, HIGHCHAIR};
use crate::domain::recipe::{Nutrition, RecipeContent};

/// How deep a page's JSON-LD is searched for recipes (real pages nest two or three levels).
const MAX_DEPTH: usize = 8;

/// Every recipe in the page's JSON-LD, in page order; scripts that are not JSON are skipped.
/// Read from the page's text, without building its tree: a script's content is raw text up to
/// `</script`, so a scan finds it as a parser would, in a fraction of the time and memory (a
/// 4.5 MB page's tree takes about 45 MB).
pub fn recipes(html: &str) -> Vec<Draft> {
    scripts(html).flat_map(from_json).collect()
}

/// The contents of the page's `<script type="application/ld+json">` elements, in order;
/// commented-out markup is skipped.
fn scripts(html: &str) -> impl Iterator<Item = &str> {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let open = rest.find('<')?;
            rest = &rest[open..];
            if rest.starts_with("<!--") {
                rest = rest.find("-->").map_or("", |end| &rest[end + 3..]);
                continue;
            }
            // "<script" then a space or ">" ("<scripts" is another element).
            let is_script = rest
                .get(1..7)
                .is_some_and(|t| t.eq_ignore_ascii_case("script"))
                && rest[7..].starts_with(|c: char| c.is_ascii_whitespace() || c == '>');
            if !is_script {
                rest = &rest[1..];
                continue;
            }
            let tag_end = tag_end(rest)?;
            let (tag, body) = (&rest[..tag_end], &rest[tag_end + 1..]);
            let close = find_ignore_case(body, "</script").unwrap_or(body.len());
            let content = &body[..close];
            rest = &body[close..];
            if is_jsonld(tag) {
                return Some(content);
            }
        }
    })
}

/// Where a start tag ends (its `>`), quoted attribute values skipped.
fn tag_end(tag: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in tag.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    None
}

fn find_ignore_case(text: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (text.as_bytes(), needle.as_bytes());
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// Whether a script tag's `type` attribute is JSON-LD ("application/ld+json", any case, any
/// parameters); other attributes ("data-type", an id naming a type) are skipped.
fn is_jsonld(tag: &str) -> bool {
    attribute(tag, "type").is_some_and(|t| {
        t.trim()
            .to_ascii_lowercase()
            .starts_with("application/ld+json")
    })
}

/// The value of a start tag's attribute, as the tokenizer reads it: names are separated by
/// spaces, values are quoted or end at a space.
fn attribute<'a>(tag: &'a str, wanted: &str) -> Option<&'a str> {
    // Past "<script".
    let mut rest = tag.get(7..)?;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == '/');
        if rest.is_empty() {
            return None;
        }
        let name_end = rest
            .find(|c: char| c.is_ascii_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let value = if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (value, next) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let body = &after[1..];
                    let end = body.find(q).unwrap_or(body.len());
                    (&body[..end], body.get(end + 1..).unwrap_or(""))
                }
                _ => {
                    let end = after
                        .find(|c: char| c.is_ascii_whitespace())
                        .unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            rest = next;
            value
        } else {
            ""
        };
        if name.eq_ignore_ascii_case(wanted) {
            return Some(value);
        }
        if name.is_empty() {
            // Not a name at all ("=" alone): skip a character.
            rest = rest.get(1..).unwrap_or("");
        }
    }
}

/// Every recipe in a JSON-LD document (a script's text, or a file such as Highchair's export).
pub fn from_json(text: &str) -> Vec<Draft> {
    let Some(value) = parse_lenient(text) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    collect(&value, 0, &mut found);
    found.into_iter().filter_map(draft).collect()
}

/// JSON as pages write it: sometimes wrapped in a comment or CDATA, sometimes with a trailing
/// comma or a raw newline in a string.
fn parse_lenient(text: &str) -> Option<Value> {
    let t = text
        .trim()
        .trim_start_matches("<!--")
        .trim_end_matches("-->")
        .trim()
        .trim_start_matches("//<![CDATA[")
        .trim_end_matches("//]]>")
        .trim();
    serde_json::from_str(t).ok().or_else(|| {
        let mended = t.replace(['\n', '\r', '\t'], " ");
        let mended = mended
            .replace(", }", " }")
            .replace(",}", "}")
            .replace(", ]", " ]")
            .replace(",]", "]");
        serde_json::from_str(&mended).ok()
    })
}

fn is_recipe(object: &Map<String, Value>) -> bool {
    let named = |t: &str| {
        let t = t.trim();
        t == "Recipe" || t.ends_with(":Recipe") || t.ends_with("/Recipe")
    };
    match object.get("@type") {
        Some(Value::String(t)) => named(t),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).any(named),
        _ => false,
    }
}

fn collect<'a>(value: &'a Value, depth: usize, out: &mut Vec<&'a Map<String, Value>>) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Array(items) => items.iter().for_each(|v| collect(v, depth + 1, out)),
        Value::Object(object) if is_recipe(object) => out.push(object),
        Value::Object(object) => {
            for key in [
                "@graph",
                "mainEntity",
                "mainEntityOfPage",
                "about",
                "hasPart",
                "itemListElement",
                "item",
            ] {
                if let Some(v) = object.get(key) {
                    collect(v, depth + 1, out);
                }
            }
        }
        _ => {}
    }
}

/// A text field: a string, or the first string of a list.
fn text(object: &Map<String, Value>, key: &str) -> String {
    match object.get(key) {
        Some(Value::String(s)) => clean(s),
        Some(Value::Array(items)) => items
            .iter()
            .find_map(Value::as_str)
            .map(clean)
            .unwrap_or_default(),
        _ => String::new(),
    }
}

fn draft(object: &Map<String, Value>) -> Option<Draft> {
    let source_url = object.get("isBasedOn").and_then(address);
    let image = object.get("image").and_then(image);
    // Highchair's own export keeps every field as it was, beside the schema.org ones.
    if let Some(content) = object
        .get(HIGHCHAIR)
        .and_then(|v| RecipeContent::deserialize(v).ok())
    {
        return Some(Draft {
            content,
            image,
            source_url,
        });
    }
    let mut steps_found = Vec::new();
    if let Some(v) = object.get("recipeInstructions") {
        steps(v, 0, &mut steps_found);
    }
    let time = |key: &str| object.get(key).and_then(Value::as_str).and_then(minutes);
    Found {
        title: text(object, "name"),
        description: text(object, "description"),
        lines: lines(
            object
                .get("recipeIngredient")
                .or_else(|| object.get("ingredients")),
        ),
        steps: steps_found,
        prep: time("prepTime"),
        cook: time("cookTime"),
        total: time("totalTime"),
        servings: object.get("recipeYield").and_then(servings),
        nutrition: object.get("nutrition").and_then(nutrition),
        image,
        source_url,
    }
    .draft()
}

/// Ingredient lines: a list of strings, or one string of lines.
fn lines(value: Option<&Value>) -> Vec<String> {
    let raw: Vec<String> = match value {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Some(Value::String(s)) => s.lines().map(str::to_string).collect(),
        _ => Vec::new(),
    };
    raw.iter()
        .map(|l| clean(l))
        .filter(|l| !l.is_empty())
        .collect()
}

/// Steps from a string (one per line), a list of strings, `HowToStep`s (`text`, else `name`),
/// and `HowToSection`s (their `itemListElement`), flattened in order.
fn steps(value: &Value, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::String(s) => {
            // Tags between steps ("<p>Mix.</p><p>Bake.</p>") are line breaks too.
            let spaced = s
                .replace("</p>", "\n")
                .replace("<br>", "\n")
                .replace("<br/>", "\n")
                .replace("<br />", "\n");
            out.extend(spaced.lines().map(clean).filter(|l| !l.is_empty()));
        }
        Value::Array(items) => items.iter().for_each(|v| steps(v, depth + 1, out)),
        Value::Object(object) => {
            if let Some(list) = object.get("itemListElement") {
                steps(list, depth + 1, out);
                return;
            }
            let step = match object.get("text") {
                Some(Value::String(t)) if !t.trim().is_empty() => t,
                _ => match object.get("name") {
                    Some(Value::String(n)) => n,
                    _ => return,
                },
            };
            steps(&Value::String(step.clone()), depth + 1, out);
        }
        _ => {}
    }
}

/// The image's address: a string, an `ImageObject` (`url`, else `contentUrl`), or the first of
/// a list.
fn image(value: &Value) -> Option<String> {
    let url = match value {
        Value::String(s) => s.trim().to_string(),
        Value::Object(o) => o
            .get("url")
            .or_else(|| o.get("contentUrl"))
            .and_then(Value::as_str)?
            .trim()
            .to_string(),
        Value::Array(items) => return items.iter().find_map(image),
        _ => return None,
    };
    (!url.is_empty()).then_some(url)
}

/// An address: a string, or a thing's `url` (`isBasedOn` is either).
fn address(value: &Value) -> Option<String> {
    let url = match value {
        Value::String(s) => s.trim(),
        Value::Object(o) => o.get("url").and_then(Value::as_str)?.trim(),
        _ => return None,
    };
    (!url.is_empty()).then(|| url.to_string())
}

fn nutrition(value: &Value) -> Option<Nutrition> {
    let o = value.as_object()?;
    let n = |key: &str| {
        o.get(key).and_then(|v| match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => first_number(s),
            _ => None,
        })
    };
    let calories = n("calories")?;
    Some(Nutrition {
        calories,
        protein: n("proteinContent").unwrap_or(0.0),
        carbs: n("carbohydrateContent").unwrap_or(0.0),
        fat: n("fatContent").unwrap_or(0.0),
    })
}
