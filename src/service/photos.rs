//! Uploads: meal photos and profile pictures go through the image pipeline before anything is
//! stored, and are only ever served to their family.

use crate::i18n::Text;
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

fn refused(err: MediaError, title: &Text) -> DomainError {
    match err {
        MediaError::NotAnImage => DomainError::not_readable(
            title,
            t!("Please choose an image file (JPEG, PNG, WebP or GIF)."),
        ),
        MediaError::Damaged => DomainError::not_readable(
            title,
            t!("The image could not be read; it may be damaged or incomplete."),
        ),
        MediaError::TooLarge => DomainError::over_limit(
            title,
            t!(
                "The image is too large; it can be at most {{max}} pixels on each side.",
                max = MAX_SIDE
            ),
        ),
        MediaError::NeedsTooMuchMemory { .. } => DomainError::over_limit(
            title,
            t!(
                "The image has too many pixels for this server to process. Please choose a \
             smaller photo (most phones can save at a lower resolution)."
            ),
        ),
    }
}

/// Room on the server's disk, and in the family's quota and upload rate, for one more photo.
/// Checked before the image is decoded, so a refused upload costs nothing.
async fn check_room(app: &Services, family: FamilyId, guest: bool, title: &Text) -> AppResult<u64> {
    let limits = &app.settings.limits;
    if app
        .store
        .free_space()
        .is_some_and(|free| free < limits.min_free_disk_bytes())
    {
        tracing::warn!("photo refused: the data directory's disk is nearly full");
        return Err(DomainError::out_of_space(
            title,
            t!(
                "The server's disk is nearly full, so photos cannot be added right now. \
             Please tell the person who runs Highchair."
            ),
        )
        .into());
    }
    let limiter = if guest {
        &app.limits.upload_guest
    } else {
        &app.limits.upload_family
    };
    limiter
        .check(&family.to_string())
        .map_err(DomainError::too_many)?;
    let used = app.store.media.family_usage(family).await?;
    if used >= limits.storage_quota_bytes(guest) {
        return Err(quota_full(limits.storage_quota_bytes(guest), title).into());
    }
    Ok(used)
}

fn quota_full(quota: u64, title: &Text) -> DomainError {
    DomainError::out_of_space(
        title,
        t!(
            "Your family's photos use all of its {{mb}} MB of space. Delete some photos to add \
             new ones.",
            mb = quota / (1024 * 1024)
        ),
    )
}

async fn store(
    app: &Services,
    family: FamilyId,
    guest: bool,
    bytes: Vec<u8>,
    long_edge: u32,
    title: &Text,
) -> AppResult<MediaRecord> {
    let limit = app.settings.limits.upload_bytes();
    if bytes.len() as u64 > limit {
        return Err(DomainError::over_limit(
            title,
            t!(
                "Photos must be {{mb}} MB or smaller.",
                mb = app.settings.limits.upload_mb
            ),
        )
        .into());
    }
    if bytes.is_empty() {
        return Err(DomainError::not_readable(
            title,
            t!("Please choose an image file (JPEG, PNG, WebP or GIF)."),
        )
        .into());
    }
    let used = check_room(app, family, guest, title).await?;
    let processed = app
        .images
        .process(bytes, long_edge)
        .await
        .map_err(|e| refused(e, title))?;
    let size = (processed.full.len() + processed.medium.len() + processed.thumb.len()) as u64;
    let quota = app.settings.limits.storage_quota_bytes(guest);
    if used + size > quota {
        return Err(quota_full(quota, title).into());
    }
    let record = MediaRecord {
        id: MediaId::new(),
        family,
        version: 1,
        width: processed.width,
        height: processed.height,
        attached: false,
        created_at: Utc::now(),
        bytes: size,
    };
    if !app
        .store
        .media
        .insert(
            &record,
            &[
                (Variant::Full, &processed.full),
                (Variant::Medium, &processed.medium),
                (Variant::Thumb, &processed.thumb),
            ],
        )
        .await?
    {
        return Err(DomainError::NotFound.into());
    }
    Ok(record)
}

/// `POST /api/media`: a meal photo, stored until a meal uses it (or for a day).
pub async fn upload(app: &Services, uploader: &User, bytes: Vec<u8>) -> AppResult<MediaRecord> {
    store(
        app,
        uploader.family_id,
        uploader.is_guest,
        bytes,
        PHOTO_EDGE,
        &t!("Photo upload failed"),
    )
    .await
}

/// An imported recipe's picture, fetched from the web: a photo like a meal's, unattached until
/// the recipe that uses it is saved.
pub(crate) async fn keep(app: &Services, saver: &User, bytes: Vec<u8>) -> AppResult<MediaRecord> {
    store(
        app,
        saver.family_id,
        saver.is_guest,
        bytes,
        PHOTO_EDGE,
        &crate::domain::recipe::SAVE_TITLE,
    )
    .await
}

/// `PUT /api/profile/avatar`: replaces the profile picture. The new picture is attached and the
/// old one removed in the same transaction as the account change.
pub async fn set_avatar(app: &Services, user: UserId, bytes: Vec<u8>) -> AppResult<User> {
    const TITLE: Text = t!("Upload failed");
    let account = app
        .store
        .users
        .get(user)
        .await?
        .ok_or(DomainError::NotFound)?;
    let record = store(
        app,
        account.family_id,
        account.is_guest,
        bytes,
        AVATAR_EDGE,
        &TITLE,
    )
    .await?;
    let now = Utc::now();
    app.store
        .users
        .update(user, None, |u| {
            u.avatar = Some(record.id);
            u.updated_at = now;
            Ok(())
        })
        .await
        .map_err(|e| AppError::from_write(e, &TITLE))
}

/// The sizes a photo is kept in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    Full,
    Medium,
    Thumb,
}

impl Size {
    /// From the `size` query parameter; anything else is the stored size.
    pub fn parse(value: Option<&str>) -> Size {
        match value {
            Some("thumb") => Size::Thumb,
            Some("medium") => Size::Medium,
            _ => Size::Full,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Size::Full => "full",
            Size::Medium => "medium",
            Size::Thumb => "thumb",
        }
    }
}

/// The bytes of a photo of the family in one of its sizes; anyone else's id is not found. A
/// photo stored before the medium size existed answers with its full size.
pub async fn read(app: &Services, family: FamilyId, id: MediaId, size: Size) -> AppResult<Vec<u8>> {
    let media = &app.store.media;
    let variant = match size {
        Size::Full => Variant::Full,
        Size::Medium => Variant::Medium,
        Size::Thumb => Variant::Thumb,
    };
    let mut bytes = media.bytes(family, id, variant).await?;
    if bytes.is_none() && size == Size::Medium {
        bytes = media.bytes(family, id, Variant::Full).await?;
    }
    Ok(bytes.ok_or(DomainError::NotFound)?)
}

/// Removes uploads that no meal or profile picked up within a day.
pub async fn purge_unattached(app: &Services) -> AppResult<usize> {
    Ok(app
        .store
        .media
        .purge_unattached(Utc::now() - UNATTACHED_FOR)
        .await?)
}
