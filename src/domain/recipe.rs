//! Recipes (spec sections 3, 5 and 9): what a generator suggests, what a family saves, and what
//! a parent asks the generator for.

use crate::i18n::Text;
use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::change::first_version;
use super::error::Invalid;
use super::ids::{FamilyId, MediaId, RecipeId, UserId};
use super::tags;
use super::text::{
    GENERAL_TEXT_MAX, char_len, field_label, sanitize, sanitize_line, too_long_message,
};

/// Servings a parent can ask for (spec section 9).
pub const SERVINGS: [u32; 8] = [1, 2, 3, 4, 5, 6, 8, 10];
pub const DEFAULT_SERVINGS: u32 = 2;
/// Recipes per request.
pub const COUNT_MIN: u32 = 1;
pub const COUNT_MAX: u32 = 5;
pub const DEFAULT_COUNT: u32 = 3;
/// Most ingredients one request may name (the picker offers 232; no dish needs more).
pub const REQUEST_INGREDIENTS_MAX: usize = 100;
/// Bounds of a stored recipe, generous for a family's own dishes.
pub const TITLE_MAX: usize = 200;
pub const RECIPE_INGREDIENTS_MAX: usize = 100;
pub const STEPS_MAX: usize = 60;
pub const QUANTITY_MAX: usize = 100;
/// Minutes: a day is enough for any slow cook.
pub const MINUTES_MAX: u32 = 24 * 60;
pub const RECIPE_SERVINGS_MAX: u32 = 100;

pub const SAVE_TITLE: Text = t!("Error saving recipe");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    #[default]
    Easy,
    Moderate,
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Moderate, Difficulty::Hard];

    pub fn key(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Moderate => "moderate",
            Difficulty::Hard => "hard",
        }
    }

    /// The form's label (spec section 9).
    pub fn label(self) -> &'static str {
        match self {
            Difficulty::Easy => "Quick & Simple",
            Difficulty::Moderate => "Some Technique",
            Difficulty::Hard => "Chef-Level Skills",
        }
    }

    /// Reads the keys, the labels and what models write ("Medium", "difficult").
    pub fn parse(text: &str) -> Option<Difficulty> {
        let key = text.trim().to_lowercase();
        Some(match key.as_str() {
            "easy" | "simple" | "beginner" | "quick & simple" | "quick" => Difficulty::Easy,
            "moderate" | "medium" | "intermediate" | "some technique" => Difficulty::Moderate,
            "hard" | "difficult" | "advanced" | "chef-level skills" | "expert" => Difficulty::Hard,
            _ => return None,
        })
    }
}

impl fmt::Display for Difficulty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ingredient {
    pub name: String,
    pub quantity: String,
}

/// An ingredient and what can stand in for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Substitution {
    pub ingredient: String,
    pub alternatives: Vec<String>,
}

/// Per serving: kcal, and grams of protein, carbohydrate and fat.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Nutrition {
    pub calories: f64,
    pub protein: f64,
    pub carbs: f64,
    pub fat: f64,
}

/// An amount of money in a currency (ISO code).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    pub amount: f64,
    pub currency: String,
}

/// Everything a recipe says, as generated or typed (spec section 3's Recipe without its ids).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RecipeContent {
    pub title: String,
    pub description: String,
    pub ingredients: Vec<Ingredient>,
    pub instructions: Vec<String>,
    /// Minutes (0 when unknown).
    pub preparation_time: u32,
    pub cooking_time: Option<u32>,
    pub difficulty: Difficulty,
    pub servings: Option<u32>,
    pub dietary_restrictions: Vec<String>,
    pub allergies: Vec<String>,
    pub estimated_cost: Option<Cost>,
    pub nutritional_info: Option<Nutrition>,
    pub tips: Vec<String>,
    pub substitutions: Vec<Substitution>,
}

