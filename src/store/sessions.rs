//! Sign-in sessions, keyed by the SHA-256 of their token; an index per user ends them all at
//! once. A session and its index entry are written and removed together; sliding the expiry
//! only ever changes a session that still exists, so a touch racing a logout cannot bring the
//! session back.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::write::{Shared, TreeId, corrupt};
use super::{Record, StoreError, keys};
use crate::domain::change::Change;
use crate::domain::ids::UserId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub user_id: UserId,
    /// The account's `session_epoch` when the session started; an older epoch is ended.
    #[serde(default)]
    pub epoch: u64,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
}

impl Record for Session {
    const VERSION: u8 = 1;
}

pub struct Sessions {
    core: Shared,
}

pub(crate) fn session_index_prefix(user: UserId) -> [u8; 16] {
    *user.as_bytes()
}

fn user_key(user: UserId, hash: &[u8; 32]) -> Vec<u8> {
    keys::join(&[user.as_bytes(), hash])
}

impl Sessions {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    pub async fn insert(&self, hash: &[u8; 32], session: &Session) -> Result<(), StoreError> {
        let value = session.encode()?;
        let index = user_key(session.user_id, hash);
        self.core
            .commit(|tx| {
                tx.insert_raw(TreeId::Sessions, hash, &value)?;
                tx.insert_raw(TreeId::SessionsByUser, &index, &[])
            })
            .await?;
        Ok(())
    }

    pub fn get(&self, hash: &[u8; 32]) -> Result<Option<Session>, StoreError> {
        self.core
            .tree(TreeId::Sessions)
            .get(hash)?
            .map(|v| Session::decode(&v))
            .transpose()
    }

    /// Slides a session's expiry, if the session still exists. Not flushed: losing it only
    /// shortens a session.
    pub fn touch(
        &self,
        hash: &[u8; 32],
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.core.transact(|tx| {
            let Some(raw) = tx.get_raw(TreeId::Sessions, hash)? else {
                return Ok(());
            };
            let mut session = Session::decode(&raw).map_err(corrupt)?;
            session.last_seen_at = now;
            session.expires_at = expires_at;
            let value = session.encode().map_err(corrupt)?;
            tx.insert_raw(TreeId::Sessions, hash, &value)
        })?;
        Ok(())
    }

    /// Ends one session.
    pub async fn delete(&self, hash: &[u8; 32]) -> Result<(), StoreError> {
        self.core
            .commit(|tx| {
                let Some(raw) = tx.remove_raw(TreeId::Sessions, hash)? else {
                    return Ok(());
                };
                if let Ok(session) = Session::decode(&raw) {
                    tx.remove_raw(TreeId::SessionsByUser, &user_key(session.user_id, hash))?;
                    tx.note(Change::SessionsEnded {
                        user: session.user_id,
                        session: Some(*hash),
                    });
                }
                Ok(())
            })
            .await?;
        Ok(())
    }

    /// Ends every session of a user (password reset). Returns how many.
    pub async fn delete_all_for(&self, user: UserId) -> Result<usize, StoreError> {
        let index: Vec<sled::IVec> = self
            .core
            .tree(TreeId::SessionsByUser)
            .scan_prefix(session_index_prefix(user))
            .keys()
            .collect::<Result<_, _>>()?;
        let ended = self
            .core
            .commit(|tx| {
                let mut ended = 0;
                for key in &index {
                    tx.remove_raw(TreeId::SessionsByUser, key)?;
                    if let Some(hash) = keys::record_part_32(key) {
                        ended += usize::from(tx.remove_raw(TreeId::Sessions, &hash)?.is_some());
                    }
                }
                tx.note(Change::SessionsEnded {
                    user,
                    session: None,
                });
                Ok(ended)
            })
            .await?;
        Ok(ended)
    }

    /// Removes sessions that expired before `now`.
    pub fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut removed = 0;
        for entry in self.core.tree(TreeId::Sessions).iter() {
            let (hash, value) = entry?;
            // Unreadable records count as expired.
            let session = Session::decode(&value).ok();
            if session.as_ref().is_some_and(|s| s.expires_at > now) {
                continue;
            }
            let Ok(hash32) = <[u8; 32]>::try_from(hash.as_ref()) else {
                self.core.tree(TreeId::Sessions).remove(hash)?;
                continue;
            };
            let gone = self.core.transact(|tx| {
                // Checked again: a touch may have extended it since the scan.
                let current = tx
                    .get_raw(TreeId::Sessions, &hash32)?
                    .and_then(|raw| Session::decode(&raw).ok());
                if current.as_ref().is_some_and(|s| s.expires_at > now) {
                    return Ok(false);
                }
                tx.remove_raw(TreeId::Sessions, &hash32)?;
                if let Some(s) = current {
                    tx.remove_raw(TreeId::SessionsByUser, &user_key(s.user_id, &hash32))?;
                }
                Ok(true)
            })?;
            removed += usize::from(gone);
        }
        Ok(removed)
    }

    /// How many sessions a user has (by the index).
    pub fn count_for(&self, user: UserId) -> usize {
        self.core
            .tree(TreeId::SessionsByUser)
            .scan_prefix(session_index_prefix(user))
            .count()
    }

    pub fn len(&self) -> usize {
        self.core.tree(TreeId::Sessions).len()
    }

    pub fn is_empty(&self) -> bool {
        self.core.tree(TreeId::Sessions).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::temp_store;
    use chrono::Duration;

    fn session(user: UserId, expires_in: Duration) -> Session {
        let now = Utc::now();
        Session {
            user_id: user,
            epoch: 0,
            created_at: now,
            expires_at: now + expires_in,
            last_seen_at: now,
        }
    }

    #[tokio::test]
    async fn insert_touch_delete_and_end_all() {
        let (_dir, store) = temp_store();
        let user = UserId::new();
        let (a, b) = ([1u8; 32], [2u8; 32]);
        store
            .sessions
            .insert(&a, &session(user, Duration::days(1)))
            .await
            .unwrap();
        store
            .sessions
            .insert(&b, &session(user, Duration::days(1)))
            .await
            .unwrap();
        assert_eq!(store.sessions.count_for(user), 2);
        let later = Utc::now() + Duration::days(5);
        store.sessions.touch(&a, Utc::now(), later).unwrap();
        assert_eq!(store.sessions.get(&a).unwrap().unwrap().expires_at, later);

        store.sessions.delete(&a).await.unwrap();
        assert!(store.sessions.get(&a).unwrap().is_none());
        store.sessions.touch(&a, Utc::now(), later).unwrap();
        assert!(
            store.sessions.get(&a).unwrap().is_none(),
            "a touch does not bring an ended session back"
        );
        assert_eq!(store.sessions.count_for(user), 1);
        assert_eq!(store.sessions.delete_all_for(user).await.unwrap(), 1);
        assert!(store.sessions.is_empty());
        assert_eq!(store.sessions.count_for(user), 0);
    }

    #[tokio::test]
    async fn expired_sessions_are_purged_with_their_index() {
        let (_dir, store) = temp_store();
        let user = UserId::new();
        store
            .sessions
            .insert(&[1u8; 32], &session(user, Duration::seconds(-1)))
            .await
            .unwrap();
        store
            .sessions
            .insert(&[2u8; 32], &session(user, Duration::days(1)))
            .await
            .unwrap();
        assert_eq!(store.sessions.purge_expired(Utc::now()).unwrap(), 1);
        assert_eq!(store.sessions.len(), 1);
        assert_eq!(store.sessions.count_for(user), 1);
    }
}
