//! What the change feed announces after a write commits. Every family-owned record and every
//! account carries a `version` (1 on creation, +1 per write); every family has a `revision`
//! (+1 per committed transaction that changed its data).

use super::ids::{FamilyId, UserId};

/// The version a record gets when it is created.
pub const FIRST_VERSION: u64 = 1;

/// For `#[serde(default = ...)]` on records written before versions existed.
pub fn first_version() -> u64 {
    FIRST_VERSION
}

/// The kind of record a change is about; the UI revalidates the screens that show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Child,
    Meal,
    Media,
    Profile,
    /// The family's members and adult invites.
    Family,
    /// A saved recipe.
    Recipe,
    /// A grocery list (its items included).
    GroceryList,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Child => "child",
            Kind::Meal => "meal",
            Kind::Media => "media",
            Kind::Profile => "profile",
            Kind::Family => "family",
            Kind::Recipe => "recipe",
            Kind::GroceryList => "grocery_list",
        }
    }
}

/// One record of a family changed (created, updated or deleted) in revision `revision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FamilyChange {
    pub family: FamilyId,
    pub kind: Kind,
    pub id: uuid::Uuid,
    pub revision: u64,
}

/// Announced by the store after a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Family(FamilyChange),
    /// Sessions ended: one (`session` is its token hash) or all of the user's.
    SessionsEnded {
        user: UserId,
        session: Option<[u8; 32]>,
    },
    /// A persisted job was queued; the runner should look.
    JobQueued,
}
