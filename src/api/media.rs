//! `/api/media`: photo uploads and the photos themselves (only for their family).

use crate::i18n::Text;
use poem::web::Data;
use poem_openapi::param::{Header, Path, Query};
use poem_openapi::payload::{Binary, Json};
use poem_openapi::types::multipart::Upload;
use poem_openapi::{ApiResponse, Multipart, Object, OpenApi};

use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::DomainError;
use crate::domain::ids::MediaId;
use crate::service::photos;

/// Where parents read photos.
pub const MEDIA_BASE: &str = "/api/media";

/// A photo's URLs under `base` (parents' `/api/media`, or a co-parent's link).
pub struct PhotoUrls {
    /// The stored size.
    pub url: String,
    /// 320 px.
    pub thumbnail_url: String,
    /// 1024 px: a sharp meal card on a phone.
    pub medium_url: String,
}

impl PhotoUrls {
    pub fn new(base: &str, id: MediaId) -> PhotoUrls {
        let url = format!("{base}/{id}");
        PhotoUrls {
            thumbnail_url: format!("{url}?size=thumb"),
            medium_url: format!("{url}?size=medium"),
            url,
        }
    }
}

#[derive(Debug, Multipart)]
pub struct UploadForm {
    /// The image (JPEG, PNG, WebP or GIF).
    pub file: Option<Upload>,
}

/// Reads the `file` part of an upload form.
pub(super) async fn upload_bytes(form: UploadForm, title: &Text) -> Result<Vec<u8>, ApiError> {
    let missing = || {
        DomainError::not_readable(
            title,
            t!("Please choose an image file (JPEG, PNG, WebP or GIF)."),
        )
    };
    let file = form.file.ok_or_else(missing)?;
    file.into_vec().await.map_err(|_| missing().into())
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct MediaDto {
    pub id: String,
    pub url: String,
    pub medium_url: String,
    pub thumbnail_url: String,
}

#[derive(ApiResponse)]
pub enum Uploaded {
    /// Stored without its metadata; attach it to a meal within a day.
    #[oai(status = 201)]
    Created(Json<MediaDto>),
}

#[derive(ApiResponse)]
pub enum MediaResponse {
    /// The image (JPEG).
    #[oai(status = 200, content_type = "image/jpeg")]
    Ok(
        Binary<Vec<u8>>,
        #[oai(header = "ETag")] String,
        #[oai(header = "Cache-Control")] String,
    ),
    /// Unchanged since the ETag the client holds.
    #[oai(status = 304)]
    NotModified(
        #[oai(header = "ETag")] String,
        #[oai(header = "Cache-Control")] String,
    ),
}

/// A photo never changes under its id, so it may be cached for long, but only by the browser.
const PRIVATE_CACHE: &str = "private, max-age=31536000, immutable";

#[derive(Default)]
pub struct MediaApi;

#[OpenApi(tag = "ApiTags::Media")]
impl MediaApi {
    /// Uploads a meal photo (multipart field `file`).
    #[oai(path = "/media", method = "post", operation_id = "uploadMedia")]
    async fn upload(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        form: UploadForm,
    ) -> Result<Uploaded, ApiError> {
        let me = user.require_to_save(t!("You must be logged in to upload photos"))?;
        let bytes = upload_bytes(form, &t!("Photo upload failed")).await?;
        let record = photos::upload(&app, &me.user, bytes).await?;
        let urls = PhotoUrls::new(MEDIA_BASE, record.id);
        Ok(Uploaded::Created(Json(MediaDto {
            id: record.id.to_string(),
            url: urls.url,
            thumbnail_url: urls.thumbnail_url,
            medium_url: urls.medium_url,
        })))
    }

    /// A photo of the signed-in family; `size=thumb` for the 320 px thumbnail, `size=medium`
    /// for the 1024 px size (phones), the stored size otherwise.
    #[oai(path = "/media/:id", method = "get", operation_id = "getMedia")]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<MediaId>,
        size: Query<Option<String>>,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<MediaResponse, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to view photos"))?;
        let id = id.0;
        let size = photos::Size::parse(size.0.as_deref());
        let bytes = photos::read(&app, me.user.family_id, id, size).await?;
        Ok(answer(id, size, if_none_match.0.as_deref(), bytes))
    }
}

/// A photo's answer: 304 when the client holds this id and size already (a photo never
/// changes), the bytes otherwise.
pub(super) fn answer(
    id: MediaId,
    size: photos::Size,
    if_none_match: Option<&str>,
    bytes: Vec<u8>,
) -> MediaResponse {
    let etag = format!("\"{id}-{}\"", size.name());
    if if_none_match.is_some_and(|v| v.split(',').any(|t| t.trim() == etag)) {
        return MediaResponse::NotModified(etag, PRIVATE_CACHE.into());
    }
    MediaResponse::Ok(Binary(bytes), etag, PRIVATE_CACHE.into())
}
