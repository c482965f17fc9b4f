//! Dietary restrictions as parents type them ("Vegetarian", "gluten-free", "no nuts"), read as
//! what they rule out. The rules are allergy texts for the one allergen matcher
//! (`allergens::conflicts`): an allergen name where there is one, else a food word.

use super::allergens::Allergen;
use super::food_words::words;
use crate::i18n::Text;

/// A restriction the guard can check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Diet {
    Vegetarian,
    Vegan,
    Pescatarian,
    /// Halal or kosher: no pork.
    NoPork,
    /// "Gluten-free", "no eggs", "nut free": the rest of the phrase, read as an allergy.
    Without(String),
}

/// Meat words. Fish and shellfish come from the matcher's allergens.
const MEAT: &[&str] = &[
    "meat",
    "chicken",
    "beef",
    "pork",
    "lamb",
    "mutton",
    "veal",
    "venison",
    "turkey",
    "duck",
    "goose",
    "rabbit",
    "pheasant",
    "bacon",
    "ham",
    "gammon",
    "sausage",
    "chipolata",
    "salami",
    "pepperoni",
    "chorizo",
    "prosciutto",
    "pancetta",
    "bresaola",
    "frankfurter",
    "brisket",
    "sirloin",
    "oxtail",
    "liver",
    "pate",
    "black pudding",
    "haggis",
    "lard",
    "suet",
    "gelatine",
    "gelatin",
    "dripping",
    "meatball",
    "meatloaf",
    "steak",
    "hamburger",
    "kebab",
    "rib",
    "bolognese",
    "mince",
    "pigs in blankets",
];

/// Words that make a meat word vegetarian: "Quorn mince", "veggie burger", "soya meatballs",
/// "cauliflower steak".
pub const MEAT_FREE_MARKERS: &[&str] = &[
    "quorn",
    "soya",
    "soy",
    "veggie",
    "vegetarian",
    "vegan",
    "plant",
    "meat-free",
    "meatless",
    "lentil",
    "bean",
    "tofu",
    "cauliflower",
    "mushroom",
    "halloumi",
    "jackfruit",
    "seitan",
];

const PORK: &[&str] = &[
    "pork",
    "bacon",
    "ham",
    "gammon",
    "sausage",
    "chipolata",
    "salami",
    "pepperoni",
    "chorizo",
    "prosciutto",
    "pancetta",
    "lard",
    "gelatine",
    "gelatin",
];
const SEA: &[&str] = &["fish", "crustaceans", "molluscs"];

// The restrictions' names as typed, folded, in English, French, German and Spanish.
const VEGETARIAN: &[&str] = &[
    "vegetarian",
    "veggie",
    "lacto ovo vegetarian",
    "vegetarien",
    "vegetarienne",
    "vegetarisch",
    "vegetarier",
    "vegetarierin",
    "vegetariano",
    "vegetariana",
];
const VEGAN: &[&str] = &[
    "vegan",
    "plant based",
    "vegane",
    "vegetalien",
    "vegetalienne",
    "vegano",
    "vegana",
];
const PESCATARIAN: &[&str] = &[
    "pescatarian",
    "pescetarian",
    "pescetarien",
    "pescetarienne",
    "pescatarien",
    "pescatarienne",
    "pescetarisch",
    "pescetarier",
    "pescetariano",
    "pescetariana",
    "pescatariano",
    "pescatariana",
];
const NO_PORK: &[&str] = &[
    "halal",
    "kosher",
    "no pork",
    "casher",
    "cacher",
    "kasher",
    "sans porc",
    "koscher",
    "ohne schweinefleisch",
    "kein schweinefleisch",
    "sin cerdo",
];
const COELIAC: &[&str] = &[
    "coeliac",
    "celiac",
    "coeliaque",
    "celiaque",
    "zoliakie",
    "zoeliakie",
    "celiaco",
    "celiaca",
];
const LACTOSE: &[&str] = &[
    "lactose free",
    "lactose intolerant",
    "sans lactose",
    "intolerant au lactose",
    "intolerante au lactose",
    "laktosefrei",
    "laktose frei",
    "laktoseintolerant",
    "laktoseintoleranz",
    "sin lactosa",
    "intolerante a la lactosa",
];
/// "no nuts", "sans noix", "ohne Nüsse", "sin frutos secos".
const WITHOUT_BEFORE: &[&str] = &[
    "no ",
    "without ",
    "non ",
    "sans ",
    "ohne ",
    "kein ",
    "keine ",
    "sin ",
    "libre de ",
];
/// "nut free", "glutenfrei", "Nuss-frei".
const FREE_AFTER: &[&str] = &[" free", " frei", "frei"];
const ANIMAL: &[&str] = &["milk", "eggs", "honey"];

