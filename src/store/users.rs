//! Accounts, with a unique e-mail index written in the same transaction as the user. Every
//! change goes through the write primitive; "last seen" and a hash upgrade change only their
//! field.

use chrono::{DateTime, Utc};

use super::jobs::JobKind;
use super::sessions::session_index_prefix;
use super::write::{
    Abort, Core, Entity, Shared, TreeId, Tx, TxResult, WriteError, abort, broken, move_photo,
};
use super::{Record, StoreError};
use crate::domain::DomainError;
use crate::domain::change::{Change, ChangeId, Kind};
use crate::domain::co_parent::CoParent;
use crate::domain::email::Email;
use crate::domain::family::{FamilyInvite, JOIN_TITLE, MEMBERS_MAX, check_can_move, check_link};
use crate::domain::grocery::GroceryList;
use crate::domain::ids::{FamilyId, MediaId, UserId};
use crate::domain::meal_plan::MealPlan;
use crate::domain::recipe::Recipe;
use crate::domain::user::{User, email_taken};

impl Record for User {
    /// 2: `family_id`, `version` and `session_epoch` added.
    const VERSION: u8 = 2;

    fn upgrade(from: u8, mut value: serde_json::Value) -> serde_json::Value {
        if from < 2 && value.get("family_id").is_none() {
            // Before households every account was its own family, under its own id.
            if let Some(id) = value.get("id").cloned() {
                value["family_id"] = id;
            }
        }
        value
    }
}

impl Entity for User {
    const TREE: TreeId = TreeId::Users;
    const KIND: Kind = Kind::Profile;

    fn key(&self) -> Vec<u8> {
        self.id.as_bytes().to_vec()
    }
    fn family(&self) -> FamilyId {
        self.family_id
    }
    fn id(&self) -> ChangeId {
        self.id.as_uuid().into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
    fn index(&self) -> Vec<(TreeId, Vec<u8>, Vec<u8>)> {
        vec![
            (
                TreeId::UsersByEmail,
                self.email.as_str().as_bytes().to_vec(),
                self.id.as_bytes().to_vec(),
            ),
            (
                TreeId::UsersByFamily,
                member_key(self.family_id, self.id).to_vec(),
                Vec::new(),
            ),
        ]
    }
    fn photos(&self) -> Vec<MediaId> {
        self.avatar.into_iter().collect()
    }
}

/// `family ++ user`: the family's members are a prefix scan.
pub(crate) fn member_key(family: FamilyId, user: UserId) -> [u8; 32] {
    super::keys::owned(family.as_bytes(), user.as_bytes())
}

/// The members of a family (for a scan before a transaction).
fn member_ids(core: &Core, family: FamilyId) -> Result<Vec<UserId>, Abort> {
    Ok(core
        .keys(TreeId::UsersByFamily, family.as_bytes(), MEMBERS_MAX + 1)?
        .iter()
        .filter_map(|k| super::keys::record_part(k).map(UserId::from_bytes))
        .collect())
}

fn read_user(core: &Core, id: UserId) -> Result<Option<User>, Abort> {
    core.read(id.as_bytes())
        .map_err(|e| Abort::Corrupt(e.to_string()))
}

/// How an account comes into a family through an invite link.
pub enum Joining<'a> {
    /// A new account, created in the family.
    New(&'a User),
    /// A signed-in account whose own family is empty.
    Existing(UserId),
}

/// Marks that the first (admin) account has been claimed; lives in the e-mail index tree,
/// where no e-mail can collide with it.
pub(crate) const FIRST_CLAIMED: &[u8] = b"\0first-account";
const EMAIL_TAKEN: &str = "email taken";
const NOT_FIRST: &str = "not first";

#[derive(Debug, thiserror::Error)]
pub enum InsertUserError {
    #[error("an account with this e-mail already exists")]
    EmailTaken,
    #[error("the first account already exists")]
    NotFirst,
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub struct Users {
    core: Shared,
}

impl Users {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Inserts a new account. With `first`, it succeeds only if no account was ever claimed
    /// as the first one (two simultaneous first sign-ups cannot both become admin).
    pub async fn insert(&self, user: &User, first: bool) -> Result<User, InsertUserError> {
        let email = user.email.as_str().as_bytes();
        let result = self
            .core
            .commit(|tx| {
                if tx.exists(TreeId::UsersByEmail, email)? {
                    return abort(Abort::Other(EMAIL_TAKEN));
                }
                if first {
                    if tx.exists(TreeId::UsersByEmail, FIRST_CLAIMED)? {
                        return abort(Abort::Other(NOT_FIRST));
                    }
                    tx.insert_raw(TreeId::UsersByEmail, FIRST_CLAIMED, user.id.as_bytes())?;
                }
                tx.insert(user)
            })
            .await;
        match result {
            Ok(user) => Ok(user),
            Err(sled::transaction::TransactionError::Abort(Abort::Other(EMAIL_TAKEN))) => {
                Err(InsertUserError::EmailTaken)
            }
            Err(sled::transaction::TransactionError::Abort(Abort::Other(NOT_FIRST))) => {
                Err(InsertUserError::NotFirst)
            }
            Err(e) => Err(StoreError::from(e).into()),
        }
    }

