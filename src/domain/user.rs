//! Accounts: parents (mom or dad) and guests. Rules from spec sections 3, 5, 6 and 9.

use crate::i18n::{Lang, Text};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::change::first_version;
use super::email::{EMAIL_MAX, Email};
use super::error::Invalid;
use super::ids::{FamilyId, MediaId, UserId};
use super::number::NumberInput;
use super::text::{NAME_MAX, char_len, field_label, sanitize_line, too_long_message};

pub const PASSWORD_MIN: usize = 8;
/// Hashing cost grows with length; nobody needs a longer password than this.
pub const PASSWORD_MAX: usize = 1024;
/// Guests live in a reserved domain that can never be a real address (RFC 2606).
pub const GUEST_DOMAIN: &str = "guest.invalid";
pub const GUEST_CHILDREN_MAX: u32 = 10;
/// Guests unused this long are removed with all their data.
pub const GUEST_IDLE_DAYS: i64 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ParentRole {
    Mom,
    Dad,
}

impl ParentRole {
    pub fn parse(input: &str) -> Option<ParentRole> {
        match input.trim().to_ascii_lowercase().as_str() {
            "mom" | "mum" => Some(ParentRole::Mom),
            "dad" => Some(ParentRole::Dad),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ParentRole::Mom => "mom",
            ParentRole::Dad => "dad",
        }
    }
}

/// A stored account. The password hash lives here too and never leaves the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct User {
    pub id: UserId,
    /// The household whose data this account sees. Accounts from before households have none
    /// stored; the store fills in their own id (see `store::users`).
    pub family_id: FamilyId,
    #[serde(default = "first_version")]
    pub version: u64,
    /// Sessions remember the epoch they started in; a password reset moves it on, which ends
    /// every older session at once, even one that was being created at that moment.
    #[serde(default)]
    pub session_epoch: u64,
    pub email: Email,
    pub first_name: String,
    pub last_name: String,
    pub role: ParentRole,
    #[serde(default)]
    pub is_guest: bool,
    /// Guests say how many children they have when they start.
    #[serde(default)]
    pub guest_children: Option<u32>,
    #[serde(default)]
    pub is_admin: bool,
    pub password_hash: String,
    #[serde(default)]
    pub avatar: Option<MediaId>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Last time a session of this user was used (updated at most hourly).
    pub last_seen_at: DateTime<Utc>,
    /// When the account joined its current family (`None`: when it was created).
    #[serde(default)]
    pub joined_family_at: Option<DateTime<Utc>>,
    /// The language chosen on the profile page; none: the browser's (then the server's).
    #[serde(default)]
    pub language: Option<Lang>,
}

impl User {
    /// A new parent account in a family of its own, at version 1.
    pub fn new(
        email: Email,
        first_name: String,
        last_name: String,
        role: ParentRole,
        password_hash: String,
        now: DateTime<Utc>,
    ) -> User {
        User {
            id: UserId::new(),
            family_id: FamilyId::new(),
            version: first_version(),
            session_epoch: 0,
            email,
            first_name,
            last_name,
            role,
            is_guest: false,
            guest_children: None,
            is_admin: false,
            password_hash,
            avatar: None,
            created_at: now,
            updated_at: now,
            last_seen_at: now,
            joined_family_at: None,
            language: None,
        }
    }

    /// When the account joined its current family.
    pub fn joined_at(&self) -> DateTime<Utc> {
        self.joined_family_at.unwrap_or(self.created_at)
    }

    /// The role shown on the profile: `guest` for guest accounts, otherwise the parent's role.
    pub fn display_role(&self) -> &'static str {
        if self.is_guest {
            "guest"
        } else {
            self.role.as_str()
        }
    }

    /// Whether a guest has been idle long enough to be removed.
    pub fn is_stale_guest(&self, now: DateTime<Utc>) -> bool {
        self.is_guest && now - self.last_seen_at > chrono::Duration::days(GUEST_IDLE_DAYS)
    }
}

const SIGNUP: Text = t!("Sign up failed");

/// A sign-up with an address that already has an account.
pub fn email_taken() -> super::DomainError {
    super::DomainError::conflict(SIGNUP, t!("An account with this email already exists"))
}
const MISSING: Text = t!("Missing information");

