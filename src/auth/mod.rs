//! Authentication: password hashing, tokens, sessions, account flows and attempt limits.

pub mod accounts;
pub mod hasher;
pub mod limiter;
pub mod password;
pub mod session;
pub mod tokens;

pub use hasher::Hasher;
pub use limiter::AttemptLimiter;
pub use session::{CurrentUser, SESSION_COOKIE};
