//! Sign-in sessions, kept by the SHA-256 of their token (repository: `sqlite::sessions`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Record;
use crate::domain::ids::UserId;

pub use super::sqlite::sessions::Sessions;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub user_id: UserId,
    /// The account's `session_epoch` when the session started; an older epoch is ended.
    #[serde(default)]
    pub epoch: u64,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
}

impl Record for Session {
    const VERSION: u8 = 1;
}
