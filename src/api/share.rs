//! `/api/share/{token}`: what a co-parent's link opens. Anyone with the link may ask what it is
//! for and try a PIN; everything else needs the share session cookie, which is scoped to this
//! one link's path, so it never reaches an owner route or another link. A share session reads
//! the family's children, meals (with photos), grocery lists and meal plan, follows their
//! changes, and makes one kind of write: ticking a grocery item.

use chrono::{DateTime, Utc};
use poem::Request;
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::allergens::AllergenIntroDto;
use super::children::ChildDto;
use super::client::ClientInfo;
use super::events::EventsResponse;
use super::grocery::{GroceryListDto, TickInput, TickResult};
use super::meal_plan::MealPlanDto;
use super::meals::{MealDto, MealPage};
use super::media::MediaResponse;
use super::session::{cookie_of, secure_cookies};
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::auth::tokens::{LinkToken, ShareSessionToken};
use crate::domain::co_parent::{CoParent, ShareState};
use crate::domain::ids::{ChildId, GroceryItemId, GroceryListId, MediaId};
use crate::domain::meal::Meal;
use crate::service::share::{self, Opened, Viewer};
use crate::service::{children, grocery, meal_plan, meals, photos};

/// The share session cookie: HttpOnly, SameSite=Strict, sent only under its link's path.
pub const SHARE_COOKIE: &str = "highchair_share";

fn share_cookie(token: &str, value: &str, max_age_secs: i64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    // The token is a parsed UUID by the time a cookie is set; its path cannot carry `;`.
    format!(
        "{SHARE_COOKIE}={value}; Path=/api/share/{token}; Max-Age={max_age_secs}; HttpOnly; SameSite=Strict{secure}"
    )
}

/// Whether the co-parent has yet to open the link with the PIN the parent shared (pending) or
/// has done so (active).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum ShareInvitationState {
    Pending,
    Active,
}

/// What a co-parent's link is for.
#[derive(Debug, Object)]
pub struct ShareInvitation {
    /// The co-parent's name, as the parent entered it.
    pub name: String,
    pub state: ShareInvitationState,
}

impl From<&CoParent> for ShareInvitation {
    fn from(c: &CoParent) -> Self {
        ShareInvitation {
            state: match c.share_state() {
                ShareState::Pending => ShareInvitationState::Pending,
                ShareState::Active => ShareInvitationState::Active,
            },
            name: c.name.clone(),
        }
    }
}

/// A co-parent's open session.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ShareSessionInfo {
    /// 'Viewing as: <name>'.
    pub name: String,
    pub state: ShareInvitationState,
    /// When the link itself stops working (the owner can extend it).
    pub link_expires_at: DateTime<Utc>,
}

