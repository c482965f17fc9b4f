//! A family's grocery lists: saves with versions, one-item ticks, drafts merged from saved
//! recipes or from a week's meal plan, the estimated total and exports.

use chrono::{DateTime, Utc};

use super::{AppError, AppResult, Services, Stale};
use crate::domain::grocery::{
    self, GroceryList, ItemDraft, ItemEdit, Row, draft_name, estimate, merge, validate_list,
};
use crate::domain::ids::{FamilyId, GroceryItemId, GroceryListId, RecipeId};
use crate::domain::meal_plan::{Week, grocery_list_name, planned_ingredients};
use crate::domain::quantity::Quantity;
use crate::domain::recipe::Recipe;
use crate::domain::{DomainError, required_version};
use crate::recipes::catalogue::{Catalogue, Unit};
use crate::store::WriteError;

const SAVE_TITLE: &str = "Error saving grocery list";
const UPDATE_TITLE: &str = "Error updating grocery list";
/// Most recipes one draft may merge.
pub const FROM_RECIPES_MAX: usize = 50;

pub fn list(app: &Services, family: FamilyId) -> AppResult<Vec<GroceryList>> {
    Ok(app.store.grocery_lists.list(family)?)
}

pub fn get(app: &Services, family: FamilyId, id: GroceryListId) -> AppResult<GroceryList> {
    app.store
        .grocery_lists
        .get(family, id)?
        .ok_or_else(|| DomainError::NotFound.into())
}

pub async fn create(
    app: &Services,
    family: FamilyId,
    name: &str,
    items: &[ItemDraft],
) -> AppResult<GroceryList> {
    let (name, fields) = validate_list(name, items)?;
    let list = GroceryList::create(family, name, fields, Utc::now());
    app.store
        .grocery_lists
        .insert(&list)
        .await
        .map_err(|e| refused(app, e, SAVE_TITLE))
}

/// A refused write in the operation's words; a stale save carries the list as it is now.
fn refused(app: &Services, e: WriteError<GroceryList>, title: &str) -> AppError {
    let estimate = app.settings.money.grocery_item_estimate;
    AppError::from_write_with(e, title, |current| {
        Ok(Stale::GroceryList(current, estimate))
    })
}

/// A whole-list save. Items name their ids (an unknown id is a new item); only if nobody changed
/// the list since `version` (required).
pub async fn update(
    app: &Services,
    family: FamilyId,
    id: GroceryListId,
    version: Option<u64>,
    name: &str,
    items: &[(Option<String>, ItemDraft)],
) -> AppResult<GroceryList> {
    let drafts: Vec<ItemDraft> = items.iter().map(|(_, d)| d.clone()).collect();
    let (name, fields) = validate_list(name, &drafts)?;
    let version = required_version(version, UPDATE_TITLE)?;
    let edits = items
        .iter()
        .zip(fields)
        .map(|((item_id, _), fields)| ItemEdit {
            id: item_id.as_deref().and_then(|s| s.parse().ok()),
            fields,
        })
        .collect();
    app.store
        .grocery_lists
        .update(family, id, Some(version), name, edits, Utc::now())
        .await
        .map_err(|e| refused(app, e, UPDATE_TITLE))
}

/// One item's tick, as of `at` (when it was made; now when not given). Returns the list and
/// whether the tick was applied (a later tick on the same item wins).
pub async fn tick(
    app: &Services,
    family: FamilyId,
    id: GroceryListId,
    item: GroceryItemId,
    checked: bool,
    at: Option<DateTime<Utc>>,
) -> AppResult<(GroceryList, bool)> {
    // A phone's clock may run ahead: a tick is never dated in the future.
    let at = at.map_or_else(Utc::now, |t| t.min(Utc::now()));
    app.store
        .grocery_lists
        .tick(family, id, item, checked, at)
        .await
        .map_err(|e| refused(app, e, UPDATE_TITLE))
}

pub async fn delete(app: &Services, family: FamilyId, id: GroceryListId) -> AppResult<()> {
    if app.store.grocery_lists.delete(family, id).await? {
        Ok(())
    } else {
        Err(DomainError::NotFound.into())
    }
}

/// The grocery category the catalogue gives an ingredient.
fn category_of(name: &str) -> Option<&'static str> {
    let item = Catalogue::get().find(name)?;
    grocery::CATEGORIES
        .iter()
        .find(|c| **c == item.grocery)
        .copied()
}

