//! `GET /api/ingredients`: the built-in ingredient catalogue for the recipe form's picker, and
//! which of its ingredients a request's allergies and restrictions (and a signed-in family's
//! children's allergies) would leave out.

use std::sync::LazyLock;

use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

use super::json::JsonBytes;
use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::generator::catalogue::{Catalogue, Item, Unit};
use crate::i18n::Lang;
use crate::i18n::foods::food_name;

/// Nutrition per 100 g (or 100 ml).
#[derive(Debug, Object, serde::Serialize)]
pub struct Per100Dto {
    pub calories: f64,
    pub protein: f64,
    pub carbs: f64,
    pub fat: f64,
}

#[derive(Debug, Object, serde::Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct IngredientDto {
    /// The catalogue's (English) name: what a recipe request names.
    pub name: String,
    /// The name in the language of the request, to show.
    pub label: String,
    /// Of the 14 UK/EU allergens: celery, gluten, crustaceans, eggs, fish, lupin, milk,
    /// molluscs, mustard, tree_nuts, peanuts, sesame, soya, sulphites.
    pub allergens: Vec<String>,
    /// The grocery list category it is shopped under.
    pub grocery_category: String,
    /// `g`, `ml` or `piece`.
    pub unit: String,
    /// A typical price per 100 g, per 100 ml, or per piece, in `currency`.
    pub price: f64,
    pub nutrition: Per100Dto,
}

#[derive(Debug, Object, serde::Serialize)]
pub struct SubcategoryDto {
    pub name: String,
    /// The name in the language of the request.
    pub label: String,
    pub ingredients: Vec<IngredientDto>,
}

#[derive(Debug, Object, serde::Serialize)]
pub struct CategoryDto {
    pub name: String,
    /// The name in the language of the request.
    pub label: String,
    pub subcategories: Vec<SubcategoryDto>,
}

#[derive(Debug, Object, serde::Serialize)]
pub struct IngredientCatalogue {
    /// The server's configured currency; prices are typical UK prices.
    pub currency: String,
    pub categories: Vec<CategoryDto>,
}

fn ingredient(item: &Item, lang: Lang) -> IngredientDto {
    IngredientDto {
        name: item.name.clone(),
        label: food_name(lang, &item.name),
        allergens: item.allergens.clone(),
        grocery_category: item.grocery.clone(),
        unit: match item.unit {
            Unit::G => "g",
            Unit::Ml => "ml",
            Unit::Piece => "piece",
        }
        .into(),
        price: item.price,
        nutrition: Per100Dto {
            calories: item.nutrition.calories,
            protein: item.nutrition.protein,
            carbs: item.nutrition.carbs,
            fat: item.nutrition.fat,
        },
    }
}

/// The catalogue never changes while the server runs: serialised once per currency and
/// language.
fn render(currency: &str, lang: Lang) -> Vec<u8> {
    let c = Catalogue::get();
    let dto = IngredientCatalogue {
        currency: currency.to_string(),
        categories: c
            .categories
            .iter()
            .map(|cat| CategoryDto {
                name: cat.name.clone(),
                label: food_name(lang, &cat.name),
                subcategories: cat
                    .subcategories
                    .iter()
                    .map(|s| SubcategoryDto {
                        name: s.name.clone(),
                        label: food_name(lang, &s.name),
                        ingredients: s.ingredients.iter().map(|i| ingredient(i, lang)).collect(),
                    })
                    .collect(),
            })
            .collect(),
    };
    serde_json::to_vec(&dto).unwrap_or_default()
}

/// The rendered catalogue by language, with the currency it was rendered for.
type Rendered = Vec<(Lang, String, std::sync::Arc<[u8]>)>;

static RENDERED: LazyLock<std::sync::Mutex<Rendered>> =
    LazyLock::new(|| std::sync::Mutex::new(Vec::new()));

#[derive(ApiResponse)]
pub enum CatalogueResponse {
    #[oai(status = 200)]
    Ok(
        JsonBytes<IngredientCatalogue>,
        #[oai(header = "Cache-Control")] String,
        #[oai(header = "Vary")] String,
    ),
}

/// The allergies and restrictions a recipe request is about to carry.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct IngredientCheckRequest {
    #[oai(default)]
    pub allergies: Vec<String>,
    #[oai(default)]
    pub dietary_restrictions: Vec<String>,
}

/// A catalogue ingredient a request would leave out.
#[derive(Debug, Object)]
pub struct LeftOutDto {
    pub name: String,
    /// "Eggs was left out: Ava is allergic to eggs."
    pub reason: String,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct IngredientCheck {
    /// In catalogue order; empty when nothing is left out.
    pub left_out: Vec<LeftOutDto>,
}

#[derive(Default)]
pub struct IngredientsApi;

#[OpenApi(tag = "ApiTags::Recipes")]
impl IngredientsApi {
    /// The built-in ingredient catalogue: categories, subcategories and ingredients with their
    /// allergens, grocery category, typical price and nutrition per 100 g.
    #[oai(
        path = "/ingredients",
        method = "get",
        operation_id = "listIngredients"
    )]
    async fn list(&self, app: poem::web::Data<&crate::app::App>) -> CatalogueResponse {
        let currency = &app.settings().money.currency;
        let lang = crate::i18n::scope::current();
        let mut rendered = RENDERED.lock().unwrap_or_else(|p| p.into_inner());
        let bytes = match rendered
            .iter()
            .find(|(l, c, _)| *l == lang && c == currency)
        {
            Some((_, _, bytes)) => bytes.clone(),
            None => {
                let bytes: std::sync::Arc<[u8]> = render(currency, lang).into();
                rendered.retain(|(l, _, _)| *l != lang);
                rendered.push((lang, currency.clone(), bytes.clone()));
                bytes
            }
        };
        CatalogueResponse::Ok(
            JsonBytes::new(bytes),
            "public, max-age=3600".into(),
            "Accept-Language".into(),
        )
    }

    /// Which catalogue ingredients a recipe request with these allergies and restrictions
    /// would leave out, and why; for a signed-in member the children's allergies count too
    /// (anyone may ask, as anyone may generate).
    #[oai(
        path = "/ingredients/check",
        method = "post",
        operation_id = "checkIngredients"
    )]
    async fn check(
        &self,
        app: poem::web::Data<&crate::app::App>,
        user: CurrentUser,
        body: Json<IngredientCheckRequest>,
    ) -> Result<Json<IngredientCheck>, ApiError> {
        let family = user.0.map(|me| me.user.family_id);
        let left_out = crate::service::generation::left_out_ingredients(
            &app,
            family,
            &body.0.allergies,
            &body.0.dietary_restrictions,
        )
        .await?;
        Ok(Json(IngredientCheck {
            left_out: left_out
                .into_iter()
                .map(|(name, reason)| LeftOutDto { name, reason })
                .collect(),
        }))
    }
}
