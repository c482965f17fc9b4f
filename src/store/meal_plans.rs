//! The meal plan, a week per record (repository: `sqlite::meal_plans`).

use super::Record;
use crate::domain::meal_plan::MealPlan;

pub use super::sqlite::meal_plans::MealPlans;

impl Record for MealPlan {
    const VERSION: u8 = 1;
}
