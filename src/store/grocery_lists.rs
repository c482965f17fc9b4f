//! Grocery lists, keyed `family ++ list` (time-ordered ids: a reverse scan is newest first).
//! Every change goes through the write primitive: a whole-list save names the version it was
//! made from, and one item's tick changes only that item, so two parents ticking different
//! items at once never lose either tick.

use chrono::{DateTime, Utc};

use super::write::{Entity, Shared, TreeId, WriteError};
use super::{Record, StoreError, keys};
use crate::domain::change::{ChangeId, Kind};
use crate::domain::grocery::{GroceryList, ItemEdit};
use crate::domain::ids::{FamilyId, GroceryItemId, GroceryListId};

impl Record for GroceryList {
    const VERSION: u8 = 1;
}

fn list_key(family: FamilyId, id: GroceryListId) -> [u8; 32] {
    keys::owned(family.as_bytes(), id.as_bytes())
}

impl Entity for GroceryList {
    const TREE: TreeId = TreeId::GroceryLists;
    const KIND: Kind = Kind::GroceryList;

    fn key(&self) -> Vec<u8> {
        list_key(self.family, self.id).to_vec()
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
}

pub struct GroceryLists {
    core: Shared,
}

impl GroceryLists {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    pub async fn insert(&self, list: &GroceryList) -> Result<GroceryList, WriteError<GroceryList>> {
        self.core.insert(list).await
    }

    pub fn get(
        &self,
        family: FamilyId,
        id: GroceryListId,
    ) -> Result<Option<GroceryList>, StoreError> {
        self.core.read(&list_key(family, id))
    }

    /// The family's lists, newest first.
    pub fn list(&self, family: FamilyId) -> Result<Vec<GroceryList>, StoreError> {
        self.core
            .tree(TreeId::GroceryLists)
            .scan_prefix(family.as_bytes())
            .values()
            .rev()
            .map(|v| GroceryList::decode(&v?))
            .collect()
    }

    /// A whole-list save; with `expected`, only if nobody changed the list since that version.
    pub async fn update(
        &self,
        family: FamilyId,
        id: GroceryListId,
        expected: Option<u64>,
        name: String,
        items: Vec<ItemEdit>,
        now: DateTime<Utc>,
    ) -> Result<GroceryList, WriteError<GroceryList>> {
        let key = list_key(family, id);
        self.core
            .update(&key, expected, &|list: &mut GroceryList| {
                list.apply(name.clone(), items.clone(), now);
                Ok(())
            })
            .await
    }

    /// Sets one item's tick as of `at`, in one transaction with the rest of the list as it is
    /// now. Returns the list and whether the tick was applied (a later tick wins).
    pub async fn tick(
        &self,
        family: FamilyId,
        id: GroceryListId,
        item: GroceryItemId,
        checked: bool,
        at: DateTime<Utc>,
    ) -> Result<(GroceryList, bool), WriteError<GroceryList>> {
        let key = list_key(family, id);
        // A late tick (an offline phone) that a later one already beat changes nothing: no
        // write, no new version, no change event. Safe to decide before the transaction,
        // since an item's last tick only ever moves later.
        if let Some(list) = self.get(family, id).map_err(WriteError::Store)?
            && list.has_later_tick(item, at)
        {
            // The later tick may not be on disk yet: answer only once it is, or a crash could
            // lose it after this answer said it was there.
            self.core.flush().await.map_err(WriteError::Store)?;
            return Ok((list, false));
        }
        let applied = std::sync::atomic::AtomicBool::new(false);
        let list = self
            .core
            .update(&key, None, &|list: &mut GroceryList| {
                let done = list.tick(item, checked, at)?;
                applied.store(done, std::sync::atomic::Ordering::Relaxed);
                Ok(())
            })
            .await?;
        Ok((list, applied.load(std::sync::atomic::Ordering::Relaxed)))
    }

    /// Removes a list. `false` when the family has no such list.
    pub async fn delete(&self, family: FamilyId, id: GroceryListId) -> Result<bool, StoreError> {
        let key = list_key(family, id);
        let deleted = self
            .core
            .commit(|tx| Ok(tx.delete::<GroceryList>(&key, true)?.is_some()))
            .await?;
        Ok(deleted)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::domain::grocery::{ItemDraft, validate_list};
    use crate::store::tests::temp_store;

    fn list(family: FamilyId, names: &[&str]) -> GroceryList {
        let drafts: Vec<ItemDraft> = names
            .iter()
            .map(|n| ItemDraft {
                name: n.to_string(),
                ..ItemDraft::default()
            })
            .collect();
        let (name, items) = validate_list("Weekly shop", &drafts).unwrap();
        GroceryList::create(family, name, items, Utc::now())
    }

    #[tokio::test]
    async fn lists_are_the_familys_newest_first_and_a_stale_save_changes_nothing() {
        let (_dir, store) = temp_store();
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let first = store
            .grocery_lists
            .insert(&list(family, &["Milk"]))
            .await
            .unwrap();
        let second = store
            .grocery_lists
            .insert(&list(family, &["Bread"]))
            .await
            .unwrap();
        let ids: Vec<_> = store
            .grocery_lists
            .list(family)
            .unwrap()
            .iter()
            .map(|l| l.id)
            .collect();
        assert_eq!(ids, [second.id, first.id]);
        assert!(store.grocery_lists.get(other, first.id).unwrap().is_none());
        assert!(!store.grocery_lists.delete(other, first.id).await.unwrap());
        // A tick moves the version on; a save made from the version before is refused.
        let milk = first.items[0].id;
        let at = Utc::now();
        store
            .grocery_lists
            .tick(family, first.id, milk, true, at)
            .await
            .unwrap();
        // A tick made before that one (an offline phone) is not applied and writes nothing.
        let revision = store.revision(family).unwrap();
        let (late, applied) = store
            .grocery_lists
            .tick(
                family,
                first.id,
                milk,
                false,
                at - chrono::Duration::seconds(5),
            )
            .await
            .unwrap();
        assert!(!applied);
        assert!(late.items[0].checked);
        assert_eq!(late.version, first.version + 1);
        assert_eq!(store.revision(family).unwrap(), revision);
        let stale = store
            .grocery_lists
            .update(
                family,
                first.id,
                Some(first.version),
                "Renamed".into(),
                vec![],
                Utc::now(),
            )
            .await;
        assert!(matches!(stale, Err(WriteError::Stale(_))));
        let now = store.grocery_lists.get(family, first.id).unwrap().unwrap();
        assert_eq!(now.name, "Weekly shop");
        assert!(now.items[0].checked);
    }

    /// Two parents tick different items of one list at the same time, 200 times each: every
    /// tick is kept, none overwrites the other's.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_ticks_of_different_items_are_all_kept() {
        let (_dir, store) = temp_store();
        let store = Arc::new(store);
        let family = FamilyId::new();
        let saved = store
            .grocery_lists
            .insert(&list(family, &["Milk", "Bread"]))
            .await
            .unwrap();
        let mut tasks = Vec::new();
        for item in [saved.items[0].id, saved.items[1].id] {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                for round in 0..200 {
                    let checked = round % 2 == 0;
                    let (_, applied) = store
                        .grocery_lists
                        .tick(family, saved.id, item, checked, Utc::now())
                        .await
                        .unwrap();
                    assert!(applied);
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let end = store.grocery_lists.get(family, saved.id).unwrap().unwrap();
        assert_eq!(end.version, 1 + 400, "every tick is one write");
        assert!(
            end.items.iter().all(|i| !i.checked),
            "each item's last tick (unchecked) kept"
        );
    }
}
