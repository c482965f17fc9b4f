//! Persisted jobs: work that must finish even after a crash (removing a deleted child's meals,
//! a deleted family's records). A job is queued in the same transaction as the change that
//! needs it, runs in bounded batches, and is removed when its last batch is done. A restart
//! finds unfinished jobs here and resumes them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::write::{Shared, TreeId, Tx, TxResult, corrupt};
use super::{Record, StoreError};
use crate::domain::change::Change;
use crate::domain::ids::{ChildId, FamilyId, JobId};

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

/// Queues a job inside a write transaction.
pub(crate) fn enqueue(tx: &Tx<'_>, job: JobKind) -> TxResult<JobId> {
    let job = Job {
        id: JobId::new(),
        job,
        created_at: Utc::now(),
    };
    let value = job.encode().map_err(corrupt)?;
    tx.insert_raw(TreeId::Jobs, job.id.as_bytes(), &value)?;
    tx.note(Change::JobQueued);
    Ok(job.id)
}

/// Trees whose keys start with the family id.
const FAMILY_TREES: [TreeId; 10] = [
    TreeId::FamilyInvites,
    TreeId::CoParents,
    TreeId::Recipes,
    TreeId::GroceryLists,
    TreeId::MealPlans,
    TreeId::MealsByTime,
    TreeId::MealsByChild,
    TreeId::Meals,
    TreeId::Children,
    TreeId::Media,
];

pub struct Jobs {
    core: Shared,
}

impl Jobs {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Unfinished jobs, oldest first. A job record that cannot be read is reported and skipped
    /// (kept for the admin), so it cannot hold up the others.
    pub fn pending(&self) -> Result<Vec<Job>, StoreError> {
        let mut jobs = Vec::new();
        for value in self.core.tree(TreeId::Jobs).iter().values() {
            match Job::decode(&value?) {
                Ok(job) => jobs.push(job),
                Err(e) => tracing::error!(error = %e, "an unreadable job record is skipped"),
            }
        }
        Ok(jobs)
    }

    /// Marks a job done.
    pub(crate) fn finish(&self, id: JobId) -> Result<(), StoreError> {
        self.core.tree(TreeId::Jobs).remove(id.as_bytes())?;
        Ok(())
    }

    /// Removes up to `BATCH` keys of a deleted family. Returns how many; 0 when none are left.
    pub(crate) fn purge_family(&self, family: FamilyId) -> Result<usize, StoreError> {
        let mut removed = 0;
        for id in FAMILY_TREES {
            let tree = self.core.tree(id);
            for entry in tree.scan_prefix(family.as_bytes()).take(BATCH - removed) {
                let (key, value) = entry?;
                // A co-parent's token entry goes first: a stop in between leaves the record,
                // which the next batch finds again.
                if id == TreeId::CoParents {
                    super::co_parents::remove_index_of(&self.core, &value)?;
                }
                // A photo's files go once its record's removal is on disk (the runner
                // flushes after each batch).
                if id == TreeId::Media {
                    self.core.tree(TreeId::BlobGraveyard).insert(&key, &[])?;
                }
                tree.remove(key)?;
                removed += 1;
            }
            if removed == BATCH {
                return Ok(removed);
            }
        }
        // The family's entry stays (marked deleted): its revisions are never handed out again.
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::ids::FamilyId;
    use crate::store::children::tests::child;
    use crate::store::tests::temp_store;

    #[tokio::test]
    async fn a_deleted_family_is_removed_in_batches_and_nothing_of_another_family() {
        let (_dir, store) = temp_store();
        let (gone, kept) = (FamilyId::new(), FamilyId::new());
        for i in 0..150 {
            store
                .children
                .insert(&child(gone, &format!("C{i}")))
                .await
                .unwrap();
        }
        store.children.insert(&child(kept, "Stay")).await.unwrap();
        assert_eq!(store.jobs.purge_family(gone).unwrap(), super::BATCH);
        assert_eq!(store.jobs.purge_family(gone).unwrap(), 50);
        assert_eq!(store.jobs.purge_family(gone).unwrap(), 0, "done");
        assert!(store.children.list(gone).unwrap().is_empty());
        assert_eq!(store.revision(gone).unwrap(), 150, "its revision is kept");
        assert_eq!(store.children.list(kept).unwrap().len(), 1);
        assert_eq!(store.revision(kept).unwrap(), 1);
    }
}
