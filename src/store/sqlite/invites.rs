//! Adult invites to a family. The link's token is kept as its SHA-256, unique (a second invite
//! cannot take a link already given out). Taking one (joining) is part of the account write
//! in `users`, which finds it with `by_token_in`.

use chrono::{DateTime, Utc};
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, params};

use super::core::{Abort, Row, Shared, Tx, rows};
use super::values::{get_time, get_u64, int, time};
use crate::domain::change::Kind;
use crate::domain::family::{FamilyInvite, INVITES_MAX};
use crate::domain::ids::{FamilyId, InviteId};
use crate::store::{StoreError, WriteError};

/// Expired invites removed per write by `purge_expired`.
const PURGE_BATCH: i64 = 500;

impl Row for FamilyInvite {
    const TABLE: &'static str = "family_invites";
    const KIND: Kind = Kind::Family;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "token_hash",
        "invited_by",
        "created_at",
        "expires_at",
    ];
    const SELECT: &'static str =
        "t.id, t.family_id, t.version, t.token_hash, t.invited_by, t.created_at, t.expires_at";

    super::core::row_identity!(family);
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family.into(),
            int(self.version),
            Value::Blob(self.token_hash.to_vec()),
            self.invited_by.into(),
            time(self.created_at),
            time(self.expires_at),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(FamilyInvite {
            id: r.get(0)?,
            family: r.get(1)?,
            version: get_u64(r, 2)?,
            token_hash: r.get(3)?,
            invited_by: r.get(4)?,
            created_at: get_time(r, 5)?,
            expires_at: get_time(r, 6)?,
        })
    }
}

/// Why an invite was not stored.
#[derive(Debug, thiserror::Error)]
pub enum InsertInviteError {
    /// The family already holds `INVITES_MAX` invites that have not expired (at the new
    /// invite's `created_at`). The service words it.
    #[error("the family holds the most open invites it may")]
    Full,
    /// The family was deleted meanwhile (`NotFound`), or the store failed.
    #[error(transparent)]
    Write(#[from] WriteError<FamilyInvite>),
}

fn invite_by_token(
    conn: &rusqlite::Connection,
    hash: [u8; 32],
) -> rusqlite::Result<Option<FamilyInvite>> {
    conn.prepare_cached(&format!(
        "SELECT {} FROM family_invites t WHERE t.token_hash = ?1",
        FamilyInvite::SELECT
    ))?
    .query_row([hash], FamilyInvite::from_row)
    .optional()
}

/// The invite behind a link token's hash, inside a write (joining takes it there).
pub(crate) fn by_token_in(tx: &Tx<'_>, hash: &[u8; 32]) -> Result<Option<FamilyInvite>, Abort> {
    Ok(invite_by_token(tx.conn, *hash)?)
}

/// Removes every invite of a family inside a write (its last member leaves, or moves to
/// another family: nobody is left to welcome anyone). Not announced, like the sled
/// `delete_all`: the write that calls it announces what it does to the family. Returns how
/// many.
pub(crate) fn delete_all_of_family(tx: &mut Tx<'_>, family: FamilyId) -> Result<usize, Abort> {
    Ok(tx
        .conn
        .prepare_cached("DELETE FROM family_invites WHERE family_id = ?1")?
        .execute([family])?)
}

/// Whether the family takes writes (it was not deleted).
fn is_live(tx: &Tx<'_>, family: FamilyId) -> Result<bool, Abort> {
    match tx.check_family(family) {
        Ok(()) => Ok(true),
        Err(Abort::NotFound) => Ok(false),
        Err(e) => Err(e),
    }
}

pub struct Invites {
    core: Shared,
}

impl Invites {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new invite (version 1), unless the family already holds `INVITES_MAX` open
    /// ones (expired links, until housekeeping removes them, do not count), counted inside the
    /// write.
    pub async fn insert(&self, invite: &FamilyInvite) -> Result<FamilyInvite, InsertInviteError> {
        let invite = invite.clone();
        let result = self
            .core
            .commit(move |tx| {
                tx.check_family(invite.family)?;
                let open: i64 = tx
                    .conn
                    .prepare_cached(
                        "SELECT count(*) FROM family_invites
                         WHERE family_id = ?1 AND expires_at > ?2",
                    )?
                    .query_row(params![invite.family, time(invite.created_at)], |r| {
                        r.get(0)
                    })?;
                if open >= INVITES_MAX as i64 {
                    return Ok(Err(InsertInviteError::Full));
                }
                tx.insert(&invite).map(Ok)
            })
            .await;
        match result {
            Ok(answer) => answer,
            Err(abort) => Err(WriteError::from(abort).into()),
        }
    }

