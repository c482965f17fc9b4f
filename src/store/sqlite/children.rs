//! Child profiles. Deleting a child hides it at once (with its meals) and queues a job that
//! removes its meals and their photos in bounded batches; the job removes the row last.

use rusqlite::types::Value;
use rusqlite::{Connection, params};

use super::core::{Abort, Row, Shared, rows};
use super::jobs;
use super::values::{get_json, get_time, get_u64, int, json, text, time};
use crate::domain::DomainError;
use crate::domain::change::Kind;
use crate::domain::child::{Child, sort_by_name};
use crate::domain::ids::{ChildId, FamilyId};
use crate::store::jobs::JobKind;
use crate::store::{StoreError, WriteError};

impl Row for Child {
    const TABLE: &'static str = "children";
    const KIND: Kind = Kind::Child;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "name",
        "age",
        "birth_month",
        "allergies",
        "dietary_restrictions",
        "created_at",
        "updated_at",
    ];
    const SELECT: &'static str = "t.id, t.family_id, t.version, t.name, t.age, t.birth_month, \
        t.allergies, t.dietary_restrictions, t.created_at, t.updated_at";
    const VISIBLE: &'static str = "t.deleted = 0";

    super::core::row_identity!(family);
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family.into(),
            int(self.version),
            text(&self.name),
            self.age.map_or(Value::Null, |a| Value::Integer(a.into())),
            self.birth_month.as_deref().map_or(Value::Null, text),
            json(&self.allergies),
            json(&self.dietary_restrictions),
            time(self.created_at),
            time(self.updated_at),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Child {
            id: r.get(0)?,
            family: r.get(1)?,
            version: get_u64(r, 2)?,
            name: r.get(3)?,
            age: r
                .get::<_, Option<i64>>(4)?
                .and_then(|a| u8::try_from(a).ok()),
            birth_month: r.get(5)?,
            allergies: get_json(r, 6)?,
            dietary_restrictions: get_json(r, 7)?,
            created_at: get_time(r, 8)?,
            updated_at: get_time(r, 9)?,
        })
    }
}

/// Whether the family's child exists and is not being deleted.
pub(crate) fn is_live(conn: &Connection, family: FamilyId, id: ChildId) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT 1 FROM children WHERE id = ?1 AND family_id = ?2 AND deleted = 0")?
        .exists(params![id, family])
}

pub struct Children {
    core: Shared,
}

impl Children {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new child (version 1).
    pub async fn insert(&self, child: &Child) -> Result<Child, WriteError<Child>> {
        self.core.insert(child).await
    }

    /// Changes a child; a stale `expected` version changes nothing.
    pub async fn update(
        &self,
        family: FamilyId,
        id: ChildId,
        expected: Option<u64>,
        change: impl Fn(&mut Child) -> Result<(), DomainError> + Sync,
    ) -> Result<Child, WriteError<Child>> {
        self.core.update(family, id.into(), expected, &change).await
    }

    /// The family's child; another family's id is simply not found.
    pub async fn get(&self, family: FamilyId, id: ChildId) -> Result<Option<Child>, StoreError> {
        self.core.get(family, id.into()).await
    }

    /// The family's children, by name.
    pub async fn list(&self, family: FamilyId) -> Result<Vec<Child>, StoreError> {
        let mut children = self
            .core
            .read(move |conn| {
                rows::<Child>(
                    conn,
                    &format!(
                        "SELECT {} FROM children t WHERE t.family_id = ?1 AND t.deleted = 0",
                        Child::SELECT
                    ),
                    [family],
                )
            })
            .await?;
        sort_by_name(&mut children);
        Ok(children)
    }

    /// The ids of the family's children.
    pub async fn ids(&self, family: FamilyId) -> Result<Vec<ChildId>, StoreError> {
        self.core
            .read(move |conn| {
                let mut stmt = conn.prepare_cached(
                    "SELECT id FROM children WHERE family_id = ?1 AND deleted = 0",
                )?;
                let ids = stmt.query_map([family], |r| r.get(0))?;
                ids.collect()
            })
            .await
    }

    /// Hides the child now (it disappears from every answer, its meals with it) and queues
    /// the removal of its meals and photos. Returns the child, or `None` if it did not exist.
    pub async fn delete(&self, family: FamilyId, id: ChildId) -> Result<Option<Child>, StoreError> {
        Ok(self
            .core
            .commit(move |tx| {
                let Some(child) = tx.get::<Child>(family, &id.into())? else {
                    return Ok(None);
                };
                tx.conn
                    .prepare_cached("UPDATE children SET deleted = 1 WHERE id = ?1")?
                    .execute([id])?;
                tx.announce(family, Kind::Child, id.as_uuid())?;
                jobs::enqueue(tx, JobKind::DeleteChildMeals { family, child: id })?;
                Ok::<_, Abort>(Some(child))
            })
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::children::tests::child;
    use crate::store::sqlite::tests::temp_core;

    #[tokio::test]
    async fn insert_get_list_update_and_versions() {
        let (_dir, core) = temp_core();
        let children = Children::new(core.clone());
        let family = FamilyId::new();
        let other = FamilyId::new();
        let mut emma = child(family, "emma");
        emma.birth_month = Some("2025-03".into());
        let emma = children.insert(&emma).await.unwrap();
        children.insert(&child(family, "Ava")).await.unwrap();
        assert_eq!(emma.version, 1);
        assert!(children.get(other, emma.id).await.unwrap().is_none());
        let stored = children.get(family, emma.id).await.unwrap().unwrap();
        assert_eq!(stored, emma, "every field comes back");
        let names: Vec<_> = children
            .list(family)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names, ["Ava", "emma"]);
        assert!(children.list(other).await.unwrap().is_empty());

        let renamed = children
            .update(family, emma.id, Some(1), |c| {
                c.name = "Emma".into();
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!((renamed.version, renamed.name.as_str()), (2, "Emma"));
        match children
            .update(family, emma.id, Some(1), |c| {
                c.name = "Lost".into();
                Ok(())
            })
            .await
        {
            Err(WriteError::Stale(current)) => assert_eq!(current.name, "Emma"),
            other => panic!("expected stale, got {other:?}"),
        }
        assert!(matches!(
            children.update(other, emma.id, None, |_| Ok(())).await,
            Err(WriteError::NotFound)
        ));
        assert_eq!(core.revision(family), 3, "two inserts and one update");
        assert_eq!(core.revision(other), 0);
    }

    #[tokio::test]
    async fn delete_hides_the_child_and_queues_its_meals() {
        let (_dir, core) = temp_core();
        let children = Children::new(core.clone());
        let jobs = jobs::Jobs::new(core.clone());
        let family = FamilyId::new();
        let emma = children.insert(&child(family, "Emma")).await.unwrap();
        assert!(children.delete(family, emma.id).await.unwrap().is_some());
        assert!(children.get(family, emma.id).await.unwrap().is_none());
        assert!(children.ids(family).await.unwrap().is_empty());
        assert_eq!(jobs.pending().await.unwrap().len(), 1);
        assert!(children.delete(family, emma.id).await.unwrap().is_none());
        assert_eq!(jobs.pending().await.unwrap().len(), 1, "no second job");
        assert!(matches!(
            children.update(family, emma.id, None, |_| Ok(())).await,
            Err(WriteError::NotFound)
        ));
    }
}
