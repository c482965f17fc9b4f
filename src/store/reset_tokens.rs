//! One-time password reset links, kept by the SHA-256 of their token, valid for an hour
//! (repository: `sqlite::reset_tokens`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Record;
use crate::domain::ids::UserId;

pub use super::sqlite::reset_tokens::ResetTokens;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResetToken {
    pub user_id: UserId,
    pub expires_at: DateTime<Utc>,
    /// The account's `session_epoch` when the link was made. Every password change moves the
    /// epoch on, so it revokes every link made before it.
    #[serde(default)]
    pub epoch: u64,
}

impl Record for ResetToken {
    const VERSION: u8 = 1;
}
