//! Upgrade in place: the first start of the SQLite release on a data directory written by the
//! sled release imports every record into the new database, through the record stream the
//! backup uses, and moves the sled files aside.
//!
//! 1. `db/` is copied to `import-sled/` and the copy is opened (sled writes when it opens; the
//!    original is never changed). Older sled data is upgraded there as the sled release did.
//! 2. One snapshot of the copy (the backup's) is loaded into `highchair.db.importing`, in one
//!    transaction, foreign keys checked at the end. Photo files stay where they are.
//! 3. Each kind's records are counted and checksummed on both sides (the canonical JSON of
//!    each record, in any order) and must agree.
//! 4. The new database is synced and renamed to `highchair.db` (the commit point), the
//!    directory synced, `db/` moved to `sled-before-<date>/`, the copy removed.
//!
//! A start that finds `highchair.db.importing` throws it away and imports again; one that
//! finds `highchair.db` and `db/` together finishes step 4.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

mod migrate;
mod photos;
mod sled_core;
mod snapshot;

use super::backup::archive::parse_record_line;
use super::backup::kinds::Kind;
use super::blobs::Blobs;
use super::media::Variant;
use super::sqlite::backup::Loader;
use crate::domain::ids::{FamilyId, MediaId};
use sled_core::{Core, TreeId};

/// The new database's file name in the data directory.
pub const DATABASE: &str = "highchair.db";
/// The sled release's database folder.
pub const SLED_DIR: &str = "db";
const IMPORTING: &str = "highchair.db.importing";
const COPY: &str = "import-sled";
/// The `meta` row naming the sled files a database was imported from.
const MARKER: &str = "sled-import";
/// Where the sled files go once imported (with the date).
pub const KEPT_PREFIX: &str = "sled-before-";

/// What an import did.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// Records per kind.
    pub counts: BTreeMap<String, u64>,
    /// Where the sled files are kept, relative to the data directory.
    pub kept: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the sled store cannot be read: {0}")]
    Sled(String),
    #[error("cannot write the new database: {0}")]
    Write(String),
    #[error(
        "the imported {kind} do not match the sled store ({found} records, {expected} expected, or a different checksum); the sled files are unchanged"
    )]
    Mismatch {
        kind: &'static str,
        expected: u64,
        found: u64,
    },
    #[error(
        "{0} holds both a SQLite database and a sled store (db/) it was not imported from (did an older highchair run here after the upgrade?); nothing was changed: move db/ out of the data directory (its data is not in the database) and start again"
    )]
    Unclear(PathBuf),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> ImportError {
    let what = what.into();
    move |source| ImportError::Io { what, source }
}

/// Whether `dir` holds a sled store still to import (or an import to finish).
pub fn needed(dir: &Path) -> bool {
    dir.join(SLED_DIR).is_dir()
}

/// Imports the sled store of `dir` (see the module comment), or finishes an import that was
/// cut off after its commit point. `None` when there is nothing to import. The caller holds
/// the directory's lock.
pub fn run(dir: &Path, cache_mb: u32) -> Result<Option<Imported>, ImportError> {
    if !needed(dir) {
        return Ok(None);
    }
    let kept = format!(
        "{KEPT_PREFIX}{}",
        chrono::Utc::now().format("%Y%m%d-%H%M%S")
    );
    if dir.join(DATABASE).exists() {
        // Committed before a stop: only the move was left, if `db/` is what was imported.
        if imported_from(&dir.join(DATABASE)) != fingerprint(dir) {
            return Err(ImportError::Unclear(dir.to_path_buf()));
        }
        set_aside(dir, &kept)?;
        return Ok(Some(Imported {
            counts: BTreeMap::new(),
            kept,
        }));
    }
    let started = std::time::Instant::now();
    tracing::info!(data_dir = %dir.display(), "importing the sled store into SQLite");
    remove_database_files(&dir.join(IMPORTING))?;
    let copy = dir.join(COPY);
    if copy.exists() {
        std::fs::remove_dir_all(&copy).map_err(io(format!("cannot remove {}", copy.display())))?;
    }
    copy_dir(&dir.join(SLED_DIR), &copy)?;
    let counts = import_copy(dir, &copy, cache_mb)?;
    // The commit point: the whole new database under its name.
    let importing = dir.join(IMPORTING);
    File::open(&importing)
        .and_then(|f| f.sync_all())
        .map_err(io("cannot sync the new database"))?;
    std::fs::rename(&importing, dir.join(DATABASE))
        .map_err(io("cannot put the new database in place"))?;
    sync_dir(dir)?;
    set_aside(dir, &kept)?;
    tracing::info!(
        seconds = started.elapsed().as_secs_f64(),
        kept = %kept,
        "the sled store was imported; its files are kept until you remove them"
    );
    Ok(Some(Imported { counts, kept }))
}

