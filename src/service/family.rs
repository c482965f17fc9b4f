//! Households: who shares the family, adult invite links, joining, leaving and removing.

use chrono::Utc;

use super::{AppError, AppResult, Services};
use crate::auth::ClientKey;
use crate::auth::tokens::{InviteToken, token_hash};
use crate::domain::DomainError;
use crate::domain::family::{
    FamilyInvite, JOIN_TITLE, LEAVE_TITLE, REMOVE_TITLE, check_can_invite, check_can_leave,
    check_can_remove, check_join, check_link, family_name, too_many_invites,
};
use crate::domain::family_settings::{self, FamilySettings, SettingsFields};
use crate::domain::ids::{FamilyId, InviteId, UserId};
use crate::domain::user::{SignupDraft, User};
use crate::store::WriteError;
use crate::store::invites::InsertInviteError;
use crate::store::users::{JoinFacts, Joining};

/// A family as its members see it.
pub struct Overview {
    pub name: String,
    pub members: Vec<User>,
    pub invites: Vec<FamilyInvite>,
}

/// A new invite and its link token (shown once; only its hash is kept).
pub struct NewInvite {
    pub invite: FamilyInvite,
    pub token: String,
}

/// What an invite link shows before joining.
pub struct Preview {
    pub family_name: String,
    pub invited_by: String,
    pub invite: FamilyInvite,
}

/// `GET /api/family`.
pub async fn overview(app: &Services, me: &User) -> AppResult<Overview> {
    let members = app.store.users.members(me.family_id).await?;
    let now = Utc::now();
    let invites = app
        .store
        .invites
        .list(me.family_id)
        .await?
        .into_iter()
        .filter(|i| !i.is_expired(now))
        .collect();
    Ok(Overview {
        name: family_name(&members).here(),
        members,
        invites,
    })
}

/// `GET /api/family/settings`: the defaults until the family saves its own.
pub async fn settings(app: &Services, family: FamilyId) -> AppResult<FamilySettings> {
    Ok(app
        .store
        .family_settings
        .get(family)
        .await?
        .unwrap_or_else(|| FamilySettings::defaults(family, Utc::now())))
}

/// `PUT /api/family/settings`: saved if `version` is the current one (0 before the first
/// save); a stale version changes nothing and answers the settings as they are.
pub async fn save_settings(
    app: &Services,
    family: FamilyId,
    version: u64,
    fields: SettingsFields,
) -> AppResult<FamilySettings> {
    let saved = app
        .store
        .family_settings
        .save(family, version, fields, Utc::now())
        .await
        .map_err(|e| AppError::from_write(e, &family_settings::SAVE_TITLE))?;
    tracing::info!(family = %family, version = saved.version, "family settings saved");
    Ok(saved)
}

/// `POST /api/family/invites`: a one-time link for another adult, valid for 7 days.
pub async fn invite(app: &Services, me: &User) -> AppResult<NewInvite> {
    check_can_invite(me)?;
    // Random (v4), never time-ordered: the link is the only secret.
    let token = uuid::Uuid::new_v4().to_string();
    let invite = FamilyInvite::new(me.family_id, me.id, token_hash(&token), Utc::now());
    let invite = app
        .store
        .invites
        .insert(&invite)
        .await
        .map_err(|e| match e {
            InsertInviteError::Full => AppError::from(too_many_invites()),
            InsertInviteError::Write(WriteError::Store(e)) => e.into(),
            InsertInviteError::Write(_) => DomainError::NotFound.into(),
        })?;
    tracing::info!(family = %me.family_id, invite = %invite.id, "adult invite created");
    Ok(NewInvite { invite, token })
}

/// `DELETE /api/family/invites/{id}`: the link stops working at once.
/// (A guest has none, so theirs is a 404 like any unknown id.)
pub async fn revoke(app: &Services, me: &User, id: InviteId) -> AppResult<()> {
    if !app.store.invites.delete(me.family_id, id).await? {
        return Err(DomainError::NotFound.into());
    }
    Ok(())
}

