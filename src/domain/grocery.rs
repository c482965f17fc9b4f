//! Grocery list rules (spec sections 3, 5 and 9): the 15 categories, items and their defaults,
//! the merge of recipe ingredients into a list, the estimated total and the export formats.
//! Pure: the catalogue (categories and prices it knows) is passed in.

use crate::i18n::Text;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::allergens::english_names;
use super::change::first_version;
use super::error::Invalid;
use super::ids::{FamilyId, GroceryItemId, GroceryListId};
use super::quantity::combine;
use super::text::{NAME_MAX, char_len, sanitize_line, too_long_message};

/// The spec's categories, in the order a list shows them.
pub const CATEGORIES: [&str; 15] = [
    "Produce",
    "Dairy",
    "Meat & Seafood",
    "Bakery",
    "Frozen",
    "Canned Goods",
    "Dry Goods & Pasta",
    "Snacks",
    "Beverages",
    "Condiments & Spices",
    "Cleaning",
    "Personal Care",
    "Baby",
    "Pet",
    "Other",
];

/// A category's name in the language of the answer (exports; the UI has its own words).
pub fn category_name(category: &str) -> String {
    let text = match category {
        "Produce" => t!("Produce"),
        "Dairy" => t!("Dairy"),
        "Meat & Seafood" => t!("Meat & Seafood"),
        "Bakery" => t!("Bakery"),
        "Frozen" => t!("Frozen"),
        "Canned Goods" => t!("Canned Goods"),
        "Dry Goods & Pasta" => t!("Dry Goods & Pasta"),
        "Snacks" => t!("Snacks"),
        "Beverages" => t!("Beverages"),
        "Condiments & Spices" => t!("Condiments & Spices"),
        "Cleaning" => t!("Cleaning"),
        "Personal Care" => t!("Personal Care"),
        "Baby" => t!("Baby"),
        "Pet" => t!("Pet"),
        "Other" => t!("Other"),
        other => return other.to_string(),
    };
    text.here()
}

pub const DEFAULT_CATEGORY: &str = "Other";
pub const DEFAULT_QUANTITY: &str = "1";
/// The spec's default list name.
pub const DEFAULT_LIST_NAME: &str = "My Grocery List";
/// Most items on one list (a big weekly shop is about 100).
pub const ITEMS_MAX: usize = 500;
pub const QUANTITY_MAX: usize = 100;

const SAVE_TITLE: Text = t!("Error saving grocery list");

/// A category as sent ("dairy", "Meat & Seafood"), read case-insensitively; empty is Other.
pub fn category(text: &str) -> Result<&'static str, Invalid> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(DEFAULT_CATEGORY);
    }
    CATEGORIES
        .iter()
        .find(|c| c.eq_ignore_ascii_case(t))
        .copied()
        .ok_or_else(|| {
            Invalid::new(
                SAVE_TITLE,
                t!(
                    "Unknown category: please choose one of {{categories}}",
                    categories = CATEGORIES.join(", ")
                ),
                "items",
            )
        })
}

/// "chicken breast" -> "Chicken breast".
pub fn capitalise(name: &str) -> String {
    let mut chars = name.trim().chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// One item as a form or a merge gives it, before checks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemDraft {
    pub name: String,
    pub quantity: String,
    pub category: String,
    pub checked: bool,
}

/// A checked item: name trimmed and required, quantity '1' when empty, a known category.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemFields {
    pub name: String,
    pub quantity: String,
    pub category: &'static str,
    pub checked: bool,
}

impl ItemDraft {
    pub fn validate(&self) -> Result<ItemFields, Invalid> {
        let name = sanitize_line(&self.name);
        if name.is_empty() {
            return Err(Invalid::new(
                t!("Item name required"),
                t!("Please enter an item name"),
                "items",
            ));
        }
        if char_len(&name) > NAME_MAX {
            return Err(Invalid::new(
                SAVE_TITLE,
                too_long_message(t!("Item name"), NAME_MAX),
                "items",
            ));
        }
        let quantity = sanitize_line(&self.quantity);
        if char_len(&quantity) > QUANTITY_MAX {
            return Err(Invalid::new(
                SAVE_TITLE,
                too_long_message(t!("Quantity"), QUANTITY_MAX),
                "items",
            ));
        }
        Ok(ItemFields {
            name,
            quantity: if quantity.is_empty() {
                DEFAULT_QUANTITY.into()
            } else {
                quantity
            },
            category: category(&self.category)?,
            checked: self.checked,
        })
    }
}

