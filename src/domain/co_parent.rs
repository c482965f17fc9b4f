//! Co-parents (spec sections 3, 4, 5 and 9): someone without an account who sees a family's
//! meals and grocery lists through a link plus a 6-digit PIN. The link's token is a random
//! UUID v4 (never time-ordered); the PIN is stored only as a salted PBKDF2 hash (`PinHash`,
//! made in `auth::pin`).

use crate::i18n::Text;
use std::fmt;

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::change::first_version;
use super::email::{EMAIL_MAX, Email};
use super::error::{DomainError, Invalid};
use super::ids::{CoParentId, FamilyId, UserId};
use super::text::{NAME_MAX, char_len, sanitize_line, strip_markup, too_long_message};

/// How long a link works after it is made or extended (spec section 9).
pub const LINK_DAYS: i64 = 7;
/// Wrong PINs over a link's lifetime that lock it until the owner resets the PIN.
pub const LIFETIME_FAILURES_MAX: u32 = 10;
/// Co-parents one family may have (a bound on lists and on the work one family can cause).
pub const CO_PARENTS_MAX: usize = 20;
/// Every PIN is exactly this many digits (spec: 6; its "4-digit" mention is a known slip).
pub const PIN_LEN: usize = 6;
/// Generated PINs are drawn from this range (spec section 7).
pub const GENERATED_PIN_MIN: u32 = 100_000;
pub const GENERATED_PIN_MAX: u32 = 999_999;
/// PIN guesses per link allowed within `PIN_WINDOW_MINUTES` (spec section 9).
pub const PIN_WINDOW_FAILURES: u32 = 3;
pub const PIN_WINDOW_MINUTES: u64 = 15;
/// The spec's backoff never waits longer than this.
pub const PIN_BACKOFF_MAX_SECS: i64 = 30;
/// How long a co-parent's session lasts (DESIGN: 24 hours, not sliding).
pub const SHARE_SESSION_HOURS: i64 = 24;

// The spec's toast titles (section 8).
pub const INVITE_TITLE: Text = t!("Error inviting co-parent");
pub const PIN_TITLE: Text = t!("Error generating PIN");
pub const DELETE_TITLE: Text = t!("Error deleting co-parent");
pub const SETUP_TITLE: Text = t!("Error setting up PIN");
pub const WEAK_PIN_TITLE: Text = t!("Weak PIN");
pub const BLOCKED_TITLE: Text = t!("Access blocked");

const MISSING_TITLE: Text = t!("Missing information");
const MISSING_MESSAGE: Text = t!("Please provide both name and email");
const NAME_TITLE: Text = t!("Invalid name");
const NAME_MESSAGE: Text =
    t!("Please enter a valid name (letters, spaces, hyphens, and apostrophes only)");
const EMAIL_TITLE: Text = t!("Invalid email");
const EMAIL_MESSAGE: Text = t!("Please enter a valid email address");

/// The secret in a co-parent's link: a random UUID v4. Only a v4 parses, so anything else
/// (a record id, junk) is refused before the store is asked.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ShareToken(uuid::Uuid);

impl ShareToken {
    /// A fresh random token (122 random bits from the operating system's CSPRNG).
    #[allow(clippy::new_without_default)]
    pub fn new() -> ShareToken {
        ShareToken(uuid::Uuid::new_v4())
    }

    /// The token of a link; `None` for anything that is not a UUID v4 in the hyphenated form
    /// links carry (either case). The simple, braced and URN spellings of the same UUID are
    /// refused, so one link has one spelling (one limiter key, one cookie path).
    pub fn parse(text: &str) -> Option<ShareToken> {
        if text.len() != 36 {
            return None;
        }
        uuid::Uuid::try_parse(text)
            .ok()
            .filter(|u| u.get_version_num() == 4)
            .map(ShareToken)
    }

    pub fn as_bytes(&self) -> &[u8; 16] {
        self.0.as_bytes()
    }

    pub fn as_uuid(&self) -> uuid::Uuid {
        self.0
    }
}

impl fmt::Display for ShareToken {
    /// The form links carry (lower-case, hyphenated).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

impl fmt::Debug for ShareToken {
    /// Never the token itself: debug output ends up in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ShareToken(…)")
    }
}

/// A PIN: exactly six ASCII digits. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct Pin(String);

