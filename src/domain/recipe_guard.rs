//! The allergen guard: no recipe that contains an allergen of the request, or of the family's
//! children, or that breaks a dietary restriction, is ever shown. It reads every text of a
//! recipe through the one allergen matcher (`allergens::conflicts_of`, which the meal
//! tracker's `conflicts` uses too), so the meal tracker and the recipes agree on what
//! "contains milk" means.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::allergens::{Allergen, Allergy, Conflict, ReadFood, conflicts_of};
use super::diet::{Diet, MEAT_FREE_MARKERS, is_listed_word, is_meat_word, listed_words};
use super::food_safety::{self, Age, InRecipe};
use super::recipe::RecipeContent;
use crate::i18n::{Arg, Lang, Text, scope};

/// Why a rule is there.
#[derive(Debug, Clone, PartialEq)]
enum Origin {
    /// An allergy of these children; of the request (or of children not told apart) when
    /// none are named.
    Allergy { children: Vec<String> },
    /// The diet as a reason names it ("vegetarian").
    Diet(Text),
}

/// A recipe that was not shown, and why ("Satay sauce contains peanuts (satay)"): worded in
/// the language of the request it answers, as it is kept with the job.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Withheld {
    pub title: String,
    pub reasons: Vec<String>,
}

/// The rules of one request: the allergies and diets that withhold a recipe, and the
/// children's ages a generator adapts its recipes to (those never withhold one).
#[derive(Debug, Clone, Default)]
pub struct Guard {
    /// Allergies for the matcher (read once), each with where it came from.
    rules: Vec<(Allergy, Origin)>,
    /// Restrictions the guard cannot check ("low sugar"); the generator is still asked.
    unchecked: Vec<String>,
    /// The children with an age, youngest first.
    ages: Vec<(String, Age)>,
}

impl Guard {
    /// `allergies`: the request's (or the children's, not told apart); `restrictions`: the
    /// request's.
    pub fn new(allergies: &[String], restrictions: &[String]) -> Guard {
        let mut guard = Guard::default();
        for a in allergies {
            guard.add(
                a.trim(),
                Origin::Allergy {
                    children: Vec::new(),
                },
            );
        }
        for r in restrictions {
            match Diet::parse(r) {
                Some(diets) => {
                    for diet in diets {
                        let label = diet.label();
                        for word in diet.excluded() {
                            guard.add(&word, Origin::Diet(label.clone()));
                        }
                    }
                }
                None => guard.unchecked.push(r.trim().to_string()),
            }
        }
        guard
    }

    /// Adds a child's allergies, so that what they leave out can say whose they are.
    pub fn with_child(mut self, name: &str, allergies: &[String]) -> Guard {
        for a in allergies {
            self.add(
                a.trim(),
                Origin::Allergy {
                    children: vec![name.to_string()],
                },
            );
        }
        self
    }

    /// Adds a child's age (none: the child has no age, and no age rule applies). Of equal
    /// months, a birth month counts as younger: an age in years is its lower bound.
    pub fn with_age(mut self, name: &str, age: Option<Age>) -> Guard {
        if let Some(age) = age {
            let key = |a: &Age| (a.months, !a.from_birth_month);
            let at = self.ages.partition_point(|(_, a)| key(a) <= key(&age));
            self.ages.insert(at, (name.to_string(), age));
        }
        self
    }

    /// The youngest child (a model's prompt names their rules).
    pub fn youngest(&self) -> Option<(&str, Age)> {
        self.ages.first().map(|(name, age)| (name.as_str(), *age))
    }

    /// What a recipe does with `food` so it is fine for every child with an age: left out
    /// if one of them may not have it, else prepared as the youngest needs (as is when no
    /// child has an age). Every child is asked, not only the youngest: an age in years and a
    /// birth month of the same months are read differently by the rules.
    pub fn in_recipe(&self, food: &str) -> InRecipe {
        let mut answer = InRecipe::AsIs;
        for (_, age) in &self.ages {
            match food_safety::in_recipe(food, *age) {
                left @ InRecipe::LeftOut(_) => return left,
                prepared @ InRecipe::Prepared(_) if matches!(answer, InRecipe::AsIs) => {
                    answer = prepared
                }
                _ => {}
            }
        }
        answer
    }

