//! The open SQLite store: one data directory (see `store`), its database, its repositories.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::co_parents::CoParents;
use super::contact_messages::ContactMessages;
use super::core::{Core, Hook, Shared};
use super::family_settings::FamilySettingsRepo;
use super::generations::Generations;
use super::grocery_lists::GroceryLists;
use super::invites::Invites;
use super::meal_plans::MealPlans;
use super::rate_limits::RateLimits;
use super::recipes::Recipes;
use super::reset_tokens::ResetTokens;
use super::sessions::Sessions;
use super::share_sessions::ShareSessions;
use rusqlite::OptionalExtension;

use super::{Database, MigrateError, OpenDbError};
use super::{children::Children, jobs::Jobs, meals::Meals, media::Media, users::Users};
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::backup::{BackupError, Summary};
use crate::store::blobs::Blobs;
use crate::store::import_sled::{self, DATABASE, KEPT_PREFIX, SLED_DIR};
use crate::store::jobs::{BATCH, Job, JobKind};
use crate::store::{OpenError, StoreError, claim_dir};

/// The open store. Dropping it finishes the queued writes and releases the directory lock.
pub struct Store {
    core: Shared,
    dir: PathBuf,
    /// Held while a backup is written (one at a time).
    backing_up: std::sync::Mutex<()>,
    /// The sled release's files kept after this directory was upgraded, if any.
    previous_store: Option<String>,
    pub contact_messages: ContactMessages,
    pub rate_limits: RateLimits,
    pub users: Users,
    pub invites: Invites,
    pub family_settings: FamilySettingsRepo,
    pub sessions: Sessions,
    pub reset_tokens: ResetTokens,
    pub children: Children,
    pub meals: Meals,
    pub media: Media,
    pub jobs: Jobs,
    pub recipes: Recipes,
    pub generations: Generations,
    pub grocery_lists: GroceryLists,
    pub meal_plans: MealPlans,
    pub co_parents: CoParents,
    pub share_sessions: ShareSessions,
    // Last: the lock goes after the database has closed.
    _lock: File,
}

impl Store {
    /// Opens (creating if needed) the store in `dir`, taking the directory lock first. A
    /// directory written by the sled release is imported first (see `import_sled`).
    pub fn open(dir: &Path, cache_mb: u32) -> Result<Store, OpenError> {
        let (dir, lock) = claim_dir(dir, &[DATABASE, SLED_DIR])?;
        let unusable = |reason: String| OpenError::Unusable {
            dir: dir.clone(),
            reason,
        };
        if import_sled::run(&dir, cache_mb)
            .map_err(|e| unusable(e.to_string()))?
            .is_some()
        {
            // The import's buffers are free now; without this the server keeps them for good.
            crate::memory::give_back_free_memory();
        }
        let previous = previous_store(&dir);
        if let Some(kept) = &previous {
            // Said at every start until the admin removes it (docs/admin.md, section 9).
            tracing::info!(
                kept = %dir.join(kept).display(),
                "the sled store of the release before is kept; remove it once all is well"
            );
        }
        let db = Database::open(&dir.join(DATABASE), cache_mb).map_err(|e| match e {
            OpenDbError::Migrate(MigrateError::TooNew { found, supported }) => OpenError::TooNew {
                dir: dir.clone(),
                found,
                supported,
            },
            other => unusable(other.to_string()),
        })?;
        let core = Arc::new(Core::new(db, Blobs::new(&dir)).map_err(|e| unusable(e.to_string()))?);
        sweep_at_start(&core);
        let rate_limits = RateLimits::open(core.clone()).map_err(|e| unusable(e.to_string()))?;
        Ok(Store {
            previous_store: previous,
            contact_messages: ContactMessages::new(core.clone()),
            rate_limits,
            users: Users::new(core.clone()),
            invites: Invites::new(core.clone()),
            family_settings: FamilySettingsRepo::new(core.clone()),
            sessions: Sessions::new(core.clone()),
            reset_tokens: ResetTokens::new(core.clone()),
            children: Children::new(core.clone()),
            meals: Meals::new(core.clone()),
            media: Media::new(core.clone()),
            jobs: Jobs::new(core.clone()),
            recipes: Recipes::new(core.clone()),
            generations: Generations::new(core.clone()),
            grocery_lists: GroceryLists::new(core.clone()),
            meal_plans: MealPlans::new(core.clone()),
            co_parents: CoParents::new(core.clone()),
            share_sessions: ShareSessions::new(core.clone()),
            core,
            dir,
            backing_up: std::sync::Mutex::new(()),
            _lock: lock,
        })
    }

