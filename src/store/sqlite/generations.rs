//! Recipe generation jobs (not a family's record: no version, no revision, no change feed).
//! A job is stored when it is queued, and again when it starts, finishes or fails; `finished`
//! says whether its state is a final one, so the jobs to resume at start are one index range.
//! Jobs are kept for an hour, then purged.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::core::Shared;
use super::values::{flag, get_json, get_time, get_u32, json, nanos, time};
use crate::domain::generation::Generation;
use crate::domain::ids::GenerationId;
use crate::store::StoreError;

/// What `from_row` reads, in order.
const SELECT: &str =
    "id, owner, family_id, request, state, attempts, created_at, updated_at, language";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Generation> {
    Ok(Generation {
        id: r.get(0)?,
        owner: get_json(r, 1)?,
        family: r.get(2)?,
        request: get_json(r, 3)?,
        state: get_json(r, 4)?,
        attempts: get_u32(r, 5)?,
        created_at: get_time(r, 6)?,
        updated_at: get_time(r, 7)?,
        // A code this build does not know (written by a newer one) reads as English.
        language: r.get::<_, String>(8)?.parse().unwrap_or_default(),
    })
}

pub struct Generations {
    core: Shared,
}

impl Generations {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a job (new, or in a new state), on disk when it returns.
    pub async fn put(&self, job: &Generation) -> Result<(), StoreError> {
        let (id, family, attempts) = (job.id, job.family, i64::from(job.attempts));
        let (owner, request, state, finished) = (
            json(&job.owner),
            json(&job.request),
            json(&job.state),
            flag(job.state.is_finished()),
        );
        let (created_at, updated_at) = (time(job.created_at), time(job.updated_at));
        let language = job.language.code();
        self.core
            .db
            .write(move |conn| {
                conn.prepare_cached(
                    "INSERT INTO generations (id, owner, family_id, request, state, finished,
                         attempts, created_at, updated_at, language)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                     ON CONFLICT (id) DO UPDATE SET owner = ?2, family_id = ?3, request = ?4,
                         state = ?5, finished = ?6, attempts = ?7, created_at = ?8,
                         updated_at = ?9, language = ?10",
                )?
                .execute(params![
                    id, owner, family, request, state, finished, attempts, created_at, updated_at,
                    language
                ])?;
                Ok::<_, StoreError>(())
            })
            .await
    }

    pub async fn get(&self, id: GenerationId) -> Result<Option<Generation>, StoreError> {
        self.core
            .read(move |conn| {
                conn.prepare_cached(&format!("SELECT {SELECT} FROM generations WHERE id = ?1"))?
                    .query_row([id], from_row)
                    .optional()
            })
            .await
    }

    /// Queued and running jobs, oldest first. A job that cannot be read is reported and
    /// skipped (the next purge removes it).
    pub async fn unfinished(&self) -> Result<Vec<Generation>, StoreError> {
        self.core
            .read(|conn| {
                let mut stmt = conn.prepare_cached(&format!(
                    "SELECT {SELECT} FROM generations WHERE finished = 0 ORDER BY id"
                ))?;
                let rows = stmt.query_map([], |r| Ok(from_row(r)))?;
                let mut jobs = Vec::new();
                for row in rows {
                    match row? {
                        Ok(job) => jobs.push(job),
                        Err(e) => {
                            tracing::error!(error = %e, "an unreadable generation job is skipped")
                        }
                    }
                }
                Ok(jobs)
            })
            .await
    }

    /// Removes jobs that finished before `cutoff` (and unreadable ones). Returns how many.
    pub async fn purge_before(&self, cutoff: DateTime<Utc>) -> Result<usize, StoreError> {
        let cutoff = nanos(cutoff);
        // The other jobs that cannot be read: found on a reader (a row never becomes
        // readable later, so they are still unreadable when the write removes them).
        let unreadable: Vec<GenerationId> = self
            .core
            .read(move |conn| {
                let mut stmt = conn.prepare_cached(&format!(
                    "SELECT {SELECT} FROM generations
                     WHERE NOT (finished = 1 AND updated_at < ?1)"
                ))?;
                let rows = stmt.query_map([cutoff], |r| {
                    Ok(match from_row(r) {
                        Ok(_) => None,
                        Err(_) => r.get::<_, GenerationId>(0).ok(),
                    })
                })?;
                rows.filter_map(Result::transpose).collect()
            })
            .await?;
        self.core
            .db
            .write(move |conn| {
                let mut removed = conn
                    .prepare_cached(
                        "DELETE FROM generations WHERE finished = 1 AND updated_at < ?1",
                    )?
                    .execute([cutoff])?;
                let mut delete = conn.prepare_cached("DELETE FROM generations WHERE id = ?1")?;
                for id in &unreadable {
                    removed += delete.execute([id])?;
                }
                Ok::<_, StoreError>(removed)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::generation::{Failure, Owner, State};
    use crate::domain::ids::{FamilyId, UserId};
    use crate::domain::recipe::GenerateRequest;
    use crate::domain::recipe::tests::{content, fields};
    use crate::domain::recipe_guard::Withheld;
    use crate::store::sqlite::tests::temp_core;

    fn job(state: State, created_at: DateTime<Utc>) -> Generation {
        Generation {
            id: GenerationId::new(),
            owner: Owner::Anonymous("ab".into()),
            family: None,
            request: GenerateRequest::new(fields(&["Rice"])).unwrap(),
            language: crate::i18n::Lang::De,
            state,
            attempts: 0,
            created_at,
            updated_at: created_at,
        }
    }

    #[tokio::test]
    async fn jobs_round_trip_and_old_finished_ones_are_purged() {
        let (_dir, core) = temp_core();
        let generations = Generations::new(core);
        let now = Utc::now();
        let old = now - chrono::Duration::hours(2);
        let queued = job(State::Queued, now);
        let running_old = job(State::Running, old);
        let failed_old = job(State::failed(Failure::Unusable), old);
        for j in [&queued, &running_old, &failed_old] {
            generations.put(j).await.unwrap();
        }
        assert_eq!(generations.get(queued.id).await.unwrap().unwrap(), queued);
        let unfinished: Vec<_> = generations
            .unfinished()
            .await
            .unwrap()
            .into_iter()
            .map(|j| j.id)
            .collect();
        assert_eq!(unfinished.len(), 2);
        assert_eq!(
            generations
                .purge_before(now - chrono::Duration::hours(1))
                .await
                .unwrap(),
            1
        );
        assert!(generations.get(failed_old.id).await.unwrap().is_none());
        assert!(generations.get(running_old.id).await.unwrap().is_some());
        assert!(generations.get(queued.id).await.unwrap().is_some());
    }

    #[tokio::test]
    async fn every_field_comes_back_and_a_new_state_replaces_the_old() {
        let (_dir, core) = temp_core();
        let generations = Generations::new(core);
        let created = Utc::now() - chrono::Duration::minutes(5);
        let mut stored = job(State::Running, created);
        stored.owner = Owner::User(UserId::new());
        stored.family = Some(FamilyId::new());
        stored.attempts = 2;
        generations.put(&stored).await.unwrap();
        assert_eq!(generations.get(stored.id).await.unwrap().unwrap(), stored);

        stored.state = State::Done {
            recipes: vec![content("Rice pudding", &["Rice", "Milk"])],
            withheld: vec![Withheld {
                title: "Satay".into(),
                reasons: vec!["contains peanuts".into()],
            }],
            notes: vec!["a note".into()],
        };
        stored.updated_at = Utc::now();
        generations.put(&stored).await.unwrap();
        let read = generations.get(stored.id).await.unwrap().unwrap();
        assert_eq!(stored, read);
        assert!(generations.unfinished().await.unwrap().is_empty());
        assert!(
            generations
                .get(GenerationId::new())
                .await
                .unwrap()
                .is_none()
        );
    }

    #[tokio::test]
    async fn an_unreadable_job_is_skipped_and_purged() {
        let (_dir, core) = temp_core();
        let generations = Generations::new(core.clone());
        let fine = job(State::Queued, Utc::now());
        generations.put(&fine).await.unwrap();
        let broken = job(State::Queued, Utc::now());
        generations.put(&broken).await.unwrap();
        core.db
            .write(move |conn| {
                conn.execute(
                    "UPDATE generations SET state = '{\"state\":\"lost\"}' WHERE id = ?1",
                    [broken.id],
                )?;
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
        let unfinished = generations.unfinished().await.unwrap();
        assert_eq!(unfinished.len(), 1);
        assert_eq!(unfinished[0], fine);
        assert_eq!(generations.purge_before(Utc::now()).await.unwrap(), 1);
        assert!(generations.get(fine.id).await.unwrap().is_some());
        let left: i64 = core
            .read(|conn| conn.query_row("SELECT count(*) FROM generations", [], |r| r.get(0)))
            .await
            .unwrap();
        assert_eq!(left, 1);
    }
}