/// `GET /api/family/invites/{token}`: who invites to which family (404 unknown, 410 expired).
pub async fn preview(app: &Services, token: &InviteToken) -> AppResult<Preview> {
    let invite = app
        .store
        .invites
        .by_token(&token.hash())
        .await?
        .ok_or(DomainError::NotFound)?;
    check_link(&invite, Utc::now())?;
    let members = app.store.users.members(invite.family).await?;
    let invited_by = members
        .iter()
        .find(|m| m.id == invite.invited_by)
        .map(|m| {
            format!("{} {}", m.first_name, m.last_name)
                .trim()
                .to_string()
        })
        .unwrap_or_else(|| t!("A parent").here());
    Ok(Preview {
        family_name: family_name(&members).here(),
        invited_by,
        invite,
    })
}

/// The product's rules for joining, checked inside the store's write on the facts as they
/// are then.
fn join_rules(
    now: chrono::DateTime<Utc>,
) -> impl Fn(&JoinFacts<'_>) -> Result<(), DomainError> + Send + 'static {
    move |f| {
        check_join(
            f.invite,
            f.members,
            f.account,
            f.own_children,
            f.own_members,
            f.email_taken,
            now,
        )
    }
}

/// `POST /api/family/join/{token}` signed in: moves the account (whose family is empty) in.
pub async fn join_signed_in(app: &Services, me: &User, token: &InviteToken) -> AppResult<User> {
    let user = app
        .store
        .users
        .join(
            token.hash(),
            Joining::Existing(me.id),
            Utc::now(),
            join_rules(Utc::now()),
        )
        .await
        .map_err(|e| AppError::from_write(e, &JOIN_TITLE))?;
    tracing::info!(user.id = %user.id, family = %user.family_id, "joined a family");
    Ok(user)
}

/// `POST /api/family/join/{token}` signed out: a new parent account in the family. The link
/// is the family's permission, so this works even when open sign-up is closed.
pub async fn join_new(
    app: &Services,
    draft: SignupDraft,
    token: &InviteToken,
    client: &ClientKey,
) -> AppResult<User> {
    let hash = token.hash();
    // A dead link answers at once: no limit spent, no (slow) password hash. Tokens are random
    // UUIDs, so guessing one is hopeless with or without a limit.
    let invite = app
        .store
        .invites
        .by_token(&hash)
        .await?
        .ok_or(DomainError::NotFound)?;
    check_link(&invite, Utc::now())?;
    let signup = draft.validate()?;
    app.limits
        .signup_ip
        .check(client.as_str())
        .map_err(DomainError::too_many)?;
    let now = Utc::now();
    let password_hash = app.hasher.hash(signup.password).await.encode();
    let user = User::new(
        signup.email,
        signup.first_name,
        signup.last_name,
        signup.role,
        password_hash,
        now,
    );
    let user = app
        .store
        .users
        .join(hash, Joining::New(Box::new(user)), now, join_rules(now))
        .await
        .map_err(|e| AppError::from_write(e, &JOIN_TITLE))?;
    tracing::info!(user.id = %user.id, family = %user.family_id, "account created through an invite");
    Ok(user)
}

/// `POST /api/family/leave`: the account keeps everything of its own and starts a new, empty
/// family; the others keep the children.
pub async fn leave(app: &Services, me: &User) -> AppResult<User> {
    let user = app
        .store
        .users
        .move_out(me.id, FamilyId::new(), Utc::now(), false, |_, members| {
            check_can_leave(members.len())
        })
        .await
        .map_err(|e| AppError::from_write(e, &LEAVE_TITLE))?;
    tracing::info!(user.id = %user.id, "left a family");
    Ok(user)
}

/// `DELETE /api/family/members/{userId}`: the other adult gets a new, empty family and every
/// session of theirs ends. Someone outside the family is not found.
pub async fn remove(app: &Services, me: &User, target: UserId) -> AppResult<User> {
    let user = app
        .store
        .users
        .move_out(target, FamilyId::new(), Utc::now(), true, {
            let me = me.clone();
            move |target, members| {
                if target.family_id != me.family_id || !members.contains(&me.id) {
                    return Err(DomainError::NotFound);
                }
                check_can_remove(&me, target)
            }
        })
        .await
        .map_err(|e| AppError::from_write(e, &REMOVE_TITLE))?;
    tracing::info!(user.id = %user.id, by = %me.id, "removed from a family");
    Ok(user)
}
