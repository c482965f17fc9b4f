//! `POST /api/contact`: the public contact form. Messages are stored for the server's admin.

use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

use super::client::ClientInfo;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::contact::ContactDraft;
use crate::service::contact;

#[derive(Debug, Object)]
pub struct ContactRequest {
    #[oai(default)]
    pub name: String,
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub message: String,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ContactReceipt {
    pub id: String,
    pub received_at: chrono::DateTime<chrono::Utc>,
}

#[derive(ApiResponse)]
pub enum ContactResponse {
    /// The message is stored.
    #[oai(status = 201)]
    Created(Json<ContactReceipt>),
}

#[derive(Default)]
pub struct ContactApi;

#[OpenApi(tag = "ApiTags::Contact")]
impl ContactApi {
    /// Sends a message to the person who runs this server. Limited per client IP.
    #[oai(
        path = "/contact",
        method = "post",
        operation_id = "sendContactMessage"
    )]
    async fn send(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        body: Json<ContactRequest>,
    ) -> Result<ContactResponse, ApiError> {
        let Json(body) = body;
        let draft = ContactDraft {
            name: body.name,
            email: body.email,
            message: body.message,
        };
        let message = contact::send(&app, draft, &client.key()).await?;
        Ok(ContactResponse::Created(Json(ContactReceipt {
            id: message.id.to_string(),
            received_at: message.created_at,
        })))
    }
}
