//! Backups of the SQLite store in archive format 1 (see `store::backup`), and restores into a
//! new database.
//!
//! The snapshot is one read transaction on a read connection: WAL gives it one moment while
//! writers carry on (no write gate). A photo fence goes up before the transaction starts, so
//! the files of every photo the moment shows stay until the archive has them. What the store
//! already counts as deleted (a deleted family's records, the meals of a child being deleted
//! and their photos) is left out by the queries.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::Utc;
use rusqlite::Connection;

use super::core::{Row, Shared};
use super::values::{get_json, get_time, get_u64, int, json, text, time};
use crate::domain::child::Child;
use crate::domain::co_parent::CoParent;
use crate::domain::contact::ContactMessage;
use crate::domain::family::FamilyInvite;
use crate::domain::family_settings::FamilySettings;
use crate::domain::grocery::GroceryList;
use crate::domain::ids::{FamilyId, MediaId, UserId};
use crate::domain::meal::Meal;
use crate::domain::meal_plan::MealPlan;
use crate::domain::recipe::Recipe;
use crate::domain::user::User;
use crate::store::Record;
use crate::store::backup::archive::{FamilyLine, record_line};
use crate::store::backup::kinds::{Kind, Loaded};
use crate::store::backup::reader::{self, Sink};
use crate::store::backup::snapshot::Snapshot;
use crate::store::backup::{ArchiveError, BackupError, Summary};
use crate::store::blobs::Blobs;
use crate::store::jobs::Job;
use crate::store::media::{MediaRecord, Variant};

/// A family that is not deleted.
const LIVE_FAMILY: &str =
    "NOT EXISTS (SELECT 1 FROM families f WHERE f.id = t.family_id AND f.deleted = 1)";

/// Holds the photo fence; dropping the last one sweeps what waited in the graveyard.
struct Fence(Shared);

impl Drop for Fence {
    fn drop(&mut self) {
        if !self.0.lower_fence() {
            return;
        }
        // Without a runtime (the command line) the next start sweeps.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let core = self.0.clone();
            runtime.spawn(async move {
                if let Err(e) = core.sweep_all().await {
                    tracing::warn!(error = %e, "removed photos' files are left for the next sweep");
                }
            });
        }
    }
}

/// Writes an archive of this moment to `out` (blocking: run it off the async threads),
/// spooling in a scratch directory under `dir`.
pub(crate) fn backup<W: Write>(
    core: &Shared,
    dir: &Path,
    out: W,
) -> Result<(Summary, W), BackupError> {
    let spool = Spool(dir.join(format!(
        "{}{}",
        crate::store::backup::SPOOL_PREFIX,
        uuid::Uuid::new_v4().simple()
    )));
    std::fs::create_dir(&spool.0)
        .map_err(|e| BackupError::Io(format!("cannot make a scratch directory: {e}")))?;
    let snapshot = take(core, &spool.0)?;
    let (prepared, media) = snapshot.prepare(&spool.0)?;
    let written =
        crate::store::backup::writer::write(&core.blobs, &snapshot, &prepared, &media, out)?;
    drop(snapshot);
    Ok(written)
}

/// Removes a spool directory when the backup is done, however it ends.
struct Spool(PathBuf);

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn io(what: &str, e: std::io::Error) -> BackupError {
    BackupError::Io(format!("{what}: {e}"))
}

/// Copies every archived kind into `spool` (one file per kind, lines as archived) from one
/// read transaction.
pub(crate) fn take(core: &Shared, spool: &Path) -> Result<Snapshot, BackupError> {
    core.raise_fence();
    let fence = Fence(Arc::clone(core));
    let mut raw = Vec::new();
    let mut files = Vec::new();
    for kind in Kind::ALL {
        let path = spool.join(format!("{}.raw", kind.name()));
        let file = File::create(&path).map_err(|e| io("cannot write the spool", e))?;
        files.push((kind, BufWriter::with_capacity(256 << 10, file)));
        raw.push((kind, path));
    }
    let created_at = Utc::now();
    let copied = core.db.read_blocking(move |conn| {
        conn.execute_batch("BEGIN")?;
        let copied = files
            .into_iter()
            .try_for_each(|(kind, mut out)| copy_kind(conn, kind, &mut out));
        conn.execute_batch("COMMIT")?;
        Ok(copied)
    });
    copied.map_err(|e| BackupError::Store(e.to_string()))??;
    Ok(Snapshot::new(created_at, raw, Box::new(fence)))
}

