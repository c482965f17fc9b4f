//! The use cases, one function each (sign up, add a meal, delete a child...): domain rules, the
//! store's write primitive, and nothing of HTTP. `Services` is everything they need; the API
//! handlers and the admin socket call into here.

pub mod accounts;
pub mod background;
pub mod backups;
pub mod children;
pub mod co_parents;
pub mod contact;
pub mod error;
pub mod family;
pub mod generation;
pub mod grocery;
pub mod health;
pub mod housekeeping;
pub mod meal_plan;
pub mod meals;
pub mod photos;
pub mod recipe_import;
pub mod recipes;
pub mod sessions;
pub mod share;

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::auth::device::DeviceKey;
use crate::auth::password::ITERATIONS;
use crate::auth::{AttemptLimiter, Hasher};
use crate::config::Settings;
use crate::domain::change::Change;
use crate::domain::co_parent;
use crate::events::Feed;
use crate::jobs::generation::Lane;
use crate::media::Images;
use crate::store::{OpenError, Store};

pub use error::{AppError, AppResult, Stale};

/// Knobs that are not settings. Tests lower the hashing cost; production never does.
#[derive(Debug, Clone)]
pub struct Tuning {
    pub password_iterations: u32,
    /// How long after start the first automatic backup is written when there is none yet.
    pub first_backup_after: std::time::Duration,
}

impl Default for Tuning {
    fn default() -> Self {
        Self {
            password_iterations: ITERATIONS,
            first_backup_after: std::time::Duration::from_secs(600),
        }
    }
}

/// Attempt limits; their state is in the store, so they survive a restart.
pub struct Limits {
    /// Contact form messages per client IP.
    pub contact: AttemptLimiter,
    /// Sign-in attempts per client IP (browsers without a device cookie for the account).
    pub login_ip: AttemptLimiter,
    /// Sign-in attempts per account and client IP (idem).
    pub login_account_ip: AttemptLimiter,
    /// The account-wide slowdown: attempts per account from browsers that have not signed in
    /// to it before. A browser with a device cookie for the account is never held by it.
    pub login_account: AttemptLimiter,
    /// Sign-in attempts per device cookie (a browser that signed in to the account before).
    pub login_device: AttemptLimiter,
    pub signup_ip: AttemptLimiter,
    /// Photo uploads per family, and per guest.
    pub upload_family: AttemptLimiter,
    pub upload_guest: AttemptLimiter,
    pub guest_ip: AttemptLimiter,
    pub forgot_ip: AttemptLimiter,
    /// Recipe generation by visitors who are not signed in, per client IP, and by families.
    pub recipes_ip: AttemptLimiter,
    pub recipes_family: AttemptLimiter,
    /// Recipe imports per family (each may fetch a page and a picture from the web).
    pub imports_family: AttemptLimiter,
    /// PIN attempts on one co-parent link (spec: 3 per 15 minutes; a success clears it).
    pub share_link: AttemptLimiter,
    /// PIN attempts (and PIN set-ups) per client IP across every link.
    pub share_ip: AttemptLimiter,
    /// PIN attempts on the whole server: a bound on the PBKDF2 work guessing can cause, and
    /// on guesses spread over many addresses. A right PIN gives its attempt back, so a family
    /// signing in over and over with its own link spends nothing of it.
    pub share_all: AttemptLimiter,
    /// PINs hashed for one family's links (sign-ins, right or wrong, and chosen PINs): a
    /// family's own links cannot spend more, and never another family's budget.
    pub share_family: AttemptLimiter,
    /// PINs the owners of one family make (invites and Reset PIN), each a PBKDF2 hash.
    pub pins_family: AttemptLimiter,
}

/// Co-parent invites and PIN resets per hour per family.
const PINS_FAMILY_PER_HOUR: u32 = 20;

