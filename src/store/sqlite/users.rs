//! Accounts. The e-mail address is unique (a constraint); the first account, the admin, is
//! claimed once in `meta`, so two simultaneous first sign-ups cannot both become admin.

use rusqlite::types::Value;
use rusqlite::{OptionalExtension, params};

use super::core::{Abort, Row, Shared, Tx, rows};
use super::values::{
    flag, get_name, get_opt_time, get_time, get_u64, int, name, opt_time, text, time,
};
use crate::domain::DomainError;
use crate::domain::change::{ChangeId, Kind};
use crate::domain::email::Email;
use crate::domain::ids::{FamilyId, MediaId, UserId};
use crate::domain::user::User;
use crate::store::users::InsertUserError;
use crate::store::{StoreError, WriteError};

/// The `meta` row that says the first account was claimed.
const FIRST_CLAIMED: &str = "first-account";

impl Row for User {
    const TABLE: &'static str = "users";
    const KIND: Kind = Kind::Profile;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "session_epoch",
        "email",
        "first_name",
        "last_name",
        "role",
        "is_guest",
        "guest_children",
        "is_admin",
        "password_hash",
        "avatar_id",
        "created_at",
        "updated_at",
        "last_seen_at",
        "joined_family_at",
    ];
    const SELECT: &'static str = "t.id, t.family_id, t.version, t.session_epoch, t.email, \
        t.first_name, t.last_name, t.role, t.is_guest, t.guest_children, t.is_admin, \
        t.password_hash, t.avatar_id, t.created_at, t.updated_at, t.last_seen_at, \
        t.joined_family_at";

    fn key(&self) -> Value {
        self.id.into()
    }
    fn family(&self) -> FamilyId {
        self.family_id
    }
    fn change_id(&self) -> ChangeId {
        self.id.as_uuid().into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family_id.into(),
            int(self.version),
            int(self.session_epoch),
            text(self.email.as_str()),
            text(&self.first_name),
            text(&self.last_name),
            name(&self.role),
            flag(self.is_guest),
            self.guest_children.map_or(Value::Null, |n| int(n.into())),
            flag(self.is_admin),
            text(&self.password_hash),
            self.avatar.map_or(Value::Null, Value::from),
            time(self.created_at),
            time(self.updated_at),
            time(self.last_seen_at),
            opt_time(self.joined_family_at),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(User {
            id: r.get(0)?,
            family_id: r.get(1)?,
            version: get_u64(r, 2)?,
            session_epoch: get_u64(r, 3)?,
            email: get_name(r, 4)?,
            first_name: r.get(5)?,
            last_name: r.get(6)?,
            role: get_name(r, 7)?,
            is_guest: r.get(8)?,
            guest_children: r
                .get::<_, Option<i64>>(9)?
                .and_then(|n| u32::try_from(n).ok()),
            is_admin: r.get(10)?,
            password_hash: r.get(11)?,
            avatar: r.get(12)?,
            created_at: get_time(r, 13)?,
            updated_at: get_time(r, 14)?,
            last_seen_at: get_time(r, 15)?,
            joined_family_at: get_opt_time(r, 16)?,
        })
    }
    fn photos(&self) -> Vec<MediaId> {
        self.avatar.into_iter().collect()
    }
}

/// An account by id, whatever its family.
pub(crate) fn user_by_id(
    conn: &rusqlite::Connection,
    id: UserId,
) -> rusqlite::Result<Option<User>> {
    conn.prepare_cached(&format!(
        "SELECT {} FROM users t WHERE t.id = ?1",
        User::SELECT
    ))?
    .query_row([id], User::from_row)
    .optional()
}

/// An account inside a write (whatever its family).
pub(crate) fn get_in(tx: &Tx<'_>, id: UserId) -> Result<Option<User>, Abort> {
    Ok(user_by_id(tx.conn, id)?)
}

pub struct Users {
    core: Shared,
}

impl Users {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Inserts a new account. With `first`, it succeeds only if no account was ever claimed
    /// as the first one.
    pub async fn insert(&self, user: &User, first: bool) -> Result<User, InsertUserError> {
        let user = user.clone();
        let result = self
            .core
            .commit(move |tx| {
                let taken = tx
                    .conn
                    .prepare_cached("SELECT 1 FROM users WHERE email = ?1")?
                    .exists([user.email.as_str()])?;
                if taken {
                    return Ok(Err(InsertUserError::EmailTaken));
                }
                if first {
                    let claimed = tx
                        .conn
                        .prepare_cached("INSERT OR IGNORE INTO meta (name, value) VALUES (?1, ?2)")?
                        .execute(params![FIRST_CLAIMED, user.id])?;
                    if claimed == 0 {
                        return Ok(Err(InsertUserError::NotFirst));
                    }
                }
                tx.insert(&user).map(Ok)
            })
            .await;
        match result {
            Ok(answer) => answer,
            Err(Abort::Exists) => Err(InsertUserError::EmailTaken),
            Err(e) => Err(StoreError::from(e).into()),
        }
    }

    pub async fn get(&self, id: UserId) -> Result<Option<User>, StoreError> {
        self.core.read(move |conn| user_by_id(conn, id)).await
    }

