//! The one write primitive on SQLite, and what every repository shares.
//!
//! A write is a closure run by the writer thread inside one IMMEDIATE transaction (its own
//! savepoint in a group commit, see `writer`). Through `Tx` it reads current rows, checks the
//! version the caller based its change on (stale: the current row comes back), writes the row
//! with its parts (a meal's foods), attaches and releases photos, and moves its family's
//! revision once per write. After the commit is durable the family revisions held in memory
//! move on and the change feed hears the changes, in commit order (the writer thread is the
//! order). Released photos' files are removed after that, unless a backup is copying photos.
//!
//! Updates are optimistic: the record is read, changed by the caller's closure (product rules
//! stay out of the writer thread), and written only if its version is still the one read.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rusqlite::types::Value;
use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

use super::{Database, WriteFailed};
use crate::domain::DomainError;
use crate::domain::change::{Change, ChangeId, FIRST_VERSION, FamilyChange, Kind};
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::blobs::Blobs;
use crate::store::{StoreError, WriteError};

/// Called with the changes of each write after it committed (the change feed).
pub type Hook = Box<dyn Fn(&[Change]) + Send + Sync>;

/// How often an update without an expected version is tried again when another write changed
/// the record between its read and its write.
const RETRIES: usize = 16;

/// A family-owned, versioned record kept in one table (its parts in others).
pub(crate) trait Row: Clone + Send + Sync + 'static {
    const TABLE: &'static str;
    const KIND: Kind;
    /// The column that names the record within its family ("id"; a week of the meal plan:
    /// "week").
    const KEY: &'static str = "id";
    /// The columns `values` gives, in order.
    const COLUMNS: &'static [&'static str];
    /// What `from_row` reads, in order: columns of the table (named `t`) or expressions.
    const SELECT: &'static str;
    /// Rows that count as existing (a meal of a child being deleted does not).
    const VISIBLE: &'static str = "1";

    fn key(&self) -> Value;
    fn family(&self) -> FamilyId;
    fn change_id(&self) -> ChangeId;
    fn version(&self) -> u64;
    fn set_version(&mut self, version: u64);
    fn values(&self) -> Vec<Value>;
    fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Self>;
    /// Photos the record uses: attached when they appear, released when they go.
    fn photos(&self) -> Vec<MediaId> {
        Vec::new()
    }
    /// Whether the records it refers to exist (a meal's child, in its family).
    fn parents_exist(&self, _conn: &Connection) -> rusqlite::Result<bool> {
        Ok(true)
    }
    /// Writes the rows of other tables that belong to this one (after it, replacing any).
    fn write_parts(&self, _conn: &Connection) -> rusqlite::Result<()> {
        Ok(())
    }
}

/// The [`Row`] methods of a record named by its own `id`, with a `version` and its family in
/// the field given (`row_identity!(family)`).
macro_rules! row_identity {
    ($family:ident) => {
        fn key(&self) -> rusqlite::types::Value {
            self.id.into()
        }
        fn family(&self) -> $crate::domain::ids::FamilyId {
            self.$family
        }
        fn change_id(&self) -> $crate::domain::change::ChangeId {
            self.id.as_uuid().into()
        }
        fn version(&self) -> u64 {
            self.version
        }
        fn set_version(&mut self, version: u64) {
            self.version = version;
        }
    };
}
pub(crate) use row_identity;

/// Why a write was undone. Nothing of it was kept.
#[derive(Debug)]
pub(crate) enum Abort {
    NotFound,
    /// The version the change was based on is not the current one; the current record.
    Stale(Box<dyn Any + Send>),
    PhotoMissing,
    PhotoInUse,
    MissingParent,
    /// A unique value (an id, an e-mail address, a token) is taken.
    Exists,
    Rule(DomainError),
    Store(StoreError),
}

impl From<rusqlite::Error> for Abort {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error() {
            Some(err) if err.code == ErrorCode::ConstraintViolation => match err.extended_code {
                rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY => Abort::MissingParent,
                rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                | rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY => Abort::Exists,
                _ => Abort::Store(StoreError::Sqlite(e)),
            },
            _ => Abort::Store(StoreError::Sqlite(e)),
        }
    }
}