    /// The family's invites, oldest first (expired ones too, until housekeeping removes them).
    pub async fn list(&self, family: FamilyId) -> Result<Vec<FamilyInvite>, StoreError> {
        self.core
            .read(move |conn| {
                rows::<FamilyInvite>(
                    conn,
                    &format!(
                        "SELECT {} FROM family_invites t WHERE t.family_id = ?1 ORDER BY t.id",
                        FamilyInvite::SELECT
                    ),
                    [family],
                )
            })
            .await
    }

    /// The invite behind a link token's hash.
    pub async fn by_token(&self, hash: &[u8; 32]) -> Result<Option<FamilyInvite>, StoreError> {
        let hash = *hash;
        self.core
            .read(move |conn| invite_by_token(conn, hash))
            .await
    }

    /// Revokes an invite of the family. `false` when there was none (another family's id
    /// included).
    pub async fn delete(&self, family: FamilyId, id: InviteId) -> Result<bool, StoreError> {
        Ok(self
            .core
            .delete::<FamilyInvite>(family, id.into())
            .await?
            .is_some())
    }

    /// Removes invites expired at `now`, a batch per write, each announced to its family (a
    /// deleted family's are removed unannounced). Returns how many.
    pub async fn purge_expired(&self, now: DateTime<Utc>) -> Result<usize, StoreError> {
        let mut removed = 0;
        loop {
            let gone = self
                .core
                .commit(move |tx| {
                    let gone: Vec<(InviteId, FamilyId)> = {
                        let mut stmt = tx.conn.prepare_cached(
                            "DELETE FROM family_invites WHERE id IN (
                                SELECT id FROM family_invites WHERE expires_at <= ?1 LIMIT ?2)
                             RETURNING id, family_id",
                        )?;
                        let found = stmt.query_map(params![time(now), PURGE_BATCH], |r| {
                            Ok((r.get(0)?, r.get(1)?))
                        })?;
                        found.collect::<Result<_, _>>()?
                    };
                    for (id, family) in &gone {
                        if is_live(tx, *family)? {
                            tx.announce(*family, Kind::Family, id.as_uuid())?;
                        }
                    }
                    Ok::<_, Abort>(gone.len())
                })
                .await?;
            removed += gone;
            if (gone as i64) < PURGE_BATCH {
                return Ok(removed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::domain::ids::UserId;
    use crate::store::sqlite::tests::temp_core;

    #[tokio::test]
    async fn invites_are_found_by_token_listed_per_family_and_capped() {
        let (_dir, core) = temp_core();
        let invites = Invites::new(core.clone());
        let family = FamilyId::new();
        let now = Utc::now();
        let first = FamilyInvite::new(family, UserId::new(), [7; 32], now);
        invites.insert(&first).await.unwrap();
        assert_eq!(
            invites.by_token(&[7; 32]).await.unwrap().unwrap().id,
            first.id
        );
        assert!(invites.by_token(&[8; 32]).await.unwrap().is_none());
        for n in 1..INVITES_MAX as u8 {
            let more = FamilyInvite::new(family, UserId::new(), [n + 10; 32], now);
            invites.insert(&more).await.unwrap();
        }
        let one_too_many = FamilyInvite::new(family, UserId::new(), [99; 32], now);
        assert!(matches!(
            invites.insert(&one_too_many).await,
            Err(InsertInviteError::Full)
        ));
        assert_eq!(invites.list(family).await.unwrap().len(), INVITES_MAX);
        assert!(invites.list(FamilyId::new()).await.unwrap().is_empty());
        assert!(invites.delete(family, first.id).await.unwrap());
        assert!(
            invites.by_token(&[7; 32]).await.unwrap().is_none(),
            "index goes too"
        );
        assert!(!invites.delete(family, first.id).await.unwrap());
        let later = now + Duration::days(8);
        assert_eq!(invites.purge_expired(later).await.unwrap(), INVITES_MAX - 1);
        assert!(invites.list(family).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn expired_links_do_not_count_towards_the_cap() {
        let (_dir, core) = temp_core();
        let invites = Invites::new(core);
        let family = FamilyId::new();
        let long_ago = Utc::now() - Duration::days(8);
        for n in 0..INVITES_MAX as u8 {
            let old = FamilyInvite::new(family, UserId::new(), [n; 32], long_ago);
            invites.insert(&old).await.unwrap();
        }
        let fresh = FamilyInvite::new(family, UserId::new(), [200; 32], Utc::now());
        invites
            .insert(&fresh)
            .await
            .expect("the old links have expired");
    }

    #[tokio::test]
    async fn every_field_comes_back_in_order_and_another_familys_id_is_not_found() {
        let (_dir, core) = temp_core();
        let invites = Invites::new(core.clone());
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let now = Utc::now();
        let mut hash = [0u8; 32];
        for (i, b) in hash.iter_mut().enumerate() {
            *b = i as u8 * 7;
        }
        let mut first = FamilyInvite::new(family, UserId::new(), hash, now);
        first.expires_at = now + Duration::minutes(90);
        let first = invites.insert(&first).await.unwrap();
        let second = invites
            .insert(&FamilyInvite::new(family, UserId::new(), [2; 32], now))
            .await
            .unwrap();
        assert_eq!(first.version, 1);
        assert_eq!(invites.list(family).await.unwrap(), [first.clone(), second]);
        assert_eq!(invites.by_token(&hash).await.unwrap(), Some(first.clone()));
        assert!(!invites.delete(other, first.id).await.unwrap());
        assert!(invites.list(other).await.unwrap().is_empty());
        assert_eq!(core.revision(family), 2, "each invite is announced");
        assert_eq!(core.revision(other), 0, "nothing of the other family");
        // A link already given out cannot be given out again.
        let taken = FamilyInvite::new(other, UserId::new(), hash, now);
        assert!(matches!(
            invites.insert(&taken).await,
            Err(InsertInviteError::Write(WriteError::Store(_)))
        ));
        assert_eq!(invites.by_token(&hash).await.unwrap(), Some(first));
    }

    #[tokio::test]
    async fn a_deleted_familys_invites_go_at_once_and_it_takes_no_new_ones() {
        let (_dir, core) = temp_core();
        let invites = Invites::new(core.clone());
        let (gone, kept) = (FamilyId::new(), FamilyId::new());
        let now = Utc::now();
        for n in 0..3 {
            invites
                .insert(&FamilyInvite::new(gone, UserId::new(), [n; 32], now))
                .await
                .unwrap();
        }
        let stays = invites
            .insert(&FamilyInvite::new(kept, UserId::new(), [9; 32], now))
            .await
            .unwrap();
        let revision = core.revision(gone);
        let removed = core
            .commit(move |tx| {
                let n = delete_all_of_family(tx, gone)?;
                tx.mark_family_deleted(gone)?;
                Ok(n)
            })
            .await
            .unwrap();
        assert_eq!(removed, 3);
        assert_eq!(core.revision(gone), revision, "not announced");
        assert!(invites.list(gone).await.unwrap().is_empty());
        for n in 0..3 {
            assert!(invites.by_token(&[n; 32]).await.unwrap().is_none());
        }
        assert_eq!(invites.by_token(&[9; 32]).await.unwrap(), Some(stays));
        assert!(matches!(
            invites
                .insert(&FamilyInvite::new(gone, UserId::new(), [20; 32], now))
                .await,
            Err(InsertInviteError::Write(WriteError::NotFound))
        ));
    }

    #[tokio::test]
    async fn expired_invites_of_a_deleted_family_are_purged_unannounced() {
        let (_dir, core) = temp_core();
        let invites = Invites::new(core.clone());
        let (gone, kept) = (FamilyId::new(), FamilyId::new());
        let long_ago = Utc::now() - Duration::days(8);
        for (family, hash) in [(gone, [1; 32]), (kept, [2; 32]), (kept, [3; 32])] {
            invites
                .insert(&FamilyInvite::new(family, UserId::new(), hash, long_ago))
                .await
                .unwrap();
        }
        core.commit(move |tx| tx.mark_family_deleted(gone))
            .await
            .unwrap();
        let before = core.revision(kept);
        assert_eq!(invites.purge_expired(Utc::now()).await.unwrap(), 3);
        assert_eq!(core.revision(kept), before + 1, "one write, one revision");
        assert!(invites.list(kept).await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn joining_finds_the_invite_inside_its_write() {
        let (_dir, core) = temp_core();
        let invites = Invites::new(core.clone());
        let invite = invites
            .insert(&FamilyInvite::new(
                FamilyId::new(),
                UserId::new(),
                [4; 32],
                Utc::now(),
            ))
            .await
            .unwrap();
        let found = core
            .commit(|tx| Ok((by_token_in(tx, &[4; 32])?, by_token_in(tx, &[5; 32])?)))
            .await
            .unwrap();
        assert_eq!(found, (Some(invite), None));
    }
}
