//! The session cookie and the request guard. The token only ever travels in an HttpOnly,
//! SameSite=Lax cookie (Secure over HTTPS); the session itself is in `service::sessions`.

use poem::{FromRequest, Request, RequestBody};

use super::ApiError;
use super::client::ClientInfo;
use crate::app::App;
use crate::auth::tokens::SessionToken;
use crate::domain::DomainError;
use crate::i18n::Text;
use crate::service::sessions::{self, SignedIn, Started};

pub const SESSION_COOKIE: &str = "highchair_session";

pub fn cookie(token: &str, max_age_secs: i64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{SESSION_COOKIE}={token}; Path=/; Max-Age={max_age_secs}; HttpOnly; SameSite=Lax{secure}"
    )
}

/// The `Set-Cookie` value for a new session.
pub fn session_cookie(started: &Started, secure: bool) -> String {
    cookie(&started.token, started.max_age_secs, secure)
}

pub fn clear_cookie(secure: bool) -> String {
    cookie("", 0, secure)
}

/// The `Set-Cookie` value for a browser's device cookie: only ever sent to `/api/auth`.
pub fn device_cookie(value: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    let max_age = crate::auth::device::DEVICE_VALID_FOR.num_seconds();
    format!(
        "{}={value}; Path=/api/auth; Max-Age={max_age}; HttpOnly; SameSite=Strict{secure}",
        crate::auth::device::DEVICE_COOKIE
    )
}

/// The anonymous recipe-job cookie: lets a visitor who is not signed in follow the jobs they
/// started. Sent only to `/api/recipes`; lives as long as a job.
pub const JOB_COOKIE: &str = "highchair_jobs";

pub fn job_cookie(value: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    let max_age = crate::domain::generation::JOB_TTL.num_seconds();
    format!(
        "{JOB_COOKIE}={value}; Path=/api/recipes; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}"
    )
}

/// The job cookie a request carries, if any.
pub fn job_cookie_of(req: &Request) -> Option<&str> {
    cookie_of(req, JOB_COOKIE)
}

/// The device cookie a request carries, if any.
pub fn device_cookie_of(req: &Request) -> Option<&str> {
    cookie_of(req, crate::auth::device::DEVICE_COOKIE)
}

/// The non-empty value of cookie `name` in a request's `Cookie` headers.
pub(super) fn cookie_of<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.headers()
        .get_all(poem::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|header| cookie_value(header, name))
}

/// Whether cookies must be marked Secure for this request.
pub fn secure_cookies(app: &App, client: &ClientInfo) -> bool {
    client.secure || app.settings().server.public_url.starts_with("https://")
}

/// The session cookie's token in a `Cookie` header, if any.
pub fn token_from_cookie_header(header: &str) -> Option<&str> {
    cookie_value(header, SESSION_COOKIE)
}

/// The non-empty value of cookie `name` in one `Cookie` header.
fn cookie_value<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, value)| value.trim())
        .filter(|value| !value.is_empty())
}

/// The request guard: the signed-in user, if the request carries a live session cookie.
/// Handlers call `require_to_view` / `require_to_save` for the spec's messages.
#[derive(Debug, Clone)]
pub struct CurrentUser(pub Option<SignedIn>);

impl CurrentUser {
    /// 'Authentication required' / 'You must be logged in to <action>' (the whole sentence:
    /// languages word each action their own way).
    pub fn require_to_view(self, message: Text) -> Result<SignedIn, DomainError> {
        self.0
            .ok_or_else(|| DomainError::not_signed_in(t!("Authentication required"), message))
    }

    /// 'Authentication error' / 'You must be logged in to <action>'.
    pub fn require_to_save(self, message: Text) -> Result<SignedIn, DomainError> {
        self.0
            .ok_or_else(|| DomainError::not_signed_in(t!("Authentication error"), message))
    }
}

impl<'a> FromRequest<'a> for CurrentUser {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let Some(app) = req.data::<App>() else {
            return Ok(CurrentUser(None));
        };
        let Some(token) = cookie_of(req, SESSION_COOKIE) else {
            return Ok(CurrentUser(None));
        };
        match sessions::resume(app, &SessionToken::from_client(token)).await {
            Ok(found) => Ok(CurrentUser(found)),
            Err(e) => {
                tracing::error!(error = %e, "session lookup failed");
                Err(ApiError::internal().into())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookie_flags() {
        let c = cookie("tok", 60, false);
        assert_eq!(
            c,
            "highchair_session=tok; Path=/; Max-Age=60; HttpOnly; SameSite=Lax"
        );
        assert!(cookie("tok", 60, true).ends_with("; Secure"));
        assert!(clear_cookie(false).contains("Max-Age=0"));
    }

    #[test]
    fn finds_the_token_among_other_cookies() {
        assert_eq!(
            token_from_cookie_header("a=1; highchair_session=xyz; b=2"),
            Some("xyz")
        );
        assert_eq!(token_from_cookie_header("highchair_session="), None);
        assert_eq!(token_from_cookie_header("other=1"), None);
        assert_eq!(
            cookie_value("a=b; highchair_device=t1~t2; c=d", "highchair_device"),
            Some("t1~t2")
        );
    }
}
