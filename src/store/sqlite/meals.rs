//! Meals, with their foods in `meal_foods` (in order, with a normalised key for the food
//! history and allergen questions). A meal of a child being deleted counts as gone.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rusqlite::types::Value;
use rusqlite::{Connection, params};

use super::core::{Abort, Row, Shared, rows};
use super::values::{
    get_json, get_name, get_opt_name, get_time, get_u64, int, json, name, nanos, opt_name, text,
    time,
};
use crate::domain::DomainError;
use crate::domain::change::Kind;
use crate::domain::ids::{ChildId, FamilyId, MealId, MediaId};
use crate::domain::meal::Meal;
use crate::store::{StoreError, WriteError};

/// Where the next page starts: the time and id of the last meal of this page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    nanos: i64,
    id: MealId,
}

impl Cursor {
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode([&self.nanos.to_be_bytes()[..], self.id.as_bytes()].concat())
    }

    pub fn decode(text: &str) -> Option<Cursor> {
        let bytes = URL_SAFE_NO_PAD.decode(text.trim()).ok()?;
        if bytes.len() != 24 {
            return None;
        }
        Some(Cursor {
            nanos: i64::from_be_bytes(bytes[..8].try_into().ok()?),
            id: MealId::from_slice(&bytes[8..])?,
        })
    }
}

/// The meal's columns as `from_row` reads them, its foods gathered in order.
const SELECT: &str = "t.id, t.family_id, t.version, t.child_id, t.meal_type, t.portion, t.mood, \
    t.feedback, t.notes, t.photo_id, t.meal_date, t.created_at, t.updated_at, t.reaction, \
    t.reaction_note, t.exposures, \
    (SELECT json_group_array(f.food ORDER BY f.position) FROM meal_foods f WHERE f.meal_id = t.id)";

/// A meal counts while its child is not being deleted.
const VISIBLE: &str = "EXISTS (SELECT 1 FROM children c WHERE c.id = t.child_id AND c.deleted = 0)";

impl Row for Meal {
    const TABLE: &'static str = "meals";
    const KIND: Kind = Kind::Meal;
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "family_id",
        "version",
        "child_id",
        "meal_type",
        "portion",
        "mood",
        "feedback",
        "notes",
        "photo_id",
        "meal_date",
        "created_at",
        "updated_at",
        "reaction",
        "reaction_note",
        "exposures",
    ];
    const SELECT: &'static str = SELECT;
    const VISIBLE: &'static str = VISIBLE;

    super::core::row_identity!(family);
    fn values(&self) -> Vec<Value> {
        vec![
            self.id.into(),
            self.family.into(),
            int(self.version),
            self.child_id.into(),
            name(&self.meal_type),
            name(&self.portion),
            name(&self.mood),
            opt_name(&self.feedback),
            text(&self.notes),
            self.photo.map_or(Value::Null, Value::from),
            time(self.meal_date),
            time(self.created_at),
            time(self.updated_at),
            name(&self.reaction),
            text(&self.reaction_note),
            json(&self.exposures),
        ]
    }
    fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Self> {
        Ok(Meal {
            id: r.get(0)?,
            family: r.get(1)?,
            version: get_u64(r, 2)?,
            child_id: r.get(3)?,
            meal_type: get_name(r, 4)?,
            portion: get_name(r, 5)?,
            mood: get_name(r, 6)?,
            feedback: get_opt_name(r, 7)?,
            notes: r.get(8)?,
            photo: r.get(9)?,
            meal_date: get_time(r, 10)?,
            created_at: get_time(r, 11)?,
            updated_at: get_time(r, 12)?,
            reaction: get_name(r, 13)?,
            reaction_note: r.get(14)?,
            exposures: get_json(r, 15)?,
            foods: get_json(r, 16)?,
        })
    }
    fn photos(&self) -> Vec<MediaId> {
        self.photo.into_iter().collect()
    }
    fn parents_exist(&self, conn: &Connection) -> rusqlite::Result<bool> {
        super::children::is_live(conn, self.family, self.child_id)
    }
    fn write_parts(&self, conn: &Connection) -> rusqlite::Result<()> {
        conn.prepare_cached("DELETE FROM meal_foods WHERE meal_id = ?1")?
            .execute([self.id])?;
        let mut insert = conn.prepare_cached(
            "INSERT INTO meal_foods (meal_id, position, food, food_key) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (position, food) in self.foods.iter().enumerate() {
            insert.execute(params![
                self.id,
                position as i64,
                food,
                food.trim().to_lowercase()
            ])?;
        }
        Ok(())
    }
}

