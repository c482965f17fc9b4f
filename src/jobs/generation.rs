//! The recipe generation lane: one model job at a time, the others queued in order. Each job
//! is stored when queued, started, finished or failed (`store::generations`), so a restart
//! picks up what was queued or running; live progress and queue positions go to watchers
//! (the job's SSE stream) through a `watch` channel per job.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use chrono::Utc;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use crate::domain::ids::GenerationId;
use crate::domain::recipe_guard::Guard;
use crate::recipes::{GenerateError, Progress, RecipeGenerator};
use crate::store::generations::{Generation, Owner, State};
use crate::store::{Store, StoreError};

/// Most jobs waiting at once, for the whole server.
pub const QUEUE_MAX: usize = 50;
/// A job started this often without finishing (restarts in the middle) is failed.
pub const ATTEMPTS_MAX: u32 = 3;

/// What a watcher sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Live {
    /// Jobs ahead of this one (0: next).
    Queued {
        ahead: usize,
    },
    Generating {
        percent: u8,
    },
    /// Read the result from the store.
    Finished,
}

#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error("the queue is full")]
    Full,
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<(GenerationId, Owner)>,
    running: Option<(GenerationId, Owner)>,
    watchers: HashMap<GenerationId, watch::Sender<Live>>,
}

impl Queue {
    /// Tells every waiting job its place.
    fn announce_positions(&self) {
        let busy = usize::from(self.running.is_some());
        for (i, (id, _)) in self.waiting.iter().enumerate() {
            if let Some(tx) = self.watchers.get(id) {
                tx.send_replace(Live::Queued { ahead: busy + i });
            }
        }
    }
}

pub struct Lane {
    store: Arc<Store>,
    generator: Arc<dyn RecipeGenerator>,
    queue: Mutex<Queue>,
    wake: Notify,
}

impl Lane {
    pub fn new(store: Arc<Store>, generator: Arc<dyn RecipeGenerator>) -> Arc<Lane> {
        Arc::new(Lane {
            store,
            generator,
            queue: Mutex::new(Queue::default()),
            wake: Notify::new(),
        })
    }

