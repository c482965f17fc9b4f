//! The meal log. Records are keyed `owner ++ meal`; two indexes give newest-first pages:
//! `owner ++ time ++ meal` for the whole family and `owner ++ child ++ time ++ meal` per child.
//! Indexes and the photo's "attached" flag change in the same transaction as the meal.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use super::media::{AttachError, MediaTrees, attach_tx, remove_tx};
use super::{Record, StoreError, flushed, keys};
use crate::domain::ids::{ChildId, MealId, UserId};
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

/// The meal trees, shared with the children repository for cascading deletes.
#[derive(Clone)]
pub struct MealTrees {
    pub(super) meals: sled::Tree,
    pub(super) by_time: sled::Tree,
    pub(super) by_child: sled::Tree,
}

fn time_index(meal: &Meal) -> Vec<u8> {
    keys::join(&[
        meal.owner.as_bytes(),
        &keys::time(meal.meal_date),
        meal.id.as_bytes(),
    ])
}

fn child_index(meal: &Meal) -> Vec<u8> {
    keys::join(&[
        meal.owner.as_bytes(),
        meal.child_id.as_bytes(),
        &keys::time(meal.meal_date),
        meal.id.as_bytes(),
    ])
}

fn meal_key(meal: &Meal) -> [u8; 32] {
    keys::owned(meal.owner.as_bytes(), meal.id.as_bytes())
}

/// Inside a transaction: removes a meal, its index entries and its photo.
pub(super) fn remove_meal_tx<E>(
    meals: &TransactionalTree,
    by_time: &TransactionalTree,
    by_child: &TransactionalTree,
    media: &TransactionalTree,
    blobs: &TransactionalTree,
    meal: &Meal,
) -> Result<(), ConflictableTransactionError<E>> {
    meals.remove(meal_key(meal).as_slice())?;
    by_time.remove(time_index(meal))?;
    by_child.remove(child_index(meal))?;
    if let Some(photo) = meal.photo {
        remove_tx(media, blobs, meal.owner, photo)?;
    }
    Ok(())
}

#[derive(Debug, thiserror::Error)]
pub enum MealWriteError {
    #[error("the photo is unknown")]
    PhotoMissing,
    #[error("the photo belongs to another meal")]
    PhotoInUse,
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn write_error(err: TransactionError<AttachError>) -> MealWriteError {
    match err {
        TransactionError::Abort(AttachError::Missing) => MealWriteError::PhotoMissing,
        TransactionError::Abort(AttachError::InUse) => MealWriteError::PhotoInUse,
        TransactionError::Abort(AttachError::Corrupt(e)) => StoreError::Corrupt(e).into(),
        TransactionError::Storage(e) => StoreError::Sled(e).into(),
    }
}

pub struct Meals {
    db: sled::Db,
    trees: MealTrees,
    media: MediaTrees,
}

impl Meals {
    pub(super) fn new(db: sled::Db, trees: MealTrees, media: MediaTrees) -> Self {
        Self { db, trees, media }
    }

    pub async fn insert(&self, meal: &Meal) -> Result<(), MealWriteError> {
        let value = meal.encode()?;
        let t = &self.trees;
        (&t.meals, &t.by_time, &t.by_child, &self.media.records)
            .transaction(|(meals, by_time, by_child, media)| {
                if let Some(photo) = meal.photo {
                    attach_tx(media, meal.owner, photo)?;
                }
                meals.insert(meal_key(meal).as_slice(), value.as_slice())?;
                by_time.insert(time_index(meal), meal.child_id.as_bytes().as_slice())?;
                by_child.insert(child_index(meal), &[])?;
                Ok(())
            })
            .map_err(write_error)?;
        flushed(&self.db).await?;
        Ok(())
    }

    /// Saves `new` over `old` (same id): moves index entries, swaps the photo if it changed.
    pub async fn replace(&self, old: &Meal, new: &Meal) -> Result<(), MealWriteError> {
        let value = new.encode()?;
        let t = &self.trees;
        (
            &t.meals,
            &t.by_time,
            &t.by_child,
            &self.media.records,
            &self.media.blobs,
        )
            .transaction(|(meals, by_time, by_child, media, blobs)| {
                if old.photo != new.photo {
                    if let Some(photo) = new.photo {
                        attach_tx(media, new.owner, photo)?;
                    }
                    if let Some(photo) = old.photo {
                        remove_tx(media, blobs, old.owner, photo)?;
                    }
                }
                by_time.remove(time_index(old))?;
                by_child.remove(child_index(old))?;
                meals.insert(meal_key(new).as_slice(), value.as_slice())?;
                by_time.insert(time_index(new), new.child_id.as_bytes().as_slice())?;
                by_child.insert(child_index(new), &[])?;
                Ok(())
            })
            .map_err(write_error)?;
        flushed(&self.db).await?;
        Ok(())
    }

