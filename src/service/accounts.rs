//! Account flows shared by the HTTP API and the admin CLI: sign-up, sign-in, guests, profile
//! changes, password resets and account removal.

use crate::i18n::Text;
use chrono::{Duration, Utc};

use super::{AppError, AppResult, Services};
use crate::auth::ClientKey;
use crate::auth::password::PasswordHash;
use crate::auth::tokens::ResetLinkToken;
use crate::auth::tokens::{new_token, random_alphanumeric, token_hash};
use crate::domain::email::Email;
use crate::domain::ids::UserId;
use crate::domain::user::{
    GUEST_DOMAIN, GuestDraft, ParentRole, Signup, SignupDraft, User, check_password, email_taken,
    parse_language, validate_login, validate_profile,
};
use crate::domain::{DomainError, required_version};
use crate::store::reset_tokens::ResetToken;
use crate::store::users::InsertUserError;

const SIGN_IN_FAILED: Text = t!("Sign in failed");
const RESET_VALID_FOR: Duration = Duration::hours(1);

/// What `/api/auth/forgot-password` says: there is no mail server, the admin resets passwords.
/// Plain text: the UI shows it as it is.
pub const FORGOT_PASSWORD_MESSAGE: Text =
    t!("Highchair runs on your family's own server and does \
not send e-mail. Your request was passed on to the person who runs it: they run \
highchair user reset-password with your e-mail address and give you a link that is valid \
for one hour.");

/// Whether the sign-up form works now: sign-up is allowed, or the server has no account yet
/// (the first account can always be created).
pub async fn signup_open(app: &Services) -> bool {
    app.settings.auth.allow_signup || app.store.users.is_empty().await.unwrap_or(false)
}

/// Creates a parent account. The very first account on a server is always allowed and becomes
/// the admin; after that `allow_signup` decides (unless the admin creates it).
pub async fn create_parent(app: &Services, signup: Signup, by_admin: bool) -> AppResult<User> {
    let hash = app.hasher.hash(signup.password).await;
    let now = Utc::now();
    let mut user = User::new(
        signup.email,
        signup.first_name,
        signup.last_name,
        signup.role,
        hash.encode(),
        now,
    );
    let taken = || email_taken().into();
    if app.store.users.is_empty().await? {
        user.is_admin = true;
        match app.store.users.insert(&user, true).await {
            Ok(user) => return Ok(user),
            Err(InsertUserError::NotFirst) => user.is_admin = false,
            Err(InsertUserError::EmailTaken) => return Err(taken()),
            Err(InsertUserError::Store(e)) => return Err(e.into()),
        }
    }
    if !by_admin && !app.settings.auth.allow_signup {
        return Err(DomainError::not_allowed(
            t!("Sign up failed"),
            t!("Sign-up is closed on this server. Ask the person who runs it to create an account for you."),
        )
        .into());
    }
    match app.store.users.insert(&user, false).await {
        Ok(user) => Ok(user),
        Err(InsertUserError::EmailTaken) => Err(taken()),
        Err(InsertUserError::NotFirst) => Err(taken()),
        Err(InsertUserError::Store(e)) => Err(e.into()),
    }
}

/// `POST /api/auth/signup`.
pub async fn signup(app: &Services, draft: SignupDraft, client: &ClientKey) -> AppResult<User> {
    let signup = draft.validate()?;
    app.limits
        .signup_ip
        .check(client.as_str())
        .map_err(DomainError::too_many)?;
    create_parent(app, signup, false).await
}

/// Who is signing in: the client's key and the device cookie its browser sent, if any.
#[derive(Debug, Clone, Copy)]
pub struct Client<'a> {
    pub key: &'a ClientKey,
    pub device_cookie: Option<&'a str>,
}

/// A successful sign-in: the account, and the browser's device cookie value to set.
pub struct SignedInAs {
    pub user: User,
    pub device_cookie: String,
}

