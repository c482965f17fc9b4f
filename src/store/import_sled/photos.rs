//! Photo bytes that the oldest releases kept inside the sled database, moved to files on the
//! way in.

use super::super::blobs::Blobs;
use super::super::media::Variant;
use crate::domain::ids::MediaId;

/// Moves photo bytes that earlier versions kept in the database (tree `media_blobs`, keys
/// `family ++ id ++ size`) to files, then empties the tree. Safe to repeat after a crash: a
/// file is written whole or not at all, and the tree is emptied only after every file is on
/// disk. Returns how many were moved.
pub(crate) fn move_from_database(db: &sled::Db, blobs: &Blobs) -> std::io::Result<usize> {
    let other = |e: sled::Error| std::io::Error::other(e.to_string());
    if !db
        .tree_names()
        .iter()
        .any(|n| n.as_ref() == LEGACY_TREE.as_bytes())
    {
        return Ok(0);
    }
    let tree = db.open_tree(LEGACY_TREE).map_err(other)?;
    let mut moved = 0;
    for entry in tree.iter() {
        let (key, value) = entry.map_err(other)?;
        let id = key.get(16..32).and_then(MediaId::from_slice);
        let variant = key
            .get(32)
            .and_then(|b| Variant::ALL.into_iter().find(|v| *v as u8 == *b));
        let (Some(id), Some(variant)) = (id, variant) else {
            continue;
        };
        blobs.write_unsynced(id, variant, &value)?;
        moved += 1;
    }
    if moved == 0 {
        return Ok(0);
    }
    blobs.sync_all()?;
    tree.clear().map_err(other)?;
    db.flush().map_err(other)?;
    Ok(moved)
}

/// The tree photo bytes were kept in before they moved to files.
const LEGACY_TREE: &str = "media_blobs";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn photos_kept_in_the_database_move_to_files_once() {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::Config::new()
            .path(dir.path().join("db"))
            .open()
            .unwrap();
        let blobs = Blobs::new(dir.path());
        assert_eq!(
            move_from_database(&db, &blobs).unwrap(),
            0,
            "no tree: nothing"
        );
        let tree = db.open_tree(LEGACY_TREE).unwrap();
        let (family, id) = (crate::domain::ids::FamilyId::new(), MediaId::new());
        for (variant, bytes) in [(Variant::Full, &b"big"[..]), (Variant::Thumb, b"small")] {
            let key = [
                family.as_bytes().as_slice(),
                id.as_bytes(),
                &[variant as u8],
            ]
            .concat();
            tree.insert(key, bytes).unwrap();
        }
        assert_eq!(move_from_database(&db, &blobs).unwrap(), 2);
        assert_eq!(blobs.read(id, Variant::Full).unwrap().unwrap(), b"big");
        assert_eq!(blobs.read(id, Variant::Thumb).unwrap().unwrap(), b"small");
        assert!(tree.is_empty());
        assert_eq!(move_from_database(&db, &blobs).unwrap(), 0, "once");
    }
}
