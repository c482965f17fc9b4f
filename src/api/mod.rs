//! The HTTP API under `/api`: one `#[OpenApi]` struct per resource, combined here.

pub mod allergens;
pub mod auth;
pub mod children;
pub mod client;
pub mod co_parents;
pub mod contact;
pub mod error;
pub mod etag;
pub mod events;
pub mod family;
pub mod file;
pub mod food_safety;
pub mod generation;
pub mod grocery;
pub mod health;
pub mod ingredients;
pub mod json;
pub mod meal_plan;
pub mod meals;
pub mod media;
pub mod page_cache;
mod path_ids;
pub mod profile;
pub mod recipes;
pub mod session;
pub mod share;
pub mod site;
pub mod sse;

use poem_openapi::{OpenApiService, Tags};

pub use client::ClientInfo;
pub use error::{ApiError, ErrorBody};

#[derive(Tags)]
pub enum ApiTags {
    /// Server status and public site information.
    Site,
    /// The public contact form.
    Contact,
    /// Accounts, sign-in and sessions.
    Auth,
    /// The signed-in user's profile.
    Profile,
    /// The adults who share a family, and invite links for another parent.
    Family,
    /// Child profiles.
    Children,
    /// The meal log.
    Meals,
    /// Photos.
    Media,
    /// The ingredient catalogue, recipe generation and saved recipes.
    Recipes,
    /// Grocery lists.
    Grocery,
    /// The weekly meal plan.
    MealPlan,
    /// The family's change feed.
    Events,
    /// Co-parents: invited by a parent, reached through a link plus a PIN.
    CoParents,
    /// What a co-parent's link opens (the link's token is the key).
    Share,
}

/// Two groups: std implements `Default` for tuples of up to 12.
pub type Apis = (
    (
        health::HealthApi,
        site::SiteApi,
        contact::ContactApi,
        auth::AuthApi,
        profile::ProfileApi,
        family::FamilyApi,
    ),
    (
        children::ChildrenApi,
        meals::MealsApi,
        media::MediaApi,
        ingredients::IngredientsApi,
        generation::GenerationApi,
        recipes::RecipesApi,
        grocery::GroceryApi,
        meal_plan::MealPlanApi,
        events::EventsApi,
        co_parents::CoParentsApi,
        share::ShareApi,
    ),
);

/// The API with its OpenAPI document. State arrives per request through `Data<&App>`.
pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(Apis::default(), "Highchair", env!("CARGO_PKG_VERSION"))
        .description(
            "The API of a self-hosted Highchair server. Every error answers \
         `{title, message, field}`; owner routes need the session cookie.",
        )
        .server("/api")
}

/// A JSON value from a lenient number field ("age": 4, "4", "" or null) for the domain's rules.
pub(crate) fn number_input(value: Option<serde_json::Value>) -> crate::domain::number::NumberInput {
    use crate::domain::number::NumberInput;
    match value {
        None | Some(serde_json::Value::Null) => NumberInput::Absent,
        Some(serde_json::Value::Number(n)) => {
            n.as_f64().map_or(NumberInput::Other, NumberInput::Number)
        }
        Some(serde_json::Value::String(s)) => NumberInput::Text(s),
        Some(_) => NumberInput::Other,
    }
}

/// The OpenAPI document as JSON (also served at `/api/openapi.json`).
pub fn spec_json() -> String {
    service().spec()
}
