//! Co-parents. The link's token (its 16 bytes) is unique and found in one query; one
//! co-parent per e-mail address per family (a unique index). Removing a co-parent removes its
//! share sessions with it (a foreign key cascade), and their open event streams hear it after
//! the commit.

use rusqlite::types::{FromSqlError, Value};
use rusqlite::{Connection, OptionalExtension, params};

use super::core::{Abort, Row, Shared, Tx, rows};
use super::values::{
    flag, get_name, get_opt_time, get_time, get_u32, get_u64, int, opt_time, text, time,
};
use crate::domain::DomainError;
use crate::domain::change::{Change, Kind};
use crate::domain::co_parent::{CO_PARENTS_MAX, CoParent, PinHash, ShareToken};
use crate::domain::ids::{CoParentId, FamilyId};
use crate::store::{StoreError, WriteError};

impl Row for CoParent {
    const TABLE: &'static str = "co_parents";
    const KIND: Kind = Kind::CoParent;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "name",
        "email",
        "token",
        "pin_hash",
        "invited_by",
        "invitation_sent",
        "accepted_at",
        "created_at",
        "updated_at",
        "expires_at",
        "failures_total",
        "last_failure_at",
        "session_epoch",
    ];
    const SELECT: &'static str = "t.id, t.family_id, t.version, t.name, t.email, t.token, \
        t.pin_hash, t.invited_by, t.invitation_sent, t.accepted_at, t.created_at, t.updated_at, \
        t.expires_at, t.failures_total, t.last_failure_at, t.session_epoch";

    super::core::row_identity!(family);
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family.into(),
            int(self.version),
            text(&self.name),
            text(self.email.as_str()),
            Value::Blob(self.token.as_bytes().to_vec()),
            self.pin_hash
                .as_ref()
                .map_or(Value::Null, |h| text(h.as_str())),
            self.invited_by.into(),
            flag(self.invitation_sent),
            opt_time(self.accepted_at),
            time(self.created_at),
            time(self.updated_at),
            time(self.expires_at),
            int(self.failures_total.into()),
            opt_time(self.last_failure_at),
            int(self.session_epoch),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(CoParent {
            id: r.get(0)?,
            family: r.get(1)?,
            version: get_u64(r, 2)?,
            name: r.get(3)?,
            email: get_name(r, 4)?,
            token: get_token(r, 5)?,
            pin_hash: r.get::<_, Option<String>>(6)?.map(PinHash::from_encoded),
            invited_by: r.get(7)?,
            invitation_sent: r.get(8)?,
            accepted_at: get_opt_time(r, 9)?,
            created_at: get_time(r, 10)?,
            updated_at: get_time(r, 11)?,
            expires_at: get_time(r, 12)?,
            failures_total: get_u32(r, 13)?,
            last_failure_at: get_opt_time(r, 14)?,
            session_epoch: get_u64(r, 15)?,
        })
    }
}

/// A link's token from its 16 bytes, exactly as it was stored (any UUID, as the sled records
/// held them).
fn get_token(r: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<ShareToken> {
    let uuid = uuid::Uuid::from_bytes(r.get::<_, [u8; 16]>(idx)?);
    serde_json::from_value(serde_json::Value::String(uuid.to_string())).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(
            idx,
            rusqlite::types::Type::Blob,
            Box::new(FromSqlError::Other(Box::new(e))),
        )
    })
}

