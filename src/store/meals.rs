//! The meal log. Records are keyed `family ++ meal`; two indexes give newest-first pages:
//! `family ++ time ++ meal` for the whole family and `family ++ child ++ time ++ meal` per
//! child. Both indexes and the photo move with the meal in its write transaction, and a meal is
//! only stored while its child exists.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::write::{Entity, Shared, TreeId, WriteError};
use super::{Record, StoreError, keys};
use crate::domain::DomainError;
use crate::domain::change::{ChangeId, Kind};
use crate::domain::ids::{ChildId, FamilyId, MealId, MediaId};
use crate::domain::meal::Meal;

impl Record for Meal {
    const VERSION: u8 = 1;
}

/// Where the next page starts: the time and id of the last meal of this page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    time: [u8; 8],
    id: [u8; 16],
}

impl Cursor {
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode([self.time.as_slice(), self.id.as_slice()].concat())
    }

    pub fn decode(text: &str) -> Option<Cursor> {
        let bytes = URL_SAFE_NO_PAD.decode(text.trim()).ok()?;
        if bytes.len() != 24 {
            return None;
        }
        Some(Cursor {
            time: bytes[..8].try_into().ok()?,
            id: bytes[8..].try_into().ok()?,
        })
    }
}

pub(crate) fn meal_key(family: FamilyId, id: MealId) -> [u8; 32] {
    keys::owned(family.as_bytes(), id.as_bytes())
}

impl Entity for Meal {
    const TREE: TreeId = TreeId::Meals;
    const KIND: Kind = Kind::Meal;

    fn key(&self) -> Vec<u8> {
        meal_key(self.family, self.id).to_vec()
    }
    fn family(&self) -> FamilyId {
        self.family
    }
    fn id(&self) -> ChangeId {
        self.id.as_uuid().into()
    }
    fn version(&self) -> u64 {
        self.version
    }
    fn set_version(&mut self, version: u64) {
        self.version = version;
    }
    fn index(&self) -> Vec<(TreeId, Vec<u8>, Vec<u8>)> {
        let time = keys::time(self.meal_date);
        vec![
            (
                TreeId::MealsByTime,
                keys::join(&[self.family.as_bytes(), &time, self.id.as_bytes()]),
                Vec::new(),
            ),
            (
                TreeId::MealsByChild,
                keys::join(&[
                    self.family.as_bytes(),
                    self.child_id.as_bytes(),
                    &time,
                    self.id.as_bytes(),
                ]),
                Vec::new(),
            ),
        ]
    }
    fn photos(&self) -> Vec<MediaId> {
        self.photo.into_iter().collect()
    }
    fn requires(&self) -> Vec<(TreeId, Vec<u8>)> {
        vec![(
            TreeId::Children,
            super::children::child_key(self.family, self.child_id).to_vec(),
        )]
    }
}

pub struct Meals {
    core: Shared,
}

impl Meals {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new meal; its child must exist and its photo must be an unused upload.
    pub async fn insert(&self, meal: &Meal) -> Result<Meal, WriteError<Meal>> {
        self.core.insert(meal).await
    }

    /// Changes a meal in one transaction (indexes and photo follow).
    pub async fn update(
        &self,
        family: FamilyId,
        id: MealId,
        expected: Option<u64>,
        change: impl Fn(&mut Meal) -> Result<(), DomainError> + Sync,
    ) -> Result<Meal, WriteError<Meal>> {
        let key = meal_key(family, id);
        self.core.update(&key, expected, &change).await
    }

    /// Removes the meal and its photo. `false` when there was no such (visible) meal.
    pub async fn delete(&self, family: FamilyId, id: MealId) -> Result<bool, StoreError> {
        let key = meal_key(family, id);
        let deleted = self
            .core
            .commit(|tx| {
                match tx.get::<Meal>(&key)? {
                    // A meal of a child being deleted already counts as gone.
                    Some(meal) if tx.check_requirements(&meal)? => {
                        Ok(tx.delete::<Meal>(&key, true)?.is_some())
                    }
                    _ => Ok(false),
                }
            })
            .await?;
        Ok(deleted)
    }

    /// The family's meal; another family's id, or a meal of a deleted child, is not found.
    pub fn get(&self, family: FamilyId, id: MealId) -> Result<Option<Meal>, StoreError> {
        let Some(meal) = self.core.read::<Meal>(&meal_key(family, id))? else {
            return Ok(None);
        };
        let child = super::children::child_key(family, meal.child_id);
        if !self.core.tree(TreeId::Children).contains_key(child)? {
            return Ok(None);
        }
        Ok(Some(meal))
    }

