//! A family's settings: choices every member of the family shares, kept as one versioned
//! record per family. A family that never saved them has the defaults (version 0).

use crate::i18n::Text;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::allergen_intro::Region;
use super::ids::FamilyId;

pub const SAVE_TITLE: Text = t!("Settings not saved");

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FamilySettings {
    pub family: FamilyId,
    /// 0 until the first save.
    pub version: u64,
    /// The allergen list a small child's introduction follows (the server may be anywhere:
    /// the UK and EU's 14 by default, or the US 9).
    #[serde(default)]
    pub allergen_list: Region,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// What a save may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingsFields {
    pub allergen_list: Region,
}

impl FamilySettings {
    /// The settings of a family that never saved any.
    pub fn defaults(family: FamilyId, now: DateTime<Utc>) -> FamilySettings {
        FamilySettings {
            family,
            version: 0,
            allergen_list: Region::default(),
            created_at: now,
            updated_at: now,
        }
    }

    pub fn apply(&mut self, fields: SettingsFields, now: DateTime<Utc>) {
        self.allergen_list = fields.allergen_list;
        self.updated_at = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_that_never_saved_follows_the_uk_list() {
        let now = Utc::now();
        let settings = FamilySettings::defaults(FamilyId::new(), now);
        assert_eq!((settings.version, settings.allergen_list), (0, Region::Uk));
    }

    #[test]
    fn a_save_changes_the_list_and_the_time_only() {
        let created = Utc::now();
        let mut settings = FamilySettings::defaults(FamilyId::new(), created);
        let later = created + chrono::Duration::minutes(5);
        settings.apply(
            SettingsFields {
                allergen_list: Region::Us,
            },
            later,
        );
        assert_eq!(settings.allergen_list, Region::Us);
        assert_eq!((settings.created_at, settings.updated_at), (created, later));
    }

    #[test]
    fn stored_names_are_the_api_names() {
        let json =
            serde_json::to_value(FamilySettings::defaults(FamilyId::new(), Utc::now())).unwrap();
        assert_eq!(json["allergen_list"], "uk14");
        assert_eq!(serde_json::to_value(Region::Us).unwrap(), "us9");
        assert_eq!(
            serde_json::from_str::<Region>("\"us9\"").unwrap(),
            Region::Us
        );
    }
}
