//! Persisted jobs: work that must finish even after a crash (removing a deleted child's meals,
//! a deleted family's records). A job is queued in the same write as the change that needs
//! it, runs in bounded batches, and is removed when its last batch is done. A restart finds
//! unfinished jobs here and resumes them.

use chrono::Utc;

use super::core::{Abort, Shared, Tx};
use super::values::{get_json, get_time, json, time};
use crate::domain::change::Change;
use crate::domain::ids::JobId;
use crate::domain::ids::{FamilyId, MealId, MediaId};
use crate::domain::meal::Meal;
use crate::store::StoreError;
use crate::store::jobs::{BATCH, Job, JobKind};

/// A deleted family's tables after its meals and photos, in the order they are emptied (a
/// child's row goes only once its meals are gone), with their key column.
const FAMILY_TABLES: [(&str, &str); 7] = [
    ("children", "id"),
    ("recipes", "id"),
    ("grocery_lists", "id"),
    ("meal_plans", "week"),
    ("co_parents", "id"),
    ("family_invites", "id"),
    ("family_settings", "family_id"),
];

/// Queues a job inside a write.
pub(crate) fn enqueue(tx: &mut Tx<'_>, job: JobKind) -> Result<JobId, Abort> {
    let id = JobId::new();
    tx.conn
        .prepare_cached("INSERT INTO jobs (id, job, created_at) VALUES (?1, ?2, ?3)")?
        .execute(rusqlite::params![id, json(&job), time(Utc::now())])?;
    tx.note(Change::JobQueued);
    Ok(id)
}

pub struct Jobs {
    core: Shared,
}

