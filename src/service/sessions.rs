//! Sessions: a 256-bit random token (in an HttpOnly cookie, set by the API layer), stored only
//! as its hash, with a sliding expiry of `session_days`. A session belongs to the account's
//! current `session_epoch`; a password reset moves the epoch on and so ends every older session.

use chrono::{DateTime, Duration, Utc};

use super::{AppResult, Services};
use crate::auth::tokens::SessionToken;
use crate::auth::tokens::{new_token, token_hash};
use crate::domain::user::User;
use crate::store::StoreError;
use crate::store::sessions::Session;

/// Sliding expiry and "last seen" are written at most this often per session.
const TOUCH_EVERY: Duration = Duration::hours(1);

/// A signed-in user and the session they used.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub user: User,
    pub token_hash: [u8; 32],
    pub expires_at: DateTime<Utc>,
}

/// A new session: the token for the cookie and when it expires.
pub struct Started {
    pub token: String,
    pub max_age_secs: i64,
    pub expires_at: DateTime<Utc>,
}

/// Starts a session for `user`, in the epoch `user` was read in (a reset since then ends it).
pub async fn start(app: &Services, user: &User) -> AppResult<Started> {
    let token = new_token();
    let now = Utc::now();
    let days = i64::from(app.settings.auth.session_days);
    let session = Session {
        user_id: user.id,
        epoch: user.session_epoch,
        created_at: now,
        expires_at: now + Duration::days(days),
        last_seen_at: now,
    };
    app.store
        .sessions
        .insert(&token_hash(&token), &session)
        .await?;
    Ok(Started {
        token,
        max_age_secs: days * 86_400,
        expires_at: session.expires_at,
    })
}

/// Ends the session behind `hash` (its open event streams close too).
pub async fn end(app: &Services, hash: &[u8; 32]) -> AppResult<()> {
    Ok(app.store.sessions.delete(hash).await?)
}

/// Looks up the session for `token`, sliding its expiry and the user's "last seen".
pub async fn resume(app: &Services, token: &SessionToken) -> Result<Option<SignedIn>, StoreError> {
    resume_hash(app, &token.hash()).await
}

/// Whether the session behind `hash` is still valid (exists, unexpired, current epoch), without
/// sliding it: an open event stream checks this, and must not keep a session alive by itself.
pub async fn is_live(app: &Services, hash: &[u8; 32]) -> Result<bool, StoreError> {
    Ok(valid(app, hash, Utc::now()).await?.is_some())
}

/// The session behind `hash` and its account, when the session exists, has not expired at
/// `now` and belongs to the account's current epoch.
async fn valid(
    app: &Services,
    hash: &[u8; 32],
    now: DateTime<Utc>,
) -> Result<Option<(Session, User)>, StoreError> {
    let Some((session, user)) = app.store.sessions.get_with_account(hash).await? else {
        return Ok(None);
    };
    if session.expires_at <= now {
        return Ok(None);
    }
    Ok(user
        .filter(|u| u.session_epoch == session.epoch)
        .map(|u| (session, u)))
}

/// `resume` by the token's hash.
pub async fn resume_hash(app: &Services, hash: &[u8; 32]) -> Result<Option<SignedIn>, StoreError> {
    let now = Utc::now();
    let Some((session, mut user)) = valid(app, hash, now).await? else {
        return Ok(None);
    };
    let mut expires_at = session.expires_at;
    if now - session.last_seen_at > TOUCH_EVERY {
        expires_at = now + Duration::days(i64::from(app.settings.auth.session_days));
        // Only if it still exists: a logout racing this request wins.
        app.store.sessions.touch(hash, now, expires_at).await?;
    }
    if now - user.last_seen_at > TOUCH_EVERY {
        user.last_seen_at = now;
        // Only this field: a profile or password change racing this request is kept.
        app.store
            .users
            .update_quietly(user.id, move |u| u.last_seen_at = now)
            .await?;
    }
    Ok(Some(SignedIn {
        user,
        token_hash: *hash,
        expires_at,
    }))
}
