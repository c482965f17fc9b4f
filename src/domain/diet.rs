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
    /// "No meat", "sin carne", "fleischfrei": fish is fine.
    NoMeat,
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
    "keinen ",
    "sin ",
    "libre de ",
];
/// "nut free", "glutenfrei", "Nuss-frei".
const FREE_AFTER: &[&str] = &[" free", " frei", "frei"];
/// Words that join the things a restriction names: "sin carne ni pescado".
const JOINS: &[&str] = &[
    "and", "or", "nor", "ni", "y", "e", "o", "u", "et", "ou", "und", "oder",
];
/// Meat as a whole, in each language: a "no meat" restriction is the meat list.
const MEAT_NAMES: &[&str] = &["meat", "carne", "viande", "fleisch"];
/// Pork, in each language: a "no pork" restriction is the pork list (ham, bacon, gelatine...).
const PORK_NAMES: &[&str] = &[
    "pork",
    "pig",
    "cerdo",
    "carne de cerdo",
    "porc",
    "viande de porc",
    "schwein",
    "schweinefleisch",
];
const ANIMAL: &[&str] = &["milk", "eggs", "honey"];

/// Whether a word is one of the diets' own lists (English, matched by how a food reads), not
/// a parent's ("sans noix").
pub fn is_listed_word(word: &str) -> bool {
    listed_words().any(|w| w == word)
}

/// Every word of the diets' own lists.
pub fn listed_words() -> impl Iterator<Item = &'static str> {
    [MEAT, PORK, SEA, ANIMAL].into_iter().flatten().copied()
}

/// Whether a word is one of the meat lists: a meat-free marker ("Quorn mince") excuses it.
pub fn is_meat_word(word: &str) -> bool {
    MEAT.contains(&word) || PORK.contains(&word)
}

