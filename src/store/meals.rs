//! Meals (repository: `sqlite::meals`).

use super::Record;
use crate::domain::meal::Meal;

pub use super::sqlite::meals::{Cursor, Meals};

impl Record for Meal {
    const VERSION: u8 = 1;
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::ids::{ChildId, FamilyId, MealId};
    use crate::domain::meal::{MealFields, MealType, Mood, Portion};
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
}