/// Loads the sled copy's records into `highchair.db.importing` and checks them.
fn import_copy(
    dir: &Path,
    copy: &Path,
    cache_mb: u32,
) -> Result<BTreeMap<String, u64>, ImportError> {
    let sled_error = |e: String| ImportError::Sled(e);
    let db = sled::Config::new()
        .path(copy)
        .cache_capacity(u64::from(cache_mb.max(1)) * 1024 * 1024)
        .open()
        .map_err(|e| sled_error(e.to_string()))?;
    migrate::run(&db, dir).map_err(|e| sled_error(e.to_string()))?;
    let blobs = Blobs::new(dir);
    // Photos kept in the database by the oldest releases become files first, as the sled
    // release did at its start.
    photos::move_from_database(&db, &blobs)
        .map_err(io("cannot move photos out of the sled store"))?;
    let contact = db
        .open_tree("contact_messages")
        .map_err(|e| sled_error(e.to_string()))?;
    let core = Core::open(db).map_err(|e| sled_error(e.to_string()))?;

    let spool = Spool(dir.join(format!(".import-spool-{}", uuid::Uuid::new_v4().simple())));
    std::fs::create_dir(&spool.0).map_err(io("cannot make a scratch directory"))?;
    let snapshot =
        snapshot::take(&core, &contact, &spool.0).map_err(|e| sled_error(e.to_string()))?;
    let (prepared, photos) = snapshot
        .prepare(&spool.0)
        .map_err(|e| sled_error(e.to_string()))?;
    check_photos(&blobs, &photos);

    let write = |e: rusqlite::Error| ImportError::Write(e.to_string());
    let conn = super::sqlite::create(&dir.join(IMPORTING), cache_mb)
        .map_err(|e| ImportError::Write(e.to_string()))?;
    let mut loader = Loader::begin(&conn, &blobs).map_err(write)?;
    // Revisions carry over as they are (the sled copy moved them on by its restart gap).
    loader.keep_revisions();
    let mut expected = BTreeMap::new();
    for kind in &prepared {
        let mut digest = Digests::default();
        for_each_line(&kind.path, |line| {
            if kind.kind == Kind::Families {
                let family: super::backup::archive::FamilyLine =
                    serde_json::from_slice(line).map_err(|e| ImportError::Sled(e.to_string()))?;
                return loader.family(&family).map_err(ImportError::Write);
            }
            let stored = parse_record_line(line).map_err(ImportError::Sled)?;
            digest.add(kind.kind, &stored)?;
            loader
                .record(kind.kind, &stored)
                .map_err(ImportError::Write)
        })?;
        expected.insert(kind.kind, digest);
    }
    let carried = carry_sign_ins(&core, &conn)?;
    if let Some(files) = fingerprint(dir) {
        conn.execute(
            "INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)",
            rusqlite::params![MARKER, files],
        )
        .map_err(|e| ImportError::Write(e.to_string()))?;
    }
    // Photos the sled store had that the new one does not name (records it already counted
    // as deleted, removals not swept yet): their files go at the first start.
    bury_the_rest(&core, &conn)?;
    loader.finish().map_err(ImportError::Write)?;
    drop(snapshot);
    tracing::info!(
        sessions = carried.0,
        share_sessions = carried.1,
        reset_links = carried.2,
        "sign-ins carried over"
    );

    // The other side: every kind read back from the new database.
    let mut counts = BTreeMap::new();
    for (kind, wanted) in expected {
        if kind == Kind::Families {
            continue;
        }
        let path = spool.0.join(format!("{}.check", kind.name()));
        let mut out = BufWriter::new(File::create(&path).map_err(io("cannot write the spool"))?);
        super::sqlite::backup::copy_kind(&conn, kind, &mut out)
            .map_err(|e| ImportError::Write(e.to_string()))?;
        drop(out);
        let mut found = Digests::default();
        for_each_line(&path, |line| {
            let stored = parse_record_line(line).map_err(ImportError::Write)?;
            found.add(kind, &stored)
        })?;
        let found_count = found.count;
        if found.finish() != wanted.clone().finish() {
            return Err(ImportError::Mismatch {
                kind: kind.name(),
                expected: wanted.count,
                found: found_count,
            });
        }
        counts.insert(kind.name().to_string(), wanted.count);
    }
    drop(conn);
    Ok(counts)
}