/// An unsaved list merged from the family's saved recipes (another family's id: not found).
pub fn from_recipes(
    app: &Services,
    family: FamilyId,
    ids: &[String],
) -> AppResult<(String, Vec<ItemDraft>)> {
    if ids.is_empty() || ids.len() > FROM_RECIPES_MAX {
        return Err(crate::domain::Invalid::new(
            "Error saving grocery list",
            format!("Please choose between 1 and {FROM_RECIPES_MAX} recipes"),
            "recipeIds",
        )
        .into());
    }
    let mut recipes = Vec::new();
    for raw in ids {
        let id: RecipeId = raw.parse().map_err(|_| DomainError::NotFound)?;
        let recipe = app
            .store
            .recipes
            .get(family, id)?
            .ok_or(DomainError::NotFound)?;
        recipes.push(recipe);
    }
    let ingredients = recipes.iter().flat_map(|r| {
        r.content
            .ingredients
            .iter()
            .map(|i| (i.name.as_str(), i.quantity.as_str()))
    });
    let items = merge(ingredients, category_of);
    Ok((draft_name(recipes.len()), items))
}

/// An unsaved list from a week's meal plan: the planned recipes' ingredients, each scaled to
/// its entry's servings, merged like `from_recipes`. Free text and deleted recipes are skipped.
pub fn from_meal_plan(
    app: &Services,
    family: FamilyId,
    week: Week,
) -> AppResult<(String, Vec<ItemDraft>)> {
    let plan = app.store.meal_plans.get(family, week)?;
    let mut recipes: Vec<Recipe> = Vec::new();
    for entry in plan.iter().flat_map(|p| &p.entries) {
        if let Some(id) = entry.recipe
            && !recipes.iter().any(|r| r.id == id)
            && let Some(recipe) = app.store.recipes.get(family, id)?
        {
            recipes.push(recipe);
        }
    }
    let (ingredients, used) = match &plan {
        Some(plan) => planned_ingredients(plan, |id| recipes.iter().find(|r| r.id == id)),
        None => (Vec::new(), 0),
    };
    if used == 0 {
        return Err(crate::domain::Invalid::new(
            "No recipes planned",
            "Plan at least one saved recipe this week to make a grocery list.",
            "week",
        )
        .into());
    }
    let items = merge(
        ingredients.iter().map(|(n, q)| (n.as_str(), q.as_str())),
        category_of,
    );
    Ok((grocery_list_name(week), items))
}

/// What an item costs by the catalogue, when it knows the food and can read the quantity.
pub fn known_price(name: &str, quantity: &str) -> Option<f64> {
    let item = Catalogue::get().find(name)?;
    let q = Quantity::parse(quantity)?;
    let amount = q.amount.as_f64();
    let in_unit = match (item.unit, q.unit) {
        (Unit::G, Some(crate::domain::quantity::Unit::Gram))
        | (Unit::Ml, Some(crate::domain::quantity::Unit::Millilitre)) => amount,
        (Unit::Piece, None) => amount,
        _ => return None,
    };
    Some(item.cost(in_unit))
}

/// The estimated total of a list: the catalogue's price where it knows the item, else the
/// configured estimate per item. (total, items priced from the catalogue)
pub fn total(list: &GroceryList, per_item: f64) -> (f64, usize) {
    let mut known = 0;
    let mut sum = 0.0;
    for i in &list.items {
        let (t, k) = estimate([i.name.as_str()], |n| known_price(n, &i.quantity), per_item);
        sum += t;
        known += k;
    }
    ((sum * 100.0).round() / 100.0, known)
}

/// Export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Csv,
    Markdown,
}

/// The file: its name, media type and content.
pub fn export(list: &GroceryList, format: Format) -> (String, &'static str, String) {
    let rows: Vec<Row<'_>> = list
        .items
        .iter()
        .map(|i| Row {
            name: &i.name,
            quantity: &i.quantity,
            category: &i.category,
            checked: i.checked,
        })
        .collect();
    let stem: String = list
        .name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    let stem = if stem.is_empty() {
        "grocery-list".into()
    } else {
        stem
    };
    match format {
        Format::Text => (
            format!("{stem}.txt"),
            "text/plain; charset=utf-8",
            grocery::to_text(&list.name, &rows),
        ),
        Format::Csv => (
            format!("{stem}.csv"),
            "text/csv; charset=utf-8",
            grocery::to_csv(&rows),
        ),
        Format::Markdown => (
            format!("{stem}.md"),
            "text/markdown; charset=utf-8",
            grocery::to_markdown(&list.name, &rows),
        ),
    }
}
