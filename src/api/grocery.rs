//! `/api/grocery-lists`: a family's grocery lists, one-item ticks, drafts from saved recipes
//! or from a week's meal plan, and exports (a real file download).

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::children::Deleted;
use super::etag::{Cached, family_answer, serde_bytes};
use super::file::Exported;
use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::grocery::{GroceryItem, ItemDraft};
use crate::domain::ids::{GroceryItemId, GroceryListId};
use crate::i18n::Text;
use crate::service::grocery::{self, Format, PricedList};
use crate::service::meal_plan;

/// Also `Serialize` (same names) for the cached list path; a test checks both give the same JSON.
#[derive(Debug, Clone, Object, serde::Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct GroceryItemDto {
    pub id: String,
    pub name: String,
    pub quantity: String,
    /// One of the spec's 15 categories.
    pub category: String,
    pub checked: bool,
    /// When the tick was last set.
    #[oai(nullable)]
    #[serde(with = "super::json::rfc3339_opt")]
    pub checked_at: Option<DateTime<Utc>>,
    /// The catalogue's price for this quantity, when it knows the food; the list's estimate
    /// uses the per-item figure otherwise.
    #[oai(nullable)]
    pub known_price: Option<f64>,
}

impl GroceryItemDto {
    fn new(i: &GroceryItem, known_price: Option<f64>) -> Self {
        GroceryItemDto {
            id: i.id.to_string(),
            name: i.name.clone(),
            quantity: i.quantity.clone(),
            category: i.category.clone(),
            checked: i.checked,
            checked_at: i.checked_at,
            known_price,
        }
    }
}

#[derive(Debug, Clone, Object, serde::Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct GroceryListDto {
    pub id: String,
    pub name: String,
    pub items: Vec<GroceryItemDto>,
    /// The estimated total in the configured currency, 2 decimals.
    pub estimated_total: f64,
    /// How many items were priced from the catalogue (the rest at the per-item estimate).
    pub priced_items: u32,
    #[serde(with = "super::json::rfc3339")]
    pub created_at: DateTime<Utc>,
    #[serde(with = "super::json::rfc3339")]
    pub updated_at: DateTime<Utc>,
    /// +1 with every change; send it back with a save.
    pub version: u64,
}

