//! Messages sent through the public contact form (repository: `sqlite::contact_messages`).

use super::Record;
use crate::domain::contact::ContactMessage;

pub use super::sqlite::contact_messages::ContactMessages;

impl Record for ContactMessage {
    const VERSION: u8 = 1;
}
