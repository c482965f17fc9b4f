//! Work done in the background: the persisted job runner (here), the recipe generation lane
//! (`generation`) and the supervisor that starts and stops every background task
//! (`supervisor`).
//!
//! Persisted jobs are queued by the store in the same transaction as the change that needs
//! them (a deleted child's meals, a deleted family's records); the runner works through them
//! in bounded batches, oldest first, and at start picks up whatever a crash or stop left
//! unfinished.

pub mod generation;
pub mod supervisor;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::store::Store;

/// After a failure, wait this long before trying again.
const RETRY_AFTER: Duration = Duration::from_secs(30);
/// How often a job waiting for a backup looks again.
const BACKUP_WAIT: Duration = Duration::from_millis(500);

/// Runs every pending job to the end. A job that fails is left for the next round and does
/// not hold up the others. Returns how many jobs finished, or the first failure.
pub async fn run_pending(store: &Store) -> Result<usize, crate::store::StoreError> {
    let mut finished = 0;
    let mut failure = None;
    for job in store.jobs.pending().await? {
        loop {
            // Purges wait while a backup copies photos (its snapshot may still need them).
            while store.backup_running() {
                tokio::time::sleep(BACKUP_WAIT).await;
            }
            match store.run_job_batch(&job).await {
                Ok(true) => {
                    finished += 1;
                    tracing::info!(job.id = %job.id, kind = ?job.job, "job finished");
                    break;
                }
                // Let requests in between batches.
                Ok(false) => tokio::task::yield_now().await,
                Err(e) => {
                    tracing::error!(job.id = %job.id, kind = ?job.job, error = %e, "job failed");
                    failure.get_or_insert(e);
                    break;
                }
            }
        }
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(finished),
    }
}

/// Runs jobs now and whenever `wake` is notified, until stopped at shutdown.
pub async fn run(store: Arc<Store>, wake: Arc<Notify>) {
    loop {
        match run_pending(&store).await {
            Ok(_) => wake.notified().await,
            Err(e) => {
                tracing::error!(error = %e, "a background job failed; retrying later");
                tokio::select! {
                    _ = wake.notified() => {}
                    _ = tokio::time::sleep(RETRY_AFTER) => {}
                }
            }
        }
    }
}