/// Writes one kind's lines.
pub(crate) fn copy_kind(
    conn: &Connection,
    kind: Kind,
    out: &mut BufWriter<File>,
) -> Result<(), BackupError> {
    let store = |e: rusqlite::Error| BackupError::Store(e.to_string());
    let written = match kind {
        Kind::Families => {
            let mut stmt = conn
                .prepare("SELECT id, revision, deleted FROM families")
                .map_err(store)?;
            let mut rows = stmt.query([]).map_err(store)?;
            while let Some(r) = rows.next().map_err(store)? {
                let line = FamilyLine {
                    id: r.get(0).map_err(store)?,
                    revision: get_u64(r, 1).map_err(store)?,
                    deleted: r.get(2).map_err(store)?,
                };
                let mut bytes =
                    serde_json::to_vec(&line).map_err(|e| BackupError::Store(e.to_string()))?;
                bytes.push(b'\n');
                out.write_all(&bytes)
                    .map_err(|e| io("cannot write the spool", e))?;
            }
            Ok(())
        }
        Kind::Users => spool::<User>(conn, "1", out),
        Kind::FamilyInvites => spool::<FamilyInvite>(conn, LIVE_FAMILY, out),
        Kind::FamilySettings => spool::<FamilySettings>(conn, LIVE_FAMILY, out),
        Kind::Children => spool::<Child>(conn, &format!("t.deleted = 0 AND {LIVE_FAMILY}"), out),
        Kind::Meals => spool::<Meal>(conn, &format!("{} AND {LIVE_FAMILY}", Meal::VISIBLE), out),
        Kind::Media => spool::<MediaRecord>(
            conn,
            &format!(
                "{LIVE_FAMILY} AND NOT EXISTS (SELECT 1 FROM meals m JOIN children c
                 ON c.id = m.child_id WHERE m.photo_id = t.id AND c.deleted = 1)"
            ),
            out,
        ),
        Kind::Recipes => spool::<Recipe>(conn, LIVE_FAMILY, out),
        Kind::GroceryLists => spool::<GroceryList>(conn, LIVE_FAMILY, out),
        Kind::MealPlans => spool::<MealPlan>(conn, LIVE_FAMILY, out),
        Kind::CoParents => spool::<CoParent>(conn, LIVE_FAMILY, out),
        Kind::Jobs => each(
            conn,
            "SELECT id, job, created_at FROM jobs ORDER BY id",
            |r| {
                Ok(Job {
                    id: r.get(0)?,
                    job: get_json(r, 1)?,
                    created_at: get_time(r, 2)?,
                })
            },
            out,
        ),
        Kind::ContactMessages => each(
            conn,
            "SELECT id, name, email, message, created_at FROM contact_messages ORDER BY id",
            |r| {
                Ok(ContactMessage {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    email: super::values::get_name(r, 2)?,
                    message: r.get(3)?,
                    created_at: get_time(r, 4)?,
                })
            },
            out,
        ),
    };
    written?;
    out.flush().map_err(|e| io("cannot write the spool", e))
}

fn spool<R: Row + Record>(
    conn: &Connection,
    filter: &str,
    out: &mut BufWriter<File>,
) -> Result<(), BackupError> {
    let sql = format!(
        "SELECT {} FROM {} t WHERE {filter} ORDER BY t.{}",
        R::SELECT,
        R::TABLE,
        R::KEY
    );
    each(conn, &sql, R::from_row, out)
}

