//! Backups: a portable archive of every record and photo at one moment (see `archive` for the
//! format), checked end to end when read, and restored into a new store that replaces the old
//! one only when it is complete (`swap`).
//!
//! Consistency: the snapshot is one read transaction (`sqlite::backup`), and a photo fence
//! keeps removed photos' files until the photos are copied. See docs/decisions.md.

pub mod archive;
pub(crate) mod kinds;
pub(crate) mod reader;
pub(crate) mod snapshot;
pub mod swap;
pub(crate) mod writer;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub use kinds::Kind;

/// How much of an archive file may wait in the page cache before it is synced. A backup writes
/// gigabytes of photos; left to the kernel, they pile up, and the database's next fsync (ext4
/// commits them in the same journal transaction) waits seconds for them: a parent's save would
/// hang. Synced every 4 MiB, an fsync meets at most that much (tens of milliseconds).
pub const SYNC_EVERY: u64 = 4 << 20;

/// A file that syncs its data every [`SYNC_EVERY`] bytes written (see there).
#[derive(Debug)]
pub struct SyncingFile {
    file: std::fs::File,
    unsynced: u64,
}

impl SyncingFile {
    pub fn new(file: std::fs::File) -> SyncingFile {
        SyncingFile { file, unsynced: 0 }
    }

    pub fn into_inner(self) -> std::fs::File {
        self.file
    }
}

impl std::io::Write for SyncingFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.file.write(buf)?;
        self.unsynced += n as u64;
        if self.unsynced >= SYNC_EVERY {
            self.file.sync_data()?;
            self.unsynced = 0;
        }
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// What an archive holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The moment the archive shows.
    pub created_at: DateTime<Utc>,
    /// Records per kind, and `media_files`.
    pub counts: BTreeMap<String, u64>,
    /// The SHA-256 over every member (the archive's content).
    pub sha256: String,
}

/// Why a backup could not be written. Nothing in the store changed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("another backup is being written right now; try again when it is done")]
    Busy,
    #[error("{0}")]
    Io(String),
    #[error("the store could not be read: {0}")]
    Store(String),
}

impl From<super::StoreError> for BackupError {
    fn from(e: super::StoreError) -> Self {
        BackupError::Store(e.to_string())
    }
}

/// Why an archive was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    #[error("this is not a Highchair backup (it does not start with highchair-backup.json)")]
    NotABackup,
    #[error(
        "the archive is incomplete: it ends before its manifest (cut off while being written or copied)"
    )]
    Truncated,
    #[error("the archive cannot be read: {0}")]
    Unreadable(String),
    #[error(
        "the archive contains `{0}`, which no Highchair backup has (an absolute path, `..` or an unknown name); nothing was restored"
    )]
    Unsafe(String),
    #[error(
        "the archive contains `{0}`, which is a link, directory or device rather than a file; nothing was restored"
    )]
    NotAFile(String),
    #[error("`{path}` is {size} bytes, more than the {limit} a backup member may have")]
    TooLarge { path: String, size: u64, limit: u64 },
    #[error("`{0}` does not match the checksum in the manifest: the archive is damaged")]
    Checksum(String),
    #[error(
        "the archive has format version {0}, newer than this highchair reads ({max}); upgrade highchair to restore it",
        max = archive::FORMAT
    )]
    NewerFormat(u32),
    #[error("the archive is damaged: {0}")]
    Invalid(String),
}

/// The prefix of a backup's scratch directory inside the data directory.
pub(crate) const SPOOL_PREFIX: &str = ".backup-spool-";

/// Checks a whole archive without changing anything.
pub fn verify(input: impl Read) -> Result<Summary, ArchiveError> {
    reader::walk(input, &mut reader::Discard)
}

