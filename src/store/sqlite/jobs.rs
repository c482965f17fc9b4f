//! Persisted jobs: work that must finish even after a crash (removing a deleted child's meals,
//! a deleted family's records). A job is queued in the same write as the change that needs
//! it, runs in bounded batches, and is removed when its last batch is done. A restart finds
//! unfinished jobs here and resumes them.

use chrono::Utc;

use super::core::{Abort, Shared, Tx};
use super::values::{get_json, get_time, json, time};
use crate::domain::change::Change;
use crate::domain::ids::JobId;
use crate::store::StoreError;
use crate::store::jobs::{Job, JobKind};

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
}
