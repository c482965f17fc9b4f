//! Adult invites to a family, keyed `family ++ invite`, with an index from the link token's
//! hash to that key. Taking one (joining) is part of the account write in `users`.

use super::write::{Abort, Core, Entity, Shared, TreeId, Tx, TxResult};
use super::{Record, StoreError, keys};
use crate::domain::DomainError;
use crate::domain::change::{ChangeId, Kind};
use crate::domain::family::{FamilyInvite, INVITE_TITLE, INVITES_MAX};
use crate::domain::ids::{FamilyId, InviteId};

impl Record for FamilyInvite {
    const VERSION: u8 = 1;
}

pub(crate) fn invite_key(family: FamilyId, id: InviteId) -> [u8; 32] {
    keys::owned(family.as_bytes(), id.as_bytes())
}

impl Entity for FamilyInvite {
    const TREE: TreeId = TreeId::FamilyInvites;
    const KIND: Kind = Kind::Family;

    fn key(&self) -> Vec<u8> {
        invite_key(self.family, self.id).to_vec()
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
        vec![(TreeId::InviteTokens, self.token_hash.to_vec(), self.key())]
    }
}

/// The invite behind a link token's hash, inside a transaction.
pub(crate) fn by_token(tx: &Tx<'_>, hash: &[u8; 32]) -> TxResult<Option<FamilyInvite>> {
    match tx.get_raw(TreeId::InviteTokens, hash)? {
        Some(key) => tx.get(&key),
        None => Ok(None),
    }
}

/// The invite behind a link token's hash, as committed.
pub(crate) fn find(core: &Core, hash: &[u8; 32]) -> Result<Option<FamilyInvite>, StoreError> {
    match core.tree(TreeId::InviteTokens).get(hash)? {
        Some(key) => core.read(&key),
        None => Ok(None),
    }
}

/// The keys of every invite of a family (for a scan before a transaction).
pub(crate) fn keys_of(core: &Core, family: FamilyId) -> Result<Vec<sled::IVec>, Abort> {
    core.keys(TreeId::FamilyInvites, family.as_bytes(), usize::MAX)
}

/// Removes invites by key, inside a transaction (the family's last member is leaving).
pub(crate) fn delete_all(tx: &Tx<'_>, keys: &[sled::IVec]) -> TxResult<()> {
    for key in keys {
        tx.delete::<FamilyInvite>(key, false)?;
    }
    Ok(())
}

pub struct Invites {
    core: Shared,
}

impl Invites {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new invite, unless the family already holds `INVITES_MAX` open ones.
    pub async fn insert(
        &self,
        invite: &FamilyInvite,
    ) -> Result<FamilyInvite, super::WriteError<FamilyInvite>> {
        self.core
            .commit_scanned(
                // Expired links (until housekeeping removes them) do not count.
                |_| {
                    let open = self
                        .list(invite.family)
                        .map_err(|e| Abort::Corrupt(e.to_string()))?
                        .iter()
                        .filter(|i| !i.is_expired(invite.created_at))
                        .count();
                    Ok(open)
                },
                |tx, open| {
                    tx.check_family(invite.family)?;
                    if *open >= INVITES_MAX {
                        return super::write::abort(Abort::Rule(DomainError::conflict(
                            INVITE_TITLE,
                            "This family already has 10 open invite links. Revoke one first.",
                        )));
                    }
                    tx.insert(invite)
                },
            )
            .await
            .map_err(super::write::write_error)
    }

    /// The family's invites, oldest first.
    pub fn list(&self, family: FamilyId) -> Result<Vec<FamilyInvite>, StoreError> {
        self.core
            .tree(TreeId::FamilyInvites)
            .scan_prefix(family.as_bytes())
            .values()
            .map(|v| FamilyInvite::decode(&v?))
            .collect()
    }

    /// The invite behind a link token's hash.
    pub fn by_token(&self, hash: &[u8; 32]) -> Result<Option<FamilyInvite>, StoreError> {
        find(&self.core, hash)
    }

    /// Revokes an invite of the family. `false` when there was none.
    pub async fn delete(&self, family: FamilyId, id: InviteId) -> Result<bool, StoreError> {
        let key = invite_key(family, id);
        let gone = self
            .core
            .commit(|tx| tx.delete::<FamilyInvite>(&key, true))
            .await?;
        Ok(gone.is_some())
    }

    /// Removes expired invites. Returns how many.
    pub async fn purge_expired(
        &self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<usize, StoreError> {
        let mut expired = Vec::new();
        for value in self.core.tree(TreeId::FamilyInvites).iter().values() {
            let invite = FamilyInvite::decode(&value?)?;
            if invite.is_expired(now) {
                expired.push(invite.key());
            }
        }
        for key in &expired {
            self.core
                .commit(|tx| tx.delete::<FamilyInvite>(key, true))
                .await?;
        }
        Ok(expired.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::UserId;
    use crate::store::tests::temp_store;
    use chrono::Utc;

    #[tokio::test]
    async fn invites_are_found_by_token_listed_per_family_and_capped() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let now = Utc::now();
        let first = FamilyInvite::new(family, UserId::new(), [7; 32], now);
        store.invites.insert(&first).await.unwrap();
        assert_eq!(
            store.invites.by_token(&[7; 32]).unwrap().unwrap().id,
            first.id
        );
        assert!(store.invites.by_token(&[8; 32]).unwrap().is_none());
        for n in 1..INVITES_MAX as u8 {
            let more = FamilyInvite::new(family, UserId::new(), [n + 10; 32], now);
            store.invites.insert(&more).await.unwrap();
        }
        let one_too_many = FamilyInvite::new(family, UserId::new(), [99; 32], now);
        assert!(store.invites.insert(&one_too_many).await.is_err());
        assert_eq!(store.invites.list(family).unwrap().len(), INVITES_MAX);
        assert!(store.invites.list(FamilyId::new()).unwrap().is_empty());
        assert!(store.invites.delete(family, first.id).await.unwrap());
        assert!(
            store.invites.by_token(&[7; 32]).unwrap().is_none(),
            "index goes too"
        );
        assert!(!store.invites.delete(family, first.id).await.unwrap());
        let later = now + chrono::Duration::days(8);
        assert_eq!(
            store.invites.purge_expired(later).await.unwrap(),
            INVITES_MAX - 1
        );
        assert!(store.invites.list(family).unwrap().is_empty());
    }

    #[tokio::test]
    async fn expired_links_do_not_count_towards_the_cap() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let long_ago = Utc::now() - chrono::Duration::days(8);
        for n in 0..INVITES_MAX as u8 {
            let old = FamilyInvite::new(family, UserId::new(), [n; 32], long_ago);
            store.invites.insert(&old).await.unwrap();
        }
        let fresh = FamilyInvite::new(family, UserId::new(), [200; 32], Utc::now());
        store
            .invites
            .insert(&fresh)
            .await
            .expect("the old links have expired");
    }
}