    pub fn get(&self, id: UserId) -> Result<Option<User>, StoreError> {
        self.core.read(id.as_bytes())
    }

    pub fn get_by_email(&self, email: &Email) -> Result<Option<User>, StoreError> {
        let Some(id) = self
            .core
            .tree(TreeId::UsersByEmail)
            .get(email.as_str().as_bytes())?
        else {
            return Ok(None);
        };
        let id = UserId::from_slice(&id)
            .ok_or_else(|| StoreError::Corrupt("bad e-mail index".into()))?;
        self.get(id)
    }

    /// Changes an account in one transaction (a new avatar is attached and the old one
    /// removed in it); a stale `expected` version changes nothing. The e-mail never changes.
    pub async fn update(
        &self,
        id: UserId,
        expected: Option<u64>,
        change: impl Fn(&mut User) -> Result<(), DomainError> + Sync,
    ) -> Result<User, WriteError<User>> {
        self.core.update(id.as_bytes(), expected, &change).await
    }

    /// Bookkeeping that is not an edit (last seen, a stronger hash of the same password):
    /// changes only what `change` touches, keeps the version and does not wait for the disk.
    pub fn update_quietly(
        &self,
        id: UserId,
        change: impl Fn(&mut User),
    ) -> Result<Option<User>, StoreError> {
        Ok(self.core.transact(|tx| {
            let Some(mut user) = tx.get::<User>(id.as_bytes())? else {
                return Ok(None);
            };
            change(&mut user);
            tx.put_quietly(&user)?;
            Ok(Some(user))
        })?)
    }

    /// All accounts, oldest first.
    pub fn list(&self) -> Result<Vec<User>, StoreError> {
        self.core
            .tree(TreeId::Users)
            .iter()
            .map(|entry| User::decode(&entry?.1))
            .collect()
    }

    /// The members of a family, longest-standing first.
    pub fn members(&self, family: FamilyId) -> Result<Vec<User>, StoreError> {
        let mut members = Vec::new();
        for key in self
            .core
            .tree(TreeId::UsersByFamily)
            .scan_prefix(family.as_bytes())
            .keys()
        {
            let id = super::keys::record_part(&key?)
                .ok_or_else(|| StoreError::Corrupt("bad member index".into()))?;
            members.extend(self.get(UserId::from_bytes(id))?);
        }
        members.sort_by_key(User::joined_at);
        Ok(members)
    }

