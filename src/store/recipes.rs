//! Saved recipes, keyed `family ++ recipe` (time-ordered ids: a reverse scan is newest first).

use super::write::{Entity, Shared, TreeId, WriteError};
use super::{Record, StoreError, keys};
use crate::domain::change::{ChangeId, Kind};
use crate::domain::ids::{FamilyId, RecipeId};
use crate::domain::recipe::Recipe;

impl Record for Recipe {
    const VERSION: u8 = 1;
}

fn recipe_key(family: FamilyId, id: RecipeId) -> [u8; 32] {
    keys::owned(family.as_bytes(), id.as_bytes())
}

impl Entity for Recipe {
    const TREE: TreeId = TreeId::Recipes;
    const KIND: Kind = Kind::Recipe;

    fn key(&self) -> Vec<u8> {
        recipe_key(self.family, self.id).to_vec()
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

pub struct Recipes {
    core: Shared,
}

impl Recipes {
    pub(super) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new recipe (version 1), on disk when it returns.
    pub async fn insert(&self, recipe: &Recipe) -> Result<Recipe, WriteError<Recipe>> {
        self.core.insert(recipe).await
    }

    /// The family's recipe; another family's id is simply not found.
    pub fn get(&self, family: FamilyId, id: RecipeId) -> Result<Option<Recipe>, StoreError> {
        self.core.read(&recipe_key(family, id))
    }

    /// The family's recipes, newest first.
    pub fn list(&self, family: FamilyId) -> Result<Vec<Recipe>, StoreError> {
        self.core
            .tree(TreeId::Recipes)
            .scan_prefix(family.as_bytes())
            .values()
            .rev()
            .map(|v| Recipe::decode(&v?))
            .collect()
    }

    /// Removes a recipe. `false` when the family has no such recipe.
    pub async fn delete(&self, family: FamilyId, id: RecipeId) -> Result<bool, StoreError> {
        let key = recipe_key(family, id);
        let deleted = self
            .core
            .commit(|tx| Ok(tx.delete::<Recipe>(&key, true)?.is_some()))
            .await?;
        Ok(deleted)
    }
}

#[cfg(test)]
mod tests {
    use crate::domain::ids::{FamilyId, UserId};
    use crate::domain::recipe::tests::content;
    use crate::domain::recipe::{Recipe, Source};
    use crate::store::tests::temp_store;

    #[tokio::test]
    async fn saved_recipes_are_listed_newest_first_and_only_for_their_family() {
        let (_dir, store) = temp_store();
        let (family, other) = (FamilyId::new(), FamilyId::new());
        let user = UserId::new();
        let now = chrono::Utc::now();
        let first = Recipe::create(family, user, Source::Own, content("First", &["Rice"]), now);
        let second = Recipe::create(
            family,
            user,
            Source::Generated,
            content("Second", &["Peas"]),
            now,
        );
        store.recipes.insert(&first).await.unwrap();
        store.recipes.insert(&second).await.unwrap();
        let titles: Vec<String> = store
            .recipes
            .list(family)
            .unwrap()
            .into_iter()
            .map(|r| r.content.title)
            .collect();
        assert_eq!(titles, ["Second", "First"]);
        assert!(store.recipes.get(other, first.id).unwrap().is_none());
        assert!(!store.recipes.delete(other, first.id).await.unwrap());
        assert!(store.recipes.delete(family, first.id).await.unwrap());
        assert_eq!(store.recipes.list(family).unwrap().len(), 1);
        assert_eq!(store.revision(family).unwrap(), 3);
    }
}
