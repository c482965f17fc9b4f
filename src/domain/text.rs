//! General text rules (spec section 5): sanitised, at most 1000 characters unless a field says less.

use super::food_words::folded;
use crate::i18n::Text;

/// Default maximum for free text (notes, messages, feedback).
pub const GENERAL_TEXT_MAX: usize = 1000;
/// Maximum for names (spec section 9).
pub const NAME_MAX: usize = 100;

/// Trims, drops control characters (keeping line breaks and tabs) and the bidirectional
/// override and isolate characters (U+202A-U+202E, U+2066-U+2069: they reorder what a screen or
/// an export shows, "gpj.exe" for "exe.jpg"), and normalises line endings. A text of nothing
/// but invisible characters (zero-width spaces and joiners, soft hyphens, fillers) is empty, so
/// a required name made of them is refused. Markup is kept as typed: the UI never renders it
/// as HTML.
pub fn sanitize(input: &str) -> String {
    let unified = input.replace("\r\n", "\n").replace('\r', "\n");
    let cleaned: String = unified
        .chars()
        .filter(|c| (!c.is_control() || *c == '\n' || *c == '\t') && !is_bidi_control(*c))
        .collect();
    let trimmed = cleaned.trim_matches(|c: char| c.is_whitespace() || is_invisible(c));
    if trimmed
        .chars()
        .all(|c| c.is_whitespace() || is_invisible(c))
    {
        return String::new();
    }
    trimmed.to_string()
}

/// Characters that change the direction text is shown in.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Characters that take no room on a screen: a text of only these reads as empty.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2060}'..='\u{2064}'
            | '\u{206A}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// Sanitises a one-line value: like `sanitize`, and runs of whitespace become one space.
pub fn sanitize_line(input: &str) -> String {
    sanitize(input)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Drops markup tags ("<b>", "</i>", "<br/>", "<!-- x -->"), keeping the text between them,
/// for one-line values that are only ever words (a meal plan's free text). A '<' that opens no
/// tag ("<3", "a < b") stays.
pub fn strip_markup(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    let mut rest = input;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let opens_tag = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        if !opens_tag {
            out.push('<');
            rest = after;
            continue;
        }
        match after.find('>') {
            Some(end) => rest = &after[end + 1..],
            // No '>' anywhere after: no later '<' closes a tag either (one pass, not one per '<').
            None => {
                out.push('<');
                out.push_str(after);
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Compares as a person sorts names: ignoring case, and runs of digits by their value
/// ("Child 2" before "Child 10").
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    let (mut x, mut y) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let take = |it: &mut std::iter::Peekable<std::str::Chars<'_>>| {
                    let mut run = String::new();
                    while let Some(c) = it.next_if(char::is_ascii_digit) {
                        run.push(c);
                    }
                    run
                };
                let (m, n) = (take(&mut x), take(&mut y));
                let (m, n) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                let by_value = m.len().cmp(&n.len()).then_with(|| m.cmp(n));
                if by_value != Ordering::Equal {
                    return by_value;
                }
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                x.next();
                y.next();
            }
        }
    }
}

/// Number of characters as a person counts them.
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

/// The spec's message for text over a limit, naming what it is about: "Name must be 100
/// characters or less" (issue 26: the spec's "Input must be..." left a parent guessing which
/// field, in a toast).
pub fn too_long_message(label: Text, max: usize) -> Text {
    t!(
        "{{field}} must be {{max}} characters or less",
        field = label,
        max = max
    )
}

/// A file name's stem from a title ("Sunday's roast!" -> "sunday-s-roast"), `fallback` when
/// nothing is left. ASCII only: it goes in a `Content-Disposition` header; accents come off
/// ("Poêlée" is "poelee", "Hähnchen" "hahnchen").
pub fn file_stem(title: &str, fallback: &str) -> String {
    let stem = folded(title)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .take(12)
        .collect::<Vec<_>>()
        .join("-");
    if stem.is_empty() {
        fallback.into()
    } else {
        stem
    }
}

