//! The one write primitive. Every write of a record runs inside one sled transaction over the
//! store's trees: read the current record, change it with a closure, move its index entries,
//! attach or remove its photos, +1 on its `version` and on its family's `revision`, all or
//! nothing. The changes are announced (in revision order) after the commit.
//!
//! sled 0.34 runs a transaction's closure under a process-wide write lock, so transactions are
//! serialised against each other and against every other write: a read inside the closure sees
//! the latest committed data, and nothing can slip in between read and write.

use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use sled::Transactional;
use sled::transaction::{
    ConflictableTransactionError, TransactionError, TransactionalTree, UnabortableTransactionError,
};

use super::flusher::Flusher;
use super::{Record, StoreError, keys};
use crate::domain::DomainError;
use crate::domain::change::{Change, ChangeId, FamilyChange, Kind};
use crate::domain::ids::{FamilyId, MediaId};

/// Every tree of the store, in one fixed order (the index into `Core::trees`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum TreeId {
    Users,
    UsersByEmail,
    Sessions,
    SessionsByUser,
    ResetTokens,
    Children,
    Meals,
    MealsByTime,
    MealsByChild,
    Media,
    Families,
    Jobs,
    UsersByFamily,
    FamilyInvites,
    InviteTokens,
    Recipes,
    Generations,
    GroceryLists,
    MealPlans,
    CoParents,
    CoParentTokens,
    ShareSessions,
    /// Photos whose record is gone and whose files are still to be removed (after the commit
    /// is on disk, and not while a backup copies photos). Keyed like the photo's record.
    BlobGraveyard,
}

impl TreeId {
    pub(crate) const ALL: [TreeId; 23] = [
        TreeId::Users,
        TreeId::UsersByEmail,
        TreeId::Sessions,
        TreeId::SessionsByUser,
        TreeId::ResetTokens,
        TreeId::Children,
        TreeId::Meals,
        TreeId::MealsByTime,
        TreeId::MealsByChild,
        TreeId::Media,
        TreeId::Families,
        TreeId::Jobs,
        TreeId::UsersByFamily,
        TreeId::FamilyInvites,
        TreeId::InviteTokens,
        TreeId::Recipes,
        TreeId::Generations,
        TreeId::GroceryLists,
        TreeId::MealPlans,
        TreeId::CoParents,
        TreeId::CoParentTokens,
        TreeId::ShareSessions,
        TreeId::BlobGraveyard,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            TreeId::Users => "users",
            TreeId::UsersByEmail => "users_by_email",
            TreeId::Sessions => "sessions",
            TreeId::SessionsByUser => "sessions_by_user",
            TreeId::ResetTokens => "reset_tokens",
            TreeId::Children => "children",
            TreeId::Meals => "meals",
            TreeId::MealsByTime => "meals_by_time",
            TreeId::MealsByChild => "meals_by_child",
            TreeId::Media => "media",
            TreeId::Families => "families",
            TreeId::Jobs => "jobs",
            TreeId::UsersByFamily => "users_by_family",
            TreeId::FamilyInvites => "family_invites",
            TreeId::InviteTokens => "invite_tokens",
            TreeId::Recipes => "recipes",
            TreeId::Generations => "generations",
            TreeId::GroceryLists => "grocery_lists",
            TreeId::MealPlans => "meal_plans",
            TreeId::CoParents => "co_parents",
            TreeId::CoParentTokens => "co_parent_tokens",
            TreeId::ShareSessions => "share_sessions",
            TreeId::BlobGraveyard => "blob_graveyard",
        }
    }
}

/// Called with the changes of each transaction after it committed (the change feed).
pub type Hook = Box<dyn Fn(&[Change]) + Send + Sync>;

/// What every repository shares: the trees, the write order and the flusher.
pub(crate) struct Core {
    pub(crate) db: sled::Db,
    trees: Vec<sled::Tree>,
    /// Held from the start of a transaction until its changes are announced, so subscribers
    /// see revisions in order.
    order: Mutex<()>,
    /// Backups copying photos right now. While any does, no photo file is removed (they wait
    /// in `BlobGraveyard`): every photo of the snapshot stays readable.
    fence: AtomicUsize,
    /// The photo files.
    pub(crate) blobs: super::blobs::Blobs,
    hook: OnceLock<Hook>,
    flusher: Flusher,
}