    /// Takes the invite behind `token_hash` and brings an account into its family, in one
    /// transaction: a link works once, a family holds at most `MEMBERS_MAX` adults, and an
    /// existing account moves only while its own family is empty (nothing is left behind).
    pub async fn join(
        &self,
        token_hash: &[u8; 32],
        joining: Joining<'_>,
        now: DateTime<Utc>,
    ) -> Result<User, WriteError<User>> {
        // What the transaction cannot scan: the family's members, and for an existing
        // account whether its own family is empty.
        let scan = |core: &Core| {
            let invite = super::invites::find(core, token_hash)
                .map_err(|e| Abort::Corrupt(e.to_string()))?
                .ok_or(Abort::NotFound)?;
            let members = member_ids(core, invite.family)?.len();
            let own = match &joining {
                Joining::New(_) => (0, 0, Belongings::default()),
                Joining::Existing(id) => {
                    let user = read_user(core, *id)?.ok_or(Abort::NotFound)?;
                    let children = core
                        .keys(TreeId::Children, user.family_id.as_bytes(), 1)?
                        .len();
                    (
                        children,
                        member_ids(core, user.family_id)?.len(),
                        Belongings::of(core, user.family_id)?,
                    )
                }
            };
            Ok((members, own))
        };
        self.core
            .commit_scanned(
                scan,
                |tx, (members, (children, own_members, belongings))| {
                    let Some(invite) = super::invites::by_token(tx, token_hash)? else {
                        return abort(Abort::NotFound);
                    };
                    check_link(&invite, now).map_err(broken)?;
                    tx.check_family(invite.family)?;
                    if *members >= MEMBERS_MAX {
                        return Err(broken(DomainError::conflict(
                            JOIN_TITLE,
                            "This family already has 10 adults.",
                        )));
                    }
                    tx.delete::<FamilyInvite>(&invite.key(), true)?;
                    match &joining {
                        Joining::New(user) => {
                            if tx.exists(TreeId::UsersByEmail, user.email.as_str().as_bytes())? {
                                return Err(broken(email_taken()));
                            }
                            let mut user = (*user).clone();
                            user.family_id = invite.family;
                            user.joined_family_at = Some(now);
                            tx.insert(&user)
                        }
                        Joining::Existing(id) => {
                            let Some(user) = tx.get::<User>(id.as_bytes())? else {
                                return abort(Abort::NotFound);
                            };
                            check_can_move(&user, invite.family, *children, *own_members)
                                .map_err(broken)?;
                            belongings.bring(tx, invite.family, now)?;
                            change_family(tx, *id, invite.family, now, false)
                        }
                    }
                },
            )
            .await
            .map_err(super::write::write_error)
    }

    /// Moves an account out of its family into `to` (a new, empty one): leaving, or being
    /// removed (`end_sessions`: every session of the account ends with it). `check` sees the
    /// account and the family's members as they are inside the transaction.
    pub async fn move_out(
        &self,
        id: UserId,
        to: FamilyId,
        now: DateTime<Utc>,
        end_sessions: bool,
        check: impl Fn(&User, &[UserId]) -> Result<(), DomainError>,
    ) -> Result<User, WriteError<User>> {
        let scan = |core: &Core| match read_user(core, id)? {
            Some(user) => member_ids(core, user.family_id),
            None => Err(Abort::NotFound),
        };
        self.core
            .commit_scanned(scan, |tx, members| {
                let Some(user) = tx.get::<User>(id.as_bytes())? else {
                    return abort(Abort::NotFound);
                };
                check(&user, members).map_err(broken)?;
                change_family(tx, id, to, now, end_sessions)
            })
            .await
            .map_err(super::write::write_error)
    }

    pub fn is_empty(&self) -> bool {
        self.core.tree(TreeId::Users).is_empty()
    }

