//! Meal plans: one row per family and ISO week ("2026-W48": the week's text sorts like the
//! weeks), its entries as one JSON document. A save replaces the week's entries only when it
//! was made from the current version (0: the week was never saved).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use rusqlite::types::Value;

use super::core::{Row, Shared};
use super::values::{get_json, get_name, get_time, get_u64, int, json, text, time};
use crate::domain::change::{ChangeId, Kind};
use crate::domain::ids::{FamilyId, RecipeId};
use crate::domain::meal_plan::{EntryFields, MealPlan, RecipeSummary, Week};
use crate::store::{StoreError, WriteError};

impl Row for MealPlan {
    const TABLE: &'static str = "meal_plans";
    const KIND: Kind = Kind::MealPlan;
    const KEY: &'static str = "week";
    const COLUMNS: &'static [&'static str] = &[
        "family_id",
        "week",
        "version",
        "entries",
        "created_at",
        "updated_at",
    ];
    const SELECT: &'static str =
        "t.family_id, t.week, t.version, t.entries, t.created_at, t.updated_at";

    fn key(&self) -> Value {
        week_key(self.week)
    }
    fn family(&self) -> FamilyId {
        self.family
    }
    fn change_id(&self) -> ChangeId {
        self.week.into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
    fn values(&self) -> Vec<Value> {
        vec![
            self.family.into(),
            week_key(self.week),
            int(self.version),
            json(&self.entries),
            time(self.created_at),
            time(self.updated_at),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(MealPlan {
            family: r.get(0)?,
            week: get_name(r, 1)?,
            version: get_u64(r, 2)?,
            entries: get_json(r, 3)?,
            created_at: get_time(r, 4)?,
            updated_at: get_time(r, 5)?,
        })
    }
}

/// The week column: "2026-W48".
fn week_key(week: Week) -> Value {
    text(&week.to_string())
}

pub struct MealPlans {
    core: Shared,
}

impl MealPlans {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// The family's plan of a week; `None` before its first save (and for another family).
    pub async fn get(&self, family: FamilyId, week: Week) -> Result<Option<MealPlan>, StoreError> {
        self.core.get(family, week_key(week)).await
    }

    /// Replaces the week's entries if `expected` is the current version (0 for a week never
    /// saved); otherwise nothing changes and the answer is the plan as it is (stale). The
    /// first save creates the record at version 1. A recipe an entry names that is not in
    /// `recipes` refuses the save (`MealPlan::apply`'s rule).
    pub async fn save(
        &self,
        family: FamilyId,
        week: Week,
        expected: u64,
        entries: Vec<EntryFields>,
        recipes: &HashMap<RecipeId, RecipeSummary>,
        now: DateTime<Utc>,
    ) -> Result<MealPlan, WriteError<MealPlan>> {
        let base = self
            .get(family, week)
            .await?
            .unwrap_or_else(|| MealPlan::empty(family, week, now));
        if base.version != expected {
            return Err(WriteError::Stale(Box::new(base)));
        }
        // The change is made here, off the writer thread; the write checks that the week is
        // still at the version it was made from.
        let mut new = base.clone();
        new.apply(entries, recipes, now)?;
        Ok(self
            .core
            .commit(move |tx| {
                tx.save_at(&week_key(week), expected, new, || {
                    MealPlan::empty(family, week, now)
                })
            })
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;
    use crate::domain::ids::{ChildId, MealPlanEntryId};
    use crate::domain::meal::MealType;
    use crate::domain::meal_plan::{PlanEntry, Planned};
    use crate::store::sqlite::tests::temp_core;

    fn leftovers(day: &str) -> EntryFields {
        EntryFields {
            id: None,
            date: day.parse().unwrap(),
            meal_type: MealType::Dinner,
            planned: Planned::Text("Leftovers".into()),
            servings: None,
            children: vec![],
        }
    }

    #[tokio::test]
    async fn a_week_is_saved_from_its_version_and_only_the_familys() {
        let (_dir, core) = temp_core();
        let plans = MealPlans::new(core.clone());
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let week = Week::parse("2026-W48").unwrap();
        let none = HashMap::new();
        assert!(plans.get(family, week).await.unwrap().is_none());
        // A week never saved is version 0: any other version is stale, and nothing is written.
        let stale = plans
            .save(
                family,
                week,
                3,
                vec![leftovers("2026-11-23")],
                &none,
                Utc::now(),
            )
            .await;
        match stale {
            Err(WriteError::Stale(current)) => {
                assert_eq!((current.version, current.entries.len()), (0, 0))
            }
            other => panic!("{other:?}"),
        }
        assert!(plans.get(family, week).await.unwrap().is_none());
        assert_eq!(core.revision(family), 0);
        let first = plans
            .save(
                family,
                week,
                0,
                vec![leftovers("2026-11-23")],
                &none,
                Utc::now(),
            )
            .await
            .unwrap();
        assert_eq!(first.version, 1);
        assert_eq!(core.revision(family), 1);
        let second = plans
            .save(family, week, 1, vec![], &none, Utc::now())
            .await
            .unwrap();
        assert_eq!((second.version, second.entries.len()), (2, 0));
        // Saved from version 1 again: refused with the plan as it is now.
        let stale = plans
            .save(
                family,
                week,
                1,
                vec![leftovers("2026-11-24")],
                &none,
                Utc::now(),
            )
            .await;
        assert!(matches!(stale, Err(WriteError::Stale(p)) if p.version == 2));
        // A rule broken in the change (a recipe that is not there) writes nothing.
        let mut missing = leftovers("2026-11-24");
        missing.planned = Planned::Recipe(RecipeId::new());
        let refused = plans
            .save(family, week, 2, vec![missing], &none, Utc::now())
            .await;
        assert!(matches!(refused, Err(WriteError::Rule(_))));
        assert_eq!(plans.get(family, week).await.unwrap().unwrap().version, 2);
        assert!(plans.get(other, week).await.unwrap().is_none());
        let next = Week::parse("2026-W49").unwrap();
        assert!(plans.get(family, next).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn a_deleted_familys_plans_go_with_it() {
        let (_dir, core) = temp_core();
        let plans = MealPlans::new(core.clone());
        let family = FamilyId::new();
        let week = Week::parse("2026-W48").unwrap();
        plans
            .save(
                family,
                week,
                0,
                vec![leftovers("2026-11-23")],
                &HashMap::new(),
                Utc::now(),
            )
            .await
            .unwrap();
        core.commit(move |tx| tx.mark_family_deleted(family))
            .await
            .unwrap();
        // Nothing of a deleted family is written again.
        for (w, expected) in [(week, 1), (Week::parse("2026-W49").unwrap(), 0)] {
            assert!(matches!(
                plans
                    .save(family, w, expected, vec![], &HashMap::new(), Utc::now())
                    .await,
                Err(WriteError::NotFound)
            ));
        }
        // The family's removal (a job, not yet on SQLite) removes its rows by family.
        core.db
            .write(move |conn| {
                conn.execute("DELETE FROM meal_plans WHERE family_id = ?1", [family])?;
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
        assert!(plans.get(family, week).await.unwrap().is_none());
    }

    #[tokio::test]
    async fn every_field_comes_back_and_entries_keep_their_ids() {
        let (_dir, core) = temp_core();
        let plans = MealPlans::new(core.clone());
        let family = FamilyId::new();
        let week = Week::parse("2026-W53").unwrap();
        let recipe = RecipeId::new();
        let recipes = HashMap::from([(
            recipe,
            RecipeSummary {
                title: "Fish pie".into(),
                servings: Some(4),
            },
        )]);
        let child = ChildId::new();
        let entries = vec![
            EntryFields {
                id: None,
                date: "2026-12-28".parse().unwrap(),
                meal_type: MealType::Lunch,
                planned: Planned::Recipe(recipe),
                servings: Some(3),
                children: vec![child],
            },
            leftovers("2027-01-03"),
        ];
        let now = Utc::now();
        let stored = plans
            .save(family, week, 0, entries, &recipes, now)
            .await
            .unwrap();
        let read = plans.get(family, week).await.unwrap().unwrap();
        assert_eq!(stored, read);
        assert_eq!(read.created_at, now);
        assert_eq!(
            read.entries[0],
            PlanEntry {
                id: read.entries[0].id,
                date: NaiveDate::from_ymd_opt(2026, 12, 28).unwrap(),
                meal_type: MealType::Lunch,
                recipe: Some(recipe),
                title: "Fish pie".into(),
                servings: 3,
                children: vec![child],
            }
        );
        assert!(plans.get(FamilyId::new(), week).await.unwrap().is_none());

        // A save keeps an entry's id; the new version replaces the row.
        let kept: MealPlanEntryId = read.entries[0].id;
        let mut again = leftovers("2026-12-29");
        again.id = Some(kept);
        let saved = plans
            .save(family, week, 1, vec![again], &recipes, Utc::now())
            .await
            .unwrap();
        assert_eq!(saved.version, 2);
        assert_eq!(saved.created_at, now, "created once");
        assert_eq!(plans.get(family, week).await.unwrap().unwrap(), saved);
        assert_eq!(saved.entries[0].id, kept);
        let rows: i64 = core
            .read(|conn| conn.query_row("SELECT count(*) FROM meal_plans", [], |r| r.get(0)))
            .await
            .unwrap();
        assert_eq!(rows, 1);
    }

    /// Two first saves of one week at once: one creates it, the other is stale.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_first_saves_of_a_week_create_it_once() {
        let (_dir, core) = temp_core();
        let plans = std::sync::Arc::new(MealPlans::new(core.clone()));
        let family = FamilyId::new();
        let week = Week::parse("2026-W48").unwrap();
        let tasks: Vec<_> = ["2026-11-23", "2026-11-24"]
            .into_iter()
            .map(|day| {
                let plans = plans.clone();
                tokio::spawn(async move {
                    plans
                        .save(
                            family,
                            week,
                            0,
                            vec![leftovers(day)],
                            &HashMap::new(),
                            Utc::now(),
                        )
                        .await
                })
            })
            .collect();
        let mut created = 0;
        for t in tasks {
            match t.await.unwrap() {
                Ok(plan) => {
                    assert_eq!(plan.version, 1);
                    created += 1;
                }
                Err(WriteError::Stale(current)) => assert_eq!(current.version, 1),
                Err(other) => panic!("{other:?}"),
            }
        }
        assert_eq!(created, 1);
        assert_eq!(core.revision(family), 1);
    }
}
