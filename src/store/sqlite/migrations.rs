//! The schema's numbered steps. Step n takes `PRAGMA user_version` from n-1 to n in one
//! transaction with its version bump, so a crash leaves the database at a whole step. A
//! database from a newer release (a higher `user_version`) is refused, never opened.
//!
//! Until `serve` opens SQLite (issue 28), step 1 may still change: no database made with it
//! exists outside tests. From the release that opens it, steps are only ever appended.

use rusqlite::{Connection, TransactionBehavior};

/// Step n of the schema is `STEPS[n - 1]`.
const STEPS: &[&str] = &[
    // 1: a table per noun (docs/sqlite-store.md). Ids are 16-byte UUIDs, times are Unix
    // nanoseconds UTC (INTEGER), lists of short strings and documents are JSON text.
    "CREATE TABLE families (
        id BLOB PRIMARY KEY NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0
    ) WITHOUT ROWID;
    CREATE TABLE meta (
        name TEXT PRIMARY KEY NOT NULL,
        value BLOB NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE media (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        attached INTEGER NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX media_by_family ON media (family_id, attached, created_at);
    -- Uploads nothing uses yet, oldest first (removed after a day).
    CREATE INDEX media_unattached ON media (created_at) WHERE attached = 0;
    CREATE TABLE blob_graveyard (media_id BLOB PRIMARY KEY NOT NULL) WITHOUT ROWID;
    -- A photo's record gone (removed, or its meal removed): its files go after the commit.
    CREATE TRIGGER media_buried AFTER DELETE ON media BEGIN
        INSERT OR IGNORE INTO blob_graveyard (media_id) VALUES (old.id);
    END;

    CREATE TABLE users (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        session_epoch INTEGER NOT NULL,
        email TEXT NOT NULL UNIQUE,
        first_name TEXT NOT NULL,
        last_name TEXT NOT NULL,
        role TEXT NOT NULL,
        is_guest INTEGER NOT NULL,
        guest_children INTEGER,
        is_admin INTEGER NOT NULL,
        password_hash TEXT NOT NULL,
        avatar_id BLOB REFERENCES media (id),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        joined_family_at INTEGER
    );
    CREATE INDEX users_by_family ON users (family_id, created_at);
    -- Removing a photo checks that no account still names it.
    CREATE INDEX users_by_avatar ON users (avatar_id) WHERE avatar_id IS NOT NULL;
    CREATE TABLE sessions (
        token_hash BLOB PRIMARY KEY NOT NULL,
        user_id BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        epoch INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX sessions_by_user ON sessions (user_id);
    CREATE INDEX sessions_by_expiry ON sessions (expires_at);
    CREATE TABLE reset_tokens (
        token_hash BLOB PRIMARY KEY NOT NULL,
        user_id BLOB NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        epoch INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX reset_tokens_by_user ON reset_tokens (user_id);
    CREATE TABLE family_invites (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        token_hash BLOB NOT NULL UNIQUE,
        invited_by BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    );
    CREATE INDEX family_invites_by_family ON family_invites (family_id, created_at);

    CREATE TABLE children (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        name TEXT NOT NULL,
        age INTEGER,
        birth_month TEXT,
        allergies TEXT NOT NULL,
        dietary_restrictions TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        -- Deleted, its meals still being removed by a job (then the row goes).
        deleted INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX children_by_family ON children (family_id, created_at);
    CREATE TABLE meals (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        child_id BLOB NOT NULL REFERENCES children (id) ON DELETE CASCADE,
        meal_type TEXT NOT NULL,
        portion TEXT NOT NULL,
        mood TEXT NOT NULL,
        feedback TEXT,
        notes TEXT NOT NULL,
        photo_id BLOB REFERENCES media (id),
        meal_date INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        reaction TEXT NOT NULL,
        reaction_note TEXT NOT NULL,
        exposures TEXT NOT NULL
    );
    CREATE INDEX meals_by_time ON meals (family_id, meal_date, id);
    CREATE INDEX meals_by_child ON meals (child_id, meal_date, id);
    -- Removing a photo checks that no meal still names it.
    CREATE INDEX meals_by_photo ON meals (photo_id) WHERE photo_id IS NOT NULL;
    CREATE TRIGGER meal_photo_released AFTER DELETE ON meals WHEN old.photo_id IS NOT NULL BEGIN
        DELETE FROM media WHERE id = old.photo_id;
    END;
    -- A meal's foods in order; food_key (trimmed, lower case) answers the food history and
    -- the allergen questions of one child through the child's meals (meals_by_child). No
    -- index of its own: one would put every meal's foods on pages all over it, and each of
    -- those pages in the write-ahead log (three times the bytes written per meal).
    CREATE TABLE meal_foods (
        meal_id BLOB NOT NULL REFERENCES meals (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        food TEXT NOT NULL,
        food_key TEXT NOT NULL,
        PRIMARY KEY (meal_id, position)
    ) WITHOUT ROWID;

    CREATE TABLE recipes (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        created_by BLOB NOT NULL,
        source TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    -- Listed newest first: the ids (UUIDv7) in reverse, as the sled store listed them.
    CREATE INDEX recipes_by_family ON recipes (family_id, id);
    CREATE TABLE generations (
        id BLOB PRIMARY KEY NOT NULL,
        owner TEXT NOT NULL,
        family_id BLOB,
        request TEXT NOT NULL,
        state TEXT NOT NULL,
        finished INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    CREATE INDEX generations_unfinished ON generations (finished, id);
    CREATE TABLE grocery_lists (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );
    -- Listed newest first: the ids (UUIDv7) in reverse, as the sled store listed them.
    CREATE INDEX grocery_lists_by_family ON grocery_lists (family_id, id);
    CREATE TABLE grocery_items (
        list_id BLOB NOT NULL REFERENCES grocery_lists (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        id BLOB NOT NULL,
        name TEXT NOT NULL,
        quantity TEXT NOT NULL,
        category TEXT NOT NULL,
        checked INTEGER NOT NULL,
        checked_at INTEGER,
        PRIMARY KEY (list_id, position)
    ) WITHOUT ROWID;
    CREATE TABLE meal_plans (
        family_id BLOB NOT NULL,
        week TEXT NOT NULL,
        version INTEGER NOT NULL,
        entries TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (family_id, week)
    ) WITHOUT ROWID;

    CREATE TABLE co_parents (
        id BLOB PRIMARY KEY NOT NULL,
        family_id BLOB NOT NULL,
        version INTEGER NOT NULL,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        token BLOB NOT NULL UNIQUE,
        pin_hash TEXT,
        invited_by BLOB NOT NULL,
        invitation_sent INTEGER NOT NULL,
        accepted_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        failures_total INTEGER NOT NULL,
        last_failure_at INTEGER,
        session_epoch INTEGER NOT NULL
    );
    -- One co-parent per address per family; also the family's co-parents (at most 20).
    CREATE UNIQUE INDEX co_parents_by_email ON co_parents (family_id, email);
    CREATE TABLE share_sessions (
        token_hash BLOB PRIMARY KEY NOT NULL,
        co_parent_id BLOB NOT NULL REFERENCES co_parents (id) ON DELETE CASCADE,
        family_id BLOB NOT NULL,
        epoch INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX share_sessions_by_co_parent ON share_sessions (co_parent_id);
    CREATE INDEX share_sessions_by_expiry ON share_sessions (expires_at);

    CREATE TABLE contact_messages (
        id BLOB PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE jobs (
        id BLOB PRIMARY KEY NOT NULL,
        job TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE rate_limits (
        key BLOB PRIMARY KEY NOT NULL,
        tat INTEGER NOT NULL
    ) WITHOUT ROWID;",
    // 2: a family's settings (issue 30: the allergen list a child's introduction follows).
    // One row per family; a family without one has the defaults.
    "CREATE TABLE family_settings (
        family_id BLOB PRIMARY KEY NOT NULL,
        version INTEGER NOT NULL,
        allergen_list TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    ) WITHOUT ROWID;",
    // 3: recipes from anywhere (issue 31): the page an imported recipe came from ('' for
    // none), and its picture. A deleted family's photos go before its recipes: the recipe
    // then simply has none.
    "ALTER TABLE recipes ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
    ALTER TABLE recipes ADD COLUMN photo_id BLOB REFERENCES media (id) ON DELETE SET NULL;
    CREATE INDEX recipes_by_photo ON recipes (photo_id) WHERE photo_id IS NOT NULL;",
    // 4: languages (issue 32): the one a parent chose on the profile page (NULL: none, the
    // browser's).
    "ALTER TABLE users ADD COLUMN language TEXT;",
    // 5: a recipe job reads foods and words its answer in the language of the request that
    // queued it (issue 32); jobs queued before read in English.
    "ALTER TABLE generations ADD COLUMN language TEXT NOT NULL DEFAULT 'en';",
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
            .prepare("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name")
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
