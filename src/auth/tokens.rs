//! Random secrets (session, reset and invite tokens). Only their SHA-256 is stored, so a copy
//! of the database does not let anyone sign in.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new 256-bit token, URL-safe base64 (43 characters).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The key a token is stored under.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A secret a client presents, typed by what it opens, so one kind cannot be passed where
/// another is expected. Made where the request arrives (`from_client`); nothing is checked
/// there: a value that is not one of ours finds nothing, and the use case answers it as it
/// answers an unknown one, in its own words. `Debug` hides the value, so it cannot reach a log.
macro_rules! presented_secret {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(String);

        impl $name {
            pub fn from_client(raw: &str) -> Self {
                Self(raw.to_owned())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// What it is stored under (only this is stored).
            pub fn hash(&self) -> [u8; 32] {
                token_hash(&self.0)
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(concat!(stringify!($name), "(hidden)"))
            }
        }
    };
}

presented_secret!(
    /// A parent's session cookie.
    SessionToken
);
presented_secret!(
    /// A household invite link's token.
    InviteToken
);
presented_secret!(
    /// A password reset link's token.
    ResetLinkToken
);
presented_secret!(
    /// A co-parent link's token, as it stands in the link (`ShareToken::parse` reads it).
    LinkToken
);
presented_secret!(
    /// A co-parent's share-session cookie.
    ShareSessionToken
);
presented_secret!(
    /// A visitor's anonymous recipe job cookie.
    JobCookie
);

/// `len` random characters from `[A-Za-z0-9]` (guest ids and guest passwords).
pub fn random_alphanumeric(len: usize) -> String {
    use rand::Rng;
    use rand::distr::Alphanumeric;
    rand::rng()
        .sample_iter(&Alphanumeric)
        .take(len)
        .map(char::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hash_stably() {
        let a = new_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, new_token());
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_ne!(token_hash(&a), token_hash(&new_token()));
        let id = random_alphanumeric(10);
        assert_eq!(id.len(), 10);
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric()));
    }

    #[test]
    fn a_presented_secret_hashes_like_the_token_and_never_prints() {
        let raw = new_token();
        let token = SessionToken::from_client(&raw);
        assert_eq!(token.hash(), token_hash(&raw));
        assert_eq!(token.as_str(), raw);
        assert_eq!(format!("{token:?}"), "SessionToken(hidden)");
        assert!(!format!("{:?}", LinkToken::from_client(&raw)).contains(&raw));
    }
}
