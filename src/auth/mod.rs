//! Authentication pieces: attempt limiting (more arrives with accounts).

pub mod limiter;

pub use limiter::AttemptLimiter;
