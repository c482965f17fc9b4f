//! Recipe generation: the `RecipeGenerator` trait with its two implementations (`builtin`,
//! offline and instant; `ollama`, a local model), the ingredient catalogue, and the screening
//! every recipe passes before anyone sees it. Generation runs as a job (see `jobs::generation`).

pub mod builtin;
pub mod catalogue;
pub mod normalise;
pub mod ollama;

use std::sync::Arc;

use futures_util::future::BoxFuture;

use crate::domain::allergens::ReadFood;
use crate::domain::diet::Diet;
use crate::domain::generation::Failure;
use crate::domain::recipe::{GenerateRequest, RecipeContent};
use crate::domain::recipe_guard::{Guard, Withheld};
use crate::i18n::Arg;
use catalogue::Catalogue;

/// How far a generation has come: characters of answer received, of about how many.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    pub received: usize,
    pub expected: usize,
}

impl Progress {
    /// 0 to 99 while running: the last percent is for checking the answer.
    pub fn percent(self) -> u8 {
        if self.expected == 0 {
            return 0;
        }
        ((self.received * 100 / self.expected).min(99)) as u8
    }
}

/// What a generator made: the recipes that passed the guard, those withheld and why, and
/// notes for the parent (ingredients left out, restrictions that could not be checked).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    pub recipes: Vec<RecipeContent>,
    pub withheld: Vec<Withheld>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GenerateError {
    /// The configured model is not installed on the Ollama server.
    #[error("the model {model} is not installed on the Ollama server")]
    ModelMissing { model: String },
    /// Nothing answers at the Ollama address, or the connection broke.
    #[error("the Ollama server cannot be reached: {detail}")]
    Unreachable { detail: String },
    #[error("no answer within {secs} seconds")]
    Timeout { secs: u64 },
    /// The model answered, but not with recipes we can use.
    #[error("unusable answer: {detail}")]
    Unusable { detail: String },
    /// Every recipe broke a rule (also after asking again).
    #[error("every recipe was withheld")]
    AllWithheld { withheld: Vec<Withheld> },
    /// The ingredients make no dish (only seasonings, or all ruled out: `all_left_out`).
    #[error("no recipe from these ingredients")]
    NothingToMake {
        notes: Vec<String>,
        all_left_out: bool,
    },
}

impl GenerateError {
    /// A short description safe to show anyone (no addresses, no library errors).
    pub fn public(&self) -> &'static str {
        match self {
            GenerateError::ModelMissing { .. } => "the model is not installed on the Ollama server",
            GenerateError::Unreachable { .. } => "the Ollama server cannot be reached",
            GenerateError::Timeout { .. } => "the model did not answer in time",
            GenerateError::Unusable { .. } => "the model's answer could not be used",
            GenerateError::AllWithheld { .. } | GenerateError::NothingToMake { .. } => {
                "no recipe could be made"
            }
        }
    }

    /// What happened, as a job keeps it (the details stay in the log).
    pub fn failure(&self) -> Failure {
        match self {
            GenerateError::ModelMissing { model } => Failure::ModelMissing {
                model: model.clone(),
            },
            GenerateError::Unreachable { .. } => Failure::Unreachable,
            GenerateError::Timeout { secs } => Failure::Timeout { secs: *secs },
            GenerateError::Unusable { .. } => Failure::Unusable,
            GenerateError::AllWithheld { .. } => Failure::AllWithheld,
            GenerateError::NothingToMake {
                notes,
                all_left_out,
            } => Failure::NothingToMake {
                notes: notes.clone(),
                all_left_out: *all_left_out,
            },
        }
    }
}

/// Whether the generator can work, for `/api/health` and before a job is queued.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Ok,
    Unavailable(GenerateError),
}

pub type ProgressFn<'a> = &'a (dyn Fn(Progress) + Send + Sync);

/// A source of recipes. Every implementation screens its recipes with `screen` before
/// returning them; the job runner checks again.
pub trait RecipeGenerator: Send + Sync {
    /// `builtin` or `ollama`.
    fn name(&self) -> &'static str;

