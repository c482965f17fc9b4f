//! Recipe generation jobs, keyed by their (time-ordered) id. A job is stored when it is
//! queued, and again when it starts, finishes or fails; progress in between lives in memory
//! only. A job that was running when the server stopped is found here at start and queued again.
//! Jobs are kept for an hour, then purged.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Record;
use crate::domain::ids::{FamilyId, GenerationId, UserId};
use crate::domain::recipe::{GenerateRequest, RecipeContent};
use crate::domain::recipe_guard::Withheld;

/// Who may see a job: the account that started it, or the browser holding the anonymous job
/// cookie (its SHA-256, never the cookie itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Owner {
    User(UserId),
    Anonymous(String),
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
        title: String,
        message: String,
        /// The generator could not work at all (503), rather than this request failing.
        unavailable: bool,
        withheld: Vec<Withheld>,
    },
}

impl State {
    pub fn is_finished(&self) -> bool {
        matches!(self, State::Done { .. } | State::Failed { .. })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    pub id: GenerationId,
    pub owner: Owner,
    /// The signed-in parent's family: its children's allergies join the guard.
    pub family: Option<FamilyId>,
    pub request: GenerateRequest,
    pub state: State,
    /// Starts so far (a restart during a run queues the job again, a few times at most).
    pub attempts: u32,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Record for Generation {
    const VERSION: u8 = 1;
}

pub use super::sqlite::generations::Generations;
