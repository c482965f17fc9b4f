//! Co-parents, keyed `family ++ co-parent` (time-ordered ids: a reverse scan is newest first),
//! with an index from the link's token (its 16 bytes) to that key, moved in the same
//! transaction as the record. Every change goes through the write primitive.

use super::write::{Abort, Core, Entity, Shared, TreeId, Tx, TxResult, WriteError};
use super::{Record, StoreError, keys};
use crate::domain::DomainError;
use crate::domain::change::{ChangeId, Kind};
use crate::domain::co_parent::{CoParent, ShareToken, check_can_add};
use crate::domain::ids::{CoParentId, FamilyId};

impl Record for CoParent {
    const VERSION: u8 = 1;
}

fn co_parent_key(family: FamilyId, id: CoParentId) -> [u8; 32] {
    keys::owned(family.as_bytes(), id.as_bytes())
}

impl Entity for CoParent {
    const TREE: TreeId = TreeId::CoParents;
    const KIND: Kind = Kind::CoParent;

    fn key(&self) -> Vec<u8> {
        co_parent_key(self.family, self.id).to_vec()
    }
    fn family(&self) -> FamilyId {
        self.family
    }
    fn id(&self) -> ChangeId {
        self.id.as_uuid().into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
    fn index(&self) -> Vec<(TreeId, Vec<u8>, Vec<u8>)> {
        vec![(
            TreeId::CoParentTokens,
            self.token.as_bytes().to_vec(),
            self.key(),
        )]
    }
}

/// The keys of every co-parent of a family (for a scan before a transaction).
pub(crate) fn keys_of(core: &Core, family: FamilyId) -> Result<Vec<sled::IVec>, Abort> {
    core.keys(TreeId::CoParents, family.as_bytes(), usize::MAX)
}

/// Removes co-parents by key with their token index entries, inside a transaction (the
/// family's last member is leaving: every link stops working at once).
pub(crate) fn delete_all(tx: &Tx<'_>, keys: &[sled::IVec]) -> TxResult<()> {
    for key in keys {
        tx.delete::<CoParent>(key, false)?;
    }
    Ok(())
}

/// Removes the token index entry of a stored co-parent (the family purge, which removes the
/// record itself right after). An unreadable record cannot name its entry; that entry then
/// points at nothing, which `by_token` answers as unknown, so the purge goes on.
pub(crate) fn remove_index_of(core: &Core, value: &[u8]) -> Result<(), StoreError> {
    let co_parent = match CoParent::decode(value) {
        Ok(co_parent) => co_parent,
        Err(e) => {
            tracing::error!(error = %e, "an unreadable co-parent record is purged without its token entry");
            return Ok(());
        }
    };
    for (tree, key, _) in co_parent.index() {
        core.tree(tree).remove(key)?;
    }
    Ok(())
}

pub struct CoParents {
    core: Shared,
}

impl CoParents {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new co-parent, unless the family already has `CO_PARENTS_MAX` or one with
    /// the same e-mail address (checked against the family's co-parents as they are when the
    /// write runs).
    pub async fn insert(&self, co_parent: &CoParent) -> Result<CoParent, WriteError<CoParent>> {
        let family = co_parent.family;
        self.core
            .commit_scanned(
                |core| list_in(core, family).map_err(|e| Abort::Corrupt(e.to_string())),
                |tx, existing| {
                    tx.check_family(family)?;
                    check_can_add(existing, &co_parent.email).map_err(super::write::broken)?;
                    if tx.exists(TreeId::CoParentTokens, co_parent.token.as_bytes())? {
                        return super::write::abort(Abort::Other("share token taken"));
                    }
                    tx.insert(co_parent)
                },
            )
            .await
            .map_err(super::write::write_error)
    }

    pub fn get(&self, family: FamilyId, id: CoParentId) -> Result<Option<CoParent>, StoreError> {
        self.core.read(&co_parent_key(family, id))
    }

