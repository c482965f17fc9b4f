//! Meal plans: one record per family and ISO week, keyed `family ++ "2026-W48"` (the week's
//! text sorts like the weeks). A save replaces the week's entries through the write primitive,
//! only when it was made from the current version (0: the week was never saved).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

use super::write::{
    Abort, Entity, Shared, TreeId, WriteError, abort, broken, corrupt, write_error,
};
use super::{Record, StoreError, keys};
use crate::domain::change::{ChangeId, Kind};
use crate::domain::ids::{FamilyId, RecipeId};
use crate::domain::meal_plan::{EntryFields, MealPlan, RecipeSummary, Week};

impl Record for MealPlan {
    const VERSION: u8 = 1;
}

fn plan_key(family: FamilyId, week: Week) -> Vec<u8> {
    keys::join(&[family.as_bytes(), week.to_string().as_bytes()])
}

impl Entity for MealPlan {
    const TREE: TreeId = TreeId::MealPlans;
    const KIND: Kind = Kind::MealPlan;

    fn key(&self) -> Vec<u8> {
        plan_key(self.family, self.week)
    }
    fn family(&self) -> FamilyId {
        self.family
    }
    fn id(&self) -> ChangeId {
        self.week.into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
}

pub struct MealPlans {
    core: Shared,
}

impl MealPlans {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// The family's plan of a week; `None` before its first save.
    pub fn get(&self, family: FamilyId, week: Week) -> Result<Option<MealPlan>, StoreError> {
        self.core.read(&plan_key(family, week))
    }

    /// Replaces the week's entries if `expected` is the current version (0 for a week never
    /// saved); otherwise nothing changes and the answer is the plan as it is (stale). The
    /// first save creates the record at version 1.
    pub async fn save(
        &self,
        family: FamilyId,
        week: Week,
        expected: u64,
        entries: Vec<EntryFields>,
        recipes: &HashMap<RecipeId, RecipeSummary>,
        now: DateTime<Utc>,
    ) -> Result<MealPlan, WriteError<MealPlan>> {
        let key = plan_key(family, week);
        let change = |plan: &mut MealPlan| plan.apply(entries.clone(), recipes, now);
        self.core
            .commit(|tx| {
                if tx.get::<MealPlan>(&key)?.is_some() {
                    return tx.update(&key, Some(expected), &change);
                }
                let mut plan = MealPlan::empty(family, week, now);
                if expected != 0 {
                    let empty = plan.encode().map_err(corrupt)?;
                    return abort(Abort::Stale(empty.into()));
                }
                change(&mut plan).map_err(broken)?;
                tx.insert(&plan)
            })
            .await
            .map_err(write_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::meal::MealType;
    use crate::domain::meal_plan::Planned;
    use crate::store::tests::temp_store;

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
        let (_dir, store) = temp_store();
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let week = Week::parse("2026-W48").unwrap();
        let none = HashMap::new();
        assert!(store.meal_plans.get(family, week).unwrap().is_none());
        // A week never saved is version 0: any other version is stale, and nothing is written.
        let stale = store
            .meal_plans
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
        assert!(store.meal_plans.get(family, week).unwrap().is_none());
        assert_eq!(store.revision(family).unwrap(), 0);
        let first = store
            .meal_plans
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
        assert_eq!(store.revision(family).unwrap(), 1);
        let second = store
            .meal_plans
            .save(family, week, 1, vec![], &none, Utc::now())
            .await
            .unwrap();
        assert_eq!((second.version, second.entries.len()), (2, 0));
        // Saved from version 1 again: refused with the plan as it is now.
        let stale = store
            .meal_plans
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
        let refused = store
            .meal_plans
            .save(family, week, 2, vec![missing], &none, Utc::now())
            .await;
        assert!(matches!(refused, Err(WriteError::Rule(_))));
        assert_eq!(
            store.meal_plans.get(family, week).unwrap().unwrap().version,
            2
        );
        assert!(store.meal_plans.get(other, week).unwrap().is_none());
        let next = Week::parse("2026-W49").unwrap();
        assert!(store.meal_plans.get(family, next).unwrap().is_none());
    }

    #[tokio::test]
    async fn a_deleted_familys_plans_go_with_it() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let week = Week::parse("2026-W48").unwrap();
        store
            .meal_plans
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
        while store.jobs.purge_family(family).unwrap() > 0 {}
        assert!(store.meal_plans.get(family, week).unwrap().is_none());
    }
}
