//! Saved recipes (repository: `sqlite::recipes`).

use super::Record;
use crate::domain::recipe::Recipe;

pub use super::sqlite::recipes::Recipes;

impl Record for Recipe {
    const VERSION: u8 = 1;
}
