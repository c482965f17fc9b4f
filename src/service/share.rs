//! A co-parent's access through their link (spec sections 4 and 9): opening a 24-hour share
//! session with the PIN the parent shared (or the co-parent's own), choosing their own PIN once
//! signed in, ending the session, and the guard every share route passes. A link without its
//! PIN opens nothing. Guessing is bounded four ways, all kept in the store so a restart resets
//! nothing: per client address, per link (3 per 15 minutes, cleared by a success), on the whole
//! server, and over the link's lifetime (10 wrong PINs lock it until the owner resets the PIN).
//! A refused attempt costs no PBKDF2 work.

use chrono::{Duration, Utc};

use super::{AppError, AppResult, Services};
use crate::auth::ClientKey;
use crate::auth::tokens::{LinkToken, ShareSessionToken};
use crate::auth::tokens::{new_token, token_hash};
use crate::domain::DomainError;
use crate::domain::co_parent::{
    CoParent, Pin, SHARE_SESSION_HOURS, ShareToken, check_link, check_not_locked, session_expired,
    unknown_link, wrong_pin,
};
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::WriteError;
use crate::store::share_sessions::ShareSession;

/// A share session just opened: the token for the cookie and how long it lives.
pub struct Opened {
    pub co_parent: CoParent,
    pub token: String,
    pub max_age_secs: i64,
}

/// Who a share request comes from: a co-parent with a live session for this link.
pub struct Viewer {
    pub co_parent: CoParent,
    pub session: [u8; 32],
}

impl Viewer {
    pub fn family(&self) -> FamilyId {
        self.co_parent.family
    }
}

/// The limiter key of a link: its one spelling.
pub(crate) fn link_key(token: &ShareToken) -> String {
    token.as_uuid().to_string()
}

/// A removed co-parent (or family) while the write ran: the link is unknown now.
fn link_write_error(err: WriteError<CoParent>) -> AppError {
    match err {
        WriteError::Rule(e) => e.into(),
        WriteError::Store(e) => e.into(),
        _ => unknown_link().into(),
    }
}

/// `GET /api/share/{token}`: the co-parent a link is for. Unknown or malformed: 404 'Invalid
/// or expired invitation'; expired: 410. A malformed token costs no store read.
pub async fn invitation(app: &Services, token: &LinkToken) -> AppResult<CoParent> {
    let (_, co_parent) = link(app, token).await?;
    check_link(&co_parent, Utc::now())?;
    Ok(co_parent)
}

/// The co-parent behind a link, expired or not; 404 'Invalid or expired invitation' for
/// anything else.
async fn link(app: &Services, token: &LinkToken) -> AppResult<(ShareToken, CoParent)> {
    let token = ShareToken::parse(token.as_str()).ok_or_else(unknown_link)?;
    let co_parent = app
        .store
        .co_parents
        .by_token(&token)
        .await?
        .ok_or_else(unknown_link)?;
    Ok((token, co_parent))
}

/// `POST /api/share/{token}/pin`: a co-parent signed in with the PIN the parent shared (or
/// their own) chooses their own PIN. The link alone opens nothing: without a live session of
/// this link it is 401. The new PIN replaces the old one, ends the link's other sessions and
/// opens a new one for this browser.
pub async fn choose_pin(
    app: &Services,
    token: &LinkToken,
    cookie: Option<&ShareSessionToken>,
    pin: &str,
    confirm: &str,
    client: &ClientKey,
) -> AppResult<Opened> {
    app.limits
        .share_ip
        .check(client.as_str())
        .map_err(DomainError::too_many)?;
    let viewer = viewer(app, token, cookie).await?;
    let pin = Pin::choose(pin, confirm)?;
    app.limits
        .share_family
        .check(&viewer.family().to_string())
        .map_err(DomainError::too_many)?;
    let hash = app.hasher.hash_pin(pin).await;
    let now = Utc::now();
    let epoch = viewer.co_parent.session_epoch;
    let co_parent = app
        .store
        .co_parents
        .update(viewer.family(), viewer.co_parent.id, |c| {
            check_link(c, now)?;
            // The owner reset the PIN meanwhile: this session has ended.
            if c.session_epoch != epoch {
                return Err(session_expired());
            }
            c.choose_pin(hash.clone(), now);
            Ok(())
        })
        .await
        .map_err(link_write_error)?;
    app.store.share_sessions.delete(&viewer.session).await?;
    tracing::info!(family = %co_parent.family, co_parent = %co_parent.id, "co-parent chose a PIN");
    open(app, co_parent).await
}

