//! Grocery lists with their items (repository: `sqlite::grocery_lists`).

use super::Record;
use crate::domain::grocery::GroceryList;

pub use super::sqlite::grocery_lists::GroceryLists;

impl Record for GroceryList {
    const VERSION: u8 = 1;
}
