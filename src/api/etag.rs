//! ETags of family lists. A list cannot change without its family's revision moving on, so the
//! revision (and the list's parameters) names its content: a client sending the ETag back
//! gets 304 until the next write, and the server keeps the rendered bytes per revision.

use std::sync::Arc;

use poem_openapi::ApiResponse;
use poem_openapi::types::{ToJSON, Type};

use super::ApiError;
use super::json::JsonBytes;
use super::page_cache::PageCache;
use crate::domain::ids::FamilyId;
use crate::service::Services;

/// Lists may be kept by the browser, but must be checked with the server before each use.
pub const LIST_CACHE: &str = "private, no-cache";

/// The answer depends on whether the client takes gzip: caches must keep the two apart.
const VARY: &str = "Accept-Encoding, Accept-Language";

/// Answers shorter than this go as they are: gzip would save less than its own framing costs.
const GZIP_FROM: usize = 1024;

/// A list's ETag: the family's revision and the list's parameters.
pub fn list_etag(family: FamilyId, revision: u64, query: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    (family, query).hash(&mut h);
    format!("\"r{revision}-{:016x}\"", h.finish())
}

/// Whether the request's `Accept-Encoding` takes gzip (every browser's does), not refused
/// with `q=0`.
pub fn accepts_gzip(req: &poem::Request) -> bool {
    req.headers()
        .get_all(poem::http::header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .is_some_and(|q| q.parse::<f32>().is_ok_and(|q| q <= 0.0))
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Whether `If-None-Match` names `etag` (weak or strong) or `*`.
pub fn etag_matches(if_none_match: Option<&str>, etag: &str) -> bool {
    if_none_match.is_some_and(|v| {
        v.split(',')
            .any(|t| t.trim().trim_start_matches("W/") == etag || t.trim() == "*")
    })
}

/// A family list answered from what the server keeps per revision.
#[derive(ApiResponse)]
pub enum Cached<T: Type + Send + Sync> {
    /// The answer, with the ETag of the family's revision.
    #[oai(status = 200)]
    Ok(
        JsonBytes<T>,
        #[oai(header = "ETag")] String,
        #[oai(header = "Cache-Control")] String,
        #[oai(header = "Vary")] String,
        /// `gzip` when the client takes it and the answer is long enough to gain from it.
        #[oai(header = "Content-Encoding")]
        Option<String>,
    ),
    /// Nothing of the family changed since the ETag the client holds.
    #[oai(status = 304)]
    NotModified(
        #[oai(header = "ETag")] String,
        #[oai(header = "Cache-Control")] String,
        #[oai(header = "Vary")] String,
    ),
}

/// Answers `query` of `family`: 304 when the client holds the current ETag, else the bytes
/// kept for this revision (gzip-compressed when `gzip`, the client taking it), rendered by
/// `render` the first time. The revision is read before `render` reads anything, so a kept
/// answer is never older than the revision it is kept under. Both encodings share the ETag:
/// the same JSON, and a 304 is right whichever the client holds.
pub async fn family_answer<T: Type + Send + Sync>(
    app: &Services,
    req: &poem::Request,
    family: FamilyId,
    query: &str,
    if_none_match: Option<&str>,
    render: impl AsyncFnOnce() -> Result<Vec<u8>, ApiError>,
) -> Result<Cached<T>, ApiError> {
    let gzip = accepts_gzip(req);
    // Warnings and notes in the answer are worded in the request's language: each language
    // is its own answer, with its own ETag.
    let query = &format!("{}|{query}", crate::i18n::scope::current());
    let Some(pages) = req.data::<Arc<PageCache>>() else {
        tracing::error!("no answer cache among the request's data (server::endpoint adds it)");
        return Err(ApiError::internal());
    };
    let revision = app.revision(family);
    let etag = list_etag(family, revision, query);
    if etag_matches(if_none_match, &etag) {
        return Ok(Cached::NotModified(etag, LIST_CACHE.into(), VARY.into()));
    }
    let page = pages.get_or_make(family, revision, query, render).await?;
    let (body, encoding) = if gzip && page.json.len() >= GZIP_FROM {
        (page.gzip(), Some("gzip".to_string()))
    } else {
        (page.json.clone(), None)
    };
    Ok(Cached::Ok(
        JsonBytes::new(body),
        etag,
        LIST_CACHE.into(),
        VARY.into(),
        encoding,
    ))
}

/// JSON bytes through serde (DTOs that also derive `Serialize` with the same names).
pub fn serde_bytes(value: &impl serde::Serialize, what: &str) -> Result<Vec<u8>, ApiError> {
    serde_json::to_vec(value).map_err(|e| {
        tracing::error!(error = %e, what, "answer not serialisable");
        ApiError::internal()
    })
}

/// JSON bytes exactly as poem-openapi's `Json<T>` writes them (one `Value` tree, built once
/// per revision).
pub fn openapi_bytes(value: &impl ToJSON) -> Vec<u8> {
    value.to_json_string().into_bytes()
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

    #[test]
    fn gzip_is_taken_unless_refused() {
        let asks = |values: &[&str]| {
            let mut req = poem::Request::builder();
            for v in values {
                req = req.header(poem::http::header::ACCEPT_ENCODING, *v);
            }
            accepts_gzip(&req.finish())
        };
        assert!(asks(&["gzip, deflate, br, zstd"]), "a browser");
        assert!(asks(&["br", "GZIP;q=0.5"]));
        assert!(asks(&["*"]));
        assert!(!asks(&[]));
        assert!(!asks(&["identity"]));
        assert!(!asks(&["br, gzip;q=0"]));
        assert!(!asks(&["gzipped"]));
    }
}
