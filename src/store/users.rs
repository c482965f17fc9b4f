//! Accounts (repository: `sqlite::users`).

use super::{Record, StoreError};
use crate::domain::user::User;

pub use super::sqlite::users::{JoinFacts, Joining, Users};

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

#[derive(Debug, thiserror::Error)]
pub enum InsertUserError {
    #[error("an account with this e-mail already exists")]
    EmailTaken,
    #[error("the first account already exists")]
    NotFirst,
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::domain::email::Email;
    use crate::domain::ids::{FamilyId, UserId};
    use crate::domain::user::ParentRole;
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
            language: None,
        }
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
