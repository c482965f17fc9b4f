//! The store: one data directory, opened by one process, a SQLite database with a typed
//! repository per noun (`sqlite`), and the photo files beside it.
//!
//! Layout of the data directory:
//!   highchair.lock         held (flock) while a process uses the directory
//!   highchair.db           the SQLite database (+ -wal, -shm while open)
//!   media/                 photo files (see `blobs`)
//!   admin.sock             the admin socket while `serve` runs
//!   sled-before-<date>/    the sled release's store after its upgrade (see `import_sled`)

pub mod backup;
pub(crate) mod blobs;
pub mod children;
pub mod co_parents;
mod codec;
pub mod contact_messages;
pub mod family_settings;
pub mod generations;
pub mod grocery_lists;
pub mod import_sled;
pub mod invites;
pub mod jobs;
pub mod meal_plans;
pub mod meals;
pub mod media;
mod permissions;
pub mod rate_limits;
pub mod recipes;
pub mod reset_tokens;
pub mod sessions;
pub mod share_sessions;
pub mod sqlite;
pub mod users;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

pub use children::Children;
pub use co_parents::CoParents;
pub use codec::Record;
pub use contact_messages::ContactMessages;
pub use family_settings::FamilySettingsRepo;
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
pub use sqlite::Store;
pub use sqlite::core::Hook;
pub use users::Users;

use crate::domain::DomainError;

pub const LOCK_FILE: &str = "highchair.lock";
pub use blobs::MEDIA_DIR;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
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

/// Why a write did not happen. Nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError<R> {
    #[error("not found")]
    NotFound,
    /// The version the client had is not the current one; here is the current record.
    #[error("the record changed since it was read")]
    Stale(Box<R>),
    /// A photo the record names is unknown (or another family's).
    #[error("the photo is unknown")]
    PhotoMissing,
    /// A photo the record names is used by another record.
    #[error("the photo is used elsewhere")]
    PhotoInUse,
    /// A record this one needs (a meal's child) does not exist.
    #[error("a record it refers to does not exist")]
    MissingParent,
    /// A rule checked by the change itself.
    #[error(transparent)]
    Rule(#[from] DomainError),
    #[error(transparent)]
    Store(#[from] StoreError),
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

pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
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
    fn a_file_instead_of_a_directory_is_unusable() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        let err = Store::open(&file, 4).err().unwrap();
        assert!(matches!(err, OpenError::Unusable { .. }), "{err}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn new_directories_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("family");
        let store = Store::open(&data, 4).unwrap();
        let mode = std::fs::metadata(&data).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert!(store.is_healthy().await);
    }
}
