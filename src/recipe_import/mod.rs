//! Recipes from anywhere (issue 31): the recipe of a web page, read into a draft a parent edits
//! before saving it. Pages say what their recipe is in schema.org JSON-LD (what search engines
//! read), in any of the shapes real sites write. Reading is pure; `fetch` brings a page from
//! the web, guarded, for the use case.

pub mod export;
pub mod fetch;
mod jsonld;
mod microdata;
mod outline;
mod values;

use scraper::Html;

use crate::domain::quantity::split_ingredient;
use crate::domain::recipe::{
    Difficulty, Ingredient, MINUTES_MAX, Nutrition, QUANTITY_MAX, RECIPE_INGREDIENTS_MAX,
    RECIPE_SERVINGS_MAX, RecipeContent, STEPS_MAX, TITLE_MAX,
};
use crate::domain::tags::{TAG_MAX, TAGS_MAX};
use crate::domain::text::{GENERAL_TEXT_MAX, sanitize, sanitize_line};

/// A recipe read from a page, not saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub content: RecipeContent,
    /// The address of the page's picture of it.
    pub image: Option<String>,
    /// The page it came from, when the recipe says so (`isBasedOn`).
    pub source_url: Option<String>,
}

/// The key of Highchair's own fields in its JSON-LD export (`export`): the recipe exactly as
/// saved, for another Highchair. Other readers skip a key they do not know.
pub const HIGHCHAIR: &str = "highchairRecipe";

/// Every recipe the page holds, in page order (a page may hold several, or none): its JSON-LD,
/// else its microdata, else what its headings and lists say.
pub fn from_html(html: &str) -> Vec<Draft> {
    let found = jsonld::recipes(html);
    if !found.is_empty() {
        return found;
    }
    // Microdata and headings need the page's tree.
    let page = Html::parse_document(html);
    let found = microdata::recipes(&page);
    if !found.is_empty() {
        return found;
    }
    outline::from_page(&page).into_iter().collect()
}

/// A recipe pasted as text (title, ingredients, method, as copied from a book or a message),
/// or a JSON-LD file (Highchair's export) with any number of recipes; none when no ingredient
/// can be told apart.
pub fn from_text(text: &str) -> Vec<Draft> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let found = jsonld::from_json(trimmed);
        if !found.is_empty() {
            return found;
        }
    }
    outline::from_text(text).into_iter().collect()
}

/// A draft within what a saved recipe may hold, so that the parent can save it as it is or
/// fill in what is missing: long texts end at a word ("…"), a long step is split at its
/// sentences, lists keep their first entries, and values out of range are dropped.
pub fn fit(mut c: RecipeContent) -> RecipeContent {
    c.title = shorten(&sanitize_line(&c.title), TITLE_MAX);
    c.description = shorten(&sanitize(&c.description), GENERAL_TEXT_MAX);
    c.ingredients = c
        .ingredients
        .into_iter()
        .map(|i| Ingredient {
            name: shorten(&sanitize_line(&i.name), TITLE_MAX),
            quantity: shorten(&sanitize_line(&i.quantity), QUANTITY_MAX),
        })
        .filter(|i| !i.name.is_empty())
        .take(RECIPE_INGREDIENTS_MAX)
        .collect();
    c.instructions = steps_within(&c.instructions);
    c.tips = steps_within(&c.tips);
    c.substitutions.truncate(RECIPE_INGREDIENTS_MAX);
    for list in [&mut c.dietary_restrictions, &mut c.allergies] {
        *list = list
            .iter()
            .map(|t| shorten(&sanitize_line(t), TAG_MAX))
            .filter(|t| !t.is_empty())
            .take(TAGS_MAX)
            .collect();
    }
    c.preparation_time = c.preparation_time.min(MINUTES_MAX);
    c.cooking_time = c.cooking_time.filter(|m| *m <= MINUTES_MAX);
    c.servings = c.servings.filter(|s| (1..=RECIPE_SERVINGS_MAX).contains(s));
    c.nutritional_info = c.nutritional_info.filter(|n| {
        [n.calories, n.protein, n.carbs, n.fat]
            .iter()
            .all(|v| v.is_finite() && (0.0..=100_000.0).contains(v))
    });
    c
}

/// Steps of at most `GENERAL_TEXT_MAX` characters, a long one split after its sentences; at
/// most `STEPS_MAX`. One pass over the text, however long.
fn steps_within(steps: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for step in steps {
        let cleaned = sanitize(step);
        let mut rest = cleaned.as_str();
        while !rest.is_empty() && out.len() < STEPS_MAX {
            let Some((limit, _)) = rest.char_indices().nth(GENERAL_TEXT_MAX) else {
                out.push(rest.to_string());
                break;
            };
            let head = &rest[..limit];
            let cut = head
                .rfind(". ")
                .map(|i| i + 1)
                .filter(|i| *i > GENERAL_TEXT_MAX / 4)
                .or_else(|| head.rfind(' ').filter(|i| *i > 0))
                .unwrap_or(limit);
            out.push(rest[..cut].trim().to_string());
            rest = rest[cut..].trim_start();
        }
    }
    out.retain(|s| !s.is_empty());
    out.truncate(STEPS_MAX);
    out
}

/// A text of at most `max` characters, ending at a word with "…" when it was longer.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max - 1).collect();
    let cut = head
        .rfind(' ')
        .filter(|i| *i > max / 2)
        .unwrap_or(head.len());
    format!("{}…", head[..cut].trim_end())
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
    source_url: Option<String>,
}

impl Found {
    /// The draft; none when the page named neither an ingredient nor a step (a list of
    /// recipes names only their titles).
    fn draft(self) -> Option<Draft> {
        if self.lines.is_empty() && self.steps.is_empty() {
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
            source_url: self.source_url,
        })
    }
}

#[cfg(test)]
mod tests;