impl RecipeContent {
    /// Checks and cleans a recipe before it is stored (a parent's own dish, or a generated one
    /// sent back to be saved). Texts are sanitised; empty entries dropped.
    pub fn validate(mut self) -> Result<RecipeContent, Invalid> {
        self.title = line(&self.title, TITLE_MAX, "title")?;
        if self.title.is_empty() {
            return Err(Invalid::new(
                SAVE_TITLE,
                t!("Please enter a title"),
                "title",
            ));
        }
        self.description = block(&self.description, "description")?;
        let mut ingredients = Vec::new();
        for i in &self.ingredients {
            let name = line(&i.name, TITLE_MAX, "ingredients")?;
            if name.is_empty() {
                continue;
            }
            let quantity = line(&i.quantity, QUANTITY_MAX, "ingredients")?;
            ingredients.push(Ingredient { name, quantity });
        }
        self.ingredients = ingredients;
        if self.ingredients.is_empty() {
            return Err(Invalid::new(
                SAVE_TITLE,
                t!("Please add at least one ingredient"),
                "ingredients",
            ));
        }
        if self.ingredients.len() > RECIPE_INGREDIENTS_MAX {
            return Err(too_many("ingredients", RECIPE_INGREDIENTS_MAX));
        }
        self.instructions = blocks(&self.instructions, STEPS_MAX, "instructions")?;
        if self.instructions.is_empty() {
            return Err(Invalid::new(
                SAVE_TITLE,
                t!("Please add at least one step"),
                "instructions",
            ));
        }
        self.tips = blocks(&self.tips, STEPS_MAX, "tips")?;
        let mut substitutions = Vec::new();
        for s in &self.substitutions {
            let ingredient = line(&s.ingredient, TITLE_MAX, "substitutions")?;
            let alternatives = tags::clean(&s.alternatives, &SAVE_TITLE, "substitutions")?;
            if !ingredient.is_empty() && !alternatives.is_empty() {
                substitutions.push(Substitution {
                    ingredient,
                    alternatives,
                });
            }
        }
        if substitutions.len() > RECIPE_INGREDIENTS_MAX {
            return Err(too_many("substitutions", RECIPE_INGREDIENTS_MAX));
        }
        self.substitutions = substitutions;
        self.dietary_restrictions = tags::clean(
            &self.dietary_restrictions,
            &SAVE_TITLE,
            "dietaryRestrictions",
        )?;
        self.allergies = tags::clean(&self.allergies, &SAVE_TITLE, "allergies")?;
        minutes(self.preparation_time, "preparationTime")?;
        if let Some(m) = self.cooking_time {
            minutes(m, "cookingTime")?;
        }
        if let Some(s) = self.servings
            && !(1..=RECIPE_SERVINGS_MAX).contains(&s)
        {
            return Err(Invalid::new(
                SAVE_TITLE,
                t!(
                    "Servings must be between 1 and {{max}}",
                    max = RECIPE_SERVINGS_MAX
                ),
                "servings",
            ));
        }
        if let Some(cost) = &self.estimated_cost
            && !(cost.amount.is_finite()
                && (0.0..=100_000.0).contains(&cost.amount)
                && cost.currency.len() == 3
                && cost.currency.bytes().all(|b| b.is_ascii_uppercase()))
        {
            return Err(Invalid::new(
                SAVE_TITLE,
                t!("The estimated cost must be a positive amount in a currency such as GBP"),
                "estimatedCost",
            ));
        }
        if let Some(n) = &self.nutritional_info {
            let values = [n.calories, n.protein, n.carbs, n.fat];
            if values
                .iter()
                .any(|v| !v.is_finite() || !(0.0..=100_000.0).contains(v))
            {
                return Err(Invalid::new(
                    SAVE_TITLE,
                    t!("Nutritional values must be positive numbers"),
                    "nutritionalInfo",
                ));
            }
        }
        Ok(self)
    }

    /// Every text a person reads as part of the dish, for the allergen guard: title,
    /// description, ingredients with their quantities, steps, tips and substitutions.
    pub fn texts(&self) -> Vec<String> {
        let mut out = vec![self.title.clone(), self.description.clone()];
        out.extend(
            self.ingredients
                .iter()
                .map(|i| format!("{} {}", i.quantity, i.name)),
        );
        out.extend(self.instructions.iter().cloned());
        out.extend(self.tips.iter().cloned());
        for s in &self.substitutions {
            out.push(s.ingredient.clone());
            out.extend(s.alternatives.iter().cloned());
        }
        out
    }
}

fn line(text: &str, max: usize, field: &str) -> Result<String, Invalid> {
    let text = sanitize_line(text);
    if char_len(&text) > max {
        return Err(Invalid::new(
            SAVE_TITLE,
            too_long_message(field_label(field), max),
            field,
        ));
    }
    Ok(text)
}

