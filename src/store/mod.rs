//! sled storage: one data directory, opened by one process, typed repositories per entity.
//!
//! Layout of the data directory:
//!   highchair.lock   held (flock) while a process uses the directory
//!   db/              the sled database
//!   media/           photo files (see `blobs`)
//!   admin.sock       the admin socket while `serve` runs

pub mod backup;
mod blobs;
pub mod children;
pub mod co_parents;
mod codec;
pub mod contact_messages;
mod flusher;
pub mod generations;
mod graveyard;
pub mod grocery_lists;
pub mod import_sled;
pub mod invites;
pub mod jobs;
pub mod keys;
pub mod meal_plans;
pub mod meals;
pub mod media;
mod migrate;
mod permissions;
pub mod rate_limits;
pub mod recipes;
pub mod reset_tokens;
pub mod sessions;
pub mod share_sessions;
pub mod sqlite;
pub mod users;
mod write;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use children::Children;
pub use co_parents::CoParents;
pub use codec::Record;
pub use contact_messages::ContactMessages;
pub use generations::Generations;
pub use grocery_lists::GroceryLists;
pub use invites::Invites;
pub use jobs::{Job, JobKind, Jobs};
pub use meal_plans::MealPlans;
pub use meals::Meals;
pub use media::Media;
pub use rate_limits::RateLimits;
pub use recipes::Recipes;
pub use reset_tokens::ResetTokens;
pub use sessions::Sessions;
pub use share_sessions::ShareSessions;
pub use users::Users;
pub use write::{Hook, WriteError};

use crate::domain::ids::FamilyId;

pub const LOCK_FILE: &str = "highchair.lock";
pub const DB_DIR: &str = "db";
pub use blobs::MEDIA_DIR;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sled(#[from] sled::Error),
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error(transparent)]
    Write(#[from] sqlite::WriteFailed),
    #[error("stored record is unreadable: {0}")]
    Corrupt(String),
}

/// Why a data directory could not be opened. Each has a clear message and its own exit code.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(
        "the data directory {0} is already in use by another highchair process (stop it first, or use the admin commands, which talk to the running server)"
    )]
    InUse(PathBuf),
    #[error(
        "{0} is not empty and is not a highchair data directory; choose an empty or new directory with --data-dir"
    )]
    NotHighchair(PathBuf),
    #[error(
        "the data in {dir} was written by a newer highchair (schema {found}, this version reads up to {supported}); upgrade highchair"
    )]
    TooNew {
        dir: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error("cannot use the data directory {dir}: {reason}")]
    Unusable { dir: PathBuf, reason: String },
    #[error(
        "the data directory {dir} belongs to the user {owner}; run highchair as that user (e.g. sudo -u {owner} highchair ...), so the files it writes stay theirs"
    )]
    NotOwner { dir: PathBuf, owner: String },
}

/// The open store. Dropping it releases the directory lock.
pub struct Store {
    core: Arc<write::Core>,
    meta: sled::Tree,
    dir: PathBuf,
    /// Held while a backup is written (one at a time).
    backing_up: std::sync::Mutex<()>,
    _lock: File,
    pub contact_messages: ContactMessages,
    pub rate_limits: RateLimits,
    pub users: Users,
    pub invites: Invites,
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
}