    /// Deletes an account in one step: the account, its e-mail, its sessions and reset links
    /// go at once. When it was the family's last member, the family is marked deleted and its
    /// records are removed by a queued job; otherwise the other members keep everything.
    /// `only_if` is checked on the account as it is inside the transaction. Returns the
    /// account, or `None` when it did not exist or `only_if` said no.
    pub async fn delete_account(
        &self,
        id: UserId,
        only_if: impl Fn(&User) -> bool,
    ) -> Result<Option<User>, StoreError> {
        let sessions: Vec<sled::IVec> = self
            .core
            .tree(TreeId::SessionsByUser)
            .scan_prefix(session_index_prefix(id))
            .keys()
            .collect::<Result<_, _>>()?;
        let links: Vec<sled::IVec> = super::reset_tokens::keys_of(&self.core, id)?;
        // The family's members, invites and co-parents: when this is the last member, the
        // links go with it at once (the rest of the family follows in a job).
        let scan = |core: &Core| {
            let Some(user) = read_user(core, id)? else {
                return Ok((Vec::new(), Vec::new(), Vec::new()));
            };
            Ok((
                member_ids(core, user.family_id)?,
                super::invites::keys_of(core, user.family_id)?,
                super::co_parents::keys_of(core, user.family_id)?,
            ))
        };
        let user = self
            .core
            .commit_scanned(scan, |tx, (members, invites, co_parents)| {
                match tx.get::<User>(id.as_bytes())? {
                    Some(user) if only_if(&user) => {}
                    _ => return Ok(None),
                }
                let Some(user) = tx.delete::<User>(id.as_bytes(), true)? else {
                    return Ok(None);
                };
                for index in &sessions {
                    tx.remove_raw(TreeId::SessionsByUser, index)?;
                    if let Some(hash) = index.get(16..) {
                        tx.remove_raw(TreeId::Sessions, hash)?;
                    }
                }
                for link in &links {
                    tx.remove_raw(TreeId::ResetTokens, link)?;
                }
                tx.note(Change::SessionsEnded {
                    user: id,
                    session: None,
                });
                // The family goes with its last member; otherwise the others keep it.
                if members.iter().all(|m| *m == id) {
                    super::invites::delete_all(tx, invites)?;
                    super::co_parents::delete_all(tx, co_parents)?;
                    tx.mark_family_deleted(user.family_id)?;
                    super::jobs::enqueue(
                        tx,
                        JobKind::DeleteFamily {
                            family: user.family_id,
                        },
                    )?;
                }
                Ok(Some(user))
            })
            .await?;
        // An empty server is a new server again: the next sign-up becomes the admin.
        if user.is_some() && self.is_empty() {
            self.core.tree(TreeId::UsersByEmail).remove(FIRST_CLAIMED)?;
            self.core.flush().await?;
        }
        Ok(user)
    }
}

/// What an account alone in its family keeps there besides children (which keep it from
/// joining another): its recipes, grocery lists and meal plan come along when it joins one;
/// its co-parents' links and adult invites end, since nobody is left to share.
#[derive(Default)]
struct Belongings {
    recipes: Vec<sled::IVec>,
    lists: Vec<sled::IVec>,
    plans: Vec<sled::IVec>,
    co_parents: Vec<sled::IVec>,
    invites: Vec<sled::IVec>,
}

/// More than any family keeps; a transaction moving it stays bounded.
const BELONGINGS_MAX: usize = 20_000;

impl Belongings {
    fn of(core: &Core, family: FamilyId) -> Result<Belongings, Abort> {
        let keys = |tree| core.keys(tree, family.as_bytes(), BELONGINGS_MAX);
        Ok(Belongings {
            recipes: keys(TreeId::Recipes)?,
            lists: keys(TreeId::GroceryLists)?,
            plans: keys(TreeId::MealPlans)?,
            co_parents: keys(TreeId::CoParents)?,
            invites: keys(TreeId::FamilyInvites)?,
        })
    }

