//! Backups while `serve` runs: written into the backup directory (atomically: a hidden
//! `.partial` file renamed when complete), pruned oldest first, on a schedule, and reported by
//! `/api/health`. The archive itself is `store::backup`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, NaiveDateTime, Utc};

use super::Services;
use crate::store::backup::{BackupError, Summary};

const PREFIX: &str = "highchair-";
const SUFFIX: &str = ".tar";
const PARTIAL: &str = ".partial";
const STAMP: &str = "%Y%m%dT%H%M%SZ";
/// After a failed automatic backup, try again after this long (or the interval, if shorter).
const RETRY_AFTER: Duration = Duration::from_secs(3600);

/// The file name of a backup taken at `at`.
pub fn file_name(at: DateTime<Utc>) -> String {
    format!("{PREFIX}{}{SUFFIX}", at.format(STAMP))
}

/// When a backup file was taken, from its name; `None` for any other file.
pub fn taken_at(name: &str) -> Option<DateTime<Utc>> {
    let stamp = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    NaiveDateTime::parse_from_str(stamp, STAMP)
        .ok()
        .map(|t| t.and_utc())
}

/// The backups to remove so that `keep` remain: the oldest.
pub fn to_prune(names: &[String], keep: usize) -> Vec<String> {
    let mut dated: Vec<(DateTime<Utc>, &String)> = names
        .iter()
        .filter_map(|n| taken_at(n).map(|t| (t, n)))
        .collect();
    dated.sort();
    let excess = dated.len().saturating_sub(keep);
    dated
        .into_iter()
        .take(excess)
        .map(|(_, n)| n.clone())
        .collect()
}

/// When the next automatic backup is due: `interval` after the newest, or `first_after` from
/// now when there is none yet.
pub fn next_due(
    newest: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    interval: chrono::Duration,
    first_after: chrono::Duration,
) -> DateTime<Utc> {
    match newest {
        // A clock set back leaves a newest backup in the future: do not wait for it.
        Some(t) if t <= now => t + interval,
        _ => now + first_after,
    }
}

/// The last outcome, for `/api/health`.
#[derive(Debug, Clone, Default)]
pub struct Status {
    pub last_ok: Option<DateTime<Utc>>,
    /// The last attempt failed: when, and why (for the log and the admin, not the network).
    pub failed: Option<(DateTime<Utc>, String)>,
}

#[derive(Default)]
pub struct Backups {
    status: Mutex<Status>,
}

impl Backups {
    pub fn status(&self) -> Status {
        self.status
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn record(&self, outcome: &Result<Written, BackupError>) {
        let mut status = self.status.lock().unwrap_or_else(|p| p.into_inner());
        match outcome {
            Ok(w) => {
                status.last_ok = Some(w.summary.created_at);
                status.failed = None;
            }
            Err(e) => status.failed = Some((Utc::now(), e.to_string())),
        }
    }
}

/// A backup written into the backup directory.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Written {
    pub path: PathBuf,
    pub bytes: u64,
    pub summary: Summary,
    /// Older backups removed to keep `backup.keep`.
    pub pruned: Vec<String>,
}

/// Writes a backup into the backup directory now, then prunes. Runs off the async threads.
pub async fn write_now(app: &Services) -> Result<Written, BackupError> {
    let store = app.store.clone();
    let dir = app.settings.backup_dir();
    let keep = app.settings.backup.keep as usize;
    let outcome = tokio::task::spawn_blocking(move || write_into(&store, &dir, keep))
        .await
        .unwrap_or_else(|e| Err(BackupError::Io(format!("the backup stopped: {e}"))));
    app.backups.record(&outcome);
    match &outcome {
        Ok(w) => tracing::info!(
            path = %w.path.display(),
            bytes = w.bytes,
            pruned = w.pruned.len(),
            "backup written"
        ),
        Err(e) => tracing::error!(error = %e, "backup failed"),
    }
    outcome
}

fn io(what: &str, path: &Path, e: std::io::Error) -> BackupError {
    BackupError::Io(format!("{what} {}: {e}", path.display()))
}

/// Writes `dir/highchair-<time>.tar` through a `.partial` file, then removes the oldest
/// backups beyond `keep`. A partial file is never taken for a backup: it has another name, and
/// an archive cut short fails verification anyway.
pub fn write_into(
    store: &crate::store::Store,
    dir: &Path,
    keep: usize,
) -> Result<Written, BackupError> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| io("cannot make the backup directory", dir, e))?;
    remove_partials(dir);
    let partial = dir.join(format!(".{}{PARTIAL}", uuid::Uuid::new_v4().simple()));
    let result = (|| -> Result<(PathBuf, u64, Summary), BackupError> {
        let (summary, bytes) = write_file(store, &partial)?;
        let path = dir.join(file_name(summary.created_at));
        std::fs::rename(&partial, &path).map_err(|e| io("cannot rename", &partial, e))?;
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| io("cannot write", dir, e))?;
        Ok((path, bytes, summary))
    })();
    let (path, bytes, summary) = result.inspect_err(|_: &BackupError| {
        let _ = std::fs::remove_file(&partial);
    })?;
    let pruned = prune(dir, keep);
    Ok(Written {
        path,
        bytes,
        summary,
        pruned,
    })
}