impl Pin {
    /// A PIN as entered to open a session: six digits (surrounding spaces from a paste are
    /// dropped). Strength is not checked here: that is for choosing one (`Pin::choose`).
    pub fn parse(input: &str) -> Option<Pin> {
        let text = input.trim();
        (text.len() == PIN_LEN && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| Pin(text.to_string()))
    }

    /// A generated PIN from a number drawn in `GENERATED_PIN_MIN..=GENERATED_PIN_MAX`; `None`
    /// when it is out of range or one a co-parent would not be allowed to choose (111111,
    /// 123456, 654321), so the caller draws again.
    pub fn generated(n: u32) -> Option<Pin> {
        if !(GENERATED_PIN_MIN..=GENERATED_PIN_MAX).contains(&n) {
            return None;
        }
        let pin = Pin(n.to_string());
        pin.weakness().is_none().then_some(pin)
    }

    /// A PIN a co-parent chooses, entered twice (spec section 5, with exactly 6 digits as the
    /// project's rule).
    pub fn choose(pin: &str, confirm: &str) -> Result<Pin, Invalid> {
        let text = pin.trim();
        let weak = |message: Text| Invalid::new(WEAK_PIN_TITLE, message, "pin");
        if text.chars().count() < PIN_LEN {
            return Err(weak(t!("PIN must be at least 6 characters long")));
        }
        if !text.chars().all(|c| c.is_ascii_digit()) {
            return Err(weak(t!("PIN must contain only numbers")));
        }
        if text.len() > PIN_LEN {
            return Err(weak(t!("PIN must be exactly 6 digits")));
        }
        let chosen = Pin(text.to_string());
        if let Some(message) = chosen.weakness() {
            return Err(weak(message));
        }
        if confirm.trim() != text {
            return Err(Invalid::new(
                SETUP_TITLE,
                t!("PINs do not match"),
                "confirmPin",
            ));
        }
        Ok(chosen)
    }

    /// Why a six-digit PIN is too easy to guess, in the spec's words.
    fn weakness(&self) -> Option<Text> {
        let bytes = self.0.as_bytes();
        if bytes.iter().all(|b| *b == bytes[0]) {
            return Some(t!("PIN cannot be all the same digit"));
        }
        if ["012345", "123456", "654321", "098765"]
            .iter()
            .any(|s| self.0.starts_with(s))
        {
            return Some(t!("PIN cannot be a sequential pattern"));
        }
        None
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Pin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Pin(******)")
    }
}

/// A PIN's stored hash in its encoded form, parameters included
/// (`pbkdf2-sha256$<iterations>$<salt>$<hash>`), so they can change later. Made and checked
/// by `auth::pin`; opaque here.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PinHash(String);

impl PinHash {
    pub fn from_encoded(encoded: String) -> PinHash {
        PinHash(encoded)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for PinHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PinHash(…)")
    }
}

/// What the invite form sends, before validation.
#[derive(Debug, Clone, Default)]
pub struct CoParentDraft {
    pub name: String,
    pub email: String,
}

/// A validated invite.
#[derive(Debug, Clone, PartialEq)]
pub struct CoParentFields {
    pub name: String,
    pub email: Email,
}

impl CoParentDraft {
    pub fn validate(self) -> Result<CoParentFields, Invalid> {
        if self.name.trim().is_empty() {
            return Err(Invalid::new(MISSING_TITLE, MISSING_MESSAGE, "name"));
        }
        if self.email.trim().is_empty() {
            return Err(Invalid::new(MISSING_TITLE, MISSING_MESSAGE, "email"));
        }
        let name = clean_name(&self.name)?;
        let email = sanitize_line(&self.email);
        if char_len(&email) > EMAIL_MAX {
            return Err(Invalid::new(
                EMAIL_TITLE,
                too_long_message(t!("Email"), EMAIL_MAX),
                "email",
            ));
        }
        let email = Email::parse(&email)
            .ok_or_else(|| Invalid::new(EMAIL_TITLE, EMAIL_MESSAGE, "email"))?;
        Ok(CoParentFields { name, email })
    }
}

