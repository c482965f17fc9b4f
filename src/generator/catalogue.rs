//! The built-in ingredient catalogue (`catalogue.json`, compiled in): the spec's categories and
//! subcategories, and for each ingredient its allergens, grocery category, a typical UK price
//! and rough nutrition per 100 g. The picker, the offline generator, the allergen guard and
//! (later) grocery lists read it.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::domain::allergens::{Allergen, english_names};
use crate::i18n::foods::food_names;

const DATA: &str = include_str!("catalogue.json");

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Grams.
    G,
    /// Millilitres (1 ml counts as 1 g for nutrition).
    Ml,
    /// Whole pieces: eggs, onions, garlic cloves.
    Piece,
}

/// Per 100 g (or 100 ml).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Per100 {
    pub calories: f64,
    pub protein: f64,
    pub carbs: f64,
    pub fat: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    pub name: String,
    /// Keys of `Allergen` ("milk", "tree_nuts").
    pub allergens: Vec<String>,
    /// One of the 15 grocery categories.
    pub grocery: String,
    pub unit: Unit,
    /// A child-sized serving when the ingredient is a main part of a dish, in `unit`.
    pub serving: f64,
    pub piece_grams: Option<f64>,
    /// Per 100 g, per 100 ml, or per piece, in `Catalogue::currency`.
    pub price: f64,
    pub nutrition: Per100,
    /// Filled in at load.
    #[serde(skip_deserializing)]
    pub category: String,
    #[serde(skip_deserializing)]
    pub subcategory: String,
}

impl Item {
    pub fn allergens(&self) -> Vec<Allergen> {
        self.allergens
            .iter()
            .filter_map(|k| Allergen::from_key(k))
            .collect()
    }

    /// Grams in `amount` of the ingredient's unit.
    pub fn grams(&self, amount: f64) -> f64 {
        match self.unit {
            Unit::G | Unit::Ml => amount,
            Unit::Piece => amount * self.piece_grams.unwrap_or(100.0),
        }
    }

