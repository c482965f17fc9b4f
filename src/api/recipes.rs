//! `/api/recipes`: the family's saved recipes, and the recipe content both they and generated
//! ones are made of. Generation jobs are `api::generation`.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::children::Deleted;
use super::etag::{Cached, family_answer, openapi_bytes};
use super::file::Exported;
use super::meals::MealDto;
use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::ids::{ChildId, RecipeId};
use crate::domain::recipe::{
    self, Cost, Ingredient, Nutrition, RecipeContent, Source, Substitution,
};
use crate::domain::text::file_stem;
use crate::i18n::Text;
use crate::recipe_import::export;
use crate::service::recipe_import::{self, Drafted};
use crate::service::recipes::{self, Checked, Edit, Provenance};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum RecipeExportFormat {
    Jsonld,
    Html,
}

/// JSON-LD's own type; browsers save it as the JSON it is.
const JSON_LD: &str = "application/ld+json; charset=utf-8";

fn json_text(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

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
    /// Read from a web page, pasted text or another Highchair's export.
    Imported,
}

impl From<Source> for RecipeSource {
    fn from(s: Source) -> Self {
        match s {
            Source::Generated => RecipeSource::Generated,
            Source::Own => RecipeSource::Own,
            Source::Imported => RecipeSource::Imported,
        }
    }
}

impl From<RecipeSource> for Source {
    fn from(s: RecipeSource) -> Self {
        match s {
            RecipeSource::Generated => Source::Generated,
            RecipeSource::Own => Source::Own,
            RecipeSource::Imported => Source::Imported,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RecipeDto {
    pub id: String,
    pub source: RecipeSource,
    #[oai(flatten)]
    pub content: RecipeContentDto,
    /// The page an imported recipe came from.
    #[oai(nullable)]
    pub source_url: Option<String>,
    /// Its picture: `/api/media/{photoId}`.
    #[oai(nullable)]
    pub photo_id: Option<String>,
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
            safety_notes: c.safety_notes.iter().map(Text::here).collect(),
            id: r.id.to_string(),
            source: r.source.into(),
            source_url: r.source_url,
            photo_id: r.photo.map(|p| p.to_string()),
            content: r.content.into(),
            created_at: r.created_at,
            updated_at: r.updated_at,
            version: r.version,
        }
    }
}

/// A recipe to save: a generated one as it was shown, the family's own, or an imported draft
/// as the parent edited it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SaveRecipeRequest {
    #[oai(default)]
    pub source: RecipeSource,
    #[oai(flatten)]
    pub content: RecipeContentDto,
    /// The page it came from (http or https).
    #[oai(default)]
    pub source_url: String,
    /// An imported recipe's picture on the web: fetched once, kept as the family's photo.
    /// Saved without one when it cannot be fetched or read.
    #[oai(default)]
    pub image_url: String,
}

/// A saved recipe as the parent changed it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct UpdateRecipeRequest {
    /// The version the change is based on; another answers 409 with the recipe as it is.
    pub version: Option<u64>,
    #[oai(flatten)]
    pub content: RecipeContentDto,
    #[oai(default)]
    pub source_url: String,
    /// Removes its picture.
    #[oai(default)]
    pub remove_photo: bool,
}

/// What to import: a page's address (fetched), or its HTML or a recipe as text (or a
/// Highchair export), with the page's address when known (not fetched: the draft's source).
#[derive(Debug, Object)]
pub struct ImportRequest {
    pub url: Option<String>,
    pub html: Option<String>,
    pub text: Option<String>,
}

/// A recipe read from a page or a text, not saved: what the import form shows for editing.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ImportedRecipeDto {
    #[oai(flatten)]
    pub content: RecipeContentDto,
    #[oai(nullable)]
    pub source_url: Option<String>,
    /// Its picture on the web, fetched when the recipe is saved.
    #[oai(nullable)]
    pub image_url: Option<String>,
    /// What in it one of the family's children is allergic to.
    pub allergy_warnings: Vec<String>,
    /// Each child's choking and age notes.
    pub safety_notes: Vec<String>,
}

/// Every recipe found, in page order.
#[derive(Debug, Object)]
pub struct ImportedDto {
    pub recipes: Vec<ImportedRecipeDto>,
}

