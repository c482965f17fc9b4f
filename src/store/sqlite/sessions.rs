//! Sign-in sessions, keyed by the SHA-256 of their token. A session names its account (a
//! foreign key: removing the account removes its sessions); `sessions_by_user` ends them all
//! at once. Sliding the expiry is one UPDATE of a session that still exists, so a touch racing
//! a logout cannot bring the session back. `get_with_account` (the session and its account) runs
//! on every signed-in request: kept in memory until the next commit (`cache`), else one trip
//! to a reader.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::cache::CommitCache;
use super::core::{Abort, Shared, Tx};
use super::values::{get_time, get_u64, int, time};
use crate::domain::change::Change;
use crate::domain::ids::UserId;
use crate::domain::user::User;
use crate::store::StoreError;
use crate::store::sessions::Session;

/// Expired sessions removed per write by `purge_expired` (a purge never holds the writer long).
const PURGE_BATCH: i64 = 500;

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Session> {
    Ok(Session {
        user_id: r.get(0)?,
        epoch: get_u64(r, 1)?,
        created_at: get_time(r, 2)?,
        expires_at: get_time(r, 3)?,
        last_seen_at: get_time(r, 4)?,
    })
}

/// Writes a session of an existing account (replacing one under the same hash); how many rows
/// it wrote (0: no such account). The repository and the importer both store sessions so.
pub(crate) fn store_row(
    conn: &rusqlite::Connection,
    hash: [u8; 32],
    s: &Session,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO sessions
            (token_hash, user_id, epoch, created_at, expires_at, last_seen_at)
         SELECT ?1, id, ?3, ?4, ?5, ?6 FROM users WHERE id = ?2
         ON CONFLICT (token_hash) DO UPDATE
         SET user_id = excluded.user_id, epoch = excluded.epoch,
             created_at = excluded.created_at, expires_at = excluded.expires_at,
             last_seen_at = excluded.last_seen_at",
    )?
    .execute(params![
        hash,
        s.user_id,
        int(s.epoch),
        time(s.created_at),
        time(s.expires_at),
        time(s.last_seen_at)
    ])
}

fn by_hash(conn: &rusqlite::Connection, hash: [u8; 32]) -> rusqlite::Result<Option<Session>> {
    conn.prepare_cached(
        "SELECT user_id, epoch, created_at, expires_at, last_seen_at
         FROM sessions WHERE token_hash = ?1",
    )?
    .query_row([hash], from_row)
    .optional()
}

/// Ends every session of an account inside a write (the account is deleted, or its password
/// changed). Their open event streams hear it after the commit. Returns how many ended.
pub(crate) fn delete_all_of_user(tx: &mut Tx<'_>, user: UserId) -> Result<usize, Abort> {
    let ended = tx
        .conn
        .prepare_cached("DELETE FROM sessions WHERE user_id = ?1")?
        .execute([user])?;
    tx.note(Change::SessionsEnded {
        user,
        session: None,
    });
    Ok(ended)
}

/// Sessions (with their accounts) kept between commits: a family server has a few dozen.
const CACHED: usize = 256;

pub struct Sessions {
    core: Shared,
    /// What `get_with_account` found, as long as nothing was committed since.
    cache: CommitCache<[u8; 32], (Session, Option<User>)>,
}

impl Sessions {
    pub(crate) fn new(core: Shared) -> Self {
        Self {
            core,
            cache: CommitCache::new(CACHED),
        }
    }

    /// Stores a session of an existing account (one stored under the same hash is replaced).
    /// `false` (nothing stored) when the account no longer exists: it was deleted while its
    /// owner signed in.
    pub async fn insert(&self, hash: &[u8; 32], session: &Session) -> Result<bool, StoreError> {
        let (hash, s) = (*hash, session.clone());
        Ok(self
            .core
            .commit(move |tx| {
                let stored = store_row(tx.conn, hash, &s)?;
                Ok::<_, Abort>(stored == 1)
            })
            .await?)
    }

    /// The session behind a token's hash, expired or not.
    pub async fn get(&self, hash: &[u8; 32]) -> Result<Option<Session>, StoreError> {
        let hash = *hash;
        self.core.read(move |conn| by_hash(conn, hash)).await
    }

