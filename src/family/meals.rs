//! The meal log of one family.

use chrono::Utc;

use crate::app::App;
use crate::domain::ids::{ChildId, MealId, UserId};
use crate::domain::meal::{Meal, MealDraft, MealFields, SAVE_TITLE, UPDATE_TITLE};
use crate::domain::{DomainError, Invalid};
use crate::error::{AppError, AppResult};
use crate::store::meals::{Cursor, MealWriteError};

pub const PAGE_DEFAULT: usize = 50;
pub const PAGE_MAX: usize = 200;

/// A page of meals, newest first, and the cursor for the next one.
pub fn page(
    app: &App,
    owner: UserId,
    child: Option<&str>,
    cursor: Option<&str>,
    limit: Option<u32>,
) -> AppResult<(Vec<Meal>, Option<String>)> {
    const TITLE: &str = "Error fetching meals";
    let child = match child.map(str::trim).filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(
            c.parse::<ChildId>()
                .map_err(|_| Invalid::new(TITLE, "Unknown child", "childId"))?,
        ),
    };
    let cursor = match cursor.map(str::trim).filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(
            Cursor::decode(c)
                .ok_or_else(|| Invalid::new(TITLE, "The page link is not valid", "cursor"))?,
        ),
    };
    let limit = match limit {
        None => PAGE_DEFAULT,
        Some(n) if (1..=PAGE_MAX as u32).contains(&n) => n as usize,
        Some(_) => {
            return Err(Invalid::new(
                TITLE,
                format!("Ask for 1 to {PAGE_MAX} meals at a time"),
                "limit",
            )
            .into());
        }
    };
    let (meals, next) = app.store.meals.page(owner, child, cursor, limit)?;
    Ok((meals, next.map(|c| c.encode())))
}

pub fn get(app: &App, owner: UserId, id: MealId) -> AppResult<Meal> {
    Ok(app
        .store
        .meals
        .get(owner, id)?
        .ok_or(DomainError::NotFound)?)
}

/// Validates a draft and checks the child is one of the owner's.
fn fields(app: &App, owner: UserId, draft: MealDraft, title: &str) -> AppResult<MealFields> {
    let fields = draft.validate(title, Utc::now())?;
    if app.store.children.get(owner, fields.child_id)?.is_none() {
        return Err(Invalid::new(title, "Please choose one of your children", "childId").into());
    }
    Ok(fields)
}

fn write_error(err: MealWriteError) -> AppError {
    match err {
        MealWriteError::PhotoMissing => Invalid::new(
            "Photo upload failed",
            "The photo was not found; please add it again",
            "photo",
        )
        .into(),
        MealWriteError::PhotoInUse => Invalid::new(
            "Photo upload failed",
            "That photo belongs to another meal",
            "photo",
        )
        .into(),
        MealWriteError::Store(e) => e.into(),
    }
}

pub async fn create(app: &App, owner: UserId, draft: MealDraft) -> AppResult<Meal> {
    let meal = Meal::create(owner, fields(app, owner, draft, SAVE_TITLE)?, Utc::now());
    app.store.meals.insert(&meal).await.map_err(write_error)?;
    Ok(meal)
}

pub async fn update(app: &App, owner: UserId, id: MealId, draft: MealDraft) -> AppResult<Meal> {
    let old = get(app, owner, id)?;
    let mut meal = old.clone();
    meal.apply(fields(app, owner, draft, UPDATE_TITLE)?, Utc::now());
    app.store
        .meals
        .replace(&old, &meal)
        .await
        .map_err(write_error)?;
    Ok(meal)
}

/// Deletes the meal and its photo.
pub async fn delete(app: &App, owner: UserId, id: MealId) -> AppResult<()> {
    let meal = get(app, owner, id)?;
    app.store.meals.delete(&meal).await?;
    Ok(())
}