/// A list's name and items, checked (spec section 5's texts).
pub fn validate_list(
    name: &str,
    items: &[ItemDraft],
) -> Result<(String, Vec<ItemFields>), Invalid> {
    let name = sanitize_line(name);
    if name.is_empty() {
        return Err(Invalid::new(
            SAVE_TITLE,
            t!("List name is required."),
            "name",
        ));
    }
    if char_len(&name) > NAME_MAX {
        return Err(Invalid::new(
            SAVE_TITLE,
            too_long_message(t!("List name"), NAME_MAX),
            "name",
        ));
    }
    if items.is_empty() {
        return Err(Invalid::new(
            t!("No items in list"),
            t!("Please add at least one item to your grocery list"),
            "items",
        ));
    }
    if items.len() > ITEMS_MAX {
        return Err(Invalid::new(
            SAVE_TITLE,
            t!(
                "Please keep a list to {{max}} items or fewer",
                max = ITEMS_MAX
            ),
            "items",
        ));
    }
    let items = items
        .iter()
        .map(ItemDraft::validate)
        .collect::<Result<_, _>>()?;
    Ok((name, items))
}

/// One item on a list. `checked_at` is when its tick was last set: a tick made earlier (an
/// offline phone catching up) does not undo a later one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroceryItem {
    pub id: GroceryItemId,
    pub name: String,
    pub quantity: String,
    pub category: String,
    pub checked: bool,
    #[serde(default)]
    pub checked_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroceryList {
    pub id: GroceryListId,
    pub family: FamilyId,
    pub name: String,
    pub items: Vec<GroceryItem>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(default = "first_version")]
    pub version: u64,
}

/// An item of a saved list as an edit sends it: with the id it had, or none for a new one.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemEdit {
    pub id: Option<GroceryItemId>,
    pub fields: ItemFields,
}

impl GroceryList {
    pub fn create(
        family: FamilyId,
        name: String,
        items: Vec<ItemFields>,
        now: DateTime<Utc>,
    ) -> GroceryList {
        let items = items.into_iter().map(|f| new_item(f, now)).collect();
        GroceryList {
            id: GroceryListId::new(),
            family,
            name,
            items,
            created_at: now,
            updated_at: now,
            version: first_version(),
        }
    }

    /// Replaces name and items (a whole-list save). Items keep their ids; an item whose tick
    /// changes gets the edit's time.
    pub fn apply(&mut self, name: String, items: Vec<ItemEdit>, now: DateTime<Utc>) {
        let old = std::mem::take(&mut self.items);
        self.items = items
            .into_iter()
            .map(
                |edit| match edit.id.and_then(|id| old.iter().find(|i| i.id == id)) {
                    Some(before) => GroceryItem {
                        id: before.id,
                        checked_at: if before.checked == edit.fields.checked {
                            before.checked_at
                        } else {
                            Some(now)
                        },
                        name: edit.fields.name,
                        quantity: edit.fields.quantity,
                        category: edit.fields.category.to_string(),
                        checked: edit.fields.checked,
                    },
                    None => new_item(edit.fields, now),
                },
            )
            .collect();
        self.name = name;
        self.updated_at = now;
    }

    /// Sets one item's tick as of `at`. `Ok(true)` when applied, `Ok(false)` when a later tick
    /// is already there (it stays: last tick wins); not found when the item is gone.
    pub fn tick(
        &mut self,
        item: GroceryItemId,
        checked: bool,
        at: DateTime<Utc>,
    ) -> Result<bool, super::DomainError> {
        let found = self
            .items
            .iter_mut()
            .find(|i| i.id == item)
            .ok_or(super::DomainError::NotFound)?;
        if found.checked_at.is_some_and(|t| t > at) {
            return Ok(false);
        }
        found.checked = checked;
        found.checked_at = Some(at);
        self.updated_at = Utc::now();
        Ok(true)
    }

    /// Whether a tick of `item` made at `at` would be ignored: a later tick is already there.
    /// Ticks only move forward in time, so once true it stays true for that `at`.
    pub fn has_later_tick(&self, item: GroceryItemId, at: DateTime<Utc>) -> bool {
        self.items
            .iter()
            .any(|i| i.id == item && i.checked_at.is_some_and(|t| t > at))
    }