impl From<Drafted> for ImportedRecipeDto {
    fn from(d: Drafted) -> Self {
        ImportedRecipeDto {
            content: d.content.into(),
            source_url: d.source_url,
            image_url: d.image_url,
            allergy_warnings: d.warnings,
            safety_notes: d.safety_notes.iter().map(Text::here).collect(),
        }
    }
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
        let me = user.require_to_view(t!("You must be logged in to view recipes"))?;
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
        let me = user.require_to_save(t!("You must be logged in to save recipes"))?;
        let body = body.0;
        let provenance = Provenance {
            source: body.source.into(),
            source_url: body.source_url,
            image_url: Some(body.image_url),
        };
        let saved = recipes::save(&app, &me.user, provenance, body.content.into()).await?;
        Ok(RecipeCreated::Created(Json(saved.into())))
    }

    /// Reads a recipe from a web page (`url`: the server fetches it, guarded), a page's HTML
    /// (`html`) or a text (`text`: as copied from a book or a message, or a Highchair export).
    /// Nothing is saved: the drafts come back checked against the children's allergies and
    /// ages, to edit and save. A page may hold several recipes.
    #[oai(
        path = "/recipes/import",
        method = "post",
        operation_id = "importRecipe"
    )]
    async fn import(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<ImportRequest>,
    ) -> Result<Json<ImportedDto>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to import recipes"))?;
        let body = body.0;
        let request = recipe_import::ImportRequest {
            url: body.url,
            html: body.html,
            text: body.text,
        };
        let drafts = recipe_import::import(&app, &me.user, request).await?;
        Ok(Json(ImportedDto {
            recipes: drafts.into_iter().map(Into::into).collect(),
        }))
    }

    /// Every saved recipe of the family as one schema.org JSON-LD file; importing it into a
    /// Highchair gives the same recipes.
    #[oai(
        path = "/recipes/export",
        method = "get",
        operation_id = "exportRecipes"
    )]
    async fn export_all(&self, app: Data<&App>, user: CurrentUser) -> Result<Exported, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view recipes"))?;
        let list = recipes::list(&app, me.user.family_id).await?;
        let saved: Vec<_> = list.into_iter().map(|c| c.recipe).collect();
        Ok(Exported::attachment(
            json_text(&export::all(&saved)),
            JSON_LD,
            "highchair-recipes.json",
        ))
    }

    /// One saved recipe as a file: schema.org JSON-LD (`format=jsonld`, the default), or a
    /// page to print or keep (`format=html`: plain HTML with the children's warnings and notes,
    /// and the JSON-LD inside).
    #[oai(
        path = "/recipes/:id/export",
        method = "get",
        operation_id = "exportRecipe"
    )]
    async fn export(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<RecipeId>,
        format: Query<Option<RecipeExportFormat>>,
    ) -> Result<Exported, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view recipes"))?;
        let found = recipes::get(&app, me.user.family_id, id.0).await?;
        let stem = file_stem(&found.recipe.content.title, "recipe");
        Ok(match format.0.unwrap_or(RecipeExportFormat::Jsonld) {
            RecipeExportFormat::Jsonld => Exported::attachment(
                json_text(&export::recipe(&found.recipe)),
                JSON_LD,
                &format!("{stem}.json"),
            ),
            RecipeExportFormat::Html => Exported::attachment(
                export::html(
                    &found.recipe,
                    &found.warnings,
                    &found
                        .safety_notes
                        .iter()
                        .map(Text::here)
                        .collect::<Vec<_>>(),
                ),
                "text/html; charset=utf-8",
                &format!("{stem}.html"),
            ),
        })
    }

    /// Changes a saved recipe: its content, source address, or removes its picture.
    #[oai(path = "/recipes/:id", method = "put", operation_id = "updateRecipe")]
    async fn update(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<RecipeId>,
        body: Json<UpdateRecipeRequest>,
    ) -> Result<Json<RecipeDto>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save recipes"))?;
        let body = body.0;
        let edit = Edit {
            content: body.content.into(),
            source_url: body.source_url,
            remove_photo: body.remove_photo,
        };
        let saved = recipes::update(&app, me.user.family_id, id.0, body.version, edit).await?;
        Ok(Json(saved.into()))
    }

    #[oai(path = "/recipes/:id", method = "get", operation_id = "getRecipe")]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<RecipeId>,
    ) -> Result<Json<RecipeDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view recipes"))?;
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
        let me = user.require_to_save(t!("You must be logged in to delete recipes"))?;
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
        let me = user.require_to_save(t!("You must be logged in to save meals"))?;
        let recipe = id.0;
        let child = body.0.child_id.trim().parse::<ChildId>().map_err(|_| {
            crate::domain::Invalid::new(
                t!("Error saving meal"),
                t!("Please choose one of your children"),
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
