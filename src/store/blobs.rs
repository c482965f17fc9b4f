//! Photo bytes, as files under `<data_dir>/media/`: `<last two hex digits of the id>/<id>-<size>`.
//! They live outside sled because sled 0.34 keeps every page it reads in memory (its cache
//! queues 64 accesses per shard, over 256 shards, before it evicts anything), so a server that
//! sends photos grew by every photo sent. Files are read through the kernel's page cache,
//! which gives memory back when it is needed.
//!
//! A file is written (and synced) before the record that names it is committed, and removed
//! only after the record is gone: through the graveyard tree, swept after the commit, and not
//! while a backup copies photos. A crash can leave a file no record names (an upload cut off);
//! nothing ever reads one, and `highchair db check` counts them (`stored`).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::domain::ids::MediaId;
use crate::store::media::Variant;

pub const MEDIA_DIR: &str = "media";

#[derive(Debug, Clone)]
pub(crate) struct Blobs {
    root: PathBuf,
}

impl Blobs {
    pub(crate) fn new(data_dir: &Path) -> Blobs {
        Blobs {
            root: data_dir.join(MEDIA_DIR),
        }
    }

    fn folder(&self, id: MediaId) -> PathBuf {
        let hex = id.as_uuid().simple().to_string();
        self.root.join(&hex[hex.len() - 2..])
    }

    pub(crate) fn path(&self, id: MediaId, variant: Variant) -> PathBuf {
        self.folder(id)
            .join(format!("{}-{}", id.as_uuid().simple(), variant.name()))
    }

    /// Writes a photo's sizes, each through a temporary file renamed into place, all synced
    /// (with their folder) before this returns.
    pub(crate) fn write(&self, id: MediaId, sizes: &[(Variant, &[u8])]) -> std::io::Result<()> {
        let folder = self.folder(id);
        std::fs::create_dir_all(&folder)?;
        for (variant, bytes) in sizes {
            let path = self.path(id, *variant);
            let tmp = path.with_extension("tmp");
            let mut file = File::create(&tmp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            std::fs::rename(&tmp, &path)?;
        }
        File::open(&folder)?.sync_all()?;
        File::open(&self.root)?.sync_all()
    }

    /// Writes a size without syncing (a restore syncs the whole directory once at the end).
    pub(crate) fn write_unsynced(
        &self,
        id: MediaId,
        variant: Variant,
        bytes: &[u8],
    ) -> std::io::Result<()> {
        let folder = self.folder(id);
        std::fs::create_dir_all(&folder)?;
        std::fs::write(self.path(id, variant), bytes)
    }

    /// Syncs every file and folder written so far.
    pub(crate) fn sync_all(&self) -> std::io::Result<()> {
        if !self.root.exists() {
            return Ok(());
        }
        let root = File::open(&self.root)?;
        rustix::fs::syncfs(&root).map_err(std::io::Error::from)
    }

    /// A size's bytes; `None` when it was never stored (or is gone).
    pub(crate) fn read(&self, id: MediaId, variant: Variant) -> std::io::Result<Option<Vec<u8>>> {
        match std::fs::read(self.path(id, variant)) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// A size's length in bytes, if stored.
    pub(crate) fn len(&self, id: MediaId, variant: Variant) -> std::io::Result<Option<u64>> {
        match std::fs::metadata(self.path(id, variant)) {
            Ok(meta) => Ok(Some(meta.len())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The photos with at least one size on disk.
    pub(crate) fn stored(&self) -> std::io::Result<std::collections::HashSet<MediaId>> {
        let mut ids = std::collections::HashSet::new();
        let folders = match std::fs::read_dir(&self.root) {
            Ok(folders) => folders,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ids),
            Err(e) => return Err(e),
        };
        for folder in folders {
            let folder = folder?;
            if !folder.file_type()?.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(folder.path())? {
                let name = file?.file_name();
                let id = name
                    .to_str()
                    .and_then(|n| n.split_once('-'))
                    .and_then(|(id, _)| uuid::Uuid::try_parse(id).ok());
                if let Some(id) = id {
                    ids.insert(MediaId::from_uuid(id));
                }
            }
        }
        Ok(ids)
    }

    /// Removes every size of a photo (those already gone are fine).
    pub(crate) fn remove(&self, id: MediaId) -> std::io::Result<()> {
        for variant in Variant::ALL {
            match std::fs::remove_file(self.path(id, variant)) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_written_read_and_removed_by_id() {
        let dir = tempfile::tempdir().unwrap();
        let blobs = Blobs::new(dir.path());
        let id = MediaId::new();
        assert_eq!(blobs.read(id, Variant::Full).unwrap(), None);
        blobs
            .write(id, &[(Variant::Full, b"full"), (Variant::Thumb, b"th")])
            .unwrap();
        assert_eq!(blobs.read(id, Variant::Full).unwrap().unwrap(), b"full");
        assert_eq!(blobs.len(id, Variant::Thumb).unwrap(), Some(2));
        assert_eq!(blobs.read(id, Variant::Medium).unwrap(), None);
        let path = blobs.path(id, Variant::Full);
        assert!(path.starts_with(dir.path().join(MEDIA_DIR)));
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(name, format!("{}-full", id.as_uuid().simple()));
        blobs.remove(id).unwrap();
        blobs.remove(id).unwrap();
        assert_eq!(blobs.read(id, Variant::Full).unwrap(), None);
        assert!(!path.with_extension("tmp").exists());
    }
}
