//! Messages from the public contact form, kept for the server's admin.

use super::write::Shared;
use super::{Record, StoreError};
use crate::domain::contact::ContactMessage;

impl Record for ContactMessage {
    const VERSION: u8 = 1;
}

pub struct ContactMessages {
    core: Shared,
    tree: sled::Tree,
}

impl ContactMessages {
    pub(super) fn new(core: Shared, tree: sled::Tree) -> Self {
        Self { core, tree }
    }

    /// The tree itself, for backups.
    pub(super) fn tree(&self) -> &sled::Tree {
        &self.tree
    }

    pub async fn insert(&self, message: &ContactMessage) -> Result<(), StoreError> {
        self.tree.insert(message.id.as_bytes(), message.encode()?)?;
        self.core.flush().await
    }

    /// Newest first.
    pub fn list(&self) -> Result<Vec<ContactMessage>, StoreError> {
        self.tree
            .iter()
            .rev()
            .map(|entry| ContactMessage::decode(&entry?.1))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::contact::ContactDraft;

    #[tokio::test]
    async fn stores_and_lists_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
        for name in ["First", "Second"] {
            let msg = ContactDraft {
                name: name.into(),
                email: "a@b.io".into(),
                message: "Hello, this is long enough".into(),
            }
            .validate(chrono::Utc::now())
            .unwrap();
            store.contact_messages.insert(&msg).await.unwrap();
        }
        let names: Vec<_> = store
            .contact_messages
            .list()
            .unwrap()
            .into_iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(names, ["Second", "First"]);
    }
}
