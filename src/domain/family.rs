//! Households: the adults who share one family's children, meals and photos, and the one-time
//! links that bring a second parent in.

use crate::i18n::Text;
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::DomainError;
use super::change::first_version;
use super::ids::{FamilyId, InviteId, UserId};
use super::user::User;

/// How long an adult invite link works.
pub const INVITE_DAYS: i64 = 7;
/// Open invite links a family may hold at once (each is shown once; a lost one is revoked).
pub const INVITES_MAX: usize = 10;
/// Adults one family may hold.
pub const MEMBERS_MAX: usize = 10;

pub const INVITE_TITLE: Text = t!("Invite failed");
pub const JOIN_TITLE: Text = t!("Join failed");
pub const LEAVE_TITLE: Text = t!("Leave failed");
pub const REMOVE_TITLE: Text = t!("Remove failed");

/// An adult invite. Only the SHA-256 of the link's token is stored; the link is shown once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FamilyInvite {
    pub id: InviteId,
    pub family: FamilyId,
    #[serde(default = "first_version")]
    pub version: u64,
    pub token_hash: [u8; 32],
    pub invited_by: UserId,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

impl FamilyInvite {
    pub fn new(
        family: FamilyId,
        by: UserId,
        token_hash: [u8; 32],
        now: DateTime<Utc>,
    ) -> FamilyInvite {
        FamilyInvite {
            id: InviteId::new(),
            family,
            version: first_version(),
            token_hash,
            invited_by: by,
            created_at: now,
            expires_at: now + Duration::days(INVITE_DAYS),
        }
    }

    pub fn is_expired(&self, now: DateTime<Utc>) -> bool {
        self.expires_at <= now
    }
}

/// What an invite link answers while it is valid: expired links are 410, unknown ones 404.
pub fn check_link(invite: &FamilyInvite, now: DateTime<Utc>) -> Result<(), DomainError> {
    if invite.is_expired(now) {
        return Err(DomainError::expired(
            t!("Invite expired"),
            t!("This invite link has expired. Ask for a new one."),
        ));
    }
    Ok(())
}

/// The family holds `INVITES_MAX` open invite links already.
pub fn too_many_invites() -> DomainError {
    DomainError::conflict(
        INVITE_TITLE,
        t!("This family already has 10 open invite links. Revoke one first."),
    )
}

/// Whether an invite link may bring an account in, as the family is at that moment: the link
/// is live, the family has room, the account may move (an existing one) or its e-mail is free
/// (a new one).
pub fn check_join(
    invite: &FamilyInvite,
    members: usize,
    account: Option<&User>,
    own_children: usize,
    own_members: usize,
    email_taken: bool,
    now: DateTime<Utc>,
) -> Result<(), DomainError> {
    check_link(invite, now)?;
    if members >= MEMBERS_MAX {
        return Err(DomainError::conflict(
            JOIN_TITLE,
            t!("This family already has 10 adults."),
        ));
    }
    if let Some(account) = account {
        check_can_move(account, invite.family, own_children, own_members)?;
    }
    if email_taken {
        return Err(crate::domain::user::email_taken());
    }
    Ok(())
}

/// The family's name as its members see it: after its longest-standing member.
pub fn family_name(members: &[User]) -> Text {
    let Some(first) = members.iter().min_by_key(|m| m.joined_at()) else {
        return t!("Your family");
    };
    if first.last_name.trim().is_empty() {
        t!("{{name}}'s family", name = &first.first_name)
    } else {
        t!("The {{name}} family", name = &first.last_name)
    }
}

/// Whether `user` may invite adults: parents may, guests stay single-member families.
pub fn check_can_invite(user: &User) -> Result<(), DomainError> {
    if user.is_guest {
        return Err(DomainError::not_allowed(
            INVITE_TITLE,
            t!("Guests cannot invite other adults. Sign up for an account to share your family."),
        ));
    }
    Ok(())
}

