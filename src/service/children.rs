//! Child profiles of one family.

use chrono::Utc;

use super::{AppError, AppResult, Services};
use crate::domain::allergen_intro::{self, Introduction, Progress, Region};
use crate::domain::child::{Child, ChildDraft, SAVE_TITLE, UPDATE_TITLE};
use crate::domain::food_history::{FoodHistory, FoodStats};
use crate::domain::food_safety::{self, FoodCheck};
use crate::domain::ids::{ChildId, FamilyId};
use crate::domain::{DomainError, required_version};

pub async fn list(app: &Services, family: FamilyId) -> AppResult<Vec<Child>> {
    Ok(app.store.children.list(family).await?)
}

pub async fn get(app: &Services, family: FamilyId, id: ChildId) -> AppResult<Child> {
    Ok(app
        .store
        .children
        .get(family, id)
        .await?
        .ok_or(DomainError::NotFound)?)
}

/// What `foods` mean for this child today: allergens, choking hazards and age rules.
pub async fn food_check(
    app: &Services,
    family: FamilyId,
    id: ChildId,
    foods: &[String],
) -> AppResult<(Child, FoodCheck)> {
    let child = get(app, family, id).await?;
    let today = Utc::now().date_naive();
    let mut check = food_safety::check(&child, foods, today);
    // A small child's first tastes: say when one meal would bring in two new allergens.
    if check
        .age
        .is_some_and(|a| a.months < allergen_intro::INTRODUCTION_UNTIL_MONTHS)
    {
        let (region, progress) = introduction(app, &child).await?;
        check.introduction = allergen_intro::one_at_a_time(&progress, foods, &child.name, region);
    }
    Ok((child, check))
}

pub async fn create(app: &Services, family: FamilyId, draft: ChildDraft) -> AppResult<Child> {
    let now = Utc::now();
    let child = Child::create(family, draft.validate(&SAVE_TITLE, now.date_naive())?, now);
    app.store
        .children
        .insert(&child)
        .await
        .map_err(|e| AppError::from_write(e, &SAVE_TITLE))
}

/// Replaces the child's details, only if nobody changed them since `version` (required).
pub async fn update(
    app: &Services,
    family: FamilyId,
    id: ChildId,
    version: Option<u64>,
    draft: ChildDraft,
) -> AppResult<Child> {
    let fields = draft.validate(&UPDATE_TITLE, Utc::now().date_naive())?;
    // Another family's child is not found, with or without a version.
    app.store
        .children
        .get(family, id)
        .await?
        .ok_or(DomainError::NotFound)?;
    let version = required_version(version, UPDATE_TITLE)?;
    let now = Utc::now();
    app.store
        .children
        .update(family, id, Some(version), |child| {
            child.apply(fields.clone(), now);
            Ok(())
        })
        .await
        .map_err(|e| AppError::from_write(e, &UPDATE_TITLE))
}

/// Deletes the child at once; its meals and their photos follow in a background job.
pub async fn delete(app: &Services, family: FamilyId, id: ChildId) -> AppResult<()> {
    app.store
        .children
        .delete(family, id)
        .await?
        .ok_or(DomainError::NotFound)?;
    tracing::info!(child.id = %id, "child deleted; its meals follow");
    Ok(())
}

/// A child's food history (`GET /api/children/{id}/foods`).
pub async fn food_history(
    app: &Services,
    family: FamilyId,
    id: ChildId,
) -> AppResult<Vec<FoodStats>> {
    get(app, family, id).await?;
    let mut history = FoodHistory::default();
    app.store
        .meals
        .for_each_of_child(family, id, |meal| history.add(&meal))
        .await?;
    Ok(history.finish())
}

/// Where the child is with each allergen of the family's list, from the meal log.
pub struct Allergens {
    pub child: Child,
    pub region: Region,
    pub progress: Vec<Progress>,
}

/// `GET /api/children/{id}/allergens`: the introduction state of each allergen.
pub async fn allergens(app: &Services, family: FamilyId, id: ChildId) -> AppResult<Allergens> {
    let child = get(app, family, id).await?;
    let (region, progress) = introduction(app, &child).await?;
    Ok(Allergens {
        child,
        region,
        progress,
    })
}

/// The family's allergen list and the child's progress through it, from the meal log.
async fn introduction(app: &Services, child: &Child) -> AppResult<(Region, Vec<Progress>)> {
    let mut intro = Introduction::default();
    app.store
        .meals
        .for_each_of_child(child.family, child.id, |meal| intro.add(&meal))
        .await?;
    let region = super::family::settings(app, child.family)
        .await?
        .allergen_list;
    Ok((region, intro.finish(child, region, Utc::now())))
}

/// What deleting a child takes with it: its meals, and how many of them have a photo.
pub struct DeletePreview {
    pub meals: u32,
    pub photos: u32,
}

/// `GET /api/children/{id}/delete-preview`, for the confirmation.
pub async fn delete_preview(
    app: &Services,
    family: FamilyId,
    id: ChildId,
) -> AppResult<DeletePreview> {
    get(app, family, id).await?;
    let mut preview = DeletePreview {
        meals: 0,
        photos: 0,
    };
    app.store
        .meals
        .for_each_of_child(family, id, |meal| {
            preview.meals += 1;
            preview.photos += u32::from(meal.photo.is_some());
        })
        .await?;
    Ok(preview)
}
