//! Co-parents' share sessions, keyed by the SHA-256 of their token. A session names its
//! co-parent (a foreign key: removing the co-parent removes its sessions) and the PIN epoch
//! it was opened in; the co-parent's record decides whether it still admits
//! (`CoParent::admits`), so a PIN reset ends every session at once without touching this
//! table. Expired sessions are purged by housekeeping.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::core::{Abort, Shared};
use super::values::{get_time, get_u64, int, time};
use crate::domain::change::Change;
use crate::store::StoreError;
use crate::store::share_sessions::ShareSession;

/// Expired sessions removed per write by `purge_expired`.
const PURGE_BATCH: i64 = 500;

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ShareSession> {
    Ok(ShareSession {
        co_parent: r.get(0)?,
        family: r.get(1)?,
        epoch: get_u64(r, 2)?,
        created_at: get_time(r, 3)?,
        expires_at: get_time(r, 4)?,
    })
}

pub struct ShareSessions {
    core: Shared,
}

impl ShareSessions {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a session of an existing co-parent of `session.family` (one stored under the
    /// same hash is replaced). `false` (nothing stored) when the family has no such co-parent:
    /// it was removed while the session opened.
    pub async fn insert(
        &self,
        hash: &[u8; 32],
        session: &ShareSession,
    ) -> Result<bool, StoreError> {
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
    pub async fn get(&self, hash: &[u8; 32]) -> Result<Option<ShareSession>, StoreError> {
        let hash = *hash;
        self.core
            .read(move |conn| {
                conn.prepare_cached(
                    "SELECT co_parent_id, family_id, epoch, created_at, expires_at
                     FROM share_sessions WHERE token_hash = ?1",
                )?
                .query_row([hash], from_row)
                .optional()
            })
            .await
    }

    /// Ends one session (the co-parent's Logout); its open event stream ends too.
    pub async fn delete(&self, hash: &[u8; 32]) -> Result<(), StoreError> {
        let hash = *hash;
        self.core
            .commit(move |tx| {
                let removed = tx
                    .conn
                    .prepare_cached("DELETE FROM share_sessions WHERE token_hash = ?1")?
                    .execute([hash])?;
                if removed > 0 {
                    tx.note(Change::ShareSessionEnded { session: hash });
                }
                Ok::<_, Abort>(())
            })
            .await?;
        Ok(())
    }

    /// Removes sessions expired at `now`, a batch per write. Returns how many.
    pub async fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut removed = 0;
        loop {
            let gone = self
                .core
                .commit(move |tx| {
                    Ok::<_, Abort>(
                        tx.conn
                            .prepare_cached(
                                "DELETE FROM share_sessions WHERE token_hash IN (
                                    SELECT token_hash FROM share_sessions WHERE expires_at <= ?1
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

    pub async fn len(&self) -> Result<usize, StoreError> {
        self.core
            .read(|conn| {
                conn.prepare_cached("SELECT count(*) FROM share_sessions")?
                    .query_row([], |r| r.get::<_, i64>(0))
                    .map(|n| n.max(0) as usize)
            })
            .await
    }

    pub async fn is_empty(&self) -> Result<bool, StoreError> {
        self.core
            .read(|conn| {
                conn.prepare_cached("SELECT NOT EXISTS (SELECT 1 FROM share_sessions)")?
                    .query_row([], |r| r.get(0))
            })
            .await
    }
}

/// Writes a share session of an existing co-parent of its family (replacing one under the same
/// hash); how many rows it wrote (0: no such co-parent). The repository and the importer both
/// store share sessions so.
pub(crate) fn store_row(
    conn: &rusqlite::Connection,
    hash: [u8; 32],
    s: &ShareSession,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO share_sessions
            (token_hash, co_parent_id, family_id, epoch, created_at, expires_at)
         SELECT ?1, id, family_id, ?4, ?5, ?6 FROM co_parents
         WHERE id = ?2 AND family_id = ?3
         ON CONFLICT (token_hash) DO UPDATE
         SET co_parent_id = excluded.co_parent_id,
             family_id = excluded.family_id, epoch = excluded.epoch,
             created_at = excluded.created_at, expires_at = excluded.expires_at",
    )?
    .execute(params![
        hash,
        s.co_parent,
        s.family,
        int(s.epoch),
        time(s.created_at),
        time(s.expires_at)
    ])
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use chrono::Duration;

    use super::*;
    use crate::domain::co_parent::CoParent;
    use crate::domain::ids::{CoParentId, FamilyId};
    use crate::store::co_parents::tests::co_parent;
    use crate::store::sqlite::co_parents::CoParents;
    use crate::store::sqlite::core;
    use crate::store::sqlite::tests::temp_core;

    async fn stored_co_parent(core: &core::Shared, email: &str) -> CoParent {
        CoParents::new(core.clone())
            .insert(&co_parent(FamilyId::new(), email))
            .await
            .unwrap()
    }

    fn session(of: &CoParent, expires_in: Duration) -> ShareSession {
        let now = Utc::now();
        ShareSession {
            co_parent: of.id,
            family: of.family,
            epoch: 2,
            created_at: now,
            expires_at: now + expires_in,
        }
    }

    #[tokio::test]
    async fn sessions_are_stored_ended_and_purged_when_expired() {
        let (_dir, core) = temp_core();
        let sessions = ShareSessions::new(core.clone());
        let c = stored_co_parent(&core, "nan@example.org").await;
        let live = session(&c, Duration::hours(24));
        let old = session(&c, Duration::seconds(-1));
        assert!(sessions.insert(&[1; 32], &live).await.unwrap());
        assert!(sessions.insert(&[2; 32], &old).await.unwrap());
        assert_eq!(sessions.get(&[1; 32]).await.unwrap(), Some(live));
        assert_eq!(sessions.purge_expired(Utc::now()).await.unwrap(), 1);
        assert!(sessions.get(&[2; 32]).await.unwrap().is_none());
        sessions.delete(&[1; 32]).await.unwrap();
        assert!(sessions.is_empty().await.unwrap());
    }

    #[tokio::test]
    async fn every_field_comes_back_and_the_same_hash_again_replaces_it() {
        let (_dir, core) = temp_core();
        let sessions = ShareSessions::new(core.clone());
        let c = stored_co_parent(&core, "nan@example.org").await;
        let now = Utc::now();
        let stored = ShareSession {
            co_parent: c.id,
            family: c.family,
            epoch: 41,
            created_at: now - Duration::minutes(7),
            expires_at: now + Duration::hours(23),
        };
        sessions.insert(&[3; 32], &stored).await.unwrap();
        assert_eq!(sessions.get(&[3; 32]).await.unwrap(), Some(stored.clone()));
        assert!(sessions.get(&[4; 32]).await.unwrap().is_none());
        let again = ShareSession {
            epoch: 42,
            ..stored
        };
        assert!(sessions.insert(&[3; 32], &again).await.unwrap());
        assert_eq!(sessions.get(&[3; 32]).await.unwrap(), Some(again));
        assert_eq!(sessions.len().await.unwrap(), 1);
    }

    #[tokio::test]
    async fn a_session_needs_its_co_parent_in_its_family() {
        let (_dir, core) = temp_core();
        let sessions = ShareSessions::new(core.clone());
        let c = stored_co_parent(&core, "nan@example.org").await;
        let unknown = ShareSession {
            co_parent: CoParentId::new(),
            ..session(&c, Duration::hours(1))
        };
        assert!(!sessions.insert(&[1; 32], &unknown).await.unwrap());
        let elsewhere = ShareSession {
            family: FamilyId::new(),
            ..session(&c, Duration::hours(1))
        };
        assert!(
            !sessions.insert(&[2; 32], &elsewhere).await.unwrap(),
            "another family's co-parent"
        );
        assert!(sessions.is_empty().await.unwrap());
    }

    #[tokio::test]
    async fn removing_the_co_parent_ends_its_sessions_and_a_logout_is_announced() {
        let (_dir, core) = temp_core();
        let sessions = ShareSessions::new(core.clone());
        let co_parents = CoParents::new(core.clone());
        let c = stored_co_parent(&core, "nan@example.org").await;
        let d = stored_co_parent(&core, "dad@example.org").await;
        for (hash, of) in [([1; 32], &c), ([2; 32], &c), ([3; 32], &d)] {
            sessions
                .insert(&hash, &session(of, Duration::hours(24)))
                .await
                .unwrap();
        }
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = heard.clone();
        core.on_change(Box::new(move |changes| {
            sink.lock().unwrap().extend_from_slice(changes)
        }));
        assert!(co_parents.delete(c.family, c.id).await.unwrap());
        assert!(sessions.get(&[1; 32]).await.unwrap().is_none());
        assert!(sessions.get(&[2; 32]).await.unwrap().is_none());
        assert_eq!(sessions.len().await.unwrap(), 1);
        heard.lock().unwrap().clear();
        sessions.delete(&[3; 32]).await.unwrap();
        sessions.delete(&[3; 32]).await.unwrap();
        assert_eq!(
            *heard.lock().unwrap(),
            [Change::ShareSessionEnded { session: [3; 32] }],
            "once: the second logout ended nothing"
        );
    }
}
