//! The recipe generation lane: one model job at a time, the others queued in order. Each job
//! is stored when queued, started, finished or failed (`store::generations`), so a restart
//! picks up what was queued or running; live progress and queue positions go to watchers
//! (the job's SSE stream) through a `watch` channel per job.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, watch};

use crate::domain::food_safety::Age;
use crate::domain::generation::{
    ANONYMOUS_MAX, ATTEMPTS_MAX, Failure, Generation, Owner, QUEUE_MAX, State,
};
use crate::domain::ids::{FamilyId, GenerationId};
use crate::domain::recipe_guard::Guard;
use crate::generator::{GenerateError, Outcome, Progress, RecipeGenerator, screen, verified_diets};
use crate::jobs::supervisor::AbortOnDrop;
use crate::store::{Store, StoreError};

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
    #[error("the owner has as many jobs as allowed")]
    OwnerBusy,
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<(GenerationId, Owner)>,
    /// Places taken by jobs whose record is still being written: they count towards the caps
    /// but the lane cannot pick them up before they are stored.
    reserved: Vec<(GenerationId, Owner)>,
    running: Option<(GenerationId, Owner)>,
    watchers: HashMap<GenerationId, watch::Sender<Live>>,
}

impl Queue {
    /// Room for one more waiting job of this owner's kind: `QUEUE_MAX` in all, of which
    /// `ANONYMOUS_MAX` for visitors.
    fn has_room(&self, owner: &Owner) -> bool {
        let anonymous = self.pending().filter(|o| o.is_anonymous()).count();
        self.waiting.len() + self.reserved.len() < QUEUE_MAX
            && !(owner.is_anonymous() && anonymous >= ANONYMOUS_MAX)
    }

    /// The owners of every job not yet started: waiting or still being written.
    fn pending(&self) -> impl Iterator<Item = &Owner> {
        self.waiting.iter().chain(&self.reserved).map(|(_, o)| o)
    }

