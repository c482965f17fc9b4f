//! `/api/recipes`: the family's saved recipes, and the recipe content both they and generated
//! ones are made of. Generation jobs are `api::generation`.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Header, Path};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::children::Deleted;
use super::etag::{Cached, family_answer, openapi_bytes};
use super::meals::MealDto;
use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::ids::{ChildId, RecipeId};
use crate::domain::recipe::{
    self, Cost, Ingredient, Nutrition, RecipeContent, Source, Substitution,
};
use crate::service::recipes::{self, Checked};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Enum)]
#[oai(rename_all = "lowercase")]
pub enum Difficulty {
    #[default]
    Easy,
    Moderate,
    Hard,
}

impl From<recipe::Difficulty> for Difficulty {
    fn from(d: recipe::Difficulty) -> Self {
        match d {
            recipe::Difficulty::Easy => Difficulty::Easy,
            recipe::Difficulty::Moderate => Difficulty::Moderate,
            recipe::Difficulty::Hard => Difficulty::Hard,
        }
    }
}

impl From<Difficulty> for recipe::Difficulty {
    fn from(d: Difficulty) -> Self {
        match d {
            Difficulty::Easy => recipe::Difficulty::Easy,
            Difficulty::Moderate => recipe::Difficulty::Moderate,
            Difficulty::Hard => recipe::Difficulty::Hard,
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct IngredientLine {
    pub name: String,
    #[oai(default)]
    pub quantity: String,
}

#[derive(Debug, Clone, Object)]
pub struct SubstitutionDto {
    pub ingredient: String,
    pub alternatives: Vec<String>,
}

/// Per serving: kcal, and grams of protein, carbohydrate and fat.
#[derive(Debug, Clone, Object)]
pub struct NutritionDto {
    pub calories: f64,
    pub protein: f64,
    pub carbs: f64,
    pub fat: f64,
}

#[derive(Debug, Clone, Object)]
pub struct CostDto {
    pub amount: f64,
    /// ISO code, e.g. GBP.
    pub currency: String,
}

/// A recipe's content: what a generator suggests and what a family saves or types in.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct RecipeContentDto {
    #[oai(default)]
    pub title: String,
    #[oai(default)]
    pub description: String,
    #[oai(default)]
    pub ingredients: Vec<IngredientLine>,
    /// The steps, in order.
    #[oai(default)]
    pub instructions: Vec<String>,
    /// Minutes (0 when unknown).
    #[oai(default)]
    pub preparation_time: u32,
    #[oai(nullable)]
    pub cooking_time: Option<u32>,
    #[oai(default)]
    pub difficulty: Difficulty,
    #[oai(nullable)]
    pub servings: Option<u32>,
    #[oai(default)]
    pub dietary_restrictions: Vec<String>,
    #[oai(default)]
    pub allergies: Vec<String>,
    #[oai(nullable)]
    pub estimated_cost: Option<CostDto>,
    /// Per serving.
    #[oai(nullable)]
    pub nutritional_info: Option<NutritionDto>,
    #[oai(default)]
    pub tips: Vec<String>,
    #[oai(default)]
    pub substitutions: Vec<SubstitutionDto>,
}

impl From<RecipeContent> for RecipeContentDto {
    fn from(c: RecipeContent) -> Self {
        RecipeContentDto {
            title: c.title,
            description: c.description,
            ingredients: c
                .ingredients
                .into_iter()
                .map(|i| IngredientLine {
                    name: i.name,
                    quantity: i.quantity,
                })
                .collect(),
            instructions: c.instructions,
            preparation_time: c.preparation_time,
            cooking_time: c.cooking_time,
            difficulty: c.difficulty.into(),
            servings: c.servings,
            dietary_restrictions: c.dietary_restrictions,
            allergies: c.allergies,
            estimated_cost: c.estimated_cost.map(|c| CostDto {
                amount: c.amount,
                currency: c.currency,
            }),
            nutritional_info: c.nutritional_info.map(|n| NutritionDto {
                calories: n.calories,
                protein: n.protein,
                carbs: n.carbs,
                fat: n.fat,
            }),
            tips: c.tips,
            substitutions: c
                .substitutions
                .into_iter()
                .map(|s| SubstitutionDto {
                    ingredient: s.ingredient,
                    alternatives: s.alternatives,
                })
                .collect(),
        }
    }
}

impl From<RecipeContentDto> for RecipeContent {
    fn from(c: RecipeContentDto) -> Self {
        RecipeContent {
            title: c.title,
            description: c.description,
            ingredients: c
                .ingredients
                .into_iter()
                .map(|i| Ingredient {
                    name: i.name,
                    quantity: i.quantity,
                })
                .collect(),
            instructions: c.instructions,
            preparation_time: c.preparation_time,
            cooking_time: c.cooking_time,
            difficulty: c.difficulty.into(),
            servings: c.servings,
            dietary_restrictions: c.dietary_restrictions,
            allergies: c.allergies,
            estimated_cost: c.estimated_cost.map(|c| Cost {
                amount: c.amount,
                currency: c.currency.trim().to_uppercase(),
            }),
            nutritional_info: c.nutritional_info.map(|n| Nutrition {
                calories: n.calories,
                protein: n.protein,
                carbs: n.carbs,
                fat: n.fat,
            }),
            tips: c.tips,
            substitutions: c
                .substitutions
                .into_iter()
                .map(|s| Substitution {
                    ingredient: s.ingredient,
                    alternatives: s.alternatives,
                })
                .collect(),
        }
    }
}

/// Where a saved recipe came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Enum)]
#[oai(rename_all = "lowercase")]
pub enum RecipeSource {
    /// Suggested by the generator.
    #[default]
    Generated,
    /// The family's own dish, typed in.
    Own,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RecipeDto {
    pub id: String,
    pub source: RecipeSource,
    #[oai(flatten)]
    pub content: RecipeContentDto,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
    /// What in it one of the family's children is allergic to ("Peanut butter contains
    /// peanuts (peanut)"); empty when nothing.
    pub allergy_warnings: Vec<String>,
    /// Each child's choking and age notes ("For Leo (9 months): quarter the grapes
    /// lengthways; no honey before 12 months"); empty when no rule applies.
    pub safety_notes: Vec<String>,
}

impl From<Checked> for RecipeDto {
    fn from(c: Checked) -> Self {
        let r = c.recipe;
        RecipeDto {
            allergy_warnings: c.warnings,
            safety_notes: c.safety_notes,
            id: r.id.to_string(),
            source: match r.source {
                Source::Generated => RecipeSource::Generated,
                Source::Own => RecipeSource::Own,
            },
            content: r.content.into(),
            created_at: r.created_at,
            updated_at: r.updated_at,
            version: r.version,
        }
    }
}

/// A recipe to save: a generated one as it was shown, or the family's own.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SaveRecipeRequest {
    #[oai(default)]
    pub source: RecipeSource,
    #[oai(flatten)]
    pub content: RecipeContentDto,
}

#[derive(ApiResponse)]
pub enum RecipeCreated {
    #[oai(status = 201)]
    Created(Json<RecipeDto>),
}

#[derive(ApiResponse)]
pub enum MealLogged {
    #[oai(status = 201)]
    Created(Json<MealDto>),
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LogMealRequest {
    #[oai(default)]
    pub child_id: String,
    #[oai(default)]
    pub meal_type: String,
    /// RFC 3339; empty or missing means now.
    pub eaten_at: Option<String>,
}

#[derive(Default)]
pub struct RecipesApi;

#[OpenApi(tag = "ApiTags::Recipes")]
impl RecipesApi {
    /// The family's saved recipes, newest first. The ETag follows the family's revision and
    /// the day (the children's safety notes follow their ages):
    /// `If-None-Match` with it answers 304 until something changes.
    #[oai(path = "/recipes", method = "get", operation_id = "listRecipes")]
    async fn list(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        req: &poem::Request,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<Cached<Vec<RecipeDto>>, ApiError> {
        let me = user.require_to_view("view recipes")?;
        let family = me.user.family_id;
        // The children's safety notes follow their ages: kept per day as well.
        let query = format!("recipes@{}", chrono::Utc::now().date_naive());
        family_answer(
            &app,
            req,
            family,
            &query,
            if_none_match.0.as_deref(),
            async || {
                let list = recipes::list(&app, family).await?;
                let dtos: Vec<RecipeDto> = list.into_iter().map(RecipeDto::from).collect();
                Ok(openapi_bytes(&dtos))
            },
        )
        .await
    }

    /// Saves a generated recipe, or the family's own dish (title, ingredients and steps
    /// required).
    #[oai(path = "/recipes", method = "post", operation_id = "saveRecipe")]
    async fn save(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<SaveRecipeRequest>,
    ) -> Result<RecipeCreated, ApiError> {
        let me = user.require_to_save("save recipes")?;
        let source = match body.0.source {
            RecipeSource::Generated => Source::Generated,
            RecipeSource::Own => Source::Own,
        };
        let saved = recipes::save(
            &app,
            me.user.family_id,
            me.user.id,
            source,
            body.0.content.into(),
        )
        .await?;
        Ok(RecipeCreated::Created(Json(saved.into())))
    }

    #[oai(path = "/recipes/:id", method = "get", operation_id = "getRecipe")]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<RecipeId>,
    ) -> Result<Json<RecipeDto>, ApiError> {
        let me = user.require_to_view("view recipes")?;
        let found = recipes::get(&app, me.user.family_id, id.0).await?;
        Ok(Json(found.into()))
    }

    #[oai(
        path = "/recipes/:id",
        method = "delete",
        operation_id = "deleteRecipe"
    )]
    async fn delete(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<RecipeId>,
    ) -> Result<Deleted, ApiError> {
        let me = user.require_to_save("delete recipes")?;
        recipes::delete(&app, me.user.family_id, id.0).await?;
        Ok(Deleted::Done)
    }

    /// Logs the recipe as a child's meal: its ingredients become the foods. Foods that match
    /// the child's allergies are saved as exposures, as in the meal log.
    #[oai(
        path = "/recipes/:id/log-meal",
        method = "post",
        operation_id = "logRecipeMeal"
    )]
    async fn log_meal(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<RecipeId>,
        body: Json<LogMealRequest>,
    ) -> Result<MealLogged, ApiError> {
        let me = user.require_to_save("save meals")?;
        let recipe = id.0;
        let child = body.0.child_id.trim().parse::<ChildId>().map_err(|_| {
            crate::domain::Invalid::new(
                "Error saving meal",
                "Please choose one of your children",
                "childId",
            )
        })?;
        let meal = recipes::log_meal(
            &app,
            me.user.family_id,
            recipe,
            child,
            body.0.meal_type,
            body.0.eaten_at,
        )
        .await?;
        Ok(MealLogged::Created(Json(meal.into())))
    }
}
