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
            run_once(&app).await;
        }
    })
}

/// One round of housekeeping: expired limits, sessions and reset links; idle guests; uploads no
/// meal or profile used within a day.
pub async fn run_once(app: &App) {
    let now = chrono::Utc::now();
    let limits = app.store.rate_limits.purge_expired(unix_nanos());
    let sessions = app.store.sessions.purge_expired(now).unwrap_or_else(|e| {
        tracing::error!(error = %e, "purging expired sessions failed");
        0
    });
    let links = app.store.reset_tokens.purge(None, now).unwrap_or_else(|e| {
        tracing::error!(error = %e, "purging expired reset links failed");
        0
    });
    if let Err(failure) = crate::admin::ops::purge_guests(app).await {
        tracing::error!(error = %failure.message, "purging idle guests failed");
    }
    let uploads = crate::family::photos::purge_unattached(app)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging unused uploads failed");
            0
        });
    tracing::debug!(limits, sessions, links, uploads, "housekeeping done");
}
