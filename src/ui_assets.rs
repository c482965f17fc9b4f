//! The built UI (`ui/dist`), embedded in the binary.
//!
//! Files are served with an ETag; Vite's hashed `assets/` get a year of immutable caching and
//! everything else `no-cache`. Precompressed `.br` / `.gz` siblings are sent when accepted.
//! Any other path gets `index.html` (the SPA renders the page); paths that are not one of the
//! UI's routes answer 404 and are logged, so a broken link shows up in the server log.

use std::sync::LazyLock;

use poem::http::{HeaderValue, Method, StatusCode, header};
use poem::{Endpoint, Request, Response, Result};
use rust_embed::RustEmbed;

use crate::api::error::error_response;
use crate::telemetry::redact_path;

#[derive(RustEmbed)]
#[folder = "ui/dist/"]
struct Dist;

/// The UI's route table, shared with the UI (`ui/src/routes.json`).
const ROUTES_JSON: &str = include_str!("../ui/src/routes.json");

static ROUTES: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| {
    let table: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(ROUTES_JSON).unwrap_or_default();
    table
        .values()
        .filter_map(|v| v.as_str())
        .map(segments)
        .collect()
});

fn segments(path: &str) -> Vec<String> {
    path.trim_matches('/')
        .split('/')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether `path` is one of the UI's pages (`:name` matches one segment).
pub fn is_known_route(path: &str) -> bool {
    let wanted = segments(path);
    ROUTES.iter().any(|pattern| {
        pattern.len() == wanted.len()
            && pattern
                .iter()
                .zip(&wanted)
                .all(|(p, w)| p.starts_with(':') || p == w)
    })
}

pub struct UiEndpoint;

impl Endpoint for UiEndpoint {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        if !matches!(*req.method(), Method::GET | Method::HEAD) {
            let mut resp = error_response(
                StatusCode::METHOD_NOT_ALLOWED,
                t!("Method not allowed"),
                t!("Pages can only be fetched with GET."),
            );
            resp.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            return Ok(resp);
        }
        let path = req.uri().path();
        let file = path.trim_start_matches('/');
        // Swagger UI's files are the API's (`ApiDocs`), under /api/docs only.
        let docs = file.starts_with("api-docs/");
        if !file.is_empty() && !docs && exists(file) {
            return Ok(serve_file(&req, file, StatusCode::OK));
        }
        let status = if is_known_route(path) {
            StatusCode::OK
        } else {
            tracing::info!(path = %redact_path(path), "page not found");
            StatusCode::NOT_FOUND
        };
        Ok(serve_file(&req, "index.html", status))
    }
}

/// Whether the build has a file to serve as `name`, as it is or stored only compressed
/// (`name.gz`). The compressed copies themselves are not files to ask for.
fn exists(name: &str) -> bool {
    let is_variant = name.ends_with(".gz") || name.ends_with(".br");
    !is_variant && (Dist::get(name).is_some() || Dist::get(&format!("{name}.gz")).is_some())
}

/// Swagger UI at `/api/docs` (nested there): the page and its files from the build's
/// `api-docs/` folder (ui/scripts/api-docs.mjs). Anything else under it is the API's 404.
pub struct ApiDocs;

impl Endpoint for ApiDocs {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        if !matches!(*req.method(), Method::GET | Method::HEAD) {
            return Err(poem::error::MethodNotAllowedError.into());
        }
        let rest = req.uri().path().trim_matches('/');
        let name = if rest.is_empty() {
            "api-docs/index.html".to_string()
        } else {
            format!("api-docs/{rest}")
        };
        if rest.contains('/') || !exists(&name) {
            return Err(poem::error::NotFoundError.into());
        }
        Ok(serve_file(&req, &name, StatusCode::OK))
    }
}

fn serve_file(req: &Request, name: &str, status: StatusCode) -> Response {
    let raw = Dist::get(name);
    let gzipped = Dist::get(&format!("{name}.gz"));
    // A file stored only compressed (Swagger UI's bundle) is named by its gzip copy.
    let Some(stored) = raw.as_ref().or(gzipped.as_ref()) else {
        return error_response(
            StatusCode::NOT_FOUND,
            t!("Not found"),
            t!("The web interface is not built into this binary."),
        );
    };
    let etag = format!("\"{}\"", hex::encode(&stored.metadata.sha256_hash()[..12]));
    let has_variants = gzipped.is_some();
    let cache = if name.starts_with("assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let accepted = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let precompressed = [("br", "br"), ("gzip", "gz")]
        .iter()
        .find_map(|(coding, ext)| {
            accepts(accepted, coding)
                .then(|| Dist::get(&format!("{name}.{ext}")))
                .flatten()
                .map(|variant| (variant.data, Some(*coding)))
        });
    let (body, encoding) = match (precompressed, raw) {
        (Some(found), _) => found,
        (None, Some(file)) => (file.data, None),
        // Neither encoding taken and only the gzip copy stored: decompressed for this client.
        (None, None) => match gzipped.and_then(|file| gunzip(&file.data)) {
            Some(data) => (data.into(), None),
            None => {
                tracing::error!(file = name, "a built-in file does not decompress");
                return error_response(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    t!("Internal error"),
                    t!("A built-in file is damaged."),
                );
            }
        },
    };

    let mut builder = Response::builder()
        .header(header::CONTENT_TYPE, content_type(name))
        .header(header::CACHE_CONTROL, cache)
        .header(header::ETAG, etag.as_str());
    if has_variants {
        builder = builder.header(header::VARY, "Accept-Encoding");
    }
    let not_modified = status == StatusCode::OK
        && req
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    if not_modified {
        return builder.status(StatusCode::NOT_MODIFIED).finish();
    }
    if let Some(coding) = encoding {
        builder = builder.header(header::CONTENT_ENCODING, coding);
    }
    let builder = builder.status(status);
    if req.method() == Method::HEAD {
        builder.header(header::CONTENT_LENGTH, body.len()).finish()
    } else {
        builder.body(body.into_owned())
    }
}

fn gunzip(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(data), &mut out).ok()?;
    Some(out)
}

/// Whether an Accept-Encoding header allows `coding` (ignoring `q=0`).
fn accepts(header: &str, coding: &str) -> bool {
    header.split(',').any(|part| {
        let mut pieces = part.split(';').map(str::trim);
        let name = pieces.next().unwrap_or_default();
        let refused = pieces.any(|p| p.replace(' ', "") == "q=0");
        name.eq_ignore_ascii_case(coding) && !refused
    })
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or_default() {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn route_patterns_match_pages_only() {
        assert!(is_known_route("/"));
        assert!(is_known_route("/about"));
        assert!(is_known_route("/about/"));
        assert!(!is_known_route("/no-such-page"));
        assert!(!is_known_route("/about/extra"));
    }

    #[test]
    fn accept_encoding_parsing() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("gzip;q=0.8", "gzip"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(!accepts("", "gzip"));
    }
}