    /// The price of `amount` of the ingredient's unit.
    pub fn cost(&self, amount: f64) -> f64 {
        match self.unit {
            Unit::G | Unit::Ml => self.price * amount / 100.0,
            Unit::Piece => self.price * amount,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Subcategory {
    pub name: String,
    pub ingredients: Vec<Item>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Category {
    pub name: String,
    pub subcategories: Vec<Subcategory>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Catalogue {
    /// The currency of the prices.
    pub currency: String,
    pub categories: Vec<Category>,
    #[serde(skip)]
    by_name: HashMap<String, (usize, usize, usize)>,
}

static CATALOGUE: LazyLock<Catalogue> = LazyLock::new(|| {
    let mut c: Catalogue =
        serde_json::from_str(DATA).expect("catalogue.json is checked by a unit test");
    for (ci, cat) in c.categories.iter_mut().enumerate() {
        for (si, sub) in cat.subcategories.iter_mut().enumerate() {
            for (ii, item) in sub.ingredients.iter_mut().enumerate() {
                item.category = cat.name.clone();
                item.subcategory = sub.name.clone();
                c.by_name.insert(key(&item.name), (ci, si, ii));
            }
        }
    }
    c
});

/// Words too general to stand for one ingredient ("sauce" is not soy sauce).
const GENERIC_HEADS: &[&str] = &[
    "sauce", "paste", "powder", "cube", "cubes", "juice", "extract", "leaves", "flakes", "oil",
    "seeds", "mince", "fillet", "fillets",
];

/// Lowercase, accents and punctuation as typed are kept; plurals folded by `find`.
fn key(name: &str) -> String {
    name.trim().to_lowercase()
}

impl Catalogue {
    pub fn get() -> &'static Catalogue {
        &CATALOGUE
    }

    pub fn items(&self) -> impl Iterator<Item = &Item> {
        self.categories
            .iter()
            .flat_map(|c| &c.subcategories)
            .flat_map(|s| &s.ingredients)
    }

    /// The ingredient a parent named ("carrots", "Eggs", "cheddar"), if the catalogue has it.
    /// A plain everyday word names the first ingredient it is the head noun of ("rice" is
    /// white rice, "cheese" cheddar), else the first it starts ("chicken" is chicken breast),
    /// so that "chicken" is cooked as meat, not chopped as a vegetable.
    pub fn find(&self, name: &str) -> Option<&Item> {
        // A model writing in the family's language names foods in it: "Ketchup de tomate" is
        // still the ketchup whose celery the catalogue knows.
        let lang = crate::i18n::scope::current();
        if let Some((english, _)) =
            food_names(lang).find(|(_, named)| named.eq_ignore_ascii_case(name.trim()))
        {
            return self.find_english(english);
        }
        // Else as typed; else as it reads in English, by a catalogue name only: "Bananes" on a
        // grocery list is the catalogue's banana (its aisle and price), while "Fraises" is
        // strawberries, never the strawberry jam a looser match would take the word for.
        self.find_english(name).or_else(|| {
            english_names(name)
                .iter()
                .find_map(|english| self.exact(&key(english)))
        })
    }

    /// The ingredient of this name (a key), singular or plural ("strawberry" is
    /// "Strawberries"), or a cheese of this name ("cheddar").
    fn exact(&self, k: &str) -> Option<&Item> {
        forms(k)
            .iter()
            .chain(std::iter::once(&format!("{k} cheese")))
            .find_map(|c| self.by_name.get(c))
            .map(|&(c, s, i)| &self.categories[c].subcategories[s].ingredients[i])
    }

    fn find_english(&self, name: &str) -> Option<&Item> {
        let k = key(name);
        let exact = self.exact(&k);
        if exact.is_some() || k.contains(' ') || GENERIC_HEADS.contains(&k.as_str()) {
            return exact;
        }
        let forms = forms(&k);
        let word_is = |w: Option<&str>| w.is_some_and(|w| forms.iter().any(|f| *f == w));
        let lower = |i: &Item| i.name.to_lowercase();
        self.items()
            .find(|i| word_is(lower(i).rsplit(' ').next()))
            .or_else(|| self.items().find(|i| word_is(lower(i).split(' ').next())))
    }
}

/// A key as typed, its singulars and its plurals.
fn forms(k: &str) -> [String; 5] {
    [
        k.to_string(),
        k.strip_suffix("es").unwrap_or(k).to_string(),
        k.strip_suffix('s').unwrap_or(k).to_string(),
        format!("{k}s"),
        k.strip_suffix('y')
            .map_or_else(|| k.to_string(), |stem| format!("{stem}ies")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::allergens::allergens_in_food;
    use crate::i18n::Lang;
    use crate::i18n::foods::{definite_names, food_name, food_names};

    /// A food as a French, German or Spanish parent writes it on a list (plural, or not the
    /// catalogue's own name) is the catalogue's food: its aisle and its price.
    #[test]
    fn foods_typed_in_a_language_are_found_as_they_read() {
        use crate::i18n::scope::within_sync;
        let c = Catalogue::get();
        let found =
            |lang: Lang, name: &str| within_sync(lang, || c.find(name).map(|i| i.name.clone()));
        for (lang, name, expected) in [
            (Lang::Fr, "Bananes", "Banana"),
            (Lang::Fr, "Fraises", "Strawberries"),
            (Lang::Fr, "Pommes de terre", "Potato"),
            (Lang::De, "Bananen", "Banana"),
            (Lang::De, "Erdbeeren", "Strawberries"),
            (Lang::Es, "Plátanos", "Banana"),
            (Lang::Es, "Fresas", "Strawberries"),
        ] {
            assert_eq!(
                found(lang, name).as_deref(),
                Some(expected),
                "{lang:?} {name}"
            );
        }
        // A reading is a word, not what the parent means by it: no looser match than the
        // catalogue's own name ("Cerises" are no cherry tomatoes, "Graines" no sesame seeds).
        for (lang, name) in [
            (Lang::Fr, "Cerises"),
            (Lang::Fr, "Graines"),
            (Lang::Fr, "Flocons"),
            (Lang::Fr, "Caille"),
            (Lang::Fr, "Potiron"),
            (Lang::Fr, "Poisson"),
            (Lang::De, "Süßigkeiten"),
            (Lang::Fr, "Couches pour bébé"),
        ] {
            assert_eq!(found(lang, name), None, "{lang:?} {name}");
        }
        // English names as before; "strawberry" is the fruit, not the jam.
        assert_eq!(found(Lang::En, "Bananas").as_deref(), Some("Banana"));
        assert_eq!(
            found(Lang::En, "strawberry").as_deref(),
            Some("Strawberries")
        );
    }

    /// Every category, subcategory and ingredient has its name in each language, and the
    /// files name nothing else (a renamed ingredient must be renamed there too).
    #[test]
    fn every_name_of_the_catalogue_is_translated() {
        let c = Catalogue::get();
        let mut names: Vec<&str> = Vec::new();
        for cat in &c.categories {
            names.push(&cat.name);
            for sub in &cat.subcategories {
                names.push(&sub.name);
                names.extend(sub.ingredients.iter().map(|i| i.name.as_str()));
            }
        }
        names.sort_unstable();
        names.dedup();
        for lang in [Lang::Fr, Lang::De, Lang::Es] {
            let mut translated: Vec<&str> = food_names(lang).map(|(en, _)| en).collect();
            translated.sort_unstable();
            assert_eq!(translated, names, "{lang:?}");
            assert!(food_names(lang).all(|(_, name)| !name.trim().is_empty()));
        }
        // Named with their article in a recipe step: the same foods, the same names.
        for lang in [Lang::Fr, Lang::Es] {
            let mut with_article: Vec<&str> = definite_names(lang).map(|(en, _)| en).collect();
            with_article.sort_unstable();
            assert_eq!(with_article, names, "{lang:?}");
            for item in c.items() {
                let name = food_name(lang, &item.name).to_lowercase();
                let (_, the) = definite_names(lang)
                    .find(|(en, _)| *en == item.name)
                    .unwrap();
                let article = the.to_lowercase();
                let article = article.strip_suffix(&name).unwrap_or_default();
                assert!(
                    ["le ", "la ", "l’", "les ", "el ", "los ", "las "].contains(&article),
                    "{lang:?}: \"{the}\" is not \"{name}\" with its article"
                );
            }
        }
    }

    #[test]
    fn the_catalogue_has_the_specs_categories_and_enough_everyday_ingredients() {
        let c = Catalogue::get();
        let shape: Vec<(&str, Vec<&str>)> = c
            .categories
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.subcategories.iter().map(|s| s.name.as_str()).collect(),
                )
            })
            .collect();
        let names: Vec<&str> = shape.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "Protein",
                "Dairy",
                "Vegetables",
                "Fruits",
                "Grains",
                "Pantry",
                "Nuts & Seeds"
            ]
        );
        assert_eq!(shape[0].1, ["Meat", "Seafood", "Plant Protein", "Eggs"]);
        assert_eq!(
            shape[5].1,
            [
                "Oils",
                "Vinegars",
                "Herbs & Spices",
                "Condiments",
                "Canned Goods",
                "Baking"
            ]
        );
        assert!(c.items().count() >= 150);
        assert_eq!(c.currency, "GBP");
    }

    #[test]
    fn every_item_is_well_formed_and_found_by_name() {
        let c = Catalogue::get();
        for item in c.items() {
            assert!(
                crate::domain::grocery::CATEGORIES.contains(&item.grocery.as_str()),
                "{}",
                item.name
            );
            assert_eq!(
                item.allergens().len(),
                item.allergens.len(),
                "{}",
                item.name
            );
            assert!(item.price > 0.0 && item.serving > 0.0, "{}", item.name);
            assert_eq!(
                item.piece_grams.is_some(),
                item.unit == Unit::Piece,
                "{}",
                item.name
            );
            let n = item.nutrition;
            assert!(n.protein + n.carbs + n.fat <= 100.0, "{}", item.name);
            assert_eq!(c.find(&item.name).unwrap().name, item.name);
        }
        assert_eq!(c.find("carrots").unwrap().name, "Carrot");
        assert_eq!(c.find("EGG").unwrap().name, "Eggs");
        assert_eq!(c.find("cheddar").unwrap().name, "Cheddar cheese");
        assert!(c.find("unicorn").is_none());
    }

    /// A model writing in the family's language names the catalogue's foods in it: they are
    /// found, so their tagged allergens (Quorn's egg, ketchup's celery) still count.
    #[test]
    fn a_food_named_in_the_requests_language_is_found() {
        let c = Catalogue::get();
        let found = |lang, name| {
            crate::i18n::scope::within_sync(lang, || c.find(name).map(|i| i.name.clone()))
        };
        assert_eq!(
            found(Lang::Es, "Picada de Quorn").as_deref(),
            Some("Quorn mince")
        );
        assert_eq!(
            found(Lang::De, "tomatenketchup").as_deref(),
            Some("Tomato ketchup")
        );
        assert_eq!(
            found(Lang::Fr, "Haché Quorn").as_deref(),
            Some("Quorn mince")
        );
        // English names are found whatever the language.
        assert_eq!(found(Lang::Fr, "Eggs").as_deref(), Some("Eggs"));
    }

    /// The matcher reads what models write; the catalogue knows what is in a jar. Every
    /// allergen the matcher sees in a catalogue name must be tagged in the data.
    #[test]
    fn the_tags_include_everything_the_matcher_sees_in_the_names() {
        let mut missing = Vec::new();
        for item in Catalogue::get().items() {
            let tagged = item.allergens();
            for m in allergens_in_food(&item.name) {
                if !tagged.contains(&m.allergen) {
                    missing.push(format!(
                        "{} / {} ({})",
                        item.name,
                        m.allergen.key(),
                        m.matched
                    ));
                }
            }
        }
        assert!(missing.is_empty(), "not tagged: {missing:#?}");
    }
}
