//! The allergen guard: no recipe that contains an allergen of the request, or of the family's
//! children, or that breaks a dietary restriction, is ever shown. It reads every text of a
//! recipe through the one allergen matcher (`allergens::conflicts`), so the meal tracker and
//! the recipes agree on what "contains milk" means.

use super::allergens::{Allergen, conflicts};
use super::diet::{Diet, MEAT_FREE_MARKERS};
use super::recipe::RecipeContent;

/// Why a rule is there.
#[derive(Debug, Clone, PartialEq)]
enum Origin {
    Allergy,
    Diet(String),
}

/// A recipe that was not shown, and why ("Satay sauce contains peanuts (satay)").
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Withheld {
    pub title: String,
    pub reasons: Vec<String>,
}

/// The rules of one request.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    /// Allergy texts for the matcher, each with where it came from.
    rules: Vec<(String, Origin)>,
    /// Restrictions the guard cannot check ("low sugar"); the generator is still asked.
    unchecked: Vec<String>,
}

impl Guard {
    /// `allergies`: the request's and the children's; `restrictions`: the request's.
    pub fn new(allergies: &[String], restrictions: &[String]) -> Guard {
        let mut guard = Guard::default();
        for a in allergies {
            guard.add(a.trim(), Origin::Allergy);
        }
        for r in restrictions {
            match Diet::parse(r) {
                Some(diet) => {
                    let label = diet.label();
                    for word in diet.excluded() {
                        guard.add(&word, Origin::Diet(label.clone()));
                    }
                }
                None => guard.unchecked.push(r.trim().to_string()),
            }
        }
        guard
    }

    fn add(&mut self, text: &str, origin: Origin) {
        let taken = self.rules.iter().any(|(t, _)| t.eq_ignore_ascii_case(text));
        if !text.is_empty() && !taken {
            self.rules.push((text.to_string(), origin));
        }
    }

    /// The allergies as typed (the request's and the children's), for a prompt.
    pub fn allergy_texts(&self) -> Vec<String> {
        self.rules
            .iter()
            .filter(|(_, o)| *o == Origin::Allergy)
            .map(|(t, _)| t.clone())
            .collect()
    }

