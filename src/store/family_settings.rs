//! A family's settings, one record per family (repository: `sqlite::family_settings`).

use super::Record;
use crate::domain::family_settings::FamilySettings;

pub use super::sqlite::family_settings::FamilySettingsRepo;

impl Record for FamilySettings {
    const VERSION: u8 = 1;
}
