//! Stored photos: a record per image and two blobs (the stored size and the thumbnail), all
//! under the family's prefix. A photo is "attached" once a meal or a profile uses it (inside
//! that record's write transaction); uploads left unattached are removed after a day.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::write::{Entity, Shared, TreeId, remove_photo};
use super::{Record, StoreError, keys};
use crate::domain::change::{ChangeId, FIRST_VERSION, Kind, first_version};
use crate::domain::ids::{FamilyId, MediaId};

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

impl Entity for MediaRecord {
    const TREE: TreeId = TreeId::Media;
    const KIND: Kind = Kind::Media;

    fn key(&self) -> Vec<u8> {
        keys::owned(self.family.as_bytes(), self.id.as_bytes()).to_vec()
    }
    fn family(&self) -> FamilyId {
        self.family
    }
    fn id(&self) -> ChangeId {
        self.id.as_uuid().into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
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

pub struct Media {
    core: Shared,
}

impl Media {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new, unattached upload with its sizes. `false` when the family was deleted
    /// meanwhile (nothing stored).
    pub async fn insert(
        &self,
        record: &MediaRecord,
        sizes: &[(Variant, &[u8])],
    ) -> Result<bool, StoreError> {
        let mut record = record.clone();
        record.version = FIRST_VERSION;
        record.attached = false;
        // The files first, on disk, then the record that names them.
        self.core
            .blobs
            .write(record.id, sizes)
            .map_err(|e| StoreError::Corrupt(format!("cannot write the photo's files: {e}")))?;
        let result = self
            .core
            .commit(|tx| {
                tx.check_family(record.family)?;
                // An upload changes nothing anyone sees until a meal or profile uses it.
                tx.put_quietly(&record)
            })
            .await;
        let stored = match result {
            Ok(()) => Ok(true),
            Err(sled::transaction::TransactionError::Abort(super::write::Abort::NotFound)) => {
                Ok(false)
            }
            Err(e) => Err(e.into()),
        };
        if !matches!(stored, Ok(true)) {
            let _ = self.core.blobs.remove(record.id);
        }
        stored
    }

    /// The family's photo; another family's id is simply not found.
    /// Bytes the family's photos take (both sizes).
    pub fn family_usage(&self, family: FamilyId) -> Result<u64, StoreError> {
        let mut total = 0u64;
        for entry in self.core.tree(TreeId::Media).scan_prefix(family.as_bytes()) {
            let (_, value) = entry?;
            let record = MediaRecord::decode(&value)?;
            total += if record.bytes > 0 {
                record.bytes
            } else {
                let mut sum = 0;
                for variant in Variant::ALL {
                    sum += self
                        .core
                        .blobs
                        .len(record.id, variant)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?
                        .unwrap_or(0);
                }
                sum
            };
        }
        Ok(total)
    }

    pub fn get(&self, family: FamilyId, id: MediaId) -> Result<Option<MediaRecord>, StoreError> {
        self.core
            .read(&keys::owned(family.as_bytes(), id.as_bytes()))
    }

    /// A size of the family's photo; `None` for another family's id, or a size never stored.
    pub fn bytes(
        &self,
        family: FamilyId,
        id: MediaId,
        variant: Variant,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        if self.get(family, id)?.is_none() {
            return Ok(None);
        }
        self.core
            .blobs
            .read(id, variant)
            .map_err(|e| StoreError::Corrupt(format!("cannot read a photo's file: {e}")))
    }

    /// Removes uploads that nothing uses and that are older than `before`. Each removal checks
    /// again inside its transaction, so a photo attached meanwhile is kept.
    pub async fn purge_unattached(&self, before: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut stale = Vec::new();
        for entry in self.core.tree(TreeId::Media).iter() {
            let (key, value) = entry?;
            let record = MediaRecord::decode(&value)?;
            if !record.attached && record.created_at < before {
                stale.push(key);
            }
        }
        let mut removed = 0;
        for key in &stale {
            let gone = self.core.transact(|tx| match tx.get::<MediaRecord>(key)? {
                Some(r) if !r.attached && r.created_at < before => {
                    remove_photo(tx, r.family, r.id)?;
                    Ok(true)
                }
                _ => Ok(false),
            })?;
            removed += usize::from(gone);
        }
        if removed > 0 {
            self.core.flush().await?;
        }
        Ok(removed)
    }

    pub fn count(&self) -> usize {
        self.core.tree(TreeId::Media).len()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::store::tests::temp_store;

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

    #[tokio::test]
    async fn stores_reads_and_purges_only_old_unattached_uploads() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let old = upload(family, Utc::now() - chrono::Duration::days(2));
        let fresh = upload(family, Utc::now());
        store
            .media
            .insert(
                &old,
                &[(Variant::Full, b"full"), (Variant::Thumb, b"thumb")],
            )
            .await
            .unwrap();
        store
            .media
            .insert(
                &fresh,
                &[(Variant::Full, b"full"), (Variant::Thumb, b"thumb")],
            )
            .await
            .unwrap();
        assert_eq!(
            store
                .media
                .bytes(family, old.id, Variant::Thumb)
                .unwrap()
                .unwrap(),
            b"thumb"
        );
        assert!(store.media.get(FamilyId::new(), old.id).unwrap().is_none());
        let removed = store
            .media
            .purge_unattached(Utc::now() - chrono::Duration::days(1))
            .await
            .unwrap();
        assert_eq!(removed, 1);
        assert!(store.media.get(family, old.id).unwrap().is_none());
        assert!(
            store
                .media
                .bytes(family, old.id, Variant::Full)
                .unwrap()
                .is_none()
        );
        assert!(store.media.get(family, fresh.id).unwrap().is_some());
    }
}
