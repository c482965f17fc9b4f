//! Security headers on every response. Only `/api/docs` (Swagger UI, which sets styles inline)
//! gets a relaxed Content-Security-Policy; its scripts are files like the app's.

use std::sync::Arc;

use poem::http::{HeaderValue, header};
use poem::{Endpoint, IntoResponse, Request, Response, Result};

pub const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; \
    script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
const DOCS_CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
    script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
    form-action 'self'";

pub(super) async fn add<E: Endpoint>(ep: Arc<E>, req: Request) -> Result<Response> {
    let path = req.uri().path();
    let docs = path == "/api/docs" || path.starts_with("/api/docs/");
    let api = path == "/api" || path.starts_with("/api/");
    let mut resp = match ep.call(req).await {
        Ok(resp) => resp.into_response(),
        Err(err) => err.into_response(),
    };
    let headers = resp.headers_mut();
    let csp = if docs { DOCS_CSP } else { CSP };
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(csp),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        "permissions-policy",
        HeaderValue::from_static("geolocation=(), microphone=(), payment=()"),
    );
    // Family data must not sit in shared caches; routes that want caching set their own.
    if api && !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(resp)
}
