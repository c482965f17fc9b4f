//! The public contact form: messages are stored for the server's admin.

use super::{AppResult, Services};
use crate::auth::ClientKey;
use crate::domain::DomainError;
use crate::domain::contact::{ContactDraft, ContactMessage};

/// Validates and stores a message; limited per client IP (`ip`).
pub async fn send(
    app: &Services,
    draft: ContactDraft,
    client: &ClientKey,
) -> AppResult<ContactMessage> {
    let message = draft.validate(chrono::Utc::now())?;
    app.limits
        .contact
        .check(client.as_str())
        .map_err(DomainError::too_many)?;
    app.store.contact_messages.insert(&message).await?;
    tracing::info!(id = %message.id, "contact message stored");
    Ok(message)
}
