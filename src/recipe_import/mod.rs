//! Recipes from anywhere (issue 31): the recipe of a web page, read into a draft a parent edits
//! before saving it. Pages say what their recipe is in schema.org JSON-LD (what search engines
//! read), in any of the shapes real sites write. Reading is pure; `fetch` brings a page from
//! the web, guarded, for the use case.

pub mod fetch;
mod jsonld;
mod microdata;
mod outline;
mod values;

use scraper::Html;

use crate::domain::quantity::split_ingredient;
use crate::domain::recipe::{Difficulty, Ingredient, Nutrition, RecipeContent};

/// A recipe read from a page, not saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub content: RecipeContent,
    /// The address of the page's picture of it.
    pub image: Option<String>,
}

/// Every recipe the page holds, in page order (a page may hold several, or none): its JSON-LD,
/// else its microdata, else what its headings and lists say.
pub fn from_html(html: &str) -> Vec<Draft> {
    let page = Html::parse_document(html);
    let found = jsonld::recipes(&page);
    if !found.is_empty() {
        return found;
    }
    let found = microdata::recipes(&page);
    if !found.is_empty() {
        return found;
    }
    outline::from_page(&page).into_iter().collect()
}

/// A recipe pasted as text (title, ingredients, method, as copied from a book or a message);
/// none when no ingredient can be told apart.
pub fn from_text(text: &str) -> Option<Draft> {
    outline::from_text(text)
}

/// What a page says of one recipe, in whatever form it said it.
#[derive(Debug, Default)]
struct Found {
    title: String,
    description: String,
    /// Ingredient lines as written ("200 g flour").
    lines: Vec<String>,
    steps: Vec<String>,
    prep: Option<u32>,
    cook: Option<u32>,
    total: Option<u32>,
    servings: Option<u32>,
    nutrition: Option<Nutrition>,
    image: Option<String>,
}

impl Found {
    /// The draft; none when the page named neither a title nor an ingredient.
    fn draft(self) -> Option<Draft> {
        if self.title.is_empty() && self.lines.is_empty() {
            return None;
        }
        let ingredients = self
            .lines
            .iter()
            .map(|line| match split_ingredient(line) {
                // "12" alone is still a line the parent wrote.
                (_, name) if name.is_empty() => Ingredient {
                    name: line.clone(),
                    quantity: String::new(),
                },
                (quantity, name) => Ingredient { name, quantity },
            })
            .collect();
        let preparation_time = self
            .prep
            .or_else(|| self.total.map(|t| t.saturating_sub(self.cook.unwrap_or(0))))
            .unwrap_or(0);
        Some(Draft {
            content: RecipeContent {
                title: self.title,
                description: self.description,
                ingredients,
                instructions: self.steps,
                preparation_time,
                cooking_time: self.cook,
                difficulty: Difficulty::default(),
                servings: self.servings,
                dietary_restrictions: Vec::new(),
                allergies: Vec::new(),
                estimated_cost: None,
                nutritional_info: self.nutrition,
                tips: Vec::new(),
                substitutions: Vec::new(),
            },
            image: self.image,
        })
    }
}

#[cfg(test)]
mod tests;
