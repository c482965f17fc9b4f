//! Accounts. The e-mail address is unique (a constraint); the first account, the admin, is
//! claimed once in `meta`, so two simultaneous first sign-ups cannot both become admin.

use rusqlite::types::Value;
use rusqlite::{OptionalExtension, params};

use super::core::{Abort, Row, Shared, Tx, rows};
use super::values::{
    flag, get_name, get_opt_time, get_time, get_u64, int, name, opt_time, text, time,
};
use chrono::{DateTime, Utc};

use crate::domain::DomainError;
use crate::domain::change::{Change, Kind};
use crate::domain::email::Email;
use crate::domain::family::FamilyInvite;
use crate::domain::ids::{FamilyId, MediaId, UserId};
use crate::domain::meal_plan::MealPlan;
use crate::domain::user::User;
use crate::store::jobs::JobKind;
use crate::store::users::InsertUserError;
use crate::store::{StoreError, WriteError};

/// The `meta` row that says the first account was claimed.
pub(crate) const FIRST_CLAIMED: &str = "first-account";

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
        "language",
    ];
    const SELECT: &'static str = "t.id, t.family_id, t.version, t.session_epoch, t.email, \
        t.first_name, t.last_name, t.role, t.is_guest, t.guest_children, t.is_admin, \
        t.password_hash, t.avatar_id, t.created_at, t.updated_at, t.last_seen_at, \
        t.joined_family_at, t.language";

    super::core::row_identity!(family_id);
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
            self.language.map_or(Value::Null, |l| text(l.code())),
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
            // A code this build does not know (written by a newer one) reads as none.
            language: r
                .get::<_, Option<String>>(17)?
                .and_then(|code| code.parse().ok()),
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

/// How an account comes into a family through an invite link.
pub enum Joining {
    /// A new account, created in the family.
    New(Box<User>),
    /// A signed-in account whose own family is empty.
    Existing(UserId),
}

/// What the product's rules for joining look at, as it is inside the write.
pub struct JoinFacts<'a> {
    pub invite: &'a FamilyInvite,
    /// Adults in the invite's family now.
    pub members: usize,
    /// The account that joins, if it exists already.
    pub account: Option<&'a User>,
    /// Children and adults of the existing account's own family.
    pub own_children: usize,
    pub own_members: usize,
    /// Whether a new account's e-mail is taken.
    pub email_taken: bool,
}

fn count(tx: &Tx<'_>, sql: &str, id: impl rusqlite::ToSql) -> Result<usize, Abort> {
    Ok(tx
        .conn
        .prepare_cached(sql)?
        .query_row([id], |r| r.get::<_, i64>(0))? as usize)
}

fn member_ids(tx: &Tx<'_>, family: FamilyId) -> Result<Vec<UserId>, Abort> {
    let mut stmt = tx
        .conn
        .prepare_cached("SELECT id FROM users WHERE family_id = ?1")?;
    let ids = stmt.query_map([family], |r| r.get(0))?;
    Ok(ids.collect::<Result<_, _>>()?)
}

