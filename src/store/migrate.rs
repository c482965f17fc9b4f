//! Schema version in the `meta` tree, and upgrades of older data at open.

use std::path::Path;

use super::OpenError;

/// The schema this build writes. Bump it and add a step to `STEPS` when stored data changes shape.
pub const CURRENT: u32 = 1;

pub(super) const META: &str = "meta";
const KEY_APP: &[u8] = b"app";
const KEY_VERSION: &[u8] = b"schema_version";
const APP: &[u8] = b"highchair";

/// Upgrade steps: `STEPS[n]` takes a store from version `n + 1` to `n + 2`.
type Step = fn(&sled::Db) -> sled::Result<()>;
const STEPS: &[Step] = &[];

pub fn schema_version(db: &sled::Db) -> sled::Result<u32> {
    version_in(&db.open_tree(META)?)
}

/// The schema version recorded in an open `meta` tree (0 when none).
pub fn version_in(meta: &sled::Tree) -> sled::Result<u32> {
    Ok(meta
        .get(KEY_VERSION)?
        .and_then(|v| <[u8; 4]>::try_from(v.as_ref()).ok())
        .map_or(0, u32::from_be_bytes))
}

pub fn run(db: &sled::Db, dir: &Path) -> Result<(), OpenError> {
    let unusable = |e: sled::Error| OpenError::Unusable {
        dir: dir.to_path_buf(),
        reason: e.to_string(),
    };
    let meta = db.open_tree(META).map_err(unusable)?;
    let app = meta.get(KEY_APP).map_err(unusable)?;
    let version = schema_version(db).map_err(unusable)?;

    match app {
        None => {
            // A fresh database has only sled's default tree and an empty meta tree.
            let foreign = db.tree_names().iter().any(|n| {
                let n = n.as_ref();
                n != META.as_bytes() && n != b"__sled__default"
            }) || !db.is_empty();
            if foreign {
                return Err(OpenError::NotHighchair(dir.to_path_buf()));
            }
            meta.insert(KEY_APP, APP).map_err(unusable)?;
            meta.insert(KEY_VERSION, &CURRENT.to_be_bytes())
                .map_err(unusable)?;
            db.flush().map_err(unusable)?;
            Ok(())
        }
        Some(name) if name.as_ref() != APP => Err(OpenError::NotHighchair(dir.to_path_buf())),
        Some(_) if version > CURRENT => Err(OpenError::TooNew {
            dir: dir.to_path_buf(),
            found: version,
            supported: CURRENT,
        }),
        Some(_) => {
            for (from, step) in STEPS.iter().enumerate().skip((version.max(1) - 1) as usize) {
                step(db).map_err(unusable)?;
                let to = from as u32 + 2;
                meta.insert(KEY_VERSION, &to.to_be_bytes())
                    .map_err(unusable)?;
                tracing::info!(from = from + 1, to, "store migrated");
            }
            db.flush().map_err(unusable)?;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_store_gets_the_current_version() {
        let db = sled::Config::new().temporary(true).open().unwrap();
        run(&db, Path::new("/tmp/x")).unwrap();
        assert_eq!(schema_version(&db).unwrap(), CURRENT);
        run(&db, Path::new("/tmp/x")).expect("opening again is a no-op");
    }

    #[test]
    fn newer_schema_is_refused() {
        let db = sled::Config::new().temporary(true).open().unwrap();
        run(&db, Path::new("/tmp/x")).unwrap();
        let meta = db.open_tree(META).unwrap();
        meta.insert(KEY_VERSION, &(CURRENT + 1).to_be_bytes())
            .unwrap();
        assert!(matches!(
            run(&db, Path::new("/tmp/x")),
            Err(OpenError::TooNew { .. })
        ));
    }

    #[test]
    fn a_sled_database_of_another_program_is_refused() {
        let db = sled::Config::new().temporary(true).open().unwrap();
        db.open_tree("someone_elses")
            .unwrap()
            .insert(b"k", b"v")
            .unwrap();
        assert!(matches!(
            run(&db, Path::new("/tmp/x")),
            Err(OpenError::NotHighchair(_))
        ));
    }
}