    pub fn generator(&self) -> &dyn RecipeGenerator {
        self.generator.as_ref()
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// At start: queues again what was queued or running when the server stopped, oldest
    /// first; a job interrupted too often is failed with a clear message instead.
    pub async fn recover(&self) -> Result<usize, StoreError> {
        let mut requeued = 0;
        for mut job in self.store.generations.unfinished()? {
            if job.state == State::Running && job.attempts >= ATTEMPTS_MAX {
                job.state = State::Failed {
                    title: "Error generating recipes".into(),
                    message: "The server restarted while these recipes were being made. Please try again.".into(),
                    unavailable: false,
                    withheld: Vec::new(),
                };
                job.updated_at = Utc::now();
                self.store.generations.put(&job).await?;
                continue;
            }
            if job.state == State::Running {
                job.state = State::Queued;
                self.store.generations.put(&job).await?;
            }
            let mut q = self.queue();
            let (tx, _) = watch::channel(Live::Queued { ahead: 0 });
            q.watchers.insert(job.id, tx);
            q.waiting.push_back((job.id, job.owner));
            requeued += 1;
        }
        self.queue().announce_positions();
        self.wake.notify_one();
        Ok(requeued)
    }

    /// Stores a new job and queues it.
    pub async fn submit(&self, job: &Generation) -> Result<(), SubmitError> {
        if self.queue().waiting.len() >= QUEUE_MAX {
            return Err(SubmitError::Full);
        }
        self.store.generations.put(job).await?;
        {
            let mut q = self.queue();
            let (tx, _) = watch::channel(Live::Queued { ahead: 0 });
            q.watchers.insert(job.id, tx);
            q.waiting.push_back((job.id, job.owner.clone()));
            q.announce_positions();
        }
        self.wake.notify_one();
        Ok(())
    }

    /// Jobs of this owner that are waiting or running.
    pub fn unfinished_of(&self, owner: &Owner) -> usize {
        let q = self.queue();
        q.waiting.iter().filter(|(_, o)| o == owner).count()
            + usize::from(q.running.as_ref().is_some_and(|(_, o)| o == owner))
    }

    /// The live state of a queued or running job; `None` when it is finished (or unknown).
    pub fn watch(&self, id: GenerationId) -> Option<watch::Receiver<Live>> {
        self.queue().watchers.get(&id).map(watch::Sender::subscribe)
    }

    /// Runs jobs until aborted at shutdown (a running job is then queued again at start).
    pub fn spawn(self: Arc<Self>) -> JoinHandle<()> {
        tokio::spawn(async move {
            loop {
                let next = {
                    let mut q = self.queue();
                    let next = q.waiting.pop_front();
                    q.running = next.clone();
                    q.announce_positions();
                    next
                };
                match next {
                    Some((id, _)) => {
                        if let Err(e) = self.run(id).await {
                            tracing::error!(job.id = %id, error = %e, "a recipe job could not be stored");
                        }
                        let mut q = self.queue();
                        q.running = None;
                        if let Some(tx) = q.watchers.remove(&id) {
                            tx.send_replace(Live::Finished);
                        }
                    }
                    None => self.wake.notified().await,
                }
            }
        })
    }

    async fn run(&self, id: GenerationId) -> Result<(), StoreError> {
        let Some(mut job) = self.store.generations.get(id)? else {
            return Ok(());
        };
        if job.state.is_finished() {
            return Ok(());
        }
        job.state = State::Running;
        job.attempts += 1;
        job.updated_at = Utc::now();
        self.store.generations.put(&job).await?;
        let sender = self.queue().watchers.get(&id).cloned();
        if let Some(tx) = &sender {
            tx.send_replace(Live::Generating { percent: 0 });
        }
        let guard = self.guard_for(&job)?;
        let progress = |p: Progress| {
            if let Some(tx) = &sender {
                let next = Live::Generating {
                    percent: p.percent(),
                };
                tx.send_if_modified(|live| {
                    let changed = *live != next;
                    *live = next;
                    changed
                });
            }
        };
        let started = std::time::Instant::now();
        let result = self
            .generator
            .generate(&job.request, &guard, &progress)
            .await;
        tracing::info!(
            job.id = %id,
            generator = self.generator.name(),
            ms = started.elapsed().as_millis() as u64,
            ok = result.is_ok(),
            "recipe job finished"
        );
        job.state = match result {
            Ok(outcome) => State::Done {
                recipes: outcome.recipes,
                withheld: outcome.withheld,
                notes: outcome.notes,
            },
            Err(e) => failed(&e),
        };
        job.updated_at = Utc::now();
        self.store.generations.put(&job).await
    }

    /// The request's allergies and restrictions, and every allergy of the family's children.
    fn guard_for(&self, job: &Generation) -> Result<Guard, StoreError> {
        let mut allergies = job.request.allergies.clone();
        if let Some(family) = job.family {
            for child in self.store.children.list(family)? {
                allergies.extend(child.allergies);
            }
        }
        Ok(Guard::new(&allergies, &job.request.dietary_restrictions))
    }
}

/// The stored failure, in the spec's words (section 8).
fn failed(e: &GenerateError) -> State {
    let title = "Error generating recipes".to_string();
    let (message, withheld) = match e {
        GenerateError::ModelMissing { model } => (
            format!(
                "The recipe model {model} is not installed on this server. Ask the person who runs Highchair to install it, or switch to the built-in generator."
            ),
            Vec::new(),
        ),
        GenerateError::Unreachable { .. } => (
            "The recipe model cannot be reached right now. Please try again later.".into(),
            Vec::new(),
        ),
        GenerateError::Timeout { secs } => (
            format!("The recipe model did not finish within {secs} seconds. Please try again."),
            Vec::new(),
        ),
        GenerateError::Unusable { .. } => (
            "We couldn't generate recipes with those ingredients. Please try again.".into(),
            Vec::new(),
        ),
        GenerateError::AllWithheld { withheld } => (
            format!(
                "No recipes were generated: {} suggestion{} contained an allergen or broke a dietary restriction.",
                withheld.len(),
                if withheld.len() == 1 { "" } else { "s" }
            ),
            withheld.clone(),
        ),
        GenerateError::NothingToMake { notes } => {
            let mut m = "No recipes were generated: please add a main ingredient such as a vegetable, a protein, a grain or a fruit.".to_string();
            for n in notes {
                m.push(' ');
                m.push_str(n);
            }
            (m, Vec::new())
        }
    };
    if let GenerateError::Unreachable { detail } | GenerateError::Unusable { detail } = e {
        tracing::warn!(detail = %detail, "recipe generation failed");
    }
    State::Failed {
        title,
        message,
        unavailable: e.is_unavailable(),
        withheld,
    }
}
