//! Tag lists (dietary restrictions, allergies, foods): trimmed, empty entries dropped, and an
//! entry added only when it is not already in the list (ignoring case).

use super::error::Invalid;
use super::text::{char_len, field_label, sanitize_line, too_long_message};
use crate::i18n::Text;

/// Longest single entry.
pub const TAG_MAX: usize = 100;
/// Most entries in one list.
pub const TAGS_MAX: usize = 50;

/// Cleans a list the way the form builds it. Fails when an entry or the list is too long.
pub fn clean(entries: &[String], title: &Text, field: &str) -> Result<Vec<String>, Invalid> {
    clean_within(entries, title, field, TAG_MAX, TAGS_MAX)
}

/// `clean` with other bounds: entries of at most `entry_max` characters, at most `list_max`
/// of them.
pub fn clean_within(
    entries: &[String],
    title: &Text,
    field: &str,
    entry_max: usize,
    list_max: usize,
) -> Result<Vec<String>, Invalid> {
    let too_many = || {
        Invalid::new(
            title,
            t!(
                "Please keep the list to {{max}} entries or fewer",
                max = list_max
            ),
            field,
        )
    };
    // Bounded before any work: a huge body must not cost a quadratic scan, and there is room
    // for the empty and repeated entries a form may send, not for thousands.
    if entries.len() > list_max * 2 {
        return Err(too_many());
    }
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for entry in entries {
        let entry = sanitize_line(entry);
        if entry.is_empty() {
            continue;
        }
        if char_len(&entry) > entry_max {
            return Err(Invalid::new(
                title,
                too_long_message(field_label(field), entry_max),
                field,
            ));
        }
        if seen.insert(entry.to_lowercase()) {
            out.push(entry);
        }
    }
    if out.len() > list_max {
        return Err(too_many());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn trims_drops_empties_and_duplicates() {
        assert_eq!(
            clean(
                &list(&[
                    " Peanuts ",
                    "",
                    "  ",
                    "peanuts",
                    "Milk",
                    "MILK",
                    "Egg  white"
                ]),
                &t!("t"),
                "f"
            )
            .unwrap(),
            list(&["Peanuts", "Milk", "Egg white"])
        );
    }

    #[test]
    fn limits() {
        assert!(clean(&list(&[&"x".repeat(101)]), &t!("t"), "allergies").is_err());
        let many: Vec<String> = (0..51).map(|i| format!("item {i}")).collect();
        assert_eq!(
            clean(&many, &t!("t"), "f").unwrap_err().field.as_deref(),
            Some("f")
        );
    }
}
