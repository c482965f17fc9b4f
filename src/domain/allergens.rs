//! The one allergen matcher (issue 11): the 14 UK/EU allergens, what parents type as a child's
//! allergy, and which of them a food as typed contains. Meal logging and recipes both call it.
//!
//! Matching is by whole words and phrases, case-insensitive, plural-tolerant and accent-folded,
//! longest phrase first ("peanut butter" is not read as "butter"). Dishes are listed with the
//! allergens of their usual recipe: a warning asks the parent to check, so when a common version
//! of a dish has an allergen it is listed, and when in doubt we warn.

use crate::i18n::{Arg, Text};
use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;

use super::food_words::{PhraseIndex, Word, is_form_of, readings, same_word, words};

use Allergen as A;

/// The 14 allergens of UK and EU food law, in the Food Standards Agency's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Allergen {
    /// Celery, celeriac.
    Celery,
    /// Cereals containing gluten: wheat (spelt, khorasan), rye, barley, oats.
    Gluten,
    Crustaceans,
    Eggs,
    Fish,
    Lupin,
    Milk,
    Molluscs,
    Mustard,
    /// Almond, hazelnut, walnut, cashew, pecan, Brazil, pistachio, macadamia. Not coconut,
    /// chestnut or pine nut.
    TreeNuts,
    Peanuts,
    Sesame,
    Soya,
    /// Sulphur dioxide and sulphites (as preservatives).
    Sulphites,
}

impl Allergen {
    pub const ALL: [Allergen; 14] = [
        Allergen::Celery,
        Allergen::Gluten,
        Allergen::Crustaceans,
        Allergen::Eggs,
        Allergen::Fish,
        Allergen::Lupin,
        Allergen::Milk,
        Allergen::Molluscs,
        Allergen::Mustard,
        Allergen::TreeNuts,
        Allergen::Peanuts,
        Allergen::Sesame,
        Allergen::Soya,
        Allergen::Sulphites,
    ];

    /// The name on a label, in whichever language it is worded.
    pub fn name(self) -> Text {
        match self {
            Allergen::Celery => t!("Celery"),
            Allergen::Gluten => t!("Cereals containing gluten"),
            Allergen::Crustaceans => t!("Crustaceans"),
            Allergen::Eggs => t!("Eggs"),
            Allergen::Fish => t!("Fish"),
            Allergen::Lupin => t!("Lupin"),
            Allergen::Milk => t!("Milk"),
            Allergen::Molluscs => t!("Molluscs"),
            Allergen::Mustard => t!("Mustard"),
            Allergen::TreeNuts => t!("Tree nuts"),
            Allergen::Peanuts => t!("Peanuts"),
            Allergen::Sesame => t!("Sesame"),
            Allergen::Soya => t!("Soya"),
            Allergen::Sulphites => t!("Sulphites"),
        }
    }

    /// A stable lowercase key for storage and the API. Never change one.
    pub fn key(self) -> &'static str {
        match self {
            Allergen::Celery => "celery",
            Allergen::Gluten => "gluten",
            Allergen::Crustaceans => "crustaceans",
            Allergen::Eggs => "eggs",
            Allergen::Fish => "fish",
            Allergen::Lupin => "lupin",
            Allergen::Milk => "milk",
            Allergen::Molluscs => "molluscs",
            Allergen::Mustard => "mustard",
            Allergen::TreeNuts => "tree_nuts",
            Allergen::Peanuts => "peanuts",
            Allergen::Sesame => "sesame",
            Allergen::Soya => "soya",
            Allergen::Sulphites => "sulphites",
        }
    }

    pub fn from_key(key: &str) -> Option<Allergen> {
        Allergen::ALL.into_iter().find(|a| a.key() == key)
    }

    /// What an allergy as a parent typed it ("dairy", "cow's milk protein", "nuts") is about.
    /// Empty when it names no allergen ("kiwi"): the caller then compares it as a food word.
    /// Dishes are not read here: an allergy to "pesto" is not an allergy to all milk.
    pub fn from_allergy_text(text: &str) -> Vec<Allergen> {
        let mut out = Vec::new();
        for words in readings(text, english_phrase) {
            for hit in scan(&words, Reading::Allergy) {
                for (allergen, _) in hit.found {
                    if !out.contains(&allergen) {
                        out.push(allergen);
                    }
                }
            }
        }
        out
    }

    /// The name inside a sentence: "contains tree nuts".
    pub fn in_sentence(self) -> Text {
        match self {
            Allergen::Celery => t!("celery"),
            Allergen::Gluten => t!("gluten"),
            Allergen::Crustaceans => t!("crustaceans"),
            Allergen::Eggs => t!("eggs"),
            Allergen::Fish => t!("fish"),
            Allergen::Lupin => t!("lupin"),
            Allergen::Milk => t!("milk"),
            Allergen::Molluscs => t!("molluscs"),
            Allergen::Mustard => t!("mustard"),
            Allergen::TreeNuts => t!("tree nuts"),
            Allergen::Peanuts => t!("peanuts"),
            Allergen::Sesame => t!("sesame"),
            Allergen::Soya => t!("soya"),
            Allergen::Sulphites => t!("sulphites"),
        }
    }
}

impl fmt::Display for Allergen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().to_string())
    }
}

/// An allergen found in a food, with the word that gave it away ("butter" in "Buttered toast").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub allergen: Allergen,
    /// The table's spelling of the word or phrase that matched.
    pub matched: String,
}

/// A food that one of the child's allergies rules out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The food as typed.
    pub food: String,
    /// The allergy as the parent typed it.
    pub allergy: String,
    /// None when the allergy names no allergen and matched the food word for word.
    pub allergen: Option<Allergen>,
    pub matched: String,
}

/// "Buttered toast contains milk (butter)", or "Strawberry jam contains Strawberry".
impl Conflict {
    /// The food as typed; a catalogue food ("Butter", a generated recipe's) by its name in the
    /// reader's language.
    fn food_named(&self) -> Arg {
        Arg::Food {
            name: self.food.clone(),
            lowercase: false,
        }
    }

    /// "Buttered toast contains milk (butter)", or "Strawberry jam contains Strawberry", in
    /// whichever language it is worded.
    pub fn message(&self) -> Text {
        match self.allergen {
            Some(a) => t!(
                "{{food}} contains {{allergen}} ({{matched}})",
                food = self.food_named(),
                allergen = a.in_sentence(),
                matched = &self.matched
            ),
            None => t!(
                "{{food}} contains {{allergy}}",
                food = self.food_named(),
                allergy = &self.allergy
            ),
        }
    }
}

/// In English (logs, tests).
impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message().fmt(f)
    }
}

/// The allergens in a food as typed, in the order they appear, each once with its first word:
/// the table's spelling, or the words as typed when read from another language.
pub fn allergens_in_food(food: &str) -> Vec<Match> {
    allergens_in_readings(food, readings(food, english_phrase))
}

