//! Photos and avatars: a safe image pipeline and a bounded number of decodes at once.

#[doc(hidden)]
pub mod fixtures;
pub mod pipeline;

use std::sync::Arc;

use tokio::sync::Semaphore;

pub use pipeline::{MediaError, Processed};

/// Runs the pipeline on blocking threads, at most one image per core at a time, so uploads
/// cannot exhaust a Raspberry Pi's memory or stall other requests.
#[derive(Clone)]
pub struct Images {
    permits: Arc<Semaphore>,
}

impl Default for Images {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Images {
            permits: Arc::new(Semaphore::new(cores)),
        }
    }
}

impl Images {
    /// Decodes, orients, strips and re-encodes `bytes`, fitting the long edge into `long_edge`.
    pub async fn process(&self, bytes: Vec<u8>, long_edge: u32) -> Result<Processed, MediaError> {
        let _permit = self.permits.acquire().await.ok();
        match tokio::task::spawn_blocking(move || pipeline::process(&bytes, long_edge)).await {
            Ok(result) => result,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
}