/// Why a co-parent was not added (checked against the family's co-parents as they are when
/// the write runs). The service words them.
#[derive(Debug, thiserror::Error)]
pub enum InsertCoParentError {
    /// The family already has `CO_PARENTS_MAX` co-parents.
    #[error("the family has the most co-parents it may")]
    Full,
    /// The family already has a co-parent with this e-mail address.
    #[error("the family already has a co-parent with this address")]
    EmailTaken,
    /// The family was deleted meanwhile (`NotFound`), or the store failed (a token already
    /// taken included).
    #[error(transparent)]
    Write(#[from] WriteError<CoParent>),
}

/// Announces the end of share sessions that a removal of co-parents is about to take with it
/// (by cascade); `condition` picks the co-parents (`c`) from the parameters.
fn end_share_sessions(
    tx: &mut Tx<'_>,
    condition: &str,
    params: impl rusqlite::Params,
) -> Result<(), Abort> {
    let hashes: Vec<[u8; 32]> = {
        let mut stmt = tx.conn.prepare_cached(&format!(
            "SELECT s.token_hash FROM share_sessions s JOIN co_parents c ON c.id = s.co_parent_id
             WHERE {condition}"
        ))?;
        let found = stmt.query_map(params, |r| r.get(0))?;
        found.collect::<Result<_, _>>()?
    };
    for session in hashes {
        tx.note(Change::ShareSessionEnded { session });
    }
    Ok(())
}

/// Removes every co-parent of a family inside a write (its last member leaves, or moves to
/// another family): every link stops working at once and every share session ends with it.
/// Not announced to the family, like the sled `delete_all` (the write that calls it announces
/// what it does to the family); the share sessions' endings are, for their event streams.
/// Returns how many co-parents.
pub(crate) fn delete_all_of_family(tx: &mut Tx<'_>, family: FamilyId) -> Result<usize, Abort> {
    end_share_sessions(tx, "c.family_id = ?1", [family])?;
    Ok(tx
        .conn
        .prepare_cached("DELETE FROM co_parents WHERE family_id = ?1")?
        .execute([family])?)
}

fn co_parent_by_token(conn: &Connection, token: ShareToken) -> rusqlite::Result<Option<CoParent>> {
    conn.prepare_cached(&format!(
        "SELECT {} FROM co_parents t WHERE t.token = ?1",
        CoParent::SELECT
    ))?
    .query_row([token.as_bytes()], CoParent::from_row)
    .optional()
}

pub struct CoParents {
    core: Shared,
}

impl CoParents {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new co-parent (version 1), unless the family already has `CO_PARENTS_MAX` or
    /// one with the same e-mail address, checked inside the write.
    pub async fn insert(&self, co_parent: &CoParent) -> Result<CoParent, InsertCoParentError> {
        let co_parent = co_parent.clone();
        let result = self
            .core
            .commit(move |tx| {
                tx.check_family(co_parent.family)?;
                let (count, email_taken): (i64, bool) = tx
                    .conn
                    .prepare_cached(
                        "SELECT count(*), coalesce(max(email = ?2), 0) FROM co_parents
                         WHERE family_id = ?1",
                    )?
                    .query_row(params![co_parent.family, co_parent.email.as_str()], |r| {
                        Ok((r.get(0)?, r.get(1)?))
                    })?;
                if count >= CO_PARENTS_MAX as i64 {
                    return Ok(Err(InsertCoParentError::Full));
                }
                if email_taken {
                    return Ok(Err(InsertCoParentError::EmailTaken));
                }
                tx.insert(&co_parent).map(Ok)
            })
            .await;
        match result {
            Ok(answer) => answer,
            Err(abort) => Err(WriteError::from(abort).into()),
        }
    }

    /// The family's co-parent; another family's id is simply not found.
    pub async fn get(
        &self,
        family: FamilyId,
        id: CoParentId,
    ) -> Result<Option<CoParent>, StoreError> {
        self.core.get(family, id.into()).await
    }

    /// The family's co-parents, newest first.
    pub async fn list(&self, family: FamilyId) -> Result<Vec<CoParent>, StoreError> {
        self.core
            .read(move |conn| {
                rows::<CoParent>(
                    conn,
                    &format!(
                        "SELECT {} FROM co_parents t WHERE t.family_id = ?1 ORDER BY t.id DESC",
                        CoParent::SELECT
                    ),
                    [family],
                )
            })
            .await
    }

    /// The co-parent behind a link's token: one query.
    pub async fn by_token(&self, token: &ShareToken) -> Result<Option<CoParent>, StoreError> {
        let token = *token;
        self.core
            .read(move |conn| co_parent_by_token(conn, token))
            .await
    }

