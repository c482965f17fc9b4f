//! Family settings: one row per family, named by the family itself. A save replaces them only
//! when it was made from the current version (0: the family never saved any).

use chrono::{DateTime, Utc};
use rusqlite::types::Value;

use super::core::{Abort, Row, Shared, Tx};
use super::values::{get_name, get_time, get_u64, int, name, time};
use crate::domain::change::{ChangeId, Kind};
use crate::domain::family_settings::{FamilySettings, SettingsFields};
use crate::domain::ids::FamilyId;
use crate::store::{StoreError, WriteError};

impl Row for FamilySettings {
    const TABLE: &'static str = "family_settings";
    const KIND: Kind = Kind::FamilySettings;
    const KEY: &'static str = "family_id";
    const COLUMNS: &'static [&'static str] = &[
        "family_id",
        "version",
        "allergen_list",
        "created_at",
        "updated_at",
    ];
    const SELECT: &'static str =
        "t.family_id, t.version, t.allergen_list, t.created_at, t.updated_at";

    fn key(&self) -> Value {
        self.family.into()
    }
    fn family(&self) -> FamilyId {
        self.family
    }
    fn change_id(&self) -> ChangeId {
        self.family.as_uuid().into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
    fn values(&self) -> Vec<Value> {
        vec![
            self.family.into(),
            int(self.version),
            name(&self.allergen_list),
            time(self.created_at),
            time(self.updated_at),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(FamilySettings {
            family: r.get(0)?,
            version: get_u64(r, 1)?,
            allergen_list: get_name(r, 2)?,
            created_at: get_time(r, 3)?,
            updated_at: get_time(r, 4)?,
        })
    }
}

/// Removes a family's settings inside a write (its last member joined another family).
pub(crate) fn delete_of_family(tx: &mut Tx<'_>, family: FamilyId) -> Result<(), Abort> {
    tx.remove_row::<FamilySettings>(family, &family.into())?;
    Ok(())
}

pub struct FamilySettingsRepo {
    core: Shared,
}

impl FamilySettingsRepo {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// The family's settings; `None` before their first save (and for another family).
    pub async fn get(&self, family: FamilyId) -> Result<Option<FamilySettings>, StoreError> {
        self.core.get(family, family.into()).await
    }

    /// Saves `fields` if `expected` is the current version (0 for settings never saved);
    /// otherwise nothing changes and the answer is the settings as they are (stale). The first
    /// save creates the record at version 1.
    pub async fn save(
        &self,
        family: FamilyId,
        expected: u64,
        fields: SettingsFields,
        now: DateTime<Utc>,
    ) -> Result<FamilySettings, WriteError<FamilySettings>> {
        let base = self
            .get(family)
            .await?
            .unwrap_or_else(|| FamilySettings::defaults(family, now));
        if base.version != expected {
            return Err(WriteError::Stale(Box::new(base)));
        }
        // Made off the writer thread; the write checks the version is still the one it was
        // made from.
        let mut new = base;
        new.apply(fields, now);
        Ok(self
            .core
            .commit(move |tx| {
                tx.save_at(&family.into(), expected, new, || {
                    FamilySettings::defaults(family, now)
                })
            })
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::allergen_intro::Region;
    use crate::store::sqlite::tests::temp_core;

    const US: SettingsFields = SettingsFields {
        allergen_list: Region::Us,
    };
    const UK: SettingsFields = SettingsFields {
        allergen_list: Region::Uk,
    };

    #[tokio::test]
    async fn settings_are_saved_from_their_version_and_only_the_familys() {
        let (_dir, core) = temp_core();
        let settings = FamilySettingsRepo::new(core.clone());
        let (family, other) = (FamilyId::new(), FamilyId::new());
        assert!(settings.get(family).await.unwrap().is_none());
        // Never saved is version 0: any other version is stale and writes nothing.
        match settings.save(family, 2, US, Utc::now()).await {
            Err(WriteError::Stale(current)) => {
                assert_eq!((current.version, current.allergen_list), (0, Region::Uk))
            }
            other => panic!("{other:?}"),
        }
        assert!(settings.get(family).await.unwrap().is_none());
        assert_eq!(core.revision(family), 0);

        let created = Utc::now();
        let first = settings.save(family, 0, US, created).await.unwrap();
        assert_eq!((first.version, first.allergen_list), (1, Region::Us));
        assert_eq!(core.revision(family), 1);
        assert_eq!(settings.get(family).await.unwrap().unwrap(), first);

        // A second first save is stale: the record exists now.
        assert!(matches!(
            settings.save(family, 0, UK, Utc::now()).await,
            Err(WriteError::Stale(current)) if current.version == 1
        ));
        let second = settings.save(family, 1, UK, Utc::now()).await.unwrap();
        assert_eq!((second.version, second.allergen_list), (2, Region::Uk));
        assert_eq!(second.created_at, created, "created once");
        assert!(matches!(
            settings.save(family, 1, US, Utc::now()).await,
            Err(WriteError::Stale(current)) if current.version == 2
        ));
        assert!(settings.get(other).await.unwrap().is_none());
        assert_eq!(core.revision(other), 0);
    }

    #[tokio::test]
    async fn a_deleted_family_saves_nothing() {
        let (_dir, core) = temp_core();
        let settings = FamilySettingsRepo::new(core.clone());
        let family = FamilyId::new();
        settings.save(family, 0, US, Utc::now()).await.unwrap();
        core.commit(move |tx| tx.mark_family_deleted(family))
            .await
            .unwrap();
        assert!(matches!(
            settings.save(family, 1, UK, Utc::now()).await,
            Err(WriteError::NotFound)
        ));
    }

    /// Two parents choose a list at once, both from version 0: one saves, the other is stale.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_first_saves_create_the_settings_once() {
        let (_dir, core) = temp_core();
        let settings = std::sync::Arc::new(FamilySettingsRepo::new(core.clone()));
        let family = FamilyId::new();
        let tasks: Vec<_> = [US, UK]
            .into_iter()
            .map(|fields| {
                let settings = settings.clone();
                tokio::spawn(async move { settings.save(family, 0, fields, Utc::now()).await })
            })
            .collect();
        let mut saved = Vec::new();
        for t in tasks {
            match t.await.unwrap() {
                Ok(s) => saved.push(s),
                Err(WriteError::Stale(current)) => assert_eq!(current.version, 1),
                Err(other) => panic!("{other:?}"),
            }
        }
        assert_eq!(saved.len(), 1);
        assert_eq!(saved[0].version, 1);
        assert_eq!(settings.get(family).await.unwrap().unwrap(), saved[0]);
        assert_eq!(core.revision(family), 1);
    }
}
