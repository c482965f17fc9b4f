//! The public contact form (spec sections 2, 5 and 8).

use crate::i18n::Text;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::email::{EMAIL_MAX, Email};
use super::error::Invalid;
use super::ids::ContactMessageId;
use super::text::{
    GENERAL_TEXT_MAX, NAME_MAX, char_len, sanitize, sanitize_line, too_long_message,
};

pub const TITLE: Text = t!("Error sending message");
pub const NAME_MIN: usize = 2;
pub const MESSAGE_MIN: usize = 10;

/// A message kept for the server's admin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ContactMessage {
    pub id: ContactMessageId,
    pub name: String,
    pub email: Email,
    pub message: String,
    pub created_at: DateTime<Utc>,
}

/// What the form sends, before validation.
#[derive(Debug, Clone, Default)]
pub struct ContactDraft {
    pub name: String,
    pub email: String,
    pub message: String,
}

impl ContactDraft {
    /// Applies the spec's rules; the first failing field wins, in form order.
    pub fn validate(&self, now: DateTime<Utc>) -> Result<ContactMessage, Invalid> {
        let name = sanitize_line(&self.name);
        if char_len(&name) < NAME_MIN {
            return Err(Invalid::new(
                TITLE,
                t!("Name must be at least 2 characters"),
                "name",
            ));
        }
        if char_len(&name) > NAME_MAX {
            return Err(Invalid::new(
                TITLE,
                too_long_message(t!("Name"), NAME_MAX),
                "name",
            ));
        }
        if char_len(self.email.trim()) > EMAIL_MAX {
            return Err(Invalid::new(
                TITLE,
                too_long_message(t!("Email"), EMAIL_MAX),
                "email",
            ));
        }
        let email = Email::parse(&self.email).ok_or_else(|| {
            Invalid::new(TITLE, t!("Please enter a valid email address"), "email")
        })?;
        let message = sanitize(&self.message);
        if char_len(&message) < MESSAGE_MIN {
            return Err(Invalid::new(
                TITLE,
                t!("Message must be at least 10 characters"),
                "message",
            ));
        }
        if char_len(&message) > GENERAL_TEXT_MAX {
            return Err(Invalid::new(
                TITLE,
                too_long_message(t!("Message"), GENERAL_TEXT_MAX),
                "message",
            ));
        }
        Ok(ContactMessage {
            id: ContactMessageId::new(),
            name,
            email,
            message,
            created_at: now,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(name: &str, email: &str, message: &str) -> ContactDraft {
        ContactDraft {
            name: name.into(),
            email: email.into(),
            message: message.into(),
        }
    }

    fn field_error(d: ContactDraft) -> (String, String) {
        let err = d.validate(Utc::now()).unwrap_err();
        (err.field.unwrap(), err.message.to_string())
    }

    #[test]
    fn valid_message_is_cleaned() {
        let m = draft(
            "  Sam  Jones ",
            "SAM@example.org",
            "  Hello there, lovely app!\r\n ",
        )
        .validate(Utc::now())
        .unwrap();
        assert_eq!(m.name, "Sam Jones");
        assert_eq!(m.email.as_str(), "sam@example.org");
        assert_eq!(m.message, "Hello there, lovely app!");
    }

    #[test]
    fn spec_messages_per_field() {
        assert_eq!(
            field_error(draft(" S ", "a@b.io", "long enough text")),
            ("name".into(), "Name must be at least 2 characters".into())
        );
        assert_eq!(
            field_error(draft("Sam", "nope", "long enough text")),
            ("email".into(), "Please enter a valid email address".into())
        );
        assert_eq!(
            field_error(draft("Sam", "a@b.io", "too short")),
            (
                "message".into(),
                "Message must be at least 10 characters".into()
            )
        );
        assert_eq!(
            field_error(draft("Sam", "a@b.io", &"x".repeat(1001))),
            (
                "message".into(),
                "Message must be 1000 characters or less".into()
            )
        );
        assert_eq!(
            field_error(draft(&"n".repeat(101), "a@b.io", "long enough text")),
            ("name".into(), "Name must be 100 characters or less".into())
        );
        let err = draft("Sam", "nope", "x").validate(Utc::now()).unwrap_err();
        assert_eq!(err.title, "Error sending message");
    }

    #[test]
    fn exactly_at_the_limits_is_fine() {
        assert!(
            draft("Al", "a@b.io", "0123456789")
                .validate(Utc::now())
                .is_ok()
        );
        assert!(
            draft(&"n".repeat(100), "a@b.io", &"m".repeat(1000))
                .validate(Utc::now())
                .is_ok()
        );
    }
}
