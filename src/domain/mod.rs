//! Types and rules with no I/O. Everything here is unit-tested in place.

pub mod allergen_intro;
pub mod allergens;
pub mod change;
pub mod child;
pub mod co_parent;
pub mod contact;
pub mod diet;
pub mod email;
pub mod error;
pub mod family;
pub mod family_settings;
pub mod food_history;
pub mod food_safety;
pub mod food_words;
pub mod generation;
pub mod grocery;
pub mod ids;
pub mod meal;
pub mod meal_plan;
pub mod number;
pub mod quantity;
pub mod recipe;
pub mod recipe_guard;
pub mod tags;
pub mod text;
pub mod user;

pub use error::{DomainError, Invalid, required_version};
