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
    /// The language for a browser that asks for none the UI speaks (`[server] language`).
    pub default_language: super::profile::Language,
    /// Where the contact page says messages can also be e-mailed; empty when not set.
    pub contact_email: String,
    /// The rules the server checks, for the forms to check the same before sending.
    pub rules: Rules,
}

/// The server's rules that the UI checks too: one home (the domain's constants), served here
/// and committed as `ui/src/api/rules.json` for the UI's forms (a test keeps the copy current;
/// the UI is built into the same binary, so the copy cannot drift from the server it ships in).
#[derive(Debug, Clone, PartialEq, Object, serde::Serialize, serde::Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct Rules {
    /// Grocery categories, in shop order; an item is in exactly one of them.
    pub grocery_categories: Vec<String>,
    /// The category of an item nobody chose one for.
    pub default_grocery_category: String,
    /// Most items on one grocery list.
    pub grocery_items_max: u32,
    /// Most characters in a name (a person's, a child's, a list's).
    pub name_max: u32,
    /// Most characters in an e-mail address.
    pub email_max: u32,
    /// Most characters in a longer text (a message, notes).
    pub general_text_max: u32,
    /// Fewest characters in a password.
    pub password_min: u32,
    /// Most children a guest may add.
    pub guest_children_max: u32,
    /// Digits in a co-parent's PIN.
    pub pin_length: u32,
    /// Wrong PINs for one link before it is blocked for a while.
    pub pin_attempts: u32,
    /// Days a co-parent's link works before it must be extended.
    pub link_days: u32,
}

/// The rules, from the domain's constants.
pub fn rules() -> Rules {
    use crate::domain::{co_parent, email, grocery, text, user};
    Rules {
        grocery_categories: grocery::CATEGORIES.iter().map(|c| c.to_string()).collect(),
        default_grocery_category: grocery::DEFAULT_CATEGORY.into(),
        grocery_items_max: grocery::ITEMS_MAX as u32,
        name_max: text::NAME_MAX as u32,
        email_max: email::EMAIL_MAX as u32,
        general_text_max: text::GENERAL_TEXT_MAX as u32,
        password_min: user::PASSWORD_MIN as u32,
        guest_children_max: user::GUEST_CHILDREN_MAX,
        pin_length: co_parent::PIN_LEN as u32,
        pin_attempts: co_parent::PIN_WINDOW_FAILURES,
        link_days: co_parent::LINK_DAYS as u32,
    }
}

/// `rules()` as the UI's committed copy holds it (`highchair openapi --rules`).
pub fn rules_json() -> String {
    serde_json::to_string_pretty(&rules()).unwrap_or_default()
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
            default_language: s.server.language.into(),
            contact_email: s.server.contact_email.clone(),
            rules: rules(),
        })
    }
}