impl Users {
    /// Takes the invite behind `token_hash` and brings an account into its family, in one
    /// write: a link works once, `check` (the product's rules) sees the facts as they are
    /// inside the write, and an existing account brings what its own family keeps.
    pub async fn join(
        &self,
        token_hash: [u8; 32],
        joining: Joining,
        now: DateTime<Utc>,
        check: impl Fn(&JoinFacts<'_>) -> Result<(), DomainError> + Send + 'static,
    ) -> Result<User, WriteError<User>> {
        Ok(self
            .core
            .commit(move |tx| {
                let invite =
                    super::invites::by_token_in(tx, &token_hash)?.ok_or(Abort::NotFound)?;
                tx.check_family(invite.family)?;
                let members = count(
                    tx,
                    "SELECT count(*) FROM users WHERE family_id = ?1",
                    invite.family,
                )?;
                let account = match &joining {
                    Joining::New(_) => None,
                    Joining::Existing(id) => Some(get_in(tx, *id)?.ok_or(Abort::NotFound)?),
                };
                let (own_children, own_members) = match &account {
                    None => (0, 0),
                    Some(user) => (
                        count(
                            tx,
                            "SELECT count(*) FROM children WHERE family_id = ?1 AND deleted = 0",
                            user.family_id,
                        )?,
                        count(
                            tx,
                            "SELECT count(*) FROM users WHERE family_id = ?1",
                            user.family_id,
                        )?,
                    ),
                };
                let email_taken = match &joining {
                    Joining::New(user) => tx
                        .conn
                        .prepare_cached("SELECT 1 FROM users WHERE email = ?1")?
                        .exists([user.email.as_str()])?,
                    Joining::Existing(_) => false,
                };
                check(&JoinFacts {
                    invite: &invite,
                    members,
                    account: account.as_ref(),
                    own_children,
                    own_members,
                    email_taken,
                })?;
                tx.delete::<FamilyInvite>(invite.family, &invite.key(), true)?;
                match (joining, account) {
                    (Joining::New(user), _) => {
                        let mut user = *user;
                        user.family_id = invite.family;
                        user.joined_family_at = Some(now);
                        tx.insert(&user)
                    }
                    (Joining::Existing(_), Some(user)) => {
                        bring(tx, user.family_id, invite.family, now)?;
                        change_family(tx, user, invite.family, now, false)
                    }
                    (Joining::Existing(_), None) => Err(Abort::NotFound),
                }
            })
            .await?)
    }

    /// Moves an account out of its family into `to` (a new, empty one): leaving, or being
    /// removed (`end_sessions`: every session of the account ends with it). `check` sees the
    /// account and its family's members as they are inside the write.
    pub async fn move_out(
        &self,
        id: UserId,
        to: FamilyId,
        now: DateTime<Utc>,
        end_sessions: bool,
        check: impl Fn(&User, &[UserId]) -> Result<(), DomainError> + Send + 'static,
    ) -> Result<User, WriteError<User>> {
        Ok(self
            .core
            .commit(move |tx| {
                let user = get_in(tx, id)?.ok_or(Abort::NotFound)?;
                let members = member_ids(tx, user.family_id)?;
                check(&user, &members)?;
                change_family(tx, user, to, now, end_sessions)
            })
            .await?)
    }

    /// Deletes an account in one write: the account goes with its sessions and reset links
    /// (by cascade). When it was the family's last member, the family is marked deleted, its
    /// links end and its records are removed by a queued job; otherwise the other members keep
    /// everything. `only_if` is checked on the account as it is inside the write. An empty
    /// server is a new server again: the next sign-up becomes the admin.
    pub async fn delete_account(
        &self,
        id: UserId,
        only_if: impl Fn(&User) -> bool + Send + 'static,
    ) -> Result<Option<User>, StoreError> {
        Ok(self
            .core
            .commit(move |tx| {
                let Some(user) = get_in(tx, id)?.filter(|u| only_if(u)) else {
                    return Ok(None);
                };
                let family = user.family_id;
                let alone = member_ids(tx, family)?.iter().all(|m| *m == id);
                tx.delete::<User>(family, &id.into(), true)?;
                tx.note(Change::SessionsEnded {
                    user: id,
                    session: None,
                });
                if alone {
                    super::invites::delete_all_of_family(tx, family)?;
                    super::co_parents::delete_all_of_family(tx, family)?;
                    tx.mark_family_deleted(family)?;
                    super::jobs::enqueue(tx, JobKind::DeleteFamily { family })?;
                }
                let empty: bool =
                    tx.conn
                        .query_row("SELECT NOT EXISTS (SELECT 1 FROM users)", [], |r| r.get(0))?;
                if empty {
                    tx.conn
                        .prepare_cached("DELETE FROM meta WHERE name = ?1")?
                        .execute([FIRST_CLAIMED])?;
                }
                Ok::<_, Abort>(Some(user))
            })
            .await?)
    }
}

/// What an account alone in its family keeps there besides children (which keep it from
/// joining another): its recipes, grocery lists and meal plan come along to `to` (a week `to`
/// has already planned takes the entries in after its own); its co-parents' links and adult
/// invites end, since nobody is left to share.
fn bring(tx: &mut Tx<'_>, from: FamilyId, to: FamilyId, now: DateTime<Utc>) -> Result<(), Abort> {
    // Recipes' pictures are the family's photos: they come along with them.
    tx.conn
        .prepare_cached(
            "UPDATE media SET family_id = ?2 WHERE family_id = ?1 AND id IN
             (SELECT photo_id FROM recipes WHERE family_id = ?1 AND photo_id IS NOT NULL)",
        )?
        .execute(params![from, to])?;
    for (table, kind) in [
        ("recipes", Kind::Recipe),
        ("grocery_lists", Kind::GroceryList),
    ] {
        let ids: Vec<uuid::Uuid> = {
            let mut stmt = tx
                .conn
                .prepare_cached(&format!("SELECT id FROM {table} WHERE family_id = ?1"))?;
            let ids = stmt.query_map([from], |r| r.get::<_, [u8; 16]>(0))?;
            ids.map(|id| id.map(uuid::Uuid::from_bytes))
                .collect::<Result<_, _>>()?
        };
        tx.conn
            .prepare_cached(&format!(
                "UPDATE {table} SET family_id = ?2 WHERE family_id = ?1"
            ))?
            .execute(params![from, to])?;
        for id in ids {
            tx.announce(from, kind, id)?;
            tx.announce(to, kind, id)?;
        }
    }
    let weeks = rows::<MealPlan>(
        tx.conn,
        &format!(
            "SELECT {} FROM meal_plans t WHERE t.family_id = ?1",
            MealPlan::SELECT
        ),
        [from],
    )?;
    for week in weeks {
        let key = week.key();
        tx.announce(from, Kind::MealPlan, week.change_id())?;
        match tx.get::<MealPlan>(to, &key)? {
            Some(theirs) => {
                tx.remove_row::<MealPlan>(from, &key)?;
                let mut merged = theirs.clone();
                merged.take_in(week.entries, now);
                tx.replace(&theirs, merged)?;
            }
            None => {
                tx.conn
                    .prepare_cached(
                        "UPDATE meal_plans SET family_id = ?2 WHERE family_id = ?1 AND week = ?3",
                    )?
                    .execute(params![from, to, key])?;
                tx.announce(to, Kind::MealPlan, week.change_id())?;
            }
        }
    }
    super::co_parents::delete_all_of_family(tx, from)?;
    super::invites::delete_all_of_family(tx, from)?;
    // The family joined keeps its own settings.
    super::family_settings::delete_of_family(tx, from)?;
    Ok(())
}

/// Moves an account to family `to`, with its avatar, announcing the change to both families.
/// Its open event streams end either way (they follow the old family); with `end_sessions`
/// its sessions end too.
fn change_family(
    tx: &mut Tx<'_>,
    user: User,
    to: FamilyId,
    now: DateTime<Utc>,
    end_sessions: bool,
) -> Result<User, Abort> {
    let from = user.family_id;
    let mut moved = user.clone();
    moved.family_id = to;
    moved.joined_family_at = Some(now);
    moved.updated_at = now;
    if end_sessions {
        moved.session_epoch += 1;
    }
    let moved = tx.replace(&user, moved)?;
    if let Some(avatar) = moved.avatar {
        tx.conn
            .prepare_cached("UPDATE media SET family_id = ?2 WHERE id = ?1")?
            .execute(params![avatar, to])?;
    }
    tx.announce(from, Kind::Family, moved.id.as_uuid())?;
    tx.note(Change::SessionsEnded {
        user: moved.id,
        session: None,
    });
    Ok(moved)
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::Utc;

    use super::*;
    use crate::store::sqlite::tests::temp_core;
    use crate::store::users::tests::user;
    use std::collections::HashMap;

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

    #[tokio::test]
    async fn an_edit_based_on_an_earlier_read_keeps_a_quiet_write_made_meanwhile() {
        let (_dir, core) = temp_core();
        let users = Users::new(core.clone());
        let a = users.insert(&user("a@example.org"), false).await.unwrap();
        let base = users.get(a.id).await.unwrap().unwrap();
        let seen = Utc::now() + chrono::Duration::hours(3);
        users
            .update_quietly(a.id, move |u| {
                u.last_seen_at = seen;
                u.password_hash = "stronger".into();
            })
            .await
            .unwrap();
        let mut edit = base.clone();
        edit.first_name = "Bea".into();
        core.commit(move |tx| tx.replace(&base, edit))
            .await
            .unwrap();
        let now = users.get(a.id).await.unwrap().unwrap();
        assert_eq!(now.first_name, "Bea");
        assert_eq!(now.version, 2);
        assert_eq!(
            (now.last_seen_at, now.password_hash.as_str()),
            (seen, "stronger")
        );
    }

    fn plan_entry(text: &str, monday: chrono::NaiveDate) -> crate::domain::meal_plan::EntryFields {
        crate::domain::meal_plan::EntryFields {
            id: None,
            date: monday,
            meal_type: crate::domain::meal::MealType::Dinner,
            planned: crate::domain::meal_plan::Planned::Text(text.into()),
            servings: None,
            children: Vec::new(),
        }
    }

    #[tokio::test]
    async fn a_link_brings_a_new_account_in_once_and_the_rules_see_the_facts() {
        let (_dir, core) = temp_core();
        let users = Users::new(core.clone());
        let invites = crate::store::sqlite::invites::Invites::new(core.clone());
        let ann = users.insert(&user("ann@example.org"), true).await.unwrap();
        let link = [7u8; 32];
        invites
            .insert(&FamilyInvite::new(ann.family_id, ann.id, link, Utc::now()))
            .await
            .unwrap();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let facts = seen.clone();
        let joined = users
            .join(
                link,
                Joining::New(Box::new(user("sam@example.org"))),
                Utc::now(),
                move |f| {
                    facts
                        .lock()
                        .unwrap()
                        .push((f.members, f.email_taken, f.account.is_some()));
                    Ok(())
                },
            )
            .await
            .unwrap();
        assert_eq!(joined.family_id, ann.family_id);
        assert!(joined.joined_family_at.is_some());
        assert_eq!(seen.lock().unwrap().as_slice(), [(1, false, false)]);
        assert_eq!(users.members(ann.family_id).await.unwrap().len(), 2);
        assert!(
            invites.list(ann.family_id).await.unwrap().is_empty(),
            "used up"
        );
        assert!(matches!(
            users
                .join(
                    link,
                    Joining::New(Box::new(user("eve@example.org"))),
                    Utc::now(),
                    |_| Ok(())
                )
                .await,
            Err(WriteError::NotFound)
        ));
        // A rule that says no changes nothing.
        let again = [8u8; 32];
        invites
            .insert(&FamilyInvite::new(ann.family_id, ann.id, again, Utc::now()))
            .await
            .unwrap();
        let refused = users
            .join(
                again,
                Joining::New(Box::new(user("ann@example.org"))),
                Utc::now(),
                |f| match f.email_taken {
                    true => Err(DomainError::NotFound),
                    false => Ok(()),
                },
            )
            .await;
        assert!(matches!(refused, Err(WriteError::Rule(_))), "{refused:?}");
        assert_eq!(
            invites.list(ann.family_id).await.unwrap().len(),
            1,
            "link kept"
        );
    }

    #[tokio::test]
    async fn an_existing_account_brings_its_recipes_lists_and_weeks() {
        use crate::domain::grocery::GroceryList;
        use crate::domain::meal_plan::Week;
        use crate::domain::recipe::Source;
        use crate::domain::recipe::tests::content;
        let (_dir, core) = temp_core();
        let users = Users::new(core.clone());
        let invites = crate::store::sqlite::invites::Invites::new(core.clone());
        let recipes = crate::store::sqlite::recipes::Recipes::new(core.clone());
        let lists = crate::store::sqlite::grocery_lists::GroceryLists::new(core.clone());
        let plans = crate::store::sqlite::meal_plans::MealPlans::new(core.clone());
        let media = crate::store::sqlite::media::Media::new(core.clone());
        let ann = users.insert(&user("ann@example.org"), true).await.unwrap();
        let ben = users.insert(&user("ben@example.org"), false).await.unwrap();
        let now = Utc::now();
        let mut recipe = crate::domain::recipe::Recipe::create(
            ben.family_id,
            ben.id,
            Source::Imported,
            content("Soup", &["Leek"]),
            now,
        );
        // An imported recipe's picture is a photo of the family's: it comes along.
        let picture = crate::store::media::tests::upload(ben.family_id, now);
        media
            .insert(&picture, &[(crate::store::media::Variant::Full, b"p")])
            .await
            .unwrap();
        recipe.photo = Some(picture.id);
        recipes.insert(&recipe).await.unwrap();
        let list = GroceryList::create(ben.family_id, "Market".into(), Vec::new(), now);
        lists.insert(&list).await.unwrap();
        let week = Week::containing(now.date_naive());
        let empty = HashMap::new();
        plans
            .save(
                ann.family_id,
                week,
                0,
                vec![plan_entry("Pasta", week.monday())],
                &empty,
                now,
            )
            .await
            .unwrap();
        plans
            .save(
                ben.family_id,
                week,
                0,
                vec![plan_entry("Curry", week.monday())],
                &empty,
                now,
            )
            .await
            .unwrap();
        // Ben's avatar goes with him.
        let avatar = crate::store::media::tests::upload(ben.family_id, now);
        media
            .insert(&avatar, &[(crate::store::media::Variant::Full, b"f")])
            .await
            .unwrap();
        users
            .update(ben.id, None, move |u| {
                u.avatar = Some(avatar.id);
                Ok(())
            })
            .await
            .unwrap();
        let link = [9u8; 32];
        invites
            .insert(&FamilyInvite::new(ann.family_id, ann.id, link, now))
            .await
            .unwrap();
        let joined = users
            .join(link, Joining::Existing(ben.id), now, |f| {
                assert_eq!((f.own_children, f.own_members), (0, 1));
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(joined.family_id, ann.family_id);
        assert_eq!(recipes.list(ann.family_id).await.unwrap().len(), 1);
        assert_eq!(lists.list(ann.family_id).await.unwrap().len(), 1);
        assert!(recipes.list(ben.family_id).await.unwrap().is_empty());
        let merged = plans.get(ann.family_id, week).await.unwrap().unwrap();
        let titles: Vec<&str> = merged.entries.iter().map(|e| e.title.as_str()).collect();
        assert_eq!(titles, ["Pasta", "Curry"], "theirs after ours");
        assert!(plans.get(ben.family_id, week).await.unwrap().is_none());
        assert!(
            media.get(ann.family_id, avatar.id).await.unwrap().is_some(),
            "avatar moved"
        );
        assert!(
            media
                .get(ann.family_id, picture.id)
                .await
                .unwrap()
                .is_some(),
            "the recipe's picture moved"
        );
        let moved = recipes
            .get(ann.family_id, recipe.id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(moved.photo, Some(picture.id));
    }

    #[tokio::test]
    async fn moving_out_checks_inside_the_write_and_can_end_sessions() {
        let (_dir, core) = temp_core();
        let users = Users::new(core.clone());
        let ann = users.insert(&user("ann@example.org"), true).await.unwrap();
        let refused = users
            .move_out(ann.id, FamilyId::new(), Utc::now(), false, |_, members| {
                assert_eq!(members.len(), 1);
                Err(DomainError::NotFound)
            })
            .await;
        assert!(matches!(refused, Err(WriteError::Rule(_))));
        let to = FamilyId::new();
        let moved = users
            .move_out(ann.id, to, Utc::now(), true, |_, _| Ok(()))
            .await
            .unwrap();
        assert_eq!(moved.family_id, to);
        assert_eq!(moved.session_epoch, ann.session_epoch + 1);
        assert_eq!(moved.version, 2);
        assert_eq!(users.members(to).await.unwrap().len(), 1);
    }

    #[tokio::test]
    async fn deleting_the_last_member_deletes_the_family_and_frees_the_first_claim() {
        let (_dir, core) = temp_core();
        let users = Users::new(core.clone());
        let jobs = crate::store::sqlite::jobs::Jobs::new(core.clone());
        let invites = crate::store::sqlite::invites::Invites::new(core.clone());
        let a = users.insert(&user("a@example.org"), true).await.unwrap();
        invites
            .insert(&FamilyInvite::new(a.family_id, a.id, [1; 32], Utc::now()))
            .await
            .unwrap();
        assert!(
            users
                .delete_account(a.id, |_| false)
                .await
                .unwrap()
                .is_none()
        );
        let gone = users.delete_account(a.id, |_| true).await.unwrap().unwrap();
        assert_eq!(gone.id, a.id);
        assert!(users.get(a.id).await.unwrap().is_none());
        assert!(
            users
                .delete_account(a.id, |_| true)
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            jobs.pending().await.unwrap().len(),
            1,
            "family removal queued"
        );
        assert!(core.is_deleted(a.family_id));
        assert!(
            invites.by_token(&[1; 32]).await.unwrap().is_none(),
            "links end at once"
        );
        users
            .insert(&user("a@example.org"), true)
            .await
            .expect("email and first free again");
    }
}