    /// A session and its account, in one trip to a reader (every signed-in request asks for
    /// both): `None` without the session, the account `None` when it is gone.
    pub async fn get_with_account(
        &self,
        hash: &[u8; 32],
    ) -> Result<Option<(Session, Option<User>)>, StoreError> {
        let hash = *hash;
        // Read before the query: a commit landing meanwhile makes the answer stale at once.
        let generation = self.core.db.generation();
        if let Some(kept) = self.cache.get(&hash, generation) {
            return Ok(Some(kept));
        }
        let found = self
            .core
            .read(move |conn| {
                let Some(session) = by_hash(conn, hash)? else {
                    return Ok(None);
                };
                let user = super::users::user_by_id(conn, session.user_id)?;
                Ok(Some((session, user)))
            })
            .await?;
        if let Some(found) = &found {
            self.cache.put(hash, generation, found.clone());
        }
        Ok(found)
    }

    /// Slides a session's expiry, if the session still exists.
    pub async fn touch(
        &self,
        hash: &[u8; 32],
        now: DateTime<Utc>,
        expires_at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let hash = *hash;
        self.core
            .commit(move |tx| {
                tx.conn
                    .prepare_cached(
                        "UPDATE sessions SET last_seen_at = ?2, expires_at = ?3
                         WHERE token_hash = ?1",
                    )?
                    .execute(params![hash, time(now), time(expires_at)])?;
                Ok::<_, Abort>(())
            })
            .await?;
        Ok(())
    }

    /// Ends one session (its open event streams end too).
    pub async fn delete(&self, hash: &[u8; 32]) -> Result<(), StoreError> {
        let hash = *hash;
        self.core
            .commit(move |tx| {
                let user: Option<UserId> = tx
                    .conn
                    .prepare_cached("DELETE FROM sessions WHERE token_hash = ?1 RETURNING user_id")?
                    .query_row([hash], |r| r.get(0))
                    .optional()?;
                if let Some(user) = user {
                    tx.note(Change::SessionsEnded {
                        user,
                        session: Some(hash),
                    });
                }
                Ok::<_, Abort>(())
            })
            .await?;
        Ok(())
    }

    /// Ends every session of a user (password reset). Returns how many.
    pub async fn delete_all_for(&self, user: UserId) -> Result<usize, StoreError> {
        Ok(self
            .core
            .commit(move |tx| delete_all_of_user(tx, user))
            .await?)
    }

