//! `/api/children`: a family's child profiles.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Header, Path};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::allergens::AllergenIntroDto;
use super::etag::{Cached, family_answer, openapi_bytes};
use super::food_safety::FoodCheckDto;
use super::session::CurrentUser;
use super::{ApiError, ApiTags, number_input};
use crate::app::App;
use crate::domain::child::{Child, ChildDraft};
use crate::domain::food_history::FoodStats;
use crate::domain::ids::ChildId;
use crate::service::children;

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ChildDto {
    pub id: String,
    pub name: String,
    /// Years, 0 to 18, when known.
    #[oai(nullable)]
    pub age: Option<u8>,
    pub dietary_restrictions: Vec<String>,
    pub allergies: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// +1 with every change; send it back with an update.
    pub version: u64,
    /// "YYYY-MM", when given.
    #[oai(nullable)]
    pub birth_month: Option<String>,
    /// Whole months since the birth month (for babies' ages), when it is known.
    #[oai(nullable)]
    pub months_old: Option<u32>,
}

impl From<Child> for ChildDto {
    fn from(c: Child) -> Self {
        ChildDto {
            id: c.id.to_string(),
            name: c.name,
            age: c.age,
            dietary_restrictions: c.dietary_restrictions,
            allergies: c.allergies,
            created_at: c.created_at,
            updated_at: c.updated_at,
            version: c.version,
            months_old: c
                .birth_month
                .as_deref()
                .and_then(|m| crate::domain::child::months_old(m, Utc::now().date_naive())),
            birth_month: c.birth_month,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ChildRequest {
    #[oai(default)]
    pub name: String,
    /// A whole number from 0 to 18, or empty.
    pub age: Option<serde_json::Value>,
    #[oai(default)]
    pub dietary_restrictions: Vec<String>,
    #[oai(default)]
    pub allergies: Vec<String>,
    /// "YYYY-MM" (optional): babies' ages are then shown in months.
    pub birth_month: Option<String>,
    /// On update, required: the version the change was made on (400 without it). A stale one
    /// answers 409 with the current child and changes nothing.
    pub version: Option<u64>,
}

impl From<ChildRequest> for ChildDraft {
    fn from(r: ChildRequest) -> Self {
        ChildDraft {
            name: r.name,
            age: number_input(r.age),
            dietary_restrictions: r.dietary_restrictions,
            allergies: r.allergies,
            birth_month: r.birth_month,
        }
    }
}

#[derive(ApiResponse)]
pub enum ChildCreated {
    #[oai(status = 201)]
    Created(Json<ChildDto>),
}

#[derive(ApiResponse)]
pub enum Deleted {
    /// Removed.
    #[oai(status = 204)]
    Done,
}

/// Foods about to be chosen for a child (a meal, a plan entry, a recipe).
#[derive(Debug, Object)]
pub struct FoodsRequest {
    #[oai(default)]
    pub foods: Vec<String>,
}

/// The foods that match the child's allergies; empty when none do.
#[derive(Debug, Object)]
pub struct AllergenCheck {
    pub exposures: Vec<super::meals::ExposureDto>,
}

/// How the child took to a food, from the moods of its meals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum Liking {
    Liked,
    Mixed,
    Disliked,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ReactionSeenDto {
    pub at: DateTime<Utc>,
    pub reaction: super::meals::Reaction,
    pub note: String,
}

/// One food of the child's history.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FoodDto {
    /// As first typed.
    pub name: String,
    pub first_tried: DateTime<Utc>,
    pub last_eaten: DateTime<Utc>,
    pub times: u32,
    pub liking: Liking,
    pub happy: u32,
    pub neutral: u32,
    pub sad: u32,
    /// Meals where the food matched one of the child's allergies.
    pub exposures: u32,
    /// Newest first.
    pub reactions: Vec<ReactionSeenDto>,
    /// First tried in the last 7 days.
    pub is_new: bool,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FoodHistoryDto {
    /// Most recently first tried first.
    pub foods: Vec<FoodDto>,
    pub new_this_week: u32,
}

/// What deleting the child also removes.
#[derive(Debug, Object)]
pub struct DeletePreviewDto {
    pub meals: u32,
    pub photos: u32,
}

fn food_history_dto(foods: Vec<FoodStats>, now: DateTime<Utc>) -> FoodHistoryDto {
    use crate::domain::food_history::Liking as L;
    let foods: Vec<FoodDto> = foods
        .into_iter()
        .map(|f| FoodDto {
            liking: match f.liking() {
                L::Liked => Liking::Liked,
                L::Mixed => Liking::Mixed,
                L::Disliked => Liking::Disliked,
            },
            is_new: f.is_new(now),
            name: f.name,
            first_tried: f.first_tried,
            last_eaten: f.last_eaten,
            times: f.times,
            happy: f.happy,
            neutral: f.neutral,
            sad: f.sad,
            exposures: f.exposures,
            reactions: f
                .reactions
                .into_iter()
                .map(|r| ReactionSeenDto {
                    at: r.at,
                    reaction: r.reaction.into(),
                    note: r.note,
                })
                .collect(),
        })
        .collect();
    let new_this_week = foods.iter().filter(|f| f.is_new).count() as u32;
    FoodHistoryDto {
        foods,
        new_this_week,
    }
}

#[derive(Default)]
pub struct ChildrenApi;

#[OpenApi(tag = "ApiTags::Children")]
impl ChildrenApi {
    /// The family's children, by name.
    #[oai(path = "/children", method = "get", operation_id = "listChildren")]
    async fn list(
        &self,
        app: Data<&App>,
        user: CurrentUser,
    ) -> Result<Json<Vec<ChildDto>>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view children profiles"))?;
        let list = children::list(&app, me.user.family_id).await?;
        Ok(Json(list.into_iter().map(ChildDto::from).collect()))
    }

    /// Adds a child.
    #[oai(path = "/children", method = "post", operation_id = "createChild")]
    async fn create(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<ChildRequest>,
    ) -> Result<ChildCreated, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save child profiles"))?;
        let child = children::create(&app, me.user.family_id, body.0.into()).await?;
        Ok(ChildCreated::Created(Json(child.into())))
    }

    #[oai(path = "/children/:id", method = "get", operation_id = "getChild")]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
    ) -> Result<Json<ChildDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view children profiles"))?;
        Ok(Json(
            children::get(&app, me.user.family_id, id.0).await?.into(),
        ))
    }

    /// Replaces a child's details.
    #[oai(path = "/children/:id", method = "put", operation_id = "updateChild")]
    async fn update(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
        body: Json<ChildRequest>,
    ) -> Result<Json<ChildDto>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save child profiles"))?;
        let version = body.0.version;
        let child = children::update(&app, me.user.family_id, id.0, version, body.0.into()).await?;
        Ok(Json(child.into()))
    }

    /// Checks foods against the child's allergies before a meal is saved (the server's one
    /// allergen matcher: the UI never copies it).
    #[oai(
        path = "/children/:id/allergen-check",
        method = "post",
        operation_id = "checkAllergens"
    )]
    async fn allergen_check(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
        body: Json<FoodsRequest>,
    ) -> Result<Json<AllergenCheck>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to check a meal"))?;
        let child = id.0;
        let foods = crate::domain::tags::clean(&body.0.foods, &t!("Error saving meal"), "foods")?;
        let found =
            crate::service::meals::allergen_check(&app, me.user.family_id, child, &foods).await?;
        Ok(Json(AllergenCheck {
            exposures: found.into_iter().map(Into::into).collect(),
        }))
    }

    /// Checks foods for the child: the child's allergies, choking hazards and foods not for
    /// the child's age, each with advice and its source. A warning never stops a save: a
    /// parent may be preparing the food the safe way.
    #[oai(
        path = "/children/:id/food-check",
        method = "post",
        operation_id = "checkFoods"
    )]
    async fn food_check(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
        body: Json<FoodsRequest>,
    ) -> Result<Json<FoodCheckDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to check foods"))?;
        let foods =
            crate::domain::tags::clean(&body.0.foods, &t!("Error checking foods"), "foods")?;
        let (child, check) = children::food_check(&app, me.user.family_id, id.0, &foods).await?;
        Ok(Json(FoodCheckDto::new(&child, &check)))
    }

    /// Allergen introduction: each allergen of the family's list with where the child is
    /// with it (from the meal log), and what to try next, one at a time.
    #[oai(
        path = "/children/:id/allergens",
        method = "get",
        operation_id = "childAllergens"
    )]
    async fn allergens(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
    ) -> Result<Json<AllergenIntroDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view allergen introduction"))?;
        let found = children::allergens(&app, me.user.family_id, id.0).await?;
        Ok(Json(AllergenIntroDto::from(&found)))
    }

    /// Every food the child has had: first tried, how often, how they liked it, exposures
    /// and reactions. The ETag follows the family's revision (and the minute, for "new"):
    /// `If-None-Match` with it answers 304 until something changes.
    #[oai(
        path = "/children/:id/foods",
        method = "get",
        operation_id = "childFoods"
    )]
    async fn foods(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
        req: &poem::Request,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<Cached<FoodHistoryDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view the food history"))?;
        let family = me.user.family_id;
        let child = id.0;
        let now = Utc::now();
        // "New" depends on the time as well as the meals: kept per minute.
        let query = format!("children/{child}/foods@{}", now.timestamp() / 60);
        // Before any 304: `If-None-Match: *` names no child, so another family's (or a deleted)
        // child is a 404, never "not modified".
        children::get(&app, family, child).await?;
        family_answer(
            &app,
            req,
            family,
            &query,
            if_none_match.0.as_deref(),
            async || {
                let foods = children::food_history(&app, family, child).await?;
                Ok(openapi_bytes(&food_history_dto(foods, now)))
            },
        )
        .await
    }

    /// How many meals and photos go with the child when it is deleted (for the confirmation).
    #[oai(
        path = "/children/:id/delete-preview",
        method = "get",
        operation_id = "childDeletePreview"
    )]
    async fn delete_preview(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
    ) -> Result<Json<DeletePreviewDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view children profiles"))?;
        let p = children::delete_preview(&app, me.user.family_id, id.0).await?;
        Ok(Json(DeletePreviewDto {
            meals: p.meals,
            photos: p.photos,
        }))
    }

    /// Removes a child at once; its meals and their photos are removed in the background.
    #[oai(
        path = "/children/:id",
        method = "delete",
        operation_id = "deleteChild"
    )]
    async fn delete(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<ChildId>,
    ) -> Result<Deleted, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to delete child profiles"))?;
        children::delete(&app, me.user.family_id, id.0).await?;
        Ok(Deleted::Done)
    }
}