/// A record kept by the write primitive.
pub(crate) trait Entity: Record + Clone {
    const TREE: TreeId;
    const KIND: Kind;
    /// The record's key in `TREE`.
    fn key(&self) -> Vec<u8>;
    /// The family whose revision moves when this record changes.
    fn family(&self) -> FamilyId;
    /// What the change feed names: the record's id (a meal plan: its week).
    fn id(&self) -> ChangeId;
    fn version(&self) -> u64;
    fn set_version(&mut self, version: u64);
    /// Secondary index entries `(tree, key, value)`, moved with the record.
    fn index(&self) -> Vec<(TreeId, Vec<u8>, Vec<u8>)> {
        Vec::new()
    }
    /// Photos this record uses: attached when they appear, removed when they go.
    fn photos(&self) -> Vec<MediaId> {
        Vec::new()
    }
    /// Records that must exist for this one to be stored (a meal's child).
    fn requires(&self) -> Vec<(TreeId, Vec<u8>)> {
        Vec::new()
    }
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

/// The reasons a transaction gives up (no record types, so one enum serves every repository).
#[derive(Debug)]
pub(crate) enum Abort {
    NotFound,
    /// The current record's stored bytes.
    Stale(sled::IVec),
    PhotoMissing,
    PhotoInUse,
    MissingParent,
    Rule(DomainError),
    Corrupt(String),
    /// A repository-specific refusal (e-mail taken, first account already claimed).
    Other(&'static str),
}

pub(crate) type TxResult<T> = Result<T, ConflictableTransactionError<Abort>>;

pub(crate) fn abort<T>(reason: Abort) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(reason))
}

/// A rule broken inside a transaction (use with `map_err` and `?`).
pub(crate) fn broken(e: DomainError) -> ConflictableTransactionError<Abort> {
    ConflictableTransactionError::Abort(Abort::Rule(e))
}

/// A stored value that does not decode, inside a transaction.
pub(crate) fn corrupt(e: StoreError) -> ConflictableTransactionError<Abort> {
    ConflictableTransactionError::Abort(Abort::Corrupt(e.to_string()))
}

impl<R: Record> WriteError<R> {
    pub(crate) fn from_abort(abort: Abort) -> Self {
        match abort {
            Abort::NotFound => WriteError::NotFound,
            Abort::Stale(raw) => match R::decode(&raw) {
                Ok(current) => WriteError::Stale(Box::new(current)),
                Err(e) => WriteError::Store(e),
            },
            Abort::PhotoMissing => WriteError::PhotoMissing,
            Abort::PhotoInUse => WriteError::PhotoInUse,
            Abort::MissingParent => WriteError::MissingParent,
            Abort::Rule(e) => WriteError::Rule(e),
            Abort::Corrupt(e) => WriteError::Store(StoreError::Corrupt(e)),
            Abort::Other(what) => WriteError::Store(StoreError::Corrupt(what.into())),
        }
    }
}

impl From<TransactionError<Abort>> for StoreError {
    fn from(err: TransactionError<Abort>) -> Self {
        match err {
            TransactionError::Storage(e) => StoreError::Sled(e),
            TransactionError::Abort(a) => StoreError::Corrupt(format!("write refused: {a:?}")),
        }
    }
}

/// One attempt of a transaction: typed access to every tree, and the changes it made.
pub(crate) struct Tx<'a> {
    trees: &'a [TransactionalTree],
    changes: RefCell<Vec<Change>>,
    /// Families whose revision this transaction already moved, with the new revision.
    revised: RefCell<Vec<(FamilyId, u64)>>,
}

impl<'a> Tx<'a> {
    fn new(trees: &'a [TransactionalTree]) -> Self {
        Tx {
            trees,
            changes: RefCell::new(Vec::new()),
            revised: RefCell::new(Vec::new()),
        }
    }

    pub(crate) fn tree(&self, id: TreeId) -> &TransactionalTree {
        &self.trees[id as usize]
    }

    pub(crate) fn get_raw(&self, id: TreeId, key: &[u8]) -> TxResult<Option<sled::IVec>> {
        Ok(self.tree(id).get(key)?)
    }

