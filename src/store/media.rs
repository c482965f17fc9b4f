//! Stored photos: a record per image and two blobs (the stored size and the thumbnail), all
//! under the owner's prefix. A photo is "attached" once a meal or a profile uses it; uploads
//! left unattached are removed after a day.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use super::{Record, StoreError, flushed, keys};
use crate::domain::ids::{MediaId, UserId};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MediaRecord {
    pub id: MediaId,
    pub owner: UserId,
    pub width: u32,
    pub height: u32,
    pub attached: bool,
    pub created_at: DateTime<Utc>,
}

impl Record for MediaRecord {
    const VERSION: u8 = 1;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Full = 0,
    Thumb = 1,
}

/// The media trees, shared with repositories whose transactions attach or remove photos.
#[derive(Clone)]
pub struct MediaTrees {
    pub(super) records: sled::Tree,
    pub(super) blobs: sled::Tree,
}

fn blob_key(owner: UserId, id: MediaId, variant: Variant) -> Vec<u8> {
    keys::join(&[owner.as_bytes(), id.as_bytes(), &[variant as u8]])
}

/// Why a photo cannot be attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachError {
    /// Unknown, or another family's.
    Missing,
    /// Already used by another meal.
    InUse,
    Corrupt(String),
}

/// Inside a transaction: marks the owner's photo as attached.
pub(super) fn attach_tx(
    records: &TransactionalTree,
    owner: UserId,
    id: MediaId,
) -> Result<(), ConflictableTransactionError<AttachError>> {
    let key = keys::owned(owner.as_bytes(), id.as_bytes());
    let Some(raw) = records.get(key)? else {
        return Err(ConflictableTransactionError::Abort(AttachError::Missing));
    };
    let mut record = MediaRecord::decode(&raw)
        .map_err(|e| ConflictableTransactionError::Abort(AttachError::Corrupt(e.to_string())))?;
    if record.attached {
        return Err(ConflictableTransactionError::Abort(AttachError::InUse));
    }
    record.attached = true;
    let value = record
        .encode()
        .map_err(|e| ConflictableTransactionError::Abort(AttachError::Corrupt(e.to_string())))?;
    records.insert(key.as_slice(), value)?;
    Ok(())
}

/// Inside a transaction: removes the owner's photo and both its sizes.
pub(super) fn remove_tx<E>(
    records: &TransactionalTree,
    blobs: &TransactionalTree,
    owner: UserId,
    id: MediaId,
) -> Result<(), ConflictableTransactionError<E>> {
    records.remove(keys::owned(owner.as_bytes(), id.as_bytes()).as_slice())?;
    for variant in [Variant::Full, Variant::Thumb] {
        blobs.remove(blob_key(owner, id, variant))?;
    }
    Ok(())
}

pub struct Media {
    db: sled::Db,
    trees: MediaTrees,
}

impl Media {
    pub(super) fn new(db: sled::Db, trees: MediaTrees) -> Self {
        Self { db, trees }
    }

    pub async fn insert(
        &self,
        record: &MediaRecord,
        full: &[u8],
        thumb: &[u8],
    ) -> Result<(), StoreError> {
        let value = record.encode()?;
        let key = keys::owned(record.owner.as_bytes(), record.id.as_bytes());
        let result: Result<(), TransactionError<()>> = (&self.trees.records, &self.trees.blobs)
            .transaction(|(records, blobs)| {
                blobs.insert(blob_key(record.owner, record.id, Variant::Full), full)?;
                blobs.insert(blob_key(record.owner, record.id, Variant::Thumb), thumb)?;
                records.insert(key.as_slice(), value.as_slice())?;
                Ok(())
            });
        result.map_err(|e| match e {
            TransactionError::Storage(e) => StoreError::Sled(e),
            TransactionError::Abort(()) => StoreError::Corrupt("media transaction aborted".into()),
        })?;
        flushed(&self.db).await
    }

    /// The owner's photo; another family's id is simply not found.
    pub fn get(&self, owner: UserId, id: MediaId) -> Result<Option<MediaRecord>, StoreError> {
        self.trees
            .records
            .get(keys::owned(owner.as_bytes(), id.as_bytes()))?
            .map(|v| MediaRecord::decode(&v))
            .transpose()
    }

    pub fn bytes(
        &self,
        owner: UserId,
        id: MediaId,
        variant: Variant,
    ) -> Result<Option<sled::IVec>, StoreError> {
        Ok(self.trees.blobs.get(blob_key(owner, id, variant))?)
    }

    /// Marks a photo as in use (profile pictures; meals attach inside their own transaction).
    pub async fn attach(
        &self,
        owner: UserId,
        id: MediaId,
    ) -> Result<Result<(), AttachError>, StoreError> {
        let result = self
            .trees
            .records
            .transaction(|records| attach_tx(records, owner, id));
        match result {
            Ok(()) => {
                flushed(&self.db).await?;
                Ok(Ok(()))
            }
            Err(TransactionError::Abort(e)) => Ok(Err(e)),
            Err(TransactionError::Storage(e)) => Err(e.into()),
        }
    }

    pub async fn delete(&self, owner: UserId, id: MediaId) -> Result<(), StoreError> {
        let result: Result<(), TransactionError<()>> = (&self.trees.records, &self.trees.blobs)
            .transaction(|(records, blobs)| remove_tx(records, blobs, owner, id));
        result.map_err(|e| match e {
            TransactionError::Storage(e) => StoreError::Sled(e),
            TransactionError::Abort(()) => StoreError::Corrupt("media transaction aborted".into()),
        })?;
        flushed(&self.db).await
    }

    /// Removes uploads that nothing uses and that are older than `before`.
    pub async fn purge_unattached(&self, before: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut stale = Vec::new();
        for entry in self.trees.records.iter() {
            let (_, value) = entry?;
            let record = MediaRecord::decode(&value)?;
            if !record.attached && record.created_at < before {
                stale.push(record);
            }
        }
        for record in &stale {
            self.delete(record.owner, record.id).await?;
        }
        Ok(stale.len())
    }

    /// Removes every photo of a family (account deletion).
    pub fn delete_all_for(&self, owner: UserId) -> Result<usize, StoreError> {
        let mut removed = 0;
        for tree in [&self.trees.records, &self.trees.blobs] {
            for key in tree.scan_prefix(owner.as_bytes()).keys() {
                tree.remove(key?)?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    pub fn count(&self) -> usize {
        self.trees.records.len()
    }
}
