//! Persistent state for governor rate limiters, so limits and lockouts survive a restart.
//!
//! governor keeps, per key, a "theoretical arrival time" (TAT) in nanoseconds since the limiter
//! started. We store it as absolute Unix nanoseconds and translate on the way in and out, using
//! the limiter's start time, which the `UnixClock` records on its first reading.

use std::sync::{Arc, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};

use governor::clock::Clock;
use governor::nanos::Nanos;
use governor::state::StateStore;
use sha2::{Digest, Sha256};

pub fn unix_nanos() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// Wall-clock time as governor instants. The first reading (taken by `RateLimiter::new`) is
/// remembered as the limiter's start.
#[derive(Debug, Clone, Default)]
pub struct UnixClock {
    start: Arc<OnceLock<u64>>,
}

impl UnixClock {
    /// The limiter's start, once the clock was first read.
    pub(crate) fn start(&self) -> Arc<OnceLock<u64>> {
        self.start.clone()
    }
}

impl Clock for UnixClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        let now = unix_nanos();
        self.start.get_or_init(|| now);
        Nanos::from(now)
    }
}

/// The sled tree holding every limiter's state.
#[derive(Clone)]
pub struct RateLimits {
    tree: sled::Tree,
}

impl RateLimits {
    pub(super) fn new(tree: sled::Tree) -> Self {
        Self { tree }
    }

    /// A state store for one named limiter, whose times are relative to `clock`'s start.
    pub fn state(&self, name: &'static str, clock: &UnixClock) -> LimiterState {
        LimiterState {
            tree: self.tree.clone(),
            name,
            start: clock.start.clone(),
        }
    }

    /// Removes entries whose limit has fully lifted. Returns how many were removed.
    pub fn purge_expired(&self, now_unix_nanos: u64) -> usize {
        let mut removed = 0;
        for entry in self.tree.iter().flatten() {
            let (key, value) = entry;
            let expired = <[u8; 8]>::try_from(value.as_ref())
                .map(u64::from_be_bytes)
                .is_ok_and(|tat| tat < now_unix_nanos);
            if expired
                && self
                    .tree
                    .compare_and_swap(&key, Some(value), None::<&[u8]>)
                    .is_ok()
            {
                removed += 1;
            }
        }
        removed
    }

    /// Clears limiter `name`'s state for `key` (a success clears its window, spec section 4).
    pub fn forget(&self, name: &str, key: &str) {
        if let Err(e) = self.tree.remove(state_key(name, key)) {
            tracing::error!(error = %e, limiter = name, "rate limit state not cleared");
        }
    }

    /// Moves limiter `name`'s arrival time for `key` back by `nanos`: attempts given back (a
    /// right PIN spends nothing of the server's budget). Nothing when there is no state.
    pub fn give_back(&self, name: &str, key: &str, nanos: u64) {
        let key = state_key(name, key);
        loop {
            let Ok(Some(old)) = self.tree.get(key) else {
                return;
            };
            let Ok(bytes) = <[u8; 8]>::try_from(old.as_ref()) else {
                return;
            };
            let earlier = u64::from_be_bytes(bytes)
                .saturating_sub(nanos)
                .to_be_bytes();
            match self
                .tree
                .compare_and_swap(key, Some(old), Some(&earlier[..]))
            {
                Ok(Ok(())) => return,
                Ok(Err(_conflict)) => continue,
                Err(e) => {
                    tracing::error!(error = %e, limiter = name, "rate limit state not given back");
                    return;
                }
            }
        }
    }

    pub fn len(&self) -> usize {
        self.tree.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }
}

/// governor `StateStore` over sled. Keys are hashed: no e-mail or IP is stored in the clear.
pub struct LimiterState {
    tree: sled::Tree,
    name: &'static str,
    start: Arc<OnceLock<u64>>,
}

/// Where limiter `name` keeps the state of `key`.
fn state_key(name: &str, key: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(name.as_bytes());
    hasher.update([0u8]);
    hasher.update(key.as_bytes());
    hasher.finalize().into()
}

impl StateStore for LimiterState {
    type Key = String;

    fn measure_and_replace<T, F, E>(&self, key: &String, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        let start = self.start.get().copied().unwrap_or_else(unix_nanos);
        let key = state_key(self.name, key);
        loop {
            let old = match self.tree.get(key) {
                Ok(old) => old,
                Err(e) => {
                    // Fail open: a storage fault must not lock every family out.
                    tracing::error!(error = %e, limiter = self.name, "rate limit state unreadable");
                    return f(None).map(|(t, _)| t);
                }
            };
            let old_tat = old
                .as_ref()
                .and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok())
                .map(|b| Nanos::from(u64::from_be_bytes(b).saturating_sub(start)));
            let (result, new_tat) = f(old_tat)?;
            let absolute = start.saturating_add(new_tat.as_u64()).to_be_bytes();
            match self
                .tree
                .compare_and_swap(key, old.as_ref(), Some(&absolute[..]))
            {
                Ok(Ok(())) => return Ok(result),
                Ok(Err(_conflict)) => continue,
                Err(e) => {
                    tracing::error!(error = %e, limiter = self.name, "rate limit state not saved");
                    return Ok(result);
                }
            }
        }
    }
}
