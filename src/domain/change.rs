//! What the change feed announces after a write commits. Every family-owned record and every
//! account carries a `version` (1 on creation, +1 per write); every family has a `revision`
//! (+1 per committed transaction that changed its data).

use std::fmt;

use super::ids::{FamilyId, UserId};
use super::meal_plan::Week;

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
    /// A week of the meal plan (named by its week, not an id).
    MealPlan,
    /// A co-parent (invited, PIN reset, link extended, removed).
    CoParent,
    /// The family's settings (the allergen list co-parents read too).
    FamilySettings,
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
            Kind::MealPlan => "meal_plan",
            Kind::CoParent => "co_parent",
            Kind::FamilySettings => "family_settings",
        }
    }
}

/// What a change names: a record by its id, or a week of the family's meal plan ("2026-W48").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeId {
    Record(uuid::Uuid),
    Week(Week),
}

impl From<uuid::Uuid> for ChangeId {
    fn from(id: uuid::Uuid) -> Self {
        ChangeId::Record(id)
    }
}

impl From<Week> for ChangeId {
    fn from(week: Week) -> Self {
        ChangeId::Week(week)
    }
}

impl fmt::Display for ChangeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeId::Record(id) => id.fmt(f),
            ChangeId::Week(week) => week.fmt(f),
        }
    }
}

/// One record of a family changed (created, updated or deleted) in revision `revision`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FamilyChange {
    pub family: FamilyId,
    pub kind: Kind,
    pub id: ChangeId,
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
    /// A co-parent's share session ended (their Logout); `session` is its token hash.
    ShareSessionEnded {
        session: [u8; 32],
    },
    /// A persisted job was queued; the runner should look.
    JobQueued,
}