    /// The family's co-parents, newest first.
    pub fn list(&self, family: FamilyId) -> Result<Vec<CoParent>, StoreError> {
        list_in(&self.core, family)
    }

    /// The co-parent behind a link's token: one index read and one record read.
    pub fn by_token(&self, token: &ShareToken) -> Result<Option<CoParent>, StoreError> {
        let Some(key) = self
            .core
            .tree(TreeId::CoParentTokens)
            .get(token.as_bytes())?
        else {
            return Ok(None);
        };
        Ok(self
            .core
            .read::<CoParent>(&key)?
            .filter(|c| &c.token == token))
    }

    /// Read-modify-write of one co-parent of the family (`NotFound` for another family's).
    pub async fn update(
        &self,
        family: FamilyId,
        id: CoParentId,
        change: impl Fn(&mut CoParent) -> Result<(), DomainError> + Sync,
    ) -> Result<CoParent, WriteError<CoParent>> {
        self.core
            .update(&co_parent_key(family, id), None, &change)
            .await
    }

    /// Removes a co-parent and its token entry: the link stops working at once. `false` when
    /// the family has no such co-parent.
    pub async fn delete(&self, family: FamilyId, id: CoParentId) -> Result<bool, StoreError> {
        let key = co_parent_key(family, id);
        let gone = self
            .core
            .commit(|tx| tx.delete::<CoParent>(&key, true))
            .await?;
        Ok(gone.is_some())
    }
}

fn list_in(core: &Core, family: FamilyId) -> Result<Vec<CoParent>, StoreError> {
    core.tree(TreeId::CoParents)
        .scan_prefix(family.as_bytes())
        .values()
        .rev()
        .map(|v| CoParent::decode(&v?))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::Utc;

    use super::*;
    use crate::domain::co_parent::{CO_PARENTS_MAX, CoParentDraft, PinHash};
    use crate::domain::ids::UserId;
    use crate::store::tests::temp_store;

    pub(crate) fn co_parent(family: FamilyId, email: &str) -> CoParent {
        let fields = CoParentDraft {
            name: "Siobhán".into(),
            email: email.into(),
        }
        .validate()
        .unwrap();
        CoParent::new(
            family,
            UserId::new(),
            fields,
            PinHash::from_encoded("pbkdf2-sha256$1$AA$AA".into()),
            Utc::now(),
        )
    }

    #[tokio::test]
    async fn co_parents_are_the_familys_newest_first_and_found_by_token() {
        let (_dir, store) = temp_store();
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let first = store
            .co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let second = store
            .co_parents
            .insert(&co_parent(family, "dad@example.org"))
            .await
            .unwrap();
        assert_eq!(first.version, 1);
        let ids: Vec<_> = store
            .co_parents
            .list(family)
            .unwrap()
            .iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, [second.id, first.id]);
        assert!(store.co_parents.list(other).unwrap().is_empty());
        assert_eq!(
            store.co_parents.by_token(&first.token).unwrap().unwrap().id,
            first.id
        );
        assert!(
            store
                .co_parents
                .by_token(&ShareToken::new())
                .unwrap()
                .is_none()
        );
        // Another family's id is unreachable.
        assert!(store.co_parents.get(other, first.id).unwrap().is_none());
        assert!(matches!(
            store.co_parents.update(other, first.id, |_| Ok(())).await,
            Err(WriteError::NotFound)
        ));
        assert!(!store.co_parents.delete(other, first.id).await.unwrap());
        assert_eq!(store.revision(family).unwrap(), 2);
    }