fn block(text: &str, field: &str) -> Result<String, Invalid> {
    let text = sanitize(text);
    if char_len(&text) > GENERAL_TEXT_MAX {
        return Err(Invalid::new(
            SAVE_TITLE,
            too_long_message(field_label(field), GENERAL_TEXT_MAX),
            field,
        ));
    }
    Ok(text)
}

fn blocks(texts: &[String], max: usize, field: &str) -> Result<Vec<String>, Invalid> {
    let mut out = Vec::new();
    for t in texts {
        let t = block(t, field)?;
        if !t.is_empty() {
            out.push(t);
        }
    }
    if out.len() > max {
        return Err(too_many(field, max));
    }
    Ok(out)
}

fn too_many(field: &str, max: usize) -> Invalid {
    Invalid::new(
        SAVE_TITLE,
        t!(
            "Please keep the list to {{max}} entries or fewer",
            max = max
        ),
        field,
    )
}

fn minutes(value: u32, field: &str) -> Result<(), Invalid> {
    if value > MINUTES_MAX {
        return Err(Invalid::new(
            SAVE_TITLE,
            t!("Times must be at most {{max}} minutes", max = MINUTES_MAX),
            field,
        ));
    }
    Ok(())
}

/// Where a saved recipe came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    #[default]
    Generated,
    /// Typed in by a parent: the family's own dish.
    Own,
    /// Read from a web page, pasted text or another Highchair's export.
    Imported,
}

/// A recipe saved by a family.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recipe {
    pub id: RecipeId,
    pub family: FamilyId,
    pub created_by: UserId,
    #[serde(default)]
    pub source: Source,
    pub content: RecipeContent,
    /// The page an imported recipe came from.
    #[serde(default)]
    pub source_url: Option<String>,
    /// Its picture, a photo of the family's.
    #[serde(default)]
    pub photo: Option<MediaId>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(default = "first_version")]
    pub version: u64,
}

impl Recipe {
    pub fn create(
        family: FamilyId,
        created_by: UserId,
        source: Source,
        content: RecipeContent,
        now: DateTime<Utc>,
    ) -> Recipe {
        Recipe {
            id: RecipeId::new(),
            family,
            created_by,
            source,
            content,
            source_url: None,
            photo: None,
            created_at: now,
            updated_at: now,
            version: first_version(),
        }
    }
}

/// Longest source address kept (browsers handle longer ones; recipe pages never need them).
pub const SOURCE_URL_MAX: usize = 2000;

/// A recipe's source address, checked: an http or https address, or none when empty.
pub fn source_url(text: &str) -> Result<Option<String>, Invalid> {
    let url = text.trim();
    if url.is_empty() {
        return Ok(None);
    }
    let lower = url.to_ascii_lowercase();
    let host = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"));
    // A host right after the scheme ("https://" alone, or "https:///path", is none).
    let web = host.is_some_and(|h| h.starts_with(|c: char| c.is_alphanumeric() || c == '['))
        && !url.chars().any(|c| c.is_whitespace() || c.is_control());
    if !web {
        return Err(Invalid::new(
            SAVE_TITLE,
            t!("The source must be a web address starting with http:// or https://"),
            "sourceUrl",
        ));
    }
    if url.len() > SOURCE_URL_MAX {
        return Err(Invalid::new(
            SAVE_TITLE,
            too_long_message(field_label("sourceUrl"), SOURCE_URL_MAX),
            "sourceUrl",
        ));
    }
    Ok(Some(url.to_string()))
}

/// What a parent asks the generator for, checked (spec sections 5, 7 and 9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerateRequest {
    pub ingredients: Vec<String>,
    pub dietary_restrictions: Vec<String>,
    pub allergies: Vec<String>,
    pub servings: u32,
    pub difficulty: Difficulty,
    /// How many recipes.
    pub count: u32,
}

/// The request as it arrives; `None` takes the default.
#[derive(Debug, Clone, Default)]
pub struct GenerateFields {
    pub ingredients: Vec<String>,
    pub dietary_restrictions: Vec<String>,
    pub allergies: Vec<String>,
    pub servings: Option<u32>,
    pub difficulty: Option<String>,
    pub count: Option<u32>,
}