/// `POST /api/share/{token}/session`: a session for the right PIN. In order: the client's
/// address (an unknown link counts here only); the link's state (expired, locked); the link's
/// window; the server-wide budget (only for a PIN that will be hashed); then
/// the guess is taken on the record in one write (the state checked again with the backoff,
/// the guess counted as a failure at once, so guesses in flight together cannot pass the caps); and only then is
/// the PIN hashed. A right PIN gives the guess back.
pub async fn sign_in(
    app: &Services,
    token: &LinkToken,
    pin: Option<&str>,
    client: &ClientKey,
) -> AppResult<Opened> {
    let limits = &app.limits;
    limits
        .share_ip
        .check(client.as_str())
        .map_err(DomainError::too_many)?;
    let (parsed, co_parent) = link(app, token).await?;
    let now = Utc::now();
    // Cheap refusals first (expired, locked), on the copy just read; the write below checks
    // again, with the backoff.
    check_link(&co_parent, now)?;
    check_not_locked(&co_parent)?;
    let key = link_key(&parsed);
    limits
        .share_link
        .check(&key)
        .map_err(DomainError::too_many)?;
    let pin = pin.and_then(Pin::parse);
    if pin.is_some() {
        // Only a PIN that will be hashed spends a budget: the family's first (its own links
        // cannot spend more, nor touch another family's), then the server's. Refused here,
        // nothing is counted on the link's record.
        limits
            .share_family
            .check(&co_parent.family.to_string())
            .map_err(DomainError::too_many)?;
        limits
            .share_all
            .check("all")
            .map_err(DomainError::too_many)?;
    }
    let reserved = std::sync::Mutex::new(None);
    let co_parent = app
        .store
        .co_parents
        .update(co_parent.family, co_parent.id, |c| {
            let taken = c.reserve_guess(now)?;
            *reserved.lock().unwrap_or_else(|p| p.into_inner()) = Some(taken);
            Ok(())
        })
        .await
        .map_err(link_write_error)?;
    let reserved = reserved
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .ok_or_else(unknown_link)?;
    let right = match pin {
        Some(pin) => app.hasher.verify_pin(pin, co_parent.pin_hash.clone()).await,
        None => false,
    };
    if !right {
        tracing::warn!(
            family = %co_parent.family,
            co_parent = %co_parent.id,
            failures = co_parent.failures_total,
            "wrong co-parent PIN"
        );
        return Err(wrong_pin().into());
    }
    limits.share_link.forget(&key);
    // A right PIN is no guess: the server's budget bounds the work wrong ones cause.
    limits.share_all.give_back("all");
    let co_parent = app
        .store
        .co_parents
        .update(co_parent.family, co_parent.id, |c| {
            // The PIN checked was this epoch's: a reset meanwhile wins.
            if c.session_epoch != reserved.epoch {
                return Err(session_expired());
            }
            c.release_guess(&reserved);
            c.accept(now);
            Ok(())
        })
        .await
        .map_err(link_write_error)?;
    open(app, co_parent).await
}

async fn open(app: &Services, co_parent: CoParent) -> AppResult<Opened> {
    let token = new_token();
    let now = Utc::now();
    let session = ShareSession {
        co_parent: co_parent.id,
        family: co_parent.family,
        epoch: co_parent.session_epoch,
        created_at: now,
        expires_at: now + Duration::hours(SHARE_SESSION_HOURS),
    };
    app.store
        .share_sessions
        .insert(&token_hash(&token), &session)
        .await?;
    Ok(Opened {
        co_parent,
        token,
        max_age_secs: SHARE_SESSION_HOURS * 3600,
    })
}

/// The guard of every share route: the link works and `cookie` is a live session of it.
pub async fn viewer(
    app: &Services,
    token: &LinkToken,
    cookie: Option<&ShareSessionToken>,
) -> AppResult<Viewer> {
    let co_parent = invitation(app, token).await?;
    let hash = cookie.ok_or_else(session_expired)?.hash();
    if !admits(app, &co_parent, &hash).await? {
        return Err(session_expired().into());
    }
    Ok(Viewer {
        co_parent,
        session: hash,
    })
}

/// Whether the session behind `hash` belongs to `co_parent`'s link and still admits.
async fn admits(app: &Services, co_parent: &CoParent, hash: &[u8; 32]) -> AppResult<bool> {
    let now = Utc::now();
    Ok(app.store.share_sessions.get(hash).await?.is_some_and(|s| {
        s.co_parent == co_parent.id
            && s.family == co_parent.family
            && s.expires_at > now
            && co_parent.admits(s.epoch, now)
    }))
}

/// Whether a viewer's session still admits, read again (an open event stream asks).
pub async fn still_admits(app: &Services, viewer: &Viewer) -> bool {
    let current = app
        .store
        .co_parents
        .get(viewer.family(), viewer.co_parent.id)
        .await
        .ok()
        .flatten();
    match current {
        Some(c) => admits(app, &c, &viewer.session).await.unwrap_or(false),
        None => false,
    }
}

/// `DELETE /api/share/{token}/session`: ends the co-parent's session, if it is this link's.
/// An unknown link is 404 like every share route; an expired one still signs out. Returns the
/// link's token as the cookie's path names it.
pub async fn sign_out(
    app: &Services,
    token: &LinkToken,
    cookie: Option<&ShareSessionToken>,
) -> AppResult<String> {
    let (token, co_parent) = link(app, token).await?;
    let link = token.as_uuid().to_string();
    let Some(hash) = cookie.map(ShareSessionToken::hash) else {
        return Ok(link);
    };
    let ours = app
        .store
        .share_sessions
        .get(&hash)
        .await?
        .is_some_and(|s| s.co_parent == co_parent.id);
    if ours {
        app.store.share_sessions.delete(&hash).await?;
    }
    Ok(link)
}

/// A photo of one of the family's meals: never an unattached upload, nor a parent's avatar
/// (issue 26: the share route served it). Meals and avatars are the only records with photos,
/// so an attached photo of the family that is no member's avatar is a meal's (an avatar moves
/// with its owner to another family).
pub async fn photo(
    app: &Services,
    viewer: &Viewer,
    id: MediaId,
    size: super::photos::Size,
) -> AppResult<Vec<u8>> {
    let attached = app
        .store
        .media
        .get(viewer.family(), id)
        .await?
        .is_some_and(|m| m.attached);
    if !attached
        || app
            .store
            .users
            .list()
            .await?
            .iter()
            .any(|u| u.avatar == Some(id))
    {
        return Err(DomainError::NotFound.into());
    }
    super::photos::read(app, viewer.family(), id, size).await
}