    /// Removes sessions that expired at or before `now`, a batch per write.
    pub async fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut removed = 0;
        loop {
            let gone = self
                .core
                .commit(move |tx| {
                    Ok::<_, Abort>(
                        tx.conn
                            .prepare_cached(
                                "DELETE FROM sessions WHERE token_hash IN (
                                    SELECT token_hash FROM sessions WHERE expires_at <= ?1
                                    LIMIT ?2)",
                            )?
                            .execute(params![time(now), PURGE_BATCH])?,
                    )
                })
                .await?;
            removed += gone;
            if (gone as i64) < PURGE_BATCH {
                return Ok(removed);
            }
        }
    }

    /// How many sessions a user has.
    pub async fn count_for(&self, user: UserId) -> Result<usize, StoreError> {
        self.core
            .read(move |conn| {
                conn.prepare_cached("SELECT count(*) FROM sessions WHERE user_id = ?1")?
                    .query_row([user], |r| r.get::<_, i64>(0))
                    .map(|n| n.max(0) as usize)
            })
            .await
    }

    pub async fn len(&self) -> Result<usize, StoreError> {
        self.core
            .read(|conn| {
                conn.prepare_cached("SELECT count(*) FROM sessions")?
                    .query_row([], |r| r.get::<_, i64>(0))
                    .map(|n| n.max(0) as usize)
            })
            .await
    }

    pub async fn is_empty(&self) -> Result<bool, StoreError> {
        self.core
            .read(|conn| {
                conn.prepare_cached("SELECT NOT EXISTS (SELECT 1 FROM sessions)")?
                    .query_row([], |r| r.get(0))
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use chrono::Duration;

    use super::*;
    use crate::store::sqlite::core;
    use crate::store::sqlite::tests::{account, delete_in_sql, temp_core};
    use crate::store::sqlite::users::Users;

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

    /// Every change the store announces from now on.
    fn heard(core: &core::Shared) -> Arc<Mutex<Vec<Change>>> {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = heard.clone();
        core.on_change(Box::new(move |changes| {
            sink.lock().unwrap().extend_from_slice(changes)
        }));
        heard
    }

    #[tokio::test]
    async fn insert_touch_delete_and_end_all() {
        let (_dir, core) = temp_core();
        let sessions = Sessions::new(core.clone());
        let user = account(&core, "a@example.org").await.id;
        let (a, b) = ([1u8; 32], [2u8; 32]);
        assert!(
            sessions
                .insert(&a, &session(user, Duration::days(1)))
                .await
                .unwrap()
        );
        assert!(
            sessions
                .insert(&b, &session(user, Duration::days(1)))
                .await
                .unwrap()
        );
        assert_eq!(sessions.count_for(user).await.unwrap(), 2);
        let (found, owner) = sessions.get_with_account(&a).await.unwrap().unwrap();
        assert_eq!(found, sessions.get(&a).await.unwrap().unwrap());
        assert_eq!(
            owner.unwrap().id,
            user,
            "the session comes with its account"
        );
        assert!(sessions.get_with_account(&[7; 32]).await.unwrap().is_none());
        let later = Utc::now() + Duration::days(5);
        sessions.touch(&a, Utc::now(), later).await.unwrap();
        assert_eq!(sessions.get(&a).await.unwrap().unwrap().expires_at, later);

        sessions.delete(&a).await.unwrap();
        assert!(sessions.get(&a).await.unwrap().is_none());
        sessions.touch(&a, Utc::now(), later).await.unwrap();
        assert!(
            sessions.get(&a).await.unwrap().is_none(),
            "a touch does not bring an ended session back"
        );
        assert_eq!(sessions.count_for(user).await.unwrap(), 1);
        assert_eq!(sessions.delete_all_for(user).await.unwrap(), 1);
        assert!(sessions.is_empty().await.unwrap());
        assert_eq!(sessions.count_for(user).await.unwrap(), 0);
    }

    #[tokio::test]
    async fn expired_sessions_are_purged_with_their_index() {
        let (_dir, core) = temp_core();
        let sessions = Sessions::new(core.clone());
        let user = account(&core, "a@example.org").await.id;
        sessions
            .insert(&[1u8; 32], &session(user, Duration::seconds(-1)))
            .await
            .unwrap();
        sessions
            .insert(&[2u8; 32], &session(user, Duration::days(1)))
            .await
            .unwrap();
        assert_eq!(sessions.purge_expired(Utc::now()).await.unwrap(), 1);
        assert_eq!(sessions.len().await.unwrap(), 1);
        assert_eq!(sessions.count_for(user).await.unwrap(), 1);
    }

    #[tokio::test]
    async fn purging_many_expired_sessions_takes_several_batches() {
        let (_dir, core) = temp_core();
        let sessions = Sessions::new(core.clone());
        let user = account(&core, "a@example.org").await.id;
        let n = PURGE_BATCH as usize + 3;
        for i in 0..n {
            let mut hash = [0u8; 32];
            hash[..8].copy_from_slice(&(i as u64).to_be_bytes());
            sessions
                .insert(&hash, &session(user, Duration::seconds(-1)))
                .await
                .unwrap();
        }
        sessions
            .insert(&[0xff; 32], &session(user, Duration::days(1)))
            .await
            .unwrap();
        assert_eq!(sessions.purge_expired(Utc::now()).await.unwrap(), n);
        assert_eq!(sessions.len().await.unwrap(), 1);
    }

    #[tokio::test]
    async fn every_field_comes_back_and_other_accounts_are_untouched() {
        let (_dir, core) = temp_core();
        let sessions = Sessions::new(core.clone());
        let (ann, bob) = (
            account(&core, "ann@example.org").await.id,
            account(&core, "bob@example.org").await.id,
        );
        let now = Utc::now();
        let stored = Session {
            user_id: ann,
            epoch: 7,
            created_at: now - Duration::hours(3),
            expires_at: now + Duration::days(30),
            last_seen_at: now - Duration::minutes(5),
        };
        assert!(sessions.insert(&[9; 32], &stored).await.unwrap());
        assert_eq!(sessions.get(&[9; 32]).await.unwrap(), Some(stored.clone()));
        let again = Session { epoch: 8, ..stored };
        assert!(sessions.insert(&[9; 32], &again).await.unwrap());
        assert_eq!(
            sessions.get(&[9; 32]).await.unwrap(),
            Some(again),
            "the same hash again replaces the session"
        );
        assert!(sessions.get(&[8; 32]).await.unwrap().is_none());
        sessions
            .insert(&[10; 32], &session(bob, Duration::days(1)))
            .await
            .unwrap();
        assert_eq!(sessions.delete_all_for(ann).await.unwrap(), 1);
        assert_eq!(sessions.count_for(bob).await.unwrap(), 1, "bob stays");
        assert_eq!(sessions.delete_all_for(ann).await.unwrap(), 0);
    }

    #[tokio::test]
    async fn a_session_needs_its_account_and_goes_with_it() {
        let (_dir, core) = temp_core();
        let sessions = Sessions::new(core.clone());
        assert!(
            !sessions
                .insert(&[1; 32], &session(UserId::new(), Duration::days(1)))
                .await
                .unwrap(),
            "no account, no session"
        );
        assert!(sessions.is_empty().await.unwrap());
        let user = account(&core, "a@example.org").await.id;
        sessions
            .insert(&[2; 32], &session(user, Duration::days(1)))
            .await
            .unwrap();
        delete_in_sql(&core, user).await;
        assert!(sessions.is_empty().await.unwrap(), "removed by cascade");
    }

    #[tokio::test]
    async fn a_kept_session_is_read_again_after_any_commit() {
        let (_dir, core) = temp_core();
        let sessions = Sessions::new(core.clone());
        let users = Users::new(core.clone());
        let user = account(&core, "a@example.org").await.id;
        sessions
            .insert(&[1; 32], &session(user, Duration::days(1)))
            .await
            .unwrap();
        let (_, owner) = sessions.get_with_account(&[1; 32]).await.unwrap().unwrap();
        assert_eq!(owner.unwrap().session_epoch, 0);
        let kept = sessions.get_with_account(&[1; 32]).await.unwrap().unwrap();
        assert_eq!(kept.0.user_id, user);

        // The account's password changes elsewhere (a new epoch): the next lookup sees it.
        users
            .update(user, None, |u| {
                u.session_epoch += 1;
                Ok(())
            })
            .await
            .unwrap();
        let (_, owner) = sessions.get_with_account(&[1; 32]).await.unwrap().unwrap();
        assert_eq!(owner.unwrap().session_epoch, 1);

        // Removed in SQL by a cascade no repository announces: gone at once all the same.
        delete_in_sql(&core, user).await;
        assert!(sessions.get_with_account(&[1; 32]).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn endings_are_announced_for_the_event_streams() {
        let (_dir, core) = temp_core();
        let sessions = Sessions::new(core.clone());
        let user = account(&core, "a@example.org").await.id;
        for hash in [[1; 32], [2; 32], [3; 32]] {
            sessions
                .insert(&hash, &session(user, Duration::days(1)))
                .await
                .unwrap();
        }
        let heard = heard(&core);
        sessions.delete(&[1; 32]).await.unwrap();
        sessions.delete(&[1; 32]).await.unwrap();
        let ended = core
            .commit(move |tx| delete_all_of_user(tx, user))
            .await
            .unwrap();
        assert_eq!(ended, 2);
        assert_eq!(
            *heard.lock().unwrap(),
            [
                Change::SessionsEnded {
                    user,
                    session: Some([1; 32])
                },
                Change::SessionsEnded {
                    user,
                    session: None
                },
            ],
            "an unknown session ends nothing"
        );
        assert!(sessions.is_empty().await.unwrap());
    }
}
