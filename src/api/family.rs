//! `/api/family`: the adults who share a family, invite links for another parent, joining,
//! leaving and removing.

use chrono::{DateTime, Utc};
use poem::Request;
use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

use super::allergens::AllergenListDto;
use super::auth::{SessionInfo, SignedInResponse, SignupRequest, WithCookies, signed_in};
use super::client::{ClientInfo, site_base};
use super::profile::{Profile, Role};
use super::session::{CurrentUser, device_cookie_of};
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::auth::tokens::InviteToken;
use crate::domain::allergen_intro::Region;
use crate::domain::family::FamilyInvite;
use crate::domain::family_settings::{FamilySettings, SettingsFields};
use crate::domain::ids::{InviteId, UserId};
use crate::domain::user::User;
use crate::service::family;

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct Member {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    #[oai(nullable)]
    pub avatar_url: Option<String>,
    /// When they joined this family.
    pub joined_at: DateTime<Utc>,
    /// The signed-in account itself.
    pub is_you: bool,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct InviteDto {
    pub id: String,
    /// Who made the link.
    pub invited_by: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FamilyDto {
    pub name: String,
    /// Longest-standing first.
    pub members: Vec<Member>,
    /// Open invite links (the links themselves are shown only when made).
    pub invites: Vec<InviteDto>,
}

/// A new invite: `url` is shown once and cannot be retrieved again.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CreatedInvite {
    pub id: String,
    pub url: String,
    pub expires_at: DateTime<Utc>,
}

/// What an invite link shows before joining.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct InvitePreview {
    pub family_name: String,
    pub invited_by: String,
    pub expires_at: DateTime<Utc>,
}

#[derive(ApiResponse)]
pub enum InviteCreated {
    #[oai(status = 201)]
    Created(Json<CreatedInvite>),
}

/// One allergen list a family may follow, with its allergens as the list names them.
#[derive(Debug, Object)]
pub struct AllergenListChoice {
    pub id: AllergenListDto,
    pub title: String,
    pub allergens: Vec<String>,
}

/// Choices the whole family shares.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FamilySettingsDto {
    /// 0 until the family first saves its settings.
    pub version: u64,
    /// The allergen list a small child's introduction follows.
    pub allergen_list: AllergenListDto,
    /// The lists to choose from.
    pub allergen_lists: Vec<AllergenListChoice>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FamilySettingsUpdate {
    /// The version the change was made on (0 before the first save); a stale one answers 409
    /// with the settings as they are now.
    pub version: u64,
    pub allergen_list: AllergenListDto,
}

impl From<&FamilySettings> for FamilySettingsDto {
    fn from(s: &FamilySettings) -> Self {
        FamilySettingsDto {
            version: s.version,
            allergen_list: s.allergen_list.into(),
            allergen_lists: Region::ALL
                .into_iter()
                .map(|r| AllergenListChoice {
                    id: r.into(),
                    title: r.heading().here(),
                    allergens: r.allergens().iter().map(|a| r.name(*a).here()).collect(),
                })
                .collect(),
        }
    }
}

#[derive(ApiResponse)]
pub enum Done {
    #[oai(status = 204)]
    Done,
}

fn member(user: &User, me: &User) -> Member {
    let profile = Profile::from(user);
    Member {
        id: profile.id,
        first_name: profile.first_name,
        last_name: profile.last_name,
        role: profile.role,
        avatar_url: profile.avatar_url,
        joined_at: user.joined_at(),
        is_you: user.id == me.id,
    }
}

fn invite_dto(invite: &FamilyInvite, members: &[User]) -> InviteDto {
    let invited_by = members
        .iter()
        .find(|m| m.id == invite.invited_by)
        .map_or_else(|| "A former member".into(), |m| m.first_name.clone());
    InviteDto {
        id: invite.id.to_string(),
        invited_by,
        created_at: invite.created_at,
        expires_at: invite.expires_at,
    }
}

#[derive(Default)]
pub struct FamilyApi;

