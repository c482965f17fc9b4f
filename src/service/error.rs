//! Errors of the services: a rule was broken (`DomainError`, shown to the user), the client's
//! copy of a record was stale (`Stale`, answered with the current record), or storage failed
//! (`StoreError`, logged).

use crate::domain::child::Child;
use crate::domain::family_settings::FamilySettings;
use crate::domain::meal::Meal;
use crate::domain::meal_plan::PlanView;
use crate::domain::user::User;
use crate::domain::{DomainError, Invalid};
use crate::i18n::Text;
use crate::store::{StoreError, WriteError};

/// The current record, when an update carried an old version.
#[derive(Debug, Clone)]
pub enum Stale {
    Child(Child),
    Meal(Meal),
    Profile(User),
    /// The list as it is now, priced.
    GroceryList(Box<super::grocery::PricedList>),
    /// The week as it is now, with its warnings.
    MealPlan(Box<PlanView>),
    FamilySettings(FamilySettings),
    /// The recipe as it is now, checked for the children.
    Recipe(Box<super::recipes::Checked>),
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Domain(#[from] DomainError),
    #[error("the record changed elsewhere")]
    Stale(Box<Stale>),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<Invalid> for AppError {
    fn from(err: Invalid) -> Self {
        AppError::Domain(err.into())
    }
}

pub type AppResult<T> = Result<T, AppError>;

impl From<Child> for Stale {
    fn from(c: Child) -> Self {
        Stale::Child(c)
    }
}

impl From<Meal> for Stale {
    fn from(m: Meal) -> Self {
        Stale::Meal(m)
    }
}

impl From<FamilySettings> for Stale {
    fn from(s: FamilySettings) -> Self {
        Stale::FamilySettings(s)
    }
}

impl From<User> for Stale {
    fn from(u: User) -> Self {
        Stale::Profile(u)
    }
}

const PHOTO_TITLE: Text = t!("Photo upload failed");

impl AppError {
    /// A refused write, in the words of the operation (`title`, the spec's toast title).
    pub fn from_write<R: Into<Stale>>(err: WriteError<R>, title: &Text) -> AppError {
        Self::from_write_with(err, title, |current| Ok((*current).into()))
    }

    /// `from_write` for a record whose current state is shown with more than the record (a
    /// grocery list with its estimate, a week with its warnings): `stale` makes it.
    pub fn from_write_with<R>(
        err: WriteError<R>,
        title: &Text,
        stale: impl FnOnce(Box<R>) -> Result<Stale, AppError>,
    ) -> AppError {
        match err {
            WriteError::NotFound => DomainError::NotFound.into(),
            WriteError::Stale(current) => match stale(current) {
                Ok(current) => AppError::Stale(Box::new(current)),
                Err(e) => e,
            },
            WriteError::PhotoMissing => Invalid::new(
                PHOTO_TITLE,
                t!("The photo was not found; please add it again"),
                "photo",
            )
            .into(),
            WriteError::PhotoInUse => Invalid::new(
                PHOTO_TITLE,
                t!("That photo belongs to another meal"),
                "photo",
            )
            .into(),
            WriteError::MissingParent => {
                Invalid::new(title, t!("Please choose one of your children"), "childId").into()
            }
            WriteError::Rule(e) => e.into(),
            WriteError::Store(e) => e.into(),
        }
    }
}