    /// Removes the meal and its photo.
    pub async fn delete(&self, meal: &Meal) -> Result<(), StoreError> {
        let t = &self.trees;
        let result: Result<(), TransactionError<()>> = (
            &t.meals,
            &t.by_time,
            &t.by_child,
            &self.media.records,
            &self.media.blobs,
        )
            .transaction(|(meals, by_time, by_child, media, blobs)| {
                remove_meal_tx(meals, by_time, by_child, media, blobs, meal)
            });
        result.map_err(|e| match e {
            TransactionError::Storage(e) => StoreError::Sled(e),
            TransactionError::Abort(()) => StoreError::Corrupt("meal transaction aborted".into()),
        })?;
        flushed(&self.db).await
    }

    /// The owner's meal; another family's id is simply not found.
    pub fn get(&self, owner: UserId, id: MealId) -> Result<Option<Meal>, StoreError> {
        self.trees
            .meals
            .get(keys::owned(owner.as_bytes(), id.as_bytes()))?
            .map(|v| Meal::decode(&v))
            .transpose()
    }

    /// Newest first, `limit` meals after `after`, optionally of one child. Returns the page and,
    /// when more exist, the cursor of the next page.
    pub fn page(
        &self,
        owner: UserId,
        child: Option<ChildId>,
        after: Option<Cursor>,
        limit: usize,
    ) -> Result<(Vec<Meal>, Option<Cursor>), StoreError> {
        let (tree, prefix) = match child {
            Some(c) => (
                &self.trees.by_child,
                keys::join(&[owner.as_bytes(), c.as_bytes()]),
            ),
            None => (&self.trees.by_time, owner.as_bytes().to_vec()),
        };
        let entries: Box<dyn DoubleEndedIterator<Item = sled::Result<(sled::IVec, sled::IVec)>>> =
            match after {
                Some(cursor) => {
                    let end = keys::join(&[&prefix, &cursor.time, &cursor.id]);
                    Box::new(tree.range(prefix.clone()..end))
                }
                None => Box::new(tree.scan_prefix(&prefix)),
            };
        let mut meals = Vec::with_capacity(limit.min(256));
        let mut more = false;
        for entry in entries.rev() {
            let (key, _) = entry?;
            if meals.len() == limit {
                more = true;
                break;
            }
            let rest = &key[prefix.len()..];
            let id = MealId::from_slice(&rest[8..])
                .ok_or_else(|| StoreError::Corrupt("bad meal index".into()))?;
            if let Some(meal) = self.get(owner, id)? {
                meals.push(meal);
            }
        }
        let next = meals.last().filter(|_| more).map(|m| Cursor {
            time: keys::time(m.meal_date),
            id: *m.id.as_bytes(),
        });
        Ok((meals, next))
    }

    /// All meals of one child (for deleting the child).
    pub fn of_child(&self, owner: UserId, child: ChildId) -> Result<Vec<Meal>, StoreError> {
        let prefix = keys::join(&[owner.as_bytes(), child.as_bytes()]);
        let mut meals = Vec::new();
        for key in self.trees.by_child.scan_prefix(&prefix).keys() {
            let key = key?;
            let id = MealId::from_slice(&key[prefix.len() + 8..])
                .ok_or_else(|| StoreError::Corrupt("bad meal index".into()))?;
            if let Some(meal) = self.get(owner, id)? {
                meals.push(meal);
            }
        }
        Ok(meals)
    }

    /// Removes every meal of a family (account deletion); photos go with the media.
    pub fn delete_all_for(&self, owner: UserId) -> Result<usize, StoreError> {
        let mut removed = 0;
        for tree in [&self.trees.meals, &self.trees.by_time, &self.trees.by_child] {
            for key in tree.scan_prefix(owner.as_bytes()).keys() {
                tree.remove(key?)?;
                removed += 1;
            }
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_meal_types_in_stored_records_are_normalised() {
        let owner = UserId::new();
        let raw = serde_json::json!({
            "id": MealId::new(), "owner": owner, "child_id": ChildId::new(), "meal_type": "breakfast",
            "foods": ["Toast"], "meal_date": "2024-01-01T08:00:00Z",
            "created_at": "2024-01-01T08:00:00Z", "updated_at": "2024-01-01T08:00:00Z"
        });
        let mut bytes = vec![Meal::VERSION];
        bytes.extend_from_slice(raw.to_string().as_bytes());
        let meal = Meal::decode(&bytes).unwrap();
        assert_eq!(meal.meal_type, crate::domain::meal::MealType::Breakfast);
        assert_eq!(
            meal.portion,
            crate::domain::meal::Portion::Full,
            "missing fields take their defaults"
        );
        assert_eq!(meal.mood, crate::domain::meal::Mood::Happy);
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
}
