//! One-time password reset tokens (stored as their SHA-256), valid for an hour.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Record, StoreError, flushed};
use crate::domain::ids::UserId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResetToken {
    pub user_id: UserId,
    pub expires_at: DateTime<Utc>,
}

impl Record for ResetToken {
    const VERSION: u8 = 1;
}

pub struct ResetTokens {
    db: sled::Db,
    tree: sled::Tree,
}

impl ResetTokens {
    pub(super) fn new(db: sled::Db, tree: sled::Tree) -> Self {
        Self { db, tree }
    }

    pub async fn insert(&self, hash: &[u8; 32], token: &ResetToken) -> Result<(), StoreError> {
        self.tree.insert(hash, token.encode()?)?;
        flushed(&self.db).await
    }

    /// The token if it exists and has not expired at `now`.
    pub fn get_valid(
        &self,
        hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<ResetToken>, StoreError> {
        let token = self
            .tree
            .get(hash)?
            .map(|v| ResetToken::decode(&v))
            .transpose()?;
        Ok(token.filter(|t| t.expires_at > now))
    }

    /// Removes and returns the token (one use only); `None` if unknown or expired.
    pub async fn take_valid(
        &self,
        hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<ResetToken>, StoreError> {
        let Some(removed) = self.tree.remove(hash)? else {
            return Ok(None);
        };
        flushed(&self.db).await?;
        Ok(Some(ResetToken::decode(&removed)?).filter(|t| t.expires_at > now))
    }

    /// Removes every token of a user, and any expired token. Returns how many were removed.
    pub fn purge(&self, user: Option<UserId>, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut removed = 0;
        for entry in self.tree.iter() {
            let (key, value) = entry?;
            let drop = ResetToken::decode(&value)
                .map_or(true, |t| t.expires_at <= now || Some(t.user_id) == user);
            if drop {
                self.tree.remove(key)?;
                removed += 1;
            }
        }
        Ok(removed)
    }
}
