//! `/api/meal-plan?week=YYYY-Www`: a family's plan of one ISO week, with the children's
//! allergy warnings, saved whole with the version it was read at.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Header, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

use super::etag::{Cached, family_answer, openapi_bytes};
use super::food_safety::WarningKindDto;
use super::meals::MealType;
use super::session::CurrentUser;
use super::{ApiError, ApiTags, number_input};
use crate::app::App;
use crate::domain::meal_plan::{Concern, EntryDraft, PlanEntry, PlanView, Warning};
use crate::i18n::Text;
use crate::service::meal_plan;

/// One planned meal.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct MealPlanEntryDto {
    /// Stable across saves: send it back to keep the entry.
    pub id: String,
    /// A day of the week (YYYY-MM-DD).
    pub date: String,
    pub meal_type: MealType,
    /// The saved recipe, if it is one (it may have been deleted since it was planned).
    #[oai(nullable)]
    pub recipe_id: Option<String>,
    /// The recipe's title when it was planned, or the free text.
    pub title: String,
    /// 1 to 20.
    pub servings: u32,
    /// The children it is for; empty is the whole family.
    pub child_ids: Vec<String>,
}

impl From<&PlanEntry> for MealPlanEntryDto {
    fn from(e: &PlanEntry) -> Self {
        MealPlanEntryDto {
            id: e.id.to_string(),
            date: e.date.to_string(),
            meal_type: e.meal_type.into(),
            recipe_id: e.recipe.map(|r| r.to_string()),
            title: e.title.clone(),
            servings: e.servings,
            child_ids: e.children.iter().map(ToString::to_string).collect(),
        }
    }
}

/// What a planned meal means for a child it is for: an allergy it meets, or a choking hazard
/// or age rule at the child's age on the planned day.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct MealPlanWarningDto {
    pub entry_id: String,
    pub child_id: String,
    pub child_name: String,
    pub kind: WarningKindDto,
    /// An allergy: what in the recipe, as the saved recipes' warnings say it ("Butter contains
    /// milk (butter)"; several joined with "; "). A choking or age rule: the advice in a few
    /// words ("quarter the grapes lengthways").
    pub message: String,
    /// What to do instead (choking and age rules; empty for an allergy).
    pub advice: String,
    /// The child's age the rule was checked for ("9 months").
    #[oai(nullable)]
    pub age: Option<String>,
    /// The food was described as prepared the safe way: advice, not alarm.
    pub prepared: bool,
}

impl From<&Warning> for MealPlanWarningDto {
    fn from(w: &Warning) -> Self {
        let c = PlanConcernDto::from(w.concern.clone());
        MealPlanWarningDto {
            entry_id: w.entry.to_string(),
            child_id: c.child_id,
            child_name: c.child_name,
            kind: c.kind,
            message: c.message,
            advice: c.advice,
            age: c.age,
            prepared: c.prepared,
        }
    }
}

/// What an entry means for a child, found before it is saved (as `MealPlanWarningDto`).
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct PlanConcernDto {
    pub child_id: String,
    pub child_name: String,
    pub kind: WarningKindDto,
    /// What in the meal ("Cheese sandwich contains milk (cheese)"; several joined with "; "),
    /// or the advice of a choking or age rule in a few words.
    pub message: String,
    pub advice: String,
    #[oai(nullable)]
    pub age: Option<String>,
    pub prepared: bool,
}

/// What a check of one entry found; empty when it is safe for every child it is for.
#[derive(Debug, Clone, Object)]
pub struct MealPlanCheck {
    pub warnings: Vec<PlanConcernDto>,
}

impl From<Concern> for PlanConcernDto {
    fn from(c: Concern) -> Self {
        PlanConcernDto {
            child_id: c.child.to_string(),
            child_name: c.child_name,
            kind: c.kind.into(),
            message: c.message.here(),
            advice: c.advice.as_ref().map_or_else(String::new, Text::here),
            age: c.age.as_ref().map(Text::here),
            prepared: c.prepared,
        }
    }
}

/// A week of the plan.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct MealPlanDto {
    /// The ISO week ("2026-W48").
    pub week: String,
    /// Its seven days (YYYY-MM-DD), Monday to Sunday.
    pub days: Vec<String>,
    /// By day, then by meal of the day.
    pub entries: Vec<MealPlanEntryDto>,
    /// Computed when read, never stored.
    pub warnings: Vec<MealPlanWarningDto>,
    /// +1 with every save; 0 for a week never saved. Send it back with a save.
    pub version: u64,
    /// Null for a week never saved.
    #[oai(nullable)]
    pub updated_at: Option<DateTime<Utc>>,
}

