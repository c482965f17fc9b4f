//! Dietary restrictions as parents type them ("Vegetarian", "gluten-free", "no nuts"), read as
//! what they rule out. The rules are allergy texts for the one allergen matcher
//! (`allergens::conflicts`): an allergen name where there is one, else a food word.

use super::allergens::Allergen;
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
const ANIMAL: &[&str] = &["milk", "eggs", "honey"];

impl Diet {
    /// Reads one restriction; `None` when it is not one the guard can check ("low sugar").
    pub fn parse(text: &str) -> Option<Diet> {
        let key: String = text
            .trim()
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect();
        let key = key.split_whitespace().collect::<Vec<_>>().join(" ");
        Some(match key.as_str() {
            "vegetarian" | "veggie" | "lacto ovo vegetarian" => Diet::Vegetarian,
            "vegan" | "plant based" => Diet::Vegan,
            "pescatarian" | "pescetarian" => Diet::Pescatarian,
            "halal" | "kosher" | "no pork" => Diet::NoPork,
            "coeliac" | "celiac" => Diet::Without("gluten".into()),
            "lactose free" | "lactose intolerant" => Diet::Without("milk".into()),
            _ => {
                let rest = key
                    .strip_suffix(" free")
                    .or_else(|| key.strip_prefix("no "))
                    .or_else(|| key.strip_prefix("without "))
                    .or_else(|| key.strip_prefix("non "))?;
                if rest.is_empty() {
                    return None;
                }
                Diet::Without(rest.to_string())
            }
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
    use crate::domain::allergens::conflicts;

    fn rules_out(restriction: &str, food: &str) -> bool {
        let diet = Diet::parse(restriction).expect(restriction);
        !conflicts(&[food.to_string()], &diet.excluded()).is_empty()
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
            "Gluten-frei"
        );
        assert_eq!(Diet::parse("low sugar"), None);
        assert_eq!(Diet::parse("free"), None);
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
