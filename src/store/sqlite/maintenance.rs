//! The admin's work on the database file (`highchair db check`, `highchair db vacuum`), each on
//! a connection of its own. A check reads one snapshot beside a running server (WAL lets it);
//! a vacuum rewrites the file, so it takes the data directory like the server does and runs
//! only while the server is stopped.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::migrations;
use crate::domain::ids::MediaId;
use crate::store::blobs::Blobs;
use crate::store::import_sled::{DATABASE, SLED_DIR};
use crate::store::media::Variant;
use crate::store::{OpenError, claim_dir, permissions};

/// Where a vacuum writes the new file before it replaces the database.
const VACUUM_FILE: &str = "highchair.db.vacuum";
/// Most lines of `integrity_check` reported.
const PROBLEMS_MAX: u32 = 100;

#[derive(Debug, thiserror::Error)]
pub enum MaintenanceError {
    #[error(
        "there is no database in {0} yet: start the server once (it creates one, or upgrades the store of an earlier release)"
    )]
    NoDatabase(PathBuf),
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error(
        "the database was written by a newer highchair (schema {found}, this version reads up to {supported}); upgrade highchair"
    )]
    TooNew { found: u32, supported: u32 },
    #[error(
        "not enough free disk space for the new file: it needs about {needed_mb} MB, {free_mb} MB are free"
    )]
    NoRoom { needed_mb: u64, free_mb: u64 },
    #[error("the new file did not pass its check ({0}); the database was left as it was")]
    NewFileBroken(String),
    #[error("{path}: {source}")]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What `db check` found.
#[derive(Debug, Default)]
pub struct Check {
    pub schema: u32,
    /// What `PRAGMA integrity_check` said, when it did not say "ok".
    pub integrity: Vec<String>,
    /// Rows naming a row that is not there: `table row N -> parent`.
    pub foreign_keys: Vec<String>,
    /// Rows per table, by name.
    pub tables: Vec<(String, u64)>,
    /// Photos a record names whose files (full size or thumbnail) are missing.
    pub photos_missing: Vec<MediaId>,
    /// Photo files no record names: an upload cut off, one being written at this moment, or
    /// a removal the server finishes at its next start.
    pub photo_files_unnamed: usize,
    /// The database file and its write-ahead log.
    pub bytes: u64,
    /// Space inside the file that holds nothing (what a vacuum would give back).
    pub free_bytes: u64,
}

impl Check {
    pub fn is_ok(&self) -> bool {
        self.integrity.is_empty() && self.foreign_keys.is_empty() && self.photos_missing.is_empty()
    }
}

/// What `db vacuum` did.
#[derive(Debug)]
pub struct Vacuum {
    pub bytes_before: u64,
    pub bytes_after: u64,
}

fn database(dir: &Path) -> Result<PathBuf, MaintenanceError> {
    let path = dir.join(DATABASE);
    if !path.is_file() {
        return Err(MaintenanceError::NoDatabase(dir.to_path_buf()));
    }
    // Files root makes in a server user's directory would lock that user out of them.
    if let Some(owner) = permissions::foreign_owner_for_root(dir) {
        return Err(OpenError::NotOwner {
            dir: dir.to_path_buf(),
            owner,
        }
        .into());
    }
    Ok(path)
}

