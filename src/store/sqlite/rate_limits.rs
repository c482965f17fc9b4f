//! Persistent state for governor rate limiters, so limits and lockouts survive a restart.
//!
//! governor asks for its state synchronously, on the request's thread, so the state lives in
//! memory (loaded at open) and every change is queued to the writer thread without waiting:
//! the queued write stores whatever the state is when it runs, so writes that overtake each
//! other still leave the latest. Keys are hashed: no e-mail or IP is stored in the clear.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use governor::nanos::Nanos;
use governor::state::StateStore;
use sha2::{Digest, Sha256};

use super::core::Shared;
use super::values::get_u64;
use crate::store::StoreError;
use crate::store::rate_limits::{UnixClock, unix_nanos};

type Key = [u8; 32];
type States = Arc<Mutex<HashMap<Key, u64>>>;

/// Every limiter's state: absolute Unix nanoseconds of each key's "theoretical arrival time".
#[derive(Clone)]
pub struct RateLimits {
    states: States,
    core: Shared,
}

impl RateLimits {
    /// Reads the state kept by earlier runs.
    pub(crate) fn open(core: Shared) -> Result<Self, StoreError> {
        let states = core.db.read_blocking(|conn| {
            let mut stmt = conn.prepare("SELECT key, tat FROM rate_limits")?;
            let rows = stmt.query_map([], |r| Ok((r.get::<_, Key>(0)?, get_u64(r, 1)?)))?;
            rows.collect::<Result<HashMap<_, _>, _>>()
        })?;
        Ok(Self {
            states: Arc::new(Mutex::new(states)),
            core,
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Key, u64>> {
        lock(&self.states)
    }

    /// Queues the write of `key`'s current state (or its removal).
    fn persist(&self, key: Key) {
        persist(&self.core, &self.states, key);
    }

    /// A state store for one named limiter, whose times are relative to `clock`'s start.
    pub fn state(&self, name: &'static str, clock: &UnixClock) -> LimiterState {
        LimiterState {
            limits: self.clone(),
            name,
            start: clock.start(),
        }
    }

    /// Removes entries whose limit has fully lifted. Returns how many were removed.
    pub fn purge_expired(&self, now_unix_nanos: u64) -> usize {
        let expired: Vec<Key> = {
            let mut states = self.lock();
            let expired: Vec<Key> = states
                .iter()
                .filter(|(_, tat)| **tat < now_unix_nanos)
                .map(|(k, _)| *k)
                .collect();
            for key in &expired {
                states.remove(key);
            }
            expired
        };
        for key in &expired {
            self.persist(*key);
        }
        expired.len()
    }

    /// Clears limiter `name`'s state for `key` (a success clears its window, spec section 4).
    pub fn forget(&self, name: &str, key: &str) {
        let key = state_key(name, key);
        if self.lock().remove(&key).is_some() {
            self.persist(key);
        }
    }

    /// Moves limiter `name`'s arrival time for `key` back by `nanos`: attempts given back (a
    /// right PIN spends nothing of the server's budget). Nothing when there is no state.
    pub fn give_back(&self, name: &str, key: &str, nanos: u64) {
        let key = state_key(name, key);
        let changed = match self.lock().get_mut(&key) {
            Some(tat) => {
                *tat = tat.saturating_sub(nanos);
                true
            }
            None => false,
        };
        if changed {
            self.persist(key);
        }
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}

fn lock(states: &States) -> MutexGuard<'_, HashMap<Key, u64>> {
    states
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn persist(core: &Shared, states: &States, key: Key) {
    let states = states.clone();
    let queued = core.db.write_detached(move |conn| {
        let current = lock(&states).get(&key).copied();
        let written = match current {
            Some(tat) => conn
                .prepare_cached(
                    "INSERT INTO rate_limits (key, tat) VALUES (?1, ?2)
                     ON CONFLICT (key) DO UPDATE SET tat = ?2",
                )
                .and_then(|mut s| s.execute(rusqlite::params![key, super::values::int(tat)])),
            None => conn
                .prepare_cached("DELETE FROM rate_limits WHERE key = ?1")
                .and_then(|mut s| s.execute([key])),
        };
        written
            .map(|_| ())
            .map_err(|e| super::WriteFailed::Commit(e.to_string()))
    });
    if !queued {
        // Still enforced in memory; only a restart right now would forget it.
        tracing::warn!("a rate limit's state was not queued for the disk");
    }
}

/// governor `StateStore` for one named limiter.
pub struct LimiterState {
    limits: RateLimits,
    name: &'static str,
    start: Arc<OnceLock<u64>>,
}

/// Where limiter `name` keeps the state of `key`.
fn state_key(name: &str, key: &str) -> Key {
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
        let result = {
            let mut states = self.limits.lock();
            let old = states
                .get(&key)
                .map(|tat| Nanos::from(tat.saturating_sub(start)));
            let (result, new_tat) = f(old)?;
            states.insert(key, start.saturating_add(new_tat.as_u64()));
            result
        };
        self.limits.persist(key);
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;
    use std::time::Duration;

    use governor::clock::Clock;
    use governor::{Quota, RateLimiter};

    use super::*;
    use crate::store::sqlite::Database;
    use crate::store::sqlite::core::Core;

    fn open(dir: &std::path::Path) -> RateLimits {
        let db = Database::open(&dir.join("highchair.db"), 4).unwrap();
        let core = Core::new(db, crate::store::blobs::Blobs::new(dir)).unwrap();
        RateLimits::open(Arc::new(core)).unwrap()
    }

    fn limiter(
        limits: &RateLimits,
    ) -> (
        RateLimiter<String, LimiterState, UnixClock, governor::middleware::NoOpMiddleware<Nanos>>,
        UnixClock,
    ) {
        let clock = UnixClock::default();
        let quota = Quota::with_period(Duration::from_secs(1800))
            .unwrap()
            .allow_burst(NonZeroU32::new(2).unwrap());
        let state = limits.state("t", &clock);
        (RateLimiter::new(quota, state, clock.clone()), clock)
    }

    #[test]
    fn a_lockout_survives_reopening_and_forgetting_and_purging_reach_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        {
            let limits = open(dir.path());
            let (limiter, _) = limiter(&limits);
            let key = "k".to_string();
            limiter.check_key(&key).unwrap();
            limiter.check_key(&key).unwrap();
            assert!(limiter.check_key(&key).is_err());
            limiter.check_key(&"gone".to_string()).unwrap();
            limits.forget("t", "gone");
            assert_eq!(limits.len(), 1);
        }
        let limits = open(dir.path());
        assert_eq!(limits.len(), 1, "the forgotten key stays forgotten");
        let (limiter, clock) = limiter(&limits);
        let wait = limiter
            .check_key(&"k".to_string())
            .expect_err("still locked after a restart")
            .wait_time_from(clock.now());
        assert!(wait > Duration::from_secs(1700), "{wait:?}");
        assert_eq!(limits.purge_expired(unix_nanos() + 3_600_000_000_000), 1);
        drop((limiter, limits));
        assert!(open(dir.path()).is_empty());
    }
}
