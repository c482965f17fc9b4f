//! Child profiles, keyed `owner ++ child`. Deleting a child removes its meals and their photos
//! in the same transaction.

use sled::Transactional;
use sled::transaction::TransactionError;

use super::meals::{MealTrees, remove_meal_tx};
use super::media::MediaTrees;
use super::{Record, StoreError, flushed, keys};
use crate::domain::child::{Child, sort_by_name};
use crate::domain::ids::{ChildId, UserId};
use crate::domain::meal::Meal;

impl Record for Child {
    const VERSION: u8 = 1;
}

pub struct Children {
    db: sled::Db,
    children: sled::Tree,
    meals: MealTrees,
    media: MediaTrees,
}

impl Children {
    pub(super) fn new(
        db: sled::Db,
        children: sled::Tree,
        meals: MealTrees,
        media: MediaTrees,
    ) -> Self {
        Self {
            db,
            children,
            meals,
            media,
        }
    }

    /// Creates or replaces a child.
    pub async fn save(&self, child: &Child) -> Result<(), StoreError> {
        self.children.insert(
            keys::owned(child.owner.as_bytes(), child.id.as_bytes()),
            child.encode()?,
        )?;
        flushed(&self.db).await
    }

    /// The owner's child; another family's id is simply not found.
    pub fn get(&self, owner: UserId, id: ChildId) -> Result<Option<Child>, StoreError> {
        self.children
            .get(keys::owned(owner.as_bytes(), id.as_bytes()))?
            .map(|v| Child::decode(&v))
            .transpose()
    }

    /// The owner's children, by name.
    pub fn list(&self, owner: UserId) -> Result<Vec<Child>, StoreError> {
        let mut children = self
            .children
            .scan_prefix(owner.as_bytes())
            .values()
            .map(|v| Child::decode(&v?))
            .collect::<Result<Vec<_>, _>>()?;
        sort_by_name(&mut children);
        Ok(children)
    }

    /// Deletes the child with `meals` (all of its meals) and their photos, atomically.
    pub async fn delete(&self, child: &Child, meals: &[Meal]) -> Result<(), StoreError> {
        let key = keys::owned(child.owner.as_bytes(), child.id.as_bytes());
        let m = &self.meals;
        let result: Result<(), TransactionError<()>> = (
            &self.children,
            &m.meals,
            &m.by_time,
            &m.by_child,
            &self.media.records,
            &self.media.blobs,
        )
            .transaction(|(children, meals_tree, by_time, by_child, media, blobs)| {
                for meal in meals {
                    remove_meal_tx(meals_tree, by_time, by_child, media, blobs, meal)?;
                }
                children.remove(key.as_slice())?;
                Ok(())
            });
        result.map_err(|e| match e {
            TransactionError::Storage(e) => StoreError::Sled(e),
            TransactionError::Abort(()) => StoreError::Corrupt("child transaction aborted".into()),
        })?;
        flushed(&self.db).await
    }

    /// Removes every child of a family (account deletion).
    pub fn delete_all_for(&self, owner: UserId) -> Result<usize, StoreError> {
        let mut removed = 0;
        for key in self.children.scan_prefix(owner.as_bytes()).keys() {
            self.children.remove(key?)?;
            removed += 1;
        }
        Ok(removed)
    }
}
