//! ETags of family lists. A list cannot change without its family's revision moving on, so the
//! revision (and the list's parameters) names its content: a client sending the ETag back
//! gets 304 until the next write, and the server keeps the rendered bytes per revision.

use crate::domain::ids::FamilyId;

/// Lists may be kept by the browser, but must be checked with the server before each use.
pub const LIST_CACHE: &str = "private, no-cache";

/// A list's ETag: the family's revision and the list's parameters.
pub fn list_etag(family: FamilyId, revision: u64, query: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    (family, query).hash(&mut h);
    format!("\"r{revision}-{:016x}\"", h.finish())
}

/// Whether `If-None-Match` names `etag` (weak or strong) or `*`.
pub fn etag_matches(if_none_match: Option<&str>, etag: &str) -> bool {
    if_none_match.is_some_and(|v| {
        v.split(',')
            .any(|t| t.trim().trim_start_matches("W/") == etag || t.trim() == "*")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_follow_revision_and_query() {
        let f = FamilyId::new();
        let a = list_etag(f, 3, "x");
        assert_ne!(a, list_etag(f, 4, "x"));
        assert_ne!(a, list_etag(f, 3, "y"));
        assert_ne!(a, list_etag(FamilyId::new(), 3, "x"));
        assert!(etag_matches(Some(&a), &a));
        assert!(etag_matches(Some(&format!("W/{a}, \"other\"")), &a));
        assert!(etag_matches(Some("*"), &a));
        assert!(!etag_matches(Some("\"r3-0\""), &a));
        assert!(!etag_matches(None, &a));
    }
}