impl From<&PlanView> for MealPlanDto {
    fn from(v: &PlanView) -> Self {
        MealPlanDto {
            week: v.week.to_string(),
            days: v.week.days().iter().map(ToString::to_string).collect(),
            entries: v
                .plan
                .iter()
                .flat_map(|p| p.in_order())
                .map(MealPlanEntryDto::from)
                .collect(),
            warnings: v.warnings.iter().map(MealPlanWarningDto::from).collect(),
            version: v.plan.as_ref().map_or(0, |p| p.version),
            updated_at: v.plan.as_ref().map(|p| p.updated_at),
        }
    }
}

/// One entry of a save: a saved recipe (`recipeId`) or free text (`text`), not both.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct MealPlanEntryInput {
    /// The entry's id when it is already in the plan; none for a new entry.
    pub id: Option<String>,
    /// A day of the week (YYYY-MM-DD).
    #[oai(default)]
    pub date: String,
    /// One of the six meal types.
    #[oai(default)]
    pub meal_type: String,
    /// One of the family's saved recipes.
    pub recipe_id: Option<String>,
    /// Free text such as "leftovers" (1 to 100 characters; markup is dropped).
    pub text: Option<String>,
    /// A whole number from 1 to 20; default the recipe's servings, or 1 for free text.
    pub servings: Option<serde_json::Value>,
    /// Some of the family's children; empty or missing is the whole family.
    #[oai(default)]
    pub child_ids: Vec<String>,
}

impl From<MealPlanEntryInput> for EntryDraft {
    fn from(i: MealPlanEntryInput) -> Self {
        EntryDraft {
            id: i.id,
            date: i.date,
            meal_type: i.meal_type,
            recipe_id: i.recipe_id,
            text: i.text,
            servings: number_input(i.servings),
            child_ids: i.child_ids,
        }
    }
}

#[derive(Debug, Object)]
pub struct MealPlanInput {
    /// Every entry of the week (at most 100): what is not sent is removed.
    #[oai(default)]
    pub entries: Vec<MealPlanEntryInput>,
    /// The version the week was read at (0 for a week never saved); a stale one answers 409
    /// with the week as it is now.
    pub version: u64,
}

#[derive(Default)]
pub struct MealPlanApi;

#[OpenApi(tag = "ApiTags::MealPlan")]
impl MealPlanApi {
    /// A week of the family's plan with the children's allergy warnings. `week` is an ISO
    /// week (2026-W48); the current week (UTC) when missing. The ETag follows the family's
    /// revision: `If-None-Match` with it answers 304 until something changes.
    #[oai(path = "/meal-plan", method = "get", operation_id = "getMealPlan")]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        week: Query<Option<String>>,
        req: &poem::Request,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<Cached<MealPlanDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view the meal plan"))?;
        let family = me.user.family_id;
        let week = meal_plan::week_or_current(week.0.as_deref())?;
        let query = format!("meal-plan?week={week}");
        family_answer(
            &app,
            req,
            family,
            &query,
            if_none_match.0.as_deref(),
            async || {
                let view = meal_plan::get(&app, family, week).await?;
                Ok(openapi_bytes(&MealPlanDto::from(&view)))
            },
        )
        .await
    }

    /// Replaces the week's entries, if `version` is the week's current one (409 otherwise,
    /// with the week as it is now). `week` is required here.
    #[oai(path = "/meal-plan", method = "put", operation_id = "saveMealPlan")]
    async fn save(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        week: Query<Option<String>>,
        body: Json<MealPlanInput>,
    ) -> Result<Json<MealPlanDto>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save the meal plan"))?;
        let week = meal_plan::week_named(week.0.as_deref())?;
        let drafts: Vec<EntryDraft> = body.0.entries.into_iter().map(Into::into).collect();
        let view = meal_plan::save(&app, me.user.family_id, week, body.0.version, &drafts).await?;
        Ok(Json(MealPlanDto::from(&view)))
    }

    /// Checks one entry before it is saved (the form's warning): a saved recipe or free text
    /// against the allergies of the children it is for, the whole family's when it names none.
    /// Its day, meal and servings are not read.
    #[oai(
        path = "/meal-plan/check",
        method = "post",
        operation_id = "checkMealPlanEntry"
    )]
    async fn check(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<MealPlanEntryInput>,
    ) -> Result<Json<MealPlanCheck>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view the meal plan"))?;
        let draft = EntryDraft::from(body.0);
        let concerns = meal_plan::check(&app, me.user.family_id, &draft).await?;
        Ok(Json(MealPlanCheck {
            warnings: concerns.into_iter().map(PlanConcernDto::from).collect(),
        }))
    }
}