    fn add(&mut self, text: &str, origin: Origin) {
        let taken = self
            .rules
            .iter_mut()
            .find(|(a, _)| a.text().eq_ignore_ascii_case(text.trim()));
        match (taken, origin) {
            (None, origin) => {
                if let Some(allergy) = read_allergy(text) {
                    self.rules.push((allergy, origin));
                }
            }
            // The same allergy of several children: one rule, every name.
            (Some((_, Origin::Allergy { children })), Origin::Allergy { children: more }) => {
                for name in more {
                    if !children.contains(&name) {
                        children.push(name);
                    }
                }
            }
            // A child's allergy is the stronger rule where a diet names the same word: it
            // keeps its name, and no "meat-free" marker excuses it.
            (Some((_, taken @ Origin::Diet(_))), origin @ Origin::Allergy { .. }) => {
                *taken = origin;
            }
            (Some(_), _) => {}
        }
    }

    /// The allergies as typed (the request's and the children's), for a prompt.
    pub fn allergy_texts(&self) -> Vec<String> {
        self.rules
            .iter()
            .filter(|(_, o)| matches!(o, Origin::Allergy { .. }))
            .map(|(a, _)| a.text().to_string())
            .collect()
    }

    /// The allergens the rules name ("dairy" is milk; "strawberry" names none), for data that
    /// knows an ingredient's allergens beyond its words (a catalogue's tags).
    pub fn allergens(&self) -> Vec<Allergen> {
        let mut out = Vec::new();
        for (allergy, _) in &self.rules {
            for &a in allergy.allergens() {
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

    /// The matches of these texts that break a rule, with the rule's origin. A diet's word in a
    /// meat-free food ("Quorn mince", "veggie meatballs") is what a vegetarian eats.
    fn breaches(&self, foods: &[ReadFood]) -> Vec<(Conflict, &(Allergy, Origin))> {
        if self.rules.is_empty() {
            return Vec::new();
        }
        // A diet's own word lists are English words, matched by how a food reads.
        let allergies: Vec<(&Allergy, bool)> = self
            .rules
            .iter()
            .map(|(a, o)| (a, matches!(o, Origin::Diet(_)) && is_listed_word(a.text())))
            .collect();
        let mut out = Vec::new();
        for conflict in conflicts_of(foods, &allergies) {
            let Some(rule) = self
                .rules
                .iter()
                .find(|(a, _)| a.text() == conflict.allergy)
            else {
                continue;
            };
            // Only a meat word: "Räuchertofu" is what a vegetarian eats, not what a soya-free
            // diet allows.
            if matches!(rule.1, Origin::Diet(_)) && is_meat_word(rule.0.text()) {
                let food = conflict.food.to_lowercase();
                if MEAT_FREE_MARKERS.iter().any(|m| food.contains(m)) {
                    continue;
                }
            }
            out.push((conflict, rule));
        }
        out
    }

    /// Why these texts break a rule; empty when they do not.
    pub fn reasons(&self, texts: &[String]) -> Vec<Text> {
        if self.rules.is_empty() {
            return Vec::new();
        }
        self.reasons_read(&ReadFood::all(texts))
    }

    /// As [`Guard::reasons`], for texts already read (checked against several guards).
    pub fn reasons_read(&self, foods: &[ReadFood]) -> Vec<Text> {
        let mut out: Vec<Text> = Vec::new();
        for (conflict, (_, origin)) in self.breaches(foods) {
            let reason = match origin {
                Origin::Diet(label) => t!(
                    "{{food}} is not {{diet}} ({{matched}})",
                    food = &conflict.food,
                    diet = label.clone(),
                    matched = &conflict.matched
                ),
                Origin::Allergy { .. } => conflict.message(),
            };
            if !out.contains(&reason) {
                out.push(reason);
            }
        }
        out
    }

    /// Why one chosen ingredient is left out of every recipe, in a parent's words ("Eggs was
    /// left out: Ava is allergic to eggs."), from its words and the allergens a catalogue
    /// lists for it (`tagged`), or from an age rule of the youngest child that no preparation
    /// makes safe ("Honey was left out: for Leo (9 months), no honey before 12 months.");
    /// `None` when it may go in.
    pub fn left_out(&self, food: &str, tagged: &[Allergen]) -> Option<Text> {
        let read = if self.rules.is_empty() {
            Vec::new()
        } else {
            ReadFood::all(&[food.to_string()])
        };
        let found = match self.breaches(&read).into_iter().next() {
            Some((_, rule)) => Some(rule),
            None => self
                .rules
                .iter()
                .find(|(allergy, _)| tagged.iter().any(|a| allergy.allergens().contains(a))),
        };
        let Some((rule, origin)) = found else {
            return self.too_young_for(food);
        };
        let rule = in_sentence(rule.text());
        Some(match origin {
            Origin::Diet(label) => t!(
                "{{food}} was left out: it is not {{diet}}.",
                food = named(food),
                diet = label.clone()
            ),
            Origin::Allergy { children, .. } if !children.is_empty() => t_plural!(
                "{{food}} was left out: {{children}} is allergic to {{allergy}}.",
                "{{food}} was left out: {{children}} are allergic to {{allergy}}.",
                children.len(),
                food = named(food),
                children = Arg::And {
                    items: children.iter().map(Text::as_given).collect(),
                    capitalise: false,
                },
                allergy = rule
            ),
            Origin::Allergy { .. } => t!(
                "{{food}} was left out: you asked for recipes without {{allergy}}.",
                food = named(food),
                allergy = rule
            ),
        })
    }

    /// Why a child (the youngest it applies to) may not have `food` in any form.
    fn too_young_for(&self, food: &str) -> Option<Text> {
        self.ages
            .iter()
            .find_map(|(name, age)| match food_safety::in_recipe(food, *age) {
                InRecipe::LeftOut(rule) => Some(t!(
                    "{{food}} was left out: for {{child}} ({{age}}), {{rule}}.",
                    food = named(food),
                    child = name,
                    age = age.label(),
                    rule = rule.note.clone().with(
                        "food",
                        Arg::Food {
                            name: food.to_string(),
                            lowercase: true
                        }
                    )
                )),
                InRecipe::AsIs | InRecipe::Prepared(_) => None,
            })
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
                    reasons: reasons.iter().map(Text::here).collect(),
                });
            }
        }
        (kept, withheld)
    }
}

