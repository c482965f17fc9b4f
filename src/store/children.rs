//! Child profiles, keyed `family ++ child`. Deleting a child removes it at once and queues a
//! job that removes its meals and their photos in bounded batches (see `jobs`).

use super::jobs::JobKind;
use super::write::{Entity, Shared, TreeId, WriteError};
use super::{Record, StoreError, keys};
use crate::domain::DomainError;
use crate::domain::change::{ChangeId, Kind};
use crate::domain::child::{Child, sort_by_name};
use crate::domain::ids::{ChildId, FamilyId};

impl Record for Child {
    const VERSION: u8 = 1;
}

pub(crate) fn child_key(family: FamilyId, id: ChildId) -> [u8; 32] {
    keys::owned(family.as_bytes(), id.as_bytes())
}

impl Entity for Child {
    const TREE: TreeId = TreeId::Children;
    const KIND: Kind = Kind::Child;

    fn key(&self) -> Vec<u8> {
        child_key(self.family, self.id).to_vec()
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

pub struct Children {
    core: Shared,
}

impl Children {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new child (version 1).
    pub async fn insert(&self, child: &Child) -> Result<Child, WriteError<Child>> {
        self.core.insert(child).await
    }

    /// Changes a child in one transaction; a stale `expected` version changes nothing.
    pub async fn update(
        &self,
        family: FamilyId,
        id: ChildId,
        expected: Option<u64>,
        change: impl Fn(&mut Child) -> Result<(), DomainError> + Sync,
    ) -> Result<Child, WriteError<Child>> {
        let key = child_key(family, id);
        self.core.update(&key, expected, &change).await
    }

    /// The family's child; another family's id is simply not found.
    pub fn get(&self, family: FamilyId, id: ChildId) -> Result<Option<Child>, StoreError> {
        self.core.read(&child_key(family, id))
    }

    /// The family's children, by name.
    pub fn list(&self, family: FamilyId) -> Result<Vec<Child>, StoreError> {
        let mut children = self
            .core
            .tree(TreeId::Children)
            .scan_prefix(family.as_bytes())
            .values()
            .map(|v| Child::decode(&v?))
            .collect::<Result<Vec<_>, _>>()?;
        sort_by_name(&mut children);
        Ok(children)
    }

    /// The ids of the family's children (to hide meals of a child being deleted).
    pub fn ids(&self, family: FamilyId) -> Result<Vec<ChildId>, StoreError> {
        self.core
            .tree(TreeId::Children)
            .scan_prefix(family.as_bytes())
            .keys()
            .map(|k| {
                let k = k?;
                keys::record_part(&k)
                    .map(ChildId::from_bytes)
                    .ok_or_else(|| StoreError::Corrupt("bad child key".into()))
            })
            .collect()
    }

    /// Removes the child now (it disappears from every answer; its meals with it) and queues
    /// the removal of its meals and photos. Returns the child, or `None` if it did not exist.
    pub async fn delete(&self, family: FamilyId, id: ChildId) -> Result<Option<Child>, StoreError> {
        let key = child_key(family, id);
        let deleted = self
            .core
            .commit(|tx| {
                let child = tx.delete::<Child>(&key, true)?;
                if child.is_some() {
                    super::jobs::enqueue(tx, JobKind::DeleteChildMeals { family, child: id })?;
                }
                Ok(child)
            })
            .await?;
        Ok(deleted)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::child::ChildFields;
    use crate::store::tests::temp_store;

    pub fn child(family: FamilyId, name: &str) -> Child {
        Child::create(
            family,
            ChildFields {
                name: name.into(),
                age: Some(3),
                dietary_restrictions: vec![],
                allergies: vec!["Peanuts".into()],
                birth_month: None,
            },
            chrono::Utc::now(),
        )
    }

    #[tokio::test]
    async fn insert_get_list_update_and_versions() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let other = FamilyId::new();
        let emma = store.children.insert(&child(family, "emma")).await.unwrap();
        store.children.insert(&child(family, "Ava")).await.unwrap();
        assert_eq!(emma.version, 1);
        assert!(store.children.get(other, emma.id).unwrap().is_none());
        let names: Vec<_> = store
            .children
            .list(family)
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        assert_eq!(names, ["Ava", "emma"]);
        assert!(store.children.list(other).unwrap().is_empty());

        let renamed = store
            .children
            .update(family, emma.id, Some(1), |c| {
                c.name = "Emma".into();
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!((renamed.version, renamed.name.as_str()), (2, "Emma"));
        match store
            .children
            .update(family, emma.id, Some(1), |c| {
                c.name = "Lost".into();
                Ok(())
            })
            .await
        {
            Err(WriteError::Stale(current)) => assert_eq!(current.name, "Emma"),
            other => panic!("expected stale, got {other:?}"),
        }
        assert_eq!(
            store.children.get(family, emma.id).unwrap().unwrap().name,
            "Emma"
        );
        assert!(matches!(
            store
                .children
                .update(other, emma.id, None, |_| Ok(()))
                .await,
            Err(WriteError::NotFound)
        ));
        assert_eq!(
            store.revision(family).unwrap(),
            3,
            "two inserts and one update"
        );
        assert_eq!(store.revision(other).unwrap(), 0);
    }

    #[tokio::test]
    async fn delete_hides_the_child_and_queues_its_meals() {
        let (_dir, store) = temp_store();
        let family = FamilyId::new();
        let emma = store.children.insert(&child(family, "Emma")).await.unwrap();
        assert!(
            store
                .children
                .delete(family, emma.id)
                .await
                .unwrap()
                .is_some()
        );
        assert!(store.children.get(family, emma.id).unwrap().is_none());
        assert_eq!(store.jobs.pending().unwrap().len(), 1);
        assert!(
            store
                .children
                .delete(family, emma.id)
                .await
                .unwrap()
                .is_none()
        );
        assert_eq!(store.jobs.pending().unwrap().len(), 1, "no second job");
    }
}
