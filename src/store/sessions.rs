//! Sign-in sessions, keyed by the SHA-256 of their token; an index per user ends them all at once.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sled::Transactional;
use sled::transaction::TransactionError;

use super::{Record, StoreError, flushed, keys};
use crate::domain::ids::UserId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub user_id: UserId,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
}

impl Record for Session {
    const VERSION: u8 = 1;
}

pub struct Sessions {
    db: sled::Db,
    sessions: sled::Tree,
    by_user: sled::Tree,
}

fn user_key(user: UserId, hash: &[u8; 32]) -> Vec<u8> {
    let mut key = user.as_bytes().to_vec();
    key.extend_from_slice(hash);
    key
}

fn storage(e: TransactionError<()>) -> StoreError {
    match e {
        TransactionError::Storage(e) => StoreError::Sled(e),
        TransactionError::Abort(()) => StoreError::Corrupt("session transaction aborted".into()),
    }
}

impl Sessions {
    pub(super) fn new(db: sled::Db, sessions: sled::Tree, by_user: sled::Tree) -> Self {
        Self {
            db,
            sessions,
            by_user,
        }
    }

    pub async fn insert(&self, hash: &[u8; 32], session: &Session) -> Result<(), StoreError> {
        let value = session.encode()?;
        let index = user_key(session.user_id, hash);
        (&self.sessions, &self.by_user)
            .transaction(|(sessions, by_user)| {
                sessions.insert(hash.as_slice(), value.as_slice())?;
                by_user.insert(index.as_slice(), &[])?;
                Ok(())
            })
            .map_err(storage)?;
        flushed(&self.db).await
    }

    pub fn get(&self, hash: &[u8; 32]) -> Result<Option<Session>, StoreError> {
        self.sessions
            .get(hash)?
            .map(|v| Session::decode(&v))
            .transpose()
    }

    /// Extends a session (sliding expiry). Not flushed: losing it only shortens a session.
    pub fn touch(&self, hash: &[u8; 32], session: &Session) -> Result<(), StoreError> {
        self.sessions.insert(hash, session.encode()?)?;
        Ok(())
    }

    pub async fn delete(&self, hash: &[u8; 32]) -> Result<(), StoreError> {
        if let Some(session) = self.get(hash)? {
            let index = user_key(session.user_id, hash);
            (&self.sessions, &self.by_user)
                .transaction(|(sessions, by_user)| {
                    sessions.remove(hash.as_slice())?;
                    by_user.remove(index.as_slice())?;
                    Ok(())
                })
                .map_err(storage)?;
        }
        flushed(&self.db).await
    }

    /// Ends every session of a user (password reset, account deletion). Returns how many.
    pub async fn delete_all_for(&self, user: UserId) -> Result<usize, StoreError> {
        let mut ended = 0;
        for entry in self.by_user.scan_prefix(user.as_bytes()) {
            let (key, _) = entry?;
            if let Some(hash) = keys::record_part_32(&key) {
                self.sessions.remove(hash)?;
            }
            self.by_user.remove(key)?;
            ended += 1;
        }
        flushed(&self.db).await?;
        Ok(ended)
    }

    /// Removes sessions that expired before `now`.
    pub fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut removed = 0;
        for entry in self.sessions.iter() {
            let (hash, value) = entry?;
            // Unreadable records count as expired.
            let session = Session::decode(&value).ok();
            if session.as_ref().is_some_and(|s| s.expires_at > now) {
                continue;
            }
            if let (Some(session), Ok(hash32)) = (session, <[u8; 32]>::try_from(hash.as_ref())) {
                self.by_user.remove(user_key(session.user_id, &hash32))?;
            }
            self.sessions.remove(hash)?;
            removed += 1;
        }
        Ok(removed)
    }

    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }
}
