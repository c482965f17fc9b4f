//! Restoring into a data directory: the archive is checked whole, loaded into a new store
//! beside the current one, and only then swapped in; the current data is kept in a dated
//! folder (its database and its photo files). A journal (`restore.pending`) written before the
//! swap lets a restore cut off by a crash finish at the next start, so a data directory is
//! never left without its store.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{ArchiveError, SPOOL_PREFIX, Summary};
use crate::store::blobs::Blobs;
use crate::store::import_sled::{DATABASE, SLED_DIR};
use crate::store::{LOCK_FILE, MEDIA_DIR, create_private_dir};

const JOURNAL: &str = "restore.pending";
const STAGING_PREFIX: &str = ".restore-";
pub const PREVIOUS_PREFIX: &str = "before-restore-";

/// Why a restore did not happen. The data directory is as it was.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    #[error(
        "the data directory {0} is in use by a running highchair server; stop it first (e.g. `sudo systemctl stop highchair`), restore, then start it again"
    )]
    InUse(PathBuf),
    #[error(
        "{0} already holds Highchair data; add --force to replace it (the current data is kept in {0}/{PREVIOUS_PREFIX}<date>)"
    )]
    HasData(PathBuf),
    #[error(
        "{0} is not empty and is not a highchair data directory; choose an empty or new directory with --data-dir"
    )]
    NotHighchair(PathBuf),
    #[error("cannot restore into {dir}: {reason}")]
    Io { dir: PathBuf, reason: String },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Journal {
    staging: String,
    previous: String,
}

/// What a restore did.
#[derive(Debug, Clone)]
pub struct Restored {
    pub summary: Summary,
    /// Where the data that was replaced is kept (`None`: there was none).
    pub previous: Option<PathBuf>,
}

/// Restores `archive` into `dir` (see the module comment). `force` replaces existing data.
pub fn restore(
    archive: &Path,
    dir: &Path,
    force: bool,
    cache_mb: u32,
) -> Result<Restored, RestoreError> {
    super::verify_file(archive)?;
    let io = |reason: String| RestoreError::Io {
        dir: dir.to_path_buf(),
        reason,
    };
    let fresh = !dir.exists();
    if !fresh
        && !dir.join(DATABASE).exists()
        && !dir.join(SLED_DIR).exists()
        && !dir.join(LOCK_FILE).exists()
        && std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_some())
    {
        return Err(RestoreError::NotHighchair(dir.to_path_buf()));
    }
    std::fs::create_dir_all(dir).map_err(|e| io(e.to_string()))?;
    let _lock = lock(dir).map_err(|e| match e {
        Locked::InUse => RestoreError::InUse(dir.to_path_buf()),
        Locked::Io(reason) => io(reason),
    })?;
    let has_data = dir.join(DATABASE).exists() || dir.join(SLED_DIR).exists();
    if has_data && !force {
        return Err(RestoreError::HasData(dir.to_path_buf()));
    }

    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%SZ").to_string();
    let staging = dir.join(format!("{STAGING_PREFIX}{stamp}"));
    let _ = std::fs::remove_dir_all(&staging);
    let loaded = (|| {
        create_private_dir(&staging).map_err(|e| io(e.to_string()))?;
        let conn = crate::store::sqlite::create(&staging.join(DATABASE), cache_mb)
            .map_err(|e| io(e.to_string()))?;
        let file = File::open(archive).map_err(|e| io(format!("{}: {e}", archive.display())))?;
        let summary = crate::store::sqlite::backup::load(
            &conn,
            &Blobs::new(&staging),
            std::io::BufReader::with_capacity(1 << 20, file),
        )?;
        drop(conn);
        std::fs::create_dir_all(staging.join(MEDIA_DIR)).map_err(|e| io(e.to_string()))?;
        Ok(summary)
    })();
    let summary = match loaded {
        Ok(summary) => summary,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    let previous = format!("{PREVIOUS_PREFIX}{stamp}");
    let journal = Journal {
        staging: format!("{STAGING_PREFIX}{stamp}"),
        previous: previous.clone(),
    };
    write_journal(dir, &journal).map_err(|e| io(e.to_string()))?;
    finish_pending(dir).map_err(|e| io(e.to_string()))?;
    give_to_owner(dir).map_err(|e| io(e.to_string()))?;
    Ok(Restored {
        summary,
        previous: has_data.then(|| dir.join(previous)),
    })
}

