//! One-time password reset tokens (stored as their SHA-256), valid for an hour.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::write::{Core, Shared, TreeId};
use super::{Record, StoreError};
use crate::domain::ids::UserId;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResetToken {
    pub user_id: UserId,
    pub expires_at: DateTime<Utc>,
    /// The account's `session_epoch` when the link was made. Every password change moves the
    /// epoch on, so it revokes every link made before it.
    #[serde(default)]
    pub epoch: u64,
}

impl Record for ResetToken {
    const VERSION: u8 = 1;
}

pub struct ResetTokens {
    core: Shared,
}

/// The keys of every link of `user` (few: links live an hour).
pub(crate) fn keys_of(core: &Core, user: UserId) -> Result<Vec<sled::IVec>, StoreError> {
    let mut found = Vec::new();
    for entry in core.tree(TreeId::ResetTokens).iter() {
        let (key, value) = entry?;
        if ResetToken::decode(&value).is_ok_and(|t| t.user_id == user) {
            found.push(key);
        }
    }
    Ok(found)
}

impl ResetTokens {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    fn tree(&self) -> &sled::Tree {
        self.core.tree(TreeId::ResetTokens)
    }

    pub async fn insert(&self, hash: &[u8; 32], token: &ResetToken) -> Result<(), StoreError> {
        self.tree().insert(hash, token.encode()?)?;
        self.core.flush().await
    }

    /// The token if it exists and has not expired at `now`.
    pub fn get_valid(
        &self,
        hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<ResetToken>, StoreError> {
        let token = self
            .tree()
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
        let Some(removed) = self.tree().remove(hash)? else {
            return Ok(None);
        };
        self.core.flush().await?;
        Ok(Some(ResetToken::decode(&removed)?).filter(|t| t.expires_at > now))
    }

    /// Removes every token of a user, and any expired token. Returns how many were removed.
    pub fn purge(&self, user: Option<UserId>, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut removed = 0;
        for entry in self.tree().iter() {
            let (key, value) = entry?;
            let drop = ResetToken::decode(&value)
                .map_or(true, |t| t.expires_at <= now || Some(t.user_id) == user);
            // Only the value we judged: a token re-issued under the same key meanwhile stays.
            if drop
                && self
                    .tree()
                    .compare_and_swap(&key, Some(value), None::<&[u8]>)?
                    .is_ok()
            {
                removed += 1;
            }
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::temp_store;
    use chrono::Duration;

    #[tokio::test]
    async fn a_link_works_once_and_expires() {
        let (_dir, store) = temp_store();
        let user = UserId::new();
        let now = Utc::now();
        let token = ResetToken {
            user_id: user,
            expires_at: now + Duration::hours(1),
            epoch: 0,
        };
        store.reset_tokens.insert(&[7; 32], &token).await.unwrap();
        assert_eq!(
            store.reset_tokens.get_valid(&[7; 32], now).unwrap(),
            Some(token.clone())
        );
        assert!(
            store
                .reset_tokens
                .get_valid(&[7; 32], now + Duration::hours(2))
                .unwrap()
                .is_none(),
            "expired"
        );
        assert_eq!(
            store.reset_tokens.take_valid(&[7; 32], now).await.unwrap(),
            Some(token)
        );
        assert!(
            store
                .reset_tokens
                .take_valid(&[7; 32], now)
                .await
                .unwrap()
                .is_none()
        );
    }

    #[tokio::test]
    async fn purge_removes_a_users_links_and_expired_ones() {
        let (_dir, store) = temp_store();
        let (a, b) = (UserId::new(), UserId::new());
        let now = Utc::now();
        let link = |user, hours| ResetToken {
            user_id: user,
            expires_at: now + Duration::hours(hours),
            epoch: 0,
        };
        store
            .reset_tokens
            .insert(&[1; 32], &link(a, 1))
            .await
            .unwrap();
        store
            .reset_tokens
            .insert(&[2; 32], &link(b, 1))
            .await
            .unwrap();
        store
            .reset_tokens
            .insert(&[3; 32], &link(b, -1))
            .await
            .unwrap();
        assert_eq!(store.reset_tokens.purge(Some(a), now).unwrap(), 2);
        assert!(
            store
                .reset_tokens
                .get_valid(&[2; 32], now)
                .unwrap()
                .is_some()
        );
    }
}