fn sqlite(path: &Path) -> impl Fn(rusqlite::Error) -> MaintenanceError + '_ {
    move |source| MaintenanceError::Sqlite {
        path: path.to_path_buf(),
        source,
    }
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn wal(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

fn schema(conn: &Connection, path: &Path) -> Result<u32, MaintenanceError> {
    let found: u32 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(sqlite(path))?;
    if found > migrations::CURRENT {
        return Err(MaintenanceError::TooNew {
            found,
            supported: migrations::CURRENT,
        });
    }
    Ok(found)
}

/// Integrity and foreign-key checks, rows per table and the photo files, from one snapshot
/// (the server may go on writing meanwhile).
pub fn check(dir: &Path) -> Result<Check, MaintenanceError> {
    let path = database(dir)?;
    let failed = sqlite(&path);
    // No CREATE: a database that vanished is an error, not a new empty file.
    let mut conn = Connection::open_with_flags(
        &path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(&failed)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(&failed)?;
    conn.pragma_update(None, "query_only", "ON")
        .map_err(&failed)?;
    let tx = conn.transaction().map_err(&failed)?;
    let mut check = Check {
        schema: schema(&tx, &path)?,
        ..Check::default()
    };
    check.integrity = strings(&tx, &format!("PRAGMA integrity_check({PROBLEMS_MAX})"))
        .map_err(&failed)?
        .into_iter()
        .filter(|line| line != "ok")
        .collect();
    {
        let mut stmt = tx.prepare("PRAGMA foreign_key_check").map_err(&failed)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(format!(
                    "{} row {} -> {}",
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?
                        .map_or_else(|| "?".into(), |n| n.to_string()),
                    r.get::<_, String>(2)?
                ))
            })
            .map_err(&failed)?;
        check.foreign_keys = rows.collect::<Result<_, _>>().map_err(&failed)?;
    }
    let names = strings(
        &tx,
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .map_err(&failed)?;
    for name in names {
        let quoted = name.replace('"', "\"\"");
        let rows: i64 = tx
            .query_row(&format!("SELECT count(*) FROM \"{quoted}\""), [], |r| {
                r.get(0)
            })
            .map_err(&failed)?;
        check.tables.push((name, rows.max(0) as u64));
    }
    let named: Vec<MediaId> = column(&tx, "SELECT id FROM media").map_err(&failed)?;
    let buried: HashSet<MediaId> = column(&tx, "SELECT media_id FROM blob_graveyard")
        .map_err(&failed)?
        .into_iter()
        .collect();
    let page_size: i64 = tx
        .pragma_query_value(None, "page_size", |r| r.get(0))
        .map_err(&failed)?;
    let free_pages: i64 = tx
        .pragma_query_value(None, "freelist_count", |r| r.get(0))
        .map_err(&failed)?;
    check.free_bytes = (page_size * free_pages).max(0) as u64;
    tx.finish().map_err(&failed)?;

    let blobs = Blobs::new(dir);
    let missing: Vec<MediaId> = named
        .iter()
        .copied()
        .filter(|id| {
            [Variant::Full, Variant::Thumb]
                .iter()
                .any(|v| !matches!(blobs.len(*id, *v), Ok(Some(_))))
        })
        .collect();
    // A photo removed since the snapshot has lost its files rightly: ask again.
    check.photos_missing = still_named(&conn, &missing).map_err(&failed)?;
    let named: HashSet<MediaId> = named.into_iter().collect();
    check.photo_files_unnamed = blobs
        .stored()
        .map_err(|source| MaintenanceError::Io {
            path: dir.join(crate::store::blobs::MEDIA_DIR),
            source,
        })?
        .into_iter()
        .filter(|id| !named.contains(id) && !buried.contains(id))
        .count();
    check.bytes = size(&path) + size(&wal(&path));
    Ok(check)
}

fn strings(conn: &Connection, sql: &str) -> Result<Vec<String>, rusqlite::Error> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    rows.collect()
}

fn column(conn: &Connection, sql: &str) -> Result<Vec<MediaId>, rusqlite::Error> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    rows.collect()
}

fn still_named(conn: &Connection, ids: &[MediaId]) -> Result<Vec<MediaId>, rusqlite::Error> {
    let mut stmt = conn.prepare("SELECT 1 FROM media WHERE id = ?1")?;
    let mut kept = Vec::new();
    for id in ids {
        if stmt.exists([id])? {
            kept.push(*id);
        }
    }
    Ok(kept)
}

