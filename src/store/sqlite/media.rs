//! Photo records. A photo's bytes are files (`blobs`), written and synced before the row that
//! names them. A photo is "attached" once a meal or a profile uses it (in that record's
//! write); uploads left unattached are removed after a day.

use chrono::{DateTime, Utc};
use rusqlite::OptionalExtension;
use rusqlite::types::Value;

use super::core::{Abort, Row, Shared};
use super::values::{flag, get_time, get_u32, get_u64, int, time};
use crate::domain::change::{FIRST_VERSION, Kind};
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::StoreError;
use crate::store::media::{MediaRecord, Variant};

impl Row for MediaRecord {
    const TABLE: &'static str = "media";
    const KIND: Kind = Kind::Media;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "width",
        "height",
        "bytes",
        "attached",
        "created_at",
    ];
    const SELECT: &'static str =
        "t.id, t.family_id, t.version, t.width, t.height, t.bytes, t.attached, t.created_at";

    super::core::row_identity!(family);
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family.into(),
            int(self.version),
            int(self.width.into()),
            int(self.height.into()),
            int(self.bytes),
            flag(self.attached),
            time(self.created_at),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(MediaRecord {
            id: r.get(0)?,
            family: r.get(1)?,
            version: get_u64(r, 2)?,
            width: get_u32(r, 3)?,
            height: get_u32(r, 4)?,
            bytes: get_u64(r, 5)?,
            attached: r.get(6)?,
            created_at: get_time(r, 7)?,
        })
    }
}

pub struct Media {
    core: Shared,
}

impl Media {
    pub(crate) fn new(core: Shared) -> Self {
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
        let id = record.id;
        // The files first, on disk, then the row that names them.
        let core = self.core.clone();
        let owned: Vec<(Variant, Vec<u8>)> = sizes.iter().map(|(v, b)| (*v, b.to_vec())).collect();
        tokio::task::spawn_blocking(move || {
            let sizes: Vec<(Variant, &[u8])> = owned.iter().map(|(v, b)| (*v, &b[..])).collect();
            core.blobs.write(id, &sizes)
        })
        .await
        .map_err(|e| StoreError::Corrupt(e.to_string()))?
        .map_err(|e| StoreError::Corrupt(format!("cannot write the photo's files: {e}")))?;
        let stored = self
            .core
            .commit(move |tx| {
                tx.check_family(record.family)?;
                // An upload changes nothing anyone sees until a meal or profile uses it.
                let sql = format!(
                    "INSERT INTO media ({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    MediaRecord::COLUMNS.join(", ")
                );
                tx.conn
                    .prepare_cached(&sql)?
                    .execute(rusqlite::params_from_iter(record.values()))?;
                Ok(())
            })
            .await;
        let stored = match stored {
            Ok(()) => Ok(true),
            Err(Abort::NotFound) => Ok(false),
            Err(e) => Err(e.into()),
        };
        if !matches!(stored, Ok(true)) {
            let _ = self.core.blobs.remove(id);
        }
        stored
    }

    /// Bytes the family's photos take (all sizes).
    pub async fn family_usage(&self, family: FamilyId) -> Result<u64, StoreError> {
        let (recorded, unmeasured): (i64, Vec<MediaId>) = self
            .core
            .read(move |conn| {
                let total = conn
                    .prepare_cached(
                        "SELECT coalesce(sum(bytes), 0) FROM media WHERE family_id = ?1",
                    )?
                    .query_row([family], |r| r.get(0))?;
                // Photos recorded before sizes were kept: their files are measured.
                let mut stmt =
                    conn.prepare_cached("SELECT id FROM media WHERE family_id = ?1 AND bytes = 0")?;
                let ids = stmt.query_map([family], |r| r.get(0))?;
                Ok((total, ids.collect::<Result<_, _>>()?))
            })
            .await?;
        let mut total = recorded.max(0) as u64;
        for id in unmeasured {
            for variant in Variant::ALL {
                total += self
                    .core
                    .blobs
                    .len(id, variant)
                    .map_err(|e| StoreError::Corrupt(e.to_string()))?
                    .unwrap_or(0);
            }
        }
        Ok(total)
    }

