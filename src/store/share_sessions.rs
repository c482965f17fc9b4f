//! Co-parents' share sessions, kept by the SHA-256 of their token (repository:
//! `sqlite::share_sessions`). A session names the co-parent and the PIN epoch it was opened
//! in; the co-parent's record decides whether it still admits (`CoParent::admits`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Record;
use crate::domain::ids::{CoParentId, FamilyId};

pub use super::sqlite::share_sessions::ShareSessions;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareSession {
    pub co_parent: CoParentId,
    pub family: FamilyId,
    /// The co-parent's `session_epoch` when the session was opened.
    pub epoch: u64,
    pub created_at: DateTime<Utc>,
    /// Fixed at opening (24 hours), never slid.
    pub expires_at: DateTime<Utc>,
}

impl Record for ShareSession {
    const VERSION: u8 = 1;
}