#[OpenApi(tag = "ApiTags::Family", prefix_path = "/family")]
impl FamilyApi {
    /// The family's members and open invite links.
    #[oai(path = "/", method = "get", operation_id = "getFamily")]
    async fn get(&self, app: Data<&App>, user: CurrentUser) -> Result<Json<FamilyDto>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view your family"))?;
        let view = family::overview(&app, &me.user).await?;
        Ok(Json(FamilyDto {
            invites: view
                .invites
                .iter()
                .map(|i| invite_dto(i, &view.members))
                .collect(),
            members: view.members.iter().map(|m| member(m, &me.user)).collect(),
            name: view.name,
        }))
    }

    /// The family's settings (the defaults, at version 0, until first saved).
    #[oai(path = "/settings", method = "get", operation_id = "getFamilySettings")]
    async fn settings(
        &self,
        app: Data<&App>,
        user: CurrentUser,
    ) -> Result<Json<FamilySettingsDto>, ApiError> {
        let me =
            user.require_to_view(t!("You must be logged in to view your family's settings"))?;
        let settings = family::settings(&app, me.user.family_id).await?;
        Ok(Json((&settings).into()))
    }

    /// Saves the family's settings, if `version` is the current one (409 otherwise, with the
    /// settings as they are now).
    #[oai(
        path = "/settings",
        method = "put",
        operation_id = "saveFamilySettings"
    )]
    async fn save_settings(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<FamilySettingsUpdate>,
    ) -> Result<Json<FamilySettingsDto>, ApiError> {
        let me =
            user.require_to_save(t!("You must be logged in to change your family's settings"))?;
        let fields = SettingsFields {
            allergen_list: body.0.allergen_list.into(),
        };
        let saved = family::save_settings(&app, me.user.family_id, body.0.version, fields).await?;
        Ok(Json((&saved).into()))
    }

    /// A one-time link for another adult to join this family (7 days). The link is in this
    /// answer only.
    #[oai(path = "/invites", method = "post", operation_id = "inviteParent")]
    async fn invite(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        user: CurrentUser,
    ) -> Result<InviteCreated, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to invite another parent"))?;
        let made = family::invite(&app, &me.user).await?;
        let url = format!("{}/join/{}", site_base(&app, &client, req), made.token);
        Ok(InviteCreated::Created(Json(CreatedInvite {
            id: made.invite.id.to_string(),
            url,
            expires_at: made.invite.expires_at,
        })))
    }

    /// Revokes an invite link.
    #[oai(
        path = "/invites/:id",
        method = "delete",
        operation_id = "revokeInvite"
    )]
    async fn revoke(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<InviteId>,
    ) -> Result<Done, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to revoke an invite"))?;
        family::revoke(&app, &me.user, id.0).await?;
        Ok(Done::Done)
    }

    /// Leaves the family: the account stays, with a new empty family; the others keep the
    /// children.
    #[oai(path = "/leave", method = "post", operation_id = "leaveFamily")]
    async fn leave(&self, app: Data<&App>, user: CurrentUser) -> Result<Json<Profile>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to leave your family"))?;
        let left = family::leave(&app, &me.user).await?;
        Ok(Json(Profile::from(&left)))
    }

    /// Removes another adult from the family; their sessions end.
    #[oai(
        path = "/members/:id",
        method = "delete",
        operation_id = "removeMember"
    )]
    async fn remove(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<UserId>,
    ) -> Result<Done, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to remove a family member"))?;
        family::remove(&app, &me.user, id.0).await?;
        Ok(Done::Done)
    }

    /// What an invite link is for (404 unknown, 410 expired).
    #[oai(path = "/join/:token", method = "get", operation_id = "previewInvite")]
    async fn preview(
        &self,
        app: Data<&App>,
        token: Path<String>,
    ) -> Result<Json<InvitePreview>, ApiError> {
        let preview = family::preview(&app, &InviteToken::from_client(&token.0)).await?;
        Ok(Json(InvitePreview {
            family_name: preview.family_name,
            invited_by: preview.invited_by,
            expires_at: preview.invite.expires_at,
        }))
    }

    /// Joins the family of an invite link: signed in (with an empty family of one's own), or
    /// as a new account from the sign-up fields, signed in at once (201).
    #[oai(path = "/join/:token", method = "post", operation_id = "joinFamily")]
    async fn join(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        req: &Request,
        user: CurrentUser,
        token: Path<String>,
        /// Sign-up fields for someone without an account (ignored when signed in).
        body: Json<SignupRequest>,
    ) -> Result<WithCookies, ApiError> {
        if let Some(me) = user.0 {
            let moved =
                family::join_signed_in(&app, &me.user, &InviteToken::from_client(&token.0)).await?;
            return Ok(WithCookies::new(SignedInResponse::Ok(Json(SessionInfo {
                user: Profile::from(&moved),
                expires_at: me.expires_at,
            }))));
        }
        let created = family::join_new(
            &app,
            body.0.into(),
            &InviteToken::from_client(&token.0),
            &client.key(),
        )
        .await?;
        let known =
            crate::service::accounts::remembered(&app, created, device_cookie_of(req)).await;
        signed_in(&app, &client, &known.user, Some(&known.device_cookie), true).await
    }
}
