//! One consistent moment of the store. The record trees are copied, raw, while the write order
//! is held (no write commits during the copy; reads go on), and a photo fence goes up in the
//! same breath: until the backup has copied the photos, removed photo blobs stay where they are
//! (listed in the graveyard), so every photo of the moment is still there to copy. The records
//! are decoded and checked after the write order is released.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use flate2::Compression;
use flate2::write::GzEncoder;

use super::BackupError;
use super::archive::{FamilyLine, MAX_LINE, parse_record_line, record_line};
use super::kinds::Kind;
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::write::{Core, FamilyState, TreeId};

/// The records of the moment, raw, one spool file per kind; the photo fence is up until this
/// is dropped.
pub(crate) struct Snapshot {
    pub created_at: DateTime<Utc>,
    raw: Vec<(Kind, PathBuf)>,
    /// Holds the photo fence until the snapshot is dropped.
    _fence: Box<dyn Send>,
}

/// A kind's records, checked and compressed, ready for the archive.
pub(crate) struct Prepared {
    pub kind: Kind,
    pub path: PathBuf,
    pub count: u64,
}

/// A photo to copy: its family and id.
pub(crate) type Photo = (FamilyId, MediaId);

/// Holds the photo fence; dropping the last one removes what waited in the graveyard.
pub(crate) struct Fence {
    pub(super) core: Arc<Core>,
}

impl Drop for Fence {
    fn drop(&mut self) {
        if !self.core.lower_fence() {
            return;
        }
        // What waited is removed once it is on disk.
        let swept = self
            .core
            .db
            .flush()
            .map_err(crate::store::StoreError::from)
            .and_then(|_| crate::store::graveyard::sweep_all(&self.core));
        if let Err(e) = swept {
            tracing::warn!(error = %e, "removed photos' files are left for the next sweep");
        }
    }
}

fn io(what: &str, e: std::io::Error) -> BackupError {
    BackupError::Io(format!("{what}: {e}"))
}

/// Copies every archived tree, raw, into `spool`, at one moment.
pub(crate) fn take(
    core: &Arc<Core>,
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
    let order = core.write_order();
    let gate = std::time::Instant::now();
    let created_at = Utc::now();
    core.raise_fence();
    let fence = Fence { core: core.clone() };
    for (kind, out) in &mut writers {
        let tree = match kind.tree() {
            Some(id) => core.tree(id),
            None => contact_messages,
        };
        for entry in tree.iter() {
            let (key, value) = entry?;
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
    drop(order);
    // How long writes waited: the figure the backup benchmark reports.
    tracing::info!(
        gate_ms = gate.elapsed().as_secs_f64() * 1000.0,
        "backup snapshot taken; writes go on"
    );
    for (_, out) in writers {
        // Scratch, read back by this process only: flushed, not synced.
        out.into_inner()
            .map_err(|e| io("cannot write the spool", e.into_error()))?;
    }
    Ok(Snapshot {
        created_at,
        raw,
        _fence: Box::new(fence),
    })
}

impl Snapshot {
    /// A snapshot of the records spooled in `raw` (one file per kind, lines as archived),
    /// taken at `created_at` while `fence` keeps removed photos' files.
    pub(crate) fn new(
        created_at: DateTime<Utc>,
        raw: Vec<(Kind, PathBuf)>,
        fence: Box<dyn Send>,
    ) -> Snapshot {
        Snapshot {
            created_at,
            raw,
            _fence: fence,
        }
    }

    /// Decodes and checks every record, leaves out what the store already counts as deleted
    /// (a deleted family's records, the meals of a child being deleted and their photos), and
    /// compresses each kind. Returns the kinds and the photos to copy.
    pub(crate) fn prepare(&self, spool: &Path) -> Result<(Vec<Prepared>, Vec<Photo>), BackupError> {
        let mut deleted: HashSet<FamilyId> = HashSet::new();
        let mut kept: HashSet<(TreeId, Vec<u8>)> = HashSet::new();
        let mut dropped_photos: HashSet<MediaId> = HashSet::new();
        let mut media = Vec::new();
        let mut prepared = Vec::new();
        for (kind, raw) in &self.raw {
            let path = spool.join(format!("{}.jsonl.gz", kind.name()));
            let file = File::create(&path).map_err(|e| io("cannot write the spool", e))?;
            let mut out = GzEncoder::new(BufWriter::new(file), Compression::default());
            let mut count = 0u64;
            let input = File::open(raw).map_err(|e| io("cannot read the spool", e))?;
            for line in BufReader::new(input).split(b'\n') {
                let line = line.map_err(|e| io("cannot read the spool", e))?;
                if line.len() > MAX_LINE {
                    return Err(BackupError::Store(format!(
                        "a stored {} record is larger than {MAX_LINE} bytes",
                        kind.name()
                    )));
                }
                if *kind == Kind::Families {
                    let family: FamilyLine = serde_json::from_slice(&line)
                        .map_err(|e| BackupError::Store(e.to_string()))?;
                    if family.deleted {
                        deleted.insert(family.id);
                    }
                } else {
                    let stored = parse_record_line(&line).map_err(BackupError::Store)?;
                    let loaded = kind.read(&stored).map_err(|e| {
                        BackupError::Store(format!(
                            "a stored {} record is unreadable: {e}",
                            kind.name()
                        ))
                    })?;
                    if loaded.family.is_some_and(|f| deleted.contains(&f)) {
                        continue;
                    }
                    if let Some((family, id)) = loaded.media {
                        if dropped_photos.contains(&id) {
                            continue;
                        }
                        media.push((family, id));
                    }
                    let complete = loaded
                        .requires
                        .iter()
                        .all(|(tree, key)| kept.contains(&(*tree, key.clone())));
                    if !complete {
                        // Its parent is being deleted: it is deleted already.
                        dropped_photos.extend(loaded.photos);
                        continue;
                    }
                    if let Some(tree) = kind.tree() {
                        kept.insert((tree, loaded.key));
                    }
                }
                out.write_all(&line)
                    .and_then(|()| out.write_all(b"\n"))
                    .map_err(|e| io("cannot write the spool", e))?;
                count += 1;
            }
            out.finish()
                .and_then(|mut w| w.flush())
                .map_err(|e| io("cannot write the spool", e))?;
            prepared.push(Prepared {
                kind: *kind,
                path,
                count,
            });
        }
        Ok((prepared, media))
    }
}
