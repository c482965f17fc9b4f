//! Co-parent PINs: drawn from the CSPRNG, hashed with the password scheme at the spec's cost
//! (PBKDF2-HMAC-SHA256, 16-byte random salt, 100,000 iterations, 256-bit output; spec section
//! 9). The encoded hash names its scheme and iteration count, so the cost can change later and
//! old hashes still verify. CPU-heavy: call through `Hasher`, off the async threads.

use rand::Rng;

use super::password::PasswordHash;
use crate::domain::co_parent::{GENERATED_PIN_MAX, GENERATED_PIN_MIN, Pin, PinHash};

/// The spec's cost for PIN hashes.
pub const PIN_ITERATIONS: u32 = 100_000;
// The cost must never drop below the spec's.
const _: () = assert!(PIN_ITERATIONS >= 100_000);

/// A new PIN, uniform over the six-digit numbers a co-parent could also choose (weak ones such
/// as 111111 or 123456 are drawn again). `rand::rng()` is a CSPRNG seeded from the OS.
pub fn generate() -> Pin {
    let mut rng = rand::rng();
    loop {
        if let Some(pin) = Pin::generated(rng.random_range(GENERATED_PIN_MIN..=GENERATED_PIN_MAX)) {
            return pin;
        }
    }
}

/// Hashes with a fresh random salt at `PIN_ITERATIONS`.
pub fn hash(pin: &Pin) -> PinHash {
    hash_with(pin, PIN_ITERATIONS)
}

fn hash_with(pin: &Pin, iterations: u32) -> PinHash {
    PinHash::from_encoded(PasswordHash::create(pin.as_str(), iterations).encode())
}

/// Whether `pin` matches `stored` (constant-time comparison of the derived keys). A hash that
/// does not parse never matches.
pub fn verify(stored: &PinHash, pin: &Pin) -> bool {
    PasswordHash::parse(stored.as_str()).is_some_and(|hash| hash.verify(pin.as_str()))
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD_NO_PAD;

    use super::*;

    #[test]
    fn hashes_carry_the_spec_parameters_and_verify() {
        let pin = Pin::parse("482913").unwrap();
        let stored = hash(&pin);
        let parts: Vec<&str> = stored.as_str().split('$').collect();
        assert_eq!(parts[0], "pbkdf2-sha256");
        assert_eq!(parts[1], "100000");
        assert_eq!(STANDARD_NO_PAD.decode(parts[2]).unwrap().len(), 16, "salt");
        assert_eq!(
            STANDARD_NO_PAD.decode(parts[3]).unwrap().len(),
            32,
            "256 bits"
        );
        assert!(!stored.as_str().contains("482913"));
        assert!(verify(&stored, &pin));
        assert!(!verify(&stored, &Pin::parse("482914").unwrap()));
        assert!(!verify(&PinHash::from_encoded("garbage".into()), &pin));
    }

    #[test]
    fn salts_differ_and_another_cost_still_verifies() {
        let pin = Pin::parse("305871").unwrap();
        assert_ne!(hash_with(&pin, 10), hash_with(&pin, 10));
        let cheaper = hash_with(&pin, 10);
        assert!(cheaper.as_str().starts_with("pbkdf2-sha256$10$"));
        assert!(verify(&cheaper, &pin), "the stored count is used");
    }

    #[test]
    fn generated_pins_are_six_digit_numbers_spread_over_the_range() {
        let mut first_digits = [0u32; 10];
        for _ in 0..2000 {
            let pin = generate();
            let n: u32 = pin.as_str().parse().unwrap();
            assert!((GENERATED_PIN_MIN..=GENERATED_PIN_MAX).contains(&n));
            assert!(
                Pin::choose(pin.as_str(), pin.as_str()).is_ok(),
                "never weak"
            );
            first_digits[(n / 100_000) as usize] += 1;
        }
        assert_eq!(first_digits[0], 0);
        // 2000 draws over 9 leading digits: each near 222; far outside 120..330 is not uniform.
        for (digit, count) in first_digits.iter().enumerate().skip(1) {
            assert!((120..330).contains(count), "digit {digit}: {count}");
        }
    }
}