impl From<WriteFailed> for Abort {
    fn from(e: WriteFailed) -> Self {
        Abort::Store(StoreError::Write(e))
    }
}

impl From<StoreError> for Abort {
    fn from(e: StoreError) -> Self {
        Abort::Store(e)
    }
}

impl From<DomainError> for Abort {
    fn from(e: DomainError) -> Self {
        Abort::Rule(e)
    }
}

impl<R: 'static> From<Abort> for WriteError<R> {
    fn from(abort: Abort) -> Self {
        match abort {
            Abort::NotFound => WriteError::NotFound,
            Abort::Stale(current) => match current.downcast::<R>() {
                Ok(current) => WriteError::Stale(current),
                Err(_) => WriteError::Store(StoreError::Corrupt(
                    "a write found another kind of record".into(),
                )),
            },
            Abort::PhotoMissing => WriteError::PhotoMissing,
            Abort::PhotoInUse => WriteError::PhotoInUse,
            Abort::MissingParent => WriteError::MissingParent,
            Abort::Exists => WriteError::Store(StoreError::Corrupt("the record exists".into())),
            Abort::Rule(e) => WriteError::Rule(e),
            Abort::Store(e) => WriteError::Store(e),
        }
    }
}

impl From<Abort> for StoreError {
    fn from(abort: Abort) -> Self {
        match abort {
            Abort::Store(e) => e,
            other => StoreError::Corrupt(format!("write refused: {other:?}")),
        }
    }
}

/// A family's revision and whether it was deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FamilyState {
    pub revision: u64,
    pub deleted: bool,
}

/// What a committed write leaves for after its commit.
#[derive(Default)]
pub(crate) struct Done {
    changes: Vec<Change>,
    families: Vec<(FamilyId, FamilyState)>,
    buried: Vec<MediaId>,
}

/// One write, on the writer thread, inside its savepoint.
pub(crate) struct Tx<'c> {
    pub(crate) conn: &'c Connection,
    done: Done,
}

impl<'c> Tx<'c> {
    fn new(conn: &'c Connection) -> Self {
        Tx {
            conn,
            done: Done::default(),
        }
    }

    fn family_state(&self, family: FamilyId) -> Result<FamilyState, Abort> {
        if let Some((_, state)) = self.done.families.iter().find(|(f, _)| *f == family) {
            return Ok(*state);
        }
        Ok(self
            .conn
            .prepare_cached("SELECT revision, deleted FROM families WHERE id = ?1")?
            .query_row([family], |r| {
                Ok(FamilyState {
                    revision: super::values::get_u64(r, 0)?,
                    deleted: r.get(1)?,
                })
            })
            .optional()?
            .unwrap_or_default())
    }

    fn set_family_state(&mut self, family: FamilyId, state: FamilyState) -> Result<(), Abort> {
        self.conn
            .prepare_cached(
                "INSERT INTO families (id, revision, deleted) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET revision = ?2, deleted = ?3",
            )?
            .execute(params![
                family,
                super::values::int(state.revision),
                state.deleted
            ])?;
        match self.done.families.iter_mut().find(|(f, _)| *f == family) {
            Some((_, known)) => *known = state,
            None => self.done.families.push((family, state)),
        }
        Ok(())
    }

    /// Refuses writes for a deleted family (a request that began before the account was
    /// deleted must not leave records behind the removal job).
    pub(crate) fn check_family(&self, family: FamilyId) -> Result<(), Abort> {
        if self.family_state(family)?.deleted {
            return Err(Abort::NotFound);
        }
        Ok(())
    }

    /// Marks a family deleted: nothing of it can be written again. Its revision is kept, so
    /// no answer cached under one of its revisions is ever reused.
    pub(crate) fn mark_family_deleted(&mut self, family: FamilyId) -> Result<(), Abort> {
        let state = self.family_state(family)?;
        self.set_family_state(
            family,
            FamilyState {
                deleted: true,
                ..state
            },
        )
    }