impl From<&CoParent> for ShareSessionInfo {
    fn from(c: &CoParent) -> Self {
        let invitation = ShareInvitation::from(c);
        ShareSessionInfo {
            name: invitation.name,
            state: invitation.state,
            link_expires_at: c.expires_at,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ChoosePinRequest {
    #[oai(default)]
    pub pin: String,
    #[oai(default)]
    pub confirm_pin: String,
}

#[derive(Debug, Object)]
pub struct PinRequest {
    /// The 6-digit PIN; a missing one counts as a wrong one.
    pub pin: Option<String>,
}

#[derive(ApiResponse)]
pub enum PinChosen {
    /// The PIN is set and the share session cookie with it (24 hours).
    #[oai(status = 201)]
    Created(Json<ShareSessionInfo>, #[oai(header = "Set-Cookie")] String),
}

#[derive(ApiResponse)]
pub enum SessionOpened {
    /// Signed in: the share session cookie is set (24 hours).
    #[oai(status = 200)]
    Ok(Json<ShareSessionInfo>, #[oai(header = "Set-Cookie")] String),
}

#[derive(ApiResponse)]
pub enum SessionEnded {
    /// The session is over and its cookie cleared.
    #[oai(status = 204)]
    Done(#[oai(header = "Set-Cookie")] String),
}

/// The share cookie a request carries.
fn session_cookie(req: &Request) -> Option<ShareSessionToken> {
    cookie_of(req, SHARE_COOKIE).map(ShareSessionToken::from_client)
}

/// The link's token from the path.
fn link(token: &str) -> LinkToken {
    LinkToken::from_client(token)
}

async fn viewer(app: &App, token: &str, req: &Request) -> Result<Viewer, ApiError> {
    Ok(share::viewer(app, &link(token), session_cookie(req).as_ref()).await?)
}

/// A meal as a co-parent reads it: its photo under this link's path.
fn shared_meal(token: &str, meal: Meal) -> MealDto {
    MealDto::with_photos_under(meal, &format!("/api/share/{token}/media"))
}

#[derive(Default)]
pub struct ShareApi;

#[OpenApi(tag = "ApiTags::Share", prefix_path = "/share")]
impl ShareApi {
    /// Checks a co-parent's link: 404 'Invalid or expired invitation' when unknown, 410 when
    /// expired.
    #[oai(path = "/:token", method = "get", operation_id = "getShareInvitation")]
    async fn invitation(
        &self,
        app: Data<&App>,
        token: Path<String>,
    ) -> Result<Json<ShareInvitation>, ApiError> {
        let co_parent = share::invitation(&app, &link(&token.0)).await?;
        Ok(Json(ShareInvitation::from(&co_parent)))
    }

    /// A co-parent signed in with the PIN the parent shared chooses their own (strength rules
    /// of spec section 5): it replaces the old one, ends the link's other sessions and signs
    /// this browser in again. Without a live session of this link: 401.
    #[oai(path = "/:token/pin", method = "post", operation_id = "chooseSharePin")]
    async fn choose_pin(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        token: Path<String>,
        body: Json<ChoosePinRequest>,
    ) -> Result<PinChosen, ApiError> {
        let opened = share::choose_pin(
            &app,
            &link(&token.0),
            session_cookie(req).as_ref(),
            &body.0.pin,
            &body.0.confirm_pin,
            &client.key(),
        )
        .await?;
        let (info, cookie) = opened_parts(&app, &client, &opened);
        Ok(PinChosen::Created(info, cookie))
    }

    /// Whether this browser has a live share session for the link (401 'Your session has
    /// expired. Please enter your PIN again.' otherwise).
    #[oai(
        path = "/:token/session",
        method = "get",
        operation_id = "getShareSession"
    )]
    async fn session(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
    ) -> Result<Json<ShareSessionInfo>, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        Ok(Json(ShareSessionInfo::from(&viewer.co_parent)))
    }

    /// Signs a co-parent in with their PIN. Refused with 429 and `Retry-After` when the link,
    /// the client's address or the server has had too many attempts, and until the owner
    /// resets the PIN once the link has had 10 wrong PINs.
    #[oai(
        path = "/:token/session",
        method = "post",
        operation_id = "openShareSession"
    )]
    async fn sign_in(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        token: Path<String>,
        body: Json<PinRequest>,
    ) -> Result<SessionOpened, ApiError> {
        let opened =
            share::sign_in(&app, &link(&token.0), body.0.pin.as_deref(), &client.key()).await?;
        let (info, cookie) = opened_parts(&app, &client, &opened);
        Ok(SessionOpened::Ok(info, cookie))
    }

    /// Ends this browser's share session (Logout).
    #[oai(
        path = "/:token/session",
        method = "delete",
        operation_id = "closeShareSession"
    )]
    async fn sign_out(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        token: Path<String>,
    ) -> Result<SessionEnded, ApiError> {
        let link = share::sign_out(&app, &link(&token.0), session_cookie(req).as_ref()).await?;
        let secure = secure_cookies(&app, &client);
        Ok(SessionEnded::Done(share_cookie(&link, "", 0, secure)))
    }

    /// The family's children.
    #[oai(
        path = "/:token/children",
        method = "get",
        operation_id = "shareChildren"
    )]
    async fn children(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
    ) -> Result<Json<Vec<ChildDto>>, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        let list = children::list(&app, viewer.family()).await?;
        Ok(Json(list.into_iter().map(ChildDto::from).collect()))
    }

    /// One child's allergen introduction, read only: as the parents see it.
    #[oai(
        path = "/:token/children/:id/allergens",
        method = "get",
        operation_id = "shareChildAllergens"
    )]
    async fn allergens(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
        id: Path<ChildId>,
    ) -> Result<Json<AllergenIntroDto>, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        let found = children::allergens(&app, viewer.family(), id.0).await?;
        Ok(Json(AllergenIntroDto::from(&found)))
    }

    /// The family's meals newest first, 50 per page by default, optionally of one child.
    #[oai(path = "/:token/meals", method = "get", operation_id = "shareMeals")]
    async fn meals(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
        #[oai(name = "childId")] child_id: Query<Option<String>>,
        cursor: Query<Option<String>>,
        limit: Query<Option<u32>>,
    ) -> Result<Json<MealPage>, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        let (items, next_cursor) = meals::page(
            &app,
            viewer.family(),
            child_id.0.as_deref(),
            cursor.0.as_deref(),
            limit.0,
        )
        .await?;
        let link = viewer.co_parent.token.as_uuid().to_string();
        Ok(Json(MealPage {
            items: items.into_iter().map(|m| shared_meal(&link, m)).collect(),
            next_cursor,
        }))
    }

    /// A photo of one of the family's meals; `size=thumb` or `size=medium` as for parents.
    #[oai(
        path = "/:token/media/:id",
        method = "get",
        operation_id = "shareMedia"
    )]
    async fn media(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
        id: Path<MediaId>,
        size: Query<Option<String>>,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<MediaResponse, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        let id = id.0;
        let size = photos::Size::parse(size.0.as_deref());
        let bytes = share::photo(&app, &viewer, id, size).await?;
        Ok(super::media::answer(
            id,
            size,
            if_none_match.0.as_deref(),
            bytes,
        ))
    }

    /// The family's grocery lists, newest first.
    #[oai(
        path = "/:token/grocery-lists",
        method = "get",
        operation_id = "shareGroceryLists"
    )]
    async fn grocery_lists(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
    ) -> Result<Json<Vec<GroceryListDto>>, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        let lists = grocery::list(&app, viewer.family()).await?;
        Ok(Json(lists.iter().map(GroceryListDto::from).collect()))
    }

    /// Ticks or unticks one item: the one change a co-parent can make.
    #[oai(
        path = "/:token/grocery-lists/:id/items/:itemId",
        method = "patch",
        operation_id = "shareTickGroceryItem"
    )]
    async fn tick(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
        id: Path<GroceryListId>,
        #[oai(name = "itemId")] item_id: Path<GroceryItemId>,
        body: Json<TickInput>,
    ) -> Result<Json<TickResult>, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        super::grocery::tick_item(&app, viewer.family(), id.0, item_id.0, body.0).await
    }

    /// A week of the family's meal plan (read only); the current week when `week` is missing.
    #[oai(
        path = "/:token/meal-plan",
        method = "get",
        operation_id = "shareMealPlan"
    )]
    async fn meal_plan(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
        week: Query<Option<String>>,
    ) -> Result<Json<MealPlanDto>, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        let week = meal_plan::week_or_current(week.0.as_deref())?;
        let view = meal_plan::get(&app, viewer.family(), week).await?;
        Ok(Json(MealPlanDto::from(&view)))
    }

    /// The family's changes a co-parent may see (children, meals, photos, grocery lists, the
    /// meal plan), as Server-Sent Events like `/api/events`. Ends when the session does
    /// (Logout, a PIN reset, the co-parent removed, 24 hours).
    #[oai(path = "/:token/events", method = "get", operation_id = "shareEvents")]
    async fn events(
        &self,
        app: Data<&App>,
        req: &Request,
        token: Path<String>,
        #[oai(name = "Last-Event-ID")] last_event_id: Header<Option<String>>,
    ) -> Result<EventsResponse, ApiError> {
        let viewer = viewer(&app, &token.0, req).await?;
        super::events::share_stream(&app, viewer, last_event_id.0.as_deref()).await
    }
}

fn opened_parts(
    app: &App,
    client: &ClientInfo,
    opened: &Opened,
) -> (Json<ShareSessionInfo>, String) {
    let link = opened.co_parent.token.as_uuid().to_string();
    let cookie = share_cookie(
        &link,
        &opened.token,
        opened.max_age_secs,
        secure_cookies(app, client),
    );
    (Json(ShareSessionInfo::from(&opened.co_parent)), cookie)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_scoped_to_its_link_and_strict() {
        let c = share_cookie("abc", "tok", 86_400, false);
        assert_eq!(
            c,
            "highchair_share=tok; Path=/api/share/abc; Max-Age=86400; HttpOnly; SameSite=Strict"
        );
        assert!(share_cookie("abc", "tok", 1, true).ends_with("; Secure"));
    }
}