    /// Sets the function that hears about every committed change, in revision order (the
    /// change feed). Set once, before serving.
    pub fn on_change(&self, hook: Hook) {
        self.core.on_change(hook);
    }

    /// A family's revision: +1 with every committed change to its data (0 before the first).
    pub fn revision(&self, family: FamilyId) -> u64 {
        self.core.revision(family)
    }

    /// Runs one bounded batch of a job. Returns `true` when the job is finished (and removed).
    pub async fn run_job_batch(&self, job: &Job) -> Result<bool, StoreError> {
        let removed = match &job.job {
            JobKind::DeleteChildMeals { family, child } => {
                self.meals.purge_of_child(*family, *child, BATCH).await?
            }
            JobKind::DeleteFamily { family } => self.jobs.purge_family(*family).await?,
        };
        if removed == 0 {
            self.jobs.finish(job.id).await?;
        }
        Ok(removed == 0)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder the sled release's files were kept in when this directory was upgraded.
    pub fn previous_store(&self) -> Option<&str> {
        self.previous_store.as_deref()
    }

    /// A random 32-byte secret called `name`, made on first use and kept in the store (signing
    /// keys that must survive a restart). Asked for while the server is being put together,
    /// before it serves: read on this thread; a new one is queued to the writer (a crash before
    /// it lands only means a new key at the next start).
    pub fn secret(&self, name: &str) -> Result<[u8; 32], StoreError> {
        use rand::RngCore;
        let key = format!("secret:{name}");
        let asked = key.clone();
        let stored: Option<Vec<u8>> = self.core.db.read_blocking(move |conn| {
            conn.query_row("SELECT value FROM meta WHERE name = ?1", [asked], |r| {
                r.get(0)
            })
            .optional()
        })?;
        if let Some(found) = stored.as_deref().and_then(|v| <[u8; 32]>::try_from(v).ok()) {
            return Ok(found);
        }
        let mut fresh = [0u8; 32];
        rand::rng().fill_bytes(&mut fresh);
        let queued = self.core.db.write_detached(move |conn| {
            conn.execute(
                "INSERT OR IGNORE INTO meta (name, value) VALUES (?1, ?2)",
                rusqlite::params![key, fresh],
            )
            .map(|_| ())
            .map_err(|e| super::WriteFailed::Commit(e.to_string()))
        });
        if !queued {
            return Err(StoreError::Write(super::WriteFailed::Closed));
        }
        Ok(fresh)
    }

    /// A cheap liveness probe for `/api/health`: a read connection answers.
    pub async fn is_healthy(&self) -> bool {
        self.core
            .read(|conn| conn.query_row("SELECT 1", [], |r| r.get::<_, i64>(0)))
            .await
            .is_ok()
    }

    /// Free space for unprivileged writers on the data directory's disk, in bytes.
    pub fn free_space(&self) -> Option<u64> {
        let stat = rustix::fs::statvfs(&self.dir).ok()?;
        Some(stat.f_bavail.saturating_mul(stat.f_frsize))
    }

    /// Bytes the database uses on disk (with its write-ahead log).
    pub fn size_on_disk(&self) -> u64 {
        ["", "-wal"]
            .iter()
            .filter_map(|suffix| {
                std::fs::metadata(format!("{}{suffix}", self.core.db.path().display())).ok()
            })
            .map(|m| m.len())
            .sum()
    }

    /// Writes an archive of this moment to `out` (blocking: run it off the async threads).
    /// One backup at a time.
    pub fn backup<W: std::io::Write>(&self, out: W) -> Result<(Summary, W), BackupError> {
        let _one = self.backing_up.try_lock().map_err(|_| BackupError::Busy)?;
        super::backup::backup(&self.core, &self.dir, out)
    }

    /// The writer's commits and writes so far (for benchmarks).
    pub fn write_counts(&self) -> (u64, u64) {
        let counts = self.core.db.counts();
        (
            counts.commits.load(std::sync::atomic::Ordering::Relaxed),
            counts.writes.load(std::sync::atomic::Ordering::Relaxed),
        )
    }

    /// Whether a backup is copying photos (background purges wait for it).
    pub fn backup_running(&self) -> bool {
        self.core.is_fenced()
    }

    /// Frees the read connections' page caches if no read is running (see `Readers`); the
    /// caller then hands the freed heap back to the system. Blocks briefly: call off the async
    /// workers.
    pub fn release_memory(&self) -> bool {
        self.core.db.release_memory()
    }
}

/// Removes the files of photos whose removal was committed before the last stop (files go
/// after their row; a stop in between leaves them in the graveyard). Before serving, on this
/// thread; the graveyard's entries are cleared through the writer.
fn sweep_at_start(core: &Shared) {
    let waiting: Result<Vec<MediaId>, _> = core.db.read_blocking(|conn| {
        let mut stmt = conn.prepare("SELECT media_id FROM blob_graveyard")?;
        let ids = stmt.query_map([], |r| r.get(0))?;
        ids.collect()
    });
    let waiting = match waiting {
        Ok(waiting) if !waiting.is_empty() => waiting,
        Ok(_) => return,
        Err(e) => {
            tracing::warn!(error = %e, "removed photos' files are left for the next start");
            return;
        }
    };
    if let Err(e) = waiting.iter().try_for_each(|id| core.blobs.remove(*id)) {
        tracing::warn!(error = %e, "removed photos' files are left for the next start");
        return;
    }
    let queued = core.db.write_detached(move |conn| {
        let mut stmt = conn
            .prepare_cached("DELETE FROM blob_graveyard WHERE media_id = ?1")
            .map_err(|e| super::WriteFailed::Commit(e.to_string()))?;
        for id in &waiting {
            stmt.execute([id])
                .map_err(|e| super::WriteFailed::Commit(e.to_string()))?;
        }
        Ok(())
    });
    if queued {
        tracing::info!("files of photos removed before the last stop are gone");
    }
}

/// The newest folder of sled files kept by an upgrade.
fn previous_store(dir: &Path) -> Option<String> {
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(KEPT_PREFIX))
        .max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::children::tests::child;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_new_directory_opens_keeps_its_secrets_and_refuses_a_second_opener() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let (secret, family) = {
            let store = Store::open(&data, 4).unwrap();
            assert!(store.is_healthy().await);
            assert!(store.previous_store().is_none());
            assert!(matches!(Store::open(&data, 4), Err(OpenError::InUse(_))));
            let family = FamilyId::new();
            store.children.insert(&child(family, "Emma")).await.unwrap();
            assert_eq!(store.revision(family), 1);
            (store.secret("device-cookie").unwrap(), family)
        };
        let store = Store::open(&data, 4).unwrap();
        assert_eq!(store.secret("device-cookie").unwrap(), secret);
        assert_ne!(store.secret("other").unwrap(), secret);
        assert_eq!(
            store.revision(family),
            1,
            "revisions are kept, no gap needed"
        );
        assert_eq!(store.children.list(family).await.unwrap().len(), 1);
    }

    #[test]
    fn a_foreign_directory_and_a_newer_database_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("holiday.jpg"), b"not ours").unwrap();
        assert!(matches!(
            Store::open(dir.path(), 4),
            Err(OpenError::NotHighchair(_))
        ));
        let newer = tempfile::tempdir().unwrap();
        let conn = rusqlite::Connection::open(newer.path().join(DATABASE)).unwrap();
        conn.pragma_update(None, "user_version", super::super::CURRENT + 1)
            .unwrap();
        drop(conn);
        let err = Store::open(newer.path(), 4).err().unwrap();
        assert!(matches!(err, OpenError::TooNew { .. }), "{err}");
        assert!(err.to_string().contains("upgrade highchair"), "{err}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_sled_directory_is_upgraded_at_its_first_open() {
        let dir = tempfile::tempdir().unwrap();
        let fixture =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store-sled-release.tar.gz");
        assert!(
            std::process::Command::new("tar")
                .arg("xzf")
                .arg(fixture)
                .arg("-C")
                .arg(dir.path())
                .status()
                .unwrap()
                .success()
        );
        let data = dir.path().join("data");
        let store = Store::open(&data, 4).unwrap();
        let kept = store.previous_store().unwrap().to_string();
        assert!(kept.starts_with(KEPT_PREFIX));
        let users = store.users.list().await.unwrap();
        assert_eq!(users.len(), 3);
        let ann = &users[0];
        assert!(ann.is_admin);
        assert!(!store.children.list(ann.family_id).await.unwrap().is_empty());
        drop(store);
        let store = Store::open(&data, 4).unwrap();
        assert_eq!(
            store.previous_store(),
            Some(kept.as_str()),
            "nothing imported twice"
        );
        assert_eq!(store.users.list().await.unwrap().len(), 3);
    }
}
