//! Password hashes: PBKDF2-HMAC-SHA256, 16-byte random salt, iteration count stored with the
//! hash (`pbkdf2-sha256$<iterations>$<salt>$<hash>`) so the cost can be raised later and old
//! hashes upgraded at the next sign-in.

use base64::Engine;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use rand::RngCore;
use sha2::Sha256;
use subtle::ConstantTimeEq;

/// OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256.
pub const ITERATIONS: u32 = 600_000;
// The cost must never drop below OWASP's recommendation.
const _: () = assert!(ITERATIONS >= 600_000);
const SCHEME: &str = "pbkdf2-sha256";
const SALT_LEN: usize = 16;
const HASH_LEN: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasswordHash {
    iterations: u32,
    salt: [u8; SALT_LEN],
    hash: [u8; HASH_LEN],
}

impl PasswordHash {
    /// Hashes with a fresh random salt. CPU-heavy: call through `Hasher`, off the async threads.
    pub fn create(password: &str, iterations: u32) -> PasswordHash {
        let mut salt = [0u8; SALT_LEN];
        rand::rng().fill_bytes(&mut salt);
        PasswordHash {
            iterations,
            salt,
            hash: derive(password, &salt, iterations),
        }
    }

    pub fn parse(encoded: &str) -> Option<PasswordHash> {
        let mut parts = encoded.split('$');
        if parts.next()? != SCHEME {
            return None;
        }
        let iterations = parts.next()?.parse().ok().filter(|n| *n > 0)?;
        let salt = STANDARD_NO_PAD
            .decode(parts.next()?)
            .ok()?
            .try_into()
            .ok()?;
        let hash = STANDARD_NO_PAD
            .decode(parts.next()?)
            .ok()?
            .try_into()
            .ok()?;
        if parts.next().is_some() {
            return None;
        }
        Some(PasswordHash {
            iterations,
            salt,
            hash,
        })
    }

    pub fn encode(&self) -> String {
        format!(
            "{SCHEME}${}${}${}",
            self.iterations,
            STANDARD_NO_PAD.encode(self.salt),
            STANDARD_NO_PAD.encode(self.hash)
        )
    }

    /// Constant-time comparison of the derived key. CPU-heavy, like `create`.
    pub fn verify(&self, password: &str) -> bool {
        let candidate = derive(password, &self.salt, self.iterations);
        candidate.ct_eq(&self.hash).into()
    }

    pub fn iterations(&self) -> u32 {
        self.iterations
    }
}

fn derive(password: &str, salt: &[u8], iterations: u32) -> [u8; HASH_LEN] {
    let mut out = [0u8; HASH_LEN];
    pbkdf2::pbkdf2_hmac::<Sha256>(password.as_bytes(), salt, iterations, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_verify_and_round_trip() {
        let h = PasswordHash::create("correct horse", 1000);
        assert!(h.verify("correct horse"));
        assert!(!h.verify("correct horsE"));
        let encoded = h.encode();
        assert!(encoded.starts_with("pbkdf2-sha256$1000$"));
        assert!(!encoded.contains("correct"));
        assert_eq!(PasswordHash::parse(&encoded), Some(h.clone()));
        assert_eq!(h.iterations(), 1000);
    }

    #[test]
    fn salts_differ() {
        assert_ne!(
            PasswordHash::create("pw", 10).encode(),
            PasswordHash::create("pw", 10).encode()
        );
    }

    #[test]
    fn matches_the_rfc_7914_test_vector() {
        // PBKDF2-HMAC-SHA256, P="passwd", S="salt", c=1, first 32 bytes.
        let out = derive("passwd", b"salt", 1);
        assert_eq!(
            hex::encode(out),
            "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
        );
    }

    #[test]
    fn garbage_does_not_parse() {
        for bad in [
            "",
            "plain",
            "bcrypt$1$a$b",
            "pbkdf2-sha256$0$AAAA$AAAA",
            "pbkdf2-sha256$10$!!$AAAA",
            "pbkdf2-sha256$10$AAAAAAAAAAAAAAAAAAAAAA$AAAA",
        ] {
            assert!(PasswordHash::parse(bad).is_none(), "{bad}");
        }
    }
}
