//! The application state shared by every request: settings, store and limiters.

use std::ops::Deref;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::auth::password::ITERATIONS;
use crate::auth::{AttemptLimiter, Hasher};
use crate::config::Settings;
use crate::media::Images;
use crate::store::{OpenError, Store};

pub struct AppState {
    pub settings: Settings,
    pub store: Store,
    pub limits: Limits,
    pub hasher: Hasher,
    pub images: Images,
    pub started: Instant,
}

/// Knobs that are not settings. Tests lower the hashing cost; production never does.
#[derive(Debug, Clone)]
pub struct Tuning {
    pub password_iterations: u32,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            password_iterations: ITERATIONS,
        }
    }
}

/// Attempt limits; their state is in the store, so they survive a restart.
pub struct Limits {
    /// Contact form messages per client IP.
    pub contact: AttemptLimiter,
    /// Sign-in attempts per client IP.
    pub login_ip: AttemptLimiter,
    /// Sign-in attempts per account (e-mail).
    pub login_account: AttemptLimiter,
    pub signup_ip: AttemptLimiter,
    pub guest_ip: AttemptLimiter,
    pub forgot_ip: AttemptLimiter,
}

impl Limits {
    fn new(store: &Store) -> Self {
        let limit = |name, burst, minutes: u64| {
            AttemptLimiter::new(
                &store.rate_limits,
                name,
                burst,
                Duration::from_secs(minutes * 60),
            )
        };
        Self {
            contact: limit("contact-ip", 5, 60),
            login_ip: limit("login-ip", 20, 15),
            login_account: limit("login-account", 10, 15),
            signup_ip: limit("signup-ip", 10, 60),
            guest_ip: limit("guest-ip", 10, 60),
            forgot_ip: limit("forgot-ip", 5, 60),
        }
    }
}

/// Cheap to clone; every request and background job holds one.
#[derive(Clone)]
pub struct App(Arc<AppState>);

impl App {
    /// Opens the store named in the settings. The settings must already be validated.
    pub fn new(settings: Settings) -> Result<App, OpenError> {
        Self::with_tuning(settings, Tuning::default())
    }

    pub fn with_tuning(settings: Settings, tuning: Tuning) -> Result<App, OpenError> {
        let store = Store::open(&settings.storage.data_dir, settings.storage.cache_mb)?;
        let limits = Limits::new(&store);
        Ok(App(Arc::new(AppState {
            settings,
            store,
            limits,
            hasher: Hasher::new(tuning.password_iterations),
            images: Images::default(),
            started: Instant::now(),
        })))
    }
}

impl Deref for App {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.0
    }
}
