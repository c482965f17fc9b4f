//! The one error type of the domain layer. Each variant says what happened; the API layer
//! alone chooses the HTTP status for it (`api/error.rs`).

use std::time::Duration;

/// Bad input: the spec's toast title and message, and the field it is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{title}: {message}")]
pub struct Invalid {
    pub title: String,
    pub message: String,
    pub field: Option<String>,
}

impl Invalid {
    pub fn new(title: &str, message: impl Into<String>, field: &str) -> Self {
        Self {
            title: title.to_string(),
            message: message.into(),
            field: Some(field.to_string()),
        }
    }

    /// A problem with the request as a whole rather than one field.
    pub fn general(title: &str, message: impl Into<String>) -> Self {
        Self {
            title: title.to_string(),
            message: message.into(),
            field: None,
        }
    }
}

/// The version an update was made on (DESIGN: every update carries it, and a stale one is a
/// 409 with the record as it is now). Without one, a save would overwrite silently whatever
/// another parent saved meanwhile: 400 naming the field.
pub fn required_version(version: Option<u64>, title: &str) -> Result<u64, Invalid> {
    version.ok_or_else(|| {
        Invalid::new(
            title,
            "Please send the version this change was made on (reload and try again)",
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
    NotSignedIn { title: String, message: String },
    /// Known, but a rule does not let them (sign-up closed, the family's last parent leaving).
    #[error("{title}: {message}")]
    NotAllowed { title: String, message: String },
    /// It clashes with what is there (an e-mail already used).
    #[error("{title}: {message}")]
    Conflict { title: String, message: String },
    #[error("too many attempts")]
    TooManyAttempts { retry_after: Duration },
    /// Refused until someone else acts (a co-parent link locked by wrong PINs); `retry_after`
    /// is only a hint for clients.
    #[error("{title}: {message}")]
    Blocked {
        title: String,
        message: String,
        retry_after: Duration,
    },
    /// Bigger than allowed (an upload, a photo that would need too much memory to read).
    #[error("{title}: {message}")]
    OverLimit { title: String, message: String },
    /// A file that is not what it should be (not an image, or a damaged one).
    #[error("{title}: {message}")]
    NotReadable { title: String, message: String },
    /// Something the request needs cannot be had now (a guest account could not be made).
    #[error("{title}: {message}")]
    Unavailable { title: String, message: String },
    /// A link that existed but has expired or been used.
    #[error("{title}: {message}")]
    Expired { title: String, message: String },
    /// No recipes will come of this request, and why.
    #[error("recipe generation failed: {0:?}")]
    Generation(super::generation::Failure),
    /// A storage quota or the server's disk is full.
    #[error("{title}: {message}")]
    OutOfSpace { title: String, message: String },
}

impl DomainError {
    pub fn not_signed_in(title: &str, message: impl Into<String>) -> Self {
        Self::NotSignedIn {
            title: title.into(),
            message: message.into(),
        }
    }

    pub fn not_allowed(title: &str, message: impl Into<String>) -> Self {
        Self::NotAllowed {
            title: title.into(),
            message: message.into(),
        }
    }

    pub fn conflict(title: &str, message: impl Into<String>) -> Self {
        Self::Conflict {
            title: title.into(),
            message: message.into(),
        }
    }

    pub fn over_limit(title: &str, message: impl Into<String>) -> Self {
        Self::OverLimit {
            title: title.into(),
            message: message.into(),
        }
    }

    /// Refused by an attempt limit; `retry_after` is how long until the next attempt counts.
    pub fn too_many(retry_after: Duration) -> Self {
        Self::TooManyAttempts { retry_after }
    }

    pub fn expired(title: &str, message: impl Into<String>) -> Self {
        Self::Expired {
            title: title.into(),
            message: message.into(),
        }
    }

    pub fn out_of_space(title: &str, message: impl Into<String>) -> Self {
        Self::OutOfSpace {
            title: title.into(),
            message: message.into(),
        }
    }

    pub fn not_readable(title: &str, message: impl Into<String>) -> Self {
        Self::NotReadable {
            title: title.into(),
            message: message.into(),
        }
    }

    pub fn unavailable(title: &str, message: impl Into<String>) -> Self {
        Self::Unavailable {
            title: title.into(),
            message: message.into(),
        }
    }
}

/// "12 minutes", "30 seconds": how long until a limit lifts, for 'Please try again after <time>'.
pub fn human_duration(wait: Duration) -> String {
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let secs = secs.max(1);
    let (n, unit) = if secs < 60 {
        (secs, "second")
    } else if secs < 3600 {
        (secs.div_ceil(60), "minute")
    } else {
        (secs.div_ceil(3600), "hour")
    };
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
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