fn check_name(value: &str, field: &str, title: &Text) -> Result<String, Invalid> {
    let name = sanitize_line(value);
    if char_len(&name) > NAME_MAX {
        return Err(Invalid::new(
            title,
            too_long_message(field_label(field), NAME_MAX),
            field,
        ));
    }
    Ok(name)
}

/// Password length rules shared by sign-up, reset and the admin CLI.
pub fn check_password(password: &str, title: &Text) -> Result<(), Invalid> {
    if char_len(password) < PASSWORD_MIN {
        return Err(Invalid::new(
            t!("Password too short"),
            t!("Password must be at least 8 characters"),
            "password",
        ));
    }
    if char_len(password) > PASSWORD_MAX {
        return Err(Invalid::new(
            title,
            too_long_message(t!("Password"), PASSWORD_MAX),
            "password",
        ));
    }
    Ok(())
}

fn check_email(value: &str, title: &Text) -> Result<Email, Invalid> {
    if char_len(value.trim()) > EMAIL_MAX {
        return Err(Invalid::new(
            title,
            too_long_message(t!("Email"), EMAIL_MAX),
            "email",
        ));
    }
    let email = Email::parse(value).ok_or_else(|| {
        Invalid::new(
            t!("Invalid email"),
            t!("Please enter a valid email address"),
            "email",
        )
    })?;
    if email.domain() == GUEST_DOMAIN {
        return Err(Invalid::new(
            t!("Invalid email"),
            t!("Please enter a valid email address"),
            "email",
        ));
    }
    Ok(email)
}

/// A sign-up form before validation.
#[derive(Debug, Clone, Default)]
pub struct SignupDraft {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub password: String,
    pub role: String,
    pub accept_terms: bool,
}

/// A validated sign-up; the password is still clear text, to be hashed off the async threads.
#[derive(Debug, Clone)]
pub struct Signup {
    pub first_name: String,
    pub last_name: String,
    pub email: Email,
    pub password: String,
    pub role: ParentRole,
}

impl SignupDraft {
    /// The sign-up form's rules: every field required, terms accepted.
    pub fn validate(self) -> Result<Signup, Invalid> {
        self.check(true)
    }

    /// An account the admin creates: the last name may be empty and there are no terms to tick.
    pub fn validate_for_admin(self) -> Result<Signup, Invalid> {
        self.check(false)
    }

    fn check(self, form: bool) -> Result<Signup, Invalid> {
        if self.email.trim().is_empty() && self.password.is_empty() {
            return Err(Invalid::general(
                SIGNUP,
                t!("You must provide either an email or phone number and a password"),
            ));
        }
        let first = check_name(&self.first_name, "firstName", &SIGNUP)?;
        let last = check_name(&self.last_name, "lastName", &SIGNUP)?;
        let required = [
            ("firstName", first.is_empty()),
            ("lastName", form && last.is_empty()),
            ("email", self.email.trim().is_empty()),
            ("password", self.password.is_empty()),
        ];
        if let Some((field, _)) = required.iter().find(|(_, missing)| *missing) {
            return Err(Invalid::new(
                MISSING,
                t!("Please fill in all required fields"),
                field,
            ));
        }
        let email = check_email(&self.email, &SIGNUP)?;
        check_password(&self.password, &SIGNUP)?;
        let role = if self.role.trim().is_empty() {
            ParentRole::Mom
        } else {
            ParentRole::parse(&self.role)
                .ok_or_else(|| Invalid::new(SIGNUP, t!("Please choose Mom or Dad"), "role"))?
        };
        if form && !self.accept_terms {
            return Err(Invalid::new(
                t!("Terms not accepted"),
                t!("You must agree to the Terms of Service and Privacy Policy"),
                "acceptTerms",
            ));
        }
        Ok(Signup {
            first_name: first,
            last_name: last,
            email,
            password: self.password,
            role,
        })
    }
}

/// Sign-in form rules: both fields are required. The e-mail is not checked further, so a
/// malformed address fails like any unknown one.
pub fn validate_login(email: &str, password: &str) -> Result<(), Invalid> {
    if email.trim().is_empty() || password.is_empty() {
        return Err(Invalid::general(
            MISSING,
            t!("Please enter both email and password"),
        ));
    }
    Ok(())
}

const GUEST: Text = t!("Guest access failed");

