//! The child food safety rules: choking hazards and age rules, transcribed from public guidance
//! with the source of each. This file is data, reviewed on its own; the matcher is `mod.rs`.
//!
//! Ages are months: a rule applies from `from` up to (not including) `until`. Where the sources
//! give different ages, the strictest (the oldest) is used, and where a source says "babies and
//! young children" without an age, the UK choking guidance's age, 5, is used.
//!
//! Spellings follow the allergen tables: lowercase ASCII words, "a/b" lists spellings of one
//! word (the first is the one shown), plurals need no entry, apostrophes are dropped ("cow's" is
//! "cows"). A phrase is matched as whole words; the longest phrase of all rules wins at each
//! place, so "cherry tomato" is a round food, not a cherry with a stone.

use crate::i18n::Text;

/// Where a rule comes from: shown with every warning and linked on the pages.
#[derive(Debug, PartialEq, Eq)]
pub struct Source {
    /// Who publishes it: "NHS", "CDC".
    pub publisher: &'static str,
    pub title: &'static str,
    pub url: &'static str,
}

pub const NHS_FOODS_TO_AVOID: Source = Source {
    publisher: "NHS",
    title: "Foods to avoid giving babies and young children",
    url: "https://www.nhs.uk/conditions/baby/weaning-and-feeding/foods-to-avoid-giving-babies-and-young-children/",
};

pub const NHS_DRINKS: Source = Source {
    publisher: "NHS",
    title: "Drinks and cups for babies and young children",
    url: "https://www.nhs.uk/conditions/baby/weaning-and-feeding/drinks-and-cups-for-babies-and-young-children/",
};

pub const NHS_FISH: Source = Source {
    publisher: "NHS",
    title: "Fish and shellfish",
    url: "https://www.nhs.uk/live-well/eat-well/food-types/fish-and-shellfish-nutrition/",
};

pub const NHS_ALLERGIES: Source = Source {
    publisher: "NHS",
    title: "Food allergies in babies and young children",
    url: "https://www.nhs.uk/conditions/baby/weaning-and-feeding/food-allergies-in-babies-and-young-children/",
};

/// The Department for Education's early years food safety page, which carries the Food
/// Standards Agency's choking guidance (Open Government Licence).
pub const DFE_CHOKING: Source = Source {
    publisher: "Department for Education and Food Standards Agency",
    title: "Help for early years providers: food safety and choking hazards",
    url: "https://help-for-early-years-providers.education.gov.uk/safeguarding-and-welfare/food-safety",
};

pub const CDC_CHOKING: Source = Source {
    publisher: "CDC",
    title: "Choking hazards (infant and toddler nutrition)",
    url: "https://www.cdc.gov/infant-toddler-nutrition/foods-and-drinks/choking-hazards.html",
};

pub const WIC_FEEDING: Source = Source {
    publisher: "USDA WIC",
    title: "Infant nutrition and feeding guide",
    url: "https://wicworks.fns.usda.gov/resources/infant-nutrition-and-feeding-guide",
};

pub const BSACI_EARLY_FEEDING: Source = Source {
    publisher: "BSACI",
    title: "Early feeding guidance: introducing allergens",
    url: "https://www.bsaci.org/professional-resources/resources/early-feeding-guidance/",
};

pub const NIAID_PEANUT: Source = Source {
    publisher: "NIAID",
    title: "Guidelines for the prevention of peanut allergy (2017 addendum)",
    url: "https://www.niaid.nih.gov/diseases-conditions/guidelines-clinicians-and-patients-food-allergy",
};

/// Every source, for the pages that list them.
pub const SOURCES: &[&Source] = &[
    &NHS_FOODS_TO_AVOID,
    &NHS_DRINKS,
    &NHS_FISH,
    &NHS_ALLERGIES,
    &DFE_CHOKING,
    &CDC_CHOKING,
    &WIC_FEEDING,
    &BSACI_EARLY_FEEDING,
    &NIAID_PEANUT,
];

/// A choking hazard (the food's shape or texture) or an age rule (what the food is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Choking,
    Age,
}