    /// Moves the family's revision on (once per write) and records the change.
    pub(crate) fn announce(
        &mut self,
        family: FamilyId,
        kind: Kind,
        id: impl Into<ChangeId>,
    ) -> Result<u64, Abort> {
        let moved = self.done.changes.iter().any(|c| match c {
            Change::Family(c) => c.family == family,
            _ => false,
        });
        let mut state = self.family_state(family)?;
        if state.deleted {
            return Err(Abort::NotFound);
        }
        if !moved {
            state.revision += 1;
            self.set_family_state(family, state)?;
        }
        self.done.changes.push(Change::Family(FamilyChange {
            family,
            kind,
            id: id.into(),
            revision: state.revision,
        }));
        Ok(state.revision)
    }

    /// Records a change that is not a family's (sessions ended, a job queued).
    pub(crate) fn note(&mut self, change: Change) {
        self.done.changes.push(change);
    }

    /// The family's record (`None`: missing, or not visible).
    pub(crate) fn get<R: Row>(
        &self,
        family: FamilyId,
        key: &Value,
    ) -> Result<Option<R>, rusqlite::Error> {
        get_row(self.conn, family, key)
    }

    /// Creates a record at version 1: parents checked, photos attached, parts written.
    pub(crate) fn insert<R: Row>(&mut self, record: &R) -> Result<R, Abort> {
        let mut record = record.clone();
        record.set_version(FIRST_VERSION);
        self.check_family(record.family())?;
        if !record.parents_exist(self.conn)? {
            return Err(Abort::MissingParent);
        }
        for photo in record.photos() {
            self.attach_photo(record.family(), photo)?;
        }
        let sql = format!(
            "INSERT INTO {} ({}) VALUES ({})",
            R::TABLE,
            R::COLUMNS.join(", "),
            placeholders(R::COLUMNS.len())
        );
        self.conn
            .prepare_cached(&sql)?
            .execute(rusqlite::params_from_iter(record.values()))?;
        record.write_parts(self.conn)?;
        self.announce(record.family(), R::KIND, record.change_id())?;
        Ok(record)
    }

    /// Writes `new` as the family's record at `key` if that is at version `expected`, 0 meaning
    /// there is none yet (then `new` is created at version 1); otherwise nothing is written and
    /// the answer is `Stale` with the record as it is (`absent()` when there is none). For
    /// records a family has one of by key, made on their first save (a week of the plan, the
    /// family's settings).
    pub(crate) fn save_at<R: Row>(
        &mut self,
        key: &Value,
        expected: u64,
        new: R,
        absent: impl FnOnce() -> R,
    ) -> Result<R, Abort> {
        match self.get::<R>(new.family(), key)? {
            None if expected == 0 => self.insert(&new),
            None => Err(Abort::Stale(Box::new(absent()))),
            Some(current) if current.version() != expected => Err(Abort::Stale(Box::new(current))),
            Some(current) => self.replace(&current, new),
        }
    }

    /// Writes `new` over the record `base` was read as. A record that changed since (another
    /// version) is not written: `Stale` with the current one. Photos follow the difference.
    pub(crate) fn replace<R: Row>(&mut self, base: &R, mut new: R) -> Result<R, Abort> {
        let key = base.key();
        let Some(current) = self.get::<R>(base.family(), &key)? else {
            return Err(Abort::NotFound);
        };
        if current.version() != base.version() {
            return Err(Abort::Stale(Box::new(current)));
        }
        new.set_version(current.version() + 1);
        if !new.parents_exist(self.conn)? {
            return Err(Abort::MissingParent);
        }
        let (old_photos, new_photos) = (current.photos(), new.photos());
        for photo in new_photos.iter().filter(|p| !old_photos.contains(p)) {
            self.attach_photo(new.family(), *photo)?;
        }
        // Only the columns this change made differ from what it was based on: a quiet write
        // that landed meanwhile (last seen, a stronger hash) is not undone.
        let (before, after) = (base.values(), new.values());
        let mut values = Vec::with_capacity(R::COLUMNS.len() + 2);
        let mut sets = Vec::new();
        for ((column, was), now) in R::COLUMNS.iter().zip(before).zip(after) {
            if was != now || *column == "version" {
                values.push(now);
                sets.push(format!("{column} = ?{}", values.len()));
            }
        }
        values.push(current.family().into());
        values.push(key);
        let sql = format!(
            "UPDATE {} SET {} WHERE family_id = ?{} AND {} = ?{}",
            R::TABLE,
            sets.join(", "),
            values.len() - 1,
            R::KEY,
            values.len()
        );
        self.conn
            .prepare_cached(&sql)?
            .execute(rusqlite::params_from_iter(values))?;
        new.write_parts(self.conn)?;
        for photo in old_photos.iter().filter(|p| !new_photos.contains(p)) {
            self.release_photo(current.family(), *photo)?;
        }
        self.announce(new.family(), R::KIND, new.change_id())?;
        Ok(new)
    }

