//! Messages from the public contact form, kept for the server's admin (no family's record: no
//! version, no revision). Ids are time-ordered: newest first is the ids in reverse.

use rusqlite::params;

use super::core::Shared;
use super::values::{get_name, get_time, text, time};
use crate::domain::contact::ContactMessage;
use crate::store::StoreError;

pub struct ContactMessages {
    core: Shared,
}

impl ContactMessages {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a message, on disk when it returns (the same id again replaces it, as in the
    /// sled store).
    pub async fn insert(&self, message: &ContactMessage) -> Result<(), StoreError> {
        let id = message.id;
        let (name, email, body, created_at) = (
            text(&message.name),
            text(message.email.as_str()),
            text(&message.message),
            time(message.created_at),
        );
        self.core
            .db
            .write(move |conn| {
                conn.prepare_cached(
                    "INSERT INTO contact_messages (id, name, email, message, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (id) DO UPDATE SET name = ?2, email = ?3, message = ?4,
                         created_at = ?5",
                )?
                .execute(params![id, name, email, body, created_at])?;
                Ok::<_, StoreError>(())
            })
            .await
    }

    /// Newest first.
    pub async fn list(&self) -> Result<Vec<ContactMessage>, StoreError> {
        self.core
            .read(|conn| {
                let mut stmt = conn.prepare_cached(
                    "SELECT id, name, email, message, created_at FROM contact_messages
                     ORDER BY id DESC",
                )?;
                let rows = stmt.query_map([], |r| {
                    Ok(ContactMessage {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        email: get_name(r, 2)?,
                        message: r.get(3)?,
                        created_at: get_time(r, 4)?,
                    })
                })?;
                rows.collect()
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::contact::ContactDraft;
    use crate::store::sqlite::tests::temp_core;

    #[tokio::test]
    async fn stores_and_lists_newest_first() {
        let (_dir, core) = temp_core();
        let messages = ContactMessages::new(core);
        for name in ["First", "Second"] {
            let msg = ContactDraft {
                name: name.into(),
                email: "a@b.io".into(),
                message: "Hello, this is long enough".into(),
            }
            .validate(chrono::Utc::now())
            .unwrap();
            messages.insert(&msg).await.unwrap();
        }
        let names: Vec<_> = messages
            .list()
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(names, ["Second", "First"]);
    }

    #[tokio::test]
    async fn every_field_comes_back() {
        let (_dir, core) = temp_core();
        let messages = ContactMessages::new(core);
        let stored = ContactDraft {
            name: "Ann O'Neil".into(),
            email: "Ann.ONeil@Example.org".into(),
            message: "Line one,\nline \"two\" and ünïcode".into(),
        }
        .validate(chrono::Utc::now() - chrono::Duration::hours(1))
        .unwrap();
        messages.insert(&stored).await.unwrap();
        let read = messages.list().await.unwrap();
        assert_eq!(read.len(), 1);
        assert_eq!(stored, read[0]);
        // The id is the key: the same message twice is stored once.
        messages.insert(&stored).await.unwrap();
        assert_eq!(messages.list().await.unwrap(), [stored]);
    }
}
