//! Co-parents of a family (repository: `sqlite::co_parents`).

use super::Record;
use crate::domain::co_parent::CoParent;

pub use super::sqlite::co_parents::{CoParents, InsertCoParentError};

impl Record for CoParent {
    const VERSION: u8 = 1;
}

#[cfg(test)]
pub(crate) mod tests {
    use chrono::Utc;

    use super::*;
    use crate::domain::co_parent::{CoParentDraft, PinHash};
    use crate::domain::ids::{FamilyId, UserId};

    pub(crate) fn co_parent(family: FamilyId, email: &str) -> CoParent {
        let fields = CoParentDraft {
            name: "Siobhán".into(),
            email: email.into(),
        }
        .validate()
        .unwrap();
        CoParent::new(
            family,
            UserId::new(),
            fields,
            PinHash::from_encoded("pbkdf2-sha256$1$AA$AA".into()),
            Utc::now(),
        )
    }
}
