//! Recipe generation, the one use case from request to result: a request is checked, limited
//! and queued on the generation lane (`jobs::generation`) for whoever asked (a signed-in
//! account, or an anonymous browser's job cookie); its owner reads where it stands, once or as
//! a stream of views that ends when the job does. Failures stay typed (`Failure`): the API
//! words them.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use futures_util::stream::{self, BoxStream, StreamExt};
use tokio::sync::watch;

use super::{AppResult, Services};
use crate::auth::ClientKey;
use crate::auth::tokens::JobCookie;
use crate::domain::DomainError;
use crate::domain::child::Child;
use crate::domain::generation::{Failure, Generation, OWNER_JOBS_MAX, Owner, State};
use crate::domain::ids::{FamilyId, GenerationId, UserId};
use crate::domain::recipe::{GenerateFields, GenerateRequest, RecipeContent, request_rules};
use crate::domain::recipe_guard::Withheld;
use crate::generator::Status;
use crate::generator::catalogue::Catalogue;
use crate::i18n::Text;
use crate::jobs::generation::{Live, SubmitError, guard_for};
use crate::store::Store;

/// How long a generator status check is reused.
const STATUS_FOR: Duration = Duration::from_secs(15);
/// An owner with this many jobs waiting or running is asked to wait this long.
const OWNER_BUSY_RETRY: Duration = Duration::from_secs(30);

/// Who asks for recipes: a signed-in account (with its family), or a visitor's browser.
pub enum Requester<'a> {
    Member {
        user: UserId,
        family: FamilyId,
    },
    Anonymous {
        /// The anonymous job cookie (stored only as its hash).
        job_cookie: &'a JobCookie,
        /// Where the visitor is, for the visitors' rate limit.
        client: &'a ClientKey,
    },
}

/// Who is looking at a job: the signed-in account and the browser's job cookie, either or both.
#[derive(Default)]
pub struct Viewer {
    pub user: Option<UserId>,
    pub job_cookie: Option<JobCookie>,
}

/// A job cookie's owner key: a hash, so the store never holds the cookie.
fn anonymous(job_cookie: &JobCookie) -> Owner {
    Owner::Anonymous(hex::encode(job_cookie.hash()))
}

impl Viewer {
    fn owners(&self) -> impl Iterator<Item = Owner> {
        self.user
            .map(Owner::User)
            .into_iter()
            .chain(self.job_cookie.as_ref().map(anonymous))
    }
}

/// Where a job stands, as its owner sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Stage {
    /// Jobs ahead of it, counting the one being made (0: next).
    Queued { ahead: usize },
    /// 0 to 99.
    Generating { percent: u8 },
    Done {
        recipes: Vec<RecipeContent>,
        withheld: Vec<Withheld>,
        notes: Vec<String>,
        /// Per recipe, each of the viewer's children's choking and age notes (none for a
        /// visitor): "For Leo (9 months): quarter the grapes lengthways".
        safety_notes: Vec<Vec<Text>>,
    },
    Failed {
        failure: Failure,
        withheld: Vec<Withheld>,
    },
}

