//! The sled store's records, raw, one spool file per kind (the backup's format), for the
//! importer. Nothing else writes the copy it reads, so no write order or photo fence is held.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use chrono::Utc;

use super::sled_core::{Core, FamilyState, TreeId};
use crate::domain::ids::FamilyId;
use crate::store::backup::BackupError;
use crate::store::backup::archive::{FamilyLine, record_line};
use crate::store::backup::kinds::Kind;
use crate::store::backup::snapshot::Snapshot;

fn io(what: &str, e: std::io::Error) -> BackupError {
    BackupError::Io(format!("{what}: {e}"))
}

/// Where the sled release kept a kind's records.
enum Source {
    Tree(TreeId),
    /// A tree of their own, outside the write primitive's.
    ContactMessages,
    /// Kept by no sled release (family settings: every family had the defaults).
    Nowhere,
}

fn source_of(kind: Kind) -> Source {
    Source::Tree(match kind {
        Kind::Families => TreeId::Families,
        Kind::Users => TreeId::Users,
        Kind::FamilyInvites => TreeId::FamilyInvites,
        Kind::FamilySettings => return Source::Nowhere,
        Kind::Children => TreeId::Children,
        Kind::Meals => TreeId::Meals,
        Kind::Media => TreeId::Media,
        Kind::Recipes => TreeId::Recipes,
        Kind::GroceryLists => TreeId::GroceryLists,
        Kind::MealPlans => TreeId::MealPlans,
        Kind::CoParents => TreeId::CoParents,
        Kind::Jobs => TreeId::Jobs,
        Kind::ContactMessages => return Source::ContactMessages,
    })
}

/// Copies every archived tree, raw, into `spool`.
pub(crate) fn take(
    core: &Core,
    contact_messages: &sled::Tree,
    spool: &Path,
) -> Result<Snapshot, BackupError> {
    let mut raw = Vec::new();
    let mut writers = Vec::new();
    for kind in Kind::ALL {
        let path = spool.join(format!("{}.raw", kind.name()));
        let file = File::create(&path).map_err(|e| io("cannot write the spool", e))?;
        writers.push((kind, BufWriter::with_capacity(256 << 10, file)));
        raw.push((kind, path));
    }
    let created_at = Utc::now();
    for (kind, out) in &mut writers {
        let tree = match source_of(*kind) {
            Source::Tree(id) => core.tree(id),
            Source::ContactMessages => contact_messages,
            Source::Nowhere => continue,
        };
        for entry in tree.iter() {
            let (key, value) = entry.map_err(|e| BackupError::Store(e.to_string()))?;
            let line = if *kind == Kind::Families {
                let state = FamilyState::decode(&value);
                let id = FamilyId::from_slice(&key)
                    .ok_or_else(|| BackupError::Store("a family key is damaged".into()))?;
                let mut line = serde_json::to_vec(&FamilyLine {
                    id,
                    revision: state.revision,
                    deleted: state.deleted,
                })
                .map_err(|e| BackupError::Store(e.to_string()))?;
                line.push(b'\n');
                line
            } else {
                record_line(&value).map_err(|e| {
                    BackupError::Store(format!("a stored {} record: {e}", kind.name()))
                })?
            };
            out.write_all(&line)
                .map_err(|e| io("cannot write the spool", e))?;
        }
    }
    for (_, out) in writers {
        // Scratch, read back by this process only: flushed, not synced.
        out.into_inner()
            .map_err(|e| io("cannot write the spool", e.into_error()))?;
    }
    Ok(Snapshot::new(created_at, raw, Box::new(())))
}
