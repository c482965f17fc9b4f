//! A child's food history: every food they have had, when first, how often, how they liked
//! it, exposures to their allergies and reactions. Built from the meal log, one meal at a time.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

use super::meal::{Meal, Mood, Reaction};

/// How long a food counts as new.
pub const NEW_FOR_DAYS: i64 = 7;

/// How the child took to a food, from the moods of the meals it was in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Liking {
    Liked,
    Mixed,
    Disliked,
}

/// A reaction in a meal with this food.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReactionSeen {
    pub at: DateTime<Utc>,
    pub reaction: Reaction,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FoodStats {
    /// As it was first typed.
    pub name: String,
    pub first_tried: DateTime<Utc>,
    pub last_eaten: DateTime<Utc>,
    pub times: u32,
    pub happy: u32,
    pub neutral: u32,
    pub sad: u32,
    /// Meals where this food matched one of the child's allergies.
    pub exposures: u32,
    pub reactions: Vec<ReactionSeen>,
}

impl FoodStats {
    pub fn liking(&self) -> Liking {
        if self.happy > self.sad && self.happy >= self.neutral {
            Liking::Liked
        } else if self.sad > self.happy && self.sad >= self.neutral {
            Liking::Disliked
        } else {
            Liking::Mixed
        }
    }

    pub fn is_new(&self, now: DateTime<Utc>) -> bool {
        now - self.first_tried < Duration::days(NEW_FOR_DAYS)
    }
}

/// Foods keyed case-insensitively ("Peas" and "peas" are one food).
#[derive(Debug, Default)]
pub struct FoodHistory {
    foods: HashMap<String, FoodStats>,
}

fn food_key(food: &str) -> String {
    food.trim().to_lowercase()
}

impl FoodHistory {
    /// Counts one meal, in any order.
    pub fn add(&mut self, meal: &Meal) {
        for food in &meal.foods {
            let stats = self
                .foods
                .entry(food_key(food))
                .or_insert_with(|| FoodStats {
                    name: food.clone(),
                    first_tried: meal.meal_date,
                    last_eaten: meal.meal_date,
                    times: 0,
                    happy: 0,
                    neutral: 0,
                    sad: 0,
                    exposures: 0,
                    reactions: Vec::new(),
                });
            if meal.meal_date < stats.first_tried {
                stats.first_tried = meal.meal_date;
                stats.name = food.clone();
            }
            stats.last_eaten = stats.last_eaten.max(meal.meal_date);
            stats.times += 1;
            match meal.mood {
                Mood::Happy => stats.happy += 1,
                Mood::Neutral => stats.neutral += 1,
                Mood::Sad => stats.sad += 1,
            }
            if meal
                .exposures
                .iter()
                .any(|e| food_key(&e.food) == food_key(food))
            {
                stats.exposures += 1;
            }
            if meal.reaction != Reaction::None {
                stats.reactions.push(ReactionSeen {
                    at: meal.meal_date,
                    reaction: meal.reaction,
                    note: meal.reaction_note.clone(),
                });
            }
        }
    }

    /// Every food, most recently first tried first; reactions newest first.
    pub fn finish(self) -> Vec<FoodStats> {
        let mut foods: Vec<FoodStats> = self.foods.into_values().collect();
        for f in &mut foods {
            f.reactions.sort_by_key(|r| std::cmp::Reverse(r.at));
        }
        foods.sort_by(|a, b| {
            b.first_tried
                .cmp(&a.first_tried)
                .then_with(|| a.name.cmp(&b.name))
        });
        foods
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::{ChildId, FamilyId};
    use crate::domain::meal::{Exposure, MealFields, MealType, Portion};

    fn meal(days_ago: i64, foods: &[&str], mood: Mood, now: DateTime<Utc>) -> Meal {
        Meal::create(
            FamilyId::new(),
            MealFields {
                child_id: ChildId::new(),
                meal_type: MealType::Lunch,
                foods: foods.iter().map(|f| f.to_string()).collect(),
                portion: Portion::Full,
                mood,
                feedback: None,
                notes: String::new(),
                photo: None,
                meal_date: now - Duration::days(days_ago),
                reaction: Reaction::None,
                reaction_note: String::new(),
            },
            now,
        )
    }

    #[test]
    fn foods_are_counted_once_per_meal_case_insensitively() {
        let now = Utc::now();
        let mut history = FoodHistory::default();
        history.add(&meal(2, &["peas", "Pasta"], Mood::Happy, now));
        history.add(&meal(30, &["Peas"], Mood::Happy, now));
        history.add(&meal(10, &["Peas"], Mood::Sad, now));
        let foods = history.finish();
        assert_eq!(foods.len(), 2);
        let peas = foods
            .iter()
            .find(|f| f.name == "Peas")
            .expect("named as first typed");
        assert_eq!(peas.times, 3);
        assert_eq!(peas.first_tried, now - Duration::days(30));
        assert_eq!(peas.last_eaten, now - Duration::days(2));
        assert_eq!(peas.liking(), Liking::Liked);
        assert!(!peas.is_new(now));
        assert_eq!(foods[0].name, "Pasta", "newest first");
        assert!(foods[0].is_new(now));
    }

    #[test]
    fn liking_follows_the_moods() {
        let now = Utc::now();
        let mut history = FoodHistory::default();
        history.add(&meal(1, &["Broccoli"], Mood::Sad, now));
        history.add(&meal(2, &["Broccoli"], Mood::Sad, now));
        history.add(&meal(3, &["Broccoli"], Mood::Happy, now));
        history.add(&meal(1, &["Rice"], Mood::Neutral, now));
        let foods = history.finish();
        let find = |n: &str| foods.iter().find(|f| f.name == n).unwrap().liking();
        assert_eq!(find("Broccoli"), Liking::Disliked);
        assert_eq!(find("Rice"), Liking::Mixed);
    }

    #[test]
    fn exposures_and_reactions_are_kept_per_food() {
        let now = Utc::now();
        let mut toast = meal(1, &["Buttered toast", "Apple"], Mood::Neutral, now);
        toast.exposures = vec![Exposure {
            food: "Buttered toast".into(),
            allergy: "Milk".into(),
            message: "Buttered toast contains milk (butter)".into(),
            allergen: Some("milk".into()),
            matched: Some("butter".into()),
        }];
        toast.reaction = Reaction::Mild;
        toast.reaction_note = "Red cheeks".into();
        let mut history = FoodHistory::default();
        history.add(&toast);
        let foods = history.finish();
        let butter = foods.iter().find(|f| f.name == "Buttered toast").unwrap();
        assert_eq!(butter.exposures, 1);
        assert_eq!(butter.reactions[0].note, "Red cheeks");
        let apple = foods.iter().find(|f| f.name == "Apple").unwrap();
        assert_eq!(apple.exposures, 0);
        assert_eq!(
            apple.reactions.len(),
            1,
            "a reaction belongs to every food of the meal"
        );
    }
}
