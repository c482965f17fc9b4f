//! A recipe generation: who asked, what for, and where it stands. A job is stored when it is
//! queued, and again when it starts, finishes or fails; when it fails, the record keeps why
//! (`Failure`), never the words shown for it: those are chosen where the answer is written.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::ids::{FamilyId, GenerationId, UserId};
use super::recipe::{GenerateRequest, RecipeContent};
use super::recipe_guard::Withheld;
use crate::i18n::Lang;

/// Unfinished generation jobs one owner may have at once.
pub const OWNER_JOBS_MAX: usize = 3;
/// Most jobs waiting at once, for the whole server.
pub const QUEUE_MAX: usize = 50;
/// Of those, most from visitors who are not signed in.
pub const ANONYMOUS_MAX: usize = 20;
/// A job started this often without finishing (restarts in the middle) is failed.
pub const ATTEMPTS_MAX: u32 = 3;
/// A finished job and its result are kept this long (a waiting job does not expire).
pub const JOB_TTL: chrono::Duration = chrono::Duration::hours(1);

/// Who may see a job: the account that started it, or the browser holding the anonymous job
/// cookie (its SHA-256, never the cookie itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Owner {
    User(UserId),
    Anonymous(String),
}

impl Owner {
    pub fn is_anonymous(&self) -> bool {
        matches!(self, Owner::Anonymous(_))
    }
}

/// Why no recipes came out of a request.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    /// The configured model is not installed on the Ollama server.
    ModelMissing { model: String },
    /// Nothing answers at the model's address.
    Unreachable,
    /// The model did not finish in time.
    Timeout { secs: u64 },
    /// The model answered, but not with recipes that can be used.
    Unusable,
    /// Every suggestion contained an allergen or broke a restriction (the job's `withheld`
    /// says which and why).
    AllWithheld,
    /// The ingredients make no dish: only seasonings, or every one was left out.
    NothingToMake {
        notes: Vec<String>,
        all_left_out: bool,
    },
    /// The server restarted during the job too often.
    Interrupted,
    /// Too many jobs are waiting: nothing was queued.
    QueueFull,
    /// Anything else (a generator that broke off; a record stored by an older release).
    #[default]
    #[serde(other)]
    Broke,
}

impl Failure {
    /// The generator cannot work at all right now, rather than this one request failing.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            Failure::ModelMissing { .. } | Failure::Unreachable | Failure::QueueFull
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum State {
    Queued,
    Running,
    Done {
        recipes: Vec<RecipeContent>,
        withheld: Vec<Withheld>,
        notes: Vec<String>,
    },
    Failed {
        /// Absent in jobs stored before it was kept: they read as `Broke`.
        #[serde(default)]
        failure: Failure,
        withheld: Vec<Withheld>,
    },
}

impl State {
    pub fn is_finished(&self) -> bool {
        matches!(self, State::Done { .. } | State::Failed { .. })
    }

    pub fn failed(failure: Failure) -> State {
        State::Failed {
            failure,
            withheld: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    pub id: GenerationId,
    pub owner: Owner,
    /// The signed-in parent's family: its children's allergies join the guard.
    pub family: Option<FamilyId>,
    pub request: GenerateRequest,
    /// The language of the request that queued it: the job reads foods and words its
    /// recipes and reasons in it, as the request would have (a false friend like "pan" is
    /// bread to a Spanish parent).
    #[serde(default)]
    pub language: Lang,
    pub state: State,
    /// Starts so far (a restart during a run queues the job again, a few times at most).
    pub attempts: u32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Generation {
    /// A job queued now.
    pub fn queued(
        owner: Owner,
        family: Option<FamilyId>,
        request: GenerateRequest,
        language: Lang,
    ) -> Self {
        let now = Utc::now();
        Generation {
            id: GenerationId::new(),
            owner,
            family,
            request,
            language,
            state: State::Queued,
            attempts: 0,
            created_at: now,
            updated_at: now,
        }
    }

    /// Moves to `state`, stamped now.
    pub fn set_state(&mut self, state: State) {
        self.state = state;
        self.updated_at = Utc::now();
    }

    /// Whether it is still there for its owner: unfinished, or finished less than `JOB_TTL`
    /// ago.
    pub fn is_kept(&self, now: DateTime<Utc>) -> bool {
        !(self.state.is_finished() && self.updated_at < now - JOB_TTL)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::recipe::tests::fields;

    pub(crate) fn job(owner: &str) -> Generation {
        Generation::queued(
            Owner::Anonymous(owner.into()),
            None,
            GenerateRequest::new(fields(&["Rice"])).unwrap(),
            Lang::En,
        )
    }

    #[test]
    fn a_failure_is_stored_as_what_happened_and_read_back() {
        for failure in [
            Failure::ModelMissing {
                model: "llama3".into(),
            },
            Failure::Timeout { secs: 120 },
            Failure::NothingToMake {
                notes: vec!["Salt was left out.".into()],
                all_left_out: true,
            },
            Failure::Interrupted,
            Failure::Broke,
        ] {
            let state = State::failed(failure);
            let text = serde_json::to_string(&state).unwrap();
            assert!(!text.contains("Please"), "no words are stored: {text}");
            assert_eq!(serde_json::from_str::<State>(&text).unwrap(), state);
        }
    }

    #[test]
    fn a_failure_stored_by_an_older_release_reads_as_broke_off() {
        // Before the reason was kept, the record held the words shown for it.
        let old = r#"{"state":"failed","title":"Error generating recipes",
            "message":"The recipe model cannot be reached right now.","unavailable":true,
            "withheld":[]}"#;
        assert_eq!(
            serde_json::from_str::<State>(old).unwrap(),
            State::failed(Failure::Broke)
        );
        let unknown = r#"{"state":"failed","failure":{"kind":"from_the_future"},"withheld":[]}"#;
        assert_eq!(
            serde_json::from_str::<State>(unknown).unwrap(),
            State::failed(Failure::Broke)
        );
    }

    #[test]
    fn only_a_generator_that_cannot_work_is_unavailable() {
        assert!(Failure::Unreachable.is_unavailable());
        assert!(Failure::QueueFull.is_unavailable());
        assert!(!Failure::Timeout { secs: 1 }.is_unavailable());
        assert!(!Failure::AllWithheld.is_unavailable());
    }

    #[test]
    fn a_finished_job_is_kept_for_its_time_and_an_unfinished_one_always() {
        let now = Utc::now();
        let mut j = job("a");
        j.updated_at = now - chrono::Duration::hours(2);
        assert!(j.is_kept(now), "a waiting job does not expire");
        j.state = State::failed(Failure::Broke);
        assert!(!j.is_kept(now));
        j.updated_at = now - chrono::Duration::minutes(59);
        assert!(j.is_kept(now));
    }
}
