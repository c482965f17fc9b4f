//! The HTTP API under `/api`: one `#[OpenApi]` struct per resource, combined here.

pub mod auth;
pub mod children;
pub mod contact;
pub mod error;
pub mod health;
pub mod json;
pub mod meals;
pub mod media;
pub mod profile;
pub mod site;

use poem_openapi::{OpenApiService, Tags};

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
    /// Child profiles.
    Children,
    /// The meal log.
    Meals,
    /// Photos.
    Media,
}

pub type Apis = (
    health::HealthApi,
    site::SiteApi,
    contact::ContactApi,
    auth::AuthApi,
    profile::ProfileApi,
    children::ChildrenApi,
    meals::MealsApi,
    media::MediaApi,
);

/// The API with its OpenAPI document. State arrives per request through `Data<&App>`.
pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (
            health::HealthApi,
            site::SiteApi,
            contact::ContactApi,
            auth::AuthApi,
            profile::ProfileApi,
            children::ChildrenApi,
            meals::MealsApi,
            media::MediaApi,
        ),
        "Highchair",
        env!("CARGO_PKG_VERSION"),
    )
    .description(
        "The API of a self-hosted Highchair server. Every error answers \
         `{title, message, field}`; owner routes need the session cookie.",
    )
    .server("/api")
}

/// An id from a path. Anything that does not parse is as unknown as another family's id: 404.
pub(crate) fn path_id<T: std::str::FromStr>(raw: &str) -> Result<T, ApiError> {
    raw.parse()
        .map_err(|_| crate::domain::DomainError::NotFound.into())
}

/// The OpenAPI document as JSON (also served at `/api/openapi.json`).
pub fn spec_json() -> String {
    service().spec()
}
