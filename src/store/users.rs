//! Accounts, with a unique e-mail index written in the same transaction as the user.

use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError};

use super::{Record, StoreError, flushed};
use crate::domain::email::Email;
use crate::domain::ids::UserId;
use crate::domain::user::User;

impl Record for User {
    const VERSION: u8 = 1;
}

/// Marks that the first (admin) account has been claimed; lives in the e-mail index tree,
/// where no e-mail can collide with it.
const FIRST_CLAIMED: &[u8] = b"\0first-account";

#[derive(Debug, thiserror::Error)]
pub enum InsertUserError {
    #[error("an account with this e-mail already exists")]
    EmailTaken,
    #[error("the first account already exists")]
    NotFirst,
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Debug)]
enum Abort {
    EmailTaken,
    NotFirst,
}

pub struct Users {
    db: sled::Db,
    users: sled::Tree,
    by_email: sled::Tree,
}

impl Users {
    pub(super) fn new(db: sled::Db, users: sled::Tree, by_email: sled::Tree) -> Self {
        Self {
            db,
            users,
            by_email,
        }
    }

    /// Inserts a new account. With `first`, it succeeds only if no account was ever claimed
    /// as the first one (two simultaneous first sign-ups cannot both become admin).
    pub async fn insert(&self, user: &User, first: bool) -> Result<(), InsertUserError> {
        let value = user.encode()?;
        let email = user.email.as_str().as_bytes();
        let result = (&self.users, &self.by_email).transaction(|(users, by_email)| {
            if by_email.get(email)?.is_some() {
                return Err(ConflictableTransactionError::Abort(Abort::EmailTaken));
            }
            if first {
                if by_email.get(FIRST_CLAIMED)?.is_some() {
                    return Err(ConflictableTransactionError::Abort(Abort::NotFirst));
                }
                by_email.insert(FIRST_CLAIMED, user.id.as_bytes().as_slice())?;
            }
            by_email.insert(email, user.id.as_bytes().as_slice())?;
            users.insert(user.id.as_bytes().as_slice(), value.as_slice())?;
            Ok(())
        });
        match result {
            Ok(()) => {}
            Err(TransactionError::Abort(Abort::EmailTaken)) => {
                return Err(InsertUserError::EmailTaken);
            }
            Err(TransactionError::Abort(Abort::NotFirst)) => return Err(InsertUserError::NotFirst),
            Err(TransactionError::Storage(e)) => return Err(StoreError::Sled(e).into()),
        }
        flushed(&self.db).await?;
        Ok(())
    }

    pub fn get(&self, id: UserId) -> Result<Option<User>, StoreError> {
        self.users
            .get(id.as_bytes())?
            .map(|v| User::decode(&v))
            .transpose()
    }

    pub fn get_by_email(&self, email: &Email) -> Result<Option<User>, StoreError> {
        let Some(id) = self.by_email.get(email.as_str().as_bytes())? else {
            return Ok(None);
        };
        let id = UserId::from_slice(&id)
            .ok_or_else(|| StoreError::Corrupt("bad e-mail index".into()))?;
        self.get(id)
    }

    /// Saves changes and waits for them to reach the disk. The e-mail never changes.
    pub async fn update(&self, user: &User) -> Result<(), StoreError> {
        self.update_quietly(user)?;
        flushed(&self.db).await
    }

    /// Saves bookkeeping (last seen) without waiting for the disk.
    pub fn update_quietly(&self, user: &User) -> Result<(), StoreError> {
        self.users.insert(user.id.as_bytes(), user.encode()?)?;
        Ok(())
    }

    /// All accounts, oldest first.
    pub fn list(&self) -> Result<Vec<User>, StoreError> {
        self.users
            .iter()
            .map(|entry| User::decode(&entry?.1))
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.users.is_empty()
    }

    /// Removes the account and its e-mail index entry. Family records are removed by the caller.
    pub async fn delete(&self, id: UserId) -> Result<Option<User>, StoreError> {
        let Some(user) = self.get(id)? else {
            return Ok(None);
        };
        let email = user.email.as_str().as_bytes().to_vec();
        let result: Result<(), TransactionError<Abort>> = (&self.users, &self.by_email)
            .transaction(|(users, by_email)| {
                users.remove(id.as_bytes().as_slice())?;
                if by_email.get(&email)?.as_deref() == Some(id.as_bytes().as_slice()) {
                    by_email.remove(email.as_slice())?;
                }
                Ok(())
            });
        result.map_err(|e| match e {
            TransactionError::Storage(e) => StoreError::Sled(e),
            TransactionError::Abort(a) => StoreError::Corrupt(format!("{a:?}")),
        })?;
        // An empty server is a new server again: the next sign-up becomes the admin.
        if self.users.is_empty() {
            self.by_email.remove(FIRST_CLAIMED)?;
        }
        flushed(&self.db).await?;
        Ok(Some(user))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::ParentRole;
    use chrono::Utc;

    pub fn user(email: &str) -> User {
        let now = Utc::now();
        User {
            id: UserId::new(),
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
        }
    }

    #[tokio::test]
    async fn email_is_unique_and_first_is_claimed_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
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
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
        let a = user("a@example.org");
        store.users.insert(&a, true).await.unwrap();
        assert_eq!(store.users.delete(a.id).await.unwrap().unwrap().id, a.id);
        assert!(store.users.get(a.id).unwrap().is_none());
        assert!(store.users.delete(a.id).await.unwrap().is_none());
        store
            .users
            .insert(&user("a@example.org"), true)
            .await
            .expect("email and first free again");
    }
}