/// `POST /api/auth/login`. The answer is the same whether the e-mail exists or not.
///
/// Limits, checked before the password so a refused attempt costs no hashing: a browser with a
/// device cookie for the account only has its own limit; any other client has one per IP, one
/// per account and IP, and the account-wide slowdown. A guesser on one address runs into its
/// own limits long before the account-wide one, so it never locks the owner out; a guesser on
/// many addresses slows new browsers down but not the owner's known ones.
pub async fn login(
    app: &Services,
    email: &str,
    password: &str,
    client: Client<'_>,
) -> AppResult<SignedInAs> {
    validate_login(email, password)?;
    let email = Email::parse(email);
    let account_key = email
        .as_ref()
        .map_or_else(email_key_fallback, |e| e.as_str().to_string());
    let user = match &email {
        Some(email) => app.store.users.get_by_email(email).await?,
        None => None,
    };
    let now = Utc::now();
    let device = user.as_ref().and_then(|u| {
        client
            .device_cookie
            .and_then(|cookie| app.device_key.find(cookie, u.id, now))
    });
    let limits = &app.limits;
    match &device {
        Some(device) => limits
            .login_device
            .check(&device.id)
            .map_err(DomainError::too_many)?,
        None => {
            limits
                .login_ip
                .check(client.key.as_str())
                .map_err(DomainError::too_many)?;
            limits
                .login_account_ip
                .check(&format!("{account_key} {}", client.key.as_str()))
                .map_err(DomainError::too_many)?;
            limits
                .login_account
                .check(&account_key)
                .map_err(DomainError::too_many)?;
        }
    }

    let stored = user
        .as_ref()
        .and_then(|u| PasswordHash::parse(&u.password_hash));
    let upgrade = stored
        .as_ref()
        .is_some_and(|h| h.iterations() < app.hasher.iterations());
    let ok = app.hasher.verify(password.to_string(), stored).await;
    let (true, Some(user)) = (ok, user) else {
        tracing::info!(known_browser = device.is_some(), "sign-in failed");
        return Err(
            DomainError::not_signed_in(SIGN_IN_FAILED, t!("Invalid email or password")).into(),
        );
    };
    if upgrade {
        let old = user.password_hash.clone();
        let stronger = app.hasher.hash(password.to_string()).await.encode();
        // Only if the password was not changed meanwhile; not an edit, so no new version.
        app.store
            .users
            .update_quietly(user.id, move |u| {
                if u.password_hash == old {
                    u.password_hash = stronger.clone();
                }
            })
            .await?;
        tracing::info!(user.id = %user.id, "password hash upgraded");
    }
    Ok(remembered(app, user, client.device_cookie).await)
}

/// The account, with this browser's device cookie renewed for it, seen now.
pub async fn remembered(app: &Services, mut user: User, device_cookie: Option<&str>) -> SignedInAs {
    let now = Utc::now();
    let device_cookie = app.device_key.remember(device_cookie, user.id, now);
    // Only this field: a profile or password change racing the sign-in is kept.
    if let Ok(Some(seen)) = app
        .store
        .users
        .update_quietly(user.id, move |u| u.last_seen_at = now)
        .await
    {
        user.last_seen_at = seen.last_seen_at;
    }
    SignedInAs {
        user,
        device_cookie,
    }
}

/// Malformed addresses share one limit bucket.
fn email_key_fallback() -> String {
    "invalid-address".into()
}

/// `POST /api/auth/guest`: an account in the reserved guest domain, signed in at once.
pub async fn start_guest(app: &Services, draft: GuestDraft, client: &ClientKey) -> AppResult<User> {
    if !app.settings.auth.allow_guests {
        return Err(DomainError::not_allowed(
            t!("Guest access failed"),
            t!("Guest access is turned off on this server."),
        )
        .into());
    }
    let guest = draft.validate()?;
    app.limits
        .guest_ip
        .check(client.as_str())
        .map_err(DomainError::too_many)?;
    let password = format!("Guest{}!", random_alphanumeric(10));
    let hash = app.hasher.hash(password).await;
    let now = Utc::now();
    let email = Email::parse(&format!(
        "{}@{GUEST_DOMAIN}",
        random_alphanumeric(10).to_lowercase()
    ))
    .ok_or_else(|| DomainError::unavailable(t!("Guest access failed"), t!("Please try again.")))?;
    let mut user = User::new(
        email,
        guest.first_name,
        String::new(),
        ParentRole::Mom,
        hash.encode(),
        now,
    );
    user.is_guest = true;
    user.guest_children = Some(guest.children);
    let user = match app.store.users.insert(&user, false).await {
        Ok(user) => user,
        Err(InsertUserError::Store(e)) => return Err(e.into()),
        Err(_) => {
            return Err(DomainError::unavailable(
                t!("Guest access failed"),
                t!("Please try again."),
            )
            .into());
        }
    };
    // The number of children asked for is honoured: profiles to rename, ready for meals.
    for n in 1..=guest.children {
        let draft = crate::domain::child::ChildDraft {
            name: t!("Child {{n}}", n = n.to_string()).here(),
            age: crate::domain::number::NumberInput::Absent,
            dietary_restrictions: Vec::new(),
            allergies: Vec::new(),
            birth_month: None,
        };
        super::children::create(app, user.family_id, draft).await?;
    }
    Ok(user)
}

/// `POST /api/auth/forgot-password`: nothing is revealed about the address; limited per IP.
/// A well-formed address is passed on to the admin as a message (`highchair messages`),
/// whether or not it has an account.
pub async fn forgot_password(app: &Services, client: &ClientKey, email: &str) -> AppResult<Text> {
    app.limits
        .forgot_ip
        .check(client.as_str())
        .map_err(DomainError::too_many)?;
    if let Some(email) = Email::parse(email) {
        let message = crate::domain::contact::ContactMessage {
            id: crate::domain::ids::ContactMessageId::new(),
            name: "Password reset request".into(),
            message: format!(
                "Someone asked on the sign-in page for a new password for {email}. If that \
                 is one of your accounts, run: highchair user reset-password {email}"
            ),
            email,
            created_at: Utc::now(),
        };
        app.store.contact_messages.insert(&message).await?;
    }
    tracing::info!("password reset asked for on the sign-in page");
    Ok(FORGOT_PASSWORD_MESSAGE)
}