/// Carries what the backup leaves out but an upgrade keeps: sessions, co-parents' share
/// sessions and reset links (nobody is signed out), the server's secrets (signing keys) and
/// the attempt limits. Each only for an account or co-parent that came over. Returns the
/// sessions, share sessions and reset links carried.
fn carry_sign_ins(
    core: &Core,
    conn: &rusqlite::Connection,
) -> Result<(usize, usize, usize), ImportError> {
    use super::Record;
    use super::reset_tokens::ResetToken;
    use super::sessions::Session;
    use super::share_sessions::ShareSession;
    use super::sqlite::values::int;
    let sled_error = |e: sled::Error| ImportError::Sled(e.to_string());
    let write = |e: rusqlite::Error| ImportError::Write(e.to_string());
    let hash = |key: &[u8]| <[u8; 32]>::try_from(key).ok();
    let mut carried = (0, 0, 0);
    for entry in core.tree(TreeId::Sessions).iter() {
        let (key, value) = entry.map_err(sled_error)?;
        let (Some(hash), Ok(s)) = (hash(&key), Session::decode(&value)) else {
            continue;
        };
        carried.0 += super::sqlite::sessions::store_row(conn, hash, &s).map_err(write)?;
    }
    for entry in core.tree(TreeId::ShareSessions).iter() {
        let (key, value) = entry.map_err(sled_error)?;
        let (Some(hash), Ok(s)) = (hash(&key), ShareSession::decode(&value)) else {
            continue;
        };
        carried.1 += super::sqlite::share_sessions::store_row(conn, hash, &s).map_err(write)?;
    }
    for entry in core.tree(TreeId::ResetTokens).iter() {
        let (key, value) = entry.map_err(sled_error)?;
        let (Some(hash), Ok(t)) = (hash(&key), ResetToken::decode(&value)) else {
            continue;
        };
        carried.2 += super::sqlite::reset_tokens::store_row(conn, hash, &t).map_err(write)?;
    }
    let meta = core.db.open_tree(migrate::META).map_err(sled_error)?;
    for entry in meta.scan_prefix(b"secret:") {
        let (key, value) = entry.map_err(sled_error)?;
        let name = String::from_utf8_lossy(&key).into_owned();
        conn.execute(
            "INSERT OR REPLACE INTO meta (name, value) VALUES (?1, ?2)",
            rusqlite::params![name, value.as_ref()],
        )
        .map_err(write)?;
    }
    let limits = core.db.open_tree("rate_limits").map_err(sled_error)?;
    for entry in limits.iter() {
        let (key, value) = entry.map_err(sled_error)?;
        let (Some(key), Ok(tat)) = (hash(&key), <[u8; 8]>::try_from(value.as_ref())) else {
            continue;
        };
        conn.execute(
            "INSERT OR REPLACE INTO rate_limits (key, tat) VALUES (?1, ?2)",
            rusqlite::params![key, int(u64::from_be_bytes(tat))],
        )
        .map_err(write)?;
    }
    Ok(carried)
}