impl Limits {
    fn new(store: &Store, limits: &crate::config::LimitSettings) -> Self {
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
            login_ip: limit("login-ip", 30, 15),
            login_account_ip: limit("login-account-ip", 5, 15),
            login_account: limit("login-account-untrusted", 10, 15),
            login_device: limit("login-device", 10, 15),
            signup_ip: limit("signup-ip", 10, 60),
            upload_family: limit("upload-family", limits.uploads_per_hour, 60),
            upload_guest: limit("upload-guest", limits.guest_uploads_per_hour, 60),
            guest_ip: limit("guest-ip", 10, 60),
            forgot_ip: limit("forgot-ip", 5, 60),
            recipes_ip: limit("recipes-ip", 10, 60),
            recipes_family: limit("recipes-family", 60, 60),
            imports_family: limit("imports-family", recipe_import::IMPORTS_PER_HOUR, 60),
            share_link: limit(
                "share-link",
                co_parent::PIN_WINDOW_FAILURES,
                co_parent::PIN_WINDOW_MINUTES,
            ),
            share_ip: limit("share-ip", limits.pin_attempts_per_ip_per_hour, 60),
            share_all: limit("share-all", limits.pin_attempts_per_hour, 60),
            share_family: limit("share-family", limits.pin_attempts_per_family_per_hour, 60),
            pins_family: limit("pins-family", PINS_FAMILY_PER_HOUR, 60),
        }
    }
}

/// Settings, store, change feed, limits and workers: built once, shared by every request.
/// Its fields are private: the use cases below reach them, callers go through the use cases.
/// The few accessors serve wiring (server, admin socket, CLI) and the integration tests; the
/// API never names the store (the layer check says so).
pub struct Services {
    settings: Settings,
    store: Arc<Store>,
    feed: Arc<Feed>,
    limits: Limits,
    hasher: Hasher,
    /// Signs device cookies.
    device_key: DeviceKey,
    images: Images,
    /// Woken when a persisted job is queued.
    jobs_wake: Arc<Notify>,
    /// Recipe generation jobs, one at a time.
    generation: Arc<Lane>,
    /// Pages being read into recipes, one at a time (a big page's tree takes tens of MB).
    imports: Arc<tokio::sync::Semaphore>,
    /// The generator's last status check (see `generation::generator_status`).
    generator_status: tokio::sync::Mutex<Option<(Instant, crate::generator::Status)>>,
    /// Backups written while serving: their last outcome.
    backups: backups::Backups,
    first_backup_after: std::time::Duration,
}

impl Services {
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// For wiring and tests: background tasks, the admin socket, the CLI's offline commands.
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    pub fn feed(&self) -> &Arc<Feed> {
        &self.feed
    }

    pub fn hasher(&self) -> &Hasher {
        &self.hasher
    }

    /// The family's revision now: it moves on with every change to the family's records (ETags,
    /// kept answers and the change feed are made of it).
    pub fn revision(&self, family: crate::domain::ids::FamilyId) -> u64 {
        self.store.revision(family)
    }

    /// Opens the store named in the settings (already validated) and wires the change feed.
    pub fn open(settings: Settings, tuning: Tuning) -> Result<Services, OpenError> {
        let store = Arc::new(Store::open(
            &settings.storage.data_dir,
            settings.storage.cache_mb,
        )?);
        let feed = Arc::new(Feed::default());
        let jobs_wake = Arc::new(Notify::new());
        {
            let (feed, wake) = (feed.clone(), jobs_wake.clone());
            store.on_change(Box::new(move |changes: &[Change]| {
                feed.publish(changes);
                if changes.contains(&Change::JobQueued) {
                    wake.notify_one();
                }
            }));
        }
        let device_key =
            DeviceKey::new(
                store
                    .secret("device-cookie")
                    .map_err(|e| OpenError::Unusable {
                        dir: settings.storage.data_dir.clone(),
                        reason: e.to_string(),
                    })?,
            );
        let images = Images::new(settings.limits.image_memory_mb);
        let generation = Lane::new(
            store.clone(),
            crate::generator::from_settings(&settings.recipes, &settings.money.currency),
        );
        Ok(Services {
            limits: Limits::new(&store, &settings.limits),
            device_key,
            settings,
            store,
            feed,
            hasher: Hasher::new(tuning.password_iterations),
            images,
            jobs_wake,
            generation,
            imports: Arc::new(tokio::sync::Semaphore::new(1)),
            generator_status: tokio::sync::Mutex::new(None),
            backups: backups::Backups::default(),
            first_backup_after: tuning.first_backup_after,
        })
    }
}
