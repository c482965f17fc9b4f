//! `/api/share/{token}`: what a co-parent's link opens. Anyone with the link may ask; the
//! token is the key. (PIN set-up, share sessions and the read-only views come next.)

use poem::web::Data;
use poem_openapi::param::Path;
use poem_openapi::payload::Json;
use poem_openapi::{Enum, Object, OpenApi};

use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::co_parent::ShareState;
use crate::service::co_parents;

/// Whether the co-parent still has to choose a PIN (pending) or enters it (active).
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
        let co_parent = co_parents::by_link(&app, &token.0)?;
        Ok(Json(ShareInvitation {
            state: match co_parent.share_state() {
                ShareState::Pending => ShareInvitationState::Pending,
                ShareState::Active => ShareInvitationState::Active,
            },
            name: co_parent.name,
        }))
    }
}