    fn generate<'a>(
        &'a self,
        request: &'a GenerateRequest,
        guard: &'a Guard,
        progress: ProgressFn<'a>,
    ) -> BoxFuture<'a, Result<Outcome, GenerateError>>;

    fn status(&self) -> BoxFuture<'_, Status>;
}

/// Splits recipes into those that pass the guard and those withheld. Beyond the words, an
/// ingredient the catalogue knows is checked against its allergen tags (ketchup's celery).
pub fn screen(guard: &Guard, recipes: Vec<RecipeContent>) -> (Vec<RecipeContent>, Vec<Withheld>) {
    let (kept, mut withheld) = guard.split(recipes);
    // No allergen to look for: no ingredient is looked up.
    if guard.allergens().is_empty() {
        return (kept, withheld);
    }
    let mut passed = Vec::new();
    for recipe in kept {
        let reasons = tagged(guard, &known(&recipe));
        if reasons.is_empty() {
            passed.push(recipe);
        } else {
            withheld.push(Withheld {
                title: recipe.title.clone(),
                reasons,
            });
        }
    }
    (passed, withheld)
}

/// A recipe's ingredients the catalogue knows, each with its item.
fn known(recipe: &RecipeContent) -> Vec<(&str, &'static catalogue::Item)> {
    let catalogue = Catalogue::get();
    recipe
        .ingredients
        .iter()
        .filter_map(|i| Some((i.name.as_str(), catalogue.find(&i.name)?)))
        .collect()
}

/// The ingredients (`known`) whose catalogue tags name an allergen the guard rules out.
fn tagged(guard: &Guard, known: &[(&str, &catalogue::Item)]) -> Vec<String> {
    let banned = guard.allergens();
    if banned.is_empty() {
        return Vec::new();
    }
    known
        .iter()
        .filter_map(|(name, item)| {
            let hit = item.allergens().into_iter().find(|a| banned.contains(a))?;
            Some(
                t!(
                    "{{food}} contains {{allergy}}",
                    food = Arg::Food {
                        name: name.to_string(),
                        lowercase: false
                    },
                    allergy = hit.in_sentence()
                )
                .here(),
            )
        })
        .collect()
}

/// The dietary badges a recipe may show: of the restrictions asked for, the ones the recipe
/// claims and the common diets, those the guard can check and every ingredient meets, by its
/// words and by the catalogue's tags (a stock cube's wheat). A model's "Vegan" on a dish with
/// butter, or an unverifiable "low sugar", is dropped.
pub fn verified_diets(recipe: &RecipeContent, requested: &[String]) -> Vec<String> {
    const COMMON: [&str; 5] = [
        "Vegetarian",
        "Vegan",
        "Gluten-free",
        "Dairy-free",
        "Nut-free",
    ];
    let candidates = requested
        .iter()
        .chain(&recipe.dietary_restrictions)
        .map(String::as_str)
        .chain(COMMON);
    // The recipe's texts are read, and its ingredients found, once for every diet.
    let read = ReadFood::all(&recipe.texts());
    let known = known(recipe);
    let mut out: Vec<String> = Vec::new();
    let mut shown: Vec<Vec<Diet>> = Vec::new();
    for c in candidates {
        // Once per diet, however worded: a French "végétarien" is the common "Vegetarian".
        let Some(diet) = Diet::parse(c) else {
            continue;
        };
        if !shown.contains(&diet) {
            let guard = Guard::new(&[], &[c.to_string()]);
            if guard.reasons_read(&read).is_empty() && tagged(&guard, &known).is_empty() {
                out.push(c.to_string());
                shown.push(diet);
            }
        }
    }
    out
}