/// Puts every photo of the sled store that the new database does not name in the graveyard.
fn bury_the_rest(core: &Core, conn: &rusqlite::Connection) -> Result<(), ImportError> {
    let sled_error = |e: sled::Error| ImportError::Sled(e.to_string());
    for tree in [TreeId::Media, TreeId::BlobGraveyard] {
        for key in core.tree(tree).iter().keys() {
            let key = key.map_err(sled_error)?;
            let Some(id) = key.get(16..32).and_then(MediaId::from_slice) else {
                continue;
            };
            conn.prepare_cached(
                "INSERT OR IGNORE INTO blob_graveyard (media_id)
                 SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM media WHERE id = ?1)",
            )
            .and_then(|mut q| q.execute([id]))
            .map_err(|e| ImportError::Write(e.to_string()))?;
        }
    }
    Ok(())
}

/// The sled files of `dir` as they are now (their main file's size and time): the original
/// is never written, so it still matches after an import unless something else wrote it.
fn fingerprint(dir: &Path) -> Option<String> {
    let meta = std::fs::metadata(dir.join(SLED_DIR).join("db")).ok()?;
    let time = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!("{} {}", meta.len(), time.as_nanos()))
}

/// What a database says it was imported from.
fn imported_from(database: &Path) -> Option<String> {
    let conn =
        rusqlite::Connection::open_with_flags(database, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .ok()?;
    conn.query_row("SELECT value FROM meta WHERE name = ?1", [MARKER], |r| {
        r.get(0)
    })
    .ok()
}

/// A kind's records: how many, and the SHA-256 of each one's canonical JSON.
#[derive(Default, Clone)]
struct Digests {
    count: u64,
    each: Vec<[u8; 32]>,
}

impl Digests {
    fn add(&mut self, kind: Kind, stored: &[u8]) -> Result<(), ImportError> {
        let canonical = kind.canonical(stored).map_err(ImportError::Sled)?;
        self.each.push(Sha256::digest(&canonical).into());
        self.count += 1;
        Ok(())
    }

    /// One digest over all, in any order the records came.
    fn finish(mut self) -> (u64, [u8; 32]) {
        self.each.sort_unstable();
        let mut all = Sha256::new();
        for one in &self.each {
            all.update(one);
        }
        (self.count, all.finalize().into())
    }
}

fn for_each_line(
    path: &Path,
    mut f: impl FnMut(&[u8]) -> Result<(), ImportError>,
) -> Result<(), ImportError> {
    let file = File::open(path).map_err(io("cannot read the spool"))?;
    let input: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    for line in BufReader::new(input).split(b'\n') {
        let line = line.map_err(io("cannot read the spool"))?;
        if !line.is_empty() {
            f(&line)?;
        }
    }
    Ok(())
}

/// Photos whose files are missing were already lost in the sled store: said, not refused.
fn check_photos(blobs: &Blobs, photos: &[(FamilyId, MediaId)]) {
    for (_, id) in photos {
        for variant in [Variant::Full, Variant::Thumb] {
            if !blobs.path(*id, variant).exists() {
                tracing::warn!(photo = %id, size = variant.name(), "a photo's file was already missing in the sled store");
            }
        }
    }
}

/// Moves `db/` aside and removes the copy (after the commit point).
fn set_aside(dir: &Path, kept: &str) -> Result<(), ImportError> {
    std::fs::rename(dir.join(SLED_DIR), dir.join(kept))
        .map_err(io("cannot move the sled files aside"))?;
    let copy = dir.join(COPY);
    if copy.exists() {
        std::fs::remove_dir_all(&copy).map_err(io("cannot remove the sled copy"))?;
    }
    sync_dir(dir)
}

fn remove_database_files(path: &Path) -> Result<(), ImportError> {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let file = PathBuf::from(format!("{}{suffix}", path.display()));
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(format!("cannot remove {}", file.display()))(e)),
        }
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), ImportError> {
    std::fs::create_dir_all(to).map_err(io(format!("cannot make {}", to.display())))?;
    for entry in std::fs::read_dir(from).map_err(io(format!("cannot read {}", from.display())))? {
        let entry = entry.map_err(io(format!("cannot read {}", from.display())))?;
        let target = to.join(entry.file_name());
        let kind = entry
            .file_type()
            .map_err(io("cannot read the sled files"))?;
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)
                .map_err(io(format!("cannot copy {}", entry.path().display())))?;
        }
    }
    Ok(())
}

