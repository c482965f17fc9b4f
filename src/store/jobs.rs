//! Persisted jobs: work that must finish even after a crash (removing a deleted child's
//! meals, a deleted family's records); repository: `sqlite::jobs`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Record;
use crate::domain::ids::{ChildId, FamilyId, JobId};

pub use super::sqlite::jobs::Jobs;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JobKind {
    /// The child is already gone; remove its meals and their photos.
    DeleteChildMeals { family: FamilyId, child: ChildId },
    /// The family's last account is gone; remove every record of the family.
    DeleteFamily { family: FamilyId },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    pub id: JobId,
    pub job: JobKind,
    pub created_at: DateTime<Utc>,
}

impl Record for Job {
    const VERSION: u8 = 1;
}

/// How many records one batch removes: bounded memory and short write locks, whatever the size
/// of the family.
pub const BATCH: usize = 100;
