//! Adult invites to a family (repository: `sqlite::invites`).

use super::Record;
use crate::domain::family::FamilyInvite;

pub use super::sqlite::invites::{InsertInviteError, Invites};

impl Record for FamilyInvite {
    const VERSION: u8 = 1;
}