    /// Moves the recipes, lists and weeks to `to` (a week `to` has already planned takes the
    /// entries in after its own), and ends the links.
    fn bring(&self, tx: &Tx<'_>, to: FamilyId, now: DateTime<Utc>) -> TxResult<()> {
        for key in &self.recipes {
            if let Some(mut recipe) = tx.delete::<Recipe>(key, true)? {
                recipe.family = to;
                tx.put_moved(&recipe)?;
            }
        }
        for key in &self.lists {
            if let Some(mut list) = tx.delete::<GroceryList>(key, true)? {
                list.family = to;
                tx.put_moved(&list)?;
            }
        }
        for key in &self.plans {
            let Some(mut plan) = tx.delete::<MealPlan>(key, true)? else {
                continue;
            };
            plan.family = to;
            let theirs = plan.key();
            if tx.exists(TreeId::MealPlans, &theirs)? {
                let entries = plan.entries.clone();
                tx.update::<MealPlan>(&theirs, None, &|week| {
                    week.take_in(entries.clone(), now);
                    Ok(())
                })?;
            } else {
                tx.put_moved(&plan)?;
            }
        }
        for key in &self.co_parents {
            tx.delete::<CoParent>(key, true)?;
        }
        for key in &self.invites {
            tx.delete::<FamilyInvite>(key, true)?;
        }
        Ok(())
    }
}

/// Moves an account to family `to`, with its avatar, announcing the change to both families.
/// Its open event streams end either way (they follow the old family); with `end_sessions`
/// its sessions end too.
fn change_family(
    tx: &Tx<'_>,
    id: UserId,
    to: FamilyId,
    now: DateTime<Utc>,
    end_sessions: bool,
) -> TxResult<User> {
    let Some(before) = tx.get::<User>(id.as_bytes())? else {
        return abort(Abort::NotFound);
    };
    let user = tx.update::<User>(id.as_bytes(), None, &|u| {
        u.family_id = to;
        u.joined_family_at = Some(now);
        u.updated_at = now;
        if end_sessions {
            u.session_epoch += 1;
        }
        Ok(())
    })?;
    if let Some(avatar) = user.avatar {
        move_photo(tx, before.family_id, to, avatar)?;
    }
    tx.announce(before.family_id, Kind::Family, id.as_uuid())?;
    tx.note(Change::SessionsEnded {
        user: id,
        session: None,
    });
    Ok(user)
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::domain::user::ParentRole;
    use crate::store::tests::temp_store;
    use chrono::Utc;

    pub fn user(email: &str) -> User {
        let now = Utc::now();
        User {
            id: UserId::new(),
            family_id: FamilyId::new(),
            version: 1,
            session_epoch: 0,
            email: Email::parse(email).unwrap(),
            first_name: "Ann".into(),
            last_name: "Lee".into(),
            role: ParentRole::Mom,
            is_guest: false,
            guest_children: None,
            is_admin: false,
            password_hash: "x".into(),
            avatar: None,
            created_at: now,
            updated_at: now,
            last_seen_at: now,
            joined_family_at: None,
        }
    }

    #[tokio::test]
    async fn email_is_unique_and_first_is_claimed_once() {
        let (_dir, store) = temp_store();
        let a = user("a@example.org");
        store.users.insert(&a, true).await.unwrap();
        assert!(matches!(
            store.users.insert(&user("A@example.org"), false).await,
            Err(InsertUserError::EmailTaken)
        ));
        assert!(matches!(
            store.users.insert(&user("b@example.org"), true).await,
            Err(InsertUserError::NotFirst)
        ));
        store
            .users
            .insert(&user("b@example.org"), false)
            .await
            .unwrap();
        assert_eq!(
            store
                .users
                .get_by_email(&Email::parse("A@EXAMPLE.ORG").unwrap())
                .unwrap()
                .unwrap()
                .id,
            a.id
        );
        assert_eq!(store.users.list().unwrap().len(), 2);
    }

    #[tokio::test]
    async fn delete_frees_the_email_and_an_empty_server_has_a_first_account_again() {
        let (_dir, store) = temp_store();
        let a = user("a@example.org");
        store.users.insert(&a, true).await.unwrap();
        let gone = store
            .users
            .delete_account(a.id, |_| true)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(gone.id, a.id);
        assert!(store.users.get(a.id).unwrap().is_none());
        assert!(
            store
                .users
                .delete_account(a.id, |_| true)
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(
            store.jobs.pending().unwrap().len(),
            1,
            "family removal queued"
        );
        store
            .users
            .insert(&user("a@example.org"), true)
            .await
            .expect("email and first free again");
    }

    #[tokio::test]
    async fn updates_are_versioned_and_quiet_writes_keep_the_version() {
        let (_dir, store) = temp_store();
        let a = store
            .users
            .insert(&user("a@example.org"), false)
            .await
            .unwrap();
        let renamed = store
            .users
            .update(a.id, Some(1), |u| {
                u.first_name = "Bea".into();
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(renamed.version, 2);
        let seen = Utc::now() + chrono::Duration::hours(2);
        store
            .users
            .update_quietly(a.id, |u| u.last_seen_at = seen)
            .unwrap();
        let now = store.users.get(a.id).unwrap().unwrap();
        assert_eq!((now.version, now.first_name.as_str()), (2, "Bea"));
        assert_eq!(now.last_seen_at, seen);
        assert!(matches!(
            store.users.update(a.id, Some(1), |_| Ok(())).await,
            Err(WriteError::Stale(_))
        ));
    }

    #[test]
    fn accounts_from_before_households_are_their_own_family() {
        let old = user("old@example.org");
        let mut value = serde_json::to_value(&old).unwrap();
        let obj = value.as_object_mut().unwrap();
        obj.remove("family_id");
        obj.remove("version");
        obj.remove("session_epoch");
        let mut bytes = vec![1u8];
        bytes.extend_from_slice(value.to_string().as_bytes());
        let read = User::decode(&bytes).unwrap();
        assert_eq!(read.family_id.as_uuid(), old.id.as_uuid());
        assert_eq!((read.version, read.session_epoch), (1, 0));
    }
}