    /// The allergens the rules name ("dairy" is milk; "strawberry" names none), for data that
    /// knows an ingredient's allergens beyond its words (a catalogue's tags).
    pub fn allergens(&self) -> Vec<Allergen> {
        let mut out = Vec::new();
        for (text, _) in &self.rules {
            for a in Allergen::from_allergy_text(text) {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Restrictions that were passed on but cannot be checked.
    pub fn unchecked(&self) -> &[String] {
        &self.unchecked
    }

    /// Why these texts break a rule; empty when they do not.
    pub fn reasons(&self, texts: &[String]) -> Vec<String> {
        if self.rules.is_empty() {
            return Vec::new();
        }
        let allergies: Vec<String> = self.rules.iter().map(|(t, _)| t.clone()).collect();
        let mut out: Vec<String> = Vec::new();
        for conflict in conflicts(texts, &allergies) {
            let origin = self
                .rules
                .iter()
                .find(|(t, _)| *t == conflict.allergy)
                .map(|(_, o)| o);
            // "Quorn mince" and "veggie meatballs" are what a vegetarian eats.
            if matches!(origin, Some(Origin::Diet(_))) {
                let food = conflict.food.to_lowercase();
                if MEAT_FREE_MARKERS.iter().any(|m| food.contains(m)) {
                    continue;
                }
            }
            let reason = match origin {
                Some(Origin::Diet(label)) => {
                    format!("{} is not {label} ({})", conflict.food, conflict.matched)
                }
                _ => conflict.to_string(),
            };
            if !out.contains(&reason) {
                out.push(reason);
            }
        }
        out
    }

    /// Whether one food may go into a recipe.
    pub fn allows(&self, food: &str) -> bool {
        self.reasons(&[food.to_string()]).is_empty()
    }

    /// Keeps the recipes that break no rule, and says which were withheld and why.
    pub fn split(&self, recipes: Vec<RecipeContent>) -> (Vec<RecipeContent>, Vec<Withheld>) {
        let mut kept = Vec::new();
        let mut withheld = Vec::new();
        for recipe in recipes {
            let reasons = self.reasons(&recipe.texts());
            if reasons.is_empty() {
                kept.push(recipe);
            } else {
                withheld.push(Withheld {
                    title: recipe.title.clone(),
                    reasons,
                });
            }
        }
        (kept, withheld)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::recipe::Substitution;
    use crate::domain::recipe::tests::content;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_hidden_allergen_withholds_the_recipe_with_a_reason() {
        let guard = Guard::new(&strings(&["Peanuts", "dairy"]), &[]);
        let bad = content("Satay chicken skewers", &["Chicken", "Groundnut sauce"]);
        let cheesy = content("Risotto", &["Rice", "Parmigiano"]);
        let good = content("Chicken and rice", &["Chicken", "Rice", "Peas"]);
        let (kept, withheld) = guard.split(vec![bad, good.clone(), cheesy]);
        assert_eq!(kept, vec![good]);
        assert_eq!(withheld.len(), 2);
        assert!(withheld[0].reasons.iter().any(|r| r.contains("peanuts")));
        assert!(withheld[1].reasons.iter().any(|r| r.contains("milk")));
    }

    #[test]
    fn steps_and_alternatives_are_read_too() {
        let guard = Guard::new(&strings(&["egg"]), &[]);
        let mut r = content("Rice cakes", &["Rice"]);
        r.instructions = vec!["Brush with beaten egg and bake.".into()];
        assert!(!guard.reasons(&r.texts()).is_empty());
        let mut r = content("Rice cakes", &["Rice"]);
        r.substitutions = vec![Substitution {
            ingredient: "Oil".into(),
            alternatives: vec!["Mayonnaise".into()],
        }];
        assert!(!guard.reasons(&r.texts()).is_empty());
        let mut r = content("Aubergine rice", &["Aubergine", "Rice"]);
        r.instructions = vec!["Serve without egg.".into()];
        assert!(
            guard.reasons(&r.texts()).is_empty(),
            "negated, and eggplant is no egg"
        );
    }

    #[test]
    fn restrictions_are_checked_and_say_so() {
        let guard = Guard::new(&[], &strings(&["Vegetarian", "low sugar"]));
        assert_eq!(guard.unchecked(), ["low sugar"]);
        let reasons = guard.reasons(&strings(&["Beef mince"]));
        assert_eq!(reasons[0], "Beef mince is not vegetarian (beef)");
        assert!(guard.allows("Red lentils"));
        assert!(guard.allows("Quorn mince"));
        assert!(guard.allows("Veggie meatballs"));
        assert!(!guard.allows("Mini meatballs"));
    }

    /// The synonym and derivative table, through the guard, and its false friends.
    #[test]
    fn synonyms_and_derivatives_are_caught_and_look_alikes_are_not() {
        let caught: &[(&str, &[&str])] = &[
            (
                "milk",
                &[
                    "Butter",
                    "Cheddar cheese",
                    "Double cream",
                    "Greek yoghurt",
                    "Whey powder",
                    "Casein",
                    "Ghee",
                ],
            ),
            ("egg", &["Mayonnaise", "Meringue nests", "Scrambled eggs"]),
            ("peanut", &["Groundnut oil", "Satay sauce", "Peanuts"]),
            (
                "gluten",
                &[
                    "Plain flour",
                    "Pasta",
                    "Wholemeal bread",
                    "Couscous",
                    "Semolina",
                    "Soy sauce",
                ],
            ),
            ("wheat", &["Self-raising flour", "Spaghetti"]),
            ("sesame", &["Tahini", "Hummus", "Sesame seeds"]),
            (
                "fish",
                &["Anchovies", "Worcestershire sauce", "Salmon fillets"],
            ),
            ("shellfish", &["King prawns", "Mussels", "Crab"]),
            ("soy", &["Tofu", "Edamame beans", "Soya milk"]),
            ("tree nuts", &["Ground almonds", "Cashews", "Pesto"]),
            ("celery", &["Celeriac", "Vegetable stock cube"]),
            ("mustard", &["Dijon mustard"]),
            ("sulphites", &["Dried apricots", "White wine"]),
            ("lupin", &["Lupin flour"]),
        ];
        for (allergy, foods) in caught {
            let guard = Guard::new(&[allergy.to_string()], &[]);
            for food in *foods {
                assert!(!guard.allows(food), "{allergy}: {food} should be caught");
            }
        }
        let allowed: &[(&str, &[&str])] = &[
            ("egg", &["Eggplant", "Aubergine"]),
            (
                "milk",
                &[
                    "Butternut squash",
                    "Coconut milk",
                    "Oat milk",
                    "Butter beans",
                ],
            ),
            ("tree nuts", &["Coconut", "Nutmeg", "Pine nuts"]),
            ("gluten", &["Rice noodles", "Cornflour", "Buckwheat"]),
        ];
        for (allergy, foods) in allowed {
            let guard = Guard::new(&[allergy.to_string()], &[]);
            for food in *foods {
                assert!(guard.allows(food), "{allergy}: {food} is not an allergen");
            }
        }
    }

    #[test]
    fn an_empty_guard_allows_everything() {
        let guard = Guard::new(&strings(&["  "]), &[]);
        assert!(guard.is_empty());
        assert!(guard.allows("Peanut butter"));
    }
}