    pub(crate) fn insert_raw(&self, id: TreeId, key: &[u8], value: &[u8]) -> TxResult<()> {
        self.tree(id).insert(key, value)?;
        Ok(())
    }

    pub(crate) fn remove_raw(&self, id: TreeId, key: &[u8]) -> TxResult<Option<sled::IVec>> {
        Ok(self.tree(id).remove(key)?)
    }

    pub(crate) fn exists(&self, id: TreeId, key: &[u8]) -> TxResult<bool> {
        Ok(self.tree(id).get(key)?.is_some())
    }

    pub(crate) fn get<R: Entity>(&self, key: &[u8]) -> TxResult<Option<R>> {
        match self.get_raw(R::TREE, key)? {
            Some(raw) => R::decode(&raw).map(Some).map_err(corrupt),
            None => Ok(None),
        }
    }

    /// Writes a record as it is (no version, revision or index changes): for field-only writes.
    pub(crate) fn put_quietly<R: Entity>(&self, record: &R) -> TxResult<()> {
        let value = record.encode().map_err(corrupt)?;
        self.insert_raw(R::TREE, &record.key(), &value)
    }

    /// The family's revision and whether it was deleted (`None`: never written).
    fn family_state(&self, family: FamilyId) -> TxResult<Option<FamilyState>> {
        Ok(self
            .get_raw(TreeId::Families, family.as_bytes())?
            .map(|v| FamilyState::decode(&v)))
    }

    /// Refuses writes for a deleted family (a request that began before the account was
    /// deleted must not leave records behind the removal job).
    pub(crate) fn check_family(&self, family: FamilyId) -> TxResult<()> {
        match self.family_state(family)? {
            Some(state) if state.deleted => abort(Abort::NotFound),
            _ => Ok(()),
        }
    }

    /// Marks a family deleted: no record of it can be written again. Its revision is kept, so
    /// no answer cached under one of its revisions is ever reused.
    pub(crate) fn mark_family_deleted(&self, family: FamilyId) -> TxResult<()> {
        let revision = self.family_state(family)?.map_or(0, |s| s.revision);
        let state = FamilyState {
            revision,
            deleted: true,
        };
        self.insert_raw(TreeId::Families, family.as_bytes(), &state.encode())
    }

    /// Moves the family's revision on (once per transaction) and records the change.
    pub(crate) fn announce(
        &self,
        family: FamilyId,
        kind: Kind,
        id: impl Into<ChangeId>,
    ) -> TxResult<u64> {
        let id = id.into();
        let known = self
            .revised
            .borrow()
            .iter()
            .find(|(f, _)| *f == family)
            .map(|(_, r)| *r);
        let revision = match known {
            Some(r) => r,
            None => {
                let current = self.family_state(family)?.unwrap_or_default();
                if current.deleted {
                    return abort(Abort::NotFound);
                }
                let next = FamilyState {
                    revision: current.revision + 1,
                    deleted: false,
                };
                self.insert_raw(TreeId::Families, family.as_bytes(), &next.encode())?;
                self.revised.borrow_mut().push((family, next.revision));
                next.revision
            }
        };
        self.changes.borrow_mut().push(Change::Family(FamilyChange {
            family,
            kind,
            id,
            revision,
        }));
        Ok(revision)
    }

    /// Records a change that is not a family's (sessions ended, a job queued).
    pub(crate) fn note(&self, change: Change) {
        self.changes.borrow_mut().push(change);
    }