    /// Queues a stored job: an account's job goes ahead of visitors' waiting jobs.
    fn enqueue(&mut self, id: GenerationId, owner: Owner) {
        let at = match owner {
            Owner::User(_) => self
                .waiting
                .iter()
                .position(|(_, o)| o.is_anonymous())
                .unwrap_or(self.waiting.len()),
            Owner::Anonymous(_) => self.waiting.len(),
        };
        self.waiting.insert(at, (id, owner));
    }

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
        for mut job in self.store.generations.unfinished().await? {
            if job.state == State::Running && job.attempts >= ATTEMPTS_MAX {
                job.set_state(State::failed(Failure::Interrupted));
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

    /// Stores a new job and queues it, if there is room: at most `owner_max` unfinished jobs
    /// per owner, `QUEUE_MAX` waiting, of which at most `ANONYMOUS_MAX` from visitors who are
    /// not signed in (so they cannot keep families waiting). Checked and taken under the
    /// queue's lock, so parallel requests cannot pass it together.
    pub async fn submit(&self, job: &Generation, owner_max: usize) -> Result<(), SubmitError> {
        {
            let mut q = self.queue();
            let of_owner = q.pending().filter(|o| **o == job.owner).count()
                + usize::from(q.running.as_ref().is_some_and(|(_, o)| *o == job.owner));
            if of_owner >= owner_max {
                return Err(SubmitError::OwnerBusy);
            }
            if !q.has_room(&job.owner) {
                return Err(SubmitError::Full);
            }
            // Holds the place while the job is written; the lane sees it only once it is
            // stored (it would otherwise find no record and drop the job).
            let (tx, _) = watch::channel(Live::Queued { ahead: 0 });
            q.watchers.insert(job.id, tx);
            q.reserved.push((job.id, job.owner.clone()));
        }
        let written = self.store.generations.put(job).await;
        let mut q = self.queue();
        q.reserved.retain(|(id, _)| *id != job.id);
        if let Err(e) = written {
            q.watchers.remove(&job.id);
            return Err(e.into());
        }
        q.enqueue(job.id, job.owner.clone());
        q.announce_positions();
        drop(q);
        self.wake.notify_one();
        Ok(())
    }

    /// Whether a job from this owner kind would find room (checked before a rate limit is
    /// charged; `submit` checks again).
    pub fn has_room(&self, owner: &Owner) -> bool {
        self.queue().has_room(owner)
    }

    /// The live state of a queued or running job; `None` when it is finished (or unknown).
    pub fn watch(&self, id: GenerationId) -> Option<watch::Receiver<Live>> {
        self.queue().watchers.get(&id).map(watch::Sender::subscribe)
    }

    /// Runs jobs until stopped at shutdown (a running job is then queued again at start).
    pub async fn work(self: Arc<Self>) {
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
                    // In its own task: a panic in a generator fails this job, not the lane.
                    let lane = self.clone();
                    let mut task = AbortOnDrop(tokio::spawn(async move { lane.run_job(id).await }));
                    let outcome = (&mut task.0).await;
                    let failure = match outcome {
                        Ok(Ok(())) => None,
                        Ok(Err(e)) => Some(e.to_string()),
                        Err(e) => Some(format!("the generator stopped: {e}")),
                    };
                    if let Some(reason) = failure {
                        tracing::error!(job.id = %id, error = %reason, "a recipe job failed");
                        self.mark_failed(id).await;
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
    }

    /// Stores a job that broke off as failed, so nobody waits for it.
    async fn mark_failed(&self, id: GenerationId) {
        let Ok(Some(mut job)) = self.store.generations.get(id).await else {
            return;
        };
        if job.state.is_finished() {
            return;
        }
        job.set_state(State::failed(Failure::Broke));
        if let Err(e) = self.store.generations.put(&job).await {
            tracing::error!(job.id = %id, error = %e, "a failed recipe job could not be stored");
        }
    }

    async fn run_job(&self, id: GenerationId) -> Result<(), StoreError> {
        let Some(job) = self.store.generations.get(id).await? else {
            return Ok(());
        };
        if job.state.is_finished() {
            return Ok(());
        }
        // Read and worded as the request that queued it would have been.
        crate::i18n::scope::within(job.language, self.run(job)).await
    }

    async fn run(&self, mut job: Generation) -> Result<(), StoreError> {
        let id = job.id;
        job.set_state(State::Running);
        job.attempts += 1;
        self.store.generations.put(&job).await?;
        let sender = self.queue().watchers.get(&id).cloned();
        if let Some(tx) = &sender {
            tx.send_replace(Live::Generating { percent: 0 });
        }
        let guard = guard_for(
            &self.store,
            job.family,
            &job.request.allergies,
            &job.request.dietary_restrictions,
        )
        .await?;
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
        // Every generator screens its recipes; the lane checks again, so no generator can
        // forget to.
        let result = result.and_then(|outcome| {
            let (mut recipes, mut withheld) = screen(&guard, outcome.recipes);
            for r in &mut recipes {
                r.dietary_restrictions = verified_diets(r, &job.request.dietary_restrictions);
            }
            withheld.extend(outcome.withheld);
            if recipes.is_empty() {
                return Err(GenerateError::AllWithheld { withheld });
            }
            Ok(Outcome {
                recipes,
                withheld,
                notes: outcome.notes,
            })
        });
        job.set_state(match result {
            Ok(outcome) => State::Done {
                recipes: outcome.recipes,
                withheld: outcome.withheld,
                notes: outcome.notes,
            },
            Err(e) => failed(e),
        });
        self.store.generations.put(&job).await
    }
}

/// A request's allergies and restrictions, and every allergy of the family's children (by
/// name, so that what is left out says whose allergy it is) and their ages today.
pub async fn guard_for(
    store: &Store,
    family: Option<FamilyId>,
    allergies: &[String],
    restrictions: &[String],
) -> Result<Guard, StoreError> {
    let mut guard = Guard::new(allergies, restrictions);
    if let Some(family) = family {
        let today = chrono::Utc::now().date_naive();
        for child in store.children.list(family).await? {
            guard = guard
                .with_child(&child.name, &child.allergies)
                .with_age(&child.name, Age::of(&child, today));
        }
    }
    Ok(guard)
}

/// The stored failure: what happened, and the recipes withheld on the way. The details (an
/// address, a library's error) go to the log only.
fn failed(e: GenerateError) -> State {
    if let GenerateError::Unreachable { detail } | GenerateError::Unusable { detail } = &e {
        tracing::warn!(detail = %detail, "recipe generation failed");
    }
    let failure = e.failure();
    let withheld = match e {
        GenerateError::AllWithheld { withheld } => withheld,
        _ => Vec::new(),
    };
    State::Failed { failure, withheld }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use futures_util::future::BoxFuture;

    use super::*;
    use crate::domain::generation::tests::job;
    use crate::domain::recipe::GenerateRequest;
    use crate::generator::{Outcome, ProgressFn, Status};
    use crate::store::tests::temp_store;

    /// A generator that breaks: every job it runs panics.
    struct Panics;

    impl RecipeGenerator for Panics {
        fn name(&self) -> &'static str {
            "panics"
        }
        fn generate<'a>(
            &'a self,
            _: &'a GenerateRequest,
            _: &'a Guard,
            _: ProgressFn<'a>,
        ) -> BoxFuture<'a, Result<Outcome, GenerateError>> {
            Box::pin(async { panic!("the generator broke") })
        }
        fn status(&self) -> BoxFuture<'_, Status> {
            Box::pin(async { Status::Ok })
        }
    }

    #[tokio::test]
    async fn a_panicking_generator_fails_its_job_and_the_lane_goes_on() {
        let (_dir, store) = temp_store();
        let store = Arc::new(store);
        let lane = Lane::new(store.clone(), Arc::new(Panics));
        let task = tokio::spawn(lane.clone().work());
        let (a, b) = (job("a"), job("b"));
        lane.submit(&a, 3).await.unwrap();
        lane.submit(&b, 3).await.unwrap();
        for id in [a.id, b.id] {
            let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
            loop {
                let stored = store.generations.get(id).await.unwrap().unwrap();
                // Stored as failed, and nobody is left waiting for it.
                if let State::Failed { failure, .. } = &stored.state
                    && lane.watch(id).is_none()
                {
                    assert_eq!(*failure, Failure::Broke);
                    break;
                }
                assert!(tokio::time::Instant::now() < deadline, "{stored:?}");
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        task.abort();
    }

    #[tokio::test]
    async fn owners_and_visitors_are_capped_under_one_lock() {
        let (_dir, store) = temp_store();
        let lane = Lane::new(Arc::new(store), Arc::new(Panics));
        for _ in 0..3 {
            lane.submit(&job("same"), 3).await.unwrap();
        }
        assert!(matches!(
            lane.submit(&job("same"), 3).await,
            Err(SubmitError::OwnerBusy)
        ));
        for i in 3..ANONYMOUS_MAX {
            lane.submit(&job(&format!("v{i}")), 3).await.unwrap();
        }
        assert!(matches!(
            lane.submit(&job("one more visitor"), 3).await,
            Err(SubmitError::Full)
        ));
        assert!(!lane.has_room(&Owner::Anonymous("x".into())));
        assert!(lane.has_room(&Owner::User(crate::domain::ids::UserId::new())));
        // A parent's job goes ahead of every visitor's.
        let mut parent = job("p");
        parent.owner = Owner::User(crate::domain::ids::UserId::new());
        lane.submit(&parent, 3).await.unwrap();
        assert_eq!(
            *lane.watch(parent.id).unwrap().borrow(),
            Live::Queued { ahead: 0 }
        );
    }
}