    /// Newest first, `limit` meals after `after`, optionally of one child. Returns the page and,
    /// when more exist, the cursor of the next page. `live` lists the family's children: meals
    /// of any other child (one being deleted) are left out.
    pub fn page(
        &self,
        family: FamilyId,
        child: Option<ChildId>,
        after: Option<Cursor>,
        limit: usize,
        live: &[ChildId],
    ) -> Result<(Vec<Meal>, Option<Cursor>), StoreError> {
        let (tree, prefix) = match child {
            Some(c) => (
                self.core.tree(TreeId::MealsByChild),
                keys::join(&[family.as_bytes(), c.as_bytes()]),
            ),
            None => (
                self.core.tree(TreeId::MealsByTime),
                family.as_bytes().to_vec(),
            ),
        };
        let entries: Box<dyn DoubleEndedIterator<Item = sled::Result<(sled::IVec, sled::IVec)>>> =
            match after {
                Some(cursor) => {
                    let end = keys::join(&[&prefix, &cursor.time, &cursor.id]);
                    Box::new(tree.range(prefix.clone()..end))
                }
                None => Box::new(tree.scan_prefix(&prefix)),
            };
        let meals_tree = self.core.tree(TreeId::Meals);
        let mut meals = Vec::with_capacity(limit.min(256));
        let mut more = false;
        for entry in entries.rev() {
            let (key, _) = entry?;
            let id = key
                .get(prefix.len() + 8..)
                .and_then(MealId::from_slice)
                .ok_or_else(|| StoreError::Corrupt("bad meal index".into()))?;
            let Some(raw) = meals_tree.get(meal_key(family, id))? else {
                continue;
            };
            let meal = Meal::decode(&raw)?;
            if !live.contains(&meal.child_id) {
                continue;
            }
            if meals.len() == limit {
                more = true;
                break;
            }
            meals.push(meal);
        }
        let next = meals.last().filter(|_| more).map(|m| Cursor {
            time: keys::time(m.meal_date),
            id: *m.id.as_bytes(),
        });
        Ok((meals, next))
    }

    /// Every meal of a child, one at a time, oldest first (nothing is held but the meal).
    pub fn for_each_of_child(
        &self,
        family: FamilyId,
        child: ChildId,
        mut f: impl FnMut(Meal),
    ) -> Result<(), StoreError> {
        let prefix = keys::join(&[family.as_bytes(), child.as_bytes()]);
        let meals_tree = self.core.tree(TreeId::Meals);
        for key in self
            .core
            .tree(TreeId::MealsByChild)
            .scan_prefix(&prefix)
            .keys()
        {
            let key = key?;
            let id = key
                .get(prefix.len() + 8..)
                .and_then(MealId::from_slice)
                .ok_or_else(|| StoreError::Corrupt("bad meal index".into()))?;
            if let Some(raw) = meals_tree.get(meal_key(family, id))? {
                f(Meal::decode(&raw)?);
            }
        }
        Ok(())
    }

    /// Removes up to `limit` meals (with photos) of a child that no longer exists. Returns how
    /// many were removed; 0 means none are left.
    pub(crate) fn purge_of_child(
        &self,
        family: FamilyId,
        child: ChildId,
        limit: usize,
    ) -> Result<usize, StoreError> {
        let prefix = keys::join(&[family.as_bytes(), child.as_bytes()]);
        let entries: Vec<sled::IVec> = self
            .core
            .tree(TreeId::MealsByChild)
            .scan_prefix(&prefix)
            .keys()
            .take(limit)
            .collect::<Result<_, _>>()?;
        let removed = self.core.transact(|tx| {
            for entry in &entries {
                let Some((time, id)) = entry
                    .get(prefix.len()..)
                    .filter(|rest| rest.len() == 24)
                    .map(|rest| rest.split_at(8))
                else {
                    tx.remove_raw(TreeId::MealsByChild, entry)?;
                    continue;
                };
                let id16: [u8; 16] = id.try_into().unwrap_or([0; 16]);
                let key = keys::owned(family.as_bytes(), &id16);
                match tx.get_raw(TreeId::Meals, &key)?.map(|raw| Meal::decode(&raw)) {
                    Some(Ok(meal)) if meal.child_id == child => {
                        tx.delete::<Meal>(&key, false)?;
                    }
                    Some(Err(e)) => {
                        // Unreadable: remove it by its keys so the job can finish (its photo,
                        // if any, is left to the admin's attention).
                        tracing::error!(error = %e, "an unreadable meal of a deleted child removed");
                        tx.remove_raw(TreeId::Meals, &key)?;
                        tx.remove_raw(
                            TreeId::MealsByTime,
                            &keys::join(&[family.as_bytes(), time, id]),
                        )?;
                    }
                    _ => {}
                }
                // Whatever it pointed at, this child's index entry goes.
                tx.remove_raw(TreeId::MealsByChild, entry)?;
            }
            Ok(entries.len())
        })?;
        Ok(removed)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::meal::{MealFields, MealType, Mood, Portion};
    use crate::store::children::tests::child;
    use crate::store::tests::temp_store;
    use chrono::{Duration, Utc};

    pub fn meal(family: FamilyId, child: ChildId, minutes_ago: i64) -> Meal {
        let now = Utc::now();
        Meal::create(
            family,
            MealFields {
                child_id: child,
                meal_type: MealType::Lunch,
                foods: vec!["Pasta".into()],
                portion: Portion::Full,
                mood: Mood::Happy,
                feedback: None,
                notes: String::new(),
                photo: None,
                meal_date: now - Duration::minutes(minutes_ago),
                reaction: Default::default(),
                reaction_note: String::new(),
            },
            now,
        )
    }

    #[test]
    fn legacy_meal_types_in_stored_records_are_normalised() {
        let owner = FamilyId::new();
        let raw = serde_json::json!({
            "id": MealId::new(), "owner": owner, "child_id": ChildId::new(), "meal_type": "breakfast",
            "foods": ["Toast"], "meal_date": "2024-01-01T08:00:00Z",
            "created_at": "2024-01-01T08:00:00Z", "updated_at": "2024-01-01T08:00:00Z"
        });
        let mut bytes = vec![Meal::VERSION];
        bytes.extend_from_slice(raw.to_string().as_bytes());
        let meal = Meal::decode(&bytes).unwrap();
        assert_eq!(meal.meal_type, MealType::Breakfast);
        assert_eq!(meal.family, owner, "`owner` is read as the family");
        assert_eq!(
            meal.version, 1,
            "records from before versions are version 1"
        );
        assert_eq!(
            meal.portion,
            Portion::Full,
            "missing fields take their defaults"
        );
        assert_eq!(meal.mood, Mood::Happy);
    }

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = Cursor {
            time: [1; 8],
            id: [2; 16],
        };
        assert_eq!(Cursor::decode(&c.encode()), Some(c));
        assert_eq!(Cursor::decode("nope"), None);
        assert_eq!(Cursor::decode(""), None);
    }