/// How a message names an API field.
pub fn field_label(field: &str) -> Text {
    match field {
        "name" => t!("Name"),
        "email" => t!("Email"),
        "password" => t!("Password"),
        "firstName" => t!("First name"),
        "lastName" => t!("Last name"),
        "message" => t!("Message"),
        "notes" => t!("Notes"),
        "reactionNote" => t!("Reaction note"),
        "foods" => t!("Each food"),
        "allergies" => t!("Each allergy"),
        "dietaryRestrictions" => t!("Each dietary restriction"),
        "ingredients" => t!("Each ingredient"),
        "instructions" => t!("Each step"),
        "tips" => t!("Each tip"),
        "substitutions" => t!("Each substitution"),
        "text" => t!("What's planned"),
        "title" => t!("Title"),
        "description" => t!("Description"),
        "difficulty" => t!("Difficulty"),
        "sourceUrl" => t!("The source address"),
        _ => t!("Input"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems_are_ascii_words_joined_by_dashes() {
        assert_eq!(file_stem("Sunday's roast!", "x"), "sunday-s-roast");
        assert_eq!(file_stem("Épicerie du samedi", "x"), "epicerie-du-samedi");
        assert_eq!(file_stem("Compra del sábado", "x"), "compra-del-sabado");
        assert_eq!(
            file_stem("Pfanne mit Hähnchenbrust", "x"),
            "pfanne-mit-hahnchenbrust"
        );
        assert_eq!(file_stem("食料品", "grocery-list"), "grocery-list");
    }

    #[test]
    fn sanitize_trims_and_removes_control_characters() {
        assert_eq!(sanitize("  hello\u{0}\u{7} world \r\n"), "hello world");
        assert_eq!(sanitize("line one\r\nline two"), "line one\nline two");
        assert_eq!(sanitize("<b>kept</b>"), "<b>kept</b>");
        assert_eq!(sanitize_line("  many   spaces\n here "), "many spaces here");
    }

    /// Issue 26: names of only invisible characters were accepted, and direction overrides
    /// spoofed what a screen or an export showed.
    #[test]
    fn invisible_only_text_is_empty_and_direction_overrides_are_dropped() {
        for blank in [
            "\u{200B}",
            "\u{200B}\u{200C}\u{200D}",
            " \u{FEFF} \u{2060} ",
            "\u{3164}",
            "\u{00AD}\u{00AD}",
            "\u{202E}",
            "\u{2067}\u{2069}",
            "\u{E0041}",
        ] {
            assert_eq!(sanitize(blank), "", "{blank:?}");
            assert_eq!(sanitize_line(blank), "", "{blank:?}");
        }
        assert_eq!(sanitize("Ava\u{202E}gpj.exe"), "Avagpj.exe");
        assert_eq!(sanitize_line("\u{2066}Milk\u{2069}"), "Milk");
        assert_eq!(sanitize("\u{200B}Ava\u{200B}"), "Ava");
        // Joiners inside a word or an emoji stay: they are part of it.
        assert_eq!(sanitize("👩\u{200D}👧"), "👩\u{200D}👧");
        assert_eq!(sanitize("Zoë"), "Zoë");
    }

    #[test]
    fn markup_is_stripped_and_a_lone_angle_bracket_kept() {
        assert_eq!(strip_markup("<b>Leftovers</b>"), "Leftovers");
        assert_eq!(
            strip_markup("Soup<script>alert(1)</script>"),
            "Soupalert(1)"
        );
        assert_eq!(strip_markup("Pasta <3"), "Pasta <3");
        assert_eq!(strip_markup("a < b and c > d"), "a < b and c > d");
        assert_eq!(strip_markup("<!-- x -->Rice<br/>"), "Rice");
        assert_eq!(strip_markup("Tea <i unclosed"), "Tea <i unclosed");
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        assert_eq!(char_len("crème brûlée"), 12);
        assert_eq!(
            too_long_message(field_label("notes"), 1000),
            "Notes must be 1000 characters or less"
        );
    }
}
