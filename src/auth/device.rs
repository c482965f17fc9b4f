//! Device cookies (OWASP "device cookie" design): a signed, per-account token given to a browser
//! at a successful sign-in. A browser that shows one for an account has signed in to it before,
//! so the account-wide sign-in slowdown (meant for guessing from many places) does not apply to
//! it; it gets a limit of its own instead. Nothing is stored: the token is checked by its HMAC.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Duration, Utc};
use hmac::{Hmac, KeyInit, Mac};
use rand::RngCore;
use sha2::Sha256;

use crate::domain::ids::UserId;

pub const DEVICE_COOKIE: &str = "highchair_device";
/// How long a browser stays known without signing in again.
pub const DEVICE_VALID_FOR: Duration = Duration::days(365);
/// Accounts remembered per browser (two parents sharing a tablet, a guest try-out...).
const MAX_ENTRIES: usize = 4;
/// Bytes of the HMAC kept in a token (128 bits: unforgeable, short).
const MAC_LEN: usize = 16;

/// A verified device token: which account, and which browser (its own limit key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub user: UserId,
    /// Random per token; keys the browser's own attempt limit.
    pub id: String,
}

/// The server's signing key (kept in the store, so tokens survive a restart).
pub struct DeviceKey([u8; 32]);

impl DeviceKey {
    pub fn new(secret: [u8; 32]) -> Self {
        Self(secret)
    }

    fn mac(&self, payload: &str) -> [u8; MAC_LEN] {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0)
            .expect("HMAC takes keys of any length");
        mac.update(b"highchair-device-v1\0");
        mac.update(payload.as_bytes());
        let full = mac.finalize().into_bytes();
        let mut short = [0u8; MAC_LEN];
        short.copy_from_slice(&full[..MAC_LEN]);
        short
    }

    /// A new token for `user`: `<user>.<device id>.<expiry unix>.<mac>`.
    pub fn issue(&self, user: UserId, now: DateTime<Utc>) -> String {
        let mut id = [0u8; 12];
        rand::rng().fill_bytes(&mut id);
        let payload = format!(
            "{}.{}.{}",
            user.as_uuid().simple(),
            URL_SAFE_NO_PAD.encode(id),
            (now + DEVICE_VALID_FOR).timestamp()
        );
        let mac = URL_SAFE_NO_PAD.encode(self.mac(&payload));
        format!("{payload}.{mac}")
    }

    /// The device a token stands for, if it is signed by this key and not expired.
    pub fn verify(&self, token: &str, now: DateTime<Utc>) -> Option<Device> {
        let (payload, mac) = token.rsplit_once('.')?;
        let mac = URL_SAFE_NO_PAD.decode(mac).ok()?;
        // Constant-time comparison of the MAC.
        if !bool::from(subtle::ConstantTimeEq::ct_eq(
            mac.as_slice(),
            self.mac(payload).as_slice(),
        )) {
            return None;
        }
        let mut parts = payload.split('.');
        let user = parts.next()?.parse::<UserId>().ok()?;
        let id = parts.next()?.to_string();
        let expires: i64 = parts.next()?.parse().ok()?;
        (parts.next().is_none() && expires > now.timestamp()).then_some(Device { user, id })
    }

    /// The verified device of `user` among a cookie's tokens.
    pub fn find(&self, cookie: &str, user: UserId, now: DateTime<Utc>) -> Option<Device> {
        tokens(cookie)
            .filter_map(|t| self.verify(t, now))
            .find(|d| d.user == user)
    }

    /// The cookie value after signing in to `user`: its new token first, then the browser's
    /// other accounts' valid tokens, at most [`MAX_ENTRIES`].
    pub fn remember(&self, cookie: Option<&str>, user: UserId, now: DateTime<Utc>) -> String {
        let mut kept = vec![self.issue(user, now)];
        if let Some(cookie) = cookie {
            kept.extend(
                tokens(cookie)
                    .filter(|t| self.verify(t, now).is_some_and(|d| d.user != user))
                    .take(MAX_ENTRIES - 1)
                    .map(str::to_string),
            );
        }
        kept.join("~")
    }
}

fn tokens(cookie: &str) -> impl Iterator<Item = &str> {
    cookie.split('~').map(str::trim).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verifies_for_its_account_until_it_expires() {
        let key = DeviceKey::new([7; 32]);
        let user = UserId::new();
        let now = Utc::now();
        let token = key.issue(user, now);
        let device = key.verify(&token, now).expect("valid");
        assert_eq!(device.user, user);
        assert_eq!(key.find(&token, user, now), Some(device.clone()));
        assert_eq!(
            key.find(&token, UserId::new(), now),
            None,
            "another account"
        );
        assert_eq!(key.verify(&token, now + DEVICE_VALID_FOR), None, "expired");
        assert_ne!(key.issue(user, now), token, "each browser its own id");
    }

    #[test]
    fn forged_or_altered_tokens_are_refused() {
        let key = DeviceKey::new([7; 32]);
        let user = UserId::new();
        let now = Utc::now();
        let token = key.issue(user, now);
        assert_eq!(
            DeviceKey::new([8; 32]).verify(&token, now),
            None,
            "other key"
        );
        let other = UserId::new().as_uuid().simple().to_string();
        let swapped = format!("{other}{}", &token[32..]);
        assert_eq!(key.verify(&swapped, now), None, "user changed");
        let (payload, _) = token.rsplit_once('.').unwrap();
        let far = payload.replace(
            &(now + DEVICE_VALID_FOR).timestamp().to_string(),
            "99999999999",
        );
        assert_eq!(key.verify(&format!("{far}.AAAA"), now), None);
        for junk in ["", ".", "a.b.c.d", "~~", &"x".repeat(5000)] {
            assert_eq!(key.verify(junk, now), None, "{junk:.20}");
        }
    }

    #[test]
    fn a_browser_remembers_a_few_accounts() {
        let key = DeviceKey::new([1; 32]);
        let now = Utc::now();
        let users: Vec<UserId> = (0..6).map(|_| UserId::new()).collect();
        let mut cookie: Option<String> = None;
        for user in &users {
            cookie = Some(key.remember(cookie.as_deref(), *user, now));
        }
        let cookie = cookie.unwrap();
        assert!(key.find(&cookie, users[5], now).is_some());
        assert!(key.find(&cookie, users[2], now).is_some());
        assert!(key.find(&cookie, users[1], now).is_none(), "oldest dropped");
        let again = key.remember(Some(&cookie), users[5], now);
        assert_eq!(
            again.split('~').count(),
            MAX_ENTRIES,
            "no duplicate entries"
        );
    }
}
