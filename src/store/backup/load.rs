//! Loads an archive into a new, empty store (`restore`): each record as it was stored, its
//! index entries derived from it, its photos' blobs. The store is not serving anyone, so this
//! writes the trees directly instead of through the write primitive, then flushes once.

use std::collections::HashSet;

use super::archive::FamilyLine;
use super::kinds::{Kind, Loaded};
use super::reader::Sink;
use crate::domain::ids::{FamilyId, MediaId, UserId};
use crate::store::Store;
use crate::store::media::Variant;
use crate::store::write::{FamilyState, TreeId};

pub(crate) struct Loader<'a> {
    store: &'a Store,
    /// Revisions start above anything a client may still hold from before (see `family`).
    floor: u64,
    first_user: Option<UserId>,
    families: HashSet<FamilyId>,
}

impl<'a> Loader<'a> {
    pub(crate) fn new(store: &'a Store) -> Self {
        let micros = chrono::Utc::now().timestamp_micros();
        Loader {
            store,
            floor: u64::try_from(micros).unwrap_or(0),
            first_user: None,
            families: HashSet::new(),
        }
    }

    fn insert(&self, tree: TreeId, key: &[u8], value: &[u8]) -> Result<(), String> {
        self.store
            .core
            .tree(tree)
            .insert(key, value)
            .map(|_| ())
            .map_err(|e| format!("cannot write the new store: {e}"))
    }

    /// Marks the server as claimed (its first account exists), then writes it all to disk.
    pub(crate) fn finish(self) -> Result<(), String> {
        if let Some(user) = self.first_user {
            self.insert(
                TreeId::UsersByEmail,
                crate::store::users::FIRST_CLAIMED,
                user.as_bytes(),
            )?;
        }
        self.store
            .core
            .blobs
            .sync_all()
            .map_err(|e| format!("cannot write the new store's photos: {e}"))?;
        self.store
            .core
            .db
            .flush()
            .map(|_| ())
            .map_err(|e| format!("cannot write the new store: {e}"))
    }
}

impl Sink for Loader<'_> {
    /// A family's revision after a restore: at least the time of the restore in microseconds.
    /// Revisions only grow by one per write and by `RESTART_GAP` (about a second's worth) per
    /// start, so one a browser kept from before the restore is never handed out again.
    fn family(&mut self, line: &FamilyLine) -> Result<(), String> {
        let state = FamilyState {
            revision: line.revision.max(self.floor),
            deleted: line.deleted,
        };
        self.families.insert(line.id);
        self.insert(TreeId::Families, line.id.as_bytes(), &state.encode())
    }

    fn record(&mut self, kind: Kind, stored: &[u8], loaded: &Loaded) -> Result<(), String> {
        if kind == Kind::Users && self.first_user.is_none() {
            self.first_user = UserId::from_slice(&loaded.key);
        }
        if let Some(family) = loaded.family
            && self.families.insert(family)
        {
            // A family that had no revision yet (an archive written by hand, or an older one).
            let state = FamilyState {
                revision: self.floor,
                deleted: false,
            };
            self.insert(TreeId::Families, family.as_bytes(), &state.encode())?;
        }
        match kind.tree() {
            Some(tree) => self.insert(tree, &loaded.key, stored)?,
            None => self
                .store
                .contact_messages
                .tree()
                .insert(loaded.key.as_slice(), stored)
                .map(|_| ())
                .map_err(|e| format!("cannot write the new store: {e}"))?,
        }
        for (tree, key, value) in &loaded.index {
            self.insert(*tree, key, value)?;
        }
        Ok(())
    }

    /// Photo files are named by the photo's id alone.
    fn media(
        &mut self,
        _family: FamilyId,
        id: MediaId,
        variant: Variant,
        bytes: &[u8],
    ) -> Result<(), String> {
        self.store
            .core
            .blobs
            .write_unsynced(id, variant, bytes)
            .map_err(|e| format!("cannot write a photo of the new store: {e}"))
    }
}