/// The guest form: a first name and 1 to 10 children (1 when the value is not a number).
#[derive(Debug, Clone)]
pub struct GuestDraft {
    pub first_name: String,
    pub children: NumberInput,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guest {
    /// Stored as `Guest_<name>` (spec section 6).
    pub first_name: String,
    pub children: u32,
}

impl GuestDraft {
    pub fn validate(self) -> Result<Guest, Invalid> {
        let name = check_name(&self.first_name, "firstName", &GUEST)?;
        if name.is_empty() {
            return Err(Invalid::new(
                t!("Name required"),
                t!("Please enter your first name"),
                "firstName",
            ));
        }
        let children = guest_children(&self.children)?;
        let first_name = format!("Guest_{name}");
        if char_len(&first_name) > NAME_MAX {
            return Err(Invalid::new(
                GUEST,
                too_long_message(t!("First name"), NAME_MAX - 6),
                "firstName",
            ));
        }
        Ok(Guest {
            first_name,
            children,
        })
    }
}

fn guest_children(value: &NumberInput) -> Result<u32, Invalid> {
    let Some(number) = value.as_number() else {
        return Ok(1);
    };
    let whole = number.trunc();
    if !(1.0..=f64::from(GUEST_CHILDREN_MAX)).contains(&whole) {
        return Err(Invalid::new(
            GUEST,
            t!("Number of children must be between 1 and 10"),
            "children",
        ));
    }
    Ok(whole as u32)
}

/// A language chosen on the profile page: one of the catalogues' codes, or empty for none
/// (the browser's language then).
pub fn parse_language(raw: &str) -> Result<Option<Lang>, Invalid> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    raw.parse::<Lang>().map(Some).map_err(|()| {
        Invalid::new(
            t!("Update failed"),
            t!("Please choose one of the languages: en, fr, de, es"),
            "language",
        )
    })
}