pub struct Meals {
    core: Shared,
}

impl Meals {
    pub(crate) fn new(core: Shared) -> Self {
        Self { core }
    }

    /// Stores a new meal; its child must exist and its photo must be an unused upload.
    pub async fn insert(&self, meal: &Meal) -> Result<Meal, WriteError<Meal>> {
        self.core.insert(meal).await
    }

    /// Changes a meal (its foods and photo follow).
    pub async fn update(
        &self,
        family: FamilyId,
        id: MealId,
        expected: Option<u64>,
        change: impl Fn(&mut Meal) -> Result<(), DomainError> + Sync,
    ) -> Result<Meal, WriteError<Meal>> {
        self.core.update(family, id.into(), expected, &change).await
    }

    /// Removes the meal and its photo. `false` when there was no such (visible) meal.
    pub async fn delete(&self, family: FamilyId, id: MealId) -> Result<bool, StoreError> {
        Ok(self.core.delete::<Meal>(family, id.into()).await?.is_some())
    }

    /// The family's meal; another family's id, or a meal of a deleted child, is not found.
    pub async fn get(&self, family: FamilyId, id: MealId) -> Result<Option<Meal>, StoreError> {
        self.core.get(family, id.into()).await
    }

    /// Newest first, `limit` meals after `after`, optionally of one child. Returns the page
    /// and, when more exist, the cursor of the next page. Meals of a child being deleted are
    /// left out.
    pub async fn page(
        &self,
        family: FamilyId,
        child: Option<ChildId>,
        after: Option<Cursor>,
        limit: usize,
    ) -> Result<(Vec<Meal>, Option<Cursor>), StoreError> {
        // Before the first page: after everything (the largest time and id).
        let (nanos_after, id_after) = after
            .map_or((i64::MAX, MealId::from_bytes([0xff; 16])), |c| {
                (c.nanos, c.id)
            });
        let mut meals = self
            .core
            .read(move |conn| {
                // One statement per index: the family's meals by time, or one child's.
                let (scope, by) = match child {
                    Some(_) => ("t.child_id = ?2", "meals_by_child"),
                    None => ("?2 IS NULL", "meals_by_time"),
                };
                let sql = format!(
                    "SELECT {SELECT} FROM meals t INDEXED BY {by}
                     WHERE t.family_id = ?1 AND {scope} AND (t.meal_date, t.id) < (?3, ?4)
                       AND {VISIBLE}
                     ORDER BY t.meal_date DESC, t.id DESC LIMIT ?5"
                );
                rows::<Meal>(
                    conn,
                    &sql,
                    params![family, child, nanos_after, id_after, (limit + 1) as i64],
                )
            })
            .await?;
        let more = meals.len() > limit;
        meals.truncate(limit);
        let next = meals.last().filter(|_| more).map(|m| Cursor {
            nanos: nanos(m.meal_date),
            id: m.id,
        });
        Ok((meals, next))
    }

    /// Every meal of a child, oldest first, read a page at a time (nothing is held but a
    /// page).
    pub async fn for_each_of_child(
        &self,
        family: FamilyId,
        child: ChildId,
        mut f: impl FnMut(Meal),
    ) -> Result<(), StoreError> {
        const PAGE: i64 = 500;
        let mut after = (i64::MIN, MealId::from_bytes([0; 16]));
        loop {
            let (from, from_id) = after;
            let page = self
                .core
                .read(move |conn| {
                    let sql = format!(
                        "SELECT {SELECT} FROM meals t
                         WHERE t.family_id = ?1 AND t.child_id = ?2
                           AND (t.meal_date, t.id) > (?3, ?4)
                         ORDER BY t.meal_date, t.id LIMIT ?5"
                    );
                    rows::<Meal>(conn, &sql, params![family, child, from, from_id, PAGE])
                })
                .await?;
            let Some(last) = page.last() else {
                return Ok(());
            };
            after = (nanos(last.meal_date), last.id);
            let full = page.len() as i64 == PAGE;
            page.into_iter().for_each(&mut f);
            if !full {
                return Ok(());
            }
        }
    }

