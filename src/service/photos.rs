//! Uploads: meal photos and profile pictures go through the image pipeline before anything is
//! stored, and are only ever served to their family.

use chrono::Utc;

use super::{AppError, AppResult, Services};
use crate::domain::DomainError;
use crate::domain::ids::{FamilyId, MediaId, UserId};
use crate::domain::user::User;
use crate::media::MediaError;
use crate::media::pipeline::{AVATAR_EDGE, MAX_SIDE, PHOTO_EDGE};
use crate::store::media::{MediaRecord, Variant};

/// Unattached uploads older than this are removed.
pub const UNATTACHED_FOR: chrono::Duration = chrono::Duration::hours(24);

fn refused(err: MediaError, title: &str) -> DomainError {
    match err {
        MediaError::NotAnImage => DomainError::unsupported(
            title,
            "Please choose an image file (JPEG, PNG, WebP or GIF).",
        ),
        MediaError::Damaged => DomainError::unsupported(
            title,
            "The image could not be read; it may be damaged or incomplete.",
        ),
        MediaError::TooLarge => DomainError::too_large(
            title,
            format!("The image is too large; it can be at most {MAX_SIDE} pixels on each side."),
        ),
    }
}

async fn store(
    app: &Services,
    family: FamilyId,
    bytes: Vec<u8>,
    long_edge: u32,
    title: &str,
) -> AppResult<MediaRecord> {
    let limit = app.settings.limits.upload_bytes();
    if bytes.len() as u64 > limit {
        return Err(DomainError::too_large(
            title,
            format!(
                "Photos must be {} MB or smaller.",
                app.settings.limits.upload_mb
            ),
        )
        .into());
    }
    if bytes.is_empty() {
        return Err(DomainError::unsupported(
            title,
            "Please choose an image file (JPEG, PNG, WebP or GIF).",
        )
        .into());
    }
    let processed = app
        .images
        .process(bytes, long_edge)
        .await
        .map_err(|e| refused(e, title))?;
    let record = MediaRecord {
        id: MediaId::new(),
        family,
        version: 1,
        width: processed.width,
        height: processed.height,
        attached: false,
        created_at: Utc::now(),
    };
    if !app
        .store
        .media
        .insert(&record, &processed.full, &processed.thumb)
        .await?
    {
        return Err(DomainError::NotFound.into());
    }
    Ok(record)
}

/// `POST /api/media`: a meal photo, stored until a meal uses it (or for a day).
pub async fn upload(app: &Services, family: FamilyId, bytes: Vec<u8>) -> AppResult<MediaRecord> {
    store(app, family, bytes, PHOTO_EDGE, "Photo upload failed").await
}

/// `PUT /api/profile/avatar`: replaces the profile picture. The new picture is attached and the
/// old one removed in the same transaction as the account change.
pub async fn set_avatar(app: &Services, user: UserId, bytes: Vec<u8>) -> AppResult<User> {
    const TITLE: &str = "Upload failed";
    let family = app
        .store
        .users
        .get(user)?
        .ok_or(DomainError::NotFound)?
        .family_id;
    let record = store(app, family, bytes, AVATAR_EDGE, TITLE).await?;
    let now = Utc::now();
    app.store
        .users
        .update(user, None, |u| {
            u.avatar = Some(record.id);
            u.updated_at = now;
            Ok(())
        })
        .await
        .map_err(|e| AppError::from_write(e, TITLE))
}

/// The bytes of a photo of the family; anyone else's id is not found.
pub fn read(app: &Services, family: FamilyId, id: MediaId, thumb: bool) -> AppResult<Vec<u8>> {
    let variant = if thumb { Variant::Thumb } else { Variant::Full };
    Ok(app
        .store
        .media
        .bytes(family, id, variant)?
        .ok_or(DomainError::NotFound)?
        .to_vec())
}

/// Removes uploads that no meal or profile picked up within a day.
pub async fn purge_unattached(app: &Services) -> AppResult<usize> {
    Ok(app
        .store
        .media
        .purge_unattached(Utc::now() - UNATTACHED_FOR)
        .await?)
}
