//! One-time password reset links, kept as the SHA-256 of their token, valid for an hour. A
//! link names its account (a foreign key: removing the account removes its links).

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::core::{Abort, Shared};
use super::values::{get_time, get_u64, int, time};
use crate::domain::ids::UserId;
use crate::store::StoreError;
use crate::store::reset_tokens::ResetToken;

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ResetToken> {
    Ok(ResetToken {
        user_id: r.get(0)?,
        expires_at: get_time(r, 1)?,
        epoch: get_u64(r, 2)?,
    })
}

pub struct ResetTokens {
    core: Shared,
}

impl ResetTokens {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a link of an existing account (a link made again under the same hash replaces
    /// it). `false` (nothing stored) when the account no longer exists.
    pub async fn insert(&self, hash: &[u8; 32], token: &ResetToken) -> Result<bool, StoreError> {
        let (hash, t) = (*hash, token.clone());
        Ok(self
            .core
            .commit(move |tx| {
                let stored = store_row(tx.conn, hash, &t)?;
                Ok::<_, Abort>(stored == 1)
            })
            .await?)
    }

    /// The link if it exists and has not expired at `now`.
    pub async fn get_valid(
        &self,
        hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<ResetToken>, StoreError> {
        let hash = *hash;
        self.core
            .read(move |conn| {
                conn.prepare_cached(
                    "SELECT user_id, expires_at, epoch FROM reset_tokens
                     WHERE token_hash = ?1 AND expires_at > ?2",
                )?
                .query_row(params![hash, time(now)], from_row)
                .optional()
            })
            .await
    }

    /// Removes and returns the link (one use only); `None` if unknown or expired (an expired
    /// one is removed all the same).
    pub async fn take_valid(
        &self,
        hash: &[u8; 32],
        now: DateTime<Utc>,
    ) -> Result<Option<ResetToken>, StoreError> {
        let hash = *hash;
        let taken = self
            .core
            .commit(move |tx| {
                Ok::<_, Abort>(
                    tx.conn
                        .prepare_cached(
                            "DELETE FROM reset_tokens WHERE token_hash = ?1
                             RETURNING user_id, expires_at, epoch",
                        )?
                        .query_row([hash], from_row)
                        .optional()?,
                )
            })
            .await?;
        Ok(taken.filter(|t| t.expires_at > now))
    }

    /// Removes every link of `user`, and any expired link. Returns how many were removed.
    pub async fn purge(
        &self,
        user: Option<UserId>,
        now: DateTime<Utc>,
    ) -> Result<usize, StoreError> {
        Ok(self
            .core
            .commit(move |tx| {
                Ok::<_, Abort>(
                    tx.conn
                        .prepare_cached(
                            "DELETE FROM reset_tokens WHERE expires_at <= ?1 OR user_id = ?2",
                        )?
                        .execute(params![time(now), user])?,
                )
            })
            .await?)
    }
}

/// Writes a reset link of an existing account (replacing one under the same hash); how many
/// rows it wrote (0: no such account). The repository and the importer both store links so.
pub(crate) fn store_row(
    conn: &rusqlite::Connection,
    hash: [u8; 32],
    t: &ResetToken,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO reset_tokens (token_hash, user_id, epoch, expires_at)
         SELECT ?1, id, ?3, ?4 FROM users WHERE id = ?2
         ON CONFLICT (token_hash) DO UPDATE
         SET user_id = excluded.user_id, epoch = excluded.epoch,
             expires_at = excluded.expires_at",
    )?
    .execute(params![hash, t.user_id, int(t.epoch), time(t.expires_at)])
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::store::sqlite::tests::{account, delete_in_sql, temp_core};

    #[tokio::test]
    async fn a_link_works_once_and_expires() {
        let (_dir, core) = temp_core();
        let links = ResetTokens::new(core.clone());
        let user = account(&core, "a@example.org").await.id;
        let now = Utc::now();
        let token = ResetToken {
            user_id: user,
            expires_at: now + Duration::hours(1),
            epoch: 0,
        };
        assert!(links.insert(&[7; 32], &token).await.unwrap());
        assert_eq!(
            links.get_valid(&[7; 32], now).await.unwrap(),
            Some(token.clone())
        );
        assert!(
            links
                .get_valid(&[7; 32], now + Duration::hours(2))
                .await
                .unwrap()
                .is_none(),
            "expired"
        );
        assert_eq!(links.take_valid(&[7; 32], now).await.unwrap(), Some(token));
        assert!(links.take_valid(&[7; 32], now).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn purge_removes_a_users_links_and_expired_ones() {
        let (_dir, core) = temp_core();
        let links = ResetTokens::new(core.clone());
        let a = account(&core, "a@example.org").await.id;
        let b = account(&core, "b@example.org").await.id;
        let now = Utc::now();
        let link = |user, hours| ResetToken {
            user_id: user,
            expires_at: now + Duration::hours(hours),
            epoch: 0,
        };
        links.insert(&[1; 32], &link(a, 1)).await.unwrap();
        links.insert(&[2; 32], &link(b, 1)).await.unwrap();
        links.insert(&[3; 32], &link(b, -1)).await.unwrap();
        assert_eq!(links.purge(Some(a), now).await.unwrap(), 2);
        assert!(links.get_valid(&[2; 32], now).await.unwrap().is_some());
        assert_eq!(links.purge(None, now).await.unwrap(), 0);
    }

    #[tokio::test]
    async fn every_field_comes_back_and_an_expired_link_is_taken_but_refused() {
        let (_dir, core) = temp_core();
        let links = ResetTokens::new(core.clone());
        let user = account(&core, "a@example.org").await.id;
        let now = Utc::now();
        let token = ResetToken {
            user_id: user,
            expires_at: now + Duration::minutes(59),
            epoch: 12,
        };
        links.insert(&[5; 32], &token).await.unwrap();
        assert_eq!(
            links.get_valid(&[5; 32], now).await.unwrap(),
            Some(token.clone())
        );
        assert!(links.get_valid(&[6; 32], now).await.unwrap().is_none());
        let again = ResetToken { epoch: 13, ..token };
        links.insert(&[5; 32], &again).await.unwrap();
        assert_eq!(
            links.get_valid(&[5; 32], now).await.unwrap(),
            Some(again),
            "the same hash again replaces the link"
        );
        let late = now + Duration::hours(1);
        assert!(links.take_valid(&[5; 32], late).await.unwrap().is_none());
        assert!(
            links.get_valid(&[5; 32], now).await.unwrap().is_none(),
            "used up even though it had expired"
        );
    }

    #[tokio::test]
    async fn a_link_needs_its_account_and_all_of_an_accounts_links_go_at_once() {
        let (_dir, core) = temp_core();
        let links = ResetTokens::new(core.clone());
        let now = Utc::now();
        let link = |user| ResetToken {
            user_id: user,
            expires_at: now + Duration::hours(1),
            epoch: 0,
        };
        assert!(
            !links.insert(&[1; 32], &link(UserId::new())).await.unwrap(),
            "no account, no link"
        );
        assert!(links.get_valid(&[1; 32], now).await.unwrap().is_none());
        let (a, b) = (
            account(&core, "a@example.org").await.id,
            account(&core, "b@example.org").await.id,
        );
        links.insert(&[2; 32], &link(a)).await.unwrap();
        links.insert(&[3; 32], &link(a)).await.unwrap();
        links.insert(&[4; 32], &link(b)).await.unwrap();
        assert_eq!(links.purge(Some(a), now).await.unwrap(), 2);
        assert!(links.get_valid(&[4; 32], now).await.unwrap().is_some());
        delete_in_sql(&core, b).await;
        assert!(
            links.get_valid(&[4; 32], now).await.unwrap().is_none(),
            "removed with the account"
        );
    }
}