/// How a food reads in English, one phrase per reading of another language: "Bananes" is
/// "banana", "lait d'avoine" "oat milk". None for a food read only as typed.
pub fn english_names(food: &str) -> Vec<String> {
    let typed: Vec<String> = words(food).into_iter().map(|w| w.text).collect();
    let mut out: Vec<String> = Vec::new();
    for reading in readings(food, english_phrase) {
        let read: Vec<String> = reading.into_iter().map(|w| w.text).collect();
        let name = read.join(" ");
        if read != typed && !name.is_empty() && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The allergens of these readings of `food`.
pub(crate) fn allergens_in_readings(food: &str, readings: Vec<Vec<Word>>) -> Vec<Match> {
    let mut found: Vec<(usize, Match)> = Vec::new();
    for words in readings {
        let hits = scan(&words, Reading::Food);
        let (dropped, suppressed) = negations(&words, &hits);
        for (i, hit) in hits.iter().enumerate() {
            if dropped[i] {
                continue;
            }
            let clause = words[hit.start].clause;
            let hit_words = &words[hit.start..hit.end];
            let typed = hit_words
                .iter()
                .any(|w| w.translated)
                .then(|| Word::as_typed(food, hit_words));
            for &(allergen, shown) in &hit.found {
                if suppressed.contains(&(clause, allergen)) {
                    continue;
                }
                let at = hit_words.iter().map(|w| w.span.0).min().unwrap_or(0);
                found.push((
                    at,
                    Match {
                        allergen,
                        matched: typed.clone().unwrap_or_else(|| shown.to_string()),
                    },
                ));
            }
        }
    }
    // In the order of the food, each allergen once (a food may be read in two languages).
    found.sort_by_key(|(at, _)| *at);
    let mut seen = [false; Allergen::ALL.len()];
    found
        .into_iter()
        .filter(|(_, m)| !std::mem::replace(&mut seen[m.allergen as usize], true))
        .map(|(_, m)| m)
        .collect()
}

/// The length of the tables' phrase at `at` ("pain au chocolat", "creme fraiche"), which a
/// reading in another language keeps as it is.
pub fn english_phrase(words: &[Word], at: usize) -> usize {
    INDEX.longest_at(words, at, |_| true).0
}

/// Every food that one of the allergies rules out: by allergen when the allergy names one, else
/// by the allergy's own words ("strawberry" matches "Strawberries"). Food by food, then allergy
/// by allergy, one entry per allergen.
pub fn conflicts(foods: &[String], allergies: &[String]) -> Vec<Conflict> {
    conflicts_with(foods, allergies, |_| false)
}

/// As [`conflicts`]; the allergies `as_read` names are the app's own English words (a diet's
/// meat words), matched by how a food reads, never by its letters: "pâtes" is pasta, not a
/// pâté. A parent's own words also match the food as typed ("patatas" in "tortilla de
/// patatas", which reads as a Spanish omelette).
pub fn conflicts_with(
    foods: &[String],
    allergies: &[String],
    as_read: impl Fn(&str) -> bool,
) -> Vec<Conflict> {
    let allergies: Vec<Allergy> = allergies.iter().filter_map(|a| Allergy::new(a)).collect();
    if allergies.is_empty() {
        return Vec::new();
    }
    let allergies: Vec<(&Allergy, bool)> =
        allergies.iter().map(|a| (a, as_read(a.text()))).collect();
    conflicts_of(&ReadFood::all(foods), &allergies)
}

/// An allergy as typed, read once: the allergens it names, and its words in each reading when
/// it names none. A guard asked about many foods reads its allergies only once.
#[derive(Debug, Clone)]
pub struct Allergy {
    text: String,
    allergens: Vec<Allergen>,
    literal: Vec<Vec<Word>>,
}

impl Allergy {
    /// `None` for a blank text.
    pub fn new(text: &str) -> Option<Allergy> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let allergens = Allergen::from_allergy_text(text);
        Some(Allergy {
            text: text.to_string(),
            literal: if allergens.is_empty() {
                literal_words(text)
            } else {
                Vec::new()
            },
            allergens,
        })
    }

    /// As typed (trimmed).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The allergens it names ("dairy" is milk; "strawberry" names none).
    pub fn allergens(&self) -> &[Allergen] {
        &self.allergens
    }
}

/// A food as typed, read once, to be checked against several sets of allergies (a recipe's
/// texts against each diet whose badge it may show).
#[derive(Debug, Clone)]
pub struct ReadFood {
    text: String,
    /// Its readings.
    read: Vec<Vec<Word>>,
    /// Its words as typed, then its readings.
    typed_too: Vec<Vec<Word>>,
    /// The allergens its readings show.
    found: Vec<Match>,
}

impl ReadFood {
    /// `None` for a blank text.
    pub fn new(text: &str) -> Option<ReadFood> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let read = readings(text, english_phrase);
        Some(ReadFood {
            text: text.to_string(),
            typed_too: literal_readings(text, &read, |_| true),
            found: allergens_in_readings(text, read.clone()),
            read,
        })
    }

    /// Each of these texts read, blank ones left out.
    pub fn all(texts: &[String]) -> Vec<ReadFood> {
        texts.iter().filter_map(|t| ReadFood::new(t)).collect()
    }
}

