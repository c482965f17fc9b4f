//! Authentication primitives: password and PIN hashing, random tokens, device cookies and attempt limits. No HTTP and no
//! account flows (those are in `service`).

pub mod device;
pub mod hasher;
pub mod limiter;
pub mod password;
pub mod pin;
pub mod tokens;

pub use hasher::Hasher;
pub use limiter::{AttemptLimiter, ClientKey};
