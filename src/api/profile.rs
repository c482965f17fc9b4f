//! `GET/PATCH /api/profile`: the signed-in user's names (the e-mail is read-only).

use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};

use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::user::User;
use crate::i18n::Lang;
use crate::service::{accounts, photos};

/// A user as the UI sees them. No hash, no token, ever.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct Profile {
    pub id: String,
    /// Read-only.
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub is_guest: bool,
    pub is_admin: bool,
    /// The profile picture, when one is set.
    #[oai(nullable)]
    pub avatar_url: Option<String>,
    /// The language chosen for the screens; none: the browser's (then the server's default).
    #[oai(nullable)]
    pub language: Option<Language>,
    /// +1 with every change; send it back with an update.
    pub version: u64,
}

/// A language the UI and the server speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum Language {
    En,
    Fr,
    De,
    Es,
}

impl From<Lang> for Language {
    fn from(lang: Lang) -> Self {
        match lang {
            Lang::En => Language::En,
            Lang::Fr => Language::Fr,
            Lang::De => Language::De,
            Lang::Es => Language::Es,
        }
    }
}

/// The role shown on the profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum Role {
    Mom,
    Dad,
    Guest,
}

impl From<&User> for Profile {
    fn from(user: &User) -> Self {
        Profile {
            id: user.id.to_string(),
            email: user.email.to_string(),
            first_name: user.first_name.clone(),
            last_name: user.last_name.clone(),
            role: match (user.is_guest, user.role) {
                (true, _) => Role::Guest,
                (false, crate::domain::user::ParentRole::Mom) => Role::Mom,
                (false, crate::domain::user::ParentRole::Dad) => Role::Dad,
            },
            is_guest: user.is_guest,
            is_admin: user.is_admin,
            avatar_url: user
                .avatar
                .map(|id| super::media::PhotoUrls::new(super::media::MEDIA_BASE, id).url),
            language: user.language.map(Into::into),
            version: user.version,
        }
    }
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ProfileUpdate {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// en, fr, de or es; empty for none (the browser's language); absent: unchanged.
    pub language: Option<String>,
    /// Required: the version this change was made on (400 without it); a stale one answers
    /// 409 with the current profile.
    pub version: Option<u64>,
}

#[derive(Default)]
pub struct ProfileApi;

#[OpenApi(tag = "ApiTags::Profile")]
impl ProfileApi {
    /// The signed-in user's profile.
    #[oai(path = "/profile", method = "get", operation_id = "getProfile")]
    async fn get(&self, user: CurrentUser) -> Result<Json<Profile>, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view your profile"))?;
        Ok(Json(Profile::from(&me.user)))
    }

    /// Replaces the profile picture (multipart field `file`).
    #[oai(path = "/profile/avatar", method = "put", operation_id = "setAvatar")]
    async fn set_avatar(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        form: super::media::UploadForm,
    ) -> Result<Json<Profile>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to upload photos"))?;
        let bytes = super::media::upload_bytes(form, &t!("Upload failed")).await?;
        let updated = photos::set_avatar(&app, me.user.id, bytes).await?;
        Ok(Json(Profile::from(&updated)))
    }

    /// Changes first and last name, and the language of the screens.
    #[oai(path = "/profile", method = "patch", operation_id = "updateProfile")]
    async fn update(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<ProfileUpdate>,
    ) -> Result<Json<Profile>, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to update your profile"))?;
        let Json(body) = body;
        let updated = accounts::update_profile(
            &app,
            me.user.id,
            body.version,
            body.first_name,
            body.last_name,
            body.language,
        )
        .await?;
        Ok(Json(Profile::from(&updated)))
    }
}
