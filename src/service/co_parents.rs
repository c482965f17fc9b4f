//! Co-parents of a family: inviting one (a link plus a PIN, both shown once to the parent),
//! listing, a new PIN, a longer-lived link, removing; and what a link shows before its PIN.

use chrono::Utc;

use super::{AppError, AppResult, Services};
use crate::auth::pin;
use crate::domain::DomainError;
use crate::domain::co_parent::{
    CoParent, CoParentDraft, Pin, already_a_co_parent, check_can_add, check_can_invite,
    too_many_co_parents,
};
use crate::domain::ids::{CoParentId, FamilyId};
use crate::domain::user::User;
use crate::store::WriteError;
use crate::store::co_parents::InsertCoParentError;

/// A new co-parent and the PIN generated for them: the only time the PIN is in the clear.
pub struct Invited {
    pub co_parent: CoParent,
    pub pin: Pin,
}

fn write_error(err: WriteError<CoParent>) -> AppError {
    match err {
        WriteError::Rule(e) => e.into(),
        WriteError::Store(e) => e.into(),
        // A family deleted meanwhile, or a co-parent removed meanwhile.
        _ => DomainError::NotFound.into(),
    }
}

/// Each new PIN is a PBKDF2 hash: a family makes a bounded number an hour (issue 26: 1,263
/// resets in 15 s from one account slowed every family's sign-in).
fn spend_pin(app: &Services, family: FamilyId) -> AppResult<()> {
    app.limits
        .pins_family
        .check(&family.to_string())
        .map_err(|wait| DomainError::too_many(wait).into())
}

/// `GET /api/co-parents`: newest first.
pub async fn list(app: &Services, family: FamilyId) -> AppResult<Vec<CoParent>> {
    Ok(app.store.co_parents.list(family).await?)
}

/// `POST /api/co-parents`: a co-parent with a fresh link (7 days) and a generated PIN.
pub async fn invite(app: &Services, me: &User, draft: CoParentDraft) -> AppResult<Invited> {
    check_can_invite(me.is_guest)?;
    let fields = draft.validate()?;
    let family = me.family_id;
    // Refuse a duplicate or a full family before spending a PIN hash on it; the write checks
    // again against the family as it is then.
    check_can_add(&app.store.co_parents.list(family).await?, &fields.email)?;
    spend_pin(app, family)?;
    let pin = pin::generate();
    let hash = app.hasher.hash_pin(pin.clone()).await;
    let co_parent = CoParent::new(family, me.id, fields, hash, Utc::now());
    let co_parent = app
        .store
        .co_parents
        .insert(&co_parent)
        .await
        .map_err(|e| match e {
            InsertCoParentError::Full => too_many_co_parents().into(),
            InsertCoParentError::EmailTaken => already_a_co_parent().into(),
            InsertCoParentError::Write(e) => write_error(e),
        })?;
    tracing::info!(family = %family, co_parent = %co_parent.id, "co-parent invited");
    Ok(Invited { co_parent, pin })
}

/// `POST /api/co-parents/{id}/pin`: a new generated PIN replaces the old one, unlocks the link
/// and ends the co-parent's share sessions.
pub async fn reset_pin(app: &Services, family: FamilyId, id: CoParentId) -> AppResult<Invited> {
    // Unknown (or another family's) answers before any hashing.
    app.store
        .co_parents
        .get(family, id)
        .await?
        .ok_or(DomainError::NotFound)?;
    spend_pin(app, family)?;
    let pin = pin::generate();
    let hash = app.hasher.hash_pin(pin.clone()).await;
    let now = Utc::now();
    let co_parent = app
        .store
        .co_parents
        .update(family, id, |c| {
            c.replace_pin(hash.clone(), now);
            Ok(())
        })
        .await
        .map_err(write_error)?;
    // The owner acted: the link's guessing window starts afresh with the new PIN.
    app.limits
        .share_link
        .forget(&super::share::link_key(&co_parent.token));
    tracing::info!(family = %family, co_parent = %id, "co-parent PIN replaced; their sessions end");
    Ok(Invited { co_parent, pin })
}

/// `POST /api/co-parents/{id}/extend`: the link works 7 more days from the later of now and
/// its current expiry.
pub async fn extend(app: &Services, family: FamilyId, id: CoParentId) -> AppResult<CoParent> {
    let now = Utc::now();
    app.store
        .co_parents
        .update(family, id, |c| {
            c.extend(now);
            Ok(())
        })
        .await
        .map_err(write_error)
}

/// `DELETE /api/co-parents/{id}`: the link and every share session of it stop at once.
pub async fn remove(app: &Services, family: FamilyId, id: CoParentId) -> AppResult<()> {
    if !app.store.co_parents.delete(family, id).await? {
        return Err(DomainError::NotFound.into());
    }
    tracing::info!(family = %family, co_parent = %id, "co-parent removed");
    Ok(())
}