/// A co-parent's name: trimmed, markup stripped, 1 to 100 characters of letters of any
/// alphabet (with their combining accents), spaces, hyphens and apostrophes, and at least one
/// letter.
pub fn clean_name(input: &str) -> Result<String, Invalid> {
    let name = sanitize_line(&strip_markup(input));
    if char_len(&name) > NAME_MAX {
        return Err(Invalid::new(
            NAME_TITLE,
            too_long_message(t!("Name"), NAME_MAX),
            "name",
        ));
    }
    let mut previous_is_letter = false;
    let mut letters = 0;
    for c in name.chars() {
        let ok = if c.is_alphabetic() {
            letters += 1;
            true
        } else if is_combining_mark(c) {
            // An accent typed as its own character ("Zoe" + U+0308) belongs to a letter.
            previous_is_letter
        } else {
            c == ' ' || is_hyphen(c) || is_apostrophe(c)
        };
        if !ok {
            return Err(Invalid::new(NAME_TITLE, NAME_MESSAGE, "name"));
        }
        previous_is_letter = c.is_alphabetic() || (previous_is_letter && is_combining_mark(c));
    }
    if letters == 0 {
        return Err(Invalid::new(NAME_TITLE, NAME_MESSAGE, "name"));
    }
    Ok(name)
}

fn is_hyphen(c: char) -> bool {
    // ASCII hyphen-minus, and the hyphens phones and word processors substitute.
    matches!(c, '-' | '\u{2010}' | '\u{2011}')
}

fn is_apostrophe(c: char) -> bool {
    // ASCII, and the typographic one phones type ("O’Brien").
    matches!(c, '\'' | '\u{2019}')
}

fn is_combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// Where a co-parent's access stands, as the owner sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoParentState {
    /// Invited; the co-parent has not yet set a PIN of their own or opened a session.
    Pending,
    /// The co-parent has set a PIN or opened a session.
    Active,
    /// The link's expiry is not after now (spec section 4); the owner can extend it.
    Expired,
    /// `LIFETIME_FAILURES_MAX` wrong PINs: locked until the owner resets the PIN. Shown before
    /// Expired, since extending alone does not unlock it.
    Locked,
}

/// What the link itself tells its holder (expired links answer 410 instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShareState {
    Pending,
    Active,
}

/// A co-parent of a family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoParent {
    pub id: CoParentId,
    pub family: FamilyId,
    #[serde(default = "first_version")]
    pub version: u64,
    pub name: String,
    pub email: Email,
    /// The link's secret (indexed `token -> family ++ id`).
    pub token: ShareToken,
    /// The current PIN's hash; none only if it was never set.
    #[serde(default)]
    pub pin_hash: Option<PinHash>,
    /// The parent who sent the invitation.
    pub invited_by: UserId,
    /// Always true: the link is handed over by the parent who made it (spec section 3).
    pub invitation_sent: bool,
    /// When the co-parent first set their own PIN or opened a session (Pending until then).
    #[serde(default)]
    pub accepted_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// Wrong PINs over the link's lifetime; reset with the PIN.
    #[serde(default)]
    pub failures_total: u32,
    /// When the latest wrong PIN came (for the backoff).
    #[serde(default)]
    pub last_failure_at: Option<DateTime<Utc>>,
    /// Share sessions carry the epoch they were opened in; a session with an older epoch is
    /// ended. Moved on by every PIN reset (removal deletes the record, which ends them all).
    #[serde(default)]
    pub session_epoch: u64,
}

impl CoParent {
    pub fn new(
        family: FamilyId,
        by: UserId,
        fields: CoParentFields,
        pin_hash: PinHash,
        now: DateTime<Utc>,
    ) -> CoParent {
        CoParent {
            id: CoParentId::new(),
            family,
            version: first_version(),
            name: fields.name,
            email: fields.email,
            token: ShareToken::new(),
            pin_hash: Some(pin_hash),
            invited_by: by,
            invitation_sent: true,
            accepted_at: None,
            created_at: now,
            updated_at: now,
            expires_at: now + Duration::days(LINK_DAYS),
            failures_total: 0,
            last_failure_at: None,
            session_epoch: 0,
        }
    }