impl Jobs {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Unfinished jobs, oldest first. A job that cannot be read is reported and skipped (kept
    /// for the admin), so it cannot hold up the others.
    pub async fn pending(&self) -> Result<Vec<Job>, StoreError> {
        self.core
            .read(|conn| {
                let mut stmt =
                    conn.prepare_cached("SELECT id, job, created_at FROM jobs ORDER BY id")?;
                let rows = stmt.query_map([], |r| {
                    Ok(get_json(r, 1).and_then(|job| {
                        Ok(Job {
                            id: r.get(0)?,
                            job,
                            created_at: get_time(r, 2)?,
                        })
                    }))
                })?;
                let mut jobs = Vec::new();
                for row in rows {
                    match row? {
                        Ok(job) => jobs.push(job),
                        Err(e) => tracing::error!(error = %e, "an unreadable job is skipped"),
                    }
                }
                Ok(jobs)
            })
            .await
    }

    /// Marks a job done.
    pub(crate) async fn finish(&self, id: JobId) -> Result<(), StoreError> {
        self.core
            .db
            .write(move |conn| {
                conn.prepare_cached("DELETE FROM jobs WHERE id = ?1")?
                    .execute([id])?;
                Ok::<_, StoreError>(())
            })
            .await
    }

    /// Removes up to `BATCH` records of a deleted family (rows that belong to them go with
    /// them). Returns how many; 0 when none are left. The family's row stays, marked deleted:
    /// its revisions are never handed out again.
    pub(crate) async fn purge_family(&self, family: FamilyId) -> Result<usize, StoreError> {
        Ok(self
            .core
            .commit(move |tx| {
                let limit = BATCH as i64;
                let meals: Vec<(MealId, Option<MediaId>)> = {
                    let mut stmt = tx.conn.prepare_cached(
                        "SELECT id, photo_id FROM meals WHERE family_id = ?1 LIMIT ?2",
                    )?;
                    let found = stmt.query_map(rusqlite::params![family, limit], |r| {
                        Ok((r.get(0)?, r.get(1)?))
                    })?;
                    found.collect::<Result<_, _>>()?
                };
                let mut removed = meals.len();
                for (id, photo) in meals {
                    tx.remove_row::<Meal>(family, &id.into())?;
                    if let Some(photo) = photo {
                        tx.release_photo(family, photo)?;
                    }
                }
                if removed < BATCH {
                    let photos: Vec<MediaId> = {
                        let mut stmt = tx
                            .conn
                            .prepare_cached("SELECT id FROM media WHERE family_id = ?1 LIMIT ?2")?;
                        let found = stmt.query_map(
                            rusqlite::params![family, (BATCH - removed) as i64],
                            |r| r.get(0),
                        )?;
                        found.collect::<Result<_, _>>()?
                    };
                    removed += photos.len();
                    for photo in photos {
                        tx.release_photo(family, photo)?;
                    }
                }
                for (table, key) in FAMILY_TABLES {
                    if removed >= BATCH {
                        break;
                    }
                    removed += tx
                        .conn
                        .prepare_cached(&format!(
                            "DELETE FROM {table} WHERE family_id = ?1 AND {key} IN
                             (SELECT {key} FROM {table} WHERE family_id = ?1 LIMIT ?2)"
                        ))?
                        .execute(rusqlite::params![family, (BATCH - removed) as i64])?;
                }
                Ok::<_, Abort>(removed)
            })
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::allergen_intro::Region;
    use crate::domain::family_settings::SettingsFields;
    use crate::store::children::tests::child;
    use crate::store::meals::tests::meal;
    use crate::store::media::Variant;
    use crate::store::media::tests::upload;
    use crate::store::sqlite::children::Children;
    use crate::store::sqlite::family_settings::FamilySettingsRepo;
    use crate::store::sqlite::meals::Meals;
    use crate::store::sqlite::media::Media;
    use crate::store::sqlite::tests::temp_core;

    #[tokio::test]
    async fn a_deleted_family_is_removed_in_batches_and_nothing_of_another_family() {
        let (_dir, core) = temp_core();
        let (children, meals, media) = (
            Children::new(core.clone()),
            Meals::new(core.clone()),
            Media::new(core.clone()),
        );
        let jobs = Jobs::new(core.clone());
        let (gone, kept) = (FamilyId::new(), FamilyId::new());
        let emma = children.insert(&child(gone, "Emma")).await.unwrap();
        for i in 0..120 {
            children
                .insert(&child(gone, &format!("C{i}")))
                .await
                .unwrap();
        }
        let photo = upload(gone, Utc::now());
        media
            .insert(&photo, &[(Variant::Full, b"f"), (Variant::Thumb, b"t")])
            .await
            .unwrap();
        let mut with_photo = meal(gone, emma.id, 1);
        with_photo.photo = Some(photo.id);
        meals.insert(&with_photo).await.unwrap();
        for i in 0..30 {
            meals.insert(&meal(gone, emma.id, i)).await.unwrap();
        }
        // A recipe with a picture: the photos go first, the recipe after (its picture is
        // then simply none).
        let picture = upload(gone, Utc::now());
        media
            .insert(&picture, &[(Variant::Full, b"p")])
            .await
            .unwrap();
        let mut recipe = crate::domain::recipe::Recipe::create(
            gone,
            crate::domain::ids::UserId::new(),
            crate::domain::recipe::Source::Imported,
            crate::domain::recipe::tests::content("Soup", &["Leek"]),
            Utc::now(),
        );
        recipe.photo = Some(picture.id);
        crate::store::sqlite::recipes::Recipes::new(core.clone())
            .insert(&recipe)
            .await
            .unwrap();
        let stay = children.insert(&child(kept, "Stay")).await.unwrap();
        meals.insert(&meal(kept, stay.id, 1)).await.unwrap();
        let settings = FamilySettingsRepo::new(core.clone());
        let us = SettingsFields {
            allergen_list: Region::Us,
        };
        for family in [gone, kept] {
            settings.save(family, 0, us, Utc::now()).await.unwrap();
        }
        let revision = core.revision(gone);

        let mut batches = Vec::new();
        loop {
            let n = jobs.purge_family(gone).await.unwrap();
            batches.push(n);
            if n == 0 {
                break;
            }
        }
        assert!(batches.iter().all(|n| *n <= BATCH), "{batches:?}");
        assert_eq!(
            batches.iter().sum::<usize>(),
            31 + 1 + 121 + 1 + 1,
            "meals, the recipe's picture, children, the recipe and settings"
        );
        assert!(settings.get(gone).await.unwrap().is_none());
        assert!(settings.get(kept).await.unwrap().is_some());
        assert!(children.list(gone).await.unwrap().is_empty());
        for gone_photo in [photo.id, picture.id] {
            assert!(
                !core.blobs.path(gone_photo, Variant::Full).exists(),
                "photo files gone"
            );
        }
        assert_eq!(core.revision(gone), revision, "its revision is kept");
        assert_eq!(children.list(kept).await.unwrap().len(), 1);
        assert_eq!(meals.page(kept, None, None, 10).await.unwrap().0.len(), 1);
    }
}