    /// Removes a visible record with its parts and photos. `None` when there is none.
    pub(crate) fn delete<R: Row>(
        &mut self,
        family: FamilyId,
        key: &Value,
        announce: bool,
    ) -> Result<Option<R>, Abort> {
        let Some(record) = self.get::<R>(family, key)? else {
            return Ok(None);
        };
        self.remove_row::<R>(family, key)?;
        for photo in record.photos() {
            self.release_photo(family, photo)?;
        }
        if announce {
            self.announce(family, R::KIND, record.change_id())?;
        }
        Ok(Some(record))
    }

    /// Removes a row as it is, visible or not (its parts go by cascade).
    pub(crate) fn remove_row<R: Row>(
        &mut self,
        family: FamilyId,
        key: &Value,
    ) -> Result<bool, Abort> {
        let sql = format!(
            "DELETE FROM {} WHERE family_id = ?1 AND {} = ?2",
            R::TABLE,
            R::KEY
        );
        Ok(self
            .conn
            .prepare_cached(&sql)?
            .execute(params![family, key])?
            > 0)
    }

    /// Marks a family's upload as used; unknown or already used photos refuse the write.
    pub(crate) fn attach_photo(&mut self, family: FamilyId, id: MediaId) -> Result<(), Abort> {
        let attached = self
            .conn
            .prepare_cached(
                "UPDATE media SET attached = 1 WHERE id = ?1 AND family_id = ?2 AND attached = 0",
            )?
            .execute(params![id, family])?;
        if attached == 1 {
            return Ok(());
        }
        let exists = self
            .conn
            .prepare_cached("SELECT 1 FROM media WHERE id = ?1 AND family_id = ?2")?
            .exists(params![id, family])?;
        Err(if exists {
            Abort::PhotoInUse
        } else {
            Abort::PhotoMissing
        })
    }

    /// Removes a family's photo: its row now, its files once this is committed.
    pub(crate) fn release_photo(&mut self, family: FamilyId, id: MediaId) -> Result<(), Abort> {
        self.conn
            .prepare_cached("DELETE FROM media WHERE id = ?1 AND family_id = ?2")?
            .execute(params![id, family])?;
        // Removed here or by a trigger (its meal's removal): either way in the graveyard now.
        // A row still there (another family's) keeps its files.
        let kept = self
            .conn
            .prepare_cached("SELECT 1 FROM media WHERE id = ?1")?
            .exists([id])?;
        if !kept {
            self.done.buried.push(id);
        }
        Ok(())
    }
}

/// A record of the family by its key, if visible.
pub(crate) fn get_row<R: Row>(
    conn: &Connection,
    family: FamilyId,
    key: &Value,
) -> Result<Option<R>, rusqlite::Error> {
    let sql = format!(
        "SELECT {} FROM {} t WHERE t.family_id = ?1 AND t.{} = ?2 AND {}",
        R::SELECT,
        R::TABLE,
        R::KEY,
        R::VISIBLE
    );
    conn.prepare_cached(&sql)?
        .query_row(params![family, key], R::from_row)
        .optional()
}

/// Runs a prepared query and reads every row with `R::from_row`.
pub(crate) fn rows<R: Row>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<R>, rusqlite::Error> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, R::from_row)?;
    rows.collect()
}

