//! The SQLite database (issue 28; docs/sqlite-store.md): opening it with the settings every
//! connection needs, the numbered migrations, one writer thread that commits writes in groups,
//! and a small pool of read connections. Nothing here knows a noun of the product: the
//! repositories build on `Database::write` and `Database::read`.

pub(crate) mod backup;
mod cache;
pub mod children;
pub mod co_parents;
pub mod contact_messages;
pub mod core;
pub mod family_settings;
pub mod generations;
pub mod grocery_lists;
pub mod invites;
pub mod jobs;
pub mod maintenance;
pub mod meal_plans;
pub mod meals;
pub mod media;
mod migrations;
pub mod rate_limits;
mod readers;
pub mod recipes;
pub mod reset_tokens;
pub mod sessions;
pub mod share_sessions;
mod store;
pub mod users;
pub(crate) mod values;
mod writer;

pub use store::Store;

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

pub use migrations::{CURRENT, MigrateError};
pub use writer::{Counts, WriteFailed};

/// What the busy handler waits for another connection's lock (a checkpoint, a backup's read):
/// long enough never to fail a write under load, short enough to surface a stuck process.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// Read connections: requests read in parallel on 2-4 cores; more would only hold memory.
pub const READERS: usize = 3;
/// The page size of a new database. The WAL takes whole pages, and a meal's commit changes a
/// few (its row, its foods, their indexes, the family's revision): with SQLite's 4 KiB a meal
/// cost 21 KB written with 8 parents at work and 33 KB alone (sled: 14 KB); with 1 KiB, 10 KB
/// and 14 KB, and lists read as fast (docs/benchmarks.md). Rows are small; recipes, the one
/// larger document, take a few overflow pages.
const PAGE_SIZE: i64 = 1024;

/// The open database: the writer thread and the readers.
pub struct Database {
    path: PathBuf,
    writer: writer::Writer,
    readers: readers::Readers,
}