    /// "X of Y items checked".
    pub fn checked_count(&self) -> (usize, usize) {
        (
            self.items.iter().filter(|i| i.checked).count(),
            self.items.len(),
        )
    }
}

fn new_item(f: ItemFields, now: DateTime<Utc>) -> GroceryItem {
    GroceryItem {
        id: GroceryItemId::new(),
        name: f.name,
        quantity: f.quantity,
        category: f.category.to_string(),
        checked: f.checked,
        checked_at: f.checked.then_some(now),
    }
}

/// Words shoppers write for what the ingredient catalogue does not sell (nappies, soap) or
/// names another way (pasta, yogurt), by the category they are shopped under. Singular; a
/// plural matches too. Phrases win over their words ("baby wipes", "frozen peas").
const SHOPPING_WORDS: &[(&str, &[&str])] = &[
    (
        "Baby",
        &[
            "nappy",
            "nappies",
            "diaper",
            "wipe",
            "baby wipe",
            "baby food",
            "formula",
            "formula milk",
            "baby milk",
            "follow-on milk",
            "teether",
            "dummy",
            "baby bottle",
            "pouch",
            "rusk",
            "baby rice",
            "nappy cream",
            "baby shampoo",
            "baby lotion",
            "puree",
        ],
    ),
    (
        "Cleaning",
        &[
            "soap",
            "washing-up liquid",
            "washing up liquid",
            "detergent",
            "bleach",
            "washing powder",
            "laundry",
            "fabric softener",
            "dishwasher tablet",
            "sponge",
            "cloth",
            "bin bag",
            "bin liner",
            "kitchen roll",
            "spray",
            "polish",
            "cleaner",
            "disinfectant",
            "limescale",
            "foil",
            "cling film",
            "bin",
        ],
    ),
    (
        "Personal Care",
        &[
            "shampoo",
            "conditioner",
            "toothpaste",
            "toothbrush",
            "deodorant",
            "shower gel",
            "razor",
            "plaster",
            "toilet roll",
            "toilet paper",
            "tissue",
            "sun cream",
            "suncream",
            "moisturiser",
            "lotion",
            "cotton bud",
            "floss",
            "mouthwash",
            "sanitary",
            "tampon",
            "paracetamol",
            "ibuprofen",
            "calpol",
            "vitamin",
        ],
    ),
    (
        "Pet",
        &[
            "dog food",
            "cat food",
            "cat litter",
            "dog treat",
            "pet food",
            "kibble",
            "fish food",
            "bird seed",
            "dog biscuit",
            "litter",
        ],
    ),
    (
        "Beverages",
        &[
            "juice",
            "water",
            "squash",
            "cordial",
            "tea",
            "tea bag",
            "coffee",
            "lemonade",
            "cola",
            "fizzy drink",
            "smoothie",
            "sparkling water",
            "wine",
            "beer",
            "drink",
            "hot chocolate",
        ],
    ),
    (
        "Snacks",
        &[
            "crisp",
            "biscuit",
            "cracker",
            "popcorn",
            "cereal bar",
            "rice cake",
            "chocolate",
            "sweet",
            "snack",
            "breadstick",
            "cookie",
            "flapjack",
        ],
    ),
    (
        "Frozen",
        &[
            "frozen",
            "ice cream",
            "ice lolly",
            "fish finger",
            "frozen pea",
            "oven chip",
            "frozen berry",
            "frozen pizza",
            "ice",
        ],
    ),
    (
        "Bakery",
        &[
            "bread",
            "loaf",
            "bagel",
            "roll",
            "bun",
            "croissant",
            "crumpet",
            "muffin",
            "wrap",
            "pitta",
            "naan",
            "baguette",
            "brioche",
            "sourdough",
            "tortilla",
            "scone",
            "teacake",
            "cake",
            "pancake",
        ],
    ),
    (
        "Dairy",
        &[
            "milk",
            "cheese",
            "yoghurt",
            "yogurt",
            "butter",
            "cream",
            "egg",
            "fromage frais",
            "creme fraiche",
            "custard",
            "margarine",
            "spread",
        ],
    ),
    (
        "Meat & Seafood",
        &[
            "chicken",
            "beef",
            "pork",
            "lamb",
            "mince",
            "sausage",
            "bacon",
            "ham",
            "turkey",
            "steak",
            "fish",
            "salmon",
            "cod",
            "tuna steak",
            "prawn",
            "meatball",
            "burger",
        ],
    ),
    (
        "Dry Goods & Pasta",
        &[
            "pasta",
            "rice",
            "flour",
            "spaghetti",
            "noodle",
            "oat",
            "porridge",
            "cereal",
            "couscous",
            "lentil",
            "sugar",
            "quinoa",
            "granola",
            "muesli",
            "cornflakes",
        ],
    ),
    (
        "Canned Goods",
        &["tin", "tinned", "can", "canned", "baked bean", "soup"],
    ),
    (
        "Condiments & Spices",
        &[
            "ketchup",
            "mayo",
            "mayonnaise",
            "sauce",
            "salt",
            "spice",
            "herb",
            "oil",
            "vinegar",
            "mustard",
            "stock",
            "gravy",
            "jam",
            "honey",
            "peanut butter",
            "black pepper",
        ],
    ),
    (
        "Produce",
        &[
            "apple",
            "banana",
            "orange",
            "grape",
            "berry",
            "strawberry",
            "blueberry",
            "raspberry",
            "pear",
            "melon",
            "mango",
            "kiwi",
            "lemon",
            "lime",
            "potato",
            "carrot",
            "onion",
            "garlic",
            "tomato",
            "cucumber",
            "lettuce",
            "salad",
            "pepper",
            "broccoli",
            "spinach",
            "pea",
            "bean",
            "courgette",
            "mushroom",
            "avocado",
            "fruit",
            "veg",
            "vegetable",
            "satsuma",
            "clementine",
            "plum",
            "peach",
        ],
    ),
];