impl GenerateRequest {
    pub fn new(fields: GenerateFields) -> Result<GenerateRequest, Invalid> {
        const TITLE: Text = t!("Error generating recipes");
        let ingredients = free_list(&fields.ingredients, "ingredients", REQUEST_INGREDIENTS_MAX)?;
        if ingredients.is_empty() {
            return Err(Invalid::new(
                t!("No ingredients provided"),
                t!("Please select at least one ingredient"),
                "ingredients",
            ));
        }
        let servings = fields.servings.unwrap_or(DEFAULT_SERVINGS);
        if !SERVINGS.contains(&servings) {
            return Err(Invalid::new(
                TITLE,
                t!("Servings must be 1, 2, 3, 4, 5, 6, 8 or 10"),
                "servings",
            ));
        }
        let count = fields.count.unwrap_or(DEFAULT_COUNT);
        if !(COUNT_MIN..=COUNT_MAX).contains(&count) {
            return Err(Invalid::new(
                TITLE,
                t!(
                    "Number of recipes must be between {{min}} and {{max}}",
                    min = COUNT_MIN,
                    max = COUNT_MAX
                ),
                "quantity",
            ));
        }
        let difficulty = match fields.difficulty.as_deref().map(str::trim) {
            None | Some("") => Difficulty::Easy,
            Some(text) => Difficulty::parse(text).ok_or_else(|| {
                Invalid::new(
                    TITLE,
                    t!("Difficulty must be easy, moderate or hard"),
                    "difficulty",
                )
            })?,
        };
        let (allergies, dietary_restrictions) =
            request_rules(&fields.allergies, &fields.dietary_restrictions)?;
        Ok(GenerateRequest {
            ingredients,
            dietary_restrictions,
            allergies,
            servings,
            difficulty,
            count,
        })
    }
}

/// A request's allergies and dietary restrictions, checked as a generation request checks
/// them (also for the ingredient picker's marks before anything is asked).
pub fn request_rules(
    allergies: &[String],
    restrictions: &[String],
) -> Result<(Vec<String>, Vec<String>), Invalid> {
    Ok((
        free_list(allergies, "allergies", tags::TAGS_MAX)?,
        free_list(restrictions, "dietaryRestrictions", tags::TAGS_MAX)?,
    ))
}

