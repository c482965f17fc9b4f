//! The meal log of one family.

use crate::i18n::Text;
use chrono::Utc;

use super::{AppError, AppResult, Services};
use crate::domain::ids::{ChildId, FamilyId, MealId};
use crate::domain::meal::{Exposure, Meal, MealDraft, SAVE_TITLE, UPDATE_TITLE, exposures};
use crate::domain::{DomainError, Invalid, required_version};
use crate::store::meals::Cursor;

pub const PAGE_DEFAULT: usize = 50;
pub const PAGE_MAX: usize = 200;

/// A page of meals, newest first, and the cursor for the next one.
pub async fn page(
    app: &Services,
    family: FamilyId,
    child: Option<&str>,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<(Vec<Meal>, Option<String>)> {
    const TITLE: Text = t!("Error fetching meals");
    let child = match child.map(str::trim).filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(
            c.parse::<ChildId>()
                .map_err(|_| Invalid::new(TITLE, t!("Unknown child"), "childId"))?,
        ),
    };
    let cursor = match cursor.map(str::trim).filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(
            Cursor::decode(c)
                .ok_or_else(|| Invalid::new(TITLE, t!("The page link is not valid"), "cursor"))?,
        ),
    };
    let limit = match limit {
        None => PAGE_DEFAULT,
        Some(n) if (1..=PAGE_MAX as u32).contains(&n) => n as usize,
        Some(_) => {
            return Err(Invalid::new(
                TITLE,
                t!("Ask for 1 to {{max}} meals at a time", max = PAGE_MAX),
                "limit",
            )
            .into());
        }
    };
    // Meals of a child being deleted are left out by the store, like the child.
    let (meals, next) = app.store.meals.page(family, child, cursor, limit).await?;
    Ok((meals, next.map(|c| c.encode())))
}

pub async fn get(app: &Services, family: FamilyId, id: MealId) -> AppResult<Meal> {
    Ok(app
        .store
        .meals
        .get(family, id)
        .await?
        .ok_or(DomainError::NotFound)?)
}

/// The child's allergies (none when the child is unknown: the write then refuses the meal).
async fn allergies_of(app: &Services, family: FamilyId, child: ChildId) -> AppResult<Vec<String>> {
    Ok(app
        .store
        .children
        .get(family, child)
        .await?
        .map(|c| c.allergies)
        .unwrap_or_default())
}

/// What `foods` would expose a child to: the matches against the child's allergies.
pub async fn allergen_check(
    app: &Services,
    family: FamilyId,
    child: ChildId,
    foods: &[String],
) -> AppResult<Vec<Exposure>> {
    let child = super::children::get(app, family, child).await?;
    Ok(exposures(foods, &child.allergies))
}

/// Records a meal. The child must be one of the family's at the moment it is written. A meal
/// with a food the child is allergic to is saved, flagged as an exposure.
pub async fn create(app: &Services, family: FamilyId, draft: MealDraft) -> AppResult<Meal> {
    let now = Utc::now();
    let fields = draft.validate(&SAVE_TITLE, now)?;
    let allergies = allergies_of(app, family, fields.child_id).await?;
    let mut meal = Meal::create(family, fields, now);
    meal.exposures = exposures(&meal.foods, &allergies);
    app.store
        .meals
        .insert(&meal)
        .await
        .map_err(|e| AppError::from_write(e, &SAVE_TITLE))
}

/// Replaces a meal's details; with `version`, only if nobody changed it since.
pub async fn update(
    app: &Services,
    family: FamilyId,
    id: MealId,
    version: Option<u64>,
    draft: MealDraft,
) -> AppResult<Meal> {
    let now = Utc::now();
    let fields = draft.validate(&UPDATE_TITLE, now)?;
    // Another family's meal is not found, with or without a version.
    app.store
        .meals
        .get(family, id)
        .await?
        .ok_or(DomainError::NotFound)?;
    let version = required_version(version, UPDATE_TITLE)?;
    let found = exposures(
        &fields.foods,
        &allergies_of(app, family, fields.child_id).await?,
    );
    app.store
        .meals
        .update(family, id, Some(version), |meal| {
            meal.apply(fields.clone(), now);
            meal.exposures = found.clone();
            Ok(())
        })
        .await
        .map_err(|e| AppError::from_write(e, &UPDATE_TITLE))
}

/// Deletes the meal and its photo.
pub async fn delete(app: &Services, family: FamilyId, id: MealId) -> AppResult<()> {
    if !app.store.meals.delete(family, id).await? {
        return Err(DomainError::NotFound.into());
    }
    Ok(())
}