fn placeholders(n: usize) -> String {
    (1..=n)
        .map(|i| format!("?{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What every repository shares: the database, the family revisions, the change feed's hook
/// and the photo files.
pub(crate) struct Core {
    pub(crate) db: Database,
    families: Mutex<HashMap<FamilyId, FamilyState>>,
    hook: OnceLock<Hook>,
    pub(crate) blobs: Blobs,
    /// Backups copying photos right now. While any does, no photo file is removed (they wait
    /// in `blob_graveyard`): every photo of the snapshot stays readable.
    fence: AtomicUsize,
}

/// Repositories hold the core through this.
pub(crate) type Shared = Arc<Core>;

impl Core {
    /// Takes over an opened database: reads every family's revision.
    pub(crate) fn new(db: Database, blobs: Blobs) -> Result<Core, StoreError> {
        let families = db.read_blocking(|conn| {
            let mut stmt = conn.prepare("SELECT id, revision, deleted FROM families")?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    r.get::<_, FamilyId>(0)?,
                    FamilyState {
                        revision: super::values::get_u64(r, 1)?,
                        deleted: r.get(2)?,
                    },
                ))
            })?;
            rows.collect::<Result<HashMap<_, _>, _>>()
        })?;
        Ok(Core {
            db,
            families: Mutex::new(families),
            hook: OnceLock::new(),
            blobs,
            fence: AtomicUsize::new(0),
        })
    }

    /// Sets the function that hears about every committed change (once).
    pub(crate) fn on_change(&self, hook: Hook) {
        let _ = self.hook.set(hook);
    }

    /// The family's current revision (0 before its first write). Held in memory: no query.
    pub(crate) fn revision(&self, family: FamilyId) -> u64 {
        self.lock_families()
            .get(&family)
            .map_or(0, |state| state.revision)
    }

    /// Whether the family was deleted (its records are being removed).
    #[cfg(test)]
    pub(crate) fn is_deleted(&self, family: FamilyId) -> bool {
        self.lock_families()
            .get(&family)
            .is_some_and(|state| state.deleted)
    }

    fn lock_families(&self) -> std::sync::MutexGuard<'_, HashMap<FamilyId, FamilyState>> {
        self.families
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `write` as one write; returns once it is durable and announced.
    pub(crate) async fn commit<T, F>(self: &Arc<Self>, write: F) -> Result<T, Abort>
    where
        T: Send + 'static,
        F: FnOnce(&mut Tx<'_>) -> Result<T, Abort> + Send + 'static,
    {
        // Weak: a write whose caller went away (a task stopped at shutdown) must not keep the
        // store open from the writer's queue, or the last handle would be let go on the writer
        // thread and nobody would wait for the database to close.
        let core = Arc::downgrade(self);
        let (value, done) = self
            .db
            .write_then(
                move |conn| {
                    let mut tx = Tx::new(conn);
                    let value = write(&mut tx)?;
                    Ok::<_, Abort>((value, tx.done))
                },
                move |(_, done): &(T, Done)| {
                    if let Some(core) = core.upgrade() {
                        core.committed(done);
                    }
                },
            )
            .await?;
        if !done.buried.is_empty() {
            self.sweep(done.buried).await;
        }
        Ok(value)
    }

    /// On the writer thread, right after the commit, in commit order.
    fn committed(&self, done: &Done) {
        if !done.families.is_empty() {
            let mut families = self.lock_families();
            for (family, state) in &done.families {
                families.insert(*family, *state);
            }
        }
        if let Some(hook) = self.hook.get()
            && !done.changes.is_empty()
        {
            hook(&done.changes);
        }
    }

    /// Removes the files of photos whose rows are gone (committed), then their graveyard
    /// entries. Not while a backup copies photos: the next sweep (at the backup's end, or the
    /// next start) does it. Removing files twice is harmless.
    pub(crate) async fn sweep(self: &Arc<Self>, buried: Vec<MediaId>) {
        if self.is_fenced() {
            return;
        }
        if let Err(e) = self.clear(buried).await {
            tracing::warn!(error = %e, "removed photos' files are left for the next sweep");
        }
    }

    async fn clear(self: &Arc<Self>, buried: Vec<MediaId>) -> Result<(), StoreError> {
        let core = Arc::clone(self);
        let ids = buried.clone();
        tokio::task::spawn_blocking(move || ids.iter().try_for_each(|id| core.blobs.remove(*id)))
            .await
            .map_err(|e| StoreError::Corrupt(e.to_string()))?
            .map_err(|e| StoreError::Corrupt(format!("cannot remove a photo's files: {e}")))?;
        // Not `commit`: nothing to announce, and no sweep after it.
        self.db
            .write(move |conn| {
                let mut stmt =
                    conn.prepare_cached("DELETE FROM blob_graveyard WHERE media_id = ?1")?;
                for id in &buried {
                    stmt.execute([id])?;
                }
                Ok::<_, StoreError>(())
            })
            .await
    }

    /// Sweeps everything waiting (at start, and when the last backup ends).
    pub(crate) async fn sweep_all(self: &Arc<Self>) -> Result<usize, StoreError> {
        let mut removed = 0;
        loop {
            let waiting: Vec<MediaId> = self
                .read(|conn| {
                    let mut stmt =
                        conn.prepare_cached("SELECT media_id FROM blob_graveyard LIMIT 100")?;
                    let ids = stmt.query_map([], |r| r.get(0))?;
                    ids.collect()
                })
                .await?;
            if waiting.is_empty() || self.is_fenced() {
                return Ok(removed);
            }
            removed += waiting.len();
            self.clear(waiting).await?;
        }
    }

    /// Raises the photo fence (while a backup copies photos).
    pub(crate) fn raise_fence(&self) {
        self.fence.fetch_add(1, Ordering::SeqCst);
    }

    /// Lowers the photo fence; `true` when no backup holds it any more.
    pub(crate) fn lower_fence(&self) -> bool {
        self.fence.fetch_sub(1, Ordering::SeqCst) == 1
    }

    pub(crate) fn is_fenced(&self) -> bool {
        self.fence.load(Ordering::SeqCst) > 0
    }

    /// Runs `query` on a read connection, off the async workers.
    pub(crate) async fn read<T, F>(&self, query: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    {
        Ok(self.db.read(query).await?)
    }

    /// The family's record by its key (`None`: missing, another family's, or not visible).
    pub(crate) async fn get<R: Row>(
        &self,
        family: FamilyId,
        key: Value,
    ) -> Result<Option<R>, StoreError> {
        self.read(move |conn| get_row(conn, family, &key)).await
    }

    /// Stores a new record (version 1), durable when it returns.
    pub(crate) async fn insert<R: Row>(self: &Arc<Self>, record: &R) -> Result<R, WriteError<R>> {
        let record = record.clone();
        Ok(self.commit(move |tx| tx.insert(&record)).await?)
    }

    /// Reads the record, lets `change` change it and writes it if nobody else did meanwhile.
    /// With `expected`, another current version answers `Stale` with the current record;
    /// without, a write that came in between means trying again on the newer record.
    pub(crate) async fn update<R: Row>(
        self: &Arc<Self>,
        family: FamilyId,
        key: Value,
        expected: Option<u64>,
        change: &(dyn Fn(&mut R) -> Result<(), DomainError> + Sync),
    ) -> Result<R, WriteError<R>> {
        for _ in 0..RETRIES {
            let Some(current) = self.get::<R>(family, key.clone()).await? else {
                return Err(WriteError::NotFound);
            };
            if expected.is_some_and(|v| v != current.version()) {
                return Err(WriteError::Stale(Box::new(current)));
            }
            let mut new = current.clone();
            change(&mut new)?;
            match self.commit(move |tx| tx.replace(&current, new)).await {
                Err(Abort::Stale(_)) if expected.is_none() => continue,
                done => return Ok(done?),
            }
        }
        Err(WriteError::Store(StoreError::Corrupt(
            "the record kept changing while it was being written".into(),
        )))
    }

    /// Removes the family's record (with its parts and photos) and announces it.
    pub(crate) async fn delete<R: Row>(
        self: &Arc<Self>,
        family: FamilyId,
        key: Value,
    ) -> Result<Option<R>, StoreError> {
        Ok(self
            .commit(move |tx| tx.delete::<R>(family, &key, true))
            .await?)
    }
}
