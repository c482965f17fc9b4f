//! Saved recipes. The recipe document is the JSON `body`; its title is also a column of its
//! own (for the sqlite3 shell and a later search). Ids are time-ordered: newest first is the
//! ids in reverse, as in the sled store.

use rusqlite::types::Value;

use super::core::{Row, Shared, rows};
use super::values::{get_json, get_name, get_time, get_u64, int, json, name, text, time};
use crate::domain::DomainError;
use crate::domain::change::Kind;
use crate::domain::ids::{FamilyId, MediaId, RecipeId};
use crate::domain::recipe::Recipe;
use crate::store::{StoreError, WriteError};

impl Row for Recipe {
    const TABLE: &'static str = "recipes";
    const KIND: Kind = Kind::Recipe;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "created_by",
        "source",
        "title",
        "body",
        "created_at",
        "updated_at",
        "source_url",
        "photo_id",
    ];
    const SELECT: &'static str = "t.id, t.family_id, t.version, t.created_by, t.source, t.body, \
        t.created_at, t.updated_at, t.source_url, t.photo_id";

    super::core::row_identity!(family);
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family.into(),
            int(self.version),
            self.created_by.into(),
            name(&self.source),
            text(&self.content.title),
            json(&self.content),
            time(self.created_at),
            time(self.updated_at),
            text(self.source_url.as_deref().unwrap_or_default()),
            self.photo.map_or(Value::Null, Value::from),
        ]
    }
    fn photos(&self) -> Vec<MediaId> {
        self.photo.into_iter().collect()
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Recipe {
            id: r.get(0)?,
            family: r.get(1)?,
            version: get_u64(r, 2)?,
            created_by: r.get(3)?,
            source: get_name(r, 4)?,
            content: get_json(r, 5)?,
            created_at: get_time(r, 6)?,
            updated_at: get_time(r, 7)?,
            source_url: Some(r.get::<_, String>(8)?).filter(|u| !u.is_empty()),
            photo: r.get(9)?,
        })
    }
}

pub struct Recipes {
    core: Shared,
}

impl Recipes {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new recipe (version 1), on disk when it returns.
    pub async fn insert(&self, recipe: &Recipe) -> Result<Recipe, WriteError<Recipe>> {
        self.core.insert(recipe).await
    }

    /// Changes a saved recipe at version `expected` (another is `WriteError::Stale`); its
    /// photo follows.
    pub async fn update(
        &self,
        family: FamilyId,
        id: RecipeId,
        expected: Option<u64>,
        change: impl Fn(&mut Recipe) -> Result<(), DomainError> + Sync,
    ) -> Result<Recipe, WriteError<Recipe>> {
        self.core.update(family, id.into(), expected, &change).await
    }

    /// The family's recipe; another family's id is simply not found.
    pub async fn get(&self, family: FamilyId, id: RecipeId) -> Result<Option<Recipe>, StoreError> {
        self.core.get(family, id.into()).await
    }

    /// The family's recipes, newest first.
    pub async fn list(&self, family: FamilyId) -> Result<Vec<Recipe>, StoreError> {
        self.core
            .read(move |conn| {
                rows::<Recipe>(
                    conn,
                    &format!(
                        "SELECT {} FROM recipes t WHERE t.family_id = ?1 ORDER BY t.id DESC",
                        Recipe::SELECT
                    ),
                    [family],
                )
            })
            .await
    }

