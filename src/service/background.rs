//! What a running server does besides answering requests, listed in one place and run by one
//! supervisor (`jobs::supervisor`): persisted jobs (cascades and purges), the recipe
//! generation lane, hourly housekeeping, automatic backups and the memory give-back.

use std::ops::Deref;
use std::sync::Arc;
use std::time::Duration;

use super::Services;
use crate::jobs::supervisor::Supervisor;

/// Starts every background task; `Supervisor::stop` ends them at shutdown. `forget_answers`
/// drops the API's rendered answers nobody asked for in the time it is given (the memory
/// give-back's first step; the cache is the API's).
pub async fn start<A>(
    app: A,
    forget_answers: impl Fn(Duration) + Send + Sync + 'static,
) -> Supervisor
where
    A: Deref<Target = Services> + Clone + Send + Sync + 'static,
{
    let mut tasks = Supervisor::new();

    let (store, wake) = (app.store.clone(), app.jobs_wake.clone());
    tasks.start("jobs", move || {
        crate::jobs::run(store.clone(), wake.clone())
    });

    // Once, before the lane runs: what was queued or running when the server stopped.
    match app.generation.recover().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(jobs = n, "recipe jobs queued again after a restart"),
        Err(e) => tracing::error!(error = %e, "unfinished recipe jobs could not be read"),
    }
    let lane = app.generation.clone();
    tasks.start("recipe generation", move || lane.clone().work());

    let a = app.clone();
    tasks.start("housekeeping", move || super::housekeeping::run(a.clone()));

    if super::backups::automatic(&app) {
        let (a, first) = (app.clone(), app.first_backup_after);
        tasks.start("backups", move || super::backups::run(a.clone(), first));
    } else {
        tracing::info!("automatic backups are off (backup.interval_hours = 0)");
    }

    let a = app.clone();
    let forget = Arc::new(forget_answers);
    tasks.start("memory give-back", move || {
        give_back_memory(a.clone(), forget.clone())
    });
    tasks
}

/// Once a minute, what a quiet spell no longer needs goes back to the system: answers nobody
/// asked for in that minute, the readers' page caches when none is reading (the kernel caches
/// the file anyway), then the heap's free pages. Two minutes after ten minutes of clients
/// paging through five years of meals: 38 MiB without the first two parts, 15 with them
/// (docs/benchmarks.md, "The read soak").
async fn give_back_memory(
    app: impl Deref<Target = Services>,
    forget_answers: Arc<impl Fn(Duration) + Send + Sync>,
) {
    let mut every = tokio::time::interval(crate::memory::GIVE_BACK_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    every.tick().await;
    loop {
        every.tick().await;
        forget_answers(crate::memory::GIVE_BACK_EVERY);
        let store = app.store.clone();
        let _ = tokio::task::spawn_blocking(move || {
            store.release_memory();
            crate::memory::give_back_free_memory();
        })
        .await;
    }
}