/// One rule of the table.
#[derive(Debug)]
pub struct Rule {
    /// A stable name, for tests and logs.
    pub key: &'static str,
    pub kind: Kind,
    /// Months: the rule applies from `from` up to, not including, `until`.
    pub from: u32,
    pub until: u32,
    /// What the rule is about, as typed in meals and recipes.
    pub foods: &'static [&'static str],
    /// Phrases that look like one of `foods` but are not the hazard ("olive oil").
    pub not: &'static [&'static str],
    /// A word right before the food that makes it safe as written ("ground almonds").
    pub not_after: &'static [&'static str],
    /// Whether a product word right after the food makes it another thing ("grape juice",
    /// "peanut butter"): true for hazards of shape, false for hazards of substance (honey
    /// yoghurt is still honey).
    pub products_are_safe: bool,
    /// The food matches only when it is the whole food as typed ("milk" as a drink, not
    /// "porridge made with milk").
    pub alone: bool,
    /// Words anywhere in the food that say it was prepared the safe way ("quartered"): the
    /// parent still gets the advice, without the alarm.
    pub prepared: &'static [&'static str],
    /// Why it matters, one sentence.
    pub risk: Text,
    /// What to do instead.
    pub advice: Text,
    /// The advice in a few words, for a recipe's notes per child: "quarter grapes
    /// lengthways". `{{food}}` is the food as typed.
    pub note: Text,
    /// How a recipe made for a child of these ages names the food, prepared the safe way
    /// ("quartered lengthways": one of `prepared`); none when such a recipe leaves the food
    /// out (honey, popcorn). Rules of a food `alone` (a drink) do not change a recipe. In each
    /// language the words must read as `prepared` there too (a test).
    pub in_recipes: Option<Text>,
    pub sources: &'static [&'static Source],
}

/// Words after a food that make it another thing: the hazard of shape is gone.
pub const PRODUCTS: &[&str] = &[
    "juice",
    "jam",
    "jelly",
    "oil",
    "yoghurt/yogurt",
    "smoothie",
    "sauce",
    "puree",
    "compote",
    "cordial",
    "squash",
    "muffin",
    "pancake",
    "cake",
    "pie",
    "crumble",
    "tart",
    "flavour",
    "flavoured",
    "sorbet",
    "coulis",
    "butter",
    "milk",
    "drink",
    "flour",
    "extract",
    "syrup",
    "vinegar",
    "paste",
    "powder",
    "spread",
    "soup",
    "pesto",
    "ketchup",
    "chutney",
    "relish",
    "dressing",
    "leaf",
    "tea",
    "water",
    "bread",
    "loaf",
    "bun",
    "scone",
    "cookie",
    "biscuit",
    "flapjack",
    "lolly",
    "ice cream",
    "cheesecake",
    "custard",
    "mousse",
    "fool",
];

/// Words that say a food was cooked or made soft: hard fruit and vegetables are then fine.
const COOKED: &[&str] = &[
    "cooked",
    "steamed",
    "boiled",
    "roast",
    "roasted",
    "baked",
    "stewed",
    "stew",
    "casserole",
    "soup",
    "curry",
    "mash",
    "mashed",
    "puree",
    "pureed",
    "grated",
    "soft",
    "softened",
    "risotto",
    "pie",
    "bake",
    "lasagne",
    "bolognese",
    "hotpot",
    "tagine",
    "dal",
    "poached",
    "sauteed",
    "fried",
    "braised",
    "blended",
    "crumble",
    "compote",
    "porridge",
];

