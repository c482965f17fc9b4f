//! The application state shared by every request: settings, store and limiters.

use std::ops::Deref;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::auth::AttemptLimiter;
use crate::config::Settings;
use crate::store::{OpenError, Store};

pub struct AppState {
    pub settings: Settings,
    pub store: Store,
    pub limits: Limits,
    pub started: Instant,
}

/// Attempt limits; their state is in the store, so they survive a restart.
pub struct Limits {
    /// Contact form messages per client IP.
    pub contact: AttemptLimiter,
}

impl Limits {
    fn new(store: &Store) -> Self {
        Self {
            contact: AttemptLimiter::new(
                &store.rate_limits,
                "contact-ip",
                5,
                Duration::from_secs(3600),
            ),
        }
    }
}

/// Cheap to clone; every request and background job holds one.
#[derive(Clone)]
pub struct App(Arc<AppState>);

impl App {
    /// Opens the store named in the settings. The settings must already be validated.
    pub fn new(settings: Settings) -> Result<App, OpenError> {
        let store = Store::open(&settings.storage.data_dir, settings.storage.cache_mb)?;
        let limits = Limits::new(&store);
        Ok(App(Arc::new(AppState {
            settings,
            store,
            limits,
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
