//! Runs password and PIN hashing on blocking threads, a bounded number at once (one pool for
//! both), so a burst of sign-ins or PIN guesses cannot starve the async threads (or a
//! Raspberry Pi's other requests).

use std::sync::{Arc, OnceLock};

use tokio::sync::Semaphore;

use super::password::PasswordHash;
use super::pin;
use crate::domain::co_parent::{Pin, PinHash};

#[derive(Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
    iterations: u32,
    /// Verified against when an e-mail is unknown, so the answer takes as long as a real check.
    /// Made on first use (on a blocking thread), not at start-up.
    decoy: Arc<OnceLock<PasswordHash>>,
    /// The same for a PIN check of a link without a PIN (at the PIN cost).
    pin_decoy: Arc<OnceLock<PinHash>>,
}

impl Hasher {
    /// At most `cores - 1` (at least 1) hashes run at once, leaving a core for everything else.
    pub fn new(iterations: u32) -> Hasher {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Hasher {
            permits: Arc::new(Semaphore::new(cores.saturating_sub(1).max(1))),
            iterations,
            decoy: Arc::new(OnceLock::new()),
            pin_decoy: Arc::new(OnceLock::new()),
        }
    }

    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    pub async fn hash(&self, password: String) -> PasswordHash {
        let iterations = self.iterations;
        self.run(move || PasswordHash::create(&password, iterations))
            .await
    }

    /// Whether `password` matches `stored`; an unparseable or missing hash never matches but
    /// costs the same time.
    pub async fn verify(&self, password: String, stored: Option<PasswordHash>) -> bool {
        let decoy = self.decoy.clone();
        let iterations = self.iterations;
        self.run(move || match stored {
            Some(hash) => hash.verify(&password),
            None => {
                let decoy =
                    decoy.get_or_init(|| PasswordHash::create("decoy password", iterations));
                let _ = decoy.verify(&password);
                false
            }
        })
        .await
    }

    /// A co-parent PIN's hash (`auth::pin`: PBKDF2-HMAC-SHA256 at 100,000 iterations).
    pub async fn hash_pin(&self, pin: Pin) -> PinHash {
        self.run(move || pin::hash(&pin)).await
    }

    /// Whether `pin` matches `stored`; a missing hash never matches but costs the same time.
    pub async fn verify_pin(&self, pin: Pin, stored: Option<PinHash>) -> bool {
        let decoy = self.pin_decoy.clone();
        self.run(move || match stored {
            Some(hash) => pin::verify(&hash, &pin),
            None => {
                let decoy = decoy.get_or_init(|| pin::hash(&pin::generate()));
                let _ = pin::verify(decoy, &pin);
                false
            }
        })
        .await
    }

    async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> T {
        // The semaphore is never closed, so acquiring cannot fail.
        let _permit = self.permits.acquire().await.ok();
        match tokio::task::spawn_blocking(work).await {
            Ok(value) => value,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_and_verifies_off_the_async_threads() {
        let hasher = Hasher::new(1000);
        let h = hasher.hash("secret pw".into()).await;
        assert_eq!(h.iterations(), 1000);
        assert!(hasher.verify("secret pw".into(), Some(h.clone())).await);
        assert!(!hasher.verify("wrong".into(), Some(h)).await);
        assert!(!hasher.verify("secret pw".into(), None).await);
    }

    #[tokio::test]
    async fn pins_are_hashed_on_the_same_pool() {
        let hasher = Hasher::new(1000);
        let pin = Pin::parse("482913").unwrap();
        let stored = hasher.hash_pin(pin.clone()).await;
        assert!(stored.as_str().starts_with("pbkdf2-sha256$100000$"));
        assert!(hasher.verify_pin(pin.clone(), Some(stored.clone())).await);
        assert!(
            !hasher
                .verify_pin(Pin::parse("482914").unwrap(), Some(stored))
                .await
        );
        assert!(!hasher.verify_pin(pin, None).await);
    }
}