/// Profile changes: first and last name (the e-mail is read-only).
pub fn validate_profile(first_name: &str, last_name: &str) -> Result<(String, String), Invalid> {
    const TITLE: Text = t!("Update failed");
    let first = check_name(first_name, "firstName", &TITLE)?;
    let last = check_name(last_name, "lastName", &TITLE)?;
    if first.is_empty() {
        return Err(Invalid::new(
            TITLE,
            t!("Please enter your first name"),
            "firstName",
        ));
    }
    Ok((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft() -> SignupDraft {
        SignupDraft {
            first_name: "Amira".into(),
            last_name: "Khan".into(),
            email: "Amira@Example.org".into(),
            password: "correct horse".into(),
            role: "dad".into(),
            accept_terms: true,
        }
    }

    fn err(d: SignupDraft) -> Invalid {
        d.validate().unwrap_err()
    }

    #[test]
    fn a_language_is_one_of_the_catalogues_or_none() {
        assert_eq!(parse_language("fr"), Ok(Some(Lang::Fr)));
        assert_eq!(parse_language(" DE "), Ok(Some(Lang::De)));
        assert_eq!(parse_language(""), Ok(None));
        let err = parse_language("it").unwrap_err();
        assert_eq!(err.field.as_deref(), Some("language"));
        assert_eq!(
            err.message,
            "Please choose one of the languages: en, fr, de, es"
        );
    }

    #[test]
    fn valid_signup_is_normalised() {
        let s = draft().validate().unwrap();
        assert_eq!(s.email.as_str(), "amira@example.org");
        assert_eq!(s.role, ParentRole::Dad);
        let s = SignupDraft {
            role: String::new(),
            ..draft()
        }
        .validate()
        .unwrap();
        assert_eq!(s.role, ParentRole::Mom, "mom by default");
    }

    #[test]
    fn signup_messages_follow_the_spec() {
        let e = err(SignupDraft {
            last_name: "  ".into(),
            ..draft()
        });
        assert_eq!(
            (e.title.to_string().as_str(), e.message.to_string().as_str()),
            ("Missing information", "Please fill in all required fields")
        );
        assert_eq!(e.field.as_deref(), Some("lastName"));

        let e = err(SignupDraft {
            email: String::new(),
            password: String::new(),
            ..draft()
        });
        assert_eq!(
            e.message,
            "You must provide either an email or phone number and a password"
        );

        let e = err(SignupDraft {
            password: "short".into(),
            ..draft()
        });
        assert_eq!(
            (e.title.to_string().as_str(), e.message.to_string().as_str()),
            (
                "Password too short",
                "Password must be at least 8 characters"
            )
        );

        let e = err(SignupDraft {
            accept_terms: false,
            ..draft()
        });
        assert_eq!(e.title, "Terms not accepted");
        assert_eq!(
            e.message,
            "You must agree to the Terms of Service and Privacy Policy"
        );

        let e = err(SignupDraft {
            email: "nope".into(),
            ..draft()
        });
        assert_eq!(e.message, "Please enter a valid email address");

        let e = err(SignupDraft {
            email: "x@guest.invalid".into(),
            ..draft()
        });
        assert_eq!(
            e.field.as_deref(),
            Some("email"),
            "the guest domain is reserved"
        );

        let e = err(SignupDraft {
            role: "uncle".into(),
            ..draft()
        });
        assert_eq!(e.field.as_deref(), Some("role"));

        let e = err(SignupDraft {
            first_name: "n".repeat(101),
            ..draft()
        });
        assert_eq!(e.message, "First name must be 100 characters or less");
    }

    #[test]
    fn the_admin_may_leave_out_the_last_name_and_terms() {
        let s = SignupDraft {
            last_name: String::new(),
            accept_terms: false,
            ..draft()
        }
        .validate_for_admin()
        .unwrap();
        assert_eq!(s.last_name, "");
        assert!(
            SignupDraft {
                password: "short".into(),
                ..draft()
            }
            .validate_for_admin()
            .is_err()
        );
    }

    #[test]
    fn password_of_exactly_eight_is_enough() {
        assert!(check_password("12345678", &t!("x")).is_ok());
        assert!(check_password(&"p".repeat(1025), &t!("x")).is_err());
    }

    #[test]
    fn login_needs_both_fields() {
        let e = validate_login(" ", "pw").unwrap_err();
        assert_eq!(
            (e.title.to_string().as_str(), e.message.to_string().as_str()),
            (
                "Missing information",
                "Please enter both email and password"
            )
        );
        assert!(validate_login("a@b.io", "").is_err());
        assert!(validate_login("anything", "pw").is_ok());
    }

    #[test]
    fn guest_rules() {
        let g = |name: &str, children: NumberInput| {
            GuestDraft {
                first_name: name.into(),
                children,
            }
            .validate()
        };
        assert_eq!(
            g("Sam", NumberInput::Number(3.0)).unwrap(),
            Guest {
                first_name: "Guest_Sam".into(),
                children: 3
            }
        );
        assert_eq!(g("Sam", NumberInput::Absent).unwrap().children, 1);
        assert_eq!(
            g("Sam", NumberInput::Text("lots".into())).unwrap().children,
            1,
            "not numeric falls back to 1"
        );
        assert_eq!(g("Sam", NumberInput::Text("4".into())).unwrap().children, 4);
        assert_eq!(g("Sam", NumberInput::Number(10.0)).unwrap().children, 10);
        assert!(g("Sam", NumberInput::Number(11.0)).is_err());
        assert!(g("Sam", NumberInput::Number(0.0)).is_err());
        let e = g("  ", NumberInput::Absent).unwrap_err();
        assert_eq!(
            (e.title.to_string().as_str(), e.message.to_string().as_str()),
            ("Name required", "Please enter your first name")
        );
    }

    #[test]
    fn profile_names() {
        assert_eq!(
            validate_profile(" Ann ", "").unwrap(),
            ("Ann".into(), String::new())
        );
        assert!(validate_profile("", "Lee").is_err());
        assert!(validate_profile("A", &"x".repeat(101)).is_err());
    }

    #[test]
    fn stale_guests() {
        let now = Utc::now();
        let mut u = User {
            id: UserId::new(),
            family_id: FamilyId::new(),
            version: 1,
            session_epoch: 0,
            email: Email::parse("g@guest.invalid").unwrap(),
            first_name: "Guest_Sam".into(),
            last_name: String::new(),
            role: ParentRole::Mom,
            is_guest: true,
            guest_children: Some(1),
            is_admin: false,
            password_hash: String::new(),
            avatar: None,
            created_at: now,
            updated_at: now,
            last_seen_at: now - chrono::Duration::days(31),
            joined_family_at: None,
            language: None,
        };
        assert!(u.is_stale_guest(now));
        assert_eq!(u.display_role(), "guest");
        u.last_seen_at = now - chrono::Duration::days(29);
        assert!(!u.is_stale_guest(now));
        u.is_guest = false;
        u.last_seen_at = now - chrono::Duration::days(400);
        assert!(!u.is_stale_guest(now));
        assert_eq!(u.display_role(), "mom");
    }
}
