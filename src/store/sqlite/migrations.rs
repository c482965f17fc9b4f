//! The schema's numbered steps. Step n takes `PRAGMA user_version` from n-1 to n in one
//! transaction with its version bump, so a crash leaves the database at a whole step. A
//! database from a newer release (a higher `user_version`) is refused, never opened.
//!
//! Until `serve` opens SQLite (issue 28), step 1 may still change: no database made with it
//! exists outside tests. From the release that opens it, steps are only ever appended.

use rusqlite::{Connection, TransactionBehavior};

/// Step n of the schema is `STEPS[n - 1]`.
const STEPS: &[&str] = &[
    // 1: what the write primitive keeps for every family, and the store's own values.
    "CREATE TABLE families (
        id BLOB PRIMARY KEY NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE TABLE meta (
        name TEXT PRIMARY KEY NOT NULL,
        value BLOB NOT NULL
    ) WITHOUT ROWID;",
];

/// The schema version this build writes.
pub const CURRENT: u32 = STEPS.len() as u32;

#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    #[error("schema {found} is newer than this version reads (up to {supported})")]
    TooNew { found: u32, supported: u32 },
    #[error("schema step {step} failed: {source}")]
    Step { step: u32, source: rusqlite::Error },
    #[error("cannot read the schema version: {0}")]
    Read(#[from] rusqlite::Error),
}

/// Brings the database up to [`CURRENT`]; returns the version it found.
pub fn run(conn: &mut Connection) -> Result<u32, MigrateError> {
    run_to(conn, CURRENT)
}

/// Brings the database up to `target` (tests stop at each earlier version).
fn run_to(conn: &mut Connection, target: u32) -> Result<u32, MigrateError> {
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > CURRENT {
        return Err(MigrateError::TooNew {
            found,
            supported: CURRENT,
        });
    }
    for step in found + 1..=target {
        let failed = |source| MigrateError::Step { step, source };
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(failed)?;
        tx.execute_batch(STEPS[step as usize - 1]).map_err(failed)?;
        tx.pragma_update(None, "user_version", step)
            .map_err(failed)?;
        tx.commit().map_err(failed)?;
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(conn: &Connection) -> u32 {
        conn.pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap()
    }

    /// Every table and index, as SQLite describes them: two databases with the same schema
    /// give the same list.
    fn schema(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT type || ' ' || name || ': ' || sql FROM sqlite_schema ORDER BY name")
            .unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn every_earlier_version_migrates_to_the_same_schema_as_a_new_database() {
        let dir = tempfile::tempdir().unwrap();
        let mut fresh = Connection::open(dir.path().join("fresh.db")).unwrap();
        assert_eq!(run(&mut fresh).unwrap(), 0);
        assert_eq!(version(&fresh), CURRENT);
        let expected = schema(&fresh);
        assert!(!expected.is_empty());

        for start in 0..CURRENT {
            let path = dir.path().join(format!("from-{start}.db"));
            let mut conn = Connection::open(&path).unwrap();
            run_to(&mut conn, start).unwrap();
            assert_eq!(version(&conn), start);
            drop(conn);
            let mut conn = Connection::open(&path).unwrap();
            assert_eq!(run(&mut conn).unwrap(), start);
            assert_eq!(version(&conn), CURRENT, "from {start}");
            assert_eq!(schema(&conn), expected, "from {start}");
            // Running again changes nothing.
            assert_eq!(run(&mut conn).unwrap(), CURRENT);
        }
    }

    #[test]
    fn a_database_from_a_newer_release_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = Connection::open(dir.path().join("new.db")).unwrap();
        conn.pragma_update(None, "user_version", CURRENT + 1)
            .unwrap();
        match run(&mut conn) {
            Err(MigrateError::TooNew { found, supported }) => {
                assert_eq!((found, supported), (CURRENT + 1, CURRENT));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(version(&conn), CURRENT + 1);
        assert!(schema(&conn).is_empty());
    }

    #[test]
    fn a_failing_step_leaves_the_database_at_the_step_before() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = Connection::open(dir.path().join("half.db")).unwrap();
        // Something in the way of step 1's first table: the step fails as a whole.
        conn.execute_batch("CREATE TABLE families (x)").unwrap();
        assert!(matches!(
            run(&mut conn),
            Err(MigrateError::Step { step: 1, .. })
        ));
        assert_eq!(version(&conn), 0);
        assert_eq!(schema(&conn), ["table families: CREATE TABLE families (x)"]);
    }
}
