//! The family's weekly meal plan: a week read with the children's allergy warnings (computed
//! on every read, never stored, so a newly added allergy shows at once), and a week saved
//! whole from the version it was read at.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use chrono::Utc;

use super::recipes::allergy_reasons;
use super::{AppError, AppResult, Services, Stale};
use crate::domain::child::Child;
use crate::domain::ids::{FamilyId, RecipeId};
use crate::domain::meal_plan::{
    self as meal_plan, EntryDraft, MealPlan, PlanView, Planned, RecipeSummary, Warning, Week,
    validate_entries,
};
use crate::domain::recipe::Recipe;
use crate::domain::recipe_guard::Guard;

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
pub fn get(app: &Services, family: FamilyId, week: Week) -> AppResult<PlanView> {
    let plan = app.store.meal_plans.get(family, week)?;
    view(app, family, week, plan)
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
        .list(family)?
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
            && let Some(r) = app.store.recipes.get(family, id)?
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
        Ok(plan) => view(app, family, week, Some(plan)),
        Err(e) => Err(AppError::from_write_with(
            e,
            meal_plan::SAVE_TITLE,
            |current| {
                let current = (current.version > 0).then_some(*current);
                Ok(Stale::MealPlan(Box::new(view(app, family, week, current)?)))
            },
        )),
    }
}

/// A week with its warnings; children deleted since they were planned for are left out.
fn view(
    app: &Services,
    family: FamilyId,
    week: Week,
    mut plan: Option<MealPlan>,
) -> AppResult<PlanView> {
    let children = app.store.children.list(family)?;
    let warnings = match &mut plan {
        Some(plan) => {
            for entry in &mut plan.entries {
                entry
                    .children
                    .retain(|id| children.iter().any(|c| c.id == *id));
            }
            warnings(app, family, plan, &children)?
        }
        None => Vec::new(),
    };
    Ok(PlanView {
        week,
        plan,
        warnings,
    })
}

/// For each planned recipe, each child it is for whose allergies it meets (the guard the saved
/// recipes use), in the order of the week.
fn warnings(
    app: &Services,
    family: FamilyId,
    plan: &MealPlan,
    children: &[Child],
) -> AppResult<Vec<Warning>> {
    let guards: Vec<(&Child, Guard)> = children
        .iter()
        .map(|c| (c, Guard::new(&c.allergies, &[])))
        .filter(|(_, g)| !g.is_empty())
        .collect();
    let mut out = Vec::new();
    if guards.is_empty() {
        return Ok(out);
    }
    let mut recipes: HashMap<RecipeId, Option<Recipe>> = HashMap::new();
    for entry in plan.in_order() {
        let Some(id) = entry.recipe else { continue };
        let recipe = match recipes.entry(id) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => new.insert(app.store.recipes.get(family, id)?),
        };
        // A recipe deleted since it was planned has nothing left to check.
        let Some(recipe) = recipe else { continue };
        for (child, guard) in &guards {
            if !entry.is_for(child.id) {
                continue;
            }
            let reasons = allergy_reasons(guard, &recipe.content);
            if !reasons.is_empty() {
                out.push(Warning {
                    entry: entry.id,
                    child: child.id,
                    child_name: child.name.clone(),
                    message: reasons.join("; "),
                });
            }
        }
    }
    Ok(out)
}