impl Store {
    /// Opens (creating if needed) the store in `dir`, taking the directory lock first.
    pub fn open(dir: &Path, cache_mb: u32) -> Result<Store, OpenError> {
        let (dir, lock) = claim_dir(dir, &[DB_DIR])?;
        let unusable = |reason: String| OpenError::Unusable {
            dir: dir.clone(),
            reason,
        };
        let db_path = dir.join(DB_DIR);
        let config = sled::Config::new()
            .path(&db_path)
            .cache_capacity(u64::from(cache_mb) * 1024 * 1024)
            .flush_every_ms(Some(500));
        // sled can panic on some damaged files; report that as an unusable directory, not a trace.
        let open = || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| config.open()))
                .map_err(|_| unusable("the database files are damaged".into()))
        };
        // We hold the directory lock, so sled's own lock can only be held by a store of this
        // process that was just dropped and whose flush thread has not finished: wait for it.
        let open_db = || -> Result<sled::Db, OpenError> {
            let mut opened = open()?;
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            while matches!(&opened, Err(sled::Error::Io(e)) if e.to_string().contains("could not acquire lock"))
                && std::time::Instant::now() < deadline
            {
                std::thread::sleep(std::time::Duration::from_millis(20));
                opened = open()?;
            }
            opened.map_err(|e| match e {
                sled::Error::Io(io) if io.kind() == std::io::ErrorKind::WouldBlock => {
                    OpenError::InUse(dir.clone())
                }
                other => unusable(format!("the database cannot be opened: {other}")),
            })
        };
        let mut db = open_db()?;
        migrate::run(&db, &dir)?;
        let blobs = blobs::Blobs::new(&dir);
        // Photo bytes kept in the database by earlier versions move to files, once. Reading
        // them all leaves sled's cache full, so the database is opened again afterwards.
        let moved = blobs::move_from_database(&db, &blobs)
            .map_err(|e| unusable(format!("cannot move photos out of the database: {e}")))?;
        if moved > 0 {
            tracing::info!(files = moved, "photos moved from the database to files");
            drop(db);
            db = open_db()?;
        }

        let tree = |name: &str| db.open_tree(name).map_err(|e| unusable(e.to_string()));
        let core =
            Arc::new(write::Core::open(db.clone(), blobs).map_err(|e| unusable(e.to_string()))?);
        // Files of photos removed before a stop (or while a backup ran) that are still there.
        if let Err(e) = graveyard::sweep_all(&core) {
            tracing::warn!(error = %e, "removed photos' files are left for the next sweep");
        }
        Ok(Store {
            meta: tree(migrate::META)?,
            contact_messages: ContactMessages::new(core.clone(), tree("contact_messages")?),
            rate_limits: RateLimits::new(tree("rate_limits")?),
            users: Users::new(core.clone()),
            invites: Invites::new(core.clone()),
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
    pub fn revision(&self, family: FamilyId) -> Result<u64, StoreError> {
        self.core.revision(family)
    }

    /// Runs one bounded batch of a job. Returns `true` when the job is finished (and removed).
    pub async fn run_job_batch(&self, job: &Job) -> Result<bool, StoreError> {
        let removed = match &job.job {
            JobKind::DeleteChildMeals { family, child } => {
                self.meals.purge_of_child(*family, *child, jobs::BATCH)?
            }
            JobKind::DeleteFamily { family } => self.jobs.purge_family(*family)?,
        };
        if removed == 0 {
            self.jobs.finish(job.id)?;
        }
        self.flush().await?;
        Ok(removed == 0)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes everything to disk; writers that arrive together share one flush. Repositories
    /// call it before acknowledging a write.
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.core.flush().await
    }

    /// A random 32-byte secret called `name`, made on first use and kept in the store (signing
    /// keys that must survive a restart).
    pub fn secret(&self, name: &str) -> Result<[u8; 32], StoreError> {
        use rand::RngCore;
        let key = format!("secret:{name}");
        let parse = |v: &[u8]| <[u8; 32]>::try_from(v).ok();
        if let Some(found) = self.meta.get(&key)?.as_deref().and_then(parse) {
            return Ok(found);
        }
        let mut fresh = [0u8; 32];
        rand::rng().fill_bytes(&mut fresh);
        match self
            .meta
            .compare_and_swap(&key, None::<&[u8]>, Some(&fresh[..]))?
        {
            Ok(()) => {
                self.meta.flush()?;
                Ok(fresh)
            }
            // Made by someone else meanwhile: use theirs.
            Err(cas) => Ok(cas.current.as_deref().and_then(parse).unwrap_or(fresh)),
        }
    }

    /// A cheap liveness probe for `/api/health`.
    pub fn is_healthy(&self) -> bool {
        migrate::version_in(&self.meta).is_ok_and(|v| v == migrate::CURRENT)
    }

    /// Free space for unprivileged writers on the data directory's disk, in bytes.
    pub fn free_space(&self) -> Option<u64> {
        let stat = rustix::fs::statvfs(&self.dir).ok()?;
        Some(stat.f_bavail.saturating_mul(stat.f_frsize))
    }

    /// Bytes the database uses on disk.
    pub fn size_on_disk(&self) -> u64 {
        self.core.db.size_on_disk().unwrap_or(0)
    }
}

pub use permissions::private_umask;

/// Takes a data directory for this process: made private if new, refused if it belongs to
/// another user (for root) or is not a highchair directory (not empty, none of `ours` in it,
/// no lock file), locked (one process at a time), tightened, and any restore a crash cut off
/// finished. Returns the canonical path and the held lock.
pub(crate) fn claim_dir(dir: &Path, ours: &[&str]) -> Result<(PathBuf, File), OpenError> {
    let unusable = |reason: String| OpenError::Unusable {
        dir: dir.to_path_buf(),
        reason,
    };
    create_private_dir(dir).map_err(|e| unusable(e.to_string()))?;
    let dir = dir.canonicalize().map_err(|e| unusable(e.to_string()))?;
    let unusable = |reason: String| OpenError::Unusable {
        dir: dir.clone(),
        reason,
    };
    // root opening a server user's directory would leave files that user cannot open.
    if let Some(owner) = permissions::foreign_owner_for_root(&dir) {
        return Err(OpenError::NotOwner { dir, owner });
    }
    let lock_path = dir.join(LOCK_FILE);
    if !ours.iter().any(|name| dir.join(name).exists())
        && !lock_path.exists()
        && !is_empty_dir(&dir)
    {
        return Err(OpenError::NotHighchair(dir));
    }
    let mut lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| unusable(format!("cannot create {}: {e}", lock_path.display())))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Err(OpenError::InUse(dir)),
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(unusable(format!(
                "cannot lock {}: {e}",
                lock_path.display()
            )));
        }
    }
    match permissions::tighten(&dir) {
        Ok(0) => {}
        Ok(n) => tracing::warn!(
            data_dir = %dir.display(),
            fixed = n,
            "the data directory was readable by other users; made it private (0700, files 0600)"
        ),
        Err(e) => return Err(unusable(format!("cannot make it private: {e}"))),
    }
    // The pid helps an admin find the process holding the directory.
    let _ = lock.set_len(0);
    let _ = writeln!(lock, "{}", std::process::id());
    backup::swap::finish_pending(&dir)
        .map_err(|e| unusable(format!("cannot finish the restore that was under way: {e}")))?;
    Ok((dir, lock))
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A store in a temporary directory (kept alive by the returned guard).
    pub(crate) fn temp_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("data"), 4).unwrap();
        (dir, store)
    }

    #[tokio::test]
    async fn revisions_jump_at_each_start_so_none_is_handed_out_twice() {
        let dir = tempfile::tempdir().unwrap();
        let family = FamilyId::new();
        let before = {
            let store = Store::open(dir.path(), 4).unwrap();
            store
                .children
                .insert(&children::tests::child(family, "Emma"))
                .await
                .unwrap();
            store.revision(family).unwrap()
        };
        let store = Store::open(dir.path(), 4).unwrap();
        assert_eq!(store.revision(family).unwrap(), before + write::RESTART_GAP);
    }

    #[test]
    fn a_second_open_of_the_same_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let first = Store::open(dir.path(), 4).unwrap();
        let err = Store::open(dir.path(), 4).err().unwrap();
        assert!(matches!(err, OpenError::InUse(_)), "{err}");
        assert!(
            err.to_string()
                .contains("already in use by another highchair process")
        );
        drop(first);
        Store::open(dir.path(), 4).expect("lock released on drop");
    }

    #[test]
    fn root_does_not_open_a_directory_another_user_owns() {
        if !rustix::process::geteuid().is_root() {
            return; // only root can be in this situation
        }
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::chown(dir.path(), Some(65534), Some(65534)).unwrap();
        let err = Store::open(dir.path(), 4).err().unwrap();
        assert!(matches!(err, OpenError::NotOwner { .. }), "{err}");
        assert!(
            err.to_string().contains("run highchair as that user"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "nothing written"
        );
    }

    #[test]
    fn a_foreign_non_empty_directory_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("holiday.jpg"), b"not ours").unwrap();
        let err = Store::open(dir.path(), 4).err().unwrap();
        assert!(matches!(err, OpenError::NotHighchair(_)), "{err}");
    }

    #[test]
    fn a_file_instead_of_a_directory_is_unusable() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        let err = Store::open(&file, 4).err().unwrap();
        assert!(matches!(err, OpenError::Unusable { .. }), "{err}");
    }

    #[test]
    fn new_directories_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("family");
        let store = Store::open(&data, 4).unwrap();
        let mode = std::fs::metadata(&data).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert!(store.is_healthy());
    }
}
