//! Request body limits. poem's `SizeLimit` only reads Content-Length, so chunked bodies are
//! also counted here while they are read, and a body that stops arriving for
//! `body_timeout_secs` is answered 408 instead of holding its connection.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;

use poem::http::{StatusCode, header};
use poem::{Body, Endpoint, IntoResponse, Request, Response, Result};

use crate::api::error::error_response;
use crate::config::LimitSettings;
use crate::service::recipe_import::PAGE_MAX_BYTES;

/// Routes that take photo uploads get `upload_mb`; everything else `body_kb`.
const UPLOAD_PATHS: &[&str] = &["/api/media", "/api/profile/avatar"];
/// Room for multipart headers around the file itself.
const MULTIPART_OVERHEAD: u64 = 64 * 1024;
/// A recipe import may carry a whole page: the page limit, twice over for the JSON escapes
/// around its quotes and line breaks (the use case checks the page itself).
const IMPORT_PATH: &str = "/api/recipes/import";
const IMPORT_BYTES: u64 = 2 * PAGE_MAX_BYTES as u64 + 64 * 1024;

pub(super) async fn limit<E: Endpoint>(
    ep: Arc<E>,
    mut req: Request,
    limits: LimitSettings,
) -> Result<Response> {
    let is_upload = UPLOAD_PATHS.contains(&req.uri().path());
    let is_import = req.uri().path() == IMPORT_PATH;
    let max = if is_upload {
        limits.upload_bytes() + MULTIPART_OVERHEAD
    } else if is_import {
        IMPORT_BYTES.max(limits.body_bytes())
    } else {
        limits.body_bytes()
    };
    let too_large = || {
        let message = if is_upload {
            t!(
                "Photos must be {{mb}} MB or smaller.",
                mb = limits.upload_mb
            )
        } else if is_import {
            t!(
                "The page is larger than {{mb}} MB, so Highchair did not read it. Paste the \
                 recipe's text instead.",
                mb = PAGE_MAX_BYTES >> 20
            )
        } else {
            t!(
                "The request must be {{kb}} KB or smaller.",
                kb = limits.body_kb
            )
        };
        Ok(error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            t!("Request too large"),
            message,
        ))
    };

    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > max) {
        return too_large();
    }
    let chunked = req.headers().contains_key(header::TRANSFER_ENCODING);
    if chunked || declared.is_some_and(|len| len > 0) {
        let limit = usize::try_from(max).unwrap_or(usize::MAX);
        let stall = Duration::from_secs(u64::from(limits.body_timeout_secs));
        let mut chunks = req.take_body().into_bytes_stream();
        let mut body = Vec::with_capacity(declared.map_or(0, |n| n as usize).min(limit));
        loop {
            match tokio::time::timeout(stall, chunks.next()).await {
                Err(_) => {
                    return Ok(error_response(
                        StatusCode::REQUEST_TIMEOUT,
                        t!("Request timeout"),
                        t!("The request stopped arriving. Please try again."),
                    ));
                }
                Ok(None) => break,
                Ok(Some(Ok(chunk))) => {
                    if body.len() + chunk.len() > limit {
                        return too_large();
                    }
                    body.extend_from_slice(&chunk);
                }
                Ok(Some(Err(e))) => {
                    return Ok(error_response(
                        StatusCode::BAD_REQUEST,
                        t!("Invalid request"),
                        t!(
                            "The request body could not be read: {{reason}}",
                            reason = e.to_string()
                        ),
                    ));
                }
            }
        }
        req.set_body(Body::from(body));
    }
    ep.call(req).await.map(IntoResponse::into_response)
}