/// Rewrites the database without its empty pages: into a new file beside it (checked), which
/// then replaces it by a rename, so a vacuum cut off at any point leaves the database as it
/// was. Refused while the server runs.
pub fn vacuum(dir: &Path) -> Result<Vacuum, MaintenanceError> {
    let path = database(dir)?;
    let (dir, _lock) = claim_dir(dir, &[DATABASE, SLED_DIR])?;
    let failed = sqlite(&path);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MaintenanceError::Io { path, source }
    };
    let new = dir.join(VACUUM_FILE);
    remove_if_there(&new).map_err(io(&new))?;
    let conn = Connection::open_with_flags(
        &path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(&failed)?;
    schema(&conn, &path)?;
    // Everything in the log goes into the file first, so the file alone is the database.
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .map_err(&failed)?;
    let bytes_before = size(&path);
    let used = bytes_before.saturating_sub(
        conn.pragma_query_value(None, "freelist_count", |r| r.get::<_, i64>(0))
            .map_err(&failed)?
            .max(0) as u64
            * conn
                .pragma_query_value(None, "page_size", |r| r.get::<_, i64>(0))
                .map_err(&failed)?
                .max(0) as u64,
    );
    let free = rustix::fs::statvfs(&dir)
        .map(|s| s.f_bavail * s.f_frsize)
        .unwrap_or(u64::MAX);
    // The new file, and room to spare for the server's next start.
    let needed = used + used / 10 + (64 << 20);
    if free < needed {
        return Err(MaintenanceError::NoRoom {
            needed_mb: needed >> 20,
            free_mb: free >> 20,
        });
    }
    conn.execute("VACUUM INTO ?1", [new.to_string_lossy()])
        .map_err(&failed)?;
    // Closing the last connection removes the (empty) log: nothing of the old file is left to
    // be replayed into the new one.
    conn.close().map_err(|(_, e)| failed(e))?;
    if wal(&path).exists() {
        remove_if_there(&new).map_err(io(&new))?;
        return Err(MaintenanceError::NewFileBroken(
            "the old write-ahead log is still there".into(),
        ));
    }
    let verdict = Connection::open_with_flags(&new, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .and_then(|c| c.query_row("PRAGMA quick_check", [], |r| r.get::<_, String>(0)));
    match verdict {
        Ok(ok) if ok == "ok" => {}
        Ok(other) => {
            remove_if_there(&new).map_err(io(&new))?;
            return Err(MaintenanceError::NewFileBroken(other));
        }
        Err(e) => {
            remove_if_there(&new).map_err(io(&new))?;
            return Err(MaintenanceError::NewFileBroken(e.to_string()));
        }
    }
    std::fs::File::open(&new)
        .and_then(|f| f.sync_all())
        .map_err(io(&new))?;
    std::fs::rename(&new, &path).map_err(io(&path))?;
    std::fs::File::open(&dir)
        .and_then(|d| d.sync_all())
        .map_err(io(&dir))?;
    Ok(Vacuum {
        bytes_before,
        bytes_after: size(&path),
    })
}

fn remove_if_there(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::children::tests::child;
    use crate::store::meals::tests::meal;

    /// A meal with a photo of its own, as an upload then a save make it.
    async fn insert_meal_with_photo(store: &Store, kid: &crate::domain::child::Child) -> MediaId {
        let photo = crate::store::media::tests::upload(kid.family, chrono::Utc::now());
        let sizes: [(Variant, &[u8]); 2] = [(Variant::Full, b"full"), (Variant::Thumb, b"thumb")];
        assert!(store.media.insert(&photo, &sizes).await.unwrap());
        let mut m = meal(kid.family, kid.id, 5);
        m.photo = Some(photo.id);
        store.meals.insert(&m).await.unwrap();
        photo.id
    }

    fn store_with_photos(dir: &Path) -> (Store, Vec<MediaId>) {
        let store = Store::open(dir, 8).unwrap();
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let photos = runtime.block_on(async {
            let kid = child(crate::domain::ids::FamilyId::new(), "Ada");
            store.children.insert(&kid).await.unwrap();
            let mut photos = Vec::new();
            for _ in 0..3 {
                photos.push(insert_meal_with_photo(&store, &kid).await);
            }
            photos
        });
        (store, photos)
    }

    #[test]
    fn a_sound_store_checks_clean_beside_the_server_and_a_lost_photo_file_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let (store, photos) = store_with_photos(dir.path());
        // The server still has it open: a check reads beside it.
        let check = check(dir.path()).unwrap();
        assert!(check.is_ok(), "{check:?}");
        assert_eq!(check.schema, migrations::CURRENT);
        let rows = |name: &str| check.tables.iter().find(|(n, _)| n == name).unwrap().1;
        assert_eq!((rows("children"), rows("meals"), rows("media")), (1, 3, 3));
        assert_eq!(check.photo_files_unnamed, 0);
        assert!(check.bytes > 0);

        let blobs = Blobs::new(dir.path());
        std::fs::remove_file(blobs.path(photos[1], Variant::Thumb)).unwrap();
        blobs
            .write(MediaId::new(), &[(Variant::Full, b"cut off")])
            .unwrap();
        let again = super::check(dir.path()).unwrap();
        assert!(!again.is_ok());
        assert_eq!(again.photos_missing, vec![photos[1]]);
        assert_eq!(again.photo_files_unnamed, 1);
        drop(store);
    }

    #[test]
    fn a_broken_reference_is_reported_and_a_missing_database_named() {
        let dir = tempfile::tempdir().unwrap();
        drop(store_with_photos(dir.path()));
        let conn = Connection::open(dir.path().join(DATABASE)).unwrap();
        conn.execute_batch("PRAGMA foreign_keys = OFF; DELETE FROM children;")
            .unwrap();
        drop(conn);
        let check = check(dir.path()).unwrap();
        assert!(!check.is_ok());
        assert_eq!(check.foreign_keys.len(), 3, "{:?}", check.foreign_keys);
        assert!(check.foreign_keys[0].starts_with("meals row"));

        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(
            super::check(empty.path()),
            Err(MaintenanceError::NoDatabase(_))
        ));
        assert!(matches!(
            vacuum(empty.path()),
            Err(MaintenanceError::NoDatabase(_))
        ));
    }

    #[test]
    fn vacuum_gives_space_back_keeps_every_row_and_waits_for_the_server_to_stop() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = store_with_photos(dir.path());
        assert!(matches!(
            vacuum(dir.path()),
            Err(MaintenanceError::Open(OpenError::InUse(_)))
        ));
        drop(store);
        // Space to give back: a large table emptied.
        let conn = Connection::open(dir.path().join(DATABASE)).unwrap();
        conn.execute_batch(
            "CREATE TABLE filler (x BLOB);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
             INSERT INTO filler SELECT randomblob(1000) FROM n;
             DROP TABLE filler;",
        )
        .unwrap();
        drop(conn);
        let before = check(dir.path()).unwrap();
        assert!(before.free_bytes > 1_000_000, "{before:?}");

        let done = vacuum(dir.path()).unwrap();
        assert!(done.bytes_after + 1_000_000 < done.bytes_before, "{done:?}");
        assert!(!dir.path().join(VACUUM_FILE).exists());
        let after = check(dir.path()).unwrap();
        assert!(after.is_ok(), "{after:?}");
        assert_eq!(after.tables, before.tables);
        assert_eq!(after.free_bytes, 0);
        // The server opens it and finds everything.
        let store = Store::open(dir.path(), 8).unwrap();
        assert_eq!(
            tokio::runtime::Runtime::new()
                .unwrap()
                .block_on(store.media.count())
                .unwrap(),
            3
        );
    }
}
