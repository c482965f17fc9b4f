//! `/api/co-parents`: a parent invites co-parents (a link plus a PIN, shown once), resets
//! their PIN, extends their link and removes them.

use chrono::{DateTime, Utc};
use poem::Request;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::client::{ClientInfo, site_base};
use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::co_parent::{self, CoParent, CoParentDraft};
use crate::domain::ids::CoParentId;
use crate::service::co_parents;

/// Where a co-parent's access stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum CoParentState {
    /// Invited; has not yet set a PIN of their own or opened the shared view.
    Pending,
    /// Has set a PIN or opened the shared view.
    Active,
    /// The link has expired (extend it).
    Expired,
    /// Too many wrong PINs over the link's lifetime: locked until the PIN is reset.
    Locked,
}

impl From<co_parent::CoParentState> for CoParentState {
    fn from(s: co_parent::CoParentState) -> Self {
        match s {
            co_parent::CoParentState::Pending => CoParentState::Pending,
            co_parent::CoParentState::Active => CoParentState::Active,
            co_parent::CoParentState::Expired => CoParentState::Expired,
            co_parent::CoParentState::Locked => CoParentState::Locked,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CoParentDto {
    pub id: String,
    pub name: String,
    pub email: String,
    pub state: CoParentState,
    /// The co-parent chose a PIN or signed in (Active rather than Pending), whatever `state`
    /// says of the link now (an expired or locked link keeps it).
    pub accepted: bool,
    /// A PIN exists (the PIN itself is never shown again).
    pub pin_set: bool,
    /// The link stops working at this time (Expired when it is not after now).
    pub expires_at: DateTime<Utc>,
    pub invitation_sent: bool,
    pub created_at: DateTime<Utc>,
    /// The co-parent's link, for Copy Link (it works only with the PIN).
    pub link: String,
}

fn dto(c: &CoParent, base: &str) -> CoParentDto {
    CoParentDto {
        id: c.id.to_string(),
        name: c.name.clone(),
        email: c.email.to_string(),
        state: c.state(Utc::now()).into(),
        accepted: c.accepted_at.is_some(),
        pin_set: c.pin_set(),
        expires_at: c.expires_at,
        invitation_sent: c.invitation_sent,
        created_at: c.created_at,
        link: format!("{base}/co-parent/accept/{}", c.token),
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct InviteCoParentRequest {
    /// Letters of any alphabet, spaces, hyphens and apostrophes; 1 to 100 characters.
    #[oai(default)]
    pub name: String,
    #[oai(default)]
    pub email: String,
}

/// A new co-parent: `pin` is in this answer only; share it and the link securely.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct InvitedCoParent {
    pub co_parent: CoParentDto,
    pub link: String,
    /// Six digits. Never retrievable again.
    pub pin: String,
}

/// A new PIN: in this answer only. The co-parent's open sessions have ended.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct NewPin {
    /// Six digits. Never retrievable again.
    pub pin: String,
    pub co_parent: CoParentDto,
}

#[derive(ApiResponse)]
pub enum CoParentInvited {
    #[oai(status = 201)]
    Created(Json<InvitedCoParent>),
}

#[derive(ApiResponse)]
pub enum Removed {
    /// Removed; the link and its sessions stopped working.
    #[oai(status = 204)]
    Done,
}

#[derive(Default)]
pub struct CoParentsApi;

#[OpenApi(tag = "ApiTags::CoParents", prefix_path = "/co-parents")]
impl CoParentsApi {
    /// The family's co-parents, newest first.
    #[oai(path = "/", method = "get", operation_id = "listCoParents")]
    async fn list(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        user: CurrentUser,
    ) -> Result<Json<Vec<CoParentDto>>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to manage co-parents"))?;
        let base = site_base(&app, &client, req);
        let list = co_parents::list(&app, me.user.family_id).await?;
        Ok(Json(list.iter().map(|c| dto(c, &base)).collect()))
    }

    /// Invites a co-parent: a link valid for 7 days and a generated 6-digit PIN, which is in
    /// this answer only.
    #[oai(path = "/", method = "post", operation_id = "inviteCoParent")]
    async fn invite(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        user: CurrentUser,
        body: Json<InviteCoParentRequest>,
    ) -> Result<CoParentInvited, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to invite co-parents"))?;
        let draft = CoParentDraft {
            name: body.0.name,
            email: body.0.email,
        };
        let invited = co_parents::invite(&app, &me.user, draft).await?;
        let co_parent = dto(&invited.co_parent, &site_base(&app, &client, req));
        Ok(CoParentInvited::Created(Json(InvitedCoParent {
            link: co_parent.link.clone(),
            co_parent,
            pin: invited.pin.as_str().to_string(),
        })))
    }

    /// Generates a new PIN (in this answer only): the old one stops working, a locked link
    /// opens again, and the co-parent's sessions end.
    #[oai(path = "/:id/pin", method = "post", operation_id = "resetCoParentPin")]
    async fn reset_pin(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        user: CurrentUser,
        id: Path<CoParentId>,
    ) -> Result<Json<NewPin>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to manage co-parents"))?;
        let id = id.0;
        let reset = co_parents::reset_pin(&app, me.user.family_id, id).await?;
        Ok(Json(NewPin {
            pin: reset.pin.as_str().to_string(),
            co_parent: dto(&reset.co_parent, &site_base(&app, &client, req)),
        }))
    }

    /// Extends the link by 7 days from the later of now and its current expiry.
    #[oai(
        path = "/:id/extend",
        method = "post",
        operation_id = "extendCoParentLink"
    )]
    async fn extend(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        user: CurrentUser,
        id: Path<CoParentId>,
    ) -> Result<Json<CoParentDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to manage co-parents"))?;
        let id = id.0;
        let extended = co_parents::extend(&app, me.user.family_id, id).await?;
        Ok(Json(dto(&extended, &site_base(&app, &client, req))))
    }

    /// Removes a co-parent: the link and every session of it stop working at once.
    #[oai(path = "/:id", method = "delete", operation_id = "removeCoParent")]
    async fn remove(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<CoParentId>,
    ) -> Result<Removed, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to delete co-parents"))?;
        co_parents::remove(&app, me.user.family_id, id.0).await?;
        Ok(Removed::Done)
    }
}
