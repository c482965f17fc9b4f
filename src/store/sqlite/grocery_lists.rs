//! Grocery lists, their items in `grocery_items` (in order), read with the list in one
//! statement. A whole-list save names the version it was made from and rewrites the items; one
//! item's tick writes that item's row and the list's version, in one write with the list as it
//! is then, so two parents ticking different items at once never lose either tick.

use chrono::{DateTime, Utc};
use rusqlite::types::Value;
use rusqlite::{Connection, params};
use serde::Deserialize;

use super::core::{Abort, Row, Shared, rows};
use super::values::{get_time, get_u64, int, nanos, text, time};
use crate::domain::change::Kind;
use crate::domain::grocery::{GroceryItem, GroceryList, ItemEdit};
use crate::domain::ids::{FamilyId, GroceryItemId, GroceryListId};
use crate::store::{StoreError, WriteError};

/// The list's columns as `from_row` reads them, its items gathered in order.
const SELECT: &str = "t.id, t.family_id, t.version, t.name, t.created_at, t.updated_at, \
    (SELECT json_group_array(json_object('id', hex(i.id), 'name', i.name, \
        'quantity', i.quantity, 'category', i.category, 'checked', i.checked, \
        'checked_at', i.checked_at) ORDER BY i.position) \
     FROM grocery_items i WHERE i.list_id = t.id)";

/// An item as the list's query gives it.
#[derive(Deserialize)]
struct ItemRow {
    /// Hexadecimal.
    id: String,
    name: String,
    quantity: String,
    category: String,
    checked: i64,
    /// Unix nanoseconds.
    checked_at: Option<i64>,
}

impl ItemRow {
    fn into_item(self) -> Result<GroceryItem, uuid::Error> {
        Ok(GroceryItem {
            id: self.id.parse()?,
            name: self.name,
            quantity: self.quantity,
            category: self.category,
            checked: self.checked != 0,
            checked_at: self.checked_at.map(DateTime::from_timestamp_nanos),
        })
    }
}

