//! `GET /api/site`: what the public pages need to know about this server.

use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi};

use super::ApiTags;
use crate::app::App;

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SiteInfo {
    pub version: String,
    /// Whether visitors may create accounts here.
    pub allow_signup: bool,
    /// Whether the sign-up form works now: sign-up is allowed, or the server has no account yet
    /// (the first account can always be created).
    pub signup_open: bool,
    /// Whether visitors may try Highchair as a guest.
    pub allow_guests: bool,
    /// ISO 4217 code used for prices.
    pub currency: String,
    /// Estimated price of one grocery item.
    pub grocery_item_estimate: f64,
    /// Where the contact page says messages can also be e-mailed; empty when not set.
    pub contact_email: String,
}

#[derive(Default)]
pub struct SiteApi;

#[OpenApi(tag = "ApiTags::Site")]
impl SiteApi {
    /// Public facts about this server for the UI.
    #[oai(path = "/site", method = "get", operation_id = "getSite")]
    async fn site(&self, app: Data<&App>) -> Json<SiteInfo> {
        let s = app.settings();
        Json(SiteInfo {
            version: env!("CARGO_PKG_VERSION").into(),
            allow_signup: s.auth.allow_signup,
            signup_open: crate::service::accounts::signup_open(&app).await,
            allow_guests: s.auth.allow_guests,
            currency: s.money.currency.clone(),
            grocery_item_estimate: s.money.grocery_item_estimate,
            contact_email: s.server.contact_email.clone(),
        })
    }
}