/// The category a shopper would look for `name` under: what the ingredient catalogue says
/// (`catalogue`, which knows "Cheddar cheese" and "chicken"), else the shopping words (the
/// longest phrase of the name that names one, as typed or as the name reads in English:
/// "Lait" is milk), else the catalogue again for each word from the last (the head noun:
/// "Greek yoghurt pots" are yoghurt), else Other. The parent can change it.
pub fn suggest_category(
    name: &str,
    catalogue: impl Fn(&str) -> Option<&'static str>,
) -> &'static str {
    let name = sanitize_line(name).to_lowercase();
    if name.is_empty() {
        return DEFAULT_CATEGORY;
    }
    if let Some(c) = catalogue(&name) {
        return c;
    }
    let words: Vec<&str> = name
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    // The shopping words as typed, else as it reads in English ("Lait" is milk).
    let shopping = shopping_words(&name)
        .or_else(|| english_names(&name).iter().find_map(|e| shopping_words(e)));
    if let Some(category) = shopping {
        return category;
    }
    words
        .iter()
        .rev()
        .find_map(|w| catalogue(w))
        .unwrap_or(DEFAULT_CATEGORY)
}

/// The category of the longest phrase of shopping words in `name` (lower case), the one
/// nearest the end (the head noun) of equal ones.
fn shopping_words(name: &str) -> Option<&'static str> {
    let words: Vec<&str> = name
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let same = |word: &str, term: &str| {
        word == term
            || word.strip_suffix('s') == Some(term)
            || word.strip_suffix("es") == Some(term)
            || (word
                .strip_suffix("ies")
                .is_some_and(|stem| term.strip_suffix('y') == Some(stem)))
    };
    // The longest phrase first, then the word nearest the end (the head noun).
    let mut best: Option<(usize, usize, &'static str)> = None;
    for (category, terms) in SHOPPING_WORDS {
        for term in *terms {
            let parts: Vec<&str> = term.split([' ']).collect();
            for start in 0..words.len() {
                let end = start + parts.len();
                if end <= words.len()
                    && words[start..end]
                        .iter()
                        .zip(&parts)
                        .all(|(w, t)| same(w, t))
                {
                    let better = best.is_none_or(|(len, at, _)| {
                        parts.len() > len || (parts.len() == len && start > at)
                    });
                    if better {
                        best = Some((parts.len(), start, category));
                    }
                }
            }
        }
    }
    best.map(|(_, _, category)| category)
}

