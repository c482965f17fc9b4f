//! `/api/meals`: the meal log, newest first.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::children::Deleted;
use super::etag::{Cached, family_answer, serde_bytes};
use super::media::{MEDIA_BASE, PhotoUrls};
use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::ids::MealId;
use crate::domain::meal::{self, Meal, MealDraft};
use crate::service::meals;

/// Also `Serialize` (same names) for the fast list path; a test checks both give the same JSON.
#[derive(Debug, Object, serde::Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MealDto {
    pub id: String,
    pub child_id: String,
    pub meal_type: MealType,
    pub foods: Vec<String>,
    pub portion: Portion,
    pub mood: Mood,
    #[oai(nullable)]
    pub feedback: Option<Feedback>,
    pub notes: String,
    /// The photo's media id.
    #[oai(nullable)]
    pub photo: Option<String>,
    #[oai(nullable)]
    pub photo_url: Option<String>,
    #[oai(nullable)]
    pub thumbnail_url: Option<String>,
    /// 1024 px: for phones (`srcset`).
    #[oai(nullable)]
    pub medium_url: Option<String>,
    #[serde(with = "super::json::rfc3339")]
    pub meal_date: DateTime<Utc>,
    #[serde(with = "super::json::rfc3339")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "super::json::rfc3339")]
    pub updated_at: DateTime<Utc>,
    /// +1 with every change; send it back with an update.
    pub version: u64,
    pub reaction: Reaction,
    /// What the reaction was like (empty without a reaction).
    pub reaction_note: String,
    /// Foods that matched the child's allergies when the meal was saved (an exposure).
    pub exposures: Vec<ExposureDto>,
}

/// A reaction the child had to the meal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, serde::Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Reaction {
    None,
    Mild,
    Severe,
}

impl From<meal::Reaction> for Reaction {
    fn from(r: meal::Reaction) -> Self {
        match r {
            meal::Reaction::None => Reaction::None,
            meal::Reaction::Mild => Reaction::Mild,
            meal::Reaction::Severe => Reaction::Severe,
        }
    }
}

/// A food that matches one of the child's allergies.
#[derive(Debug, Clone, Object, serde::Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ExposureDto {
    pub food: String,
    /// The allergy as the parent typed it.
    pub allergy: String,
    /// "Buttered toast contains milk (butter)".
    pub message: String,
}

impl From<meal::Exposure> for ExposureDto {
    fn from(e: meal::Exposure) -> Self {
        ExposureDto {
            message: e.message().here(),
            food: e.food,
            allergy: e.allergy,
        }
    }
}

/// The six meal types, by their display names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, serde::Serialize)]
pub enum MealType {
    Breakfast,
    #[oai(rename = "Morning Snack")]
    #[serde(rename = "Morning Snack")]
    MorningSnack,
    Lunch,
    #[oai(rename = "Afternoon Snack")]
    #[serde(rename = "Afternoon Snack")]
    AfternoonSnack,
    Dinner,
    #[oai(rename = "Evening Snack")]
    #[serde(rename = "Evening Snack")]
    EveningSnack,
}

impl From<meal::MealType> for MealType {
    fn from(t: meal::MealType) -> Self {
        match t {
            meal::MealType::Breakfast => MealType::Breakfast,
            meal::MealType::MorningSnack => MealType::MorningSnack,
            meal::MealType::Lunch => MealType::Lunch,
            meal::MealType::AfternoonSnack => MealType::AfternoonSnack,
            meal::MealType::Dinner => MealType::Dinner,
            meal::MealType::EveningSnack => MealType::EveningSnack,
        }
    }
}

/// How much was eaten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, serde::Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Portion {
    None,
    Half,
    Full,
    Seconds,
}

impl From<meal::Portion> for Portion {
    fn from(p: meal::Portion) -> Self {
        match p {
            meal::Portion::None => Portion::None,
            meal::Portion::Half => Portion::Half,
            meal::Portion::Full => Portion::Full,
            meal::Portion::Seconds => Portion::Seconds,
        }
    }
}

/// The child's reaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, serde::Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Mood {
    Happy,
    Neutral,
    Sad,
}

impl From<meal::Mood> for Mood {
    fn from(m: meal::Mood) -> Self {
        match m {
            meal::Mood::Happy => Mood::Happy,
            meal::Mood::Neutral => Mood::Neutral,
            meal::Mood::Sad => Mood::Sad,
        }
    }
}

/// What the parent noted about the meal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, serde::Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Feedback {
    Loved,
    Disliked,
    Seconds,
}

impl From<meal::Feedback> for Feedback {
    fn from(f: meal::Feedback) -> Self {
        match f {
            meal::Feedback::Loved => Feedback::Loved,
            meal::Feedback::Disliked => Feedback::Disliked,
            meal::Feedback::Seconds => Feedback::Seconds,
        }
    }
}

impl From<Meal> for MealDto {
    fn from(m: Meal) -> Self {
        MealDto::with_photos_under(m, MEDIA_BASE)
    }
}