fn sync_dir(dir: &Path) -> Result<(), ImportError> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io(format!("cannot sync {}", dir.display())))
}

/// Removes a scratch directory however the import ends.
struct Spool(PathBuf);

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::backup::verify_file;

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
    }

    /// A data directory unpacked from a fixture (`<tmp>/data`).
    fn unpacked(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let ok = std::process::Command::new("tar")
            .arg("xzf")
            .arg(fixtures().join(name))
            .arg("-C")
            .arg(dir.path())
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let data = dir.path().join("data");
        (dir, data)
    }

    /// Every row of every table a backup holds (not the revisions, sign-ins, limits or the
    /// store's own values), as text.
    fn rows(conn: &rusqlite::Connection) -> Vec<String> {
        let tables: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table'
                 AND name NOT IN ('families', 'meta', 'sessions', 'share_sessions',
                   'reset_tokens', 'rate_limits', 'blob_graveyard', 'generations')
                 ORDER BY name",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut out = Vec::new();
        for table in tables {
            let mut s = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
            let n = s.column_count();
            let mut rows = s.query([]).unwrap();
            let mut lines = Vec::new();
            while let Some(r) = rows.next().unwrap() {
                let values: Vec<String> = (0..n)
                    .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                    .collect();
                lines.push(format!("{table}: {}", values.join(" | ")));
            }
            lines.sort();
            out.extend(lines);
        }
        out
    }

    fn sled_left_alone(data: &Path, imported: &Imported) {
        assert!(data.join(DATABASE).is_file());
        assert!(!data.join(SLED_DIR).exists(), "moved aside");
        assert!(data.join(&imported.kept).join("db").is_file(), "kept whole");
        assert!(!data.join(COPY).exists());
        assert!(!data.join(IMPORTING).exists());
        assert!(!needed(data));
    }

    #[test]
    fn the_sled_release_imports_as_its_own_backup_restores() {
        let (_tmp, data) = unpacked("store-sled-release.tar.gz");
        let sled_files: Vec<(PathBuf, Vec<u8>)> = walk(&data.join(SLED_DIR));
        let imported = run(&data, 8).unwrap().expect("there was a sled store");
        sled_left_alone(&data, &imported);
        // The sled files moved aside byte for byte: never changed.
        let kept: Vec<(PathBuf, Vec<u8>)> = walk(&data.join(&imported.kept));
        assert_eq!(kept, sled_files);

        // The backup the sled release wrote of the same data, restored into a new database.
        let archive = fixtures().join("store-sled-release.backup.tar");
        let summary = verify_file(&archive).unwrap();
        for (kind, count) in &summary.counts {
            if kind != "media_files" && kind != "families" {
                assert_eq!(imported.counts.get(kind), Some(count), "{kind}");
            }
        }
        let other = tempfile::tempdir().unwrap();
        let restored = crate::store::sqlite::create(&other.path().join(DATABASE), 8).unwrap();
        let restored_blobs = Blobs::new(other.path());
        crate::store::sqlite::backup::load(
            &restored,
            &restored_blobs,
            std::io::BufReader::new(File::open(&archive).unwrap()),
        )
        .unwrap();
        let conn = rusqlite::Connection::open(data.join(DATABASE)).unwrap();
        assert_eq!(rows(&conn), rows(&restored));
        // Every photo's files are where the new store looks for them, byte for byte.
        let photos: Vec<MediaId> = conn
            .prepare("SELECT id FROM media")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(photos.len() as u64, summary.counts["media"]);
        for id in photos {
            for variant in Variant::ALL {
                let ours = Blobs::new(&data).read(id, variant).unwrap();
                assert!(ours.is_some() || variant == Variant::Medium);
                assert_eq!(
                    ours,
                    restored_blobs.read(id, variant).unwrap(),
                    "{id} {variant:?}"
                );
            }
        }
        // Revisions carried over (moved on by the sled copy's restart gap, never back).
        let revisions: Vec<(FamilyId, i64)> = conn
            .prepare("SELECT id, revision FROM families")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(!revisions.is_empty());
        assert!(
            revisions.iter().all(|(_, r)| *r > 0 && *r < 1 << 40),
            "{revisions:?}"
        );
        let broken = conn
            .prepare("PRAGMA foreign_key_check")
            .unwrap()
            .query_map([], |_| Ok(()))
            .unwrap()
            .count();
        assert_eq!(broken, 0);
        // Sign-ins came over: nobody is signed out by the upgrade.
        let count = |sql: &str| conn.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
        assert!(
            count("SELECT count(*) FROM sessions") >= 3,
            "the parents' sessions"
        );
        assert!(
            count("SELECT count(*) FROM share_sessions") >= 1,
            "the co-parent's"
        );
        assert!(count("SELECT count(*) FROM meta WHERE name LIKE 'secret:%'") >= 1);
        // A second start finds nothing to import.
        assert_eq!(run(&data, 8).unwrap(), None);
    }

    #[test]
    fn an_import_cut_off_before_its_commit_point_starts_again() {
        let (_tmp, data) = unpacked("store-sled-release.tar.gz");
        std::fs::write(data.join(IMPORTING), b"half a database").unwrap();
        std::fs::write(data.join(format!("{IMPORTING}-wal")), b"junk").unwrap();
        std::fs::create_dir(data.join(COPY)).unwrap();
        std::fs::write(data.join(COPY).join("db"), b"half a copy").unwrap();
        let imported = run(&data, 8).unwrap().unwrap();
        sled_left_alone(&data, &imported);
        assert!(!data.join(format!("{IMPORTING}-wal")).exists());
        assert_eq!(imported.counts["meals"], 8);
    }

    #[test]
    fn an_import_cut_off_after_its_commit_point_finishes_the_move() {
        let (_tmp, data) = unpacked("store-sled-release.tar.gz");
        let first = run(&data, 8).unwrap().unwrap();
        let database = std::fs::read(data.join(DATABASE)).unwrap();
        // As if the start had stopped right after the rename.
        std::fs::rename(data.join(&first.kept), data.join(SLED_DIR)).unwrap();
        let second = run(&data, 8).unwrap().unwrap();
        sled_left_alone(&data, &second);
        assert!(second.counts.is_empty(), "nothing imported again");
        assert_eq!(std::fs::read(data.join(DATABASE)).unwrap(), database);

        // A sled store that is not the one imported (an older release ran here afterwards)
        // is never shelved quietly: nothing changes and the admin is told.
        std::fs::rename(data.join(&second.kept), data.join(SLED_DIR)).unwrap();
        std::fs::write(data.join(SLED_DIR).join("db"), b"written after the upgrade").unwrap();
        let err = run(&data, 8).unwrap_err();
        assert!(matches!(err, ImportError::Unclear(_)), "{err}");
        assert!(err.to_string().contains("move db/ out"), "{err}");
        assert!(data.join(SLED_DIR).join("db").exists());
        assert_eq!(std::fs::read(data.join(DATABASE)).unwrap(), database);
    }

    #[test]
    fn the_oldest_stores_photos_come_out_of_sled_on_the_way() {
        let (_tmp, data) = unpacked("store-schema2.tar.gz");
        let imported = run(&data, 8).unwrap().unwrap();
        sled_left_alone(&data, &imported);
        assert!(imported.counts["meals"] > 0);
        let conn = rusqlite::Connection::open(data.join(DATABASE)).unwrap();
        let photos: Vec<MediaId> = conn
            .prepare("SELECT id FROM media")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(!photos.is_empty());
        for id in photos {
            assert!(Blobs::new(&data).read(id, Variant::Full).unwrap().is_some());
        }
    }

    /// Every file under `dir` with its bytes, by path relative to `dir`.
    fn walk(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push((
                        p.strip_prefix(dir).unwrap().to_path_buf(),
                        std::fs::read(&p).unwrap(),
                    ));
                }
            }
        }
        out.sort();
        out
    }
}