/// As [`conflicts_with`], for foods and allergies already read; each allergy says whether it
/// is matched as read only.
pub fn conflicts_of(foods: &[ReadFood], allergies: &[(&Allergy, bool)]) -> Vec<Conflict> {
    let mut out = Vec::new();
    for food in foods {
        for &(allergy, as_read) in allergies {
            let conflict = |allergen, matched: &str| Conflict {
                food: food.text.clone(),
                allergy: allergy.text.clone(),
                allergen,
                matched: matched.to_string(),
            };
            if allergy.allergens.is_empty() {
                let food_words = if as_read { &food.read } else { &food.typed_too };
                let matched = food_words.iter().find_map(|food_words| {
                    allergy
                        .literal
                        .iter()
                        .find_map(|literal| find_literal(&food.text, food_words, literal))
                });
                if let Some(matched) = matched {
                    out.push(conflict(None, &matched));
                }
            } else {
                for m in food
                    .found
                    .iter()
                    .filter(|m| allergy.allergens.contains(&m.allergen))
                {
                    out.push(conflict(Some(m.allergen), &m.matched));
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The tables. Spellings are lowercase ASCII words; "a/b/c" lists spellings of one word, the first
// is the one shown in warnings. Plurals need no entry. A spelling is defined once in all tables.

/// Words that carry one allergen: ingredients, and dishes made around one.
const TERMS: &[(Allergen, &[&str])] = &[
    (A::Celery, &["celery", "celeriac", "soffritto", "mirepoix"]),
    (
        A::Gluten,
        &[
            "wheat/wholewheat/wheatgerm",
            "gluten",
            "flour/floury/floured",
            "spelt",
            "rye",
            "barley",
            // Oats count as a cereal containing gluten in UK law.
            "oat/oatmeal/oatcake",
            "porridge",
            "granola",
            "muesli",
            "malt/malted",
            "semolina",
            "durum",
            "couscous",
            "bulgur/bulgar/bulghur/burghul",
            "tabbouleh/tabouleh",
            "freekeh",
            "farro",
            "kamut/khorasan",
            "einkorn",
            "emmer",
            "triticale",
            "seitan",
            "bread/breaded/breadcrumb/breadstick/panko",
            "toast/toastie/toasty",
            "sandwich",
            "bap",
            "bun",
            "roll",
            "bagel",
            "baguette",
            "ciabatta",
            "focaccia",
            "sourdough",
            "flatbread",
            "gingerbread",
            "pitta/pita",
            "naan",
            "chapati/chapatti/roti",
            "paratha",
            "matzo/matzah",
            "tortilla",
            "wrap",
            "fajita",
            "burrito",
            "crumpet",
            "crispbread",
            "cracker",
            // The "cream" is the way the dough is made, not an ingredient.
            "cream cracker",
            "biscuit",
            "digestive",
            "rich tea",
            "rusk",
            "wafer",
            "pretzel",
            "crouton",
            "pastry/filo/phyllo",
            "pie",
            "tart/tarte/tartlet",
            "pasta",
            "spaghetti",
            "macaroni",
            "penne",
            "fusilli",
            "farfalle",
            "rigatoni",
            "tagliatelle",
            "linguine",
            "ravioli",
            "tortellini",
            "orzo",
            "noodle",
            "udon",
            "ramen",
            // Most soba is part wheat.
            "soba",
            "vermicelli",
            "gnocchi",
            "dumpling",
            "wonton",
            "gyoza",
            "samosa",
            "stuffing",
            "batter/battered",
            "nugget",
            // In a bun, and most UK patties have rusk.
            "burger",
            "hot dog",
            "beer",
            "weetabix",
            "shreddies",
            "cheerios",
            // Both have barley malt flavouring.
            "cornflake/corn flake",
            "rice krispie",
        ],
    ),
    (
        A::Crustaceans,
        &[
            "crustacean",
            "prawn",
            "shrimp",
            "crab/crabmeat",
            "lobster",
            "crayfish",
            "langoustine",
            "krill",
            // Tapioca and prawn: no wheat.
            "prawn cracker",
        ],
    ),
    (
        A::Eggs,
        &[
            "egg/eggy",
            "albumen/albumin",
            "mayonnaise/mayo/mayonaise",
            "aioli",
            "meringue",
            "pavlova",
            "omelette/omelet",
            "frittata",
            "eggnog",
            "souffle",
            "tartare sauce/tartar sauce",
            "coleslaw",
        ],
    ),
    (
        A::Fish,
        &[
            "fish/fishy",
            "salmon",
            "tuna",
            "cod",
            "haddock",
            "pollock/pollack",
            "hake",
            "plaice",
            "sole",
            "bass",
            "bream",
            "mackerel",
            "sardine",
            "anchovy",
            "herring",
            "kipper",
            "pilchard",
            "sprat",
            "whitebait",
            "trout",
            "tilapia",
            "basa",
            "coley",
            "halibut",
            "turbot",
            "monkfish",
            "swordfish",
            "shark",
            "marlin",
            "catfish",
            "carp",
            "snapper",
            "mullet",
            "gurnard",
            "eel",
            "roe",
            "caviar",
            "taramasalata",
            "surimi",
            "nam pla",
            "dashi",
            "bonito",
        ],
    ),
    (A::Lupin, &["lupin/lupine/lupini"]),
    (
        A::Milk,
        &[
            "milk/milky/milkshake",
            "buttermilk",
            "dairy",
            "lactose",
            "butter/buttered/buttery",
            "butterscotch",
            "ghee",
            "cream/creamy/creamed/creme",
            "creme fraiche",
            "ice cream/icecream",
            "cream cheese",
            // Non-dairy creamers are usually made with caseinate.
            "creamer",
            "cheese/cheesy",
            "cheddar",
            "mozzarella",
            "parmesan/parmigiano",
            "pecorino",
            "grana padano",
            "brie",
            "camembert",
            "feta",
            // A cheese, whatever it sounds like.
            "halloumi/haloumi/hellim",
            "ricotta",
            "mascarpone",
            "paneer",
            "quark",
            "fromage frais",
            "stilton",
            "roquefort",
            "dolcelatte",
            "taleggio",
            "fontina",
            "provolone",
            "raclette",
            "wensleydale",
            "red leicester",
            "double gloucester",
            "cheshire cheese",
            "skyr",
            "gouda",
            "edam",
            "emmental",
            "gruyere",
            "manchego",
            "gorgonzola",
            "burrata",
            "labneh",
            "kefir",
            "lassi",
            "raita",
            "tzatziki",
            "yoghurt/yogurt/yoghourt/yogourt",
            "whey",
            "casein/caseinate",
            "curd",
            "rice pudding",
            // Most chocolate children eat is milk chocolate; dark often has milk too.
            "chocolate",
            "fudge",
            "toffee",
            "risotto",
            "alfredo",
            "gratin/dauphinoise",
            // The mash has butter and milk.
            "shepherds pie",
            "cottage pie",
        ],
    ),
    (
        A::Molluscs,
        &[
            "mollusc/mollusk",
            "mussel",
            "clam",
            "oyster",
            "squid",
            "calamari",
            "octopus",
            "scallop",
            "cockle",
            "whelk",
            "winkle/periwinkle",
            "snail/escargot",
            "cuttlefish",
            "abalone",
            "vongole",
        ],
    ),
    (
        A::Mustard,
        &[
            "mustard",
            "dijon",
            "piccalilli",
            // Most are made with mustard.
            "vinaigrette",
            "french dressing",
        ],
    ),
    (
        A::TreeNuts,
        &[
            "tree nut",
            "almond",
            "hazelnut/filbert",
            "cobnut/cob nut",
            "walnut",
            "cashew",
            "pecan",
            "brazil nut",
            "pistachio",
            "macadamia/queensland nut",
            "marzipan",
            "frangipane",
            "amaretti/amaretto",
            "praline",
            "nougat",
            "gianduja",
        ],
    ),
    (
        A::Peanuts,
        &[
            "peanut",
            "groundnut/ground nut",
            "monkey nut",
            "arachis",
            "satay",
            "gado gado",
            // The peanut puffs given to babies to introduce peanut.
            "bamba",
        ],
    ),
    (
        A::Sesame,
        &[
            "sesame",
            "tahini/tahina",
            "hummus/houmous/humous/hommus/houmus/hummous",
            "halva/halvah/halwa",
            "baba ganoush/baba ghanoush",
            "zaatar",
            "gomasio",
        ],
    ),
    (
        A::Soya,
        &[
            "soya/soy/soybean/soyabean",
            "edamame",
            "tofu",
            "bean curd/beancurd",
            "tempeh",
            "miso",
            "natto",
            "tamari",
            "tvp/textured vegetable protein",
            "yuba",
        ],
    ),
    (
        A::Sulphites,
        &[
            "sulphite/sulfite/metabisulphite/metabisulfite/e220/e221/e222/e223/e224/e226/e227/e228",
            "sulphur dioxide/sulfur dioxide",
            "dried apricot",
            "dried fruit",
            "wine",
            "balsamic",
        ],
    ),
];

/// Words that name several allergens at once.
const GROUPS: &[(&str, &[Allergen])] = &[
    // Parents say "nuts" for both, and a food that says "nuts" may have either.
    ("nut/nutty", &[A::TreeNuts, A::Peanuts]),
    ("shellfish", &[A::Crustaceans, A::Molluscs]),
    ("seafood", &[A::Crustaceans, A::Fish, A::Molluscs]),
];

/// Dishes whose usual recipe carries several allergens. Read in foods only: an allergy typed as
/// a dish is compared word for word instead.
const DISHES: &[(&str, &[Allergen])] = &[
    ("soy sauce/soya sauce", &[A::Gluten, A::Soya]),
    // Most stock cubes, pots and bouillon sold in the UK list celery, and many are bulked with
    // wheat flour (OXO).
    ("stock cube/stock pot/bouillon/oxo", &[A::Celery, A::Gluten]),
    // Gravy granules and a gravy made at home are thickened with wheat flour.
    ("gravy", &[A::Gluten]),
    // UK baking powders are often bulked with wheat flour.
    ("baking powder", &[A::Gluten]),
    // Indian-style jars (tikka, madras, balti) list mustard; Thai pastes are made on shrimp
    // paste and fish sauce.
    (
        "curry paste/tikka paste/tikka masala paste/madras paste/balti paste/jalfrezi paste/rogan josh paste",
        &[A::Mustard],
    ),
    (
        "thai curry paste/red curry paste/green curry paste/yellow curry paste/massaman paste/panang paste",
        &[A::Crustaceans, A::Fish],
    ),
    // Ready-made pastry is wheat pastry; "all butter" ones add milk through their words.
    ("shortcrust", &[A::Gluten]),
    ("vol au vent", &[A::Gluten]),
    ("shoyu", &[A::Gluten, A::Soya]),
    ("teriyaki", &[A::Gluten, A::Soya]),
    // Fermented soybean paste made with wheat flour.
    ("hoisin", &[A::Gluten, A::Soya]),
    // Anchovies, and barley malt vinegar.
    (
        "worcestershire sauce/worcestershire/worcester sauce",
        &[A::Gluten, A::Fish],
    ),
    ("fish finger/fish stick", &[A::Gluten, A::Fish]),
    ("fish cake/fishcake", &[A::Gluten, A::Fish]),
    ("fish and chips", &[A::Gluten, A::Fish]),
    ("fish pie", &[A::Fish, A::Milk]),
    ("kedgeree", &[A::Eggs, A::Fish, A::Milk]),
    ("caesar", &[A::Eggs, A::Fish, A::Milk]),
    (
        "crab stick/seafood stick",
        &[A::Crustaceans, A::Eggs, A::Fish],
    ),
    ("scampi", &[A::Gluten, A::Crustaceans]),
    ("cake/gateau", &[A::Gluten, A::Eggs, A::Milk]),
    ("cupcake/fairy cake", &[A::Gluten, A::Eggs, A::Milk]),
    ("sponge", &[A::Gluten, A::Eggs, A::Milk]),
    ("cheesecake", &[A::Gluten, A::Eggs, A::Milk]),
    ("swiss roll", &[A::Gluten, A::Eggs, A::Milk]),
    ("pancake", &[A::Gluten, A::Eggs, A::Milk]),
    ("crepe", &[A::Gluten, A::Eggs, A::Milk]),
    ("waffle", &[A::Gluten, A::Eggs, A::Milk]),
    ("yorkshire pudding", &[A::Gluten, A::Eggs, A::Milk]),
    ("toad in the hole", &[A::Gluten, A::Eggs, A::Milk]),
    ("french toast/eggy bread", &[A::Gluten, A::Eggs, A::Milk]),
    ("bread and butter pudding", &[A::Gluten, A::Eggs, A::Milk]),
    ("brioche", &[A::Gluten, A::Eggs, A::Milk]),
    ("croissant", &[A::Gluten, A::Eggs, A::Milk]),
    ("pain au chocolat", &[A::Gluten, A::Eggs, A::Milk]),
    ("muffin", &[A::Gluten, A::Eggs, A::Milk]),
    ("cookie", &[A::Gluten, A::Eggs, A::Milk]),
    ("doughnut/donut", &[A::Gluten, A::Eggs, A::Milk]),
    ("quiche", &[A::Gluten, A::Eggs, A::Milk]),
    ("challah", &[A::Gluten, A::Eggs]),
    ("scotch egg", &[A::Gluten, A::Eggs]),
    // Fresh pasta in the UK is egg pasta.
    ("fresh pasta", &[A::Gluten, A::Eggs]),
    ("custard", &[A::Eggs, A::Milk]),
    ("creme brulee", &[A::Eggs, A::Milk]),
    ("creme caramel", &[A::Eggs, A::Milk]),
    ("lemon curd", &[A::Eggs, A::Milk]),
    ("hollandaise", &[A::Eggs, A::Milk]),
    ("bearnaise", &[A::Eggs, A::Milk]),
    ("carbonara", &[A::Eggs, A::Milk]),
    ("salad cream", &[A::Eggs, A::Mustard]),
    // Chocolate, not egg.
    ("easter egg", &[A::Milk]),
    ("kinder egg", &[A::Milk]),
    ("custard cream", &[A::Gluten, A::Milk]),
    ("pizza", &[A::Gluten, A::Milk]),
    ("lasagne/lasagna", &[A::Gluten, A::Milk]),
    // The dried pasta, not the dish.
    ("lasagne sheet/lasagna sheet", &[A::Gluten]),
    ("quesadilla", &[A::Gluten, A::Milk]),
    ("cheeseburger", &[A::Gluten, A::Milk]),
    ("mac and cheese/mac n cheese", &[A::Gluten, A::Milk]),
    ("bechamel/white sauce", &[A::Gluten, A::Milk]),
    ("scone", &[A::Gluten, A::Milk]),
    ("shortbread/shortcake", &[A::Gluten, A::Milk]),
    ("flapjack", &[A::Gluten, A::Milk]),
    ("crumble", &[A::Gluten, A::Milk]),
    // UK sausages are made with wheat rusk and kept with sulphites.
    ("sausage/chipolata", &[A::Gluten, A::Sulphites]),
    ("bakewell", &[A::Gluten, A::Eggs, A::TreeNuts]),
    ("baklava", &[A::Gluten, A::Milk, A::TreeNuts]),
    ("macaron", &[A::Eggs, A::TreeNuts]),
    ("korma", &[A::Milk, A::TreeNuts]),
    // Pine nuts are not one of the 14, but UK jars often use cashews, and all have parmesan.
    ("pesto", &[A::Milk, A::TreeNuts]),
    ("nutella", &[A::Milk, A::TreeNuts, A::Soya]),
    ("waldorf salad", &[A::Celery, A::Eggs, A::TreeNuts]),
];

/// Phrases that contain an allergen word but none of the allergen. Matched like the others, so
/// their words are not read on their own.
const NOT_ALLERGENS: &[&str] = &[
    "cream of tartar",
    "cream soda",
    "butter bean",
    "butter lettuce",
    "apple butter",
    "creamed coconut",
    "egg plant",
    // Pine nuts and tiger nuts are not tree nuts in law.
    "pine nut",
    "tiger nut",
    "oyster mushroom",
    "crab apple",
    "rice cake",
    // Arborio and carnaroli: the rice, not the dish.
    "risotto rice",
    "corn cake",
    "wine gum",
    "sushi roll",
    "rice paper roll",
    "summer roll",
];

/// Words that only mean an allergen when a parent describes an allergy.
const ALLERGY_WORDS: &[(Allergen, &[&str])] = &[
    (A::Gluten, &["coeliac/celiac"]),
    // Cow's milk protein allergy / intolerance.
    (A::Milk, &["cmpa/cmpi"]),
];

/// "oat milk", "rice noodles", "chocolate eggs": right after one of `after`, these words name a
/// look-alike without the allergen. The word before still counts on its own ("almond milk" is
/// tree nuts). Plain "coconut yoghurt" can be dairy, so only unambiguous pairs are listed.
struct Lookalike {
    allergen: Allergen,
    words: &'static [&'static str],
    after: &'static [&'static str],
}

const LOOKALIKES: &[Lookalike] = &[
    Lookalike {
        allergen: A::Milk,
        words: &["milk", "cream", "butter"],
        after: &[
            "almond",
            "cashew",
            "hazelnut",
            "macadamia",
            "pistachio",
            "walnut",
            "pecan",
            "peanut",
            "nut",
            "coconut",
            "cocoa",
            "cacao",
            "shea",
            "oat",
            "rice",
            "soy",
            "soya",
            "hemp",
            "pea",
            "flax",
            "quinoa",
            "sesame",
            "sunflower",
            "seed",
            "plant",
        ],
    },
    Lookalike {
        allergen: A::Milk,
        words: &["yoghurt", "cheese", "cream cheese"],
        after: &[
            "almond", "cashew", "nut", "oat", "soy", "soya", "hemp", "plant",
        ],
    },
    Lookalike {
        allergen: A::Gluten,
        words: &["flour"],
        after: &[
            "rice",
            "corn",
            "maize",
            "potato",
            "tapioca",
            "cassava",
            "arrowroot",
            "chickpea",
            "gram",
            "lentil",
            "pea",
            "coconut",
            "almond",
            "chestnut",
            "buckwheat",
            "quinoa",
            "millet",
            "sorghum",
            "teff",
            "soy",
            "soya",
            "banana",
            "hemp",
        ],
    },
    Lookalike {
        allergen: A::Gluten,
        words: &["noodle", "vermicelli"],
        after: &[
            "rice",
            "glass",
            "cellophane",
            "bean",
            "mung",
            "konjac",
            "shirataki",
            "kelp",
            "courgette",
            "zucchini",
        ],
    },
    Lookalike {
        allergen: A::Gluten,
        words: &["pasta", "spaghetti", "penne", "fusilli", "macaroni"],
        after: &[
            "rice",
            "corn",
            "maize",
            "lentil",
            "chickpea",
            "pea",
            "bean",
            "quinoa",
            "edamame",
            "konjac",
            "courgette",
        ],
    },
    Lookalike {
        allergen: A::Gluten,
        words: &["cracker", "tortilla", "wrap"],
        after: &["rice", "corn", "maize", "lettuce"],
    },
    Lookalike {
        allergen: A::Eggs,
        words: &["egg"],
        after: &["chocolate"],
    },
];

/// "no egg", "without butter", "non-dairy": only that word is dropped, since the rest of the
/// food may still have it ("cheese sandwich, no butter" is still milk).
const NEGATED_BY_WORD_BEFORE: &[&str] = &["no", "without", "non"];
/// "no egg or milk": the list goes on after these.
const NEGATION_LIST: &[&str] = &["or", "nor"];
/// "egg-free", "dairy free": the allergen is gone from the whole clause ("dairy-free cheese").
/// "Free-from" alone names no allergen, so it removes nothing.
const NEGATED_BY_WORD_AFTER: &str = "free";
/// A "-free" claim that does not remove the allergen: lactose-free milk is still milk, and
/// wheat-free bread may have rye or barley.
const PARTIAL_FREE: &[&str] = &["lactose", "wheat"];
/// Words that rule allergens out of their whole clause.
const CLAUSE_NEGATORS: &[(&str, &[Allergen])] = &[(
    "vegan",
    &[A::Crustaceans, A::Eggs, A::Fish, A::Milk, A::Molluscs],
)];
/// Words around an allergy that are not the food itself ("allergic to kiwi").
const ALLERGY_FILLER: &[&str] = &[
    "allergy",
    "allergic",
    "to",
    "intolerance",
    "intolerant",
    "sensitivity",
    "sensitive",
    "mild",
    "severe",
];

// ---------------------------------------------------------------------------------------------
// The matcher.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Food,
    Allergy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Both,
    FoodOnly,
    AllergyOnly,
}

/// What a spelling means: the allergens it names, shown by the table's first spelling.
struct Entry {
    shown: &'static str,
    allergens: Vec<Allergen>,
    scope: Scope,
}

impl Entry {
    fn readable(&self, reading: Reading) -> bool {
        match self.scope {
            Scope::Both => true,
            Scope::FoodOnly => reading == Reading::Food,
            Scope::AllergyOnly => reading == Reading::Allergy,
        }
    }
}

/// All spellings of all tables.
static INDEX: LazyLock<PhraseIndex<Entry>> = LazyLock::new(|| {
    let mut index = PhraseIndex::default();
    let mut add = |line: &'static str, allergens: &[Allergen], scope: Scope| {
        let shown = line.split('/').next().unwrap_or(line);
        index.add(line, || Entry {
            shown,
            allergens: allergens.to_vec(),
            scope,
        });
    };
    for (allergen, lines) in TERMS {
        for line in *lines {
            add(line, &[*allergen], Scope::Both);
        }
    }
    for (line, allergens) in GROUPS {
        add(line, allergens, Scope::Both);
    }
    for (line, allergens) in DISHES {
        add(line, allergens, Scope::FoodOnly);
    }
    for line in NOT_ALLERGENS {
        add(line, &[], Scope::Both);
    }
    for (allergen, lines) in ALLERGY_WORDS {
        for line in *lines {
            add(line, &[*allergen], Scope::AllergyOnly);
        }
    }
    index
});

/// One word or phrase that names allergens, and what it names.
#[derive(Debug)]
struct Hit {
    start: usize,
    end: usize,
    found: Vec<(Allergen, &'static str)>,
}

/// The hits, left to right, longest phrase first; look-alikes already taken out.
fn scan(words: &[Word], reading: Reading) -> Vec<Hit> {
    let index = &*INDEX;
    let mut hits = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let (n, entries) = index.longest_at(words, at, |e| e.readable(reading));
        if n == 0 {
            at += 1;
            continue;
        }
        let mut found = Vec::new();
        for entry in &entries {
            for &allergen in &entry.allergens {
                let taken = found.iter().any(|(a, _)| *a == allergen);
                if !taken && !is_lookalike(words, at, entry.shown, allergen) {
                    found.push((allergen, entry.shown));
                }
            }
        }
        if !found.is_empty() {
            hits.push(Hit {
                start: at,
                end: at + n,
                found,
            });
        }
        at += n;
    }
    hits
}

fn is_lookalike(words: &[Word], at: usize, shown: &str, allergen: Allergen) -> bool {
    let Some(before) = at.checked_sub(1).map(|i| &words[i]) else {
        return false;
    };
    before.segment == words[at].segment
        && LOOKALIKES.iter().any(|l| {
            l.allergen == allergen
                && l.words.contains(&shown)
                && l.after.iter().any(|w| is_form_of(&before.text, w))
        })
}

/// Which hits a negation drops, and which allergens are ruled out of which clause.
fn negations(words: &[Word], hits: &[Hit]) -> (Vec<bool>, HashSet<(u32, Allergen)>) {
    let mut dropped = vec![false; hits.len()];
    let mut suppressed = HashSet::new();
    let mut negated_before = vec![false; hits.len()];
    let same_segment = |a: usize, b: usize| words[a].segment == words[b].segment;
    for (i, hit) in hits.iter().enumerate() {
        let word_before = hit
            .start
            .checked_sub(1)
            .filter(|&b| same_segment(b, hit.start));
        let listed = i > 0
            && negated_before[i - 1]
            && hits[i - 1].end + 1 == hit.start
            && word_before.is_some_and(|b| NEGATION_LIST.contains(&words[b].text.as_str()));
        negated_before[i] = listed
            || word_before
                .is_some_and(|b| NEGATED_BY_WORD_BEFORE.contains(&words[b].text.as_str()));
        if negated_before[i] {
            dropped[i] = true;
        }
        let free_after = words
            .get(hit.end)
            .is_some_and(|w| w.text == NEGATED_BY_WORD_AFTER && same_segment(hit.end, hit.end - 1));
        if free_after {
            dropped[i] = true;
            let clause = words[hit.start].clause;
            for &(allergen, shown) in &hit.found {
                if !PARTIAL_FREE.contains(&shown) {
                    suppressed.insert((clause, allergen));
                }
            }
        }
    }
    for word in words {
        for (negator, allergens) in CLAUSE_NEGATORS {
            if word.text == *negator {
                suppressed.extend(allergens.iter().map(|&a| (word.clause, a)));
            }
        }
    }
    (dropped, suppressed)
}

/// An allergy's own words, without "allergic to" and the like: as typed, and as read in each
/// language it shows ("allergie aux fraises" is "strawberry").
fn literal_words(allergy: &str) -> Vec<Vec<Word>> {
    literal_readings(allergy, &readings(allergy, english_phrase), |w| {
        !ALLERGY_FILLER.iter().any(|f| is_form_of(&w.text, f))
    })
}

/// The words of a text as typed, then its readings (`read`), each with the words `keep`
/// takes, each once.
fn literal_readings(
    text: &str,
    read: &[Vec<Word>],
    keep: impl Fn(&Word) -> bool,
) -> Vec<Vec<Word>> {
    let mut out: Vec<Vec<Word>> = Vec::new();
    for reading in std::iter::once(words(text)).chain(read.iter().cloned()) {
        let kept: Vec<Word> = reading.into_iter().filter(&keep).collect();
        let same = |o: &Vec<Word>| {
            o.len() == kept.len() && o.iter().zip(&kept).all(|(a, b)| a.text == b.text)
        };
        if !out.iter().any(same) {
            out.push(kept);
        }
    }
    out
}

/// Where the allergy's words stand in the food, word for word: the food's words, as folded,
/// or as typed when read from another language.
fn find_literal(text: &str, food: &[Word], allergy: &[Word]) -> Option<String> {
    if allergy.is_empty() || allergy.len() > food.len() {
        return None;
    }
    food.windows(allergy.len())
        .find(|window| {
            window
                .iter()
                .zip(allergy)
                .all(|(f, a)| same_word(&f.text, &a.text))
                && window.iter().all(|w| w.segment == window[0].segment)
        })
        .map(|window| {
            if window.iter().any(|w| w.translated) {
                return Word::as_typed(text, window);
            }
            window
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use A::*;

    /// The allergens of a food, sorted.
    fn found(food: &str) -> Vec<Allergen> {
        let mut out: Vec<Allergen> = allergens_in_food(food)
            .into_iter()
            .map(|m| m.allergen)
            .collect();
        out.sort();
        out
    }

    fn check(cases: &[(&str, &[Allergen])]) {
        for (food, expected) in cases {
            let mut expected = expected.to_vec();
            expected.sort();
            assert_eq!(found(food), expected, "food: {food:?}");
        }
    }

    /// Each food has `allergen` (and maybe others).
    fn all_have(allergen: Allergen, foods: &[&str]) {
        for food in foods {
            assert!(
                found(food).contains(&allergen),
                "{food:?} should contain {allergen}, found {:?}",
                found(food)
            );
        }
    }

    fn none_have(allergen: Allergen, foods: &[&str]) {
        for food in foods {
            assert!(
                !found(food).contains(&allergen),
                "{food:?} should not contain {allergen}"
            );
        }
    }

    fn parsed(text: &str) -> Vec<Allergen> {
        let mut out = Allergen::from_allergy_text(text);
        out.sort();
        out
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn fourteen_allergens_with_names_and_stable_keys() {
        assert_eq!(Allergen::ALL.len(), 14);
        let keys: HashSet<&str> = Allergen::ALL.iter().map(|a| a.key()).collect();
        assert_eq!(keys.len(), 14);
        for a in Allergen::ALL {
            assert_eq!(Allergen::from_key(a.key()), Some(a));
            assert!(a.key().chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            assert_eq!(a.to_string(), a.name().to_string());
        }
        assert_eq!(Gluten.to_string(), "Cereals containing gluten");
        assert_eq!(TreeNuts.key(), "tree_nuts");
        assert_eq!(Allergen::from_key("Milk"), None);
        assert_eq!(Allergen::from_key("nuts"), None);
    }

    #[test]
    fn each_allergen_is_read_back_from_its_label_and_key() {
        for a in Allergen::ALL {
            let label = a.to_string();
            assert_eq!(Allergen::from_allergy_text(&label), [a], "{label}");
            assert_eq!(Allergen::from_allergy_text(a.key()), [a], "{}", a.key());
        }
    }

    #[test]
    fn reads_allergies_as_parents_type_them() {
        let cases: &[(&str, &[Allergen])] = &[
            ("Milk", &[Milk]),
            ("dairy", &[Milk]),
            ("cow's milk protein", &[Milk]),
            ("Cows milk protein allergy", &[Milk]),
            ("CMPA", &[Milk]),
            ("Lactose intolerant", &[Milk]),
            ("eggs", &[Eggs]),
            ("Egg white", &[Eggs]),
            ("peanut", &[Peanuts]),
            ("Peanuts", &[Peanuts]),
            ("nuts", &[TreeNuts, Peanuts]),
            ("Tree nuts", &[TreeNuts]),
            ("cashews", &[TreeNuts]),
            ("gluten", &[Gluten]),
            ("wheat", &[Gluten]),
            ("Coeliac disease", &[Gluten]),
            ("shellfish", &[Crustaceans, Molluscs]),
            ("prawns", &[Crustaceans]),
            ("Seafood", &[Crustaceans, Fish, Molluscs]),
            ("soy", &[Soya]),
            ("Soya", &[Soya]),
            ("Sesame seeds", &[Sesame]),
            ("sulfites", &[Sulphites]),
            ("Mustard", &[Mustard]),
            ("celery", &[Celery]),
            ("lupine", &[Lupin]),
            ("mollusks", &[Molluscs]),
            ("Milk and eggs", &[Eggs, Milk]),
            // Avoidance, not absence: a "-free" diet names the allergen.
            ("Dairy free", &[Milk]),
            ("nut-free diet", &[TreeNuts, Peanuts]),
            // Ingredients named inside a dish still count.
            ("Peanut butter", &[Peanuts]),
            ("Fish fingers", &[Fish]),
            ("Soy sauce", &[Soya]),
        ];
        for (text, expected) in cases {
            let mut expected = expected.to_vec();
            expected.sort();
            assert_eq!(parsed(text), expected, "allergy: {text:?}");
        }
        assert_eq!(Allergen::from_allergy_text("nuts"), [TreeNuts, Peanuts]);
    }

    #[test]
    fn unknown_allergy_text_names_no_allergen() {
        for text in [
            "Kiwi",
            "strawberry",
            "",
            "   ",
            "!!!",
            "Pine nuts",
            "coconut",
            // A dish as an allergy is compared word for word, not as all of its allergens.
            "Pesto",
            "cake",
        ] {
            assert!(parsed(text).is_empty(), "allergy: {text:?}");
        }
        // Coeliac is a condition, not an ingredient.
        assert!(found("Coeliac-friendly rice").is_empty());
    }

    #[test]
    fn the_issue_examples() {
        check(&[
            ("Buttered toast", &[Milk, Gluten]),
            ("Greek yoghurt", &[Milk]),
            ("Scrambled eggs", &[Eggs]),
            ("Satay chicken", &[Peanuts]),
            ("Hummus", &[Sesame]),
            ("Fish fingers", &[Fish, Gluten]),
            ("Pesto pasta", &[TreeNuts, Milk, Gluten]),
        ]);
    }

    #[test]
    fn the_matched_word_is_the_tables_spelling_and_each_allergen_comes_once() {
        let m = allergens_in_food("Buttered toast");
        assert_eq!(
            m,
            [
                Match {
                    allergen: Milk,
                    matched: "butter".into()
                },
                Match {
                    allergen: Gluten,
                    matched: "toast".into()
                },
            ]
        );
        let m = allergens_in_food("Cheese and butter sandwich");
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].allergen, m[0].matched.as_str()), (Milk, "cheese"));
        assert_eq!((m[1].allergen, m[1].matched.as_str()), (Gluten, "sandwich"));
        assert_eq!(allergens_in_food("Houmous")[0].matched, "hummus");
        assert_eq!(allergens_in_food("Greek YOGURT")[0].matched, "yoghurt");
        assert_eq!(allergens_in_food("Fish fingers")[0].matched, "fish finger");
        assert_eq!(
            allergens_in_food("Crème fraîche")[0].matched,
            "creme fraiche"
        );
    }

    #[test]
    fn milk_and_its_derivatives() {
        all_have(
            Milk,
            &[
                "Milk",
                "Warm milk",
                "Cow's milk",
                "Goat's cheese",
                "Cheddar",
                "Roquefort",
                "Wensleydale and cranberry",
                "Red Leicester",
                "Cheese on toast",
                "Cheesy pasta",
                "Greek yogurt",
                "Yoghurts",
                "Cream",
                "Double cream",
                "Creamy mash",
                "Ice cream",
                "Icecream",
                "Whey protein",
                "Ghee",
                "Casein",
                "Custard",
                "Crème fraîche",
                "Halloumi",
                "Mozzarella",
                "Parmesan",
                "Feta salad",
                "Cream cheese bagel",
                "Fromage frais",
                "Paneer curry",
                "Rice pudding",
                "Milk chocolate",
                "Chocolate buttons",
                "Butter chicken",
                "Buttermilk pancakes",
                "Milkshake",
                "Lactose",
                "Dairy dessert",
                "Tzatziki",
                "Kefir",
                "Shepherd's pie",
                "Coffee creamer",
            ],
        );
    }

    #[test]
    fn eggs_and_their_derivatives() {
        all_have(
            Eggs,
            &[
                "Egg",
                "Boiled eggs",
                "Egg yolk",
                "Mayonnaise",
                "Tuna mayo",
                "Meringue",
                "Pavlova",
                "Omelette",
                "Spanish omelet",
                "Quiche lorraine",
                "Frittata",
                "Egg noodles",
                "Eggy bread",
                "French toast",
                "Scotch egg",
                "Custard",
                "Pancakes",
                "Victoria sponge",
                "Birthday cake",
                "Yorkshire pudding",
                "Hollandaise",
                "Coleslaw",
                "Aioli",
                "Crème brûlée",
                "Lemon curd",
            ],
        );
    }

    #[test]
    fn cereals_containing_gluten() {
        all_have(
            Gluten,
            &[
                "Wheat",
                "Bread",
                "Toast",
                "Wholemeal toast",
                "Pasta",
                "Spaghetti bolognese",
                "Couscous",
                "Semolina",
                "Barley",
                "Rye bread",
                "Spelt flour",
                "Plain flour",
                "Crackers",
                "Biscuits",
                "Cake",
                "Noodles",
                "Egg noodles",
                "Porridge oats",
                "Oats",
                "Oatcakes",
                "Weetabix",
                "Pitta bread",
                "Naan",
                "Crumpets",
                "Breaded chicken",
                "Battered cod",
                "Chicken nuggets",
                "Sausages",
                "Pizza",
                "Bagel",
                "Ravioli",
                "Soy sauce",
                "Malt loaf",
                "Tortilla wrap",
                "Pie",
                "Doughnut",
                "Buckwheat pancakes",
                "Buckwheat noodles",
            ],
        );
    }

    #[test]
    fn fish() {
        all_have(
            Fish,
            &[
                "Fish",
                "Salmon",
                "Tuna pasta",
                "Cod",
                "Smoked haddock",
                "Sardines on toast",
                "Anchovies",
                "Fish fingers",
                "Fishcakes",
                "Fish pie",
                "Mackerel pate",
                "Sea bass",
                "Fish sauce",
                "Worcestershire sauce",
                "Kedgeree",
                "Seafood",
                "Shark steak",
                "Marlin",
            ],
        );
        none_have(Fish, &["Shellfish", "Crayfish", "Goldfish"]);
    }

    #[test]
    fn crustaceans() {
        all_have(
            Crustaceans,
            &[
                "Prawns",
                "King prawn curry",
                "Shrimp",
                "Crab",
                "Crabmeat sandwich",
                "Lobster",
                "Crayfish",
                "Langoustines",
                "Scampi",
                "Shellfish",
                "Prawn crackers",
            ],
        );
    }

    #[test]
    fn molluscs() {
        all_have(
            Molluscs,
            &[
                "Mussels",
                "Clams",
                "Oysters",
                "Oyster sauce",
                "Squid",
                "Calamari",
                "Octopus",
                "Octopuses",
                "Scallops",
                "Cockles",
                "Snails",
                "Shellfish",
            ],
        );
        none_have(Molluscs, &["Scalloped potatoes", "Oyster mushrooms"]);
    }

    #[test]
    fn soya() {
        all_have(
            Soya,
            &[
                "Soy",
                "Soya",
                "Soy sauce",
                "Tofu",
                "Edamame beans",
                "Miso soup",
                "Tempeh",
                "Soya milk",
                "Soybeans",
                "Teriyaki salmon",
                "Bean curd",
            ],
        );
        check(&[("Soy sauce", &[Soya, Gluten]), ("Tamari", &[Soya])]);
    }

    #[test]
    fn peanuts() {
        all_have(
            Peanuts,
            &[
                "Peanuts",
                "Peanut butter",
                "Groundnut oil",
                "Ground nuts",
                "Satay chicken",
                "Monkey nuts",
                "Bamba",
                "Arachis oil",
            ],
        );
        check(&[("Peanut butter on toast", &[Peanuts, Gluten])]);
    }

    #[test]
    fn tree_nuts() {
        all_have(
            TreeNuts,
            &[
                "Almonds",
                "Ground almonds",
                "Hazelnuts",
                "Walnut",
                "Cashews",
                "Pecan pie",
                "Pistachios",
                "Brazil nuts",
                "Macadamia",
                "Marzipan",
                "Praline",
                "Nutella",
                "Pesto",
                "Chicken korma",
                "Bakewell tart",
                "Almond milk",
            ],
        );
        check(&[("Brazil nuts", &[TreeNuts]), ("Cashew butter", &[TreeNuts])]);
    }

    #[test]
    fn nuts_in_general_mean_both_kinds() {
        check(&[
            ("Mixed nuts", &[TreeNuts, Peanuts]),
            ("Nut roast", &[TreeNuts, Peanuts]),
            ("Nutty granola", &[TreeNuts, Peanuts, Gluten]),
        ]);
    }

    #[test]
    fn sesame() {
        all_have(
            Sesame,
            &[
                "Sesame seeds",
                "Tahini",
                "Hummus",
                "Houmous and carrots",
                "Humous",
                "Halva",
                "Sesame oil",
                "Baba ganoush",
                "Za'atar flatbread",
            ],
        );
        // Halloumi sounds like hummus but is cheese.
        check(&[("Halloumi", &[Milk])]);
    }

    #[test]
    fn celery_mustard_lupin_and_sulphites() {
        all_have(Celery, &["Celery sticks", "Celeriac mash", "Stock cube"]);
        all_have(
            Mustard,
            &["Mustard", "Dijon chicken", "Honey mustard", "Salad cream"],
        );
        all_have(Lupin, &["Lupin flour", "Lupine", "Lupini beans"]);
        all_have(
            Sulphites,
            &[
                "Dried apricots",
                "Dried fruit",
                "Red wine vinegar",
                "Balsamic glaze",
                "Sulphites",
                "Contains sulfur dioxide",
                "E220",
                "Pork sausages",
            ],
        );
        check(&[("Wine gums", &[])]);
    }

    #[test]
    fn no_false_positives() {
        for food in [
            "Eggplant",
            "Egg plant",
            "Aubergine",
            "Butternut squash",
            "Nutmeg",
            "Ground nutmeg",
            "Coconut",
            "Water chestnut",
            "Chestnuts",
            "Cream of tartar",
            "Cocoa butter",
            "Shea butter",
            "Peanut-free spread",
            "Buckwheat",
            "Rice noodles",
            "Rice vermicelli",
            "Glass noodles",
            "Coconut milk",
            "Coconut cream",
            "Creamed coconut",
            "Rice milk",
            "Sweetcorn",
            "Corn on the cob",
            "Cornflour",
            "Rice flour",
            "Corn tortilla",
            "Butter beans",
            "Pine nuts",
            "Tiger nut milk",
            "Oyster mushrooms",
            "Crab apples",
            "Rice cakes",
            "Toasted coconut",
            "Lactic acid",
            "Maltodextrin",
            "Polenta",
            "Quinoa",
            "Chickpeas",
            "Butterfly",
            "Apple butter",
            "Strawberries",
            "Banana",
        ] {
            assert_eq!(found(food), [], "food: {food:?}");
        }
    }

    #[test]
    fn a_doughnut_has_wheat_egg_and_milk_but_no_nuts() {
        check(&[
            ("Doughnut", &[Gluten, Eggs, Milk]),
            ("Jam doughnuts", &[Gluten, Eggs, Milk]),
            ("Donut", &[Gluten, Eggs, Milk]),
        ]);
    }

    #[test]
    fn plant_drinks_and_spreads_are_their_plant_not_milk() {
        check(&[
            ("Almond milk", &[TreeNuts]),
            ("Oat milk", &[Gluten]),
            ("Oat milk porridge", &[Gluten]),
            ("Soya milk", &[Soya]),
            ("Soy yoghurt", &[Soya]),
            ("Coconut milk", &[]),
            ("Rice milk", &[]),
            ("Hazelnut milk", &[TreeNuts]),
            ("Peanut butter", &[Peanuts]),
            ("Almond butter", &[TreeNuts]),
            ("Cashew cheese", &[TreeNuts]),
            ("Sunflower seed butter", &[]),
            ("Cocoa butter", &[]),
        ]);
        // Only right before: separated, the dairy word is dairy again.
        check(&[
            ("Almond, milk", &[TreeNuts, Milk]),
            ("Coconut and milk", &[Milk]),
        ]);
        // Coconut yoghurt is often dairy yoghurt with coconut: warn.
        check(&[("Coconut yoghurt", &[Milk])]);
    }

    #[test]
    fn gluten_free_grains_and_lookalikes() {
        check(&[
            ("Rice noodles", &[]),
            ("Rice flour", &[]),
            ("Buckwheat flour", &[]),
            ("Almond flour", &[TreeNuts]),
            ("Lentil pasta", &[]),
            ("Rice crackers", &[]),
            ("Chocolate eggs", &[Milk]),
            ("Easter egg", &[Milk]),
        ]);
    }

    #[test]
    fn the_longest_phrase_wins() {
        check(&[
            ("Salad cream", &[Eggs, Mustard]),
            ("Cream crackers", &[Gluten]),
            ("Prawn crackers", &[Crustaceans]),
            ("Brazil nuts", &[TreeNuts]),
            ("Monkey nuts", &[Peanuts]),
            ("Pine nuts", &[]),
            ("Cream of tartar", &[]),
            ("Ice cream", &[Milk]),
            ("Fish and chips", &[Fish, Gluten]),
        ]);
    }

    #[test]
    fn foods_with_several_allergens() {
        check(&[
            ("Egg fried rice with soy sauce", &[Eggs, Soya, Gluten]),
            ("Waldorf salad", &[Celery, Eggs, TreeNuts]),
            ("Cheese and ham sandwich", &[Milk, Gluten]),
            ("Prawn and mussel paella", &[Crustaceans, Molluscs]),
            ("Tuna mayo jacket potato", &[Fish, Eggs]),
            ("Spaghetti carbonara", &[Gluten, Eggs, Milk]),
            ("Seafood platter", &[Fish, Crustaceans, Molluscs]),
        ]);
        let m = allergens_in_food("Egg fried rice with soy sauce");
        assert_eq!(m[0].allergen, Eggs);
        assert_eq!(m[0].matched, "egg");
        assert_eq!(m[1].matched, "soy sauce");
    }

    /// Shop-bought compounds carry what their usual recipe holds, whatever the quantity
    /// written before them (issue 26: "2 tsp soy sauce" was badged gluten-free).
    #[test]
    fn compound_ingredients_carry_every_allergen_they_usually_hold() {
        check(&[
            ("2 tsp soy sauce", &[Gluten, Soya]),
            ("1 tbsp soya sauce", &[Gluten, Soya]),
            ("Dark soy sauce", &[Gluten, Soya]),
            ("1 vegetable stock cube", &[Celery, Gluten]),
            ("Chicken stock pot", &[Celery, Gluten]),
            ("Swiss vegetable bouillon", &[Celery, Gluten]),
            ("2 Oxo cubes", &[Celery, Gluten]),
            ("A dash of Worcestershire sauce", &[Gluten, Fish]),
            ("2 tbsp green pesto", &[Milk, TreeNuts]),
            ("Red pesto", &[Milk, TreeNuts]),
            ("1 tbsp mild curry paste", &[Mustard]),
            ("Tikka masala paste", &[Mustard]),
            ("Thai green curry paste", &[Crustaceans, Fish]),
            ("2 tbsp red curry paste", &[Crustaceans, Fish]),
            ("1 tsp baking powder", &[Gluten]),
            ("Gluten-free baking powder", &[]),
            ("Gravy granules", &[Gluten]),
            ("Onion gravy", &[Gluten]),
            ("50 g breadcrumbs", &[Gluten]),
            ("Panko", &[Gluten]),
            ("Ready-rolled puff pastry", &[Gluten]),
            ("Shortcrust case", &[Gluten]),
            ("All-butter shortcrust pastry", &[Milk, Gluten]),
            ("Filo sheets", &[Gluten]),
            ("Hoisin sauce", &[Gluten, Soya]),
            ("Bicarbonate of soda", &[]),
            ("Cream of tartar", &[]),
        ]);
    }

    #[test]
    fn free_after_a_word_removes_its_allergen_from_the_clause() {
        check(&[
            ("Egg-free pasta", &[Gluten]),
            ("Egg free pasta", &[Gluten]),
            ("Dairy-free cheese", &[]),
            ("Dairy free yoghurt", &[]),
            ("Gluten-free bread", &[]),
            ("Gluten free soy sauce", &[Soya]),
            ("Peanut-free spread", &[]),
            ("Nut-free chocolate spread", &[Milk]),
            ("Peanut-free nut butter", &[TreeNuts]),
            ("Soya-free yoghurt", &[Milk]),
            ("Cheese (dairy-free)", &[]),
            ("Sugar-free yoghurt", &[Milk]),
            ("Egg-free mayo", &[]),
        ]);
    }

    #[test]
    fn a_negation_stops_at_the_end_of_its_clause() {
        check(&[
            ("Gluten-free bread and butter", &[Milk]),
            ("Cheese scone with dairy-free spread", &[Gluten, Milk]),
            ("Egg-free pasta with cheese", &[Gluten, Milk]),
            ("Dairy-free yoghurt, cheese", &[Milk]),
            // A "free" in the next clause is not about this word.
            ("Dairy, free range eggs", &[Milk, Eggs]),
            ("Free range eggs", &[Eggs]),
        ]);
    }

    #[test]
    fn when_unsure_it_warns() {
        check(&[
            // Only dairy is said to be free here; the egg may be an ingredient.
            ("Egg and dairy free cake", &[Eggs, Gluten]),
            // A "free-from" range says nothing about which allergen.
            ("Free-from cake", &[Gluten, Eggs, Milk]),
            ("Free from nuts", &[TreeNuts, Peanuts]),
            // Only "dairy" is negated; the creamer itself is made with caseinate.
            ("Non-dairy creamer", &[Milk]),
        ]);
    }

    #[test]
    fn no_before_a_word_removes_only_that_word() {
        check(&[
            ("Toast, no butter", &[Gluten]),
            ("Toast with no butter", &[Gluten]),
            ("Toast without butter", &[Gluten]),
            ("Cheese sandwich no butter", &[Milk, Gluten]),
            ("Porridge, no milk", &[Gluten]),
            // Pancakes are still made with egg and milk as far as the matcher can tell.
            ("Pancakes no egg or milk", &[Gluten, Eggs, Milk]),
            ("No egg or milk", &[]),
            ("No nuts", &[]),
            ("No added sugar yoghurt", &[Milk]),
        ]);
    }

    #[test]
    fn free_claims_that_keep_the_allergen() {
        check(&[
            ("Lactose-free milk", &[Milk]),
            ("Lactose free cheese", &[Milk]),
            ("Wheat-free bread", &[Gluten]),
        ]);
    }

    #[test]
    fn vegan_rules_out_animal_allergens_in_its_clause() {
        check(&[
            ("Vegan cheese", &[]),
            ("Vegan mayo", &[]),
            ("Vegan sausage roll", &[Gluten, Sulphites]),
            ("Vegan burger with cheese", &[Gluten, Milk]),
        ]);
    }

    #[test]
    fn plurals_case_accents_and_whole_words() {
        check(&[
            ("PRAWNS", &[Crustaceans]),
            ("eggs", &[Eggs]),
            ("Anchovies", &[Fish]),
            ("Tomatoes", &[]),
            ("Pastries", &[Gluten]),
            ("Crème brûlée", &[Eggs, Milk]),
            ("CRÈME FRAÎCHE", &[Milk]),
            ("Soufflé", &[Eggs]),
            ("Gruyère", &[Milk]),
            ("Sardines", &[Fish]),
            ("Fish-fingers", &[Fish, Gluten]),
            ("fish   fingers", &[Fish, Gluten]),
            ("Scalloped potatoes", &[]),
        ]);
        // A word inside a longer word is not that word.
        none_have(TreeNuts, &["Coconut", "Doughnut", "Butternut", "Nutmeg"]);
        none_have(Peanuts, &["Coconut", "Doughnut", "Butternut", "Nutmeg"]);
        // A phrase does not run across punctuation.
        check(&[("Cocoa, butter", &[Milk]), ("Fish, fingers", &[Fish])]);
    }

    #[test]
    fn empty_and_odd_input() {
        for food in ["", "   ", "\n\t", "!!!", "---", "()", "'", "12345", "🍞🥚"] {
            assert_eq!(found(food), [], "food: {food:?}");
        }
        assert!(conflicts(&[], &strings(&["Milk"])).is_empty());
        assert!(conflicts(&strings(&["Toast"]), &[]).is_empty());
        assert!(conflicts(&strings(&["", "  "]), &strings(&["", " "])).is_empty());
    }

    #[test]
    fn very_long_input_is_read_without_panic() {
        let long = "Buttered toast with peanut-free spread, no egg; dairy-free (vegan) cheese "
            .repeat(5_000);
        let m = allergens_in_food(&long);
        assert_eq!(
            m.iter().map(|m| m.allergen).collect::<Vec<_>>(),
            [Milk, Gluten]
        );
        assert!(found(&"a".repeat(200_000)).is_empty());
        assert!(found(&"egg-free ".repeat(20_000)).is_empty());
        assert!(found(&",".repeat(100_000)).is_empty());
        assert_eq!(found(&format!("{} eggs", "x ".repeat(100_000))), [Eggs]);
        let c = conflicts(&[long], &strings(&["Milk", "kiwi", "gluten"]));
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn conflicts_by_allergen() {
        let c = conflicts(
            &strings(&["Buttered toast", "Banana", "Satay chicken", "Coconut milk"]),
            &strings(&["Dairy", "nuts"]),
        );
        assert_eq!(
            c,
            [
                Conflict {
                    food: "Buttered toast".into(),
                    allergy: "Dairy".into(),
                    allergen: Some(Milk),
                    matched: "butter".into(),
                },
                Conflict {
                    food: "Satay chicken".into(),
                    allergy: "nuts".into(),
                    allergen: Some(Peanuts),
                    matched: "satay".into(),
                },
            ]
        );
        assert_eq!(c[0].to_string(), "Buttered toast contains milk (butter)");
    }

    #[test]
    fn conflicts_name_each_allergen_once_per_food_and_allergy() {
        let c = conflicts(
            &strings(&["Mixed nuts and cheese"]),
            &strings(&["Nuts", "Milk", "peanuts"]),
        );
        let got: Vec<(&str, Option<Allergen>)> =
            c.iter().map(|c| (c.allergy.as_str(), c.allergen)).collect();
        assert_eq!(
            got,
            [
                ("Nuts", Some(TreeNuts)),
                ("Nuts", Some(Peanuts)),
                ("Milk", Some(Milk)),
                ("peanuts", Some(Peanuts)),
            ]
        );
        assert_eq!(
            c[0].to_string(),
            "Mixed nuts and cheese contains tree nuts (nut)"
        );
    }

    #[test]
    fn conflicts_respect_lookalikes_and_negations() {
        let foods = strings(&[
            "Almond milk",
            "Oat milk",
            "Eggplant curry",
            "Egg-free pasta",
            "Peanut-free spread",
            "Coconut",
        ]);
        let c = conflicts(&foods, &strings(&["Milk", "egg", "Peanuts"]));
        assert!(c.is_empty(), "{c:?}");
        let c = conflicts(&foods, &strings(&["Tree nuts", "Wheat"]));
        let got: Vec<(&str, &str)> = c
            .iter()
            .map(|c| (c.food.as_str(), c.allergy.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("Almond milk", "Tree nuts"),
                ("Oat milk", "Wheat"),
                ("Egg-free pasta", "Wheat"),
            ]
        );
    }

    #[test]
    fn an_allergy_with_no_allergen_matches_foods_word_for_word() {
        let foods = strings(&[
            "Strawberries",
            "Strawberry jam",
            "Kiwi slices",
            "Chickpeas",
            "Peas",
            "Coconut milk",
            "Banana",
        ]);
        let c = conflicts(
            &foods,
            &strings(&["strawberry", "Allergic to kiwi", "pea", "Coconut"]),
        );
        let got: Vec<(&str, &str, &str)> = c
            .iter()
            .map(|c| (c.food.as_str(), c.allergy.as_str(), c.matched.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("Strawberries", "strawberry", "strawberries"),
                ("Strawberry jam", "strawberry", "strawberry"),
                ("Kiwi slices", "Allergic to kiwi", "kiwi"),
                ("Peas", "pea", "peas"),
                ("Coconut milk", "Coconut", "coconut"),
            ]
        );
        assert!(c.iter().all(|c| c.allergen.is_none()));
        assert_eq!(c[0].to_string(), "Strawberries contains strawberry");
        // Plural in the allergy, singular in the food; phrases match as a whole.
        let c = conflicts(
            &strings(&["Strawberry yoghurt", "Pine nut salad", "Pine cones"]),
            &strings(&["Strawberries", "pine nuts"]),
        );
        let got: Vec<(&str, Option<Allergen>)> =
            c.iter().map(|c| (c.food.as_str(), c.allergen)).collect();
        assert_eq!(
            got,
            [("Strawberry yoghurt", None), ("Pine nut salad", None)]
        );
    }

    #[test]
    fn the_tables_are_tidy() {
        let index = &*INDEX;
        let mut seen = HashSet::new();
        for (phrase, _) in index.entries() {
            let spelling = phrase.join(" ");
            let normal: Vec<String> = words(&spelling).into_iter().map(|w| w.text).collect();
            assert_eq!(normal.join(" "), spelling, "not normalised: {spelling:?}");
            assert!(seen.insert(spelling.clone()), "defined twice: {spelling:?}");
            assert!(
                !crate::domain::food_words::SEPARATORS.contains(&phrase[0]),
                "starts with a separator: {spelling:?}"
            );
        }
        for l in LOOKALIKES {
            for word in l.words {
                assert!(
                    index
                        .entries()
                        .any(|(_, e)| e.shown == *word && e.allergens.contains(&l.allergen)),
                    "look-alike word {word:?} is not a {} word",
                    l.allergen
                );
            }
        }
        for word in PARTIAL_FREE {
            assert!(index.entries().any(|(_, e)| e.shown == *word), "{word}");
        }
        // Every allergen has words in the tables.
        for a in Allergen::ALL {
            assert!(
                index.entries().any(|(_, e)| e.allergens.contains(&a)),
                "{a}"
            );
        }
    }
}