#[derive(Debug, thiserror::Error)]
pub enum OpenDbError {
    #[error(transparent)]
    Migrate(#[from] MigrateError),
    #[error("cannot open the database {path}: {source}")]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
    /// The file system cannot hold a WAL (SQLite fell back to another journal mode).
    #[error("the database {path} cannot use write-ahead logging (journal mode {mode})")]
    NoWal { path: PathBuf, mode: String },
}

impl Database {
    /// Opens (creating if needed) the database at `path`, brings its schema up to date and
    /// starts the writer thread. `cache_mb` bounds the page cache of all connections together.
    pub fn open(path: &Path, cache_mb: u32) -> Result<Database, OpenDbError> {
        let failed = |source| OpenDbError::Sqlite {
            path: path.to_path_buf(),
            source,
        };
        // Half the cache for the writer (it reads every row it changes), the rest shared.
        let cache_kib = i64::from(cache_mb) * 1024;
        let mut write = connect(path, cache_kib / 2, false).map_err(failed)?;
        // WAL, once, before the readers open: readers never block the writer nor it them. It
        // is kept in the file, so every later connection uses it too.
        let mode = use_wal(&write).map_err(failed)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(OpenDbError::NoWal {
                path: path.to_path_buf(),
                mode,
            });
        }
        migrations::run(&mut write)?;
        let readers = (0..READERS)
            .map(|_| {
                let conn = connect(path, cache_kib / 2 / READERS as i64, true)?;
                // The schema is parsed now, not by the first request: memory a connection
                // keeps for good then sits with the rest of start-up's, not between a busy
                // spell's buffers, where it would keep their pages from going back.
                conn.query_row("SELECT count(*) FROM sqlite_schema", [], |_| Ok(()))?;
                Ok(conn)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(failed)?;
        Ok(Database {
            path: path.to_path_buf(),
            writer: writer::Writer::start(write),
            readers: readers::Readers::new(readers),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `change` in the writer's transaction, alone in its savepoint: an `Err` (or a panic)
    /// undoes it and nothing else. Resolves once the transaction it shared with the writes
    /// queued beside it is committed and on disk.
    pub async fn write<T, E, F>(&self, change: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<WriteFailed> + Send + 'static,
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
    {
        self.writer.write_then(change, |_| {}).await
    }

    /// Frees the readers' page caches when none is reading; `false` when some were busy.
    pub fn release_memory(&self) -> bool {
        self.readers.release_memory()
    }

    /// Commits and writes so far (the writes per commit show how well group commit works).
    pub fn counts(&self) -> &Counts {
        self.writer.counts()
    }

    /// Changes whenever a commit (or a rolled back group) ends; read it before a query whose
    /// answer is kept (`cache::CommitCache`).
    pub(crate) fn generation(&self) -> u64 {
        self.writer
            .counts()
            .generation
            .load(std::sync::atomic::Ordering::Acquire)
    }

    /// Queues `change` without waiting for its commit, from code that cannot wait (a rate
    /// limiter's state). `false` when the writer's queue is full or closed.
    pub fn write_detached<F>(&self, change: F) -> bool
    where
        F: FnOnce(&Connection) -> Result<(), WriteFailed> + Send + 'static,
    {
        self.writer.write_detached(change)
    }

    /// [`Database::write`], and `after` runs on the writer thread right after the commit, in
    /// commit order, before the answer is sent: the change feed hears changes in the order
    /// they were made.
    pub async fn write_then<T, E, F, A>(&self, change: F, after: A) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<WriteFailed> + Send + 'static,
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        A: FnOnce(&T) + Send + 'static,
    {
        self.writer.write_then(change, after).await
    }

    /// Runs `query` on a read connection on this thread: for opening the store and for the
    /// command line, never from a request.
    pub fn read_blocking<T>(
        &self,
        query: impl FnOnce(&Connection) -> Result<T, rusqlite::Error>,
    ) -> Result<T, rusqlite::Error> {
        self.readers.read_blocking(query)
    }

    /// Runs `query` on a read connection, off the async workers. Each call sees the database
    /// as of its first statement; wrap several statements in one transaction to read them at
    /// one moment.
    pub async fn read<T, F>(&self, query: F) -> Result<T, rusqlite::Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    {
        self.readers.read(query).await
    }
}

/// A new database at `path` at the current schema, on one connection of its own (loading a
/// restore or an import, before anyone uses it).
pub(crate) fn create(path: &Path, cache_mb: u32) -> Result<Connection, OpenDbError> {
    let failed = |source| OpenDbError::Sqlite {
        path: path.to_path_buf(),
        source,
    };
    let mut conn = connect(path, i64::from(cache_mb) * 1024, false).map_err(failed)?;
    let mode = use_wal(&conn).map_err(failed)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(OpenDbError::NoWal {
            path: path.to_path_buf(),
            mode,
        });
    }
    migrations::run(&mut conn)?;
    Ok(conn)
}

/// Gives a new database its page size and switches it to WAL (both are kept in the file; an
/// existing database keeps the page size it has). Answers the journal mode SQLite is in.
fn use_wal(conn: &Connection) -> Result<String, rusqlite::Error> {
    conn.pragma_update(None, "page_size", PAGE_SIZE)?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
}

/// One connection with the settings every connection needs. `read_only` connections refuse
/// writes (`query_only`), so a repository cannot write past the writer by mistake.
fn connect(path: &Path, cache_kib: i64, read_only: bool) -> Result<Connection, rusqlite::Error> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // FULL: a commit is on disk (the WAL fsynced) before it is acknowledged, so an acknowledged
    // write survives a power cut.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "cache_size", -cache_kib.max(256))?;
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    // The WAL file is cut back to this after a checkpoint instead of staying at its peak.
    conn.pragma_update(None, "journal_size_limit", 64 * 1024 * 1024)?;
    if read_only {
        conn.pragma_update(None, "query_only", "ON")?;
    }
    Ok(conn)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A database with its core in a temporary directory (kept while the guard lives).
    pub(crate) fn temp_core() -> (tempfile::TempDir, core::Shared) {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::open(&dir.path().join("highchair.db"), 8).unwrap();
        let blobs = crate::store::blobs::Blobs::new(dir.path());
        let core = core::Core::new(db, blobs).unwrap();
        (dir, std::sync::Arc::new(core))
    }

    #[tokio::test]
    async fn a_write_whose_caller_went_away_does_not_keep_the_database_open() {
        let (dir, core) = temp_core();
        let (started, running) = std::sync::mpsc::channel();
        let (open_gate, gate) = std::sync::mpsc::channel::<()>();
        let caller = tokio::spawn({
            let core = core.clone();
            async move {
                core.commit(move |_| {
                    let _ = started.send(());
                    let _ = gate.recv();
                    Ok(())
                })
                .await
            }
        });
        abandon_once_running(caller, running).await;
        open_gate.send(()).unwrap();
        // The last handle is this one, not the queued write's: letting it go waits for the
        // writer and closes every connection, so the log is gone when it returns (a `db vacuum`
        // run right after a stop relies on it).
        drop(core);
        assert!(!dir.path().join("highchair.db-wal").exists());
    }

    /// An account (sessions and reset links hang on one).
    pub(crate) async fn account(core: &core::Shared, email: &str) -> crate::domain::user::User {
        users::Users::new(core.clone())
            .insert(&crate::store::users::tests::user(email), false)
            .await
            .unwrap()
    }

    /// Removes an account with plain SQL: what hangs on it goes by the foreign keys' cascades,
    /// which no repository announces.
    pub(crate) async fn delete_in_sql(core: &core::Shared, user: crate::domain::ids::UserId) {
        core.commit(move |tx| {
            tx.conn
                .execute("DELETE FROM users WHERE id = ?1", [user])
                .map_err(core::Abort::from)
        })
        .await
        .unwrap();
    }

    /// Waits until the write `caller` queued has started on the writer, then stops the caller
    /// (as shutdown stops a background task): the write goes on without anyone waiting for it.
    pub(crate) async fn abandon_once_running<T>(
        caller: tokio::task::JoinHandle<T>,
        running: std::sync::mpsc::Receiver<()>,
    ) {
        tokio::task::spawn_blocking(move || running.recv().unwrap())
            .await
            .unwrap();
        caller.abort();
        let _ = caller.await;
    }

    fn pragma(conn: &Connection, name: &str) -> String {
        conn.pragma_query_value(None, name, |r| {
            r.get::<_, rusqlite::types::Value>(0).map(|v| match v {
                rusqlite::types::Value::Integer(i) => i.to_string(),
                rusqlite::types::Value::Text(t) => t,
                other => format!("{other:?}"),
            })
        })
        .unwrap()
    }

    #[tokio::test]
    async fn connections_are_durable_wal_with_foreign_keys_and_readers_cannot_write() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::open(&dir.path().join("highchair.db"), 32).unwrap();
        let seen = db
            .read(|conn| {
                Ok([
                    pragma(conn, "journal_mode"),
                    pragma(conn, "synchronous"),
                    pragma(conn, "foreign_keys"),
                    pragma(conn, "query_only"),
                    pragma(conn, "user_version"),
                    pragma(conn, "page_size"),
                ])
            })
            .await
            .unwrap();
        assert_eq!(
            seen,
            ["wal", "2", "1", "1", &CURRENT.to_string(), "1024"].map(String::from)
        );
        let refused = db
            .read(|conn| conn.execute("INSERT INTO meta (name, value) VALUES ('x', x'00')", []))
            .await;
        assert!(refused.is_err(), "{refused:?}");

        let (mode, sync, keys) = db
            .write(|tx| {
                Ok::<_, WriteFailed>((
                    pragma(tx, "journal_mode"),
                    pragma(tx, "synchronous"),
                    pragma(tx, "foreign_keys"),
                ))
            })
            .await
            .unwrap();
        assert_eq!(
            (mode.as_str(), sync.as_str(), keys.as_str()),
            ("wal", "2", "1")
        );
    }
}