pub static RULES: &[Rule] = &[
    Rule {
        key: "round-foods",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "grape",
            "cherry tomato",
            "baby tomato",
            "grape tomato",
            "cocktail tomato",
            "blueberry",
            "strawberry",
            "gooseberry",
            "glace cherry",
            "maraschino cherry",
            "melon ball",
            "kumquat",
        ],
        not: &["grapefruit"],
        not_after: &[],
        products_are_safe: true,
        alone: false,
        prepared: &[
            "quartered",
            "quarter",
            "finely chopped",
            "chopped finely",
            "mashed",
            "squashed",
            "flattened",
            "pureed",
            "blended",
        ],
        risk: t!(
            "Small round foods like grapes can block a young child's airway: halves are not \
               small enough."
        ),
        advice: t!(
            "Cut grapes, cherry tomatoes and berries lengthways into quarters until your \
                 child is 5."
        ),
        note: t!("quarter the {{food}} lengthways"),
        in_recipes: Some(t!("quartered lengthways")),
        sources: &[&DFE_CHOKING, &NHS_FOODS_TO_AVOID, &CDC_CHOKING],
    },
    Rule {
        key: "whole-nuts",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "nut",
            "peanut",
            "groundnut",
            "monkey nut",
            "almond",
            "cashew",
            "hazelnut",
            "walnut",
            "pecan",
            "brazil nut/brazil",
            "pistachio",
            "macadamia",
            "mixed nut",
            "crunchy peanut butter",
            "crunchy nut butter",
            "chunky peanut butter",
        ],
        not: &["nut roast"],
        not_after: &["ground", "crushed", "smooth", "milled", "blended"],
        products_are_safe: true,
        alone: false,
        prepared: &["ground", "crushed", "milled", "blended", "smooth"],
        risk: t!("Whole nuts and peanuts can choke a child under 5."),
        advice: t!(
            "Give nuts and peanuts crushed, ground or as a smooth nut butter spread thinly \
                 (fine from about 6 months); no whole nuts until 5."
        ),
        note: t!("{{food}} only ground, crushed or as a smooth butter"),
        in_recipes: Some(t!("ground")),
        sources: &[&NHS_FOODS_TO_AVOID, &DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "whole-seeds",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &["sunflower seed", "pumpkin seed", "pepita", "pine nut"],
        not: &[],
        not_after: &["ground", "milled", "blended"],
        products_are_safe: true,
        alone: false,
        prepared: &["ground", "milled", "blended"],
        risk: t!("Whole seeds can be breathed in and choke a child under 5."),
        advice: t!("Grind or blend seeds, or use a smooth seed butter, until your child is 5."),
        note: t!("{{food}} only ground"),
        in_recipes: Some(t!("ground")),
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "popcorn",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &["popcorn", "pop corn"],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!("Popcorn can be breathed in and choke a child under 5."),
        advice: t!("Do not give popcorn to children under 5."),
        note: t!("no popcorn"),
        in_recipes: None,
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "hard-sweets",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "hard sweet",
            "boiled sweet",
            "hard candy",
            "lollipop",
            "gobstopper",
            "humbug",
            "mint imperial",
            "cough sweet",
            "toffee",
            "jelly bean",
            "jelly baby",
            "gummy bear",
            "gummy sweet",
            "gummy",
            "chewy sweet",
            "candy cane",
        ],
        not: &["toffee apple sauce"],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!("Hard and chewy sweets can block a child's airway."),
        advice: t!("No hard or chewy sweets for children under 5."),
        note: t!("no hard or chewy sweets"),
        in_recipes: None,
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "marshmallows-and-jelly-cubes",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "marshmallow",
            "jelly cube",
            "raw jelly",
            "jelly block",
            "jelly tablet",
        ],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!("Marshmallows and jelly cubes from the packet can stick in a child's throat."),
        advice: t!(
            "No marshmallows, and no jelly cubes from the packet, for children under 5 \
                 (made-up jelly is fine)."
        ),
        note: t!("no marshmallows or jelly cubes"),
        in_recipes: None,
        sources: &[&DFE_CHOKING],
    },
    Rule {
        key: "chewing-gum",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &["chewing gum", "bubble gum", "bubblegum"],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!("Chewing gum can be swallowed or block a young child's airway."),
        advice: t!("No chewing gum for children under 5."),
        note: t!("no chewing gum"),
        in_recipes: None,
        sources: &[&CDC_CHOKING],
    },
    Rule {
        key: "sausages",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "sausage",
            "hot dog",
            "hotdog",
            "frankfurter",
            "chipolata",
            "cocktail sausage",
            "wiener",
            "saveloy",
            "bratwurst",
            "pepperami",
        ],
        not: &["sausage roll", "sausage meat"],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[
            "strip",
            "lengthways",
            "lengthwise",
            "finely chopped",
            "mashed",
        ],
        risk: t!("Round slices of sausage or hot dog are the size of a young child's airway."),
        advice: t!(
            "Cut sausages and hot dogs lengthways into thin strips, never rounds, and take \
                 the skin off."
        ),
        note: t!("{{food}} in thin strips lengthways, never rounds"),
        in_recipes: Some(t!("cut in strips lengthways")),
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "stones",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &["olive", "cherry", "lychee", "plum", "damson"],
        not: &["plum tomato", "cherry bakewell"],
        not_after: &["pitted", "stoned", "destoned"],
        products_are_safe: true,
        alone: false,
        prepared: &[
            "pitted",
            "stoned",
            "destoned",
            "stone removed",
            "stones removed",
            "stones out",
            "pits removed",
            "pip removed",
        ],
        risk: t!(
            "Stones can choke a child, and whole olives and cherries are the size of a young \
               child's airway."
        ),
        advice: t!(
            "Take out the stones and cut olives, cherries and lychees lengthways into \
                 quarters until your child is 5."
        ),
        note: t!("stones out of the {{food}}, then quarter them"),
        in_recipes: Some(t!("stones removed, quartered")),
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "raw-hard-fruit-and-vegetables",
        kind: Kind::Choking,
        from: 0,
        until: 12,
        foods: &[
            "carrot",
            "apple",
            "celery",
            "radish",
            "raw vegetable/raw veg",
            "crudite",
            "mangetout",
            "sugar snap pea",
        ],
        not: &["crab apple", "toffee apple"],
        not_after: &[],
        products_are_safe: true,
        alone: false,
        prepared: COOKED,
        risk: t!("Raw hard fruit and vegetables are too hard for a baby to bite safely."),
        advice: t!(
            "For babies, cook hard fruit and vegetables until soft or grate them, and offer \
                 sticks rather than small chunks."
        ),
        note: t!("{{food}} cooked soft or grated"),
        in_recipes: Some(t!("grated or cooked soft")),
        sources: &[&DFE_CHOKING, &CDC_CHOKING, &WIC_FEEDING],
    },
    Rule {
        key: "cheese-cubes",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "cheese cube",
            "cubed cheese",
            "cheese chunk",
            "chunk of cheese",
            "cube of cheese",
        ],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &["grated", "melted", "strip", "thin slice", "sliced thinly"],
        risk: t!("Cubes and chunks of cheese can block a young child's airway."),
        advice: t!(
            "Cut cheese into thin strips or grate it, rather than cubes, until your child \
                 is 5."
        ),
        note: t!("cheese in strips or grated, not cubes"),
        in_recipes: Some(t!("grated")),
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "tough-meat",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "steak",
            "meat chunk",
            "chunk of meat",
            "beef chunk",
            "jerky",
            "biltong",
            "crackling",
            "gristle",
        ],
        not: &[
            "stewing steak",
            "steak mince",
            "salmon steak",
            "tuna steak",
            "cod steak",
            "cauliflower steak",
        ],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[
            "minced",
            "mince",
            "shredded",
            "pulled",
            "slow cooked",
            "strip",
            "finely chopped",
            "cut small",
        ],
        risk: t!(
            "Chunks of tough meat are hard for a young child to chew and can block the airway."
        ),
        advice: t!(
            "Shred or mince meat, or cut it into thin strips; no tough chunks or jerky until \
                 your child is 5."
        ),
        note: t!("{{food}} shredded, minced or in thin strips"),
        in_recipes: Some(t!("shredded or finely chopped")),
        sources: &[&CDC_CHOKING],
    },
    Rule {
        key: "bones",
        kind: Kind::Choking,
        from: 0,
        until: 60,
        foods: &[
            "bone",
            "bone in",
            "on the bone",
            "chicken wing",
            "drumstick",
            "rib",
            "spare rib",
            "pork chop",
            "lamb chop",
            "veal chop",
            "lamb cutlet",
            "t bone",
            "whole fish",
        ],
        not: &["bone broth", "rib eye/ribeye"],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[
            "boned",
            "deboned",
            "bone removed",
            "bones removed",
            "bones out",
            "off the bone",
            "filleted",
            "fillet",
            "boneless",
        ],
        risk: t!("Small bones in meat and fish can choke a child."),
        advice: t!("Take every bone out of meat and fish before serving it to a child under 5."),
        note: t!("every bone out of the {{food}}"),
        in_recipes: Some(t!("off the bone")),
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "dried-fruit-snack",
        kind: Kind::Choking,
        from: 0,
        until: 12,
        foods: &[
            "raisin",
            "sultana",
            "currant",
            "dried apricot",
            "prune",
            "date",
            "dried fruit",
            "dried cranberry",
            "dried mango",
            "dried fig",
        ],
        not: &[],
        not_after: &[],
        products_are_safe: true,
        alone: false,
        prepared: &[
            "chopped", "soaked", "stewed", "pureed", "cooked", "baked", "porridge", "mashed",
            "blended",
        ],
        risk: t!("Whole dried fruit is sticky and chewy: not a snack for babies under 12 months."),
        advice: t!(
            "Chop dried fruit into small pieces within a meal, or soak or stew it until \
                 soft."
        ),
        note: t!("{{food}} chopped small within the meal"),
        in_recipes: Some(t!("chopped")),
        sources: &[&DFE_CHOKING, &CDC_CHOKING],
    },
    Rule {
        key: "honey",
        kind: Kind::Age,
        from: 0,
        until: 12,
        foods: &["honey", "honeycomb", "manuka"],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!(
            "Honey can carry bacteria that cause infant botulism, a very serious illness, \
               before 12 months; cooking does not make it safe."
        ),
        advice: t!("No honey, in food or drinks, until your child is over 12 months."),
        note: t!("no honey before 12 months"),
        in_recipes: None,
        sources: &[&NHS_FOODS_TO_AVOID],
    },
    Rule {
        key: "salt",
        kind: Kind::Age,
        from: 0,
        until: 12,
        foods: &[
            "salt",
            "salted",
            "salty",
            "stock cube",
            "stock pot",
            "bouillon",
            "gravy",
            "gravy granule",
            "soy sauce",
            "bacon",
            "sausage",
            "ham",
            "gammon",
            "cured ham",
            "parma ham",
            "prosciutto",
            "serrano ham",
            "pepperoni",
            "crisp",
            "ready meal",
            "takeaway",
            "salami",
        ],
        // Products made for babies and toddlers: the salt is what makes them another thing.
        not: &[
            "low salt stock cube/low salt stock/low sodium stock cube/low sodium stock",
            "reduced salt stock cube/reduced salt stock",
            "baby stock cube/baby stock",
            "low salt soy sauce/reduced salt soy sauce/low sodium soy sauce",
        ],
        not_after: &["low", "reduced", "baby"],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!(
            "Babies need less than 1 g of salt a day, which their milk already gives them; \
               more harms their kidneys."
        ),
        advice: t!(
            "Add no salt, stock cubes or gravy to a baby's food, and take the baby's portion \
                 out before salting the family's; use herbs, or a low-salt baby stock."
        ),
        note: t!("no added salt, stock cubes or gravy (under 1 g of salt a day)"),
        in_recipes: None,
        sources: &[&NHS_FOODS_TO_AVOID],
    },
    Rule {
        key: "milk-as-a-drink",
        kind: Kind::Age,
        from: 0,
        until: 12,
        foods: &[
            "milk",
            "cows milk",
            "whole milk",
            "full fat milk",
            "semi skimmed milk",
            "skimmed milk",
            "goats milk",
            "sheeps milk",
            "glass of milk",
            "cup of milk",
            "beaker of milk",
            "bottle of milk",
            "warm milk",
            "whole cows milk",
            "full fat cows milk",
            "raw milk",
            "unpasteurised milk/unpasteurized milk",
            "fresh milk",
        ],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: true,
        prepared: &[],
        risk: t!(
            "Cows', goats' and sheep's milk are not a main drink before 12 months: they lack \
               the iron a baby needs."
        ),
        advice: t!(
            "Breast milk or first infant formula is the main drink until 12 months; cows' \
                 milk is fine in cooking from 6 months."
        ),
        note: t!("milk only in cooking, not as a drink, before 12 months"),
        in_recipes: None,
        sources: &[&NHS_DRINKS],
    },
    Rule {
        key: "plant-drinks",
        kind: Kind::Age,
        from: 0,
        until: 12,
        foods: &[
            "oat milk/oat drink",
            "soya milk/soy milk/soya drink",
            "almond milk/almond drink",
            "coconut milk drink/coconut drink",
        ],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: true,
        prepared: &[],
        risk: t!("Plant drinks are not a main drink before 12 months."),
        advice: t!(
            "Breast milk or first infant formula is the main drink until 12 months; \
                 unsweetened, fortified plant drinks can be used in cooking."
        ),
        note: t!("plant drinks only in cooking before 12 months"),
        in_recipes: None,
        sources: &[&NHS_DRINKS],
    },
    Rule {
        key: "skimmed-milk-drink",
        kind: Kind::Age,
        from: 12,
        until: 60,
        foods: &["skimmed milk", "one percent milk"],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: true,
        prepared: &[],
        risk: t!("Skimmed and 1% milk lack the energy a child under 5 needs as a main drink."),
        advice: t!(
            "Whole milk until 2, then semi-skimmed if they eat well; skimmed or 1% milk as a \
                 drink from 5."
        ),
        note: t!("whole or semi-skimmed milk to drink, not skimmed"),
        in_recipes: None,
        sources: &[&NHS_DRINKS],
    },
    Rule {
        key: "semi-skimmed-milk-drink",
        kind: Kind::Age,
        from: 12,
        until: 24,
        foods: &["semi skimmed milk"],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: true,
        prepared: &[],
        risk: t!("Semi-skimmed milk is not a main drink before 2."),
        advice: t!("Whole milk as the main drink until 2; semi-skimmed from 2 if they eat well."),
        note: t!("whole milk to drink until 2"),
        in_recipes: None,
        sources: &[&NHS_DRINKS],
    },
    Rule {
        key: "rice-drinks",
        kind: Kind::Age,
        from: 0,
        until: 60,
        foods: &["rice milk", "rice drink"],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!("Rice drinks carry too much arsenic for children under 5."),
        advice: t!("No rice drinks for children under 5: choose another milk."),
        note: t!("no rice drinks"),
        in_recipes: None,
        sources: &[&NHS_DRINKS, &NHS_FOODS_TO_AVOID],
    },
    Rule {
        key: "soft-ripened-cheese",
        kind: Kind::Age,
        from: 0,
        until: 60,
        foods: &[
            "brie",
            "camembert",
            "mould ripened cheese/mold ripened cheese",
            "soft blue cheese",
            "blue cheese",
            "gorgonzola",
            "roquefort",
            "danish blue",
            "unpasteurised cheese/unpasteurized cheese",
        ],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &["cooked", "baked", "melted", "steaming hot"],
        risk: t!(
            "Mould-ripened soft cheeses, soft blue cheeses and unpasteurised cheese can carry \
               listeria, dangerous for babies and young children."
        ),
        advice: t!(
            "Only give them cooked until steaming hot; pasteurised hard cheeses such as mild \
                 Cheddar are fine from 6 months."
        ),
        note: t!("{{food}} only cooked until steaming hot"),
        in_recipes: Some(t!("cooked until steaming hot")),
        sources: &[&NHS_FOODS_TO_AVOID],
    },
    Rule {
        key: "shark-swordfish-marlin",
        kind: Kind::Age,
        from: 0,
        until: 192,
        foods: &["shark", "swordfish", "marlin"],
        not: &[],
        not_after: &[],
        products_are_safe: false,
        alone: false,
        prepared: &[],
        risk: t!(
            "Shark, swordfish and marlin carry mercury, which harms a child's growing nervous \
               system."
        ),
        advice: t!("Choose another fish: no shark, swordfish or marlin for children under 16."),
        note: t!("no shark, swordfish or marlin"),
        in_recipes: None,
        sources: &[&NHS_FISH, &NHS_FOODS_TO_AVOID],
    },
];