    /// Removes up to `limit` meals (with photos) of a child being deleted; when none are left,
    /// the child's row goes too. Returns how many meals were removed; 0 means none are left.
    pub(crate) async fn purge_of_child(
        &self,
        family: FamilyId,
        child: ChildId,
        limit: usize,
    ) -> Result<usize, StoreError> {
        Ok(self
            .core
            .commit(move |tx| {
                let ids: Vec<(MealId, Option<MediaId>)> = {
                    let mut stmt = tx.conn.prepare_cached(
                        "SELECT id, photo_id FROM meals WHERE family_id = ?1 AND child_id = ?2
                         LIMIT ?3",
                    )?;
                    let found = stmt.query_map(params![family, child, limit as i64], |r| {
                        Ok((r.get(0)?, r.get(1)?))
                    })?;
                    found.collect::<Result<_, _>>()?
                };
                for (id, photo) in &ids {
                    // The meal's photo row goes by trigger; its files after the commit.
                    tx.remove_row::<Meal>(family, &(*id).into())?;
                    if let Some(photo) = photo {
                        tx.release_photo(family, *photo)?;
                    }
                }
                if ids.is_empty() {
                    tx.conn
                        .prepare_cached(
                            "DELETE FROM children WHERE id = ?1 AND family_id = ?2 AND deleted = 1",
                        )?
                        .execute(params![child, family])?;
                }
                Ok::<_, Abort>(ids.len())
            })
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, Utc};

    use super::*;
    use crate::domain::meal::{Exposure, Feedback, Reaction};
    use crate::store::children::tests::child;
    use crate::store::meals::tests::meal;
    use crate::store::sqlite::children::Children;
    use crate::store::sqlite::tests::temp_core;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = Cursor {
            nanos: -5,
            id: MealId::new(),
        };
        assert_eq!(Cursor::decode(&c.encode()), Some(c));
        assert_eq!(Cursor::decode("nope"), None);
        assert_eq!(Cursor::decode(""), None);
    }

    #[tokio::test]
    async fn every_field_and_the_foods_in_order_come_back() {
        let (_dir, core) = temp_core();
        let children = Children::new(core.clone());
        let meals = Meals::new(core.clone());
        let family = FamilyId::new();
        let a = children.insert(&child(family, "A")).await.unwrap();
        let mut m = meal(family, a.id, 3);
        m.foods = vec!["Toast".into(), "  Peanut Butter ".into(), "apple".into()];
        m.feedback = Some(Feedback::Loved);
        m.reaction = Reaction::Mild;
        m.reaction_note = "a rash".into();
        m.notes = "ate it all".into();
        m.exposures = vec![Exposure {
            food: "Peanut Butter".into(),
            allergy: "Peanuts".into(),
            message: "watch".into(),
            allergen: Some("peanuts".into()),
            matched: Some("peanut".into()),
        }];
        let stored = meals.insert(&m).await.unwrap();
        assert_eq!(meals.get(family, m.id).await.unwrap().unwrap(), stored);
        let keys: Vec<String> = core
            .read(move |conn| {
                let mut s = conn.prepare(
                    "SELECT f.food_key FROM meals m JOIN meal_foods f ON f.meal_id = m.id
                     WHERE m.child_id = ?1 ORDER BY f.position",
                )?;
                let keys = s.query_map([a.id], |r| r.get(0))?;
                keys.collect()
            })
            .await
            .unwrap();
        assert_eq!(keys, ["toast", "peanut butter", "apple"]);
    }

