//! E-mail addresses: case-insensitive, at most 254 characters, `local@domain.tld`.

use std::fmt;

pub const EMAIL_MAX: usize = 254;

/// A syntactically valid e-mail address, lower-cased so it can be compared and indexed.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct Email(String);

impl Email {
    /// Parses and normalises; `None` when it is not an address.
    pub fn parse(input: &str) -> Option<Email> {
        let text = input.trim();
        if text.is_empty() || text.chars().count() > EMAIL_MAX {
            return None;
        }
        let (local, domain) = text.rsplit_once('@')?;
        let ok_chars = |s: &str| {
            s.chars()
                .all(|c| !c.is_whitespace() && !c.is_control() && !"<>()[]\\,;:\"@".contains(c))
        };
        if local.is_empty() || local.len() > 64 || !ok_chars(local) {
            return None;
        }
        if local.starts_with('.') || local.ends_with('.') || local.contains("..") {
            return None;
        }
        let labels: Vec<&str> = domain.split('.').collect();
        if labels.len() < 2 || !ok_chars(domain) {
            return None;
        }
        let label_ok = |l: &&str| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_alphanumeric() || c == '-')
        };
        if !labels.iter().all(label_ok) {
            return None;
        }
        let tld = labels.last()?;
        if tld.chars().count() < 2 || tld.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        Some(Email(text.to_lowercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The part after `@`.
    pub fn domain(&self) -> &str {
        self.0.rsplit_once('@').map_or("", |(_, d)| d)
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses_and_lowercases() {
        assert_eq!(
            Email::parse(" Mum@Example.ORG ").unwrap().as_str(),
            "mum@example.org"
        );
        assert!(Email::parse("first.last+meals@sub.example.co.uk").is_some());
        assert_eq!(Email::parse("a@b.io").unwrap().domain(), "b.io");
    }

    #[test]
    fn rejects_non_addresses() {
        for bad in [
            "",
            "plainaddress",
            "@example.org",
            "mum@",
            "mum@localhost",
            "mum@example.",
            "mum@.org",
            "mum example@org.uk",
            "mum@exa mple.org",
            "mum@example.1",
            ".mum@example.org",
            "mu..m@example.org",
            "mum@-example.org",
            "<script>@example.org",
        ] {
            assert!(Email::parse(bad).is_none(), "{bad} should be refused");
        }
        let long = format!("{}@example.org", "a".repeat(250));
        assert!(Email::parse(&long).is_none());
    }
}
