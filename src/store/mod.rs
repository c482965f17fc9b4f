//! sled storage: one data directory, opened by one process, typed repositories per entity.
//!
//! Layout of the data directory:
//!   highchair.lock   held (flock) while a process uses the directory
//!   db/              the sled database
//!   admin.sock       the admin socket while `serve` runs

pub mod children;
mod codec;
pub mod contact_messages;
pub mod keys;
pub mod meals;
pub mod media;
mod migrate;
pub mod rate_limits;
pub mod reset_tokens;
pub mod sessions;
pub mod users;

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

pub use children::Children;
pub use codec::Record;
pub use contact_messages::ContactMessages;
pub use meals::Meals;
pub use media::Media;
pub use rate_limits::RateLimits;
pub use reset_tokens::ResetTokens;
pub use sessions::Sessions;
pub use users::Users;

pub const LOCK_FILE: &str = "highchair.lock";
pub const DB_DIR: &str = "db";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sled(#[from] sled::Error),
    #[error("stored record is unreadable: {0}")]
    Corrupt(String),
}

impl<E: std::fmt::Debug> From<sled::transaction::TransactionError<E>> for StoreError {
    fn from(err: sled::transaction::TransactionError<E>) -> Self {
        match err {
            sled::transaction::TransactionError::Storage(e) => StoreError::Sled(e),
            sled::transaction::TransactionError::Abort(e) => {
                StoreError::Corrupt(format!("transaction aborted: {e:?}"))
            }
        }
    }
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
}

/// The open store. Dropping it releases the directory lock.
pub struct Store {
    db: sled::Db,
    meta: sled::Tree,
    dir: PathBuf,
    _lock: File,
    pub contact_messages: ContactMessages,
    pub rate_limits: RateLimits,
    pub users: Users,
    pub sessions: Sessions,
    pub reset_tokens: ResetTokens,
    pub children: Children,
    pub meals: Meals,
    pub media: Media,
}

impl Store {
    /// Opens (creating if needed) the store in `dir`, taking the directory lock first.
    pub fn open(dir: &Path, cache_mb: u32) -> Result<Store, OpenError> {
        let unusable = |reason: String| OpenError::Unusable {
            dir: dir.to_path_buf(),
            reason,
        };
        create_private_dir(dir).map_err(|e| unusable(e.to_string()))?;
        let dir = dir.canonicalize().map_err(|e| unusable(e.to_string()))?;
        let db_path = dir.join(DB_DIR);
        let lock_path = dir.join(LOCK_FILE);

        if !db_path.exists() && !lock_path.exists() && !is_empty_dir(&dir) {
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
        // The pid helps an admin find the process holding the directory.
        let _ = lock.set_len(0);
        let _ = writeln!(lock, "{}", std::process::id());

        let config = sled::Config::new()
            .path(&db_path)
            .cache_capacity(u64::from(cache_mb) * 1024 * 1024)
            .flush_every_ms(Some(500));
        // sled can panic on some damaged files; report that as an unusable directory, not a trace.
        let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| config.open()))
            .map_err(|_| unusable("the database files are damaged".into()))?;
        let db = opened.map_err(|e| match e {
            sled::Error::Io(io) if io.kind() == std::io::ErrorKind::WouldBlock => {
                OpenError::InUse(dir.clone())
            }
            other => unusable(format!("the database cannot be opened: {other}")),
        })?;

        migrate::run(&db, &dir)?;

        let tree = |name: &str| db.open_tree(name).map_err(|e| unusable(e.to_string()));
        let media_trees = media::MediaTrees {
            records: tree("media")?,
            blobs: tree("media_blobs")?,
        };
        let meal_trees = meals::MealTrees {
            meals: tree("meals")?,
            by_time: tree("meals_by_time")?,
            by_child: tree("meals_by_child")?,
        };
        Ok(Store {
            meta: tree(migrate::META)?,
            contact_messages: ContactMessages::new(db.clone(), tree("contact_messages")?),
            rate_limits: RateLimits::new(tree("rate_limits")?),
            users: Users::new(db.clone(), tree("users")?, tree("users_by_email")?),
            sessions: Sessions::new(db.clone(), tree("sessions")?, tree("sessions_by_user")?),
            reset_tokens: ResetTokens::new(db.clone(), tree("reset_tokens")?),
            children: Children::new(
                db.clone(),
                tree("children")?,
                meal_trees.clone(),
                media_trees.clone(),
            ),
            meals: Meals::new(db.clone(), meal_trees, media_trees.clone()),
            media: Media::new(db.clone(), media_trees),
            db,
            dir,
            _lock: lock,
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes everything to disk. Repositories call it before acknowledging a write.
    pub async fn flush(&self) -> Result<(), StoreError> {
        flushed(&self.db).await
    }

    /// Deletes an account and every record of that family: sessions, reset links and all
    /// records kept under the owner's prefix. Returns the account, if it existed.
    pub async fn delete_account(
        &self,
        id: crate::domain::ids::UserId,
    ) -> Result<Option<crate::domain::user::User>, StoreError> {
        self.sessions.delete_all_for(id).await?;
        self.reset_tokens.purge(Some(id), chrono::Utc::now())?;
        self.meals.delete_all_for(id)?;
        self.children.delete_all_for(id)?;
        self.media.delete_all_for(id)?;
        let user = self.users.delete(id).await?;
        self.flush().await?;
        Ok(user)
    }

    /// A cheap liveness probe for `/api/health`.
    pub fn is_healthy(&self) -> bool {
        migrate::version_in(&self.meta).is_ok_and(|v| v == migrate::CURRENT)
    }

    /// Bytes the database uses on disk.
    pub fn size_on_disk(&self) -> u64 {
        self.db.size_on_disk().unwrap_or(0)
    }
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

/// Flushes after a write, so a reply is only sent once the data is on disk.
pub(crate) async fn flushed(db: &sled::Db) -> Result<(), StoreError> {
    db.flush_async().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
