//! Recipe generation jobs, keyed by their (time-ordered) id. A job is stored when it is
//! queued, and again when it starts, finishes or fails; progress in between lives in memory
//! only. A job that was running when the server stopped is found here at start and queued again.
//! Jobs are kept for an hour, then purged.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::write::{Shared, TreeId};
use super::{Record, StoreError};
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

pub struct Generations {
    core: Shared,
}

impl Generations {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a job (new, or in a new state), on disk when it returns.
    pub async fn put(&self, job: &Generation) -> Result<(), StoreError> {
        let value = job.encode()?;
        self.core
            .commit(|tx| tx.insert_raw(TreeId::Generations, job.id.as_bytes(), &value))
            .await?;
        Ok(())
    }

    pub fn get(&self, id: GenerationId) -> Result<Option<Generation>, StoreError> {
        self.core
            .tree(TreeId::Generations)
            .get(id.as_bytes())?
            .map(|v| Generation::decode(&v))
            .transpose()
    }

    /// Queued and running jobs, oldest first.
    pub fn unfinished(&self) -> Result<Vec<Generation>, StoreError> {
        let mut out = Vec::new();
        for value in self.core.tree(TreeId::Generations).iter().values() {
            match Generation::decode(&value?) {
                Ok(job) if !job.state.is_finished() => out.push(job),
                Ok(_) => {}
                Err(e) => tracing::error!(error = %e, "an unreadable generation job is skipped"),
            }
        }
        Ok(out)
    }

    /// Removes jobs that finished before `cutoff` (and unreadable ones). Returns how many.
    pub fn purge_before(&self, cutoff: DateTime<Utc>) -> Result<usize, StoreError> {
        let tree = self.core.tree(TreeId::Generations);
        let mut removed = 0;
        for entry in tree.iter() {
            let (key, value) = entry?;
            let old = match Generation::decode(&value) {
                Ok(job) => job.state.is_finished() && job.updated_at < cutoff,
                Err(_) => true,
            };
            if old {
                self.core
                    .transact(|tx| tx.remove_raw(TreeId::Generations, &key).map(|_| ()))
                    .map_err(|e| StoreError::Corrupt(format!("{e:?}")))?;
                removed += 1;
            }
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::recipe::tests::fields;
    use crate::store::tests::temp_store;

    fn job(state: State, created_at: DateTime<Utc>) -> Generation {
        Generation {
            id: GenerationId::new(),
            owner: Owner::Anonymous("ab".into()),
            family: None,
            request: GenerateRequest::new(fields(&["Rice"])).unwrap(),
            state,
            attempts: 0,
            created_at,
            updated_at: created_at,
        }
    }

    #[tokio::test]
    async fn jobs_round_trip_and_old_finished_ones_are_purged() {
        let (_dir, store) = temp_store();
        let now = Utc::now();
        let old = now - chrono::Duration::hours(2);
        let queued = job(State::Queued, now);
        let running_old = job(State::Running, old);
        let failed_old = job(
            State::Failed {
                title: "t".into(),
                message: "m".into(),
                unavailable: false,
                withheld: vec![],
            },
            old,
        );
        for j in [&queued, &running_old, &failed_old] {
            store.generations.put(j).await.unwrap();
        }
        assert_eq!(store.generations.get(queued.id).unwrap().unwrap(), queued);
        let unfinished: Vec<_> = store
            .generations
            .unfinished()
            .unwrap()
            .into_iter()
            .map(|j| j.id)
            .collect();
        assert_eq!(unfinished.len(), 2);
        assert_eq!(
            store
                .generations
                .purge_before(now - chrono::Duration::hours(1))
                .unwrap(),
            1
        );
        assert!(store.generations.get(failed_old.id).unwrap().is_none());
        assert!(store.generations.get(running_old.id).unwrap().is_some());
        assert!(store.generations.get(queued.id).unwrap().is_some());
    }
}
