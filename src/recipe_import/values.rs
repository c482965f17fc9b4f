//! The shapes schema.org values come in on real pages: ISO 8601 durations ("PT1H30M"), yields
//! ("4", "4 servings", ["4", "4 servings"], 4, "Serves 4-6"), numbers with units ("250 kcal"),
//! and texts with HTML entities or tags left in.

use serde_json::Value;

use crate::domain::recipe::MINUTES_MAX;
use crate::domain::text::strip_markup;

/// Minutes of a duration: ISO 8601 ("PT1H30M", "P0DT0H45M", "PT90M", "PT0.5H", "P1D") or words
/// ("1 hour 30 minutes", "45 mins"); `None` when it says nothing readable or more than a day.
pub fn minutes(text: &str) -> Option<u32> {
    let t = text.trim();
    let total = if t.starts_with(['P', 'p']) {
        iso_minutes(&t[1..])?
    } else {
        word_minutes(t)?
    };
    let m = total.round();
    (m > 0.0 && m <= f64::from(MINUTES_MAX)).then_some(m as u32)
}

fn iso_minutes(rest: &str) -> Option<f64> {
    let mut total = 0.0;
    let mut number = String::new();
    let mut in_time = false;
    let mut any = false;
    for c in rest.chars() {
        match c.to_ascii_uppercase() {
            'T' => in_time = true,
            d if d.is_ascii_digit() || d == '.' || d == ',' => {
                number.push(if d == ',' { '.' } else { d })
            }
            unit => {
                let n: f64 = number.parse().ok()?;
                number.clear();
                any = true;
                total += n * match (unit, in_time) {
                    ('D', false) => 24.0 * 60.0,
                    ('W', false) => 7.0 * 24.0 * 60.0,
                    ('H', true) => 60.0,
                    ('M', true) => 1.0,
                    ('S', true) => 1.0 / 60.0,
                    _ => return None,
                };
            }
        }
    }
    (any && number.is_empty()).then_some(total)
}

fn word_minutes(text: &str) -> Option<f64> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    let mut total = 0.0;
    let mut any = false;
    let mut i = 0;
    while i < words.len() {
        // "45min" or "45 min"
        let (num, unit) = match words[i].find(|c: char| c.is_alphabetic()) {
            Some(0) => {
                i += 1;
                continue;
            }
            Some(at) => (&words[i][..at], &words[i][at..]),
            None => (words[i], words.get(i + 1).copied().unwrap_or("")),
        };
        let Ok(n) = num.parse::<f64>() else {
            i += 1;
            continue;
        };
        let per = if unit.starts_with('h') {
            60.0
        } else if unit.starts_with("min") || unit == "m" {
            1.0
        } else {
            i += 1;
            continue;
        };
        total += n * per;
        any = true;
        i += 1;
    }
    any.then_some(total)
}

/// The first number in a text ("Serves 4-6" -> 4, "250 kcal" -> 250, "1.5 g" -> 1.5).
pub fn first_number(text: &str) -> Option<f64> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let digits: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .map(|c| if c == ',' { '.' } else { c })
        .collect();
    digits.trim_end_matches('.').parse().ok()
}

/// Servings of a `recipeYield` in any of its shapes: the first that names a number.
pub fn servings(value: &Value) -> Option<u32> {
    match value {
        Value::Number(n) => n.as_f64().and_then(servings_of),
        Value::String(s) => servings_in(s),
        Value::Array(items) => items.iter().find_map(servings),
        _ => None,
    }
}

/// Servings a text names ("Serves 4-6" -> 4).
pub fn servings_in(text: &str) -> Option<u32> {
    first_number(text).and_then(servings_of)
}

fn servings_of(n: f64) -> Option<u32> {
    let n = n.round();
    (1.0..=f64::from(crate::domain::recipe::RECIPE_SERVINGS_MAX))
        .contains(&n)
        .then_some(n as u32)
}

/// A text as people read it: entities decoded, tags dropped, spaces collapsed.
pub fn clean(text: &str) -> String {
    let decoded = decode_entities(&decode_entities(text));
    strip_markup(&decoded)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The entities pages leave in JSON-LD texts ("Fish &amp; chips", "&#8217;", "&nbsp;").
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        // An entity is short: look for its ';' in the next few bytes only, so a text of '&'s
        // costs one pass.
        let end = tail.bytes().take(11).position(|b| b == b';');
        let decoded = end.and_then(|e| entity(&tail[1..e]));
        match (end, decoded) {
            (Some(e), Some(c)) => {
                out.push(c);
                rest = &tail[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse().ok()?,
        };
        return char::from_u32(code);
    }
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "frac12" => '½',
        "frac14" => '¼',
        "frac34" => '¾',
        "deg" => '°',
        "rsquo" | "lsquo" => '\'',
        "ndash" => '–',
        "mdash" => '—',
        "eacute" => 'é',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn durations_in_the_shapes_pages_write_them() {
        let cases = [
            ("PT1H30M", Some(90)),
            ("PT90M", Some(90)),
            ("P0DT0H45M", Some(45)),
            ("PT0.5H", Some(30)),
            ("PT1H30M0S", Some(90)),
            ("pt20m", Some(20)),
            ("P1D", Some(1440)),
            ("PT0M", None),
            ("P2D", None),
            ("PT", None),
            ("PTxM", None),
            ("1 hour 30 minutes", Some(90)),
            ("45 mins", Some(45)),
            ("45min", Some(45)),
            ("2 hrs", Some(120)),
            ("about 10 minutes", Some(10)),
            ("overnight", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(minutes(text), expected, "{text}");
        }
    }

    #[test]
    fn yields_in_their_many_shapes() {
        let cases = [
            (json!(4), Some(4)),
            (json!("4"), Some(4)),
            (json!("4 servings"), Some(4)),
            (json!("Serves 4-6"), Some(4)),
            (json!(["4", "4 servings"]), Some(4)),
            (json!(["a family", "6 portions"]), Some(6)),
            (json!("Makes 12 muffins"), Some(12)),
            (json!("a crowd"), None),
            (json!(0), None),
            (json!(5000), None),
            (json!({"value": 4}), None),
        ];
        for (value, expected) in cases {
            assert_eq!(servings(&value), expected, "{value}");
        }
        assert_eq!(first_number("250 kcal"), Some(250.0));
        assert_eq!(first_number("1,5 g"), Some(1.5));
        assert_eq!(first_number("none"), None);
    }

    #[test]
    fn texts_lose_entities_and_tags() {
        assert_eq!(clean("Fish &amp; chips"), "Fish & chips");
        assert_eq!(clean("Mum&#8217;s <b>best</b>&nbsp;pie"), "Mum’s best pie");
        assert_eq!(clean("Fish &amp;amp; chips"), "Fish & chips");
        assert_eq!(clean("<p>Mix.</p>\n<p>Bake.</p>"), "Mix. Bake.");
        assert_eq!(clean("A & B &unknown; 3 < 4"), "A & B &unknown; 3 < 4");
    }
}
