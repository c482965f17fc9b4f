//! General text rules (spec section 5): sanitised, at most 1000 characters unless a field says less.

/// Default maximum for free text (notes, messages, feedback).
pub const GENERAL_TEXT_MAX: usize = 1000;
/// Maximum for names (spec section 9).
pub const NAME_MAX: usize = 100;

/// Trims, drops control characters (keeping line breaks and tabs) and normalises line endings.
/// Markup is kept as typed: the UI never renders it as HTML.
pub fn sanitize(input: &str) -> String {
    let unified = input.replace("\r\n", "\n").replace('\r', "\n");
    let cleaned: String = unified
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect();
    cleaned.trim().to_string()
}

/// Sanitises a one-line value: like `sanitize`, and runs of whitespace become one space.
pub fn sanitize_line(input: &str) -> String {
    sanitize(input)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Number of characters as a person counts them.
pub fn char_len(text: &str) -> usize {
    text.chars().count()
}

/// The spec's message for text over a limit.
pub fn too_long_message(max: usize) -> String {
    format!("Input must be {max} characters or less")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_trims_and_removes_control_characters() {
        assert_eq!(sanitize("  hello\u{0}\u{7} world \r\n"), "hello world");
        assert_eq!(sanitize("line one\r\nline two"), "line one\nline two");
        assert_eq!(sanitize("<b>kept</b>"), "<b>kept</b>");
        assert_eq!(sanitize_line("  many   spaces\n here "), "many spaces here");
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        assert_eq!(char_len("crème brûlée"), 12);
        assert_eq!(
            too_long_message(1000),
            "Input must be 1000 characters or less"
        );
    }
}
