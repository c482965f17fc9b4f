//! What `GET /api/health` reports: whether the store answers, the disk has room, the recipe
//! generator works and backups are being written. The API words it.

use chrono::{DateTime, Utc};

use super::Services;
use crate::generator::Status;

/// Automatic backups, as monitoring should see them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backups {
    Ok,
    /// The last one failed (the log says why).
    Failed,
    /// Turned off in the settings.
    Off,
    /// On, none written yet.
    None,
}

pub struct Health {
    pub store_ok: bool,
    /// Free space under the settings' minimum (writes of photos are refused).
    pub disk_low: bool,
    /// The configured generator's name ("builtin", "ollama").
    pub generator: String,
    pub generator_status: Status,
    pub backups: Backups,
    pub last_backup_at: Option<DateTime<Utc>>,
    /// The sled release's files kept after an upgrade, until the admin removes them.
    pub previous_store: Option<String>,
}

impl Health {
    /// Everything a family needs works: the store, room on the disk, backups.
    pub fn is_ok(&self) -> bool {
        self.store_ok && !self.disk_low && self.backups != Backups::Failed
    }
}

pub async fn check(app: &Services) -> Health {
    let store_ok = app.store.is_healthy().await;
    let disk_low = app
        .store
        .free_space()
        .is_some_and(|free| free < app.settings.limits.min_free_disk_bytes());
    let generator_status = super::generation::generator_status(app).await;
    let status = app.backups.status();
    let backups = match (&status.failed, status.last_ok) {
        (Some(_), _) => Backups::Failed,
        (None, Some(_)) => Backups::Ok,
        (None, None) if app.settings.backup.interval_hours == 0 => Backups::Off,
        (None, None) => Backups::None,
    };
    Health {
        store_ok,
        disk_low,
        generator: app.settings.recipes.generator.to_string(),
        generator_status,
        backups,
        last_backup_at: status.last_ok,
        previous_store: app.store.previous_store().map(String::from),
    }
}