    pub fn is_expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at <= now
    }

    pub fn is_locked(&self) -> bool {
        self.failures_total >= LIFETIME_FAILURES_MAX
    }

    pub fn pin_set(&self) -> bool {
        self.pin_hash.is_some()
    }

    pub fn state(&self, now: DateTime<Utc>) -> CoParentState {
        if self.is_locked() {
            CoParentState::Locked
        } else if self.is_expired(now) {
            CoParentState::Expired
        } else {
            match self.share_state() {
                ShareState::Pending => CoParentState::Pending,
                ShareState::Active => CoParentState::Active,
            }
        }
    }

    pub fn share_state(&self) -> ShareState {
        if self.accepted_at.is_some() {
            ShareState::Active
        } else {
            ShareState::Pending
        }
    }

    /// A new PIN from the owner: replaces the old one, unlocks the link and ends every share
    /// session (their epoch is now older).
    pub fn replace_pin(&mut self, hash: PinHash, now: DateTime<Utc>) {
        self.pin_hash = Some(hash);
        self.failures_total = 0;
        self.last_failure_at = None;
        self.session_epoch += 1;
        self.updated_at = now;
    }

    /// Another `LINK_DAYS` from the later of now and the current expiry.
    pub fn extend(&mut self, now: DateTime<Utc>) {
        self.expires_at = self.expires_at.max(now) + Duration::days(LINK_DAYS);
        self.updated_at = now;
    }

    /// The co-parent, signed in with the PIN the parent shared, chose their own: it replaces
    /// that one and the link is Active. Every session opened with the old PIN ends.
    pub fn choose_pin(&mut self, hash: PinHash, now: DateTime<Utc>) {
        self.pin_hash = Some(hash);
        self.accepted_at.get_or_insert(now);
        self.session_epoch += 1;
        self.updated_at = now;
    }

    /// A right PIN opened a session: the link is Active from now on.
    pub fn accept(&mut self, now: DateTime<Utc>) {
        if self.accepted_at.is_none() {
            self.accepted_at = Some(now);
            self.updated_at = now;
        }
    }

    /// A wrong (or missing) PIN, counted over the link's lifetime.
    pub fn record_failure(&mut self, now: DateTime<Utc>) {
        self.failures_total = self.failures_total.saturating_add(1);
        self.last_failure_at = Some(now);
        self.updated_at = now;
    }

    /// Takes one guess before the PIN is compared: refused as `check_can_guess` says, else
    /// counted as a failure at once, so guesses in flight together cannot pass the lifetime
    /// cap or the backoff. Returns what `release_guess` needs to give it back.
    pub fn reserve_guess(&mut self, now: DateTime<Utc>) -> Result<Reserved, DomainError> {
        check_can_guess(self, now)?;
        let reserved = Reserved {
            epoch: self.session_epoch,
            last_failure_at: self.last_failure_at,
        };
        self.record_failure(now);
        Ok(reserved)
    }

    /// The PIN was right: the reserved guess was no failure. Nothing to give back after a PIN
    /// reset (it cleared the count).
    pub fn release_guess(&mut self, reserved: &Reserved) {
        if self.session_epoch == reserved.epoch {
            self.failures_total = self.failures_total.saturating_sub(1);
            self.last_failure_at = reserved.last_failure_at;
        }
    }

    /// Whether a share session opened in `epoch` still admits its holder at `now`: the PIN
    /// was not replaced since and the link has not expired.
    pub fn admits(&self, epoch: u64, now: DateTime<Utc>) -> bool {
        self.session_epoch == epoch && !self.is_expired(now)
    }
}

/// A guess taken by `CoParent::reserve_guess`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reserved {
    pub epoch: u64,
    last_failure_at: Option<DateTime<Utc>>,
}