    pub async fn get_by_email(&self, email: &Email) -> Result<Option<User>, StoreError> {
        let email = email.as_str().to_owned();
        self.core
            .read(move |conn| {
                conn.prepare_cached(&format!(
                    "SELECT {} FROM users t WHERE t.email = ?1",
                    User::SELECT
                ))?
                .query_row([email], User::from_row)
                .optional()
            })
            .await
    }

    /// Changes an account (a new avatar is attached and the old one removed with it); a
    /// stale `expected` version changes nothing. The e-mail never changes.
    pub async fn update(
        &self,
        id: UserId,
        expected: Option<u64>,
        change: impl Fn(&mut User) -> Result<(), DomainError> + Sync,
    ) -> Result<User, WriteError<User>> {
        // The account may move family between the read and the write: then read again.
        for _ in 0..3 {
            let Some(user) = self.get(id).await? else {
                return Err(WriteError::NotFound);
            };
            match self
                .core
                .update(user.family_id, id.into(), expected, &change)
                .await
            {
                Err(WriteError::NotFound) => continue,
                done => return done,
            }
        }
        Err(WriteError::NotFound)
    }

    /// Bookkeeping that is not an edit: last seen, or a stronger hash of the same password.
    /// Only those two fields are written; the version stays and nothing is announced.
    pub async fn update_quietly(
        &self,
        id: UserId,
        change: impl Fn(&mut User) + Send + 'static,
    ) -> Result<Option<User>, StoreError> {
        Ok(self
            .core
            .commit(move |tx| {
                let Some(mut user) = get_in(tx, id)? else {
                    return Ok(None);
                };
                change(&mut user);
                tx.conn
                    .prepare_cached(
                        "UPDATE users SET password_hash = ?2, last_seen_at = ?3 WHERE id = ?1",
                    )?
                    .execute(params![id, user.password_hash, time(user.last_seen_at)])?;
                Ok::<_, Abort>(Some(user))
            })
            .await?)
    }

    /// All accounts, oldest first.
    pub async fn list(&self) -> Result<Vec<User>, StoreError> {
        self.core
            .read(|conn| {
                rows::<User>(
                    conn,
                    &format!("SELECT {} FROM users t ORDER BY t.id", User::SELECT),
                    [],
                )
            })
            .await
    }

    /// The members of a family, longest-standing first.
    pub async fn members(&self, family: FamilyId) -> Result<Vec<User>, StoreError> {
        let mut members = self
            .core
            .read(move |conn| {
                rows::<User>(
                    conn,
                    &format!(
                        "SELECT {} FROM users t WHERE t.family_id = ?1",
                        User::SELECT
                    ),
                    [family],
                )
            })
            .await?;
        members.sort_by_key(User::joined_at);
        Ok(members)
    }

    pub async fn is_empty(&self) -> Result<bool, StoreError> {
        self.core
            .read(|conn| {
                conn.query_row("SELECT NOT EXISTS (SELECT 1 FROM users)", [], |r| r.get(0))
            })
            .await
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::Utc;

    use super::*;
    use crate::store::sqlite::tests::temp_core;
    use crate::store::users::tests::user;

    #[tokio::test]
    async fn email_is_unique_and_first_is_claimed_once() {
        let (_dir, core) = temp_core();
        let users = Users::new(core);
        let a = user("a@example.org");
        assert_eq!(users.insert(&a, true).await.unwrap(), a);
        assert!(matches!(
            users.insert(&user("A@example.org"), false).await,
            Err(InsertUserError::EmailTaken)
        ));
        assert!(matches!(
            users.insert(&user("b@example.org"), true).await,
            Err(InsertUserError::NotFirst)
        ));
        users.insert(&user("b@example.org"), false).await.unwrap();
        let found = users
            .get_by_email(&Email::parse("A@EXAMPLE.ORG").unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(found, a, "every field comes back");
        assert_eq!(users.list().await.unwrap().len(), 2);
        assert!(!users.is_empty().await.unwrap());
    }

    #[tokio::test]
    async fn updates_are_versioned_and_quiet_writes_keep_the_version() {
        let (_dir, core) = temp_core();
        let users = Users::new(core.clone());
        let a = users.insert(&user("a@example.org"), false).await.unwrap();
        let renamed = users
            .update(a.id, Some(1), |u| {
                u.first_name = "Bea".into();
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(renamed.version, 2);
        let revision = core.revision(a.family_id);
        let seen = Utc::now() + chrono::Duration::hours(2);
        users
            .update_quietly(a.id, move |u| u.last_seen_at = seen)
            .await
            .unwrap();
        let now = users.get(a.id).await.unwrap().unwrap();
        assert_eq!((now.version, now.first_name.as_str()), (2, "Bea"));
        assert_eq!(now.last_seen_at, seen);
        assert_eq!(core.revision(a.family_id), revision, "nothing announced");
        assert!(matches!(
            users.update(a.id, Some(1), |_| Ok(())).await,
            Err(WriteError::Stale(_))
        ));
        assert!(matches!(
            users.update(UserId::new(), None, |_| Ok(())).await,
            Err(WriteError::NotFound)
        ));
    }
}
