//! Hourly housekeeping while `serve` runs: expired limits, sessions, reset links and adult
//! invites; idle guests; uploads no meal or profile used within a day.

use std::time::Duration;

use super::Services;
use crate::store::rate_limits::unix_nanos;

const EVERY: Duration = Duration::from_secs(3600);

/// Runs housekeeping now and then every hour, until stopped at shutdown.
pub async fn run(app: impl std::ops::Deref<Target = Services>) {
    let mut ticker = tokio::time::interval(EVERY);
    loop {
        ticker.tick().await;
        run_once(&app).await;
    }
}

/// One round of housekeeping.
pub async fn run_once(app: &Services) {
    let now = chrono::Utc::now();
    let limits = app.store.rate_limits.purge_expired(unix_nanos());
    let sessions = app
        .store
        .sessions
        .purge_expired(now)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging expired sessions failed");
            0
        });
    let share_sessions = app
        .store
        .share_sessions
        .purge_expired(now)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging expired share sessions failed");
            0
        });
    let links = app
        .store
        .reset_tokens
        .purge(None, now)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging expired reset links failed");
            0
        });
    let invites = app
        .store
        .invites
        .purge_expired(now)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging expired invites failed");
            0
        });
    let guests = super::accounts::purge_guests(app)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging idle guests failed");
            0
        });
    let uploads = super::photos::purge_unattached(app)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging unused uploads failed");
            0
        });
    let recipe_jobs = app
        .store
        .generations
        .purge_before(now - crate::domain::generation::JOB_TTL)
        .await
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "purging old recipe jobs failed");
            0
        });
    tracing::debug!(
        recipe_jobs,
        limits,
        sessions,
        share_sessions,
        links,
        invites,
        guests,
        uploads,
        "housekeeping done"
    );
}
