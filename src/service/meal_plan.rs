//! The family's weekly meal plan: a week read with the children's allergy warnings for its
//! recipes and free text alike (computed on every read, never stored, so a newly added allergy
//! shows at once), an entry checked before it is saved, and a week saved whole from the
//! version it was read at.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use chrono::{NaiveDate, Utc};

use super::recipes::allergy_reasons;
use super::{AppError, AppResult, Services, Stale};
use crate::domain::DomainError;
use crate::domain::child::Child;
use crate::domain::food_safety::{self, Age, WarningKind};
use crate::domain::ids::{ChildId, FamilyId, RecipeId};
use crate::domain::meal_plan::{
    self as meal_plan, Concern, EntryDraft, MealPlan, PlanView, Planned, RecipeSummary, Warning,
    Week, validate_entries,
};
use crate::domain::recipe::Recipe;
use crate::domain::recipe_guard::Guard;
use crate::i18n::Text;
use crate::store::WriteError;

/// The week a request names; the current ISO week (UTC) when it names none.
pub fn week_or_current(week: Option<&str>) -> AppResult<Week> {
    match week.map(str::trim).filter(|w| !w.is_empty()) {
        Some(w) => Ok(Week::parse(w)?),
        None => Ok(Week::current(Utc::now())),
    }
}

/// The week a save names (a save never defaults: the week may have turned meanwhile).
pub fn week_named(week: Option<&str>) -> AppResult<Week> {
    Ok(Week::parse(week.unwrap_or_default())?)
}

/// The week's plan (none before its first save: nothing is written by reading).
pub async fn get(app: &Services, family: FamilyId, week: Week) -> AppResult<PlanView> {
    let plan = app.store.meal_plans.get(family, week).await?;
    view(app, family, week, plan).await
}

/// Replaces the week's entries, if `version` is the week's current one (0 for a week never
/// saved); a stale version changes nothing and answers the week as it is now.
pub async fn save(
    app: &Services,
    family: FamilyId,
    week: Week,
    version: u64,
    drafts: &[EntryDraft],
) -> AppResult<PlanView> {
    let children: Vec<_> = app
        .store
        .children
        .list(family)
        .await?
        .iter()
        .map(|c| c.id)
        .collect();
    let entries = validate_entries(week, drafts, &children)?;
    // The recipes the entries name, as they are now; one that is gone is refused when the plan
    // is changed (unless the entry already had it).
    let mut recipes = HashMap::new();
    for e in &entries {
        if let Planned::Recipe(id) = e.planned
            && !recipes.contains_key(&id)
            && let Some(r) = app.store.recipes.get(family, id).await?
        {
            recipes.insert(id, RecipeSummary::from(&r));
        }
    }
    let saved = app
        .store
        .meal_plans
        .save(family, week, version, entries, &recipes, Utc::now())
        .await;
    match saved {
        Ok(plan) => view(app, family, week, Some(plan)).await,
        // The week as it is now, with its warnings, for the 409.
        Err(WriteError::Stale(current)) => {
            let current = (current.version > 0).then_some(*current);
            match view(app, family, week, current).await {
                Ok(now) => Err(AppError::Stale(Box::new(Stale::MealPlan(Box::new(now))))),
                Err(e) => Err(e),
            }
        }
        Err(e) => Err(AppError::from_write_with(e, &meal_plan::SAVE_TITLE, |_| {
            Err(DomainError::NotFound.into())
        })),
    }
}

/// A week with its warnings; children deleted since they were planned for are left out.
async fn view(
    app: &Services,
    family: FamilyId,
    week: Week,
    mut plan: Option<MealPlan>,
) -> AppResult<PlanView> {
    let children = app.store.children.list(family).await?;
    let warnings = match &mut plan {
        Some(plan) => {
            for entry in &mut plan.entries {
                entry
                    .children
                    .retain(|id| children.iter().any(|c| c.id == *id));
            }
            warnings(app, family, plan, &children).await?
        }
        None => Vec::new(),
    };
    Ok(PlanView {
        week,
        plan,
        warnings,
    })
}

/// The children's allergy guards (children with no allergy have none).
fn guards(children: &[Child]) -> Vec<(&Child, Guard)> {
    children
        .iter()
        .map(|c| (c, Guard::new(&c.allergies, &[])))
        .filter(|(_, g)| !g.is_empty())
        .collect()
}

