//! One consistent moment of the store, spooled: one file per kind, lines as archived (taken by
//! `sqlite::backup::take`, or by the importer from a sled store), held with whatever keeps
//! the moment's photos (a photo fence). The records are decoded and checked afterwards.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use flate2::Compression;
use flate2::write::GzEncoder;

use super::BackupError;
use super::archive::{FamilyLine, MAX_LINE, parse_record_line};
use super::kinds::Kind;
use crate::domain::ids::{FamilyId, MediaId};

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

fn io(what: &str, e: std::io::Error) -> BackupError {
    BackupError::Io(format!("{what}: {e}"))
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
        let mut kept: HashSet<(Kind, Vec<u8>)> = HashSet::new();
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
                        .all(|(needed, key)| kept.contains(&(*needed, key.clone())));
                    if !complete {
                        // Its parent is being deleted: it is deleted already.
                        dropped_photos.extend(loaded.photos);
                        continue;
                    }
                    kept.insert((*kind, loaded.key));
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
