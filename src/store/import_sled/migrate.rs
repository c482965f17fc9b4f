//! Schema version in the `meta` tree, and upgrades of older data at open.

use std::path::Path;

use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError};

use crate::store::OpenError;

/// The schema this build writes. Bump it and add a step to `STEPS` when stored data changes shape.
pub const CURRENT: u32 = 3;

pub(crate) const META: &str = "meta";
const KEY_APP: &[u8] = b"app";
const KEY_VERSION: &[u8] = b"schema_version";
const APP: &[u8] = b"highchair";

/// An upgrade step: the trees it writes, and a function that reads the database and returns
/// the writes (`(index into trees, key, value)`; `None` removes). The writes are applied in
/// one transaction with the version bump (a crash leaves the store at the old version, never
/// half-migrated). Reading happens before the transaction: sled cannot read a tree outside a
/// transaction while one runs. Steps must stay small enough for one transaction; bulk rewrites
/// belong in record `upgrade`s, which run when a record is read.
pub(crate) struct Step {
    pub trees: &'static [&'static str],
    pub plan: fn(&sled::Db) -> Result<Vec<Write>, String>,
}

pub(crate) type Write = (usize, Vec<u8>, Option<Vec<u8>>);

/// `STEPS[n]` takes a store from version `n + 1` to `n + 2`.
const STEPS: &[Step] = &[
    // 2: households, versions, revisions. No rewrite: new fields have defaults and accounts
    // upgrade on read (their family id is their own id).
    Step {
        trees: &[],
        plan: |_| Ok(Vec::new()),
    },
    // 3: the member index (family -> accounts), for families with more than one adult.
    Step {
        trees: &["users_by_family"],
        plan: index_members,
    },
];

/// `family ++ user` for every account (accounts are few: one transaction is fine).
fn index_members(db: &sled::Db) -> Result<Vec<Write>, String> {
    use crate::store::Record;
    let users = db.open_tree("users").map_err(|e| e.to_string())?;
    let mut writes = Vec::new();
    for value in users.iter().values() {
        let value = value.map_err(|e| e.to_string())?;
        let user = crate::domain::user::User::decode(&value).map_err(|e| e.to_string())?;
        // `family ++ user`: the family's members are a prefix scan.
        let key = [user.family_id.as_bytes().as_slice(), user.id.as_bytes()].concat();
        writes.push((0, key, Some(Vec::new())));
    }
    Ok(writes)
}

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
            apply(db, &meta, version, STEPS).map_err(|reason| OpenError::Unusable {
                dir: dir.to_path_buf(),
                reason,
            })?;
            // Versions without a step (nothing to rewrite) are recorded too.
            if version < CURRENT {
                meta.insert(KEY_VERSION, &CURRENT.to_be_bytes())
                    .map_err(unusable)?;
            }
            db.flush().map_err(unusable)?;
            Ok(())
        }
    }
}

/// Runs the steps after `version`, each in one transaction with its version bump.
fn apply(db: &sled::Db, meta: &sled::Tree, version: u32, steps: &[Step]) -> Result<(), String> {
    for (n, step) in steps.iter().enumerate().skip((version.max(1) - 1) as usize) {
        let to = n as u32 + 2;
        let mut trees = vec![meta.clone()];
        for name in step.trees {
            trees.push(db.open_tree(name).map_err(|e| e.to_string())?);
        }
        let writes = (step.plan)(db)
            .map_err(|reason| format!("upgrading the data to schema {to} failed: {reason}"))?;
        trees
            .as_slice()
            .transaction(|t| {
                for (tree, key, value) in &writes {
                    let tree = t.get(tree + 1).ok_or_else(|| {
                        ConflictableTransactionError::Abort(format!("no tree {tree} in the step"))
                    })?;
                    match value {
                        Some(v) => tree.insert(key.as_slice(), v.as_slice())?,
                        None => tree.remove(key.as_slice())?,
                    };
                }
                t[0].insert(KEY_VERSION, &to.to_be_bytes())?;
                Ok(())
            })
            .map_err(|e| match e {
                TransactionError::Abort(reason) => {
                    format!("upgrading the data to schema {to} failed: {reason}")
                }
                TransactionError::Storage(e) => e.to_string(),
            })?;
        tracing::info!(from = to - 1, to, "store migrated");
    }
    Ok(())
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

    fn copy_names(_: &sled::Db) -> Result<Vec<Write>, String> {
        Ok(vec![(0, b"renamed".to_vec(), Some(b"yes".to_vec()))])
    }

    fn fails_half_way(_: &sled::Db) -> Result<Vec<Write>, String> {
        // The second write names a tree the step did not declare: the transaction aborts.
        Ok(vec![
            (0, b"half".to_vec(), Some(b"done".to_vec())),
            (5, b"bad record".to_vec(), None),
        ])
    }

    #[test]
    fn a_step_and_its_version_bump_are_one_transaction() {
        let db = sled::Config::new().temporary(true).open().unwrap();
        let meta = db.open_tree(META).unwrap();
        let steps = [
            Step {
                trees: &["things"],
                plan: copy_names,
            },
            Step {
                trees: &["things"],
                plan: fails_half_way,
            },
        ];
        let err = apply(&db, &meta, 1, &steps).unwrap_err();
        assert!(
            err.contains("schema 3") && err.contains("no tree 5"),
            "{err}"
        );
        assert_eq!(version_in(&meta).unwrap(), 2, "the first step landed");
        let things = db.open_tree("things").unwrap();
        assert!(things.get(b"renamed").unwrap().is_some());
        assert!(
            things.get(b"half").unwrap().is_none(),
            "the failed step left nothing behind"
        );
    }

    #[test]
    fn an_older_store_is_brought_to_the_current_version() {
        let db = sled::Config::new().temporary(true).open().unwrap();
        run(&db, Path::new("/tmp/x")).unwrap();
        db.open_tree(META)
            .unwrap()
            .insert(KEY_VERSION, &1u32.to_be_bytes())
            .unwrap();
        run(&db, Path::new("/tmp/x")).unwrap();
        assert_eq!(schema_version(&db).unwrap(), CURRENT);
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
