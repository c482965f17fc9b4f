//! The family's saved recipes: generated ones kept and the family's own dishes, each checked
//! against the children's allergies when it is shown. Generation is `service::generation`.

use chrono::{NaiveDate, Utc};

use super::{AppError, AppResult, Services, Stale};
use crate::domain::DomainError;
use crate::domain::child::Child;
use crate::domain::error::required_version;
use crate::domain::food_safety;
use crate::domain::ids::{ChildId, FamilyId, RecipeId};
use crate::domain::meal::{Meal, MealDraft};
use crate::domain::recipe::{self, Recipe, RecipeContent, Source};
use crate::domain::recipe_guard::Guard;
use crate::domain::user::User;
use crate::generator::screen;
use crate::i18n::Text;

/// A saved recipe with what it contains that one of the family's children is allergic to
/// (a recipe saved before an allergy was added, or the family's own dish), and each child's
/// choking and age notes for it.
#[derive(Debug, Clone)]
pub struct Checked {
    pub recipe: Recipe,
    pub warnings: Vec<String>,
    /// "For Leo (9 months): quarter the grapes lengthways; no honey before 12 months", one
    /// per child a rule applies to.
    pub safety_notes: Vec<Text>,
}

/// What a recipe is checked against: every allergy of the family's children (one guard),
/// and each child for the food safety rules at their age today.
pub(crate) struct Family {
    pub(crate) guard: Guard,
    pub(crate) children: Vec<Child>,
    pub(crate) today: NaiveDate,
}

pub(crate) async fn family_of(app: &Services, family: FamilyId) -> AppResult<Family> {
    let children = app.store.children.list(family).await?;
    let allergies: Vec<String> = children.iter().flat_map(|c| c.allergies.clone()).collect();
    Ok(Family {
        guard: Guard::new(&allergies, &[]),
        children,
        today: Utc::now().date_naive(),
    })
}

/// Each child's choking and age notes for a recipe's ingredients.
pub(crate) fn safety_notes(
    children: &[Child],
    content: &RecipeContent,
    today: NaiveDate,
) -> Vec<Text> {
    let foods: Vec<String> = content.ingredients.iter().map(|i| i.name.clone()).collect();
    children
        .iter()
        .filter_map(|c| food_safety::safety_note(c, &foods, today))
        .collect()
}

/// What in a recipe breaks the guard's allergies ("Butter contains milk (butter)"): the words,
/// and the catalogue's allergen tags. Empty when nothing does.
pub(crate) fn allergy_reasons(guard: &Guard, content: &RecipeContent) -> Vec<String> {
    if guard.is_empty() {
        return Vec::new();
    }
    let (_, withheld) = screen(guard, vec![content.clone()]);
    withheld.into_iter().flat_map(|w| w.reasons).collect()
}

fn check(family: &Family, recipe: Recipe) -> Checked {
    Checked {
        warnings: allergy_reasons(&family.guard, &recipe.content),
        safety_notes: safety_notes(&family.children, &recipe.content, family.today),
        recipe,
    }
}

/// The family's saved recipes, newest first, each checked against the children's allergies.
pub async fn list(app: &Services, family: FamilyId) -> AppResult<Vec<Checked>> {
    let checked = family_of(app, family).await?;
    Ok(app
        .store
        .recipes
        .list(family)
        .await?
        .into_iter()
        .map(|r| check(&checked, r))
        .collect())
}

async fn find(app: &Services, family: FamilyId, id: RecipeId) -> AppResult<Recipe> {
    app.store
        .recipes
        .get(family, id)
        .await?
        .ok_or_else(|| DomainError::NotFound.into())
}

pub async fn get(app: &Services, family: FamilyId, id: RecipeId) -> AppResult<Checked> {
    let recipe = find(app, family, id).await?;
    Ok(check(&family_of(app, family).await?, recipe))
}

