//! Refuses unsafe methods sent from another site (CSRF). The UI is same-origin; there is no CORS.

use std::sync::Arc;

use poem::http::{Method, StatusCode, header};
use poem::{Endpoint, IntoResponse, Request, Response, Result};

use crate::api::error::error_response;

pub(super) async fn same_origin_only<E: Endpoint>(
    ep: Arc<E>,
    req: Request,
    public_url: String,
) -> Result<Response> {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe && !is_same_origin(&req, &public_url) {
        tracing::info!(method = %req.method(), "cross-origin request refused");
        return Ok(error_response(
            StatusCode::FORBIDDEN,
            "Request refused",
            "Requests from other sites are not allowed.",
        ));
    }
    ep.call(req).await.map(IntoResponse::into_response)
}

fn is_same_origin(req: &Request, public_url: &str) -> bool {
    let headers = req.headers();
    let header_str = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    match header_str(header::ORIGIN.as_str()) {
        Some(origin) => origin_allowed(origin, header_str(header::HOST.as_str()), public_url),
        // No Origin: not a browser form or fetch from another page (curl, the CLI). Browsers
        // that send Sec-Fetch-Site tell us when a request is cross-site.
        None => header_str("sec-fetch-site").is_none_or(|s| s != "cross-site"),
    }
}

/// Same origin when it equals `public_url`, or when its host (and port) is the Host header.
pub fn origin_allowed(origin: &str, host: Option<&str>, public_url: &str) -> bool {
    let origin = origin.trim();
    if origin.eq_ignore_ascii_case("null") {
        return false;
    }
    if !public_url.is_empty() && origin.eq_ignore_ascii_case(public_url.trim_end_matches('/')) {
        return true;
    }
    let Some(authority) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    host.is_some_and(|h| h.trim().eq_ignore_ascii_case(authority))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_host_and_public_url_are_allowed() {
        assert!(origin_allowed(
            "http://pi.local:8080",
            Some("pi.local:8080"),
            ""
        ));
        assert!(origin_allowed(
            "https://meals.example.org",
            Some("127.0.0.1:8080"),
            "https://meals.example.org"
        ));
        assert!(origin_allowed("https://Pi.Local", Some("pi.local"), ""));
    }

    #[test]
    fn other_sites_are_refused() {
        assert!(!origin_allowed(
            "http://evil.example",
            Some("pi.local:8080"),
            ""
        ));
        assert!(!origin_allowed(
            "http://pi.local:8081",
            Some("pi.local:8080"),
            ""
        ));
        assert!(!origin_allowed("null", Some("pi.local"), ""));
        assert!(!origin_allowed("http://pi.local:8080", None, ""));
        assert!(!origin_allowed("pi.local:8080", Some("pi.local:8080"), ""));
    }
}