impl Stage {
    pub fn is_final(&self) -> bool {
        matches!(self, Stage::Done { .. } | Stage::Failed { .. })
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct JobView {
    pub id: GenerationId,
    pub created_at: DateTime<Utc>,
    pub stage: Stage,
}

/// The stored job, with the lane's live state while it is queued or running.
fn view(job: Generation, live: Option<Live>) -> JobView {
    let stage = match (job.state, live) {
        (
            State::Done {
                recipes,
                withheld,
                notes,
            },
            _,
        ) => Stage::Done {
            recipes,
            withheld,
            notes,
            safety_notes: Vec::new(),
        },
        (State::Failed { failure, withheld }, _) => Stage::Failed { failure, withheld },
        (_, Some(Live::Generating { percent })) => Stage::Generating { percent },
        (State::Running, _) => Stage::Generating { percent: 0 },
        (_, Some(Live::Queued { ahead })) => Stage::Queued { ahead },
        (State::Queued, _) => Stage::Queued { ahead: 0 },
    };
    JobView {
        id: job.id,
        created_at: job.created_at,
        stage,
    }
}

/// A job the lane no longer follows. If its stored state is not final (the lane broke off
/// before it could store one), it is reported as failed, so nobody waits for ever.
fn final_view(mut job: Generation) -> JobView {
    if !job.state.is_finished() {
        job.state = State::failed(Failure::Broke);
    }
    view(job, None)
}

/// Whether the generator can work now; checked at most every 15 seconds.
pub async fn generator_status(app: &Services) -> Status {
    if let Some((at, status)) = app.generator_status.lock().await.as_ref()
        && at.elapsed() < STATUS_FOR
    {
        return status.clone();
    }
    let status = app.generation.generator().status().await;
    *app.generator_status.lock().await = Some((Instant::now(), status.clone()));
    status
}

/// Checks the request and queues it. Anonymous generation is limited per client address, a
/// family's per family; each owner may have three jobs waiting or running.
pub async fn generate(
    app: &Services,
    who: Requester<'_>,
    fields: GenerateFields,
) -> AppResult<GenerationId> {
    let request = GenerateRequest::new(fields)?;
    if let Status::Unavailable(e) = generator_status(app).await {
        // Either the model is missing, or the generator cannot be used at all.
        let failure = match e.failure() {
            missing @ Failure::ModelMissing { .. } => missing,
            _ => Failure::Unreachable,
        };
        return Err(DomainError::Generation(failure).into());
    }
    let (owner, family) = match &who {
        Requester::Member { user, family } => (Owner::User(*user), Some(*family)),
        Requester::Anonymous { job_cookie, .. } => (anonymous(job_cookie), None),
    };
    // A request that would find no room is refused before it costs a rate-limit token.
    if !app.generation.has_room(&owner) {
        return Err(DomainError::Generation(Failure::QueueFull).into());
    }
    let limited = match &who {
        Requester::Member { family, .. } => app.limits.recipes_family.check(&family.to_string()),
        Requester::Anonymous { client, .. } => app.limits.recipes_ip.check(client.as_str()),
    };
    if let Err(retry_after) = limited {
        return Err(DomainError::TooManyAttempts { retry_after }.into());
    }
    let job = Generation::queued(owner, family, request, crate::i18n::scope::current());
    match app.generation.submit(&job, OWNER_JOBS_MAX).await {
        Ok(()) => Ok(job.id),
        Err(SubmitError::Full) => Err(DomainError::Generation(Failure::QueueFull).into()),
        // Three of this person's requests are already waiting or being made.
        Err(SubmitError::OwnerBusy) => Err(DomainError::TooManyAttempts {
            retry_after: OWNER_BUSY_RETRY,
        }
        .into()),
        Err(SubmitError::Store(e)) => Err(e.into()),
    }
}

/// The viewer's job, if one of its owners started it and it has not expired; anything else
/// is not found.
async fn find(app: &Services, viewer: &Viewer, id: GenerationId) -> AppResult<Generation> {
    let job = app.store.generations.get(id).await?;
    let now = Utc::now();
    job.filter(|j| j.is_kept(now) && viewer.owners().any(|o| o == j.owner))
        .ok_or_else(|| DomainError::NotFound.into())
}

/// Where the viewer's job stands now.
pub async fn job(app: &Services, viewer: &Viewer, id: GenerationId) -> AppResult<JobView> {
    let job = find(app, viewer, id).await?;
    let live = app.generation.watch(job.id).map(|rx| *rx.borrow());
    let children = children_of(app, viewer).await?;
    Ok(with_safety_notes(view(job, live), &children))
}

/// The children of a signed-in viewer's family (none for a visitor).
async fn children_of(app: &Services, viewer: &Viewer) -> AppResult<Vec<Child>> {
    let Some(user) = viewer.user else {
        return Ok(Vec::new());
    };
    match app.store.users.get(user).await? {
        Some(user) => Ok(app.store.children.list(user.family_id).await?),
        None => Ok(Vec::new()),
    }
}

/// A finished job's recipes with each child's choking and age notes, at their age today.
fn with_safety_notes(mut view: JobView, children: &[Child]) -> JobView {
    if let Stage::Done {
        recipes,
        safety_notes,
        ..
    } = &mut view.stage
    {
        let today = Utc::now().date_naive();
        *safety_notes = recipes
            .iter()
            .map(|r| super::recipes::safety_notes(children, r, today))
            .collect();
    }
    view
}

/// The viewer's job as it moves: a view now and at every change, ending with the final one
/// (done or failed).
pub async fn follow(
    app: &Services,
    viewer: &Viewer,
    id: GenerationId,
) -> AppResult<BoxStream<'static, JobView>> {
    let job = find(app, viewer, id).await?;
    let store = app.store.clone();
    let children = std::sync::Arc::new(children_of(app, viewer).await?);
    let start = match app.generation.watch(job.id) {
        Some(rx) => Follow::Watching {
            store,
            job: Box::new(job),
            rx,
            first: true,
            children,
        },
        // Finished (maybe just now, after it was read above): the stored result.
        None => {
            let latest = store.generations.get(job.id).await?.unwrap_or(job);
            Follow::Final(Box::new(with_safety_notes(final_view(latest), &children)))
        }
    };
    Ok(stream::unfold(start, next).boxed())
}

/// The stream's state: the job's watch until it finishes, then one last view from the store.
enum Follow {
    Watching {
        store: std::sync::Arc<Store>,
        job: Box<Generation>,
        rx: watch::Receiver<Live>,
        first: bool,
        children: std::sync::Arc<Vec<Child>>,
    },
    Final(Box<JobView>),
    Ended,
}

async fn next(state: Follow) -> Option<(JobView, Follow)> {
    match state {
        Follow::Ended => None,
        Follow::Final(view) => Some((*view, Follow::Ended)),
        Follow::Watching {
            store,
            job,
            mut rx,
            first,
            children,
        } => {
            // The lane drops the job's channel, or says so, when it has finished.
            let ended = !first && rx.changed().await.is_err();
            let live = *rx.borrow_and_update();
            if ended || live == Live::Finished {
                let stored = store.generations.get(job.id).await.ok().flatten()?;
                let last = with_safety_notes(final_view(stored), &children);
                return Some((last, Follow::Ended));
            }
            let now = view((*job).clone(), Some(live));
            Some((
                now,
                Follow::Watching {
                    store,
                    job,
                    rx,
                    first: false,
                    children,
                },
            ))
        }
    }
}

/// The catalogue's ingredients a request with these allergies and restrictions would leave out
/// (with the allergies of a member's children), each with why in a parent's words: the
/// ingredient picker marks them before anything is asked.
pub async fn left_out_ingredients(
    app: &Services,
    family: Option<FamilyId>,
    allergies: &[String],
    restrictions: &[String],
) -> AppResult<Vec<(String, String)>> {
    let (allergies, restrictions) = request_rules(allergies, restrictions)?;
    let guard = guard_for(&app.store, family, &allergies, &restrictions).await?;
    if guard.is_empty() && guard.youngest().is_none() {
        return Ok(Vec::new());
    }
    Ok(Catalogue::get()
        .items()
        .filter_map(|i| {
            let why = guard.left_out(&i.name, &i.allergens())?;
            Some((i.name.clone(), why.here()))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::generation::tests::job;

    #[test]
    fn the_view_takes_the_stored_result_over_the_live_state() {
        let mut j = job("a");
        assert_eq!(
            view(j.clone(), Some(Live::Queued { ahead: 4 })).stage,
            Stage::Queued { ahead: 4 }
        );
        assert_eq!(
            view(j.clone(), None).stage,
            Stage::Queued { ahead: 0 },
            "a queued job the lane does not know yet is next"
        );
        j.state = State::Running;
        assert_eq!(
            view(j.clone(), Some(Live::Generating { percent: 40 })).stage,
            Stage::Generating { percent: 40 }
        );
        assert_eq!(
            view(j.clone(), None).stage,
            Stage::Generating { percent: 0 }
        );
        j.state = State::failed(Failure::Timeout { secs: 60 });
        assert_eq!(
            view(j.clone(), Some(Live::Generating { percent: 99 })).stage,
            Stage::Failed {
                failure: Failure::Timeout { secs: 60 },
                withheld: vec![]
            }
        );
    }

    #[test]
    fn a_job_left_unfinished_by_the_lane_ends_as_failed() {
        let mut j = job("a");
        j.state = State::Running;
        let v = final_view(j);
        assert!(v.stage.is_final());
        assert_eq!(
            v.stage,
            Stage::Failed {
                failure: Failure::Broke,
                withheld: vec![]
            }
        );
    }

    #[test]
    fn a_viewer_owns_its_account_s_jobs_and_its_cookie_s() {
        let user = UserId::new();
        let cookie = JobCookie::from_client("cookie");
        let owners: Vec<Owner> = Viewer {
            user: Some(user),
            job_cookie: Some(cookie.clone()),
        }
        .owners()
        .collect();
        assert_eq!(owners[0], Owner::User(user));
        assert_eq!(owners[1], anonymous(&cookie));
        assert!(
            !matches!(&owners[1], Owner::Anonymous(h) if h.contains("cookie")),
            "only the hash is kept"
        );
        assert_eq!(Viewer::default().owners().count(), 0);
    }
}