enum Locked {
    InUse,
    Io(String),
}

fn lock(dir: &Path) -> Result<File, Locked> {
    let path = dir.join(LOCK_FILE);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| Locked::Io(format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(Locked::InUse),
        Err(std::fs::TryLockError::Error(e)) => Err(Locked::Io(e.to_string())),
    }
}

fn write_journal(dir: &Path, journal: &Journal) -> std::io::Result<()> {
    let tmp = dir.join(format!("{JOURNAL}.tmp"));
    let mut file = File::create(&tmp)?;
    file.write_all(&serde_json::to_vec(journal).map_err(std::io::Error::other)?)?;
    file.sync_all()?;
    std::fs::rename(&tmp, dir.join(JOURNAL))?;
    sync_dir(dir)
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Completes a restore a crash cut off (each step checks what is already done), and removes
/// scratch directories of backups and restores that never finished. Called with the
/// directory lock held.
pub(crate) fn finish_pending(dir: &Path) -> std::io::Result<()> {
    let journal_path = dir.join(JOURNAL);
    let journal: Option<Journal> = match std::fs::read(&journal_path) {
        Ok(bytes) => serde_json::from_slice(&bytes).ok(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(journal) = &journal {
        let (staging, previous) = (dir.join(&journal.staging), dir.join(&journal.previous));
        // The new database moving in is the commit point; until then, each step checks
        // whether it is done, so a restore cut off anywhere finishes the same way. (The new
        // store always has a `media` folder, so the old one moves out exactly once.)
        let (new_db, new_media) = (staging.join(DATABASE), staging.join(MEDIA_DIR));
        if new_db.exists() {
            let wal = format!("{DATABASE}-wal");
            let shm = format!("{DATABASE}-shm");
            let old = [
                (DATABASE, true),
                (wal.as_str(), true),
                (shm.as_str(), true),
                (SLED_DIR, true),
                (MEDIA_DIR, new_media.exists()),
            ];
            for (name, goes) in old {
                if goes && dir.join(name).exists() {
                    std::fs::create_dir_all(&previous)?;
                    std::fs::rename(dir.join(name), previous.join(name))?;
                }
            }
            if new_media.exists() {
                std::fs::rename(&new_media, dir.join(MEDIA_DIR))?;
            }
            sync_dir(dir)?;
            std::fs::rename(&new_db, dir.join(DATABASE))?;
            sync_dir(dir)?;
        }
        tracing::info!(data_dir = %dir.display(), "a restored store is in place");
    }
    let _ = std::fs::remove_file(&journal_path);
    for entry in std::fs::read_dir(dir)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(STAGING_PREFIX) || name.starts_with(SPOOL_PREFIX) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    sync_dir(dir)
}

/// A restore run by root for a server that runs as its own user: everything in the data
/// directory (the new store, the kept previous data, the lock file) goes to the directory's
/// owner, or the server could not open it.
fn give_to_owner(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    if !rustix::process::geteuid().is_root() {
        return Ok(());
    }
    let meta = std::fs::metadata(dir)?;
    let (uid, gid) = (meta.uid(), meta.gid());
    if uid == 0 {
        return Ok(());
    }
    fn walk(path: &Path, uid: u32, gid: u32) -> std::io::Result<()> {
        let meta = std::fs::symlink_metadata(path)?;
        if meta.uid() != uid || meta.gid() != gid {
            std::os::unix::fs::lchown(path, Some(uid), Some(gid))?;
        }
        if meta.is_dir() {
            for entry in std::fs::read_dir(path)? {
                walk(&entry?.path(), uid, gid)?;
            }
        }
        Ok(())
    }
    walk(dir, uid, gid)
}