    /// Whether every record `record` needs exists (a meal whose child is being deleted counts as
    /// deleted already).
    pub(crate) fn check_requirements<R: Entity>(&self, record: &R) -> TxResult<bool> {
        for (tree, key) in record.requires() {
            if !self.exists(tree, &key)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Creates a record at version 1: indexes written, photos attached, requirements checked.
    pub(crate) fn insert<R: Entity>(&self, record: &R) -> TxResult<R> {
        let mut record = record.clone();
        record.set_version(crate::domain::change::FIRST_VERSION);
        let key = record.key();
        if self.exists(R::TREE, &key)? {
            return abort(Abort::Other("record exists"));
        }
        if !self.check_requirements(&record)? {
            return abort(Abort::MissingParent);
        }
        for photo in record.photos() {
            attach_photo(self, record.family(), photo)?;
        }
        for (tree, k, v) in record.index() {
            self.insert_raw(tree, &k, &v)?;
        }
        self.put_quietly(&record)?;
        self.announce(record.family(), R::KIND, record.id())?;
        Ok(record)
    }

    /// Read-modify-write of one record. With `expected`, a different current version aborts
    /// with the current record. `change` runs on the current record; index entries and photos
    /// follow the difference between before and after.
    pub(crate) fn update<R: Entity>(
        &self,
        key: &[u8],
        expected: Option<u64>,
        change: &dyn Fn(&mut R) -> Result<(), DomainError>,
    ) -> TxResult<R> {
        let Some(raw) = self.get_raw(R::TREE, key)? else {
            return abort(Abort::NotFound);
        };
        let old = R::decode(&raw).map_err(corrupt)?;
        // A record whose parent is gone (a meal of a child being deleted) is already deleted.
        if !self.check_requirements(&old)? {
            return abort(Abort::NotFound);
        }
        if expected.is_some_and(|v| v != old.version()) {
            return abort(Abort::Stale(raw));
        }
        let mut new = old.clone();
        change(&mut new).or_else(|e| abort(Abort::Rule(e)))?;
        new.set_version(old.version() + 1);
        if !self.check_requirements(&new)? {
            return abort(Abort::MissingParent);
        }
        let (old_photos, new_photos) = (old.photos(), new.photos());
        for photo in new_photos.iter().filter(|p| !old_photos.contains(p)) {
            attach_photo(self, new.family(), *photo)?;
        }
        for photo in old_photos.iter().filter(|p| !new_photos.contains(p)) {
            remove_photo(self, old.family(), *photo)?;
        }
        let (old_index, new_index) = (old.index(), new.index());
        for (tree, k, _) in old_index.iter().filter(|e| !new_index.contains(e)) {
            self.remove_raw(*tree, k)?;
        }
        for (tree, k, v) in new_index.iter().filter(|e| !old_index.contains(e)) {
            self.insert_raw(*tree, k, v)?;
        }
        self.put_quietly(&new)?;
        self.announce(new.family(), R::KIND, new.id())?;
        Ok(new)
    }

    /// Stores a record that moved from another family (its old home removed with `delete`):
    /// same id and version, indexes written, announced to its new family. Only for records
    /// without photos: `delete` removes those.
    pub(crate) fn put_moved<R: Entity>(&self, record: &R) -> TxResult<()> {
        if !record.photos().is_empty() || self.exists(R::TREE, &record.key())? {
            return abort(Abort::Other("record cannot move"));
        }
        for (tree, k, v) in record.index() {
            self.insert_raw(tree, &k, &v)?;
        }
        self.put_quietly(record)?;
        self.announce(record.family(), R::KIND, record.id())?;
        Ok(())
    }

    /// Removes a record with its index entries and photos. `None` when it does not exist.
    pub(crate) fn delete<R: Entity>(&self, key: &[u8], announce: bool) -> TxResult<Option<R>> {
        let Some(record) = self.get::<R>(key)? else {
            return Ok(None);
        };
        self.remove_raw(R::TREE, key)?;
        for (tree, k, _) in record.index() {
            self.remove_raw(tree, &k)?;
        }
        for photo in record.photos() {
            remove_photo(self, record.family(), photo)?;
        }
        if announce {
            self.announce(record.family(), R::KIND, record.id())?;
        }
        Ok(Some(record))
    }
}

/// A family's entry in the `families` tree: its revision (8 bytes), then 1 if it was deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FamilyState {
    pub revision: u64,
    pub deleted: bool,
}

impl FamilyState {
    pub(crate) fn decode(v: &[u8]) -> FamilyState {
        FamilyState {
            revision: v
                .get(..8)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map_or(0, u64::from_be_bytes),
            deleted: v.get(8) == Some(&1),
        }
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut v = self.revision.to_be_bytes().to_vec();
        if self.deleted {
            v.push(1);
        }
        v
    }
}

/// How far every family's revision jumps at each start. A change is announced (and may be
/// seen by a client) a moment before it reaches the disk; after a crash that lost it, its
/// revision must not be handed out again, or a client holding it would think it is current.
pub(crate) const RESTART_GAP: u64 = 1 << 20;

/// Marks a family's photo as in use; unknown or already used photos abort.
pub(crate) fn attach_photo(tx: &Tx<'_>, family: FamilyId, id: MediaId) -> TxResult<()> {
    let key = keys::owned(family.as_bytes(), id.as_bytes());
    let Some(mut record) = tx.get::<super::media::MediaRecord>(&key)? else {
        return abort(Abort::PhotoMissing);
    };
    if record.attached {
        return abort(Abort::PhotoInUse);
    }
    record.attached = true;
    tx.put_quietly(&record)
}

/// Removes a family's photo: its record now, its files once this is on disk (the graveyard).
pub(crate) fn remove_photo(tx: &Tx<'_>, family: FamilyId, id: MediaId) -> TxResult<()> {
    let key = keys::owned(family.as_bytes(), id.as_bytes());
    if tx.remove_raw(TreeId::Media, &key)?.is_some() {
        tx.insert_raw(TreeId::BlobGraveyard, &key, &[])?;
    }
    Ok(())
}

/// Moves a photo from one family to another, as it is: an account's avatar goes with it when
/// it changes family. Its files are named by its id alone and stay where they are.
pub(crate) fn move_photo(tx: &Tx<'_>, from: FamilyId, to: FamilyId, id: MediaId) -> TxResult<()> {
    let old_key = keys::owned(from.as_bytes(), id.as_bytes());
    let Some(mut record) = tx.get::<super::media::MediaRecord>(&old_key)? else {
        return Ok(());
    };
    tx.remove_raw(TreeId::Media, &old_key)?;
    record.family = to;
    tx.put_quietly(&record)
}

impl Core {
    pub(crate) fn open(db: sled::Db, blobs: super::blobs::Blobs) -> sled::Result<Core> {
        let trees = TreeId::ALL
            .iter()
            .map(|t| db.open_tree(t.name()))
            .collect::<sled::Result<Vec<_>>>()?;
        let core = Core {
            flusher: Flusher::new(db.clone()),
            db,
            trees,
            order: Mutex::new(()),
            fence: AtomicUsize::new(0),
            blobs,
            hook: OnceLock::new(),
        };
        core.skip_revisions()?;
        Ok(core)
    }