/// How long a link waits after its latest wrong PIN before it takes another guess (spec
/// section 9: 2^(n-3) seconds from the third failure on, at most 30 s).
pub fn pin_backoff(
    failures: u32,
    last_failure: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Option<std::time::Duration> {
    if failures < 3 {
        return None;
    }
    let wait = Duration::seconds((1i64 << (failures - 3).min(5)).min(PIN_BACKOFF_MAX_SECS));
    let until = last_failure? + wait;
    (until > now).then(|| (until - now).to_std().unwrap_or_default())
}

/// The checks before a PIN is compared: an expired link is 410, a locked one 429 until the
/// owner resets the PIN, and a link in its backoff 429 for the rest of it.
pub fn check_can_guess(co_parent: &CoParent, now: DateTime<Utc>) -> Result<(), DomainError> {
    check_link(co_parent, now)?;
    check_not_locked(co_parent)?;
    if let Some(retry_after) = pin_backoff(co_parent.failures_total, co_parent.last_failure_at, now)
    {
        return Err(DomainError::TooManyAttempts { retry_after });
    }
    Ok(())
}

/// A link with `LIFETIME_FAILURES_MAX` wrong PINs takes nothing until the owner resets its PIN.
pub fn check_not_locked(co_parent: &CoParent) -> Result<(), DomainError> {
    if co_parent.is_locked() {
        return Err(DomainError::Blocked {
            title: BLOCKED_TITLE,
            message: t!(
                "Too many failed attempts. Please ask the parent who invited you for a new PIN."
            ),
            // Only the owner unlocks it: a day is a hint not to retry soon.
            retry_after: std::time::Duration::from_secs(24 * 3600),
        });
    }
    Ok(())
}

/// A wrong or missing PIN: 401 with the spec's words.
pub fn wrong_pin() -> DomainError {
    DomainError::not_signed_in(t!("Invalid PIN"), t!("Invalid PIN. Please try again."))
}

/// A share request without a live session for the link (none, expired, ended by a PIN reset).
pub fn session_expired() -> DomainError {
    DomainError::not_signed_in(
        t!("Session expired"),
        t!("Your session has expired. Please enter your PIN again."),
    )
}

/// What a link answers while it works: an expired one is 410 with the spec's text.
pub fn check_link(co_parent: &CoParent, now: DateTime<Utc>) -> Result<(), DomainError> {
    if co_parent.is_expired(now) {
        return Err(DomainError::expired(
            t!("Invitation expired"),
            t!("This invitation has expired. Please ask for a new invitation."),
        ));
    }
    Ok(())
}

/// An unknown (or malformed) link: 404 with the spec's text, the same for every such token.
pub fn unknown_link() -> DomainError {
    DomainError::Missing(Invalid::general(
        t!("Invalid invitation"),
        t!("Invalid or expired invitation"),
    ))
}

/// The checks of a new invite against the family's current co-parents (inside the write).
pub fn check_can_add(existing: &[CoParent], email: &Email) -> Result<(), DomainError> {
    if existing.len() >= CO_PARENTS_MAX {
        return Err(too_many_co_parents());
    }
    if existing.iter().any(|c| &c.email == email) {
        return Err(already_a_co_parent());
    }
    Ok(())
}

/// The family has `CO_PARENTS_MAX` co-parents already.
pub fn too_many_co_parents() -> DomainError {
    DomainError::conflict(
        INVITE_TITLE,
        t!(
            "This family already has {{max}} co-parents. Remove one first.",
            max = CO_PARENTS_MAX
        ),
    )
}

/// The address is one of the family's co-parents already.
pub fn already_a_co_parent() -> DomainError {
    DomainError::conflict(
        INVITE_TITLE,
        t!(
            "This email address is already invited as a co-parent. Reset their PIN or extend their link instead."
        ),
    )
}

/// Guests keep single-member families and share nothing (spec section 6: only a logged-in
/// parent invites co-parents).
pub fn check_can_invite(is_guest: bool) -> Result<(), DomainError> {
    if is_guest {
        return Err(DomainError::not_allowed(
            INVITE_TITLE,
            t!("Guests cannot invite co-parents. Sign up for an account to share your family."),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft(name: &str, email: &str) -> CoParentDraft {
        CoParentDraft {
            name: name.into(),
            email: email.into(),
        }
    }

    fn co_parent(now: DateTime<Utc>) -> CoParent {
        let fields = draft("Zoë Dvořák", "zoe@example.org").validate().unwrap();
        CoParent::new(
            FamilyId::new(),
            UserId::new(),
            fields,
            PinHash::from_encoded("h".into()),
            now,
        )
    }

    #[test]
    fn names_of_any_alphabet_are_accepted_trimmed_and_without_markup() {
        for (input, kept) in [
            ("Zoë", "Zoë"),
            ("  Siobhán  Ní Bhriain ", "Siobhán Ní Bhriain"),
            ("Antonín Dvořák", "Antonín Dvořák"),
            ("Mary-Jane O'Neil", "Mary-Jane O'Neil"),
            ("D’Angelo", "D’Angelo"),
            ("Zoe\u{308}", "Zoe\u{308}"),
            ("Σοφία", "Σοφία"),
            ("Алёна", "Алёна"),
            ("<b>Grandma</b> Rose", "Grandma Rose"),
            ("李小龍", "李小龍"),
        ] {
            assert_eq!(clean_name(input).unwrap(), kept, "{input}");
        }
        assert_eq!(clean_name(&"a".repeat(100)).unwrap().len(), 100);
    }

    #[test]
    fn names_with_digits_symbols_emoji_or_over_100_characters_are_refused() {
        for bad in [
            "Nana 2",
            "R2-D2",
            "Grandpa 👴",
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "Ann <3",
            "Ann & Bob",
            "-'-",
            "\u{308}Zoe",
            "Mum.",
        ] {
            let e = clean_name(bad).unwrap_err();
            assert_eq!(e.title, "Invalid name", "{bad}");
            assert_eq!(
                e.message,
                "Please enter a valid name (letters, spaces, hyphens, and apostrophes only)"
            );
            assert_eq!(e.field.as_deref(), Some("name"));
        }
        let long = clean_name(&"é".repeat(101)).unwrap_err();
        assert_eq!(long.message, "Name must be 100 characters or less");
    }

    #[test]
    fn both_fields_are_required_and_the_email_must_be_valid() {
        let e = draft("  ", "a@b.org").validate().unwrap_err();
        assert_eq!(
            (
                e.title.to_string().as_str(),
                e.message.to_string().as_str(),
                e.field.as_deref()
            ),
            (
                "Missing information",
                "Please provide both name and email",
                Some("name")
            )
        );
        let e = draft("Ann", "").validate().unwrap_err();
        assert_eq!(e.field.as_deref(), Some("email"));
        let e = draft("Ann", "not-an-address").validate().unwrap_err();
        assert_eq!(
            (e.title.to_string().as_str(), e.message.to_string().as_str()),
            ("Invalid email", "Please enter a valid email address")
        );
        let long = format!("{}@example.org", "a".repeat(250));
        let e = draft("Ann", &long).validate().unwrap_err();
        assert_eq!(e.message, "Email must be 254 characters or less");
        let ok = draft(" Ann ", " Ann@Example.ORG ").validate().unwrap();
        assert_eq!(ok.email.as_str(), "ann@example.org");
        assert_eq!(ok.name, "Ann");
    }

    #[test]
    fn tokens_are_random_v4_and_nothing_else_parses() {
        let a = ShareToken::new();
        assert_eq!(a.as_uuid().get_version_num(), 4);
        assert_ne!(a, ShareToken::new());
        assert_eq!(ShareToken::parse(&a.to_string()), Some(a));
        assert_eq!(a.to_string().len(), 36);
        assert!(ShareToken::parse(&uuid::Uuid::now_v7().to_string()).is_none());
        assert!(ShareToken::parse("not-a-token").is_none());
        assert!(ShareToken::parse("").is_none());
        assert!(!format!("{a:?}").contains(&a.to_string()[..8]));
    }

    #[test]
    fn generated_pins_are_six_digits_and_never_weak() {
        assert_eq!(Pin::generated(100_000).unwrap().as_str(), "100000");
        assert_eq!(Pin::generated(999_998).unwrap().as_str(), "999998");
        for out in [0, 99_999, 1_000_000] {
            assert!(Pin::generated(out).is_none(), "{out}");
        }
        for weak in [111_111, 999_999, 123_456, 654_321] {
            assert!(Pin::generated(weak).is_none(), "{weak}");
        }
        assert_eq!(
            format!("{:?}", Pin::generated(482_913).unwrap()),
            "Pin(******)"
        );
    }

    #[test]
    fn entered_pins_are_exactly_six_digits() {
        assert_eq!(Pin::parse(" 048213 ").unwrap().as_str(), "048213");
        for bad in ["", "12345", "1234567", "12a456", "１２３４５６", "123 456"] {
            assert!(Pin::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn chosen_pins_follow_the_strength_rules_with_the_spec_texts() {
        let msg = |p: &str, c: &str| Pin::choose(p, c).unwrap_err().message;
        assert_eq!(
            msg("12345", "12345"),
            "PIN must be at least 6 characters long"
        );
        assert_eq!(msg("12a4567", "12a4567"), "PIN must contain only numbers");
        assert_eq!(msg("4829135", "4829135"), "PIN must be exactly 6 digits");
        assert_eq!(msg("777777", "777777"), "PIN cannot be all the same digit");
        for seq in ["012345", "123456", "654321", "098765"] {
            assert_eq!(msg(seq, seq), "PIN cannot be a sequential pattern");
        }
        assert_eq!(Pin::choose("12345", "").unwrap_err().title, "Weak PIN");
        let mismatch = Pin::choose("482913", "482914").unwrap_err();
        assert_eq!(
            (
                mismatch.message.to_string().as_str(),
                mismatch.field.as_deref()
            ),
            ("PINs do not match", Some("confirmPin"))
        );
        assert_eq!(Pin::choose("482913", "482913").unwrap().as_str(), "482913");
    }

    #[test]
    fn a_new_invite_is_pending_for_seven_days_then_expired() {
        let now = Utc::now();
        let c = co_parent(now);
        assert!(c.invitation_sent && c.pin_set());
        assert_eq!(c.expires_at, now + Duration::days(7));
        assert_eq!(c.state(now), CoParentState::Pending);
        assert!(check_link(&c, now + Duration::days(7) - Duration::seconds(1)).is_ok());
        // "Expired is shown when the expiry is not after now."
        assert_eq!(c.state(c.expires_at), CoParentState::Expired);
        let gone = check_link(&c, c.expires_at).unwrap_err();
        assert_eq!(
            gone,
            DomainError::expired(
                t!("Invitation expired"),
                t!("This invitation has expired. Please ask for a new invitation.")
            )
        );
    }

    #[test]
    fn accepted_is_active_and_ten_failures_lock_until_the_pin_is_reset() {
        let now = Utc::now();
        let mut c = co_parent(now);
        c.accepted_at = Some(now);
        assert_eq!(c.state(now), CoParentState::Active);
        assert_eq!(c.share_state(), ShareState::Active);
        c.failures_total = LIFETIME_FAILURES_MAX - 1;
        assert_eq!(c.state(now), CoParentState::Active);
        c.failures_total = LIFETIME_FAILURES_MAX;
        assert_eq!(c.state(now), CoParentState::Locked);
        assert_eq!(
            c.state(now + Duration::days(30)),
            CoParentState::Locked,
            "extending alone does not unlock"
        );
        let epoch = c.session_epoch;
        c.replace_pin(PinHash::from_encoded("new".into()), now);
        assert_eq!(c.state(now), CoParentState::Active, "still accepted");
        assert_eq!(c.failures_total, 0);
        assert_eq!(c.session_epoch, epoch + 1, "older share sessions end");
    }

    #[test]
    fn a_chosen_pin_replaces_the_shared_one_and_ends_older_sessions() {
        let now = Utc::now();
        let mut c = co_parent(now);
        let epoch = c.session_epoch;
        assert!(c.admits(epoch, now));
        c.choose_pin(PinHash::from_encoded("mine".into()), now);
        assert_eq!(c.share_state(), ShareState::Active);
        assert!(!c.admits(epoch, now), "a session of the shared PIN ends");
        assert!(c.admits(c.session_epoch, now));
        assert!(
            !c.admits(c.session_epoch, c.expires_at),
            "nor past the link's expiry"
        );
        let accepted = c.accepted_at;
        let later = now + Duration::hours(1);
        c.choose_pin(PinHash::from_encoded("again".into()), later);
        assert_eq!(c.pin_hash, Some(PinHash::from_encoded("again".into())));
        assert_eq!(c.accepted_at, accepted, "accepted once");
    }

    #[test]
    fn a_session_with_the_generated_pin_accepts_the_link() {
        let now = Utc::now();
        let mut c = co_parent(now);
        c.accept(now);
        assert_eq!(c.accepted_at, Some(now));
        c.accept(now + Duration::hours(1));
        assert_eq!(c.accepted_at, Some(now), "first acceptance kept");
    }

    #[test]
    fn backoff_doubles_from_the_third_failure_up_to_thirty_seconds() {
        let now = Utc::now();
        assert_eq!(pin_backoff(2, Some(now), now), None);
        let secs = |n| pin_backoff(n, Some(now), now).map(|d| d.as_secs());
        assert_eq!(secs(3), Some(1));
        assert_eq!(secs(4), Some(2));
        assert_eq!(secs(6), Some(8));
        assert_eq!(secs(8), Some(30));
        assert_eq!(secs(40), Some(30));
        assert_eq!(
            pin_backoff(5, Some(now), now + Duration::seconds(4)),
            None,
            "over"
        );
        assert_eq!(pin_backoff(5, None, now), None);
    }

    #[test]
    fn guesses_stop_when_locked_expired_or_backing_off() {
        let now = Utc::now();
        let mut c = co_parent(now);
        assert!(check_can_guess(&c, now).is_ok());
        for _ in 0..3 {
            c.record_failure(now);
        }
        assert!(matches!(
            check_can_guess(&c, now),
            Err(DomainError::TooManyAttempts { .. })
        ));
        assert!(check_can_guess(&c, now + Duration::seconds(2)).is_ok());
        c.failures_total = LIFETIME_FAILURES_MAX;
        match check_can_guess(&c, now + Duration::hours(1)) {
            Err(DomainError::Blocked { title, .. }) => assert_eq!(title, "Access blocked"),
            other => panic!("{other:?}"),
        }
        c.replace_pin(PinHash::from_encoded("new".into()), now);
        assert!(check_can_guess(&c, now).is_ok(), "a reset unlocks");
        assert!(matches!(
            check_can_guess(&c, c.expires_at),
            Err(DomainError::Expired { .. })
        ));
    }

    #[test]
    fn guesses_are_counted_before_they_are_checked_and_given_back_when_right() {
        let now = Utc::now();
        let mut c = co_parent(now);
        c.failures_total = LIFETIME_FAILURES_MAX - 1;
        let first = c.reserve_guess(now).unwrap();
        assert!(c.is_locked(), "the guess in flight already counts");
        assert!(
            matches!(c.reserve_guess(now), Err(DomainError::Blocked { .. })),
            "a second guess at the same time is refused"
        );
        c.release_guess(&first);
        assert_eq!(c.failures_total, LIFETIME_FAILURES_MAX - 1);
        assert_eq!(c.last_failure_at, None);
        // A reset while the guess was checked: nothing to give back.
        let mut c = co_parent(now);
        let taken = c.reserve_guess(now).unwrap();
        c.replace_pin(PinHash::from_encoded("new".into()), now);
        c.release_guess(&taken);
        assert_eq!(c.failures_total, 0);
    }

    #[test]
    fn a_link_has_one_spelling() {
        let token = ShareToken::new();
        let text = token.as_uuid().to_string();
        assert_eq!(ShareToken::parse(&text), Some(token));
        assert_eq!(ShareToken::parse(&text.to_uppercase()), Some(token));
        let simple = token.as_uuid().simple().to_string();
        let braced = token.as_uuid().braced().to_string();
        let urn = token.as_uuid().urn().to_string();
        for other in [simple, braced, urn] {
            assert_eq!(ShareToken::parse(&other), None, "{other}");
        }
    }

    #[test]
    fn extending_adds_seven_days_to_the_later_of_now_and_the_expiry() {
        let now = Utc::now();
        let mut c = co_parent(now);
        c.extend(now);
        assert_eq!(c.expires_at, now + Duration::days(14));
        let later = now + Duration::days(30);
        c.extend(later);
        assert_eq!(c.expires_at, later + Duration::days(7));
        assert_eq!(c.state(later), CoParentState::Pending);
    }

    #[test]
    fn invites_are_capped_unique_per_email_and_not_for_guests() {
        let now = Utc::now();
        let first = co_parent(now);
        let other = Email::parse("nan@example.org").unwrap();
        assert!(check_can_add(std::slice::from_ref(&first), &other).is_ok());
        assert!(matches!(
            check_can_add(std::slice::from_ref(&first), &first.email),
            Err(DomainError::Conflict { .. })
        ));
        let many = vec![first; CO_PARENTS_MAX];
        assert!(check_can_add(&many, &other).is_err());
        assert!(matches!(
            check_can_invite(true),
            Err(DomainError::NotAllowed { .. })
        ));
        assert!(check_can_invite(false).is_ok());
    }

    #[test]
    fn records_from_before_later_fields_read_with_defaults() {
        let c = co_parent(Utc::now());
        let mut value = serde_json::to_value(&c).unwrap();
        let obj = value.as_object_mut().unwrap();
        for field in [
            "version",
            "pin_hash",
            "accepted_at",
            "failures_total",
            "last_failure_at",
            "session_epoch",
        ] {
            obj.remove(field);
        }
        let read: CoParent = serde_json::from_value(value).unwrap();
        assert_eq!(
            (
                read.version,
                read.failures_total,
                read.session_epoch,
                read.pin_set()
            ),
            (1, 0, 0, false)
        );
    }
}
