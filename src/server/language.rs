//! The language each request is answered in: the first of `Accept-Language` that Highchair
//! speaks (the UI sends the one the parent chose), else the server's default. Errors, warnings
//! and generated texts read it where they are worded (`i18n::scope`).

use std::sync::Arc;

use poem::http::header;
use poem::{Endpoint, IntoResponse, Request, Response, Result};

use crate::i18n::{Lang, scope};

pub(super) async fn answer_in<E: Endpoint>(
    ep: Arc<E>,
    req: Request,
    default: Lang,
) -> Result<Response> {
    let lang = req
        .headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Lang::from_accept_language)
        .unwrap_or(default);
    // The error, too, becomes its response here: worded in the request's language.
    Ok(scope::within(lang, async {
        match ep.call(req).await {
            Ok(resp) => resp.into_response(),
            Err(err) => err.into_response(),
        }
    })
    .await)
}