/// An allergy read. The diets' own words are read once per language a process reads them in:
/// every request and every dietary badge makes a guard, and a vegan one has about sixty.
fn read_allergy(text: &str) -> Option<Allergy> {
    type Read = HashMap<&'static str, Allergy>;
    static LISTED: [OnceLock<Read>; Lang::ALL.len()] = [const { OnceLock::new() }; Lang::ALL.len()];
    // A food is read for the reader's language.
    let lang = scope::current();
    let listed = LISTED[lang as usize].get_or_init(|| {
        listed_words()
            .filter_map(|w| Some((w, Allergy::new(w)?)))
            .collect()
    });
    listed.get(text).cloned().or_else(|| Allergy::new(text))
}

/// An allergy as typed, inside a sentence: "Peanuts" reads "peanuts", "CMPA" stays.
fn in_sentence(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if !second.is_uppercase() => {
            first.to_lowercase().collect::<String>() + &text[first.len_utf8()..]
        }
        _ => text.to_string(),
    }
}

/// A food in a reason: a catalogue's food in the reader's language.
fn named(food: &str) -> Arg {
    Arg::Food {
        name: food.to_string(),
        lowercase: false,
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
    fn a_left_out_ingredient_says_plainly_whose_allergy_or_which_rule() {
        let guard = Guard::new(&strings(&["sesame"]), &strings(&["Vegetarian"]))
            .with_child("Ava", &strings(&["eggs"]))
            .with_child("Ben", &strings(&["Eggs", "Dairy", "CMPA"]));
        assert_eq!(
            guard
                .left_out("Eggs", &[])
                .map(|t| t.to_string())
                .as_deref(),
            Some("Eggs was left out: Ava and Ben are allergic to eggs.")
        );
        assert_eq!(
            guard
                .left_out("Butter", &[])
                .map(|t| t.to_string())
                .as_deref(),
            Some("Butter was left out: Ben is allergic to dairy.")
        );
        assert_eq!(
            guard
                .left_out("Tahini", &[])
                .map(|t| t.to_string())
                .as_deref(),
            Some("Tahini was left out: you asked for recipes without sesame.")
        );
        assert_eq!(
            guard
                .left_out("Chicken breast", &[])
                .map(|t| t.to_string())
                .as_deref(),
            Some("Chicken breast was left out: it is not vegetarian.")
        );
        // Beyond the words: what the catalogue lists (a ketchup's celery, a stock cube's wheat).
        let guard = Guard::default().with_child("Cleo", &strings(&["gluten"]));
        assert_eq!(
            guard
                .left_out("Mystery cube", &[Allergen::Gluten])
                .map(|t| t.to_string())
                .as_deref(),
            Some("Mystery cube was left out: Cleo is allergic to gluten.")
        );
        assert_eq!(guard.left_out("Carrot", &[]), None);
    }

    /// A parent reads why in their language, the catalogue's foods by their names in it.
    #[test]
    fn a_left_out_ingredient_is_worded_for_the_reader() {
        use crate::i18n::Lang;
        let guard = Guard::new(&[], &strings(&["Vegetarian"]))
            .with_child("Ava", &strings(&["eggs"]))
            .with_child("Ben", &strings(&["eggs"]))
            .with_age("Leo", months(9));
        let eggs = guard.left_out("Eggs", &[]).unwrap();
        assert_eq!(
            eggs.render(Lang::Fr),
            "Œufs : ingrédient retiré, Ava et Ben sont allergiques (eggs)."
        );
        assert_eq!(
            eggs.render(Lang::De),
            "Eier: weggelassen – Ava und Ben sind allergisch gegen eggs."
        );
        assert_eq!(
            guard
                .left_out("Chicken breast", &[])
                .unwrap()
                .render(Lang::Es),
            "Pechuga de pollo: ingrediente quitado, no apto para una dieta vegetariana."
        );
        assert_eq!(
            guard.left_out("Honey", &[]).unwrap().render(Lang::Fr),
            "Miel : ingrédient retiré. Pour Leo (9 mois), pas de miel avant 12 mois."
        );
        // A food the catalogue does not know is named as given.
        assert!(
            guard
                .left_out("Egg custard tart", &[])
                .unwrap()
                .render(Lang::De)
                .starts_with("Egg custard tart: weggelassen")
        );
    }

    #[test]
    fn a_childs_allergy_is_not_excused_by_a_diet_of_the_same_word() {
        // "Räuchertofu" is what a vegetarian eats; a child allergic to soya may not have it,
        // whatever diet the parent also asked for.
        let guard = Guard::new(&[], &["sojafrei".into()]).with_child("Mia", &["Soja".into()]);
        let reasons = crate::i18n::scope::within_sync(crate::i18n::Lang::De, || {
            guard.reasons(&["Räuchertofu".into()])
        });
        assert!(!reasons.is_empty());
        let guard = Guard::new(&[], &["gluten free".into()]);
        assert!(!guard.reasons(&["Veggie burger".into()]).is_empty());
        // A meat word in a meat-free food is still fine for a vegetarian.
        let guard = Guard::new(&[], &["vegetarian".into()]);
        assert!(guard.reasons(&["Quorn mince".into()]).is_empty());
    }

    #[test]
    fn an_empty_guard_allows_everything() {
        let guard = Guard::new(&strings(&["  "]), &[]);
        assert!(guard.is_empty());
        assert!(guard.allows("Peanut butter"));
    }

    fn months(n: u32) -> Option<Age> {
        Some(Age {
            months: n,
            from_birth_month: true,
        })
    }

    #[test]
    fn the_youngest_childs_age_leaves_out_what_no_preparation_makes_safe() {
        let guard = Guard::default()
            .with_age("Ada", months(40))
            .with_age("Sam", None)
            .with_age("Leo", months(9));
        assert_eq!(
            guard.youngest().map(|(n, a)| (n, a.months)),
            Some(("Leo", 9))
        );
        assert_eq!(
            guard
                .left_out("Honey", &[])
                .map(|t| t.to_string())
                .as_deref(),
            Some("Honey was left out: for Leo (9 months), no honey before 12 months.")
        );
        assert!(
            guard
                .left_out("Vegetable stock cube", &[])
                .is_some_and(|r| r.to_string().contains("no added salt"))
        );
        // Prepared the safe way instead: it goes in.
        assert_eq!(guard.left_out("Grapes", &[]), None);
        assert!(matches!(
            guard.in_recipe("Grapes"),
            InRecipe::Prepared(n) if n == "Grapes, quartered lengthways"
        ));
        // Age rules never withhold a recipe: only allergies and diets do.
        assert!(guard.allows("Honey"));
        assert!(guard.is_empty());
        // An age in years is its lower bound: "1 year" and a 12-month birth month are asked
        // both, and the baby in the month of the first birthday still gets no honey.
        let guard = Guard::default()
            .with_age(
                "Ada",
                Some(Age {
                    months: 12,
                    from_birth_month: false,
                }),
            )
            .with_age("Leo", months(12));
        assert_eq!(guard.youngest().map(|(n, _)| n), Some("Leo"));
        assert!(
            guard
                .left_out("Honey", &[])
                .is_some_and(|r| r.to_string().contains("Leo (12 months)"))
        );
        // Without a child of an age, nothing changes.
        assert_eq!(Guard::default().left_out("Honey", &[]), None);
        assert!(matches!(
            Guard::default().in_recipe("Grapes"),
            InRecipe::AsIs
        ));
    }
}