    /// Moves every family's revision on by `RESTART_GAP`, in one atomic batch.
    fn skip_revisions(&self) -> sled::Result<()> {
        let families = self.tree(TreeId::Families);
        let mut batch = sled::Batch::default();
        for entry in families.iter() {
            let (key, value) = entry?;
            let mut state = FamilyState::decode(&value);
            state.revision += RESTART_GAP;
            batch.insert(key, state.encode());
        }
        families.apply_batch(batch)
    }

    pub(crate) fn tree(&self, id: TreeId) -> &sled::Tree {
        &self.trees[id as usize]
    }

    /// Sets the function that hears about every committed change (once).
    pub(crate) fn on_change(&self, hook: Hook) {
        let _ = self.hook.set(hook);
    }

    /// Runs `f` as one transaction, then announces its changes. Not yet on disk: callers that
    /// acknowledge a write to someone `flush` first (see `Store::flush`).
    pub(crate) fn transact<A>(
        &self,
        f: impl Fn(&Tx<'_>) -> TxResult<A>,
    ) -> Result<A, TransactionError<Abort>> {
        self.transact_scanned(|_| Ok(()), |tx, _| f(tx))
    }

    /// `transact` with a first step that reads committed data (prefix scans, which sled's
    /// transactions cannot do, and which deadlock inside one). Both run under the write
    /// order, so no other write of the store commits between them: what `scan` saw still
    /// holds when `f` runs. Only for trees written through `transact`.
    pub(crate) fn transact_scanned<S, A>(
        &self,
        scan: impl FnOnce(&Core) -> Result<S, Abort>,
        f: impl Fn(&Tx<'_>, &S) -> TxResult<A>,
    ) -> Result<A, TransactionError<Abort>> {
        let order = self.write_order();
        let scanned = scan(self).map_err(TransactionError::Abort)?;
        let (out, changes) = self.trees.as_slice().transaction(|trees| {
            let tx = Tx::new(trees);
            let out = f(&tx, &scanned)?;
            Ok((out, tx.changes.into_inner()))
        })?;
        if let Some(hook) = self.hook.get()
            && !changes.is_empty()
        {
            hook(&changes);
        }
        drop(order);
        Ok(out)
    }

    /// The write order: while it is held, no write of the store commits (a backup's snapshot
    /// holds it for its one consistent pass over the record trees).
    pub(crate) fn write_order(&self) -> MutexGuard<'_, ()> {
        self.order.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Raises the photo fence (call with the write order held, so every later write sees it).
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

    /// Up to `limit` keys under `prefix` (for `transact_scanned`'s scan).
    pub(crate) fn keys(
        &self,
        id: TreeId,
        prefix: &[u8],
        limit: usize,
    ) -> Result<Vec<sled::IVec>, Abort> {
        self.tree(id)
            .scan_prefix(prefix)
            .keys()
            .take(limit)
            .collect::<Result<_, _>>()
            .map_err(|e| Abort::Corrupt(e.to_string()))
    }

    /// `transact_scanned`, then wait until the write is on disk.
    pub(crate) async fn commit_scanned<S, A>(
        &self,
        scan: impl FnOnce(&Core) -> Result<S, Abort>,
        f: impl Fn(&Tx<'_>, &S) -> TxResult<A>,
    ) -> Result<A, TransactionError<Abort>> {
        let out = self.transact_scanned(scan, f)?;
        self.flush().await.map_err(|e| match e {
            StoreError::Sled(e) => TransactionError::Storage(e),
            other => TransactionError::Abort(Abort::Corrupt(other.to_string())),
        })?;
        Ok(out)
    }

    /// `transact`, then wait until the write is on disk (shared with concurrent writers).
    pub(crate) async fn commit<A>(
        &self,
        f: impl Fn(&Tx<'_>) -> TxResult<A>,
    ) -> Result<A, TransactionError<Abort>> {
        self.commit_scanned(|_| Ok(()), |tx, _| f(tx)).await
    }

    /// Stores a new record (version 1) in its own transaction, on disk when it returns.
    pub(crate) async fn insert<R: Entity>(&self, record: &R) -> Result<R, WriteError<R>> {
        self.commit(|tx| tx.insert(record))
            .await
            .map_err(write_error)
    }

    /// `Tx::update` in its own transaction, on disk when it returns.
    pub(crate) async fn update<R: Entity>(
        &self,
        key: &[u8],
        expected: Option<u64>,
        change: &(dyn Fn(&mut R) -> Result<(), DomainError> + Sync),
    ) -> Result<R, WriteError<R>> {
        self.commit(|tx| tx.update(key, expected, change))
            .await
            .map_err(write_error)
    }

    /// Writes everything to disk, then removes the files of photos whose removal was
    /// committed before this call (so it is on disk now), unless a backup copies photos.
    pub(crate) async fn flush(&self) -> Result<(), StoreError> {
        let buried = super::graveyard::pending(self)?;
        self.flusher.flush().await?;
        if !buried.is_empty() {
            super::graveyard::sweep(self, &buried)?;
        }
        Ok(())
    }

    /// The family's current revision (0 before its first write).
    pub(crate) fn revision(&self, family: FamilyId) -> Result<u64, StoreError> {
        Ok(self
            .tree(TreeId::Families)
            .get(family.as_bytes())?
            .map_or(0, |v| FamilyState::decode(&v).revision))
    }

    /// A record by key outside any transaction (reads see committed data only).
    pub(crate) fn read<R: Entity>(&self, key: &[u8]) -> Result<Option<R>, StoreError> {
        self.tree(R::TREE)
            .get(key)?
            .map(|v| R::decode(&v))
            .transpose()
    }
}

/// Repositories hold the core through this.
pub(crate) type Shared = Arc<Core>;

/// Maps an aborted write of `R` to a `WriteError<R>`.
pub(crate) fn write_error<R: Record>(err: TransactionError<Abort>) -> WriteError<R> {
    match err {
        TransactionError::Abort(a) => WriteError::from_abort(a),
        TransactionError::Storage(e) => WriteError::Store(StoreError::Sled(e)),
    }
}

impl From<UnabortableTransactionError> for Abort {
    fn from(e: UnabortableTransactionError) -> Self {
        Abort::Corrupt(e.to_string())
    }
}