    #[tokio::test]
    async fn updates_are_versioned_and_delete_takes_the_token_with_it() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let c = store
            .co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let now = Utc::now();
        let extended = store
            .co_parents
            .update(family, c.id, |c| {
                c.extend(now);
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(extended.version, 2);
        assert!(extended.expires_at > c.expires_at);
        assert_eq!(
            store
                .co_parents
                .by_token(&c.token)
                .unwrap()
                .unwrap()
                .version,
            2
        );
        assert!(store.co_parents.delete(family, c.id).await.unwrap());
        assert!(store.co_parents.by_token(&c.token).unwrap().is_none());
        assert!(
            store
                .core
                .tree(TreeId::CoParentTokens)
                .get(c.token.as_bytes())
                .unwrap()
                .is_none(),
            "index entry removed"
        );
        assert!(!store.co_parents.delete(family, c.id).await.unwrap());
    }

    #[tokio::test]
    async fn one_invite_per_email_and_at_most_the_cap_per_family() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        store
            .co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let twice = store
            .co_parents
            .insert(&co_parent(family, "NAN@example.org"))
            .await;
        assert!(matches!(
            twice,
            Err(WriteError::Rule(DomainError::Conflict { .. }))
        ));
        // The same person may be a co-parent of another family.
        store
            .co_parents
            .insert(&co_parent(FamilyId::new(), "nan@example.org"))
            .await
            .unwrap();
        for n in 1..CO_PARENTS_MAX {
            store
                .co_parents
                .insert(&co_parent(family, &format!("p{n}@example.org")))
                .await
                .unwrap();
        }
        let over = store
            .co_parents
            .insert(&co_parent(family, "late@example.org"))
            .await;
        assert!(matches!(
            over,
            Err(WriteError::Rule(DomainError::Conflict { .. }))
        ));
        assert_eq!(store.co_parents.list(family).unwrap().len(), CO_PARENTS_MAX);
    }

    #[tokio::test]
    async fn a_deleted_familys_co_parents_and_their_tokens_are_purged() {
        let (_dir, store) = temp_store();
        let (gone, kept) = (FamilyId::new(), FamilyId::new());
        let mut tokens = Vec::new();
        for n in 0..3 {
            let c = store
                .co_parents
                .insert(&co_parent(gone, &format!("p{n}@example.org")))
                .await
                .unwrap();
            tokens.push(c.token);
        }
        let stays = store
            .co_parents
            .insert(&co_parent(kept, "stay@example.org"))
            .await
            .unwrap();
        while store.jobs.purge_family(gone).unwrap() > 0 {}
        assert!(store.co_parents.list(gone).unwrap().is_empty());
        for token in &tokens {
            assert!(store.co_parents.by_token(token).unwrap().is_none());
            assert!(
                store
                    .core
                    .tree(TreeId::CoParentTokens)
                    .get(token.as_bytes())
                    .unwrap()
                    .is_none()
            );
        }
        assert_eq!(
            store.co_parents.by_token(&stays.token).unwrap().unwrap().id,
            stays.id
        );
    }

    #[tokio::test]
    async fn the_last_account_leaving_ends_every_link_of_the_family_at_once() {
        let (_dir, store) = temp_store();
        let owner = crate::store::users::tests::user("mum@example.org");
        store.users.insert(&owner, true).await.unwrap();
        let c = store
            .co_parents
            .insert(&co_parent(owner.family_id, "nan@example.org"))
            .await
            .unwrap();
        store
            .users
            .delete_account(owner.id, |_| true)
            .await
            .unwrap()
            .unwrap();
        // Before the purge job has run.
        assert!(store.co_parents.by_token(&c.token).unwrap().is_none());
        assert!(store.co_parents.list(owner.family_id).unwrap().is_empty());
        assert!(
            store
                .core
                .tree(TreeId::CoParentTokens)
                .get(c.token.as_bytes())
                .unwrap()
                .is_none()
        );
    }

    #[tokio::test]
    async fn a_deleted_family_takes_no_new_co_parents() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        store
            .core
            .commit(|tx| tx.mark_family_deleted(family))
            .await
            .unwrap();
        assert!(matches!(
            store
                .co_parents
                .insert(&co_parent(family, "late@example.org"))
                .await,
            Err(WriteError::NotFound)
        ));
    }
}