impl Diet {
    /// Reads one restriction; `None` when it is not one the guard can check ("low sugar").
    pub fn parse(text: &str) -> Option<Vec<Diet>> {
        // Folded ("végétarienne" is "vegetarienne", "glutenfrei" keeps its word), in any of
        // the app's languages: a French parent types "végétarien", a German one "glutenfrei".
        let fold = |part: &str| {
            words(part)
                .into_iter()
                .map(|w| w.text)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let key = fold(text);
        let is = |names: &[&str]| names.contains(&key.as_str());
        let whole = if is(VEGETARIAN) {
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
            return Diet::without(text, &fold);
        };
        Some(vec![whole])
    }

    /// "Sin carne ni pescado", "ohne Nüsse und Eier", "no pork, no nuts": each thing it names
    /// ruled out on its own (one phrase would match only foods naming both, in that order).
    fn without(text: &str, fold: &impl Fn(&str) -> String) -> Option<Vec<Diet>> {
        let mut out = Vec::new();
        // Commas and slashes part the list; the word before the first part says "without".
        let mut negated = false;
        for chunk in text.split([',', ';', '/', '+', '&']) {
            let chunk = fold(chunk);
            let mut parts: Vec<String> = Vec::new();
            let mut current: Vec<&str> = Vec::new();
            for word in chunk.split(' ') {
                if JOINS.contains(&word) {
                    parts.push(current.join(" "));
                    current.clear();
                } else {
                    current.push(word);
                }
            }
            parts.push(current.join(" "));
            for part in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
                let rest = WITHOUT_BEFORE
                    .iter()
                    .find_map(|w| part.strip_prefix(w))
                    .or_else(|| FREE_AFTER.iter().find_map(|w| part.strip_suffix(w)));
                let rest = match rest {
                    Some(rest) => {
                        negated = true;
                        rest.trim()
                    }
                    // "ni pescado": the first part's "sin" goes on.
                    None if negated => part,
                    None => return None,
                };
                if rest.is_empty() {
                    return None;
                }
                out.push(if MEAT_NAMES.contains(&rest) {
                    Diet::NoMeat
                } else if PORK_NAMES.contains(&rest) {
                    Diet::NoPork
                } else {
                    Diet::Without(rest.to_string())
                });
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// What the diet rules out, as allergy texts for `allergens::conflicts`.
    pub fn excluded(&self) -> Vec<String> {
        let words: Vec<&str> = match self {
            Diet::Vegetarian => [MEAT, SEA].concat(),
            Diet::Vegan => [MEAT, SEA, ANIMAL].concat(),
            Diet::Pescatarian | Diet::NoMeat => MEAT.to_vec(),
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
            Diet::NoMeat => t!("meat-free"),
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
        Diet::parse(restriction)
            .expect(restriction)
            .iter()
            .any(|diet| {
                let words = match diet {
                    Diet::Without(_) => |_: &str| false,
                    _ => is_listed_word,
                };
                !conflicts_with(&[food.to_string()], &diet.excluded(), words).is_empty()
            })
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
        assert_eq!(Diet::parse(" Vegetarian "), Some(vec![Diet::Vegetarian]));
        assert_eq!(Diet::parse("plant-based"), Some(vec![Diet::Vegan]));
        assert_eq!(
            Diet::parse("Gluten-Free"),
            Some(vec![Diet::Without("gluten".into())])
        );
        assert_eq!(
            Diet::parse("nut free"),
            Some(vec![Diet::Without("nut".into())])
        );
        assert_eq!(
            Diet::parse("no eggs"),
            Some(vec![Diet::Without("eggs".into())])
        );
        assert_eq!(Diet::parse("Dairy-free").unwrap()[0].label(), "dairy-free");
        let lactose = Diet::parse("lactose free").unwrap()[0].label();
        assert_eq!(lactose.render(crate::i18n::Lang::Fr), "sans lait");
        assert_eq!(
            Diet::parse("coeliac").unwrap()[0]
                .label()
                .render(crate::i18n::Lang::De),
            "glutenfrei"
        );
        assert_eq!(Diet::parse("low sugar"), None);
        assert_eq!(Diet::parse("free"), None);
        // In the family's language.
        let without = |what: &str| Some(vec![Diet::Without(what.into())]);
        for (typed, diet) in [
            ("Végétarienne", Some(vec![Diet::Vegetarian])),
            ("vegetarisch", Some(vec![Diet::Vegetarian])),
            ("Vegetariano", Some(vec![Diet::Vegetarian])),
            ("végétalien", Some(vec![Diet::Vegan])),
            ("Vegana", Some(vec![Diet::Vegan])),
            ("pescetarisch", Some(vec![Diet::Pescatarian])),
            ("casher", Some(vec![Diet::NoPork])),
            ("ohne Schweinefleisch", Some(vec![Diet::NoPork])),
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
    fn a_restriction_naming_several_things_rules_out_each() {
        let w = |what: &str| Diet::Without(what.into());
        for (typed, diets) in [
            ("sin carne ni pescado", vec![Diet::NoMeat, w("pescado")]),
            ("ohne Nüsse und Eier", vec![w("nusse"), w("eier")]),
            ("sans porc ni alcool", vec![Diet::NoPork, w("alcool")]),
            ("no pork, no nuts", vec![Diet::NoPork, w("nuts")]),
            ("fleischfrei", vec![Diet::NoMeat]),
            ("schweinefleischfrei", vec![Diet::NoPork]),
            ("sin carne de cerdo", vec![Diet::NoPork]),
            ("no meat", vec![Diet::NoMeat]),
        ] {
            assert_eq!(Diet::parse(typed), Some(diets), "{typed}");
        }
        // A list that does not say "without" is not a restriction the guard can check.
        assert_eq!(Diet::parse("low sugar and salt"), None);
        use crate::i18n::{Lang, scope::within_sync};
        for (lang, restriction, food, out) in [
            (Lang::Es, "sin carne", "Pechuga de pollo", true),
            (Lang::Es, "sin carne", "Salmón", false),
            (Lang::Es, "sin carne ni pescado", "Salmón", true),
            (Lang::Fr, "sans porc ni alcool", "Jambon blanc", true),
            (Lang::De, "ohne Schwein", "Salami", true),
            (Lang::De, "ohne Nüsse und Eier", "Rührei", true),
            (Lang::En, "no meat", "Chicken thighs", true),
        ] {
            let got = within_sync(lang, || rules_out(restriction, food));
            assert_eq!(got, out, "{restriction} / {food}");
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
