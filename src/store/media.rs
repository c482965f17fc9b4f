//! Photo records and their stored sizes (repository: `sqlite::media`; files: `blobs`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Record;
use crate::domain::change::first_version;
use crate::domain::ids::{FamilyId, MediaId};

pub use super::sqlite::media::Media;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaRecord {
    pub id: MediaId,
    /// Stored as `owner` before households existed.
    #[serde(alias = "owner")]
    pub family: FamilyId,
    #[serde(default = "first_version")]
    pub version: u64,
    pub width: u32,
    pub height: u32,
    pub attached: bool,
    pub created_at: DateTime<Utc>,
    /// Bytes stored for it (both sizes), for the family's quota. 0 in records made before
    /// quotas: their blobs are measured instead.
    #[serde(default)]
    pub bytes: u64,
}

impl Record for MediaRecord {
    const VERSION: u8 = 1;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    Full = 0,
    Thumb = 1,
    /// Photos stored before it existed have none; readers fall back to `Full`.
    Medium = 2,
}

impl Variant {
    pub(crate) const ALL: [Variant; 3] = [Variant::Full, Variant::Thumb, Variant::Medium];

    /// Its name in file names and archives.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Variant::Full => "full",
            Variant::Thumb => "thumb",
            Variant::Medium => "medium",
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn upload(family: FamilyId, created_at: DateTime<Utc>) -> MediaRecord {
        MediaRecord {
            id: MediaId::new(),
            family,
            version: 1,
            width: 10,
            height: 10,
            attached: false,
            created_at,
            bytes: 0,
        }
    }
}