    /// Read-modify-write of one co-parent of the family (`NotFound` for another family's).
    pub async fn update(
        &self,
        family: FamilyId,
        id: CoParentId,
        change: impl Fn(&mut CoParent) -> Result<(), DomainError> + Sync,
    ) -> Result<CoParent, WriteError<CoParent>> {
        self.core.update(family, id.into(), None, &change).await
    }

    /// Removes a co-parent: the link stops working at once and its share sessions end with it.
    /// `false` when the family has no such co-parent.
    pub async fn delete(&self, family: FamilyId, id: CoParentId) -> Result<bool, StoreError> {
        Ok(self
            .core
            .commit(move |tx| {
                if tx.get::<CoParent>(family, &id.into())?.is_none() {
                    return Ok(false);
                }
                end_share_sessions(tx, "c.id = ?1 AND c.family_id = ?2", params![id, family])?;
                Ok::<_, Abort>(tx.delete::<CoParent>(family, &id.into(), true)?.is_some())
            })
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use chrono::{Duration, Utc};

    use super::*;
    use crate::domain::ids::UserId;
    use crate::store::co_parents::tests::co_parent;
    use crate::store::sqlite::core;
    use crate::store::sqlite::tests::temp_core;

    /// A share session of `c`, written as it is stored (the share_sessions repository is
    /// tested on its own).
    async fn share_session(core: &core::Shared, c: &CoParent, hash: [u8; 32]) {
        let (id, family) = (c.id, c.family);
        let now = Utc::now();
        core.commit(move |tx| {
            tx.conn
                .execute(
                    "INSERT INTO share_sessions
                        (token_hash, co_parent_id, family_id, epoch, created_at, expires_at)
                     VALUES (?1, ?2, ?3, 0, ?4, ?5)",
                    params![hash, id, family, time(now), time(now + Duration::hours(24))],
                )
                .map_err(Abort::from)
        })
        .await
        .unwrap();
    }

    async fn share_sessions(core: &core::Shared) -> Vec<[u8; 32]> {
        core.read(|conn| {
            let mut stmt =
                conn.prepare("SELECT token_hash FROM share_sessions ORDER BY token_hash")?;
            let hashes = stmt.query_map([], |r| r.get(0))?;
            hashes.collect()
        })
        .await
        .unwrap()
    }

    async fn tokens_stored(core: &core::Shared, token: ShareToken) -> i64 {
        core.read(move |conn| {
            conn.query_row(
                "SELECT count(*) FROM co_parents WHERE token = ?1",
                [token.as_bytes()],
                |r| r.get(0),
            )
        })
        .await
        .unwrap()
    }

    fn heard(core: &core::Shared) -> Arc<Mutex<Vec<Change>>> {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let sink = heard.clone();
        core.on_change(Box::new(move |changes| {
            sink.lock().unwrap().extend_from_slice(changes)
        }));
        heard
    }

    #[tokio::test]
    async fn co_parents_are_the_familys_newest_first_and_found_by_token() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core.clone());
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let first = co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let second = co_parents
            .insert(&co_parent(family, "dad@example.org"))
            .await
            .unwrap();
        assert_eq!(first.version, 1);
        let ids: Vec<_> = co_parents
            .list(family)
            .await
            .unwrap()
            .iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, [second.id, first.id]);
        assert!(co_parents.list(other).await.unwrap().is_empty());
        assert_eq!(
            co_parents.by_token(&first.token).await.unwrap().unwrap().id,
            first.id
        );
        assert!(
            co_parents
                .by_token(&ShareToken::new())
                .await
                .unwrap()
                .is_none()
        );
        // Another family's id is unreachable.
        assert!(co_parents.get(other, first.id).await.unwrap().is_none());
        assert!(matches!(
            co_parents.update(other, first.id, |_| Ok(())).await,
            Err(WriteError::NotFound)
        ));
        assert!(!co_parents.delete(other, first.id).await.unwrap());
        assert_eq!(core.revision(family), 2);
        assert_eq!(core.revision(other), 0);
    }