impl From<&PricedList> for GroceryListDto {
    fn from(p: &PricedList) -> Self {
        let list = &p.list;
        GroceryListDto {
            id: list.id.to_string(),
            name: list.name.clone(),
            items: list
                .items
                .iter()
                .zip(&p.known_prices)
                .map(|(i, price)| GroceryItemDto::new(i, *price))
                .collect(),
            estimated_total: p.total,
            priced_items: p.priced_items as u32,
            created_at: list.created_at,
            updated_at: list.updated_at,
            version: list.version,
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct ItemInput {
    /// The item's id when it is already on the list; none for a new item.
    pub id: Option<String>,
    #[oai(default)]
    pub name: String,
    #[oai(default)]
    pub quantity: String,
    #[oai(default)]
    pub category: String,
    #[oai(default)]
    pub checked: bool,
}

impl From<&ItemInput> for ItemDraft {
    fn from(i: &ItemInput) -> Self {
        ItemDraft {
            name: i.name.clone(),
            quantity: i.quantity.clone(),
            category: i.category.clone(),
            checked: i.checked,
        }
    }
}

#[derive(Debug, Object)]
pub struct ListInput {
    #[oai(default)]
    pub name: String,
    #[oai(default)]
    pub items: Vec<ItemInput>,
    /// On a save, required: the version the edit was made from (400 without it); a stale one
    /// answers 409.
    pub version: Option<u64>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct TickInput {
    pub checked: bool,
    /// When the tick was made (an offline tick arrives late); now when missing.
    pub at: Option<DateTime<Utc>>,
}

#[derive(Debug, Object)]
pub struct TickResult {
    /// False when a later tick of the item was already there (it stays).
    pub applied: bool,
    pub list: GroceryListDto,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FromRecipesInput {
    #[oai(default)]
    pub recipe_ids: Vec<String>,
}

#[derive(Debug, Object)]
pub struct FromMealPlanInput {
    /// An ISO week (2026-W48); the current week (UTC) when missing.
    pub week: Option<String>,
}

/// An unsaved list: save it with POST /api/grocery-lists.
#[derive(Debug, Object)]
pub struct ListDraft {
    pub name: String,
    pub items: Vec<ItemInput>,
    /// What items mean for the family's children (allergies, choking, age rules), by item
    /// name; items with nothing to say are left out.
    pub notes: Vec<ItemNotes>,
}

/// What one item means for the family's children.
#[derive(Debug, Clone, Object)]
pub struct ItemNotes {
    /// The item's name, as in `items`.
    pub name: String,
    /// "Leo is allergic: Butter contains milk (butter)", "For Leo (9 months): quarter the
    /// grapes lengthways".
    pub notes: Vec<String>,
}

/// An item being written, to be estimated.
#[derive(Debug, Clone, Object)]
pub struct EstimateItemInput {
    #[oai(default)]
    pub name: String,
    #[oai(default)]
    pub quantity: String,
}

#[derive(Debug, Clone, Object)]
pub struct EstimateInput {
    /// The items as the form holds them (at most 500).
    #[oai(default)]
    pub items: Vec<EstimateItemInput>,
}

/// What the saved list would show of an item.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct EstimatedItem {
    /// The category a shopper would look for it under (the parent may choose another).
    pub suggested_category: String,
    #[oai(nullable)]
    pub known_price: Option<f64>,
}

/// Items estimated the way a saved list is.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct ListEstimate {
    /// In the order sent.
    pub items: Vec<EstimatedItem>,
    /// The estimated total in the configured currency, 2 decimals.
    pub estimated_total: f64,
    pub priced_items: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum ExportFormat {
    Txt,
    Csv,
    Md,
}

#[derive(ApiResponse)]
pub enum ListCreated {
    #[oai(status = 201)]
    Created(Json<GroceryListDto>),
}

/// A merged draft as the API sends it.
fn draft(d: grocery::Draft) -> ListDraft {
    ListDraft {
        name: d.name,
        notes: d
            .notes
            .into_iter()
            .map(|(name, notes)| ItemNotes {
                name,
                notes: notes.iter().map(Text::here).collect(),
            })
            .collect(),
        items: d
            .items
            .into_iter()
            .map(|d| ItemInput {
                id: None,
                name: d.name,
                quantity: d.quantity,
                category: d.category,
                checked: d.checked,
            })
            .collect(),
    }
}

fn body_items(items: &[ItemInput]) -> Vec<ItemDraft> {
    items.iter().map(ItemDraft::from).collect()
}

#[derive(Default)]
pub struct GroceryApi;

#[OpenApi(tag = "ApiTags::Grocery")]
impl GroceryApi {
    /// The family's lists, newest first. The ETag follows the family's revision:
    /// `If-None-Match` with it answers 304 until something changes.
    #[oai(
        path = "/grocery-lists",
        method = "get",
        operation_id = "listGroceryLists"
    )]
    async fn list(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        req: &poem::Request,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<Cached<Vec<GroceryListDto>>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view grocery lists"))?;
        let family = me.user.family_id;
        family_answer(
            &app,
            req,
            family,
            "grocery-lists",
            if_none_match.0.as_deref(),
            async || {
                let lists = grocery::list(&app, family).await?;
                let dtos: Vec<_> = lists.iter().map(GroceryListDto::from).collect();
                serde_bytes(&dtos, "grocery lists")
            },
        )
        .await
    }

    #[oai(
        path = "/grocery-lists",
        method = "post",
        operation_id = "createGroceryList"
    )]
    async fn create(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<ListInput>,
    ) -> Result<ListCreated, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save grocery lists"))?;
        let list = grocery::create(
            &app,
            me.user.family_id,
            &body.0.name,
            &body_items(&body.0.items),
        )
        .await?;
        Ok(ListCreated::Created(Json(GroceryListDto::from(&list))))
    }

    #[oai(
        path = "/grocery-lists/:id",
        method = "get",
        operation_id = "getGroceryList"
    )]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<GroceryListId>,
    ) -> Result<Json<GroceryListDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view grocery lists"))?;
        let list = grocery::get(&app, me.user.family_id, id.0).await?;
        Ok(Json(GroceryListDto::from(&list)))
    }

    /// Saves the whole list, only if nobody changed it since `version` (required; 409
    /// otherwise, with the list as it is now).
    #[oai(
        path = "/grocery-lists/:id",
        method = "put",
        operation_id = "updateGroceryList"
    )]
    async fn update(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<GroceryListId>,
        body: Json<ListInput>,
    ) -> Result<Json<GroceryListDto>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save grocery lists"))?;
        let items: Vec<(Option<String>, ItemDraft)> = body
            .0
            .items
            .iter()
            .map(|i| (i.id.clone(), ItemDraft::from(i)))
            .collect();
        let list = grocery::update(
            &app,
            me.user.family_id,
            id.0,
            body.0.version,
            &body.0.name,
            &items,
        )
        .await?;
        Ok(Json(GroceryListDto::from(&list)))
    }

    #[oai(
        path = "/grocery-lists/:id",
        method = "delete",
        operation_id = "deleteGroceryList"
    )]
    async fn delete(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<GroceryListId>,
    ) -> Result<Deleted, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to delete grocery lists"))?;
        grocery::delete(&app, me.user.family_id, id.0).await?;
        Ok(Deleted::Done)
    }

    /// Ticks or unticks one item, without touching the rest of the list.
    #[oai(
        path = "/grocery-lists/:id/items/:itemId",
        method = "patch",
        operation_id = "tickGroceryItem"
    )]
    async fn tick(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<GroceryListId>,
        #[oai(name = "itemId")] item_id: Path<GroceryItemId>,
        body: Json<TickInput>,
    ) -> Result<Json<TickResult>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save grocery lists"))?;
        tick_item(&app, me.user.family_id, id.0, item_id.0, body.0).await
    }

    /// Estimates items not saved yet exactly as a saved list is estimated (the form and the
    /// card show one total), and suggests each item's category from its name.
    #[oai(
        path = "/grocery-lists/estimate",
        method = "post",
        operation_id = "estimateGroceryItems"
    )]
    async fn estimate(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<EstimateInput>,
    ) -> Result<Json<ListEstimate>, ApiError> {
        user.require_to_view(t!("You must be logged in to view grocery lists"))?;
        let items: Vec<(String, String)> = body
            .0
            .items
            .into_iter()
            .map(|i| (i.name, i.quantity))
            .collect();
        let (priced, total, known) = grocery::estimate_items(&app, &items)?;
        Ok(Json(ListEstimate {
            items: priced
                .into_iter()
                .map(|p| EstimatedItem {
                    suggested_category: p.category.to_string(),
                    known_price: p.known_price,
                })
                .collect(),
            estimated_total: total,
            priced_items: known as u32,
        }))
    }

    /// An unsaved list merged from saved recipes (spec section 3's rules, amounts added where
    /// their units agree, categories from the ingredient catalogue).
    #[oai(
        path = "/grocery-lists/from-recipes",
        method = "post",
        operation_id = "groceryListFromRecipes"
    )]
    async fn draft_from_recipes(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<FromRecipesInput>,
    ) -> Result<Json<ListDraft>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save grocery lists"))?;
        let found = grocery::from_recipes(&app, me.user.family_id, &body.0.recipe_ids).await?;
        Ok(Json(draft(found)))
    }

    /// An unsaved list from a week's meal plan: the planned recipes' ingredients, each
    /// recipe's quantities scaled to the planned servings, merged as from saved recipes.
    #[oai(
        path = "/grocery-lists/from-meal-plan",
        method = "post",
        operation_id = "groceryListFromMealPlan"
    )]
    async fn draft_from_meal_plan(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<FromMealPlanInput>,
    ) -> Result<Json<ListDraft>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to save grocery lists"))?;
        let week = meal_plan::week_or_current(body.0.week.as_deref())?;
        let found = grocery::from_meal_plan(&app, me.user.family_id, week).await?;
        Ok(Json(draft(found)))
    }

    /// The list as a file: plain text, CSV or Markdown, grouped by category.
    #[oai(
        path = "/grocery-lists/:id/export",
        method = "get",
        operation_id = "exportGroceryList"
    )]
    async fn export(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<GroceryListId>,
        format: Query<Option<ExportFormat>>,
    ) -> Result<Exported, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view grocery lists"))?;
        let list = grocery::get(&app, me.user.family_id, id.0).await?;
        let format = match format.0.unwrap_or(ExportFormat::Txt) {
            ExportFormat::Txt => Format::Text,
            ExportFormat::Csv => Format::Csv,
            ExportFormat::Md => Format::Markdown,
        };
        let (file, content_type, body) = grocery::export(&list.list, format);
        Ok(Exported::attachment(body, content_type, &file))
    }
}

/// One item ticked or unticked in a family's list (a parent's tick, or a co-parent's).
pub(super) async fn tick_item(
    app: &App,
    family: crate::domain::ids::FamilyId,
    list: GroceryListId,
    item: GroceryItemId,
    body: TickInput,
) -> Result<Json<TickResult>, ApiError> {
    let (list, applied) = grocery::tick(app, family, list, item, body.checked, body.at).await?;
    Ok(Json(TickResult {
        applied,
        list: GroceryListDto::from(&list),
    }))
}