/// Writes the archived line of each record `read` makes of the rows of `sql`.
fn each<R: Record>(
    conn: &Connection,
    sql: &str,
    read: impl Fn(&rusqlite::Row<'_>) -> rusqlite::Result<R>,
    out: &mut BufWriter<File>,
) -> Result<(), BackupError> {
    let store = |e: rusqlite::Error| BackupError::Store(e.to_string());
    let mut stmt = conn.prepare(sql).map_err(store)?;
    let mut rows = stmt.query([]).map_err(store)?;
    while let Some(row) = rows.next().map_err(store)? {
        let record = read(row).map_err(store)?;
        let stored = record.encode()?;
        let line = record_line(&stored).map_err(BackupError::Store)?;
        out.write_all(&line)
            .map_err(|e| io("cannot write the spool", e))?;
    }
    Ok(())
}

/// Loads records into a new database that nobody uses yet: straight into the tables in one
/// transaction, with foreign keys checked once at the end (an archive lists meals before the
/// photos they name).
pub(crate) struct Loader<'c> {
    conn: &'c Connection,
    blobs: &'c Blobs,
    /// Revisions start above anything a client may still hold from before.
    floor: u64,
    first_user: Option<UserId>,
    families: HashSet<FamilyId>,
}

impl<'c> Loader<'c> {
    /// Starts loading into `conn` (a new database at the current schema).
    pub(crate) fn begin(conn: &'c Connection, blobs: &'c Blobs) -> rusqlite::Result<Self> {
        conn.pragma_update(None, "foreign_keys", "OFF")?;
        conn.execute_batch("BEGIN IMMEDIATE")?;
        let micros = Utc::now().timestamp_micros();
        Ok(Loader {
            conn,
            blobs,
            floor: u64::try_from(micros).unwrap_or(0),
            first_user: None,
            families: HashSet::new(),
        })
    }

    /// Checks every reference, marks the server as claimed (its first account exists) and
    /// commits; then the photos are synced.
    pub(crate) fn finish(self) -> Result<(), String> {
        let failed = |e: rusqlite::Error| format!("cannot write the new database: {e}");
        let broken: Vec<(String, i64)> = {
            let mut stmt = self
                .conn
                .prepare("PRAGMA foreign_key_check")
                .map_err(failed)?;
            let rows = stmt
                .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
                .map_err(failed)?;
            rows.collect::<Result<_, _>>().map_err(failed)?
        };
        if let Some((table, _)) = broken.first() {
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(format!(
                "{} rows refer to records that are not there (first in {table})",
                broken.len()
            ));
        }
        if let Some(user) = self.first_user {
            self.conn
                .execute(
                    "INSERT OR IGNORE INTO meta (name, value) VALUES (?1, ?2)",
                    rusqlite::params![super::users::FIRST_CLAIMED, user],
                )
                .map_err(failed)?;
        }
        self.conn.execute_batch("COMMIT").map_err(failed)?;
        self.conn
            .pragma_update(None, "foreign_keys", "ON")
            .map_err(failed)?;
        self.conn
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .map_err(failed)?;
        self.blobs
            .sync_all()
            .map_err(|e| format!("cannot write the new store's photos: {e}"))
    }

    /// Keeps the revisions the records come with (an import: no browser holds a revision the
    /// store did not).
    pub(crate) fn keep_revisions(&mut self) {
        self.floor = 0;
    }

    fn family_seen(&mut self, family: FamilyId) -> rusqlite::Result<()> {
        if self.families.insert(family) {
            // A family that had no revision yet (an archive written by hand, or an older one).
            self.conn
                .prepare_cached("INSERT OR IGNORE INTO families (id, revision) VALUES (?1, ?2)")?
                .execute(rusqlite::params![family, int(self.floor)])?;
        }
        Ok(())
    }

