//! Writes an archive: header, the records of a snapshot, its photos, manifest.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Write};

use super::archive::{self, Hashing, Header, Manifest, Member};
use super::snapshot::{Prepared, Snapshot};
use super::{BackupError, Summary};
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::blobs::Blobs;
use crate::store::media::Variant;

pub(crate) struct ArchiveWriter<W: Write> {
    tar: tar::Builder<W>,
    mtime: u64,
    members: Vec<Member>,
}

impl<W: Write> ArchiveWriter<W> {
    fn new(out: W, snapshot: &Snapshot) -> Self {
        let mut tar = tar::Builder::new(out);
        tar.mode(tar::HeaderMode::Deterministic);
        ArchiveWriter {
            tar,
            mtime: u64::try_from(snapshot.created_at.timestamp()).unwrap_or(0),
            members: Vec::new(),
        }
    }

    fn append(&mut self, path: &str, size: u64, data: impl Read) -> Result<(), BackupError> {
        let mut header = tar::Header::new_ustar();
        header
            .set_path(path)
            .map_err(|e| BackupError::Io(format!("member {path}: {e}")))?;
        header.set_size(size);
        header.set_mode(0o600);
        header.set_mtime(self.mtime);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_cksum();
        let mut hashing = Hashing::new(data);
        self.tar
            .append(&header, &mut hashing)
            .map_err(|e| BackupError::Io(format!("cannot write the archive: {e}")))?;
        self.members.push(Member {
            path: path.into(),
            size,
            sha256: hashing.hex(),
        });
        Ok(())
    }

    fn append_bytes(&mut self, path: &str, bytes: &[u8]) -> Result<(), BackupError> {
        self.append(path, bytes.len() as u64, bytes)
    }
}

/// Writes the whole archive of `snapshot` to `out`.
pub(crate) fn write<W: Write>(
    blobs: &Blobs,
    snapshot: &Snapshot,
    prepared: &[Prepared],
    media: &[(FamilyId, MediaId)],
    out: W,
) -> Result<(Summary, W), BackupError> {
    let mut w = ArchiveWriter::new(out, snapshot);
    let header = Header::new(snapshot.created_at);
    w.append_bytes(archive::HEADER, &pretty(&header)?)?;

    let mut counts = BTreeMap::new();
    for kind in prepared {
        let file = File::open(&kind.path)
            .map_err(|e| BackupError::Io(format!("cannot read the spool: {e}")))?;
        let size = file
            .metadata()
            .map_err(|e| BackupError::Io(format!("cannot read the spool: {e}")))?
            .len();
        w.append(&archive::records_path(kind.kind), size, file)?;
        counts.insert(kind.kind.name().to_string(), kind.count);
    }

    let mut files = 0u64;
    for (family, id) in media {
        for variant in Variant::ALL {
            let bytes = blobs
                .read(*id, variant)
                .map_err(|e| BackupError::Io(format!("cannot read photo {id}: {e}")))?;
            match bytes {
                Some(bytes) => {
                    w.append_bytes(&archive::media_path(*family, *id, variant), &bytes)?;
                    files += 1;
                }
                // Photos stored before the middle size existed have none.
                None if variant == Variant::Medium => {}
                None => {
                    return Err(BackupError::Store(format!(
                        "photo {id} has lost its {variant:?} size; the store is damaged"
                    )));
                }
            }
        }
    }
    counts.insert("media_files".into(), files);

    let sha256 = archive::content_digest(&w.members);
    let manifest = Manifest {
        format: header.format,
        app_version: header.app_version.clone(),
        created_at: header.created_at,
        counts: counts.clone(),
        members: std::mem::take(&mut w.members),
        sha256: sha256.clone(),
    };
    w.append_bytes(archive::MANIFEST, &pretty(&manifest)?)?;
    let mut out = w
        .tar
        .into_inner()
        .map_err(|e| BackupError::Io(format!("cannot write the archive: {e}")))?;
    out.flush()
        .map_err(|e| BackupError::Io(format!("cannot write the archive: {e}")))?;
    Ok((
        Summary {
            created_at: header.created_at,
            counts,
            sha256,
        },
        out,
    ))
}

/// Pretty JSON for the header and manifest (people read them too).
fn pretty<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, BackupError> {
    let mut v = serde_json::to_vec_pretty(value).map_err(|e| BackupError::Store(e.to_string()))?;
    v.push(b'\n');
    Ok(v)
}