/// Where a recipe to save comes from.
#[derive(Debug, Clone, Default)]
pub struct Provenance {
    pub source: Source,
    /// The page it came from.
    pub source_url: String,
    /// Its picture on the web (an imported recipe's): fetched once, into the family's photos.
    pub image_url: Option<String>,
}

/// Saves a generated recipe, a family's own dish or an imported one. A picture that cannot be
/// fetched or read leaves the recipe without one; the recipe is saved all the same.
pub async fn save(
    app: &Services,
    saver: &User,
    provenance: Provenance,
    content: RecipeContent,
) -> AppResult<Checked> {
    let family = saver.family_id;
    let content = content.validate()?;
    let mut recipe = Recipe::create(family, saver.id, provenance.source, content, Utc::now());
    recipe.source_url = recipe::source_url(&provenance.source_url)?;
    if let Some(url) = provenance.image_url.filter(|u| !u.trim().is_empty())
        && let Some(bytes) = super::recipe_import::picture(app, saver, &url).await
    {
        match super::photos::keep(app, saver, bytes).await {
            Ok(photo) => recipe.photo = Some(photo.id),
            Err(e) => tracing::info!(error = ?e, "an imported recipe's picture was not kept"),
        }
    }
    let saved = app.store.recipes.insert(&recipe).await.map_err(|e| {
        // A new recipe has no older copy to be stale against.
        AppError::from_write_with(e, &recipe::SAVE_TITLE, |_| {
            Err(crate::store::StoreError::Corrupt("a new recipe was stale".into()).into())
        })
    })?;
    Ok(check(&family_of(app, family).await?, saved))
}

/// What a parent changes in a saved recipe.
#[derive(Debug, Clone)]
pub struct Edit {
    pub content: RecipeContent,
    pub source_url: String,
    /// Removes its picture.
    pub remove_photo: bool,
}

/// Changes a saved recipe read at `version` (a stale one is refused with the recipe as it is).
pub async fn update(
    app: &Services,
    family: FamilyId,
    id: RecipeId,
    version: Option<u64>,
    edit: Edit,
) -> AppResult<Checked> {
    let content = edit.content.validate()?;
    let source_url = recipe::source_url(&edit.source_url)?;
    // Another family's recipe is not found, with or without a version.
    find(app, family, id).await?;
    let version = required_version(version, recipe::SAVE_TITLE)?;
    let now = Utc::now();
    let checks = family_of(app, family).await?;
    let saved = app
        .store
        .recipes
        .update(family, id, Some(version), |r| {
            r.content = content.clone();
            r.source_url = source_url.clone();
            if edit.remove_photo {
                r.photo = None;
            }
            r.updated_at = now;
            Ok(())
        })
        .await
        .map_err(|e| {
            AppError::from_write_with(e, &recipe::SAVE_TITLE, |current| {
                Ok(Stale::Recipe(Box::new(check(&checks, *current))))
            })
        })?;
    Ok(check(&checks, saved))
}

pub async fn delete(app: &Services, family: FamilyId, id: RecipeId) -> AppResult<()> {
    if app.store.recipes.delete(family, id).await? {
        Ok(())
    } else {
        Err(DomainError::NotFound.into())
    }
}

/// Logs a saved recipe as a child's meal: its ingredients become the foods (the meal log's
/// allergy check flags any exposure, as for a meal typed in).
pub async fn log_meal(
    app: &Services,
    family: FamilyId,
    id: RecipeId,
    child: ChildId,
    meal_type: String,
    eaten_at: Option<String>,
) -> AppResult<Meal> {
    let recipe = find(app, family, id).await?;
    let foods = recipe
        .content
        .ingredients
        .iter()
        .map(|i| i.name.chars().take(crate::domain::tags::TAG_MAX).collect())
        .take(crate::domain::tags::TAGS_MAX)
        .collect();
    let draft = MealDraft {
        child_id: child.to_string(),
        meal_type,
        foods,
        notes: Some(t!("From the recipe {{title}}", title = &recipe.content.title).here()),
        meal_date: eaten_at,
        ..MealDraft::default()
    };
    super::meals::create(app, family, draft).await
}
