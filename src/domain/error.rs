//! The one error type of the domain layer. Each variant says what happened; the API layer
//! alone chooses the HTTP status for it (`api/error.rs`).

use std::time::Duration;

use crate::i18n::Text;

/// Bad input: the spec's toast title and message, and the field it is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{title}: {message}")]
pub struct Invalid {
    pub title: Text,
    pub message: Text,
    pub field: Option<String>,
}

impl Invalid {
    pub fn new(title: impl Into<Text>, message: Text, field: &str) -> Self {
        Self {
            title: title.into(),
            message,
            field: Some(field.to_string()),
        }
    }

    /// A problem with the request as a whole rather than one field.
    pub fn general(title: impl Into<Text>, message: Text) -> Self {
        Self {
            title: title.into(),
            message,
            field: None,
        }
    }
}

/// The version an update was made on (DESIGN: every update carries it, and a stale one is a
/// 409 with the record as it is now). Without one, a save would overwrite silently whatever
/// another parent saved meanwhile: 400 naming the field.
pub fn required_version(version: Option<u64>, title: impl Into<Text>) -> Result<u64, Invalid> {
    version.ok_or_else(|| {
        Invalid::new(
            title,
            t!("Please send the version this change was made on (reload and try again)"),
            "version",
        )
    })
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// Unknown, or another family's: both look the same, so ids cannot be probed.
    #[error("not found")]
    NotFound,
    /// Not found, in the words of what is missing (a recipe a meal plan names). Unknown and
    /// another family's answer alike.
    #[error("{0}")]
    Missing(Invalid),
    /// Who is asking is not known: no session, or a wrong password or PIN.
    #[error("{title}: {message}")]
    NotSignedIn { title: Text, message: Text },
    /// Known, but a rule does not let them (sign-up closed, the family's last parent leaving).
    #[error("{title}: {message}")]
    NotAllowed { title: Text, message: Text },
    /// It clashes with what is there (an e-mail already used).
    #[error("{title}: {message}")]
    Conflict { title: Text, message: Text },
    #[error("too many attempts")]
    TooManyAttempts { retry_after: Duration },
    /// Refused until someone else acts (a co-parent link locked by wrong PINs); `retry_after`
    /// is only a hint for clients.
    #[error("{title}: {message}")]
    Blocked {
        title: Text,
        message: Text,
        retry_after: Duration,
    },
    /// Bigger than allowed (an upload, a photo that would need too much memory to read).
    #[error("{title}: {message}")]
    OverLimit { title: Text, message: Text },
    /// A file that is not what it should be (not an image, or a damaged one).
    #[error("{title}: {message}")]
    NotReadable { title: Text, message: Text },
    /// Something the request needs cannot be had now (a guest account could not be made).
    #[error("{title}: {message}")]
    Unavailable { title: Text, message: Text },
    /// A link that existed but has expired or been used.
    #[error("{title}: {message}")]
    Expired { title: Text, message: Text },
    /// No recipes will come of this request, and why.
    #[error("recipe generation failed: {0:?}")]
    Generation(super::generation::Failure),
    /// A storage quota or the server's disk is full.
    #[error("{title}: {message}")]
    OutOfSpace { title: Text, message: Text },
}

impl DomainError {
    pub fn not_signed_in(title: impl Into<Text>, message: Text) -> Self {
        Self::NotSignedIn {
            title: title.into(),
            message,
        }
    }

    pub fn not_allowed(title: impl Into<Text>, message: Text) -> Self {
        Self::NotAllowed {
            title: title.into(),
            message,
        }
    }

    pub fn conflict(title: impl Into<Text>, message: Text) -> Self {
        Self::Conflict {
            title: title.into(),
            message,
        }
    }

    pub fn over_limit(title: impl Into<Text>, message: Text) -> Self {
        Self::OverLimit {
            title: title.into(),
            message,
        }
    }

    /// Refused by an attempt limit; `retry_after` is how long until the next attempt counts.
    pub fn too_many(retry_after: Duration) -> Self {
        Self::TooManyAttempts { retry_after }
    }

    pub fn expired(title: impl Into<Text>, message: Text) -> Self {
        Self::Expired {
            title: title.into(),
            message,
        }
    }

    pub fn out_of_space(title: impl Into<Text>, message: Text) -> Self {
        Self::OutOfSpace {
            title: title.into(),
            message,
        }
    }

    pub fn not_readable(title: impl Into<Text>, message: Text) -> Self {
        Self::NotReadable {
            title: title.into(),
            message,
        }
    }

    pub fn unavailable(title: impl Into<Text>, message: Text) -> Self {
        Self::Unavailable {
            title: title.into(),
            message,
        }
    }
}

/// "12 minutes", "30 seconds": how long until a limit lifts, for 'Please try again after <time>'.
pub fn human_duration(wait: Duration) -> Text {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let secs = secs.max(1);
    if secs < 60 {
        t_plural!("{{count}} second", "{{count}} seconds", secs)
    } else if secs < 3600 {
        t_plural!("{{count}} minute", "{{count}} minutes", secs.div_ceil(60))
    } else {
        t_plural!("{{count}} hour", "{{count}} hours", secs.div_ceil(3600))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_naturally_and_round_up() {
        assert_eq!(human_duration(Duration::from_millis(200)), "1 second");
        assert_eq!(human_duration(Duration::from_secs(30)), "30 seconds");
        assert_eq!(human_duration(Duration::from_secs(61)), "2 minutes");
        assert_eq!(human_duration(Duration::from_secs(900)), "15 minutes");
        assert_eq!(human_duration(Duration::from_secs(3600)), "1 hour");
    }
}