/// Whether a word is one of the diets' own lists (English, matched by how a food reads), not
/// a parent's ("sans noix").
pub fn is_listed_word(word: &str) -> bool {
    [MEAT, PORK, SEA, ANIMAL]
        .iter()
        .any(|list| list.contains(&word))
}

impl Diet {
    /// Reads one restriction; `None` when it is not one the guard can check ("low sugar").
    pub fn parse(text: &str) -> Option<Diet> {
        // Folded ("végétarienne" is "vegetarienne", "glutenfrei" keeps its word), in any of
        // the app's languages: a French parent types "végétarien", a German one "glutenfrei".
        let key = words(text)
            .into_iter()
            .map(|w| w.text)
            .collect::<Vec<_>>()
            .join(" ");
        let is = |names: &[&str]| names.contains(&key.as_str());
        Some(if is(VEGETARIAN) {
            Diet::Vegetarian
        } else if is(VEGAN) {
            Diet::Vegan
        } else if is(PESCATARIAN) {
            Diet::Pescatarian
        } else if is(NO_PORK) {
            Diet::NoPork
        } else if is(COELIAC) {
            Diet::Without("gluten".into())
        } else if is(LACTOSE) {
            Diet::Without("milk".into())
        } else {
            let rest = WITHOUT_BEFORE
                .iter()
                .find_map(|w| key.strip_prefix(w))
                .or_else(|| FREE_AFTER.iter().find_map(|w| key.strip_suffix(w)))?
                .trim();
            if rest.is_empty() {
                return None;
            }
            Diet::Without(rest.to_string())
        })
    }

    /// What the diet rules out, as allergy texts for `allergens::conflicts`.
    pub fn excluded(&self) -> Vec<String> {
        let words: Vec<&str> = match self {
            Diet::Vegetarian => [MEAT, SEA].concat(),
            Diet::Vegan => [MEAT, SEA, ANIMAL].concat(),
            Diet::Pescatarian => MEAT.to_vec(),
            Diet::NoPork => PORK.to_vec(),
            Diet::Without(what) => vec![what.as_str()],
        };
        words.into_iter().map(str::to_string).collect()
    }