    #[tokio::test]
    async fn pages_newest_first_and_index_follows_edits() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let a = store.children.insert(&child(family, "A")).await.unwrap();
        let b = store.children.insert(&child(family, "B")).await.unwrap();
        let live = [a.id, b.id];
        let mut ids = Vec::new();
        for i in 0..5 {
            ids.push(store.meals.insert(&meal(family, a.id, i)).await.unwrap().id);
        }
        let (page, next) = store.meals.page(family, None, None, 3, &live).unwrap();
        assert_eq!(page.iter().map(|m| m.id).collect::<Vec<_>>(), ids[..3]);
        let (rest, end) = store.meals.page(family, None, next, 3, &live).unwrap();
        assert_eq!(rest.len(), 2);
        assert!(end.is_none());

        // Moving a meal to the other child and back in time moves both index entries.
        let moved = store
            .meals
            .update(family, ids[0], Some(1), |m| {
                m.child_id = b.id;
                m.meal_date = Utc::now() - Duration::days(1);
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(moved.version, 2);
        let (all, _) = store.meals.page(family, None, None, 10, &live).unwrap();
        assert_eq!(all.len(), 5, "listed once");
        assert_eq!(all.last().unwrap().id, ids[0], "now the oldest");
        let (of_b, _) = store
            .meals
            .page(family, Some(b.id), None, 10, &live)
            .unwrap();
        assert_eq!(of_b.len(), 1);
        let (of_a, _) = store
            .meals
            .page(family, Some(a.id), None, 10, &live)
            .unwrap();
        assert_eq!(of_a.len(), 4);
    }

    #[tokio::test]
    async fn a_meal_needs_its_child() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        assert!(matches!(
            store.meals.insert(&meal(family, ChildId::new(), 0)).await,
            Err(WriteError::MissingParent)
        ));
        let a = store.children.insert(&child(family, "A")).await.unwrap();
        let m = store.meals.insert(&meal(family, a.id, 0)).await.unwrap();
        assert!(matches!(
            store
                .meals
                .update(family, m.id, None, |m| {
                    m.child_id = ChildId::new();
                    Ok(())
                })
                .await,
            Err(WriteError::MissingParent)
        ));
        store.children.delete(family, a.id).await.unwrap();
        assert!(
            store.meals.get(family, m.id).unwrap().is_none(),
            "hidden at once"
        );
        assert!(!store.meals.delete(family, m.id).await.unwrap());
        assert_eq!(store.meals.purge_of_child(family, a.id, 10).unwrap(), 1);
        assert_eq!(store.meals.purge_of_child(family, a.id, 10).unwrap(), 0);
        assert!(store.core.tree(TreeId::Meals).is_empty());
        assert!(store.core.tree(TreeId::MealsByTime).is_empty());
        assert!(store.core.tree(TreeId::MealsByChild).is_empty());
    }
}
