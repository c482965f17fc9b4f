//! Co-parents' share sessions, keyed by the SHA-256 of their token. A session names the
//! co-parent and the PIN epoch it was opened in; the co-parent's record decides whether it
//! still admits (`CoParent::admits`), so a PIN reset or a removal ends every session at once
//! without touching this tree. Expired sessions are purged by housekeeping.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::write::{Shared, TreeId};
use super::{Record, StoreError};
use crate::domain::change::Change;
use crate::domain::ids::{CoParentId, FamilyId};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShareSession {
    pub co_parent: CoParentId,
    pub family: FamilyId,
    /// The co-parent's `session_epoch` when the session was opened.
    pub epoch: u64,
    pub created_at: DateTime<Utc>,
    /// Fixed at opening (24 hours), never slid.
    pub expires_at: DateTime<Utc>,
}

impl Record for ShareSession {
    const VERSION: u8 = 1;
}

pub struct ShareSessions {
    core: Shared,
}

impl ShareSessions {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    pub async fn insert(&self, hash: &[u8; 32], session: &ShareSession) -> Result<(), StoreError> {
        let value = session.encode()?;
        self.core
            .commit(|tx| tx.insert_raw(TreeId::ShareSessions, hash, &value))
            .await?;
        Ok(())
    }

    pub fn get(&self, hash: &[u8; 32]) -> Result<Option<ShareSession>, StoreError> {
        self.core
            .tree(TreeId::ShareSessions)
            .get(hash)?
            .map(|v| ShareSession::decode(&v))
            .transpose()
    }

    /// Ends one session (the co-parent's Logout).
    pub async fn delete(&self, hash: &[u8; 32]) -> Result<(), StoreError> {
        self.core
            .commit(|tx| {
                if tx.remove_raw(TreeId::ShareSessions, hash)?.is_some() {
                    // Its open event stream ends too.
                    tx.note(Change::ShareSessionEnded { session: *hash });
                }
                Ok(())
            })
            .await?;
        Ok(())
    }

    /// Removes sessions that expired before `now` (unreadable ones too). Returns how many.
    pub fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let live = |value: &[u8]| ShareSession::decode(value).is_ok_and(|s| s.expires_at > now);
        let mut removed = 0;
        for entry in self.core.tree(TreeId::ShareSessions).iter() {
            let (hash, value) = entry?;
            if live(&value) {
                continue;
            }
            removed += usize::from(self.core.transact(|tx| {
                Ok(match tx.get_raw(TreeId::ShareSessions, &hash)? {
                    Some(value) if !live(&value) => {
                        tx.remove_raw(TreeId::ShareSessions, &hash)?;
                        true
                    }
                    _ => false,
                })
            })?);
        }
        Ok(removed)
    }

    pub fn len(&self) -> usize {
        self.core.tree(TreeId::ShareSessions).len()
    }

    pub fn is_empty(&self) -> bool {
        self.core.tree(TreeId::ShareSessions).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::temp_store;
    use chrono::Duration;

    fn session(expires_in: Duration) -> ShareSession {
        let now = Utc::now();
        ShareSession {
            co_parent: CoParentId::new(),
            family: FamilyId::new(),
            epoch: 2,
            created_at: now,
            expires_at: now + expires_in,
        }
    }

    #[tokio::test]
    async fn sessions_are_stored_ended_and_purged_when_expired() {
        let (_dir, store) = temp_store();
        let live = session(Duration::hours(24));
        let old = session(Duration::seconds(-1));
        store.share_sessions.insert(&[1; 32], &live).await.unwrap();
        store.share_sessions.insert(&[2; 32], &old).await.unwrap();
        assert_eq!(store.share_sessions.get(&[1; 32]).unwrap(), Some(live));
        assert_eq!(store.share_sessions.purge_expired(Utc::now()).unwrap(), 1);
        assert!(store.share_sessions.get(&[2; 32]).unwrap().is_none());
        store.share_sessions.delete(&[1; 32]).await.unwrap();
        assert!(store.share_sessions.is_empty());
    }
}