/// `PATCH /api/profile`: names missing from the request keep their current value; only if
/// nobody changed the profile since `version` (required).
pub async fn update_profile(
    app: &Services,
    user: UserId,
    version: Option<u64>,
    first: Option<String>,
    last: Option<String>,
    language: Option<String>,
) -> AppResult<User> {
    const TITLE: Text = t!("Update failed");
    // Checked before the write, so a bad name is a 400 even when the version is stale.
    validate_profile(
        first.as_deref().unwrap_or("x"),
        last.as_deref().unwrap_or(""),
    )?;
    // Absent: as it is; empty: none (the browser's).
    let language = language.as_deref().map(parse_language).transpose()?;
    let version = required_version(version, TITLE)?;
    let now = Utc::now();
    app.store
        .users
        .update(user, Some(version), |u| {
            let first = first.clone().unwrap_or_else(|| u.first_name.clone());
            let last = last.clone().unwrap_or_else(|| u.last_name.clone());
            let (first, last) = validate_profile(&first, &last)?;
            u.first_name = first;
            u.last_name = last;
            if let Some(language) = language {
                u.language = language;
            }
            u.updated_at = now;
            Ok(())
        })
        .await
        .map_err(|e| AppError::from_write(e, &TITLE))
}

/// Creates a one-hour, one-time reset link for an account (admin CLI).
pub async fn create_reset_link(app: &Services, email: &Email) -> AppResult<String> {
    let user = app
        .store
        .users
        .get_by_email(email)
        .await?
        .ok_or(DomainError::NotFound)?;
    let token = new_token();
    let now = Utc::now();
    let record = ResetToken {
        user_id: user.id,
        expires_at: now + RESET_VALID_FOR,
        epoch: user.session_epoch,
    };
    // At most one live link per account: a new one revokes the ones before it.
    app.store.reset_tokens.purge(Some(user.id), now).await?;
    app.store
        .reset_tokens
        .insert(&token_hash(&token), &record)
        .await?;
    tracing::info!(user.id = %user.id, "password reset link created");
    Ok(format!(
        "{}/reset-password/{token}",
        app.settings.base_url()
    ))
}

fn invalid_link() -> DomainError {
    DomainError::NotFound
}

/// The account a reset link is for, if the link is still valid.
pub async fn reset_target(app: &Services, token: &ResetLinkToken) -> AppResult<User> {
    let record = app
        .store
        .reset_tokens
        .get_valid(&token.hash(), Utc::now())
        .await?
        .ok_or_else(invalid_link)?;
    app.store
        .users
        .get(record.user_id)
        .await?
        .filter(|u| u.session_epoch == record.epoch)
        .ok_or_else(|| invalid_link().into())
}

/// Sets a new password through a reset link and ends every session of the account.
pub async fn reset_password(
    app: &Services,
    token: &ResetLinkToken,
    password: String,
) -> AppResult<User> {
    check_password(&password, &t!("Password reset failed"))?;
    let record = app
        .store
        .reset_tokens
        .take_valid(&token.hash(), Utc::now())
        .await?
        .ok_or_else(invalid_link)?;
    let hash = app.hasher.hash(password).await.encode();
    let now = Utc::now();
    // The new hash and a new session epoch in one write: every older session ends with it,
    // even one a concurrent sign-in is creating right now.
    let user = app
        .store
        .users
        .update(record.user_id, None, |u| {
            // The password changed since the link was made (another link, the CLI): revoked.
            if u.session_epoch != record.epoch {
                return Err(invalid_link());
            }
            u.password_hash = hash.clone();
            u.session_epoch += 1;
            u.updated_at = now;
            Ok(())
        })
        .await
        .map_err(|e| AppError::from_write(e, &t!("Password reset failed")))?;
    let ended = app.store.sessions.delete_all_for(user.id).await?;
    app.store.reset_tokens.purge(Some(user.id), now).await?;
    tracing::info!(user.id = %user.id, sessions_ended = ended, "password reset");
    Ok(user)
}

/// Deletes an account at once (it can no longer sign in; its sessions end) and queues the
/// removal of its family's records.
pub async fn delete_account(app: &Services, user: UserId) -> AppResult<User> {
    let removed = app
        .store
        .users
        .delete_account(user, |_| true)
        .await?
        .ok_or(DomainError::NotFound)?;
    tracing::info!(user.id = %user, "account deleted; its family's records follow");
    Ok(removed)
}

/// Removes guest accounts unused for 30 days, with all their data. Returns how many.
pub async fn purge_guests(app: &Services) -> AppResult<usize> {
    let now = Utc::now();
    let mut removed = 0;
    for user in app
        .store
        .users
        .list()
        .await?
        .iter()
        .filter(|u| u.is_stale_guest(now))
    {
        // Judged again inside the deletion: a guest who came back meanwhile stays.
        let stale = move |u: &User| u.is_stale_guest(now);
        if app
            .store
            .users
            .delete_account(user.id, stale)
            .await?
            .is_some()
        {
            removed += 1;
        }
    }
    if removed > 0 {
        tracing::info!(removed, "idle guest accounts removed");
    }
    Ok(removed)
}