    fn put<R: Row>(&mut self, record: &R) -> rusqlite::Result<()> {
        self.family_seen(record.family())?;
        let sql = format!(
            "INSERT INTO {} ({}) VALUES ({})",
            R::TABLE,
            R::COLUMNS.join(", "),
            (1..=R::COLUMNS.len())
                .map(|i| format!("?{i}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        self.conn
            .prepare_cached(&sql)?
            .execute(rusqlite::params_from_iter(record.values()))?;
        record.write_parts(self.conn)
    }

    /// Loads one stored record (version byte, then JSON) of `kind`.
    pub(crate) fn record(&mut self, kind: Kind, stored: &[u8]) -> Result<(), String> {
        fn decode<R: Record>(stored: &[u8]) -> Result<R, String> {
            R::decode(stored).map_err(|e| e.to_string())
        }
        let written = match kind {
            Kind::Families => return Err("families are not stored records".into()),
            Kind::Users => {
                let user: User = decode(stored)?;
                // Archives list accounts oldest first: the first is the server's first.
                if self.first_user.is_none() {
                    self.first_user = Some(user.id);
                }
                self.put(&user)
            }
            Kind::FamilyInvites => self.put(&decode::<FamilyInvite>(stored)?),
            Kind::FamilySettings => self.put(&decode::<FamilySettings>(stored)?),
            Kind::Children => self.put(&decode::<Child>(stored)?),
            Kind::Meals => self.put(&decode::<Meal>(stored)?),
            Kind::Media => self.put(&decode::<MediaRecord>(stored)?),
            Kind::Recipes => self.put(&decode::<Recipe>(stored)?),
            Kind::GroceryLists => self.put(&decode::<GroceryList>(stored)?),
            Kind::MealPlans => self.put(&decode::<MealPlan>(stored)?),
            Kind::CoParents => self.put(&decode::<CoParent>(stored)?),
            Kind::Jobs => {
                let job: Job = decode(stored)?;
                self.conn
                    .prepare_cached("INSERT INTO jobs (id, job, created_at) VALUES (?1, ?2, ?3)")
                    .and_then(|mut s| {
                        s.execute(rusqlite::params![
                            job.id,
                            json(&job.job),
                            time(job.created_at)
                        ])
                    })
                    .map(|_| ())
            }
            Kind::ContactMessages => {
                let m: ContactMessage = decode(stored)?;
                self.conn
                    .prepare_cached(
                        "INSERT INTO contact_messages (id, name, email, message, created_at)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                    )
                    .and_then(|mut s| {
                        s.execute(rusqlite::params![
                            m.id,
                            text(&m.name),
                            text(m.email.as_str()),
                            text(&m.message),
                            time(m.created_at)
                        ])
                    })
                    .map(|_| ())
            }
        };
        written.map_err(|e| format!("cannot load a {} record: {e}", kind.name()))
    }

    /// A family's revision after a restore: at least the time of the restore in microseconds,
    /// so one a browser kept from before is never handed out again.
    pub(crate) fn family(&mut self, line: &FamilyLine) -> Result<(), String> {
        self.families.insert(line.id);
        self.conn
            .prepare_cached(
                "INSERT INTO families (id, revision, deleted) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET revision = ?2, deleted = ?3",
            )
            .and_then(|mut s| {
                s.execute(rusqlite::params![
                    line.id,
                    int(line.revision.max(self.floor)),
                    line.deleted
                ])
            })
            .map(|_| ())
            .map_err(|e| format!("cannot load a family: {e}"))
    }
}

impl Sink for Loader<'_> {
    fn family(&mut self, line: &FamilyLine) -> Result<(), String> {
        Loader::family(self, line)
    }

    fn record(&mut self, kind: Kind, stored: &[u8], _: &Loaded) -> Result<(), String> {
        Loader::record(self, kind, stored)
    }

    /// Photo files are named by the photo's id alone.
    fn media(
        &mut self,
        _family: FamilyId,
        id: MediaId,
        variant: Variant,
        bytes: &[u8],
    ) -> Result<(), String> {
        self.blobs
            .write_unsynced(id, variant, bytes)
            .map_err(|e| format!("cannot write a photo of the new store: {e}"))
    }
}

/// Reads an archive into the new database `conn` (at the current schema, empty) and its
/// photos into `blobs`. On an error the database holds nothing of it; photo files written
/// so far stay (throw the directory away).
pub(crate) fn load(
    conn: &Connection,
    blobs: &Blobs,
    input: impl Read,
) -> Result<Summary, ArchiveError> {
    let unreadable = |e: rusqlite::Error| ArchiveError::Unreadable(e.to_string());
    let mut loader = Loader::begin(conn, blobs).map_err(unreadable)?;
    let summary = match reader::walk(input, &mut loader) {
        Ok(summary) => summary,
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(e);
        }
    };
    loader.finish().map_err(ArchiveError::Unreadable)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::backup::verify;
    use crate::store::children::tests::child;
    use crate::store::meals::tests::meal;
    use crate::store::media::tests::upload;
    use crate::store::sqlite::children::Children;
    use crate::store::sqlite::meals::Meals;
    use crate::store::sqlite::media::Media;
    use crate::store::sqlite::tests::temp_core;
    use crate::store::sqlite::users::Users;
    use crate::store::users::tests::user;

    /// A family with two children, meals (one with a photo), an account, and a second family.
    async fn populated(core: &Shared) -> (FamilyId, MediaId) {
        let (children, meals, media) = (
            Children::new(core.clone()),
            Meals::new(core.clone()),
            Media::new(core.clone()),
        );
        let ann = Users::new(core.clone())
            .insert(&user("ann@example.org"), true)
            .await
            .unwrap();
        let family = ann.family_id;
        let emma = children.insert(&child(family, "Emma")).await.unwrap();
        children.insert(&child(family, "Leo")).await.unwrap();
        let photo = upload(family, Utc::now());
        media
            .insert(
                &photo,
                &[(Variant::Full, b"full-bytes"), (Variant::Thumb, b"thumb")],
            )
            .await
            .unwrap();
        let mut with_photo = meal(family, emma.id, 5);
        with_photo.photo = Some(photo.id);
        with_photo.foods = vec!["Egg".into(), "Toast".into()];
        meals.insert(&with_photo).await.unwrap();
        for i in 0..30 {
            meals.insert(&meal(family, emma.id, i)).await.unwrap();
        }
        let other = FamilyId::new();
        let noah = children.insert(&child(other, "Noah")).await.unwrap();
        meals.insert(&meal(other, noah.id, 1)).await.unwrap();
        (family, photo.id)
    }

    fn archive_of(core: &Shared, dir: &Path) -> Vec<u8> {
        backup(core, dir, Vec::new()).unwrap().1
    }

    /// Every row of every table, as text (two stores with the same content give the same).
    fn contents(core: &Shared) -> Vec<String> {
        core.db
            .read_blocking(|conn| {
                let tables: Vec<String> = {
                    let mut s = conn.prepare(
                        "SELECT name FROM sqlite_schema WHERE type = 'table'
                         AND name NOT IN ('families', 'meta') ORDER BY name",
                    )?;
                    let names = s.query_map([], |r| r.get(0))?;
                    names.collect::<Result<_, _>>()?
                };
                let mut out = Vec::new();
                for table in tables {
                    let mut s = conn.prepare(&format!("SELECT * FROM {table}"))?;
                    let n = s.column_count();
                    let mut rows = s.query([])?;
                    let mut lines = Vec::new();
                    while let Some(r) = rows.next()? {
                        let values: Vec<String> = (0..n)
                            .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                            .collect();
                        lines.push(format!("{table}: {}", values.join(" | ")));
                    }
                    lines.sort();
                    out.extend(lines);
                }
                Ok(out)
            })
            .unwrap()
    }

    fn restore(bytes: &[u8]) -> (tempfile::TempDir, Shared, Summary) {
        let (dir, core) = temp_core();
        let conn = rusqlite::Connection::open(core.db.path()).unwrap();
        let summary = load(&conn, &core.blobs, bytes).unwrap();
        drop(conn);
        // Reopened, as a restore swaps the new database in.
        let path = core.db.path().to_path_buf();
        drop(core);
        let db = super::super::Database::open(&path, 8).unwrap();
        let core = Arc::new(super::super::core::Core::new(db, Blobs::new(dir.path())).unwrap());
        (dir, core, summary)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_archive_restores_every_row_and_photo_byte_for_byte() {
        let (dir, core) = temp_core();
        let (family, photo) = populated(&core).await;
        let bytes = archive_of(&core, dir.path());
        let summary = verify(bytes.as_slice()).unwrap();
        assert_eq!(summary.counts["users"], 1);
        assert_eq!(summary.counts["children"], 3);
        assert_eq!(summary.counts["meals"], 32);
        assert_eq!(summary.counts["media"], 1);
        assert_eq!(summary.counts["media_files"], 2);

        let (_restored_dir, restored, loaded) = restore(&bytes);
        assert_eq!(loaded, summary);
        assert_eq!(contents(&restored), contents(&core));
        for variant in [Variant::Full, Variant::Thumb] {
            assert_eq!(
                restored.blobs.read(photo, variant).unwrap(),
                core.blobs.read(photo, variant).unwrap()
            );
        }
        assert!(
            restored.revision(family) > core.revision(family),
            "revisions move on"
        );
        // The first account is still the first: another cannot claim it.
        let users = Users::new(restored.clone());
        assert!(matches!(
            users.insert(&user("eve@example.org"), true).await,
            Err(crate::store::users::InsertUserError::NotFirst)
        ));
        // A backup of the restored store holds the same content.
        let again = verify(archive_of(&restored, _restored_dir.path()).as_slice()).unwrap();
        assert_eq!(again.counts, summary.counts);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn what_the_store_counts_as_deleted_is_left_out() {
        let (dir, core) = temp_core();
        let (family, photo) = populated(&core).await;
        let children = Children::new(core.clone());
        let emma = children
            .list(family)
            .await
            .unwrap()
            .into_iter()
            .find(|c| c.name == "Emma")
            .unwrap();
        children.delete(family, emma.id).await.unwrap();
        // The job that removes her meals has not run: her photo's row is still there.
        assert!(
            core.read(move |conn| conn.query_row(
                "SELECT count(*) FROM media WHERE id = ?1",
                [photo],
                |r| r.get::<_, i64>(0)
            ))
            .await
            .unwrap()
                == 1
        );
        let summary = verify(archive_of(&core, dir.path()).as_slice()).unwrap();
        assert_eq!(summary.counts["children"], 2);
        assert_eq!(summary.counts["meals"], 1);
        assert_eq!(summary.counts["media"], 0);
        assert_eq!(summary.counts["jobs"], 1);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn photos_removed_while_a_backup_copies_stay_until_it_ends() {
        let (_dir, core) = temp_core();
        let (family, photo) = populated(&core).await;
        let meals = Meals::new(core.clone());
        let file = core.blobs.path(photo, Variant::Full);
        let with_photo = meals
            .page(family, None, None, 100)
            .await
            .unwrap()
            .0
            .into_iter()
            .find(|m| m.photo == Some(photo))
            .unwrap();
        core.raise_fence();
        let fence = Fence(core.clone());
        assert!(meals.delete(family, with_photo.id).await.unwrap());
        assert!(file.exists(), "kept for the backup");
        drop(fence);
        // The sweep runs on its own task: the files go, then their graveyard entries.
        let mut waiting = -1;
        for _ in 0..200 {
            waiting = core
                .read(|conn| {
                    conn.query_row("SELECT count(*) FROM blob_graveyard", [], |r| {
                        r.get::<_, i64>(0)
                    })
                })
                .await
                .unwrap();
            if !file.exists() && waiting == 0 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert!(!file.exists(), "removed after it");
        assert_eq!(waiting, 0);
    }

    #[test]
    fn an_archive_with_a_reference_to_nothing_loads_nothing() {
        // A meal whose photo is not in the archive: the reader lets it through (it checks
        // children, not photos), the foreign key check at the end refuses it.
        let (_dir, core) = temp_core();
        let conn = rusqlite::Connection::open(core.db.path()).unwrap();
        let mut loader = Loader::begin(&conn, &core.blobs).unwrap();
        let family = FamilyId::new();
        let c = child(family, "Emma");
        loader.record(Kind::Children, &c.encode().unwrap()).unwrap();
        let mut m = meal(family, c.id, 1);
        m.photo = Some(MediaId::new());
        loader.record(Kind::Meals, &m.encode().unwrap()).unwrap();
        let err = loader.finish().unwrap_err();
        assert!(err.contains("refer to records that are not there"), "{err}");
        let meals: i64 = conn
            .query_row("SELECT count(*) FROM meals", [], |r| r.get(0))
            .unwrap();
        assert_eq!(meals, 0);
    }
}