/// The name of a draft made from recipes (spec section 3, word for word).
pub fn draft_name(recipes: usize) -> Text {
    // The spec's English is the same for one and many; other languages have their plurals.
    t_plural!(
        "List from {{count}} recipe(s)",
        "List from {{count}} recipe(s)",
        recipes
    )
}

/// Recipe ingredients merged into list items: by lower-case name, quantities added where their
/// units agree and otherwise joined with ' + ', names capitalised, all unchecked. The category
/// comes from `category_of` (the ingredient catalogue), else Other. In order of first sight.
/// What is bought is the name before a comma: how a recipe prepares it ("Grapes, quartered
/// lengthways"; "Onion, finely chopped") is not.
pub fn merge<'a>(
    ingredients: impl IntoIterator<Item = (&'a str, &'a str)>,
    category_of: impl Fn(&str) -> Option<&'static str>,
) -> Vec<ItemDraft> {
    let mut order: Vec<(String, String, Vec<String>)> = Vec::new();
    for (name, quantity) in ingredients {
        let bought = name.split_once(',').map_or(name, |(food, _)| food);
        let name = sanitize_line(bought);
        if name.is_empty() {
            continue;
        }
        let key = name.to_lowercase();
        match order.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, _, quantities)) => quantities.push(quantity.to_string()),
            None => order.push((key, name, vec![quantity.to_string()])),
        }
    }
    order
        .into_iter()
        .map(|(_, name, quantities)| ItemDraft {
            category: category_of(&name).unwrap_or(DEFAULT_CATEGORY).to_string(),
            name: capitalise(&name),
            quantity: combine(&quantities),
            checked: false,
        })
        .collect()
}

/// The estimated total: the catalogue's price where it knows the item, else the configured
/// estimate per item. Returns the total (2 decimals) and how many prices were known.
pub fn estimate(prices: impl IntoIterator<Item = Option<f64>>, per_item: f64) -> (f64, usize) {
    let (mut total, mut known) = (0.0, 0);
    for price in prices {
        match price {
            Some(p) => {
                total += p;
                known += 1;
            }
            None => total += per_item,
        }
    }
    ((total * 100.0).round() / 100.0, known)
}

/// An item as exported.
pub struct Row<'a> {
    pub name: &'a str,
    pub quantity: &'a str,
    pub category: &'a str,
    pub checked: bool,
}

/// Rows grouped by category in the spec's order (unknown categories last), items in list order.
fn grouped<'a>(rows: &'a [Row<'a>]) -> Vec<(&'a str, Vec<&'a Row<'a>>)> {
    let rank = |c: &str| {
        CATEGORIES
            .iter()
            .position(|k| *k == c)
            .unwrap_or(CATEGORIES.len())
    };
    let mut out: Vec<(&str, Vec<&Row>)> = Vec::new();
    for row in rows {
        match out.iter_mut().find(|(c, _)| *c == row.category) {
            Some((_, list)) => list.push(row),
            None => out.push((row.category, vec![row])),
        }
    }
    out.sort_by_key(|(c, _)| rank(c));
    out
}