/// Writes an archive of this moment to `path` and syncs it; returns what it holds and its size.
pub fn write_file(store: &crate::store::Store, path: &Path) -> Result<(Summary, u64), BackupError> {
    let file = std::fs::File::create(path).map_err(|e| io("cannot write", path, e))?;
    let file = crate::store::backup::SyncingFile::new(file);
    let (summary, out) = store.backup(std::io::BufWriter::with_capacity(1 << 20, file))?;
    let file = out
        .into_inner()
        .map_err(|e| io("cannot write", path, e.into_error()))?
        .into_inner();
    file.sync_all().map_err(|e| io("cannot write", path, e))?;
    Ok((summary, file.metadata().map(|m| m.len()).unwrap_or(0)))
}

fn backup_names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| taken_at(n).is_some())
                .collect()
        })
        .unwrap_or_default()
}

/// The newest backup in `dir`, if any.
pub fn newest(dir: &Path) -> Option<PathBuf> {
    let names = backup_names(dir);
    names
        .iter()
        .filter_map(|n| taken_at(n).map(|t| (t, n)))
        .max()
        .map(|(_, n)| dir.join(n))
}

fn prune(dir: &Path, keep: usize) -> Vec<String> {
    let mut removed = Vec::new();
    for name in to_prune(&backup_names(dir), keep) {
        match std::fs::remove_file(dir.join(&name)) {
            Ok(()) => removed.push(name),
            Err(e) => {
                tracing::warn!(file = %name, error = %e, "an old backup could not be removed")
            }
        }
    }
    removed
}

/// Partial files left by a backup that was cut off (a crash, a full disk).
fn remove_partials(dir: &Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && name.ends_with(PARTIAL) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Whether backups are taken automatically (`backup.interval_hours` above 0).
pub fn automatic(app: &Services) -> bool {
    app.settings.backup.interval_hours > 0
}

/// Automatic backups every `backup.interval_hours`, until stopped at shutdown. Only started
/// when `automatic`.
pub async fn run(app: impl std::ops::Deref<Target = Services>, first_after: Duration) {
    let hours = app.settings.backup.interval_hours.max(1);
    let interval = chrono::Duration::hours(i64::from(hours));
    let first_after = chrono::Duration::from_std(first_after).unwrap_or_default();
    let dir = app.settings.backup_dir();
    let mut retry_at: Option<DateTime<Utc>> = None;
    loop {
        let now = Utc::now();
        let newest = newest(&dir).and_then(|p| taken_at(&p.file_name()?.to_string_lossy()));
        let due = retry_at.unwrap_or_else(|| next_due(newest, now, interval, first_after));
        if due > now {
            // Look again at least hourly: a backup taken by hand moves the schedule.
            let wait = (due - now).to_std().unwrap_or_default().min(RETRY_AFTER);
            tokio::time::sleep(wait).await;
            continue;
        }
        retry_at = match write_now(&app).await {
            Ok(_) => None,
            Err(_) => {
                let retry = interval.to_std().unwrap_or(RETRY_AFTER).min(RETRY_AFTER);
                Some(Utc::now() + chrono::Duration::from_std(retry).unwrap_or_default())
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 24, h, 0, 0).unwrap()
    }

    #[test]
    fn names_carry_their_time() {
        let name = file_name(at(3));
        assert_eq!(name, "highchair-20261124T030000Z.tar");
        assert_eq!(taken_at(&name), Some(at(3)));
        for other in [
            "highchair-20261124T030000Z.tar.partial",
            ".0123.partial",
            "notes.txt",
            "highchair-yesterday.tar",
        ] {
            assert_eq!(taken_at(other), None, "{other}");
        }
    }

    #[test]
    fn pruning_removes_the_oldest_beyond_keep_and_nothing_else() {
        let names: Vec<String> = [5, 1, 9, 3]
            .iter()
            .map(|h| file_name(at(*h)))
            .chain(["notes.txt".to_string()])
            .collect();
        assert_eq!(
            to_prune(&names, 2),
            vec![file_name(at(1)), file_name(at(3))]
        );
        assert!(to_prune(&names, 4).is_empty());
        assert_eq!(to_prune(&names, 0).len(), 4);
    }

    #[test]
    fn the_next_backup_is_an_interval_after_the_newest() {
        let day = chrono::Duration::hours(24);
        let soon = chrono::Duration::minutes(10);
        assert_eq!(next_due(Some(at(1)), at(5), day, soon), at(1) + day);
        assert_eq!(next_due(None, at(5), day, soon), at(5) + soon);
        // A backup "from the future" (the clock went back) does not stop backups for a day.
        assert_eq!(next_due(Some(at(9)), at(5), day, soon), at(5) + soon);
    }
}
