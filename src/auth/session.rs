//! Sessions: a 256-bit random token in an HttpOnly, SameSite=Lax cookie, stored only as its hash,
//! with a sliding expiry of `session_days`. `CurrentUser` is the request guard.

use chrono::{DateTime, Duration, Utc};
use poem::{FromRequest, Request, RequestBody};

use super::tokens::{new_token, token_hash};
use crate::app::App;
use crate::domain::DomainError;
use crate::domain::user::User;
use crate::server::ClientInfo;
use crate::store::StoreError;
use crate::store::sessions::Session;

pub const SESSION_COOKIE: &str = "highchair_session";
/// Sliding expiry and "last seen" are written at most this often per session.
const TOUCH_EVERY: Duration = Duration::hours(1);

/// A signed-in user and the session they used.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub user: User,
    pub token_hash: [u8; 32],
    pub expires_at: DateTime<Utc>,
}

/// Starts a session for `user`. Returns the `Set-Cookie` value and when the session expires.
pub async fn start(
    app: &App,
    user: &User,
    secure: bool,
) -> Result<(String, DateTime<Utc>), StoreError> {
    let token = new_token();
    let now = Utc::now();
    let days = i64::from(app.settings.auth.session_days);
    let session = Session {
        user_id: user.id,
        created_at: now,
        expires_at: now + Duration::days(days),
        last_seen_at: now,
    };
    app.store
        .sessions
        .insert(&token_hash(&token), &session)
        .await?;
    Ok((cookie(&token, days * 86_400, secure), session.expires_at))
}

/// Ends the session behind `hash`. Returns the `Set-Cookie` value that clears the cookie.
pub async fn end(app: &App, hash: &[u8; 32], secure: bool) -> Result<String, StoreError> {
    app.store.sessions.delete(hash).await?;
    Ok(clear_cookie(secure))
}

pub fn cookie(token: &str, max_age_secs: i64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!(
        "{SESSION_COOKIE}={token}; Path=/; Max-Age={max_age_secs}; HttpOnly; SameSite=Lax{secure}"
    )
}

pub fn clear_cookie(secure: bool) -> String {
    cookie("", 0, secure)
}

/// Whether cookies must be marked Secure for this request.
pub fn secure_cookies(app: &App, client: &ClientInfo) -> bool {
    client.secure || app.settings.server.public_url.starts_with("https://")
}

/// The session cookie's token in a `Cookie` header, if any.
pub fn token_from_cookie_header(header: &str) -> Option<&str> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.trim())
        .filter(|value| !value.is_empty())
}

/// Looks up the session for `token`, sliding its expiry and the user's "last seen".
pub fn resume(app: &App, token: &str) -> Result<Option<SignedIn>, StoreError> {
    let hash = token_hash(token);
    let Some(mut session) = app.store.sessions.get(&hash)? else {
        return Ok(None);
    };
    let now = Utc::now();
    if session.expires_at <= now {
        return Ok(None);
    }
    let Some(mut user) = app.store.users.get(session.user_id)? else {
        return Ok(None);
    };
    if now - session.last_seen_at > TOUCH_EVERY {
        session.last_seen_at = now;
        session.expires_at = now + Duration::days(i64::from(app.settings.auth.session_days));
        app.store.sessions.touch(&hash, &session)?;
    }
    if now - user.last_seen_at > TOUCH_EVERY {
        user.last_seen_at = now;
        app.store.users.update_quietly(&user)?;
    }
    Ok(Some(SignedIn {
        user,
        token_hash: hash,
        expires_at: session.expires_at,
    }))
}

/// The request guard: the signed-in user, if the request carries a live session cookie.
/// Handlers call `require_to_view` / `require_to_save` for the spec's messages.
#[derive(Debug, Clone)]
pub struct CurrentUser(pub Option<SignedIn>);

impl CurrentUser {
    /// 'Authentication required' / 'You must be logged in to <action>'.
    pub fn require_to_view(self, action: &str) -> Result<SignedIn, DomainError> {
        self.0.ok_or_else(|| {
            DomainError::unauthorized(
                "Authentication required",
                format!("You must be logged in to {action}"),
            )
        })
    }

    /// 'Authentication error' / 'You must be logged in to <action>'.
    pub fn require_to_save(self, action: &str) -> Result<SignedIn, DomainError> {
        self.0.ok_or_else(|| {
            DomainError::unauthorized(
                "Authentication error",
                format!("You must be logged in to {action}"),
            )
        })
    }
}

impl<'a> FromRequest<'a> for CurrentUser {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let Some(app) = req.data::<App>() else {
            return Ok(CurrentUser(None));
        };
        let token = req
            .headers()
            .get_all(poem::http::header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(token_from_cookie_header);
        let Some(token) = token else {
            return Ok(CurrentUser(None));
        };
        match resume(app, token) {
            Ok(found) => Ok(CurrentUser(found)),
            Err(e) => {
                tracing::error!(error = %e, "session lookup failed");
                Err(crate::api::ApiError::internal().into())
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
    }
}
