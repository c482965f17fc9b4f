//! Photos and avatars: a safe image pipeline under a memory budget.

#[doc(hidden)]
pub mod fixtures;
pub mod pipeline;

use std::sync::Arc;

use tokio::sync::Semaphore;

pub use pipeline::{MediaError, Processed};

const MIB: u64 = 1024 * 1024;

/// Runs the pipeline on blocking threads within a memory budget: each image's cost is worked
/// out from its header before decoding; images wait until their cost fits in what the ones
/// being processed leave, and one that could never fit is refused. So parallel uploads cannot
/// exhaust a Raspberry Pi's memory, however large their pictures.
#[derive(Clone)]
pub struct Images {
    /// One permit per MiB.
    budget: Arc<Semaphore>,
    budget_mb: u64,
}

impl Images {
    pub fn new(budget_mb: u32) -> Self {
        let budget_mb = u64::from(budget_mb.max(1));
        Images {
            budget: Arc::new(Semaphore::new(budget_mb as usize)),
            budget_mb,
        }
    }

    /// Decodes, orients, strips and re-encodes `bytes`, fitting the long edge into `long_edge`.
    pub async fn process(&self, bytes: Vec<u8>, long_edge: u32) -> Result<Processed, MediaError> {
        let plan = pipeline::plan(&bytes)?;
        let needed_mb = plan.memory_cost(bytes.len(), long_edge).div_ceil(MIB);
        // One request never takes more than REQUEST_MAX_BYTES, however large the budget.
        let most_mb = self
            .budget_mb
            .min(pipeline::REQUEST_MAX_BYTES.div_ceil(MIB));
        if needed_mb > most_mb {
            return Err(MediaError::NeedsTooMuchMemory {
                needed_mb,
                budget_mb: most_mb,
            });
        }
        let permit = self
            .budget
            .clone()
            .acquire_many_owned(needed_mb as u32)
            .await
            .map_err(|_| MediaError::Damaged)?;
        // The permit goes with the work: if the request is dropped, the decode still runs to its
        // end and keeps its share of the budget until then.
        let work = move || {
            let result = pipeline::process_planned(&bytes, &plan, long_edge);
            drop(permit);
            result
        };
        match tokio::task::spawn_blocking(work).await {
            Ok(result) => result,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }
}
