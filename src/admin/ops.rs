//! The admin operations. The socket handlers and the offline CLI both call these, so there is
//! one implementation of each.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Failure;
use crate::app::App;
use crate::domain::DomainError;
use crate::domain::email::Email;
use crate::domain::user::{SignupDraft, User};
use crate::service::{AppError, accounts};

pub const EXIT_FAILURE: u8 = 1;
pub const EXIT_INVALID: u8 = 2;
pub const EXIT_NOT_FOUND: u8 = 4;
/// Another backup is being written.
pub const EXIT_BUSY: u8 = 6;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserSummary {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: String,
    pub is_admin: bool,
    pub is_guest: bool,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
}

impl From<&User> for UserSummary {
    fn from(u: &User) -> Self {
        Self {
            email: u.email.to_string(),
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            role: u.display_role().to_string(),
            is_admin: u.is_admin,
            is_guest: u.is_guest,
            created_at: u.created_at,
            last_seen_at: u.last_seen_at,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AddUser {
    pub email: String,
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub role: String,
    pub password: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EmailRequest {
    pub email: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResetLink {
    pub link: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Removed {
    pub removed: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Message {
    pub name: String,
    pub email: String,
    pub message: String,
    pub created_at: DateTime<Utc>,
}

fn failure(err: AppError, email: &str) -> Failure {
    match err {
        AppError::Domain(DomainError::NotFound) => Failure::new(
            EXIT_NOT_FOUND,
            format!("there is no account with the e-mail {email}"),
        ),
        AppError::Domain(DomainError::Invalid(invalid)) => {
            Failure::new(EXIT_INVALID, invalid.message.here())
        }
        AppError::Domain(other) => Failure::new(EXIT_FAILURE, other.to_string()),
        AppError::Stale(_) => Failure::new(
            EXIT_FAILURE,
            "the account was changed at the same moment; try again",
        ),
        AppError::Store(e) => Failure::new(EXIT_FAILURE, format!("storage error: {e}")),
    }
}

async fn find(app: &App, email: &str) -> Result<User, Failure> {
    let not_found = || failure(DomainError::NotFound.into(), email);
    let parsed = Email::parse(email).ok_or_else(not_found)?;
    app.store()
        .users
        .get_by_email(&parsed)
        .await
        .map_err(|e| failure(e.into(), email))?
        .ok_or_else(not_found)
}

pub async fn list_users(app: &App) -> Result<Vec<UserSummary>, Failure> {
    let users = app
        .store()
        .users
        .list()
        .await
        .map_err(|e| failure(e.into(), ""))?;
    Ok(users.iter().map(UserSummary::from).collect())
}

pub async fn add_user(app: &App, req: AddUser) -> Result<UserSummary, Failure> {
    let email = req.email.clone();
    let signup = SignupDraft {
        first_name: req.first_name,
        last_name: req.last_name,
        email: req.email,
        password: req.password,
        role: req.role,
        accept_terms: false,
    }
    .validate_for_admin()
    .map_err(|e| failure(e.into(), &email))?;
    let user = accounts::create_parent(app, signup, true)
        .await
        .map_err(|e| failure(e, &email))?;
    tracing::info!(user.id = %user.id, "account created by the admin");
    Ok(UserSummary::from(&user))
}

pub async fn reset_password(app: &App, email: &str) -> Result<ResetLink, Failure> {
    let user = find(app, email).await?;
    let link = accounts::create_reset_link(app, &user.email)
        .await
        .map_err(|e| failure(e, email))?;
    Ok(ResetLink { link })
}

pub async fn promote(app: &App, email: &str) -> Result<UserSummary, Failure> {
    let user = find(app, email).await?;
    if user.is_guest {
        return Err(Failure::new(
            EXIT_INVALID,
            "a guest account cannot be an admin",
        ));
    }
    let now = Utc::now();
    let user = app
        .store()
        .users
        .update(user.id, None, |u| {
            u.is_admin = true;
            u.updated_at = now;
            Ok(())
        })
        .await
        .map_err(|e| failure(AppError::from_write(e, &t!("Update failed")), email))?;
    tracing::info!(user.id = %user.id, "account promoted to admin");
    Ok(UserSummary::from(&user))
}

/// Deletes the account and every record of that family.
pub async fn delete_user(app: &App, email: &str) -> Result<UserSummary, Failure> {
    let user = find(app, email).await?;
    let user = accounts::delete_account(app, user.id)
        .await
        .map_err(|e| failure(e, email))?;
    Ok(UserSummary::from(&user))
}

/// Removes guest accounts unused for 30 days, with all their data.
pub async fn purge_guests(app: &App) -> Result<Removed, Failure> {
    let removed = accounts::purge_guests(app)
        .await
        .map_err(|e| failure(e, ""))?;
    Ok(Removed { removed })
}

/// Contact form messages, newest first.
pub async fn list_messages(app: &App) -> Result<Vec<Message>, Failure> {
    let messages = app
        .store()
        .contact_messages
        .list()
        .await
        .map_err(|e| failure(e.into(), ""))?;
    Ok(messages
        .into_iter()
        .map(|m| Message {
            name: m.name,
            email: m.email.to_string(),
            message: m.message,
            created_at: m.created_at,
        })
        .collect())
}

/// Writes a backup into the backup directory (`[backup] dir`) and prunes old ones.
pub async fn backup_now(app: &App) -> Result<crate::service::backups::Written, Failure> {
    crate::service::backups::write_now(app)
        .await
        .map_err(backup_failure)
}

/// A backup that could not be written, for the terminal.
pub fn backup_failure(e: crate::store::backup::BackupError) -> Failure {
    let code = match e {
        crate::store::backup::BackupError::Busy => EXIT_BUSY,
        _ => EXIT_FAILURE,
    };
    Failure::new(code, format!("the backup failed: {e}"))
}