/// `verify` of a file, with the file's name in the error.
pub fn verify_file(path: &Path) -> Result<Summary, ArchiveError> {
    let file = std::fs::File::open(path)
        .map_err(|e| ArchiveError::Unreadable(format!("{}: {e}", path.display())))?;
    verify(std::io::BufReader::with_capacity(1 << 20, file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::{FamilyId, MediaId};

    #[test]
    fn a_syncing_file_keeps_every_byte_across_its_syncs() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("archive");
        let bytes: Vec<u8> = (0..(2 * SYNC_EVERY + 12_345))
            .map(|i| (i % 251) as u8)
            .collect();
        let mut out =
            std::io::BufWriter::new(SyncingFile::new(std::fs::File::create(&path).unwrap()));
        for chunk in bytes.chunks(70_001) {
            out.write_all(chunk).unwrap();
        }
        let file = out.into_inner().unwrap();
        assert!(file.unsynced < SYNC_EVERY, "synced along the way");
        file.into_inner().sync_all().unwrap();
        assert!(std::fs::read(&path).unwrap() == bytes);
    }
    use crate::store::Store;
    use crate::store::children::tests::child;
    use crate::store::meals::tests::meal;
    use crate::store::media::Variant;
    use crate::store::media::tests::upload;
    use crate::store::tests::temp_store;

    /// A family with two children, meals (one with a photo) and a second family.
    async fn populated(store: &Store) -> (FamilyId, MediaId) {
        let family = FamilyId::new();
        let emma = store.children.insert(&child(family, "Emma")).await.unwrap();
        let photo = upload(family, chrono::Utc::now());
        store
            .media
            .insert(
                &photo,
                &[(Variant::Full, b"full-bytes"), (Variant::Thumb, b"thumb")],
            )
            .await
            .unwrap();
        let mut with_photo = meal(family, emma.id, 5);
        with_photo.photo = Some(photo.id);
        store.meals.insert(&with_photo).await.unwrap();
        for i in 0..30 {
            store.meals.insert(&meal(family, emma.id, i)).await.unwrap();
        }
        let other = FamilyId::new();
        let noah = store.children.insert(&child(other, "Noah")).await.unwrap();
        store.meals.insert(&meal(other, noah.id, 1)).await.unwrap();
        (family, photo.id)
    }

    fn archive_of(store: &Store) -> Vec<u8> {
        // Off the async workers, as the server does.
        tokio::task::block_in_place(|| store.backup(Vec::new()).unwrap().1)
    }

    /// An archive built member by member (for hostile ones).
    fn hand_made(members: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
        let mut tar = tar::Builder::new(Vec::new());
        for (path, kind, data) in members {
            let mut h = tar::Header::new_gnu();
            // set_path refuses `..` and absolute paths; write the name field directly.
            let name = &mut h.as_old_mut().name;
            name[..path.len()].copy_from_slice(path.as_bytes());
            h.set_size(data.len() as u64);
            h.set_entry_type(*kind);
            h.set_mode(0o600);
            h.set_cksum();
            tar.append(&h, *data).unwrap();
        }
        tar.into_inner().unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn hostile_or_broken_archives_are_refused_with_a_reason() {
        let (_a, store) = temp_store();
        populated(&store).await;
        let good = archive_of(&store);
        let header = br#"{"format":1,"app":"highchair","app_version":"0.1.0","created_at":"2026-01-01T00:00:00Z"}"#;
        let reg = tar::EntryType::Regular;
        type Case = (&'static str, Vec<u8>, fn(&ArchiveError) -> bool);
        let cases: Vec<Case> = vec![
            ("empty", Vec::new(), |e| matches!(e, ArchiveError::NotABackup)),
            ("not a tar", b"hello there".repeat(100), |e| {
                matches!(e, ArchiveError::NotABackup | ArchiveError::Unreadable(_))
            }),
            (
                "path traversal",
                hand_made(&[(archive::HEADER, reg, header), ("../../etc/cron.d/x", reg, b"x")]),
                |e| matches!(e, ArchiveError::Unsafe(p) if p.contains("..")),
            ),
            (
                "absolute path",
                hand_made(&[(archive::HEADER, reg, header), ("/etc/passwd", reg, b"x")]),
                |e| matches!(e, ArchiveError::Unsafe(_)),
            ),
            (
                "symlink",
                hand_made(&[(archive::HEADER, reg, header), ("manifest.json", tar::EntryType::Symlink, b"")]),
                |e| matches!(e, ArchiveError::NotAFile(_)),
            ),
            (
                "hard link",
                hand_made(&[(archive::HEADER, reg, header), ("records/meals.jsonl.gz", tar::EntryType::Link, b"")]),
                |e| matches!(e, ArchiveError::NotAFile(_)),
            ),
            (
                "newer format",
                hand_made(&[(archive::HEADER, reg, br#"{"format":99,"app":"highchair","app_version":"9","created_at":"2030-01-01T00:00:00Z"}"#)]),
                |e| matches!(e, ArchiveError::NewerFormat(99)),
            ),
            ("truncated", good[..good.len() / 2].to_vec(), |e| {
                matches!(e, ArchiveError::Truncated)
            }),
            ("no manifest", good[..good.len() - 3072].to_vec(), |e| {
                matches!(e, ArchiveError::Truncated | ArchiveError::Checksum(_))
            }),
        ];
        for (what, bytes, expected) in cases {
            let err = verify(bytes.as_slice()).expect_err(what);
            assert!(expected(&err), "{what}: {err}");
            assert!(!err.to_string().is_empty());
        }
    }

    /// The members of an archive, by name.
    fn members(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut tar = tar::Archive::new(bytes);
        tar.entries()
            .unwrap()
            .map(|e| {
                let mut e = e.unwrap();
                let mut data = Vec::new();
                std::io::Read::read_to_end(&mut e, &mut data).unwrap();
                (e.path().unwrap().display().to_string(), data)
            })
            .collect()
    }

    /// An archive of `members` with a manifest that matches them (a consistent forgery).
    fn rebuilt(members: &[(String, Vec<u8>)], counts: BTreeMap<String, u64>) -> Vec<u8> {
        use sha2::Digest;
        let mut tar = tar::Builder::new(Vec::new());
        let mut listed = Vec::new();
        let add = |tar: &mut tar::Builder<Vec<u8>>, path: &str, data: &[u8]| {
            let mut h = tar::Header::new_ustar();
            h.set_path(path).unwrap();
            h.set_size(data.len() as u64);
            h.set_mode(0o600);
            h.set_cksum();
            tar.append(&h, data).unwrap();
        };
        for (path, data) in members.iter().filter(|(p, _)| p != archive::MANIFEST) {
            add(&mut tar, path, data);
            listed.push(archive::Member {
                path: path.clone(),
                size: data.len() as u64,
                sha256: hex::encode(sha2::Sha256::digest(data)),
            });
        }
        let manifest = archive::Manifest {
            format: 1,
            app_version: "0.1.0".into(),
            created_at: chrono::Utc::now(),
            counts,
            sha256: archive::content_digest(&listed),
            members: listed,
        };
        add(
            &mut tar,
            archive::MANIFEST,
            &serde_json::to_vec(&manifest).unwrap(),
        );
        tar.into_inner().unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_archive_whose_meals_lack_their_child_is_not_one_moment() {
        let (_a, store) = temp_store();
        populated(&store).await;
        let good = archive_of(&store);
        let summary = verify(good.as_slice()).unwrap();
        let mut members = members(&good);
        let empty = {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            std::io::Write::flush(&mut gz).unwrap();
            gz.finish().unwrap()
        };
        for (path, data) in &mut members {
            if path == "records/children.jsonl.gz" {
                *data = empty.clone();
            }
        }
        // The forgery itself is well formed: only the meals' children are missing.
        let mut counts = summary.counts.clone();
        counts.insert("children".into(), 0);
        let err = verify(rebuilt(&members, counts.clone()).as_slice()).unwrap_err();
        assert!(
            err.to_string()
                .contains("meals records refers to a children record"),
            "{err}"
        );
        // And the same members with the real children verify.
        let members = self::members(&good);
        assert!(verify(rebuilt(&members, summary.counts).as_slice()).is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_changed_byte_anywhere_is_found() {
        let (_a, store) = temp_store();
        populated(&store).await;
        let good = archive_of(&store);
        let needle = b"full-bytes";
        let at = good
            .windows(needle.len())
            .position(|w| w == needle)
            .unwrap();
        let mut bad = good.clone();
        bad[at] ^= 1;
        let err = verify(bad.as_slice()).unwrap_err();
        assert!(
            matches!(&err, ArchiveError::Checksum(p) if p.starts_with("media/")),
            "{err}"
        );

        // A huge declared size is refused before anything is read.
        let mut tar = tar::Builder::new(Vec::new());
        let mut h = tar::Header::new_gnu();
        h.set_path(archive::HEADER).unwrap();
        h.set_size(archive::MAX_META + 1);
        h.set_cksum();
        tar.append(&h, std::io::repeat(b' ').take(0)).ok();
        let bytes = tar.into_inner().unwrap();
        let err = verify(bytes.as_slice()).unwrap_err();
        assert!(
            matches!(err, ArchiveError::TooLarge { .. } | ArchiveError::Truncated),
            "{err}"
        );
    }
}
