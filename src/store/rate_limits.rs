//! Persistent state for governor rate limiters, so limits and lockouts survive a restart.
//!
//! governor keeps, per key, a "theoretical arrival time" (TAT) in nanoseconds since the limiter
//! started. We store it as absolute Unix nanoseconds and translate on the way in and out, using
//! the limiter's start time, which the `UnixClock` records on its first reading.

use std::sync::{Arc, OnceLock};

pub use super::sqlite::rate_limits::{LimiterState, RateLimits};
use std::time::{SystemTime, UNIX_EPOCH};

use governor::clock::Clock;
use governor::nanos::Nanos;

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