    /// The family's photo; another family's id is simply not found.
    pub async fn get(
        &self,
        family: FamilyId,
        id: MediaId,
    ) -> Result<Option<MediaRecord>, StoreError> {
        self.core.get(family, id.into()).await
    }

    /// A size of the family's photo; `None` for another family's id, or a size never stored.
    /// The file is read after the row was found, with the read connection given back.
    pub async fn bytes(
        &self,
        family: FamilyId,
        id: MediaId,
        variant: Variant,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        if self.get(family, id).await?.is_none() {
            return Ok(None);
        }
        let core = self.core.clone();
        tokio::task::spawn_blocking(move || core.blobs.read(id, variant))
            .await
            .map_err(|e| StoreError::Corrupt(e.to_string()))?
            .map_err(|e| StoreError::Corrupt(format!("cannot read a photo's file: {e}")))
    }

    /// Removes uploads that nothing uses and that are older than `before`, a bounded batch
    /// per write (a photo attached meanwhile is kept: the write looks again).
    pub async fn purge_unattached(&self, before: DateTime<Utc>) -> Result<usize, StoreError> {
        const BATCH: i64 = 100;
        let mut removed = 0;
        loop {
            let batch = self
                .core
                .commit(move |tx| {
                    let stale: Vec<(MediaId, FamilyId)> = {
                        let mut stmt = tx.conn.prepare_cached(
                            "SELECT id, family_id FROM media
                             WHERE attached = 0 AND created_at < ?1 LIMIT ?2",
                        )?;
                        let found = stmt
                            .query_map(rusqlite::params![time(before), BATCH], |r| {
                                Ok((r.get(0)?, r.get(1)?))
                            })?;
                        found.collect::<Result<_, _>>()?
                    };
                    for (id, family) in &stale {
                        tx.release_photo(*family, *id)?;
                    }
                    Ok::<_, Abort>(stale.len())
                })
                .await?;
            removed += batch;
            if (batch as i64) < BATCH {
                return Ok(removed);
            }
        }
    }

    pub async fn count(&self) -> Result<usize, StoreError> {
        self.core
            .read(|conn| {
                conn.query_row("SELECT count(*) FROM media", [], |r| r.get::<_, i64>(0))
                    .optional()
                    .map(|n| n.unwrap_or(0) as usize)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::media::tests::upload;
    use crate::store::sqlite::tests::temp_core;

    #[tokio::test]
    async fn stores_reads_and_purges_only_old_unattached_uploads() {
        let (_dir, core) = temp_core();
        let media = Media::new(core.clone());
        let family = FamilyId::new();
        let old = upload(family, Utc::now() - chrono::Duration::days(2));
        let fresh = upload(family, Utc::now());
        for record in [&old, &fresh] {
            assert!(
                media
                    .insert(
                        record,
                        &[(Variant::Full, b"full"), (Variant::Thumb, b"thumb")]
                    )
                    .await
                    .unwrap()
            );
        }
        assert_eq!(
            media
                .bytes(family, old.id, Variant::Thumb)
                .await
                .unwrap()
                .unwrap(),
            b"thumb"
        );
        assert_eq!(media.get(family, old.id).await.unwrap().unwrap(), old);
        assert!(media.get(FamilyId::new(), old.id).await.unwrap().is_none());
        assert!(
            media
                .bytes(FamilyId::new(), old.id, Variant::Full)
                .await
                .unwrap()
                .is_none(),
            "another family's photo"
        );
        assert_eq!(media.family_usage(family).await.unwrap(), 2 * 9);
        let removed = media
            .purge_unattached(Utc::now() - chrono::Duration::days(1))
            .await
            .unwrap();
        assert_eq!(removed, 1);
        assert!(media.get(family, old.id).await.unwrap().is_none());
        assert!(
            media
                .bytes(family, old.id, Variant::Full)
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            !core.blobs.path(old.id, Variant::Full).exists(),
            "files removed"
        );
        assert!(media.get(family, fresh.id).await.unwrap().is_some());
        assert_eq!(media.count().await.unwrap(), 1);
    }
}
