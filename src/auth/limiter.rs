//! Attempt limits (GCRA from governor) whose state lives in the store, so a restart does not
//! reset a lockout.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::{Quota, RateLimiter};

use crate::store::RateLimits;
use crate::store::rate_limits::{LimiterState, UnixClock};

type Inner = RateLimiter<String, LimiterState, UnixClock, NoOpMiddleware<Nanos>>;

/// Where attempts come from, for per-client limits: an IPv4 address, or the IPv6 /64 it is in
/// (a client usually holds a whole /64 and could otherwise take a new address for every
/// attempt); "unknown" when the address could not be read. Made once, where a request arrives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientKey(String);

impl ClientKey {
    pub fn of(ip: Option<IpAddr>) -> ClientKey {
        ClientKey(ip.map_or_else(|| "unknown".into(), |ip| client_network(ip).to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The network one client holds: the IPv4 address itself, or its IPv6 /64.
pub fn client_network(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// A named, keyed limit such as "contact messages per IP".
pub struct AttemptLimiter {
    inner: Inner,
    clock: UnixClock,
    store: RateLimits,
    name: &'static str,
    /// How long one attempt takes to come back.
    replenish: Duration,
}

impl AttemptLimiter {
    /// `burst` attempts at once, then one more every `period / burst`.
    pub fn new(store: &RateLimits, name: &'static str, burst: u32, period: Duration) -> Self {
        let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
        let replenish = period / burst.get();
        let quota = Quota::with_period(replenish.max(Duration::from_millis(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst);
        let clock = UnixClock::default();
        let state = store.state(name, &clock);
        let inner = RateLimiter::new(quota, state, clock.clone());
        Self {
            inner,
            clock,
            store: store.clone(),
            name,
            replenish: replenish.max(Duration::from_millis(1)),
        }
    }

    /// Counts one attempt for `key`. `Err` holds how long until the next attempt is allowed.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.inner
            .check_key(&key.to_string())
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Gives back one attempt `check` counted for `key` (it turned out not to be one to count).
    pub fn give_back(&self, key: &str) {
        let nanos = u64::try_from(self.replenish.as_nanos()).unwrap_or(u64::MAX);
        self.store.give_back(self.name, key, nanos);
    }

    /// Forgets `key`'s attempts, as if it had made none.
    pub fn forget(&self, key: &str) {
        self.store.forget(self.name, key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_is_its_ipv4_address_or_its_ipv6_64() {
        let key = |ip: &str| ClientKey::of(Some(ip.parse().unwrap()));
        assert_eq!(key("10.0.0.1").as_str(), "10.0.0.1");
        assert_eq!(
            key("::ffff:10.0.0.1"),
            key("10.0.0.1"),
            "a mapped IPv4 is the same client"
        );
        assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("2001:db8:1:2::1").as_str(), "2001:db8:1:2::");
        assert_eq!(ClientKey::of(None).as_str(), "unknown");
    }

    #[test]
    fn allows_the_burst_then_refuses_with_a_wait() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
        let limiter = AttemptLimiter::new(&store.rate_limits, "t", 3, Duration::from_secs(900));
        for _ in 0..3 {
            limiter.check("1.2.3.4").unwrap();
        }
        let wait = limiter.check("1.2.3.4").unwrap_err();
        assert!(
            wait > Duration::from_secs(200) && wait <= Duration::from_secs(300),
            "{wait:?}"
        );
        limiter
            .check("5.6.7.8")
            .expect("other keys are independent");
    }

    #[test]
    fn forgetting_a_key_gives_back_its_burst() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
        let limiter = AttemptLimiter::new(&store.rate_limits, "t", 2, Duration::from_secs(900));
        limiter.check("k").unwrap();
        limiter.check("k").unwrap();
        assert!(limiter.check("k").is_err());
        limiter.forget("k");
        limiter.check("k").unwrap();
        limiter.check("k").unwrap();
        assert!(limiter.check("k").is_err());
    }

    #[test]
    fn an_attempt_given_back_can_be_made_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
        let limiter = AttemptLimiter::new(&store.rate_limits, "t", 3, Duration::from_secs(3600));
        for _ in 0..10 {
            limiter.check("k").unwrap();
            limiter.give_back("k");
        }
        for _ in 0..3 {
            limiter.check("k").unwrap();
        }
        assert!(limiter.check("k").is_err(), "only what was given back");
        limiter.give_back("k");
        limiter.check("k").unwrap();
        assert!(limiter.check("k").is_err());
        limiter.give_back("nobody");
        assert!(limiter.check("k").is_err(), "other keys give nothing");
    }

    #[test]
    fn a_lockout_survives_reopening_the_store() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = crate::store::Store::open(dir.path(), 4).unwrap();
            let limiter =
                AttemptLimiter::new(&store.rate_limits, "t", 2, Duration::from_secs(3600));
            limiter.check("k").unwrap();
            limiter.check("k").unwrap();
            assert!(limiter.check("k").is_err());
        }
        std::thread::sleep(Duration::from_millis(20));
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
        let limiter = AttemptLimiter::new(&store.rate_limits, "t", 2, Duration::from_secs(3600));
        let wait = limiter
            .check("k")
            .expect_err("still locked after a restart");
        assert!(wait > Duration::from_secs(1700), "{wait:?}");
        assert!(
            wait <= Duration::from_secs(1800),
            "not longer than before: {wait:?}"
        );
    }

    #[test]
    fn expired_state_is_purged() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 4).unwrap();
        let limiter = AttemptLimiter::new(&store.rate_limits, "t", 1, Duration::from_millis(10));
        limiter.check("k").unwrap();
        assert_eq!(store.rate_limits.len(), 1);
        let later = crate::store::rate_limits::unix_nanos() + 1_000_000_000;
        assert_eq!(store.rate_limits.purge_expired(later), 1);
        assert!(store.rate_limits.is_empty());
    }
}