    /// How a reason names it: "vegetarian", "gluten-free".
    pub fn label(&self) -> Text {
        match self {
            Diet::Vegetarian => t!("vegetarian"),
            Diet::Vegan => t!("vegan"),
            Diet::Pescatarian => t!("pescatarian"),
            Diet::NoPork => t!("pork-free"),
            // "lactose free" is milk-free: an allergen's own name is worded in the reader's
            // language; the parent's word ("dairy") is kept.
            Diet::Without(what) => match Allergen::from_allergy_text(what).as_slice() {
                [allergen] if allergen.in_sentence() == what.as_str() => {
                    t!("{{what}}-free", what = allergen.in_sentence())
                }
                _ => t!("{{what}}-free", what = what),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::allergens::conflicts_with;

    fn rules_out(restriction: &str, food: &str) -> bool {
        let diet = Diet::parse(restriction).expect(restriction);
        let words = match diet {
            Diet::Without(_) => |_: &str| false,
            _ => is_listed_word,
        };
        !conflicts_with(&[food.to_string()], &diet.excluded(), words).is_empty()
    }

    /// Meat words are compared word for word: none may read as an allergen (then it would rule
    /// out that allergen's foods instead, as "hot dog" would rule out bread).
    #[test]
    fn meat_words_are_literal() {
        use crate::domain::allergens::Allergen;
        for word in MEAT.iter().chain(PORK) {
            assert!(Allergen::from_allergy_text(word).is_empty(), "{word}");
        }
    }

    #[test]
    fn restrictions_as_parents_type_them() {
        assert_eq!(Diet::parse(" Vegetarian "), Some(Diet::Vegetarian));
        assert_eq!(Diet::parse("plant-based"), Some(Diet::Vegan));
        assert_eq!(
            Diet::parse("Gluten-Free"),
            Some(Diet::Without("gluten".into()))
        );
        assert_eq!(Diet::parse("nut free"), Some(Diet::Without("nut".into())));
        assert_eq!(Diet::parse("no eggs"), Some(Diet::Without("eggs".into())));
        assert_eq!(Diet::parse("Dairy-free").unwrap().label(), "dairy-free");
        let lactose = Diet::parse("lactose free").unwrap().label();
        assert_eq!(lactose.render(crate::i18n::Lang::Fr), "sans lait");
        assert_eq!(
            Diet::parse("coeliac")
                .unwrap()
                .label()
                .render(crate::i18n::Lang::De),
            "glutenfrei"
        );
        assert_eq!(Diet::parse("low sugar"), None);
        assert_eq!(Diet::parse("free"), None);
        // In the family's language.
        let without = |what: &str| Some(Diet::Without(what.into()));
        for (typed, diet) in [
            ("Végétarienne", Some(Diet::Vegetarian)),
            ("vegetarisch", Some(Diet::Vegetarian)),
            ("Vegetariano", Some(Diet::Vegetarian)),
            ("végétalien", Some(Diet::Vegan)),
            ("Vegana", Some(Diet::Vegan)),
            ("pescetarisch", Some(Diet::Pescatarian)),
            ("casher", Some(Diet::NoPork)),
            ("ohne Schweinefleisch", Some(Diet::NoPork)),
            ("cœliaque", without("gluten")),
            ("Zöliakie", without("gluten")),
            ("celíaca", without("gluten")),
            ("sans lactose", without("milk")),
            ("laktosefrei", without("milk")),
            ("sin lactosa", without("milk")),
            ("sans gluten", without("gluten")),
            ("glutenfrei", without("gluten")),
            ("Gluten-frei", without("gluten")),
            ("ohne Nüsse", without("nusse")),
            ("sin frutos secos", without("frutos secos")),
            ("libre de huevo", without("huevo")),
            ("peu sucré", None),
        ] {
            assert_eq!(Diet::parse(typed), diet, "{typed}");
        }
    }

    #[test]
    fn a_restriction_typed_in_a_language_rules_out_its_foods() {
        use crate::i18n::{Lang, scope::within_sync};
        let in_lang = |lang, restriction: &str, food: &str| {
            within_sync(lang, || rules_out(restriction, food))
        };
        assert!(in_lang(Lang::Fr, "végétarien", "Blanc de poulet"));
        assert!(!in_lang(Lang::Fr, "végétarien", "Pâtes à la tomate"));
        assert!(in_lang(Lang::Fr, "sans gluten", "Pain de mie"));
        assert!(in_lang(Lang::De, "glutenfrei", "Weizenmehl"));
        assert!(in_lang(Lang::De, "ohne Nüsse", "Haselnüsse"));
        assert!(in_lang(Lang::Es, "vegana", "Huevos"));
        assert!(in_lang(Lang::Es, "sin frutos secos", "Almendras"));
        assert!(!in_lang(Lang::Es, "sin frutos secos", "Arroz"));
    }

    #[test]
    fn each_diet_rules_out_what_it_should_and_nothing_else() {
        let table: &[(&str, &str, bool)] = &[
            ("vegetarian", "Chicken thighs", true),
            ("vegetarian", "Smoked bacon", true),
            ("vegetarian", "Salmon fillet", true),
            ("vegetarian", "King prawns", true),
            ("vegetarian", "Chickpeas", false),
            ("vegetarian", "Cheddar cheese", false),
            ("vegetarian", "Eggs", false),
            ("vegetarian", "Quorn pieces", false),
            ("vegetarian", "Graham crackers", false),
            ("vegetarian", "Mini meatballs", true),
            ("vegetarian", "500 g mince", true),
            ("vegetarian", "Rump steak", true),
            ("vegetarian", "Spaghetti bolognese", true),
            ("vegan", "Greek yoghurt", true),
            ("vegan", "Eggs", true),
            ("vegan", "Honey", true),
            ("vegan", "Butter", true),
            ("vegan", "Coconut milk", false),
            ("vegan", "Oat milk", false),
            ("vegan", "Butternut squash", false),
            ("vegan", "Tofu", false),
            ("pescatarian", "Beef mince", true),
            ("pescatarian", "Cod fillet", false),
            ("halal", "Pork sausages", true),
            ("halal", "Lamb chops", false),
            ("gluten-free", "Spaghetti", true),
            ("gluten-free", "Soy sauce", true),
            ("gluten-free", "Rice noodles", false),
            ("dairy-free", "Parmesan", true),
            ("dairy-free", "Cream cheese", true),
            ("dairy-free", "Coconut cream", false),
            ("nut-free", "Ground almonds", true),
            ("nut-free", "Peanut butter", true),
            ("nut-free", "Coconut", false),
            ("nut-free", "Butternut squash", false),
            ("egg-free", "Mayonnaise", true),
            ("egg-free", "Aubergine", false),
            ("egg-free", "Eggplant", false),
        ];
        for (diet, food, expected) in table {
            assert_eq!(rules_out(diet, food), *expected, "{diet} / {food}");
        }
    }
}
