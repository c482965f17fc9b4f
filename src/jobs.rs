//! Background housekeeping while `serve` runs.

use std::time::Duration;

use tokio::task::JoinHandle;

use crate::app::App;
use crate::store::rate_limits::unix_nanos;

const EVERY: Duration = Duration::from_secs(3600);

/// Runs housekeeping now and then every hour, until aborted at shutdown.
pub fn spawn(app: App) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut ticker = tokio::time::interval(EVERY);
        loop {
            ticker.tick().await;
            run_once(&app);
        }
    })
}

/// One round of housekeeping.
pub fn run_once(app: &App) {
    let purged = app.store.rate_limits.purge_expired(unix_nanos());
    if purged > 0 {
        tracing::debug!(purged, "expired rate limit entries removed");
    }
}
