//! One log line per request with a request id (also sent back as `X-Request-Id`).
//! Query strings and bodies are never logged; secrets in paths are redacted.

use std::sync::Arc;
use std::time::Instant;

use poem::http::HeaderValue;
use poem::{Endpoint, IntoResponse, Request, Response, Result};
use tracing::Instrument;

use crate::telemetry::redact_path;

pub(super) async fn log<E: Endpoint>(ep: Arc<E>, req: Request) -> Result<Response> {
    let id = request_id();
    let method = req.method().clone();
    let path = redact_path(req.uri().path());
    let span = tracing::info_span!("request", id = %id, method = %method, path = %path);
    let started = Instant::now();
    let mut resp = async {
        match ep.call(req).await {
            Ok(resp) => resp.into_response(),
            Err(err) => err.into_response(),
        }
    }
    .instrument(span.clone())
    .await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        resp.headers_mut().insert("x-request-id", value);
    }
    let status = resp.status().as_u16();
    let ms = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    span.in_scope(|| match status {
        500.. => tracing::error!(status, ms, "request failed"),
        400..=499 => tracing::info!(status, ms, "request refused"),
        _ => tracing::debug!(status, ms, "request"),
    });
    Ok(resp)
}

fn request_id() -> String {
    let bytes: [u8; 8] = rand::random();
    hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_are_unique_hex() {
        let a = request_id();
        assert_eq!(a.len(), 16);
        assert_ne!(a, request_id());
    }
}