/// The generator the settings name.
pub fn from_settings(
    settings: &crate::config::RecipeSettings,
    currency: &str,
) -> Arc<dyn RecipeGenerator> {
    match settings.generator {
        crate::config::GeneratorKind::Builtin => Arc::new(builtin::Builtin::new(currency)),
        crate::config::GeneratorKind::Ollama => Arc::new(ollama::OllamaGenerator::new(
            &settings.ollama_url,
            &settings.ollama_model,
            std::time::Duration::from_secs(settings.timeout_secs),
            currency,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::recipe::tests::content;

    #[test]
    fn screening_reads_catalogue_tags_the_words_do_not_show() {
        let guard = Guard::new(&["celery".into()], &[]);
        let ketchup = content("Chicken dippers", &["Chicken breast", "Tomato ketchup"]);
        let plain = content("Chicken and rice", &["Chicken breast", "White rice"]);
        let (kept, withheld) = screen(&guard, vec![ketchup, plain.clone()]);
        assert_eq!(kept, vec![plain]);
        assert_eq!(withheld[0].reasons, ["Tomato ketchup contains celery"]);
    }

    #[test]
    fn only_diets_the_recipe_meets_are_shown() {
        let mut r = content("Buttered peas", &["Peas", "Butter"]);
        r.dietary_restrictions = vec!["Vegan".into(), "low sugar".into()];
        let shown = verified_diets(&r, &["Vegetarian".into()]);
        assert_eq!(shown, ["Vegetarian", "Gluten-free", "Nut-free"]);
        // Worded in the family's language: checked the same, shown once.
        let mut r = content("Petits pois au beurre", &["Petits pois", "Beurre"]);
        r.dietary_restrictions = vec!["Végétalien".into(), "Sin gluten".into()];
        let shown = crate::i18n::scope::within_sync(crate::i18n::Lang::Fr, || {
            verified_diets(&r, &["végétarien".into()])
        });
        assert_eq!(shown, ["végétarien", "Sin gluten", "Nut-free"]);
        let r = content("Poulet rôti", &["Blanc de poulet"]);
        let shown = verified_diets(&r, &["vegetariano".into(), "Sin carne".into()]);
        assert!(
            !shown
                .iter()
                .any(|d| d.starts_with("Veg") || d.starts_with("veg")),
            "{shown:?}"
        );
        assert!(!shown.iter().any(|d| d == "Sin carne"), "{shown:?}");
    }

    /// A badge claims only what every ingredient supports (issue 26: a stir-fry with soy sauce
    /// was badged gluten-free).
    #[test]
    fn a_badge_needs_every_compound_ingredient_to_support_it() {
        let shown = |ingredients: &[(&str, &str)]| {
            let mut r = content("Dish", &[]);
            r.ingredients = ingredients
                .iter()
                .map(|(name, quantity)| crate::domain::recipe::Ingredient {
                    name: (*name).into(),
                    quantity: (*quantity).into(),
                })
                .collect();
            verified_diets(&r, &[])
        };
        let soy = shown(&[("Chicken breast", "160 g"), ("Soy sauce", "2 tsp")]);
        assert_eq!(soy, ["Dairy-free", "Nut-free"]);
        let stock = shown(&[("Carrot", "2"), ("Vegetable stock cube", "1")]);
        assert_eq!(stock, ["Vegetarian", "Vegan", "Dairy-free", "Nut-free"]);
        let worcestershire = shown(&[("Potato", "2"), ("Worcestershire sauce", "1 tsp")]);
        assert_eq!(worcestershire, ["Dairy-free", "Nut-free"]);
        let pesto = shown(&[("Penne", "200 g"), ("Pesto", "2 tbsp")]);
        assert_eq!(pesto, ["Vegetarian"]);
        let baking = shown(&[("Rice flour", "100 g"), ("Baking powder", "1 tsp")]);
        assert_eq!(baking, ["Vegetarian", "Vegan", "Dairy-free", "Nut-free"]);
        let plain = shown(&[("Rice noodles", "100 g"), ("Broccoli", "1 head")]);
        assert_eq!(
            plain,
            [
                "Vegetarian",
                "Vegan",
                "Gluten-free",
                "Dairy-free",
                "Nut-free"
            ]
        );
    }

    #[test]
    fn progress_never_claims_done_before_the_answer_is_checked() {
        let p = Progress {
            received: 5000,
            expected: 1000,
        };
        assert_eq!(p.percent(), 99);
        assert_eq!(
            Progress {
                received: 250,
                expected: 1000
            }
            .percent(),
            25
        );
    }
}