impl MealDto {
    /// A meal whose photo URLs start with `base` (a co-parent reads them under their link).
    pub fn with_photos_under(m: Meal, base: &str) -> MealDto {
        let urls = m.photo.map(|id| PhotoUrls::new(base, id));
        MealDto {
            id: m.id.to_string(),
            child_id: m.child_id.to_string(),
            meal_type: m.meal_type.into(),
            foods: m.foods,
            portion: m.portion.into(),
            mood: m.mood.into(),
            feedback: m.feedback.map(Feedback::from),
            notes: m.notes,
            photo: m.photo.map(|p| p.to_string()),
            photo_url: urls.as_ref().map(|u| u.url.clone()),
            thumbnail_url: urls.as_ref().map(|u| u.thumbnail_url.clone()),
            medium_url: urls.map(|u| u.medium_url),
            meal_date: m.meal_date,
            created_at: m.created_at,
            updated_at: m.updated_at,
            version: m.version,
            reaction: m.reaction.into(),
            reaction_note: m.reaction_note,
            exposures: m.exposures.into_iter().map(ExposureDto::from).collect(),
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct MealRequest {
    #[oai(default)]
    pub child_id: String,
    #[oai(default)]
    pub meal_type: String,
    #[oai(default)]
    pub foods: Vec<String>,
    /// Default full.
    pub portion: Option<String>,
    /// Default happy.
    pub mood: Option<String>,
    pub feedback: Option<String>,
    pub notes: Option<String>,
    /// A media id from `POST /api/media`.
    pub photo: Option<String>,
    /// When it was eaten, RFC 3339; default now. Any time in the past; at most a few minutes
    /// ahead.
    pub meal_date: Option<String>,
    /// none (default), mild or severe.
    pub reaction: Option<String>,
    pub reaction_note: Option<String>,
    /// On update, required: the version the change was made on (400 without it). A stale one
    /// answers 409 with the current meal and changes nothing.
    pub version: Option<u64>,
}

impl From<MealRequest> for MealDraft {
    fn from(r: MealRequest) -> Self {
        MealDraft {
            child_id: r.child_id,
            meal_type: r.meal_type,
            foods: r.foods,
            portion: r.portion,
            mood: r.mood,
            feedback: r.feedback,
            notes: r.notes,
            photo: r.photo,
            meal_date: r.meal_date,
            reaction: r.reaction,
            reaction_note: r.reaction_note,
        }
    }
}

#[derive(Debug, Object, serde::Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MealPage {
    pub items: Vec<MealDto>,
    /// Pass as `cursor` for the next page; null on the last page.
    #[oai(nullable)]
    pub next_cursor: Option<String>,
}

#[derive(ApiResponse)]
pub enum MealCreated {
    #[oai(status = 201)]
    Created(Json<MealDto>),
}

#[derive(Default)]
pub struct MealsApi;

#[OpenApi(tag = "ApiTags::Meals")]
impl MealsApi {
    /// Meals newest first, 50 per page by default, optionally of one child. The ETag follows
    /// the family's revision: `If-None-Match` with it answers 304 until something changes.
    #[oai(path = "/meals", method = "get", operation_id = "listMeals")]
    #[allow(clippy::too_many_arguments)] // one per extractor: the query's three, the headers'
    async fn list(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        #[oai(name = "childId")] child_id: Query<Option<String>>,
        cursor: Query<Option<String>>,
        limit: Query<Option<u32>>,
        req: &poem::Request,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<Cached<MealPage>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view meals"))?;
        let family = me.user.family_id;
        let (child, cursor) = (child_id.0.as_deref(), cursor.0.as_deref());
        // Exactly as asked (`None` is not `Some(0)`): a bad value must not find a good page.
        let query = format!("childId={child:?}&cursor={cursor:?}&limit={:?}", limit.0);
        let query = format!("meals?{query}");
        family_answer(
            &app,
            req,
            family,
            &query,
            if_none_match.0.as_deref(),
            async || {
                let (items, next_cursor) =
                    meals::page(&app, family, child, cursor, limit.0).await?;
                let page = MealPage {
                    items: items.into_iter().map(MealDto::from).collect(),
                    next_cursor,
                };
                serde_bytes(&page, "meal page")
            },
        )
        .await
    }

    /// Records a meal.
    #[oai(path = "/meals", method = "post", operation_id = "createMeal")]
    async fn create(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<MealRequest>,
    ) -> Result<MealCreated, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save meals"))?;
        let meal = meals::create(&app, me.user.family_id, body.0.into()).await?;
        Ok(MealCreated::Created(Json(meal.into())))
    }

    #[oai(path = "/meals/:id", method = "get", operation_id = "getMeal")]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<MealId>,
    ) -> Result<Json<MealDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view meals"))?;
        Ok(Json(
            meals::get(&app, me.user.family_id, id.0).await?.into(),
        ))
    }

    /// Replaces a meal's details (a changed photo replaces the old one).
    #[oai(path = "/meals/:id", method = "put", operation_id = "updateMeal")]
    async fn update(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<MealId>,
        body: Json<MealRequest>,
    ) -> Result<Json<MealDto>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save meals"))?;
        let version = body.0.version;
        let meal = meals::update(&app, me.user.family_id, id.0, version, body.0.into()).await?;
        Ok(Json(meal.into()))
    }

    /// Removes a meal and its photo.
    #[oai(path = "/meals/:id", method = "delete", operation_id = "deleteMeal")]
    async fn delete(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<MealId>,
    ) -> Result<Deleted, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to delete meals"))?;
        meals::delete(&app, me.user.family_id, id.0).await?;
        Ok(Deleted::Done)
    }
}