/// What an entry plans, as the checks read it.
enum Food<'a> {
    Recipe(&'a Recipe),
    /// Free text, or the title of a recipe deleted since it was planned.
    Text(&'a str),
}

/// For each child the food is for: the allergies it meets, why (a recipe as the saved recipes
/// are checked, words and catalogue tags; free text as the meal tracker checks foods), then
/// the choking hazards and age rules at the child's age on `day`, each once.
fn concerns(
    children: &[Child],
    guards: &[(&Child, Guard)],
    food: &Food<'_>,
    day: NaiveDate,
    is_for: impl Fn(ChildId) -> bool,
) -> Vec<Concern> {
    let foods: Vec<String> = match food {
        Food::Recipe(r) => r
            .content
            .ingredients
            .iter()
            .map(|i| i.name.clone())
            .collect(),
        Food::Text(t) => vec![(*t).to_string()],
    };
    let mut out = Vec::new();
    for child in children.iter().filter(|c| is_for(c.id)) {
        let concern = |kind, message: Text| Concern {
            child: child.id,
            child_name: child.name.clone(),
            kind,
            message,
            advice: None,
            age: None,
            prepared: false,
        };
        if let Some((_, guard)) = guards.iter().find(|(c, _)| c.id == child.id) {
            let reasons = match food {
                Food::Recipe(r) => allergy_reasons(guard, &r.content)
                    .into_iter()
                    .map(Text::as_given)
                    .collect(),
                Food::Text(t) => guard.reasons(&[(*t).to_string()]),
            };
            if !reasons.is_empty() {
                out.push(concern(WarningKind::Allergen, Text::joined(reasons)));
            }
        }
        let age = Age::of(child, day);
        let mut notes: Vec<Text> = Vec::new();
        for w in food_safety::rule_warnings(child, age, &foods) {
            if notes.contains(&w.note) {
                continue;
            }
            notes.push(w.note.clone());
            out.push(Concern {
                advice: Some(w.advice),
                age: age.map(|a| a.label()),
                prepared: w.prepared,
                ..concern(w.kind, w.note)
            });
        }
    }
    out
}

/// For each entry of the week, recipe or free text, each child it is for (all of them when
/// it names none) whose allergies it meets, in the order of the week.
async fn warnings(
    app: &Services,
    family: FamilyId,
    plan: &MealPlan,
    children: &[Child],
) -> AppResult<Vec<Warning>> {
    let guards = guards(children);
    let mut out = Vec::new();
    if children.is_empty() {
        return Ok(out);
    }
    let mut recipes: HashMap<RecipeId, Option<Recipe>> = HashMap::new();
    for entry in plan.in_order() {
        let recipe = match entry.recipe {
            Some(id) => match recipes.entry(id) {
                Entry::Occupied(known) => known.into_mut().as_ref(),
                Entry::Vacant(new) => new
                    .insert(app.store.recipes.get(family, id).await?)
                    .as_ref(),
            },
            None => None,
        };
        let food = recipe.map_or(Food::Text(&entry.title), Food::Recipe);
        out.extend(
            concerns(children, &guards, &food, entry.date, |c| entry.is_for(c))
                .into_iter()
                .map(|concern| Warning {
                    entry: entry.id,
                    concern,
                }),
        );
    }
    Ok(out)
}

/// Checks an entry before it is saved: for each child it is for whose allergies it meets,
/// why. A recipe must be one of the family's saved recipes (404 otherwise).
pub async fn check(
    app: &Services,
    family: FamilyId,
    draft: &EntryDraft,
) -> AppResult<Vec<Concern>> {
    let children = app.store.children.list(family).await?;
    let ids: Vec<ChildId> = children.iter().map(|c| c.id).collect();
    let planned = draft.planned()?;
    let chosen = draft.chosen_children(&ids)?;
    let is_for = |c: ChildId| chosen.is_empty() || chosen.contains(&c);
    let guards = guards(&children);
    // The child's age on the planned day; today when the day is not readable yet.
    let day = draft.day().unwrap_or_else(|| Utc::now().date_naive());
    Ok(match planned {
        Planned::Recipe(id) => {
            let recipe = app
                .store
                .recipes
                .get(family, id)
                .await?
                .ok_or_else(meal_plan::recipe_not_found)?;
            concerns(&children, &guards, &Food::Recipe(&recipe), day, is_for)
        }
        Planned::Text(text) => concerns(&children, &guards, &Food::Text(&text), day, is_for),
    })
}