/// Whether a signed-in account may move into another family through a link: only a parent
/// whose own family is empty (no children and no other adult), so nothing is left behind.
pub fn check_can_move(
    user: &User,
    to: FamilyId,
    children: usize,
    members: usize,
) -> Result<(), DomainError> {
    if user.is_guest {
        return Err(DomainError::not_allowed(
            JOIN_TITLE,
            t!(
                "Guest accounts cannot join a family. Sign out and create an account with this link."
            ),
        ));
    }
    if user.family_id == to {
        return Err(DomainError::conflict(
            JOIN_TITLE,
            t!("You are already a member of this family."),
        ));
    }
    if children > 0 || members > 1 {
        return Err(DomainError::conflict(
            JOIN_TITLE,
            t!(
                "Your account already keeps its own family. Only an account with no children and no other adult can join another family."
            ),
        ));
    }
    Ok(())
}

/// Whether `user` may leave their family: someone must stay to keep the children.
pub fn check_can_leave(members: usize) -> Result<(), DomainError> {
    if members <= 1 {
        return Err(DomainError::conflict(
            LEAVE_TITLE,
            t!(
                "You are the only adult in this family. Invite another parent first, or delete your account from the server."
            ),
        ));
    }
    Ok(())
}

/// Whether `by` may remove `target` (a member of the same family, found by the caller).
pub fn check_can_remove(by: &User, target: &User) -> Result<(), DomainError> {
    if by.id == target.id {
        return Err(DomainError::conflict(
            REMOVE_TITLE,
            t!("To remove yourself, use Leave family."),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::email::Email;
    use crate::domain::user::ParentRole;

    fn parent(first: &str, last: &str, joined_days_ago: i64) -> User {
        let now = Utc::now();
        let mut user = User::new(
            Email::parse(&format!("{first}@example.org")).unwrap(),
            first.into(),
            last.into(),
            ParentRole::Mom,
            "x".into(),
            now,
        );
        user.joined_family_at = Some(now - Duration::days(joined_days_ago));
        user
    }

    #[test]
    fn links_last_seven_days() {
        let now = Utc::now();
        let invite = FamilyInvite::new(FamilyId::new(), UserId::new(), [0; 32], now);
        assert!(check_link(&invite, now + Duration::days(6)).is_ok());
        let gone = check_link(&invite, now + Duration::days(7)).unwrap_err();
        assert!(matches!(gone, DomainError::Expired { .. }));
    }

    #[test]
    fn the_family_is_named_after_its_first_member() {
        let ann = parent("Ann", "Lee", 30);
        let ben = parent("Ben", "Okafor", 2);
        assert_eq!(family_name(&[ben.clone(), ann]), "The Lee family");
        assert_eq!(family_name(&[parent("Zoë", " ", 1)]), "Zoë's family");
        assert_eq!(family_name(&[]), "Your family");
    }

    #[test]
    fn only_an_empty_family_can_be_left_behind() {
        let ann = parent("Ann", "Lee", 1);
        let elsewhere = FamilyId::new();
        assert!(check_can_move(&ann, elsewhere, 0, 1).is_ok());
        assert!(check_can_move(&ann, elsewhere, 1, 1).is_err());
        assert!(check_can_move(&ann, elsewhere, 0, 2).is_err());
        assert!(check_can_move(&ann, ann.family_id, 0, 1).is_err());
        let mut guest = parent("Gus", "", 1);
        guest.is_guest = true;
        assert!(matches!(
            check_can_move(&guest, elsewhere, 0, 1),
            Err(DomainError::NotAllowed { .. })
        ));
        assert!(check_can_invite(&guest).is_err());
        assert!(check_can_invite(&ann).is_ok());
    }

    #[test]
    fn the_last_adult_cannot_leave_and_nobody_removes_themselves() {
        assert!(check_can_leave(1).is_err());
        assert!(check_can_leave(2).is_ok());
        let ann = parent("Ann", "Lee", 1);
        let ben = parent("Ben", "Lee", 1);
        assert!(check_can_remove(&ann, &ann).is_err());
        assert!(check_can_remove(&ann, &ben).is_ok());
    }
}
