//! `App`: the services, built once and shared by the server, the admin socket and the CLI.

use std::ops::Deref;
use std::sync::Arc;

use crate::config::Settings;
use crate::service::Services;
pub use crate::service::Tuning;
use crate::store::OpenError;

/// Cheap to clone; every request and background task holds one.
#[derive(Clone)]
pub struct App(Arc<Services>);

impl App {
    /// Opens the store named in the settings. The settings must already be validated.
    pub fn new(settings: Settings) -> Result<App, OpenError> {
        Self::with_tuning(settings, Tuning::default())
    }

    pub fn with_tuning(settings: Settings, tuning: Tuning) -> Result<App, OpenError> {
        Ok(App(Arc::new(Services::open(settings, tuning)?)))
    }
}

impl Deref for App {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}