    /// Removes a recipe. `false` when the family has no such recipe.
    pub async fn delete(&self, family: FamilyId, id: RecipeId) -> Result<bool, StoreError> {
        Ok(self
            .core
            .delete::<Recipe>(family, id.into())
            .await?
            .is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::UserId;
    use crate::domain::recipe::tests::content;
    use crate::domain::recipe::{
        Cost, Difficulty, Ingredient, Nutrition, RecipeContent, Source, Substitution,
    };
    use crate::store::sqlite::tests::temp_core;

    #[tokio::test]
    async fn saved_recipes_are_listed_newest_first_and_only_for_their_family() {
        let (_dir, core) = temp_core();
        let recipes = Recipes::new(core.clone());
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
        recipes.insert(&first).await.unwrap();
        recipes.insert(&second).await.unwrap();
        let titles: Vec<String> = recipes
            .list(family)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.content.title)
            .collect();
        assert_eq!(titles, ["Second", "First"]);
        assert!(recipes.get(other, first.id).await.unwrap().is_none());
        assert!(!recipes.delete(other, first.id).await.unwrap());
        assert!(recipes.delete(family, first.id).await.unwrap());
        assert_eq!(recipes.list(family).await.unwrap().len(), 1);
        assert_eq!(core.revision(family), 3);
    }

    #[tokio::test]
    async fn every_field_comes_back_and_the_title_column_is_the_contents() {
        let (_dir, core) = temp_core();
        let recipes = Recipes::new(core.clone());
        let family = FamilyId::new();
        let created = chrono::Utc::now() - chrono::Duration::days(3);
        let mut recipe = Recipe::create(
            family,
            UserId::new(),
            Source::Own,
            RecipeContent {
                title: "Satay noodles".into(),
                description: "Quick, \"nutty\" and mild".into(),
                ingredients: vec![Ingredient {
                    name: "Groundnuts".into(),
                    quantity: "100 g".into(),
                }],
                instructions: vec!["Boil.".into(), "Stir.".into()],
                preparation_time: 10,
                cooking_time: Some(15),
                difficulty: Difficulty::Moderate,
                servings: Some(4),
                dietary_restrictions: vec!["Vegetarian".into()],
                allergies: vec!["Peanuts".into()],
                estimated_cost: Some(Cost {
                    amount: 4.5,
                    currency: "GBP".into(),
                }),
                nutritional_info: Some(Nutrition {
                    calories: 420.5,
                    protein: 12.25,
                    carbs: 50.0,
                    fat: 18.0,
                }),
                tips: vec!["Use smooth peanut butter.".into()],
                substitutions: vec![Substitution {
                    ingredient: "Noodles".into(),
                    alternatives: vec!["Rice".into()],
                }],
            },
            created,
        );
        recipe.updated_at = created + chrono::Duration::seconds(1);
        let stored = recipes.insert(&recipe).await.unwrap();
        assert_eq!(stored.version, 1);
        let read = recipes.get(family, recipe.id).await.unwrap().unwrap();
        assert_eq!(stored, read);
        assert_eq!(recipes.list(family).await.unwrap(), [stored]);
        assert!(
            recipes
                .get(FamilyId::new(), recipe.id)
                .await
                .unwrap()
                .is_none()
        );
        let title: String = core
            .read(move |conn| {
                conn.query_row(
                    "SELECT title FROM recipes WHERE id = ?1",
                    [recipe.id],
                    |r| r.get(0),
                )
            })
            .await
            .unwrap();
        assert_eq!(title, "Satay noodles");
    }

    #[tokio::test]
    async fn an_edit_keeps_or_drops_the_picture_and_a_stale_one_is_refused() {
        use crate::store::media::Variant;
        use crate::store::media::tests::upload;
        let (_dir, core) = temp_core();
        let recipes = Recipes::new(core.clone());
        let media = crate::store::sqlite::media::Media::new(core.clone());
        let family = FamilyId::new();
        let picture = upload(family, chrono::Utc::now());
        media
            .insert(&picture, &[(Variant::Full, b"p")])
            .await
            .unwrap();
        let mut recipe = Recipe::create(
            family,
            UserId::new(),
            Source::Imported,
            content("Satay", &["Chicken"]),
            chrono::Utc::now(),
        );
        recipe.photo = Some(picture.id);
        recipe.source_url = Some("https://example.org/satay".into());
        recipes.insert(&recipe).await.unwrap();
        let stored = media.get(family, picture.id).await.unwrap().unwrap();
        assert!(stored.attached, "the picture is the recipe's now");
        let back = recipes.get(family, recipe.id).await.unwrap().unwrap();
        assert_eq!(back.source_url, recipe.source_url);
        assert_eq!(back.source, Source::Imported);
        let renamed = recipes
            .update(family, recipe.id, Some(1), |r| {
                r.content.title = "Satay skewers".into();
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!((renamed.version, renamed.photo), (2, Some(picture.id)));
        let stale = recipes
            .update(family, recipe.id, Some(1), |r| {
                r.content.title = "Lost".into();
                Ok(())
            })
            .await;
        assert!(
            matches!(stale, Err(WriteError::Stale(current)) if current.content.title == "Satay skewers")
        );
        recipes
            .update(family, recipe.id, Some(2), |r| {
                r.photo = None;
                Ok(())
            })
            .await
            .unwrap();
        assert!(
            media.get(family, picture.id).await.unwrap().is_none(),
            "released"
        );
        assert!(!core.blobs.path(picture.id, Variant::Full).exists());
    }
}