fn get_items(r: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<Vec<GroceryItem>> {
    let bad = |e: Box<dyn std::error::Error + Send + Sync>| {
        rusqlite::Error::FromSqlConversionFailure(idx, rusqlite::types::Type::Text, e)
    };
    let text: String = r.get(idx)?;
    let items: Vec<ItemRow> = serde_json::from_str(&text).map_err(|e| bad(Box::new(e)))?;
    items
        .into_iter()
        .map(|i| i.into_item().map_err(|e| bad(Box::new(e))))
        .collect()
}

impl Row for GroceryList {
    const TABLE: &'static str = "grocery_lists";
    const KIND: Kind = Kind::GroceryList;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "name",
        "created_at",
        "updated_at",
    ];
    const SELECT: &'static str = SELECT;

    super::core::row_identity!(family);
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family.into(),
            int(self.version),
            text(&self.name),
            time(self.created_at),
            time(self.updated_at),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(GroceryList {
            id: r.get(0)?,
            family: r.get(1)?,
            version: get_u64(r, 2)?,
            name: r.get(3)?,
            created_at: get_time(r, 4)?,
            updated_at: get_time(r, 5)?,
            items: get_items(r, 6)?,
        })
    }
    fn write_parts(&self, conn: &Connection) -> rusqlite::Result<()> {
        conn.prepare_cached("DELETE FROM grocery_items WHERE list_id = ?1")?
            .execute([self.id])?;
        let mut insert = conn.prepare_cached(
            "INSERT INTO grocery_items
                 (list_id, position, id, name, quantity, category, checked, checked_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        for (position, item) in self.items.iter().enumerate() {
            insert.execute(params![
                self.id,
                position as i64,
                item.id,
                item.name,
                item.quantity,
                item.category,
                item.checked,
                item.checked_at.map(nanos),
            ])?;
        }
        Ok(())
    }
}

pub struct GroceryLists {
    core: Shared,
}

impl GroceryLists {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new list with its items (version 1).
    pub async fn insert(&self, list: &GroceryList) -> Result<GroceryList, WriteError<GroceryList>> {
        self.core.insert(list).await
    }

    /// The family's list; another family's id is simply not found.
    pub async fn get(
        &self,
        family: FamilyId,
        id: GroceryListId,
    ) -> Result<Option<GroceryList>, StoreError> {
        self.core.get(family, id.into()).await
    }

    /// The family's lists with their items, newest first, in one query.
    pub async fn list(&self, family: FamilyId) -> Result<Vec<GroceryList>, StoreError> {
        self.core
            .read(move |conn| {
                rows::<GroceryList>(
                    conn,
                    &format!(
                        "SELECT {SELECT} FROM grocery_lists t WHERE t.family_id = ?1
                         ORDER BY t.id DESC"
                    ),
                    [family],
                )
            })
            .await
    }

    /// A whole-list save (`GroceryList::apply`); with `expected`, only if nobody changed the
    /// list since that version. The items are written again.
    pub async fn update(
        &self,
        family: FamilyId,
        id: GroceryListId,
        expected: Option<u64>,
        name: String,
        items: Vec<ItemEdit>,
        now: DateTime<Utc>,
    ) -> Result<GroceryList, WriteError<GroceryList>> {
        self.core
            .update(family, id.into(), expected, &|list: &mut GroceryList| {
                list.apply(name.clone(), items.clone(), now);
                Ok(())
            })
            .await
    }

    /// Sets one item's tick as of `at` (`GroceryList::tick`: a later tick wins), in one write
    /// with the rest of the list as it is then. Returns the list and whether the tick was
    /// applied. Only the item's row and the list's version and time are written; a tick that
    /// a later one already beat writes nothing (no new version, no change event). An item
    /// that is not on the list is `Rule(NotFound)`.
    pub async fn tick(
        &self,
        family: FamilyId,
        id: GroceryListId,
        item: GroceryItemId,
        checked: bool,
        at: DateTime<Utc>,
    ) -> Result<(GroceryList, bool), WriteError<GroceryList>> {
        Ok(self
            .core
            .commit(move |tx| {
                let Some(mut list) = tx.get::<GroceryList>(family, &id.into())? else {
                    return Err(Abort::NotFound);
                };
                if !list.tick(item, checked, at)? {
                    return Ok((list, false));
                }
                let position = list
                    .items
                    .iter()
                    .position(|i| i.id == item)
                    .ok_or(Abort::NotFound)?;
                let ticked = &list.items[position];
                tx.conn
                    .prepare_cached(
                        "UPDATE grocery_items SET checked = ?3, checked_at = ?4
                         WHERE list_id = ?1 AND position = ?2",
                    )?
                    .execute(params![
                        id,
                        position as i64,
                        ticked.checked,
                        ticked.checked_at.map(nanos)
                    ])?;
                list.version += 1;
                tx.conn
                    .prepare_cached(
                        "UPDATE grocery_lists SET version = ?3, updated_at = ?4
                         WHERE id = ?1 AND family_id = ?2",
                    )?
                    .execute(params![
                        id,
                        family,
                        int(list.version),
                        time(list.updated_at)
                    ])?;
                tx.announce(family, Kind::GroceryList, id.as_uuid())?;
                Ok((list, true))
            })
            .await?)
    }

    /// Removes a list with its items. `false` when the family has no such list.
    pub async fn delete(&self, family: FamilyId, id: GroceryListId) -> Result<bool, StoreError> {
        Ok(self
            .core
            .delete::<GroceryList>(family, id.into())
            .await?
            .is_some())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::domain::DomainError;
    use crate::domain::grocery::{ItemDraft, validate_list};
    use crate::store::sqlite::tests::temp_core;

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
        let (_dir, core) = temp_core();
        let lists = GroceryLists::new(core.clone());
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let first = lists.insert(&list(family, &["Milk"])).await.unwrap();
        let second = lists.insert(&list(family, &["Bread"])).await.unwrap();
        let ids: Vec<_> = lists
            .list(family)
            .await
            .unwrap()
            .iter()
            .map(|l| l.id)
            .collect();
        assert_eq!(ids, [second.id, first.id]);
        assert!(lists.get(other, first.id).await.unwrap().is_none());
        assert!(!lists.delete(other, first.id).await.unwrap());
        // A tick moves the version on; a save made from the version before is refused.
        let milk = first.items[0].id;
        let at = Utc::now();
        lists.tick(family, first.id, milk, true, at).await.unwrap();
        // A tick made before that one (an offline phone) is not applied and writes nothing.
        let revision = core.revision(family);
        let (late, applied) = lists
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
        assert_eq!(core.revision(family), revision);
        let stale = lists
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
        let now = lists.get(family, first.id).await.unwrap().unwrap();
        assert_eq!(now.name, "Weekly shop");
        assert!(now.items[0].checked);
    }

    /// Two parents tick different items of one list at the same time, 200 times each: every
    /// tick is kept, none overwrites the other's.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_ticks_of_different_items_are_all_kept() {
        let (_dir, core) = temp_core();
        let lists = Arc::new(GroceryLists::new(core.clone()));
        let family = FamilyId::new();
        let saved = lists
            .insert(&list(family, &["Milk", "Bread"]))
            .await
            .unwrap();
        let mut tasks = Vec::new();
        for item in [saved.items[0].id, saved.items[1].id] {
            let lists = lists.clone();
            tasks.push(tokio::spawn(async move {
                for round in 0..200 {
                    let checked = round % 2 == 0;
                    let (_, applied) = lists
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
        let end = lists.get(family, saved.id).await.unwrap().unwrap();
        assert_eq!(end.version, 1 + 400, "every tick is one write");
        assert!(
            end.items.iter().all(|i| !i.checked),
            "each item's last tick (unchecked) kept"
        );
    }

    #[tokio::test]
    async fn every_field_and_the_items_in_order_come_back() {
        let (_dir, core) = temp_core();
        let lists = GroceryLists::new(core.clone());
        let family = FamilyId::new();
        let created = Utc::now() - chrono::Duration::days(1);
        let drafts = [
            ("Apples", "6", "produce", false),
            ("Milk, \"whole\"", "2 pints", "Dairy", true),
            ("Nappies", "", "", false),
        ]
        .map(|(name, quantity, category, checked)| ItemDraft {
            name: name.into(),
            quantity: quantity.into(),
            category: category.into(),
            checked,
        });
        let (name, items) = validate_list("Big shop", &drafts).unwrap();
        let mut new = GroceryList::create(family, name, items, created);
        new.updated_at = created + chrono::Duration::seconds(3);
        let stored = lists.insert(&new).await.unwrap();
        assert_eq!(stored.items[1].checked_at, Some(created));
        assert_eq!(stored.items[2].category, "Other");
        let read = lists.get(family, new.id).await.unwrap().unwrap();
        assert_eq!(stored, read);
        assert_eq!(
            lists.list(family).await.unwrap(),
            std::slice::from_ref(&stored)
        );

        // Another family's id is not found, whatever is asked of it.
        let other = FamilyId::new();
        assert!(lists.get(other, new.id).await.unwrap().is_none());
        assert!(lists.list(other).await.unwrap().is_empty());
        assert!(matches!(
            lists
                .update(other, new.id, None, "X".into(), vec![], Utc::now())
                .await,
            Err(WriteError::NotFound)
        ));
        assert!(matches!(
            lists
                .tick(other, new.id, stored.items[0].id, true, Utc::now())
                .await,
            Err(WriteError::NotFound)
        ));
        assert!(!lists.delete(other, new.id).await.unwrap());
        // An item that is not on the list.
        assert!(matches!(
            lists
                .tick(family, new.id, GroceryItemId::new(), true, Utc::now())
                .await,
            Err(WriteError::Rule(DomainError::NotFound))
        ));
        assert_eq!(lists.get(family, new.id).await.unwrap().unwrap(), stored);

        // An edit keeps items' ids, drops and adds items, in the order given.
        let keep = stored.items[2].clone();
        let edits = vec![
            ItemEdit {
                id: None,
                fields: ItemDraft {
                    name: "Bread".into(),
                    ..ItemDraft::default()
                }
                .validate()
                .unwrap(),
            },
            ItemEdit {
                id: Some(keep.id),
                fields: ItemDraft {
                    name: keep.name.clone(),
                    quantity: "2".into(),
                    category: keep.category.clone(),
                    checked: true,
                }
                .validate()
                .unwrap(),
            },
        ];
        let edited = lists
            .update(family, new.id, Some(1), "Renamed".into(), edits, Utc::now())
            .await
            .unwrap();
        assert_eq!(edited.version, 2);
        assert_eq!(
            edited.items.iter().map(|i| &i.name[..]).collect::<Vec<_>>(),
            ["Bread", "Nappies"]
        );
        assert_eq!(edited.items[1].id, keep.id);
        assert_eq!(lists.get(family, new.id).await.unwrap().unwrap(), edited);

        assert!(lists.delete(family, new.id).await.unwrap());
        assert!(lists.get(family, new.id).await.unwrap().is_none());
        let items: i64 = core
            .read(|conn| conn.query_row("SELECT count(*) FROM grocery_items", [], |r| r.get(0)))
            .await
            .unwrap();
        assert_eq!(items, 0, "the items went with the list");
    }

    /// A tick writes the one item's row and the list's row, and is announced; the other
    /// items are not written.
    #[tokio::test]
    async fn a_tick_writes_one_item_and_the_lists_version() {
        let (_dir, core) = temp_core();
        let lists = GroceryLists::new(core.clone());
        let family = FamilyId::new();
        let saved = lists
            .insert(&list(family, &["Milk", "Bread", "Eggs"]))
            .await
            .unwrap();
        // Counts the writer's row writes (temporary triggers live on its connection only).
        core.db
            .write(|conn| {
                conn.execute_batch(
                    "CREATE TEMP TABLE written (what TEXT);
                     CREATE TEMP TRIGGER item_insert AFTER INSERT ON main.grocery_items
                     BEGIN INSERT INTO written VALUES ('item insert'); END;
                     CREATE TEMP TRIGGER item_update AFTER UPDATE ON main.grocery_items
                     BEGIN INSERT INTO written VALUES ('item update ' || new.position); END;
                     CREATE TEMP TRIGGER item_delete AFTER DELETE ON main.grocery_items
                     BEGIN INSERT INTO written VALUES ('item delete'); END;
                     CREATE TEMP TRIGGER list_update AFTER UPDATE ON main.grocery_lists
                     BEGIN INSERT INTO written VALUES ('list update'); END;",
                )?;
                Ok::<_, StoreError>(())
            })
            .await
            .unwrap();
        let revision = core.revision(family);
        let at = Utc::now();
        let (ticked, applied) = lists
            .tick(family, saved.id, saved.items[1].id, true, at)
            .await
            .unwrap();
        assert!(applied);
        assert_eq!(ticked.version, 2);
        assert_eq!(core.revision(family), revision + 1, "announced");
        let written: Vec<String> = core
            .db
            .write(|conn| {
                let mut stmt = conn.prepare("SELECT what FROM written ORDER BY rowid")?;
                let rows = stmt.query_map([], |r| r.get(0))?;
                Ok::<_, StoreError>(rows.collect::<Result<_, _>>()?)
            })
            .await
            .unwrap();
        assert_eq!(written, ["item update 1", "list update"]);
        let read = lists.get(family, saved.id).await.unwrap().unwrap();
        assert_eq!(ticked, read, "the answer is the list as stored");
        assert!(read.items[1].checked && read.items[1].checked_at == Some(at));
        assert!(!read.items[0].checked && !read.items[2].checked);
    }
}