/// Plain text for a phone's notes or a message.
pub fn to_text(name: &str, rows: &[Row<'_>]) -> String {
    let mut out = format!("{name}\n");
    for (category, items) in grouped(rows) {
        out.push_str(&format!("\n{}\n", category_name(category)));
        for r in items {
            let mark = if r.checked { "[x]" } else { "[ ]" };
            out.push_str(&format!("{mark} {} ({})\n", r.name, r.quantity));
        }
    }
    out
}

/// Markdown with task-list boxes.
pub fn to_markdown(name: &str, rows: &[Row<'_>]) -> String {
    let escape = |s: &str| {
        s.chars()
            .flat_map(|c| {
                let special = "\\`*_{}[]()#+-.!|<>".contains(c);
                special
                    .then_some('\\')
                    .into_iter()
                    .chain(std::iter::once(c))
            })
            .collect::<String>()
    };
    let mut out = format!("# {}\n", escape(name));
    for (category, items) in grouped(rows) {
        out.push_str(&format!("\n## {}\n\n", escape(&category_name(category))));
        for r in items {
            let mark = if r.checked { "x" } else { " " };
            out.push_str(&format!(
                "- [{mark}] {} ({})\n",
                escape(r.name),
                escape(r.quantity)
            ));
        }
    }
    out
}

/// CSV (RFC 4180): every field quoted, quotes doubled; a field a spreadsheet would run as a
/// formula (= + - @) starts with an apostrophe.
pub fn to_csv(rows: &[Row<'_>]) -> String {
    let field = |s: &str| {
        let safe = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
            format!("'{s}")
        } else {
            s.to_string()
        };
        format!("\"{}\"", safe.replace('"', "\"\""))
    };
    let header = [t!("Category"), t!("Item"), t!("Quantity"), t!("Checked")];
    let (yes, no) = (t!("yes").here(), t!("no").here());
    let mut out = header
        .iter()
        .map(|h| field(&h.here()))
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    for (category, items) in grouped(rows) {
        for r in items {
            out.push_str(&format!(
                "{},{},{},{}\r\n",
                field(&category_name(category)),
                field(r.name),
                field(r.quantity),
                field(if r.checked { &yes } else { &no })
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shopping_words_are_read_in_the_parents_language() {
        use crate::i18n::{Lang, scope::within_sync};
        // Without the catalogue: the shopping words alone, as the name reads in English.
        let none = |_: &str| None;
        for (lang, name, category) in [
            (Lang::En, "Semi-skimmed milk", "Dairy"),
            (Lang::Fr, "Lait demi-écrémé", "Dairy"),
            (Lang::De, "Fettarme Milch", "Dairy"),
            (Lang::Es, "Leche semidesnatada", "Dairy"),
            (Lang::Fr, "Pommes", "Produce"),
            (Lang::De, "Äpfel", "Produce"),
            (Lang::Fr, "Couches", DEFAULT_CATEGORY),
        ] {
            let got = within_sync(lang, || suggest_category(name, none));
            assert_eq!(got, category, "{lang:?} {name}");
        }
    }

    fn item(name: &str, quantity: &str, category: &str) -> ItemDraft {
        ItemDraft {
            name: name.into(),
            quantity: quantity.into(),
            category: category.into(),
            checked: false,
        }
    }

    #[test]
    fn items_take_the_spec_defaults_and_texts() {
        let ok = item("  Milk ", "", "dairy").validate().unwrap();
        assert_eq!(
            (ok.name.as_str(), ok.quantity.as_str(), ok.category),
            ("Milk", "1", "Dairy")
        );
        assert_eq!(item("Soap", "2", "").validate().unwrap().category, "Other");
        let err = item("  ", "1", "").validate().unwrap_err();
        assert_eq!(
            (
                err.title.to_string().as_str(),
                err.message.to_string().as_str()
            ),
            ("Item name required", "Please enter an item name")
        );
        assert!(item("Rice", "1", "Toys").validate().is_err());
    }

    #[test]
    fn a_list_needs_a_name_and_an_item() {
        let err = validate_list(" ", &[item("Milk", "1", "")]).unwrap_err();
        assert_eq!(err.message, "List name is required.");
        let err = validate_list("Weekly", &[]).unwrap_err();
        assert_eq!(
            (
                err.title.to_string().as_str(),
                err.message.to_string().as_str()
            ),
            (
                "No items in list",
                "Please add at least one item to your grocery list"
            )
        );
        let many = vec![item("Milk", "1", ""); ITEMS_MAX + 1];
        assert!(validate_list("Weekly", &many).is_err());
    }

    #[test]
    fn merging_follows_the_spec_and_adds_what_it_can() {
        let ingredients = [
            ("chicken breast", "200 g"),
            ("Rice", "1 cup"),
            ("Chicken Breast", "100 g"),
            ("rice", "1/2 cup"),
            ("Salt", ""),
            ("Soy sauce", "2 tbsp"),
            ("soy sauce", "a splash"),
            ("Grapes, quartered lengthways", "100 g"),
            ("grapes", "50 g"),
        ];
        let lookup = |name: &str| match name.to_lowercase().as_str() {
            "chicken breast" => Some("Meat & Seafood"),
            "rice" => Some("Dry Goods & Pasta"),
            _ => None,
        };
        let merged = merge(ingredients, lookup);
        let shown: Vec<(&str, &str, &str, bool)> = merged
            .iter()
            .map(|i| {
                (
                    i.name.as_str(),
                    i.quantity.as_str(),
                    i.category.as_str(),
                    i.checked,
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("Chicken breast", "300 g", "Meat & Seafood", false),
                ("Rice", "1 1/2 cups", "Dry Goods & Pasta", false),
                ("Salt", "1", "Other", false),
                ("Soy sauce", "2 tbsp + a splash", "Other", false),
                ("Grapes", "150 g", "Other", false),
            ]
        );
        assert_eq!(draft_name(2), "List from 2 recipe(s)");
        assert_eq!(draft_name(1), "List from 1 recipe(s)");
    }

    #[test]
    fn edits_keep_item_ids_and_a_late_tick_does_not_undo_a_newer_one() {
        let t0 = Utc::now();
        let (name, fields) = validate_list(
            "Weekly",
            &[item("Milk", "1", "Dairy"), item("Soap", "", "")],
        )
        .unwrap();
        let mut list = GroceryList::create(FamilyId::new(), name, fields, t0);
        let (milk, soap) = (list.items[0].id, list.items[1].id);
        let t1 = t0 + chrono::Duration::seconds(10);
        assert!(list.tick(milk, true, t1).unwrap());
        // A tick made offline before t1 arrives late: reported, not applied.
        assert!(
            !list
                .tick(milk, false, t0 + chrono::Duration::seconds(5))
                .unwrap()
        );
        assert!(list.items[0].checked);
        assert_eq!(list.checked_count(), (1, 2));
        assert_eq!(
            list.tick(GroceryItemId::new(), true, t1),
            Err(crate::domain::DomainError::NotFound)
        );
        // A whole-list save: Soap renamed (same id), Milk kept, Bread new.
        let edits = vec![
            ItemEdit {
                id: Some(soap),
                fields: item("Hand soap", "2", "Personal Care").validate().unwrap(),
            },
            ItemEdit {
                id: Some(milk),
                fields: ItemDraft {
                    checked: true,
                    ..item("Milk", "1", "Dairy")
                }
                .validate()
                .unwrap(),
            },
            ItemEdit {
                id: None,
                fields: item("Bread", "", "Bakery").validate().unwrap(),
            },
        ];
        list.apply("Weekly shop".into(), edits, t1);
        assert_eq!(list.items[0].id, soap);
        assert_eq!(list.items[0].name, "Hand soap");
        assert_eq!(
            list.items[1].checked_at,
            Some(t1),
            "unchanged tick keeps its time"
        );
        assert_ne!(list.items[2].id, milk);
        assert_eq!(list.name, "Weekly shop");
    }

    #[test]
    fn the_estimate_uses_known_prices_and_the_default_for_the_rest() {
        assert_eq!(estimate([Some(1.2), None, None], 2.5), (6.2, 1));
    }

    #[test]
    fn exports_group_by_category_and_quote_csv() {
        let rows = [
            Row {
                name: "Soap",
                quantity: "1",
                category: "Cleaning",
                checked: false,
            },
            Row {
                name: "Milk, \"whole\"",
                quantity: "2",
                category: "Dairy",
                checked: true,
            },
            Row {
                name: "=HYPERLINK(\"x\")",
                quantity: "1",
                category: "Other",
                checked: false,
            },
            Row {
                name: "Apples",
                quantity: "6",
                category: "Produce",
                checked: false,
            },
        ];
        let csv = to_csv(&rows);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "\"Category\",\"Item\",\"Quantity\",\"Checked\"");
        assert_eq!(lines[1], "\"Produce\",\"Apples\",\"6\",\"no\"");
        assert_eq!(lines[2], "\"Dairy\",\"Milk, \"\"whole\"\"\",\"2\",\"yes\"");
        assert_eq!(
            lines[4],
            "\"Other\",\"'=HYPERLINK(\"\"x\"\")\",\"1\",\"no\""
        );
        let text = to_text("Weekly shop", &rows);
        assert!(text.starts_with("Weekly shop\n\nProduce\n[ ] Apples (6)\n"));
        assert!(text.contains("[x] Milk, \"whole\" (2)"));
        let md = to_markdown("Weekly shop", &rows);
        assert!(md.starts_with("# Weekly shop\n\n## Produce\n\n- [ ] Apples (6)\n"));
        assert!(md.contains("- [x] Milk, \"whole\" (2)"));
        assert!(md.contains("- [ ] =HYPERLINK\\(\"x\"\\) (1)"), "{md}");
    }
}