    #[tokio::test]
    async fn pages_newest_first_and_follow_edits() {
        let (_dir, core) = temp_core();
        let children = Children::new(core.clone());
        let meals = Meals::new(core.clone());
        let family = FamilyId::new();
        let a = children.insert(&child(family, "A")).await.unwrap();
        let b = children.insert(&child(family, "B")).await.unwrap();
        let mut ids = Vec::new();
        for i in 0..5 {
            ids.push(meals.insert(&meal(family, a.id, i)).await.unwrap().id);
        }
        // Another family's meals never show.
        let other = FamilyId::new();
        let c = children.insert(&child(other, "C")).await.unwrap();
        meals.insert(&meal(other, c.id, 0)).await.unwrap();

        let (page, next) = meals.page(family, None, None, 3).await.unwrap();
        assert_eq!(page.iter().map(|m| m.id).collect::<Vec<_>>(), ids[..3]);
        let (rest, end) = meals.page(family, None, next, 3).await.unwrap();
        assert_eq!(rest.iter().map(|m| m.id).collect::<Vec<_>>(), ids[3..]);
        assert!(end.is_none());

        let moved = meals
            .update(family, ids[0], Some(1), |m| {
                m.child_id = b.id;
                m.meal_date = Utc::now() - Duration::days(1);
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(moved.version, 2);
        let (all, _) = meals.page(family, None, None, 10).await.unwrap();
        assert_eq!(all.len(), 5, "listed once");
        assert_eq!(all.last().unwrap().id, ids[0], "now the oldest");
        assert_eq!(
            meals
                .page(family, Some(b.id), None, 10)
                .await
                .unwrap()
                .0
                .len(),
            1
        );
        assert_eq!(
            meals
                .page(family, Some(a.id), None, 10)
                .await
                .unwrap()
                .0
                .len(),
            4
        );

        let mut seen = Vec::new();
        meals
            .for_each_of_child(family, a.id, |m| seen.push(m.id))
            .await
            .unwrap();
        let mut oldest_first = ids[1..].to_vec();
        oldest_first.reverse();
        assert_eq!(seen, oldest_first);
    }

    #[tokio::test]
    async fn a_meal_needs_its_child_and_goes_with_it() {
        let (_dir, core) = temp_core();
        let children = Children::new(core.clone());
        let meals = Meals::new(core.clone());
        let family = FamilyId::new();
        assert!(matches!(
            meals.insert(&meal(family, ChildId::new(), 0)).await,
            Err(WriteError::MissingParent)
        ));
        let a = children.insert(&child(family, "A")).await.unwrap();
        let other = children.insert(&child(FamilyId::new(), "X")).await.unwrap();
        assert!(
            matches!(
                meals.insert(&meal(family, other.id, 0)).await,
                Err(WriteError::MissingParent)
            ),
            "another family's child"
        );
        let m = meals.insert(&meal(family, a.id, 0)).await.unwrap();
        assert!(matches!(
            meals
                .update(family, m.id, None, |m| {
                    m.child_id = ChildId::new();
                    Ok(())
                })
                .await,
            Err(WriteError::MissingParent)
        ));
        children.delete(family, a.id).await.unwrap();
        assert!(
            meals.get(family, m.id).await.unwrap().is_none(),
            "hidden at once"
        );
        assert!(
            meals
                .page(family, None, None, 10)
                .await
                .unwrap()
                .0
                .is_empty()
        );
        assert!(!meals.delete(family, m.id).await.unwrap());
        assert!(matches!(
            meals.insert(&meal(family, a.id, 0)).await,
            Err(WriteError::MissingParent)
        ));
        assert_eq!(meals.purge_of_child(family, a.id, 10).await.unwrap(), 1);
        assert_eq!(meals.purge_of_child(family, a.id, 10).await.unwrap(), 0);
        let left: (i64, i64, i64) = core
            .read(|conn| {
                conn.query_row(
                    "SELECT (SELECT count(*) FROM meals), (SELECT count(*) FROM meal_foods),
                            (SELECT count(*) FROM children WHERE deleted = 1)",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
            })
            .await
            .unwrap();
        assert_eq!(left, (0, 0, 0), "meals, foods and the child's row are gone");
    }
}