    #[tokio::test]
    async fn updates_are_versioned_and_delete_takes_the_token_with_it() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core.clone());
        let family = FamilyId::new();
        let c = co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let now = Utc::now();
        let extended = co_parents
            .update(family, c.id, |c| {
                c.extend(now);
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(extended.version, 2);
        assert!(extended.expires_at > c.expires_at);
        assert_eq!(
            co_parents
                .by_token(&c.token)
                .await
                .unwrap()
                .unwrap()
                .version,
            2
        );
        assert!(co_parents.delete(family, c.id).await.unwrap());
        assert!(co_parents.by_token(&c.token).await.unwrap().is_none());
        assert_eq!(tokens_stored(&core, c.token).await, 0, "token removed");
        assert!(!co_parents.delete(family, c.id).await.unwrap());
    }

    #[tokio::test]
    async fn one_invite_per_email_and_at_most_the_cap_per_family() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core);
        let family = FamilyId::new();
        co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let twice = co_parents
            .insert(&co_parent(family, "NAN@example.org"))
            .await;
        assert!(matches!(twice, Err(InsertCoParentError::EmailTaken)));
        // The same person may be a co-parent of another family.
        co_parents
            .insert(&co_parent(FamilyId::new(), "nan@example.org"))
            .await
            .unwrap();
        for n in 1..CO_PARENTS_MAX {
            co_parents
                .insert(&co_parent(family, &format!("p{n}@example.org")))
                .await
                .unwrap();
        }
        let over = co_parents
            .insert(&co_parent(family, "late@example.org"))
            .await;
        assert!(matches!(over, Err(InsertCoParentError::Full)));
        let over_and_taken = co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await;
        assert!(
            matches!(over_and_taken, Err(InsertCoParentError::Full)),
            "the cap is checked first, as check_can_add does"
        );
        assert_eq!(co_parents.list(family).await.unwrap().len(), CO_PARENTS_MAX);
    }

    #[tokio::test]
    async fn a_deleted_familys_co_parents_and_their_tokens_are_purged() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core.clone());
        let (gone, kept) = (FamilyId::new(), FamilyId::new());
        let mut tokens = Vec::new();
        for n in 0..3 {
            let c = co_parents
                .insert(&co_parent(gone, &format!("p{n}@example.org")))
                .await
                .unwrap();
            tokens.push(c.token);
        }
        let stays = co_parents
            .insert(&co_parent(kept, "stay@example.org"))
            .await
            .unwrap();
        let revision = core.revision(gone);
        let removed = core
            .commit(move |tx| delete_all_of_family(tx, gone))
            .await
            .unwrap();
        assert_eq!(removed, 3);
        assert_eq!(core.revision(gone), revision, "not announced");
        assert!(co_parents.list(gone).await.unwrap().is_empty());
        for token in &tokens {
            assert!(co_parents.by_token(token).await.unwrap().is_none());
            assert_eq!(tokens_stored(&core, *token).await, 0);
        }
        assert_eq!(
            co_parents.by_token(&stays.token).await.unwrap().unwrap().id,
            stays.id
        );
    }

    /// The accounts write deleting a family's last member (sled: `delete_account`) calls
    /// `delete_all_of_family` with `mark_family_deleted`: every link and every share session
    /// ends at once, before any purge job runs.
    #[tokio::test]
    async fn the_last_account_leaving_ends_every_link_of_the_family_at_once() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core.clone());
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let c = co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let d = co_parents
            .insert(&co_parent(family, "dad@example.org"))
            .await
            .unwrap();
        let elsewhere = co_parents
            .insert(&co_parent(other, "nan@example.org"))
            .await
            .unwrap();
        share_session(&core, &c, [1; 32]).await;
        share_session(&core, &c, [2; 32]).await;
        share_session(&core, &d, [3; 32]).await;
        share_session(&core, &elsewhere, [4; 32]).await;
        let heard = heard(&core);
        core.commit(move |tx| {
            delete_all_of_family(tx, family)?;
            tx.mark_family_deleted(family)
        })
        .await
        .unwrap();
        assert!(co_parents.by_token(&c.token).await.unwrap().is_none());
        assert!(co_parents.list(family).await.unwrap().is_empty());
        assert_eq!(
            share_sessions(&core).await,
            [[4; 32]],
            "the other family's stays"
        );
        let mut ended: Vec<_> = heard
            .lock()
            .unwrap()
            .iter()
            .map(|change| match change {
                Change::ShareSessionEnded { session } => *session,
                other => panic!("only session endings: {other:?}"),
            })
            .collect();
        ended.sort();
        assert_eq!(ended, [[1; 32], [2; 32], [3; 32]]);
        assert!(matches!(
            co_parents
                .insert(&co_parent(family, "late@example.org"))
                .await,
            Err(InsertCoParentError::Write(WriteError::NotFound))
        ));
    }

    #[tokio::test]
    async fn removing_a_co_parent_ends_its_share_sessions() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core.clone());
        let family = FamilyId::new();
        let c = co_parents
            .insert(&co_parent(family, "nan@example.org"))
            .await
            .unwrap();
        let d = co_parents
            .insert(&co_parent(family, "dad@example.org"))
            .await
            .unwrap();
        share_session(&core, &c, [1; 32]).await;
        share_session(&core, &c, [2; 32]).await;
        share_session(&core, &d, [3; 32]).await;
        let heard = heard(&core);
        assert!(!co_parents.delete(FamilyId::new(), c.id).await.unwrap());
        assert_eq!(share_sessions(&core).await.len(), 3, "another family's id");
        assert!(co_parents.delete(family, c.id).await.unwrap());
        assert_eq!(share_sessions(&core).await, [[3; 32]], "by cascade");
        let heard = heard.lock().unwrap();
        assert!(heard.contains(&Change::ShareSessionEnded { session: [1; 32] }));
        assert!(heard.contains(&Change::ShareSessionEnded { session: [2; 32] }));
        assert!(
            heard.iter().any(|change| matches!(change,
                Change::Family(f) if f.kind == Kind::CoParent && f.id == c.id.as_uuid().into())),
            "the removal is announced to the family"
        );
        assert_eq!(heard.len(), 3);
    }

    #[tokio::test]
    async fn every_field_comes_back() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core.clone());
        let family = FamilyId::new();
        let now = Utc::now();
        let mut c = co_parent(family, "nan@example.org");
        c.name = "Zoë O’Brien".into();
        c.accepted_at = Some(now - Duration::hours(2));
        c.failures_total = 4;
        c.last_failure_at = Some(now - Duration::minutes(3));
        c.session_epoch = 9;
        c.invitation_sent = false;
        let c = co_parents.insert(&c).await.unwrap();
        assert_eq!(co_parents.get(family, c.id).await.unwrap(), Some(c.clone()));
        assert_eq!(
            co_parents.by_token(&c.token).await.unwrap(),
            Some(c.clone())
        );
        let mut bare = co_parent(family, "dad@example.org");
        bare.pin_hash = None;
        let bare = co_parents.insert(&bare).await.unwrap();
        assert_eq!(
            co_parents.get(family, bare.id).await.unwrap(),
            Some(bare.clone())
        );
        assert_eq!(co_parents.list(family).await.unwrap(), [bare, c]);
    }

    #[tokio::test]
    async fn a_deleted_family_takes_no_new_co_parents() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core.clone());
        let family = FamilyId::new();
        core.commit(move |tx| tx.mark_family_deleted(family))
            .await
            .unwrap();
        assert!(matches!(
            co_parents
                .insert(&co_parent(family, "late@example.org"))
                .await,
            Err(InsertCoParentError::Write(WriteError::NotFound))
        ));
    }

    #[tokio::test]
    async fn a_token_already_taken_is_refused() {
        let (_dir, core) = temp_core();
        let co_parents = CoParents::new(core);
        let first = co_parents
            .insert(&co_parent(FamilyId::new(), "nan@example.org"))
            .await
            .unwrap();
        let mut copy = co_parent(FamilyId::new(), "dad@example.org");
        copy.token = first.token;
        copy.invited_by = UserId::new();
        assert!(matches!(
            co_parents.insert(&copy).await,
            Err(InsertCoParentError::Write(WriteError::Store(_)))
        ));
        assert_eq!(
            co_parents.by_token(&first.token).await.unwrap(),
            Some(first)
        );
    }
}
