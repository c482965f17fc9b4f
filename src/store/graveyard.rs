//! Photos whose record is gone, waiting for their files to be removed. An entry is written in
//! the same transaction that removes the record; the files go once that transaction is on disk
//! (a crash before cannot bring back a record whose files are gone), and never while a backup
//! copies photos (its snapshot may still name them). Removing files twice is harmless, so a
//! crash in the middle of a sweep only means the next sweep does it again.

use super::StoreError;
use super::write::{Core, TreeId};
use crate::domain::ids::MediaId;

/// How many entries one sweep transaction clears.
const BATCH: usize = 100;

/// Entries committed so far (call before a flush; sweep them after it).
pub(crate) fn pending(core: &Core) -> Result<Vec<sled::IVec>, StoreError> {
    Ok(core
        .tree(TreeId::BlobGraveyard)
        .iter()
        .keys()
        .take(BATCH)
        .collect::<Result<_, _>>()?)
}

/// Removes the files of `entries` (which must be on disk), then the entries. Nothing while a
/// backup copies photos. Returns how many photos' files were removed.
pub(crate) fn sweep(core: &Core, entries: &[sled::IVec]) -> Result<usize, StoreError> {
    if core.is_fenced() {
        return Ok(0);
    }
    for key in entries {
        if let Some(id) = key.get(16..32).and_then(MediaId::from_slice) {
            core.blobs
                .remove(id)
                .map_err(|e| StoreError::Corrupt(format!("cannot remove a photo's files: {e}")))?;
        }
    }
    core.transact(|tx| {
        for key in entries {
            tx.remove_raw(TreeId::BlobGraveyard, key)?;
        }
        Ok(())
    })?;
    Ok(entries.len())
}

/// Sweeps everything waiting (at start, and when the last backup ends). The entries must be on
/// disk: call after a flush.
pub(crate) fn sweep_all(core: &Core) -> Result<usize, StoreError> {
    let mut removed = 0;
    loop {
        let entries = pending(core)?;
        if entries.is_empty() || core.is_fenced() {
            return Ok(removed);
        }
        removed += sweep(core, &entries)?;
    }
}