/// Free-text list entries: sanitised, at most 1000 characters each (spec section 5), empty and
/// repeated entries dropped, at most `max` of them.
fn free_list(entries: &[String], field: &str, max: usize) -> Result<Vec<String>, Invalid> {
    tags::clean_within(entries, &t!("Invalid input"), field, GENERAL_TEXT_MAX, max)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_source_is_a_web_address_with_a_host() {
        assert_eq!(source_url("  ").unwrap(), None);
        assert_eq!(
            source_url(" https://example.org/soup ").unwrap().as_deref(),
            Some("https://example.org/soup")
        );
        assert!(source_url("HTTP://Example.org").is_ok());
        for bad in [
            "https://",
            "https:///soup",
            "javascript:alert(1)",
            "ftp://example.org",
            "example.org",
            "https://exa mple.org",
        ] {
            let err = source_url(bad).unwrap_err();
            assert_eq!(err.field.as_deref(), Some("sourceUrl"), "{bad}");
        }
        let long = format!("https://example.org/{}", "a".repeat(SOURCE_URL_MAX));
        assert!(
            source_url(&long)
                .unwrap_err()
                .message
                .to_string()
                .contains("2000")
        );
    }

    pub fn fields(ingredients: &[&str]) -> GenerateFields {
        GenerateFields {
            ingredients: ingredients.iter().map(|s| s.to_string()).collect(),
            ..GenerateFields::default()
        }
    }

    pub fn content(title: &str, ingredients: &[&str]) -> RecipeContent {
        RecipeContent {
            title: title.into(),
            ingredients: ingredients
                .iter()
                .map(|n| Ingredient {
                    name: n.to_string(),
                    quantity: "1".into(),
                })
                .collect(),
            instructions: vec!["Cook it.".into()],
            ..RecipeContent::default()
        }
    }

    #[test]
    fn a_request_takes_the_spec_defaults() {
        let r = GenerateRequest::new(fields(&[" Rice ", "", "rice", "Peas"])).unwrap();
        assert_eq!(r.ingredients, ["Rice", "Peas"]);
        assert_eq!((r.servings, r.count), (2, 3));
        assert_eq!(r.difficulty, Difficulty::Easy);
    }

    #[test]
    fn a_request_without_ingredients_says_so_in_the_specs_words() {
        let err = GenerateRequest::new(fields(&["  "])).unwrap_err();
        assert_eq!(err.title, "No ingredients provided");
        assert_eq!(err.message, "Please select at least one ingredient");
    }

    #[test]
    fn servings_count_difficulty_and_lengths_are_bounded() {
        for servings in [0, 7, 9, 11, 100] {
            let f = GenerateFields {
                servings: Some(servings),
                ..fields(&["Rice"])
            };
            assert_eq!(
                GenerateRequest::new(f).unwrap_err().field.unwrap(),
                "servings"
            );
        }
        for s in SERVINGS {
            let f = GenerateFields {
                servings: Some(s),
                ..fields(&["Rice"])
            };
            assert!(GenerateRequest::new(f).is_ok());
        }
        for count in [0, 6] {
            let f = GenerateFields {
                count: Some(count),
                ..fields(&["Rice"])
            };
            assert_eq!(
                GenerateRequest::new(f).unwrap_err().field.unwrap(),
                "quantity"
            );
        }
        let f = GenerateFields {
            difficulty: Some("Chef-Level Skills".into()),
            ..fields(&["Rice"])
        };
        assert_eq!(
            GenerateRequest::new(f).unwrap().difficulty,
            Difficulty::Hard
        );
        let f = GenerateFields {
            difficulty: Some("impossible".into()),
            ..fields(&["Rice"])
        };
        assert!(GenerateRequest::new(f).is_err());
        let long = "x".repeat(1001);
        let f = GenerateFields {
            allergies: vec![long],
            ..fields(&["Rice"])
        };
        let err = GenerateRequest::new(f).unwrap_err();
        assert_eq!(err.message, "Each allergy must be 1000 characters or less");
    }

    #[test]
    fn a_huge_list_is_refused_before_any_work() {
        let many: Vec<String> = (0..40_000).map(|i| format!("food {i}")).collect();
        let f = GenerateFields {
            ingredients: many.clone(),
            ..GenerateFields::default()
        };
        let started = std::time::Instant::now();
        assert_eq!(
            GenerateRequest::new(f).unwrap_err().field.unwrap(),
            "ingredients"
        );
        let f = GenerateFields {
            allergies: many,
            ..fields(&["Rice"])
        };
        assert_eq!(
            GenerateRequest::new(f).unwrap_err().field.unwrap(),
            "allergies"
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn a_saved_recipe_needs_a_title_an_ingredient_and_a_step() {
        assert_eq!(
            content(" ", &["Rice"])
                .validate()
                .unwrap_err()
                .field
                .unwrap(),
            "title"
        );
        assert_eq!(
            content("Rice", &[" "])
                .validate()
                .unwrap_err()
                .field
                .unwrap(),
            "ingredients"
        );
        let mut no_steps = content("Rice", &["Rice"]);
        no_steps.instructions = vec!["  ".into()];
        assert_eq!(
            no_steps.validate().unwrap_err().field.unwrap(),
            "instructions"
        );
        let ok = content("  Rice   pudding ", &["Rice"]).validate().unwrap();
        assert_eq!(ok.title, "Rice pudding");
    }

    #[test]
    fn a_saved_recipe_rejects_nonsense_numbers() {
        let mut r = content("Rice", &["Rice"]);
        r.preparation_time = MINUTES_MAX + 1;
        assert!(r.validate().is_err());
        let mut r = content("Rice", &["Rice"]);
        r.estimated_cost = Some(Cost {
            amount: -1.0,
            currency: "GBP".into(),
        });
        assert!(r.validate().is_err());
        let mut r = content("Rice", &["Rice"]);
        r.nutritional_info = Some(Nutrition {
            calories: f64::NAN,
            ..Nutrition::default()
        });
        assert!(r.validate().is_err());
    }

    #[test]
    fn texts_cover_what_a_person_reads() {
        let mut r = content("Satay noodles", &["Groundnuts"]);
        r.substitutions = vec![Substitution {
            ingredient: "Rice".into(),
            alternatives: vec!["Couscous".into()],
        }];
        let texts = r.texts();
        for t in [
            "Satay noodles",
            "1 Groundnuts",
            "Cook it.",
            "Rice",
            "Couscous",
        ] {
            assert!(texts.iter().any(|x| x == t), "{t}");
        }
    }
}
