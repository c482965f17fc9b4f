//! The ingredient catalogue's names in each language (`locales/foods/*.json`: the English name,
//! as in the catalogue, to the language's): the picker shows them, and a food typed in one of
//! them is read as the catalogue's English by the allergen and food safety matchers.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::Lang;

const FILES: [(Lang, &str); 3] = [
    (Lang::Fr, include_str!("../../locales/foods/fr.json")),
    (Lang::De, include_str!("../../locales/foods/de.json")),
    (Lang::Es, include_str!("../../locales/foods/es.json")),
];

static LOADED: [OnceLock<HashMap<String, String>>; 3] =
    [OnceLock::new(), OnceLock::new(), OnceLock::new()];

/// The same names as written inside a sentence, with their definite article ("la carotte",
/// "los guisantes"), for the languages whose recipes need one; German recipes go without.
const DEFINITE: [(Lang, &str); 2] = [
    (
        Lang::Fr,
        include_str!("../../locales/foods/definite/fr.json"),
    ),
    (
        Lang::Es,
        include_str!("../../locales/foods/definite/es.json"),
    ),
];

static DEFINITE_LOADED: [OnceLock<HashMap<String, String>>; 2] = [OnceLock::new(), OnceLock::new()];

type Names = HashMap<String, String>;

/// The file of `lang` among `files`, read once into its place in `loaded`.
fn table(
    files: &[(Lang, &'static str)],
    loaded: &'static [OnceLock<Names>],
    lang: Lang,
) -> Option<&'static Names> {
    let i = files.iter().position(|(l, _)| *l == lang)?;
    Some(loaded[i].get_or_init(|| super::catalogue::parse(files[i].1)))
}

fn names(lang: Lang) -> Option<&'static Names> {
    table(&FILES, &LOADED, lang)
}

/// Every English name with its name in `lang`; none for English.
pub fn food_names(lang: Lang) -> impl Iterator<Item = (&'static str, &'static str)> {
    names(lang)
        .into_iter()
        .flatten()
        .map(|(en, name)| (en.as_str(), name.as_str()))
}

/// A catalogue name in `lang`, or as given when the language has none for it.
pub fn food_name(lang: Lang, english: &str) -> String {
    names(lang)
        .and_then(|n| n.get(english))
        .cloned()
        .unwrap_or_else(|| english.to_string())
}

fn definite(lang: Lang) -> Option<&'static Names> {
    table(&DEFINITE, &DEFINITE_LOADED, lang)
}

/// Every English name with its name and article in `lang` ("Carrot", "la carotte"); none for
/// a language whose recipes name foods without one.
pub fn definite_names(lang: Lang) -> impl Iterator<Item = (&'static str, &'static str)> {
    definite(lang)
        .into_iter()
        .flatten()
        .map(|(en, name)| (en.as_str(), name.as_str()))
}

/// Foods named inside a sentence with their article, the language's way: "the carrot, peas and
/// broccoli", "la carotte, les petits pois et le brocoli", "Karotte, Erbsen und Brokkoli". A food
/// the catalogue does not know is named as given, without one (its gender is unknown).
pub fn the_foods(lang: Lang, english: &[String]) -> String {
    let named: Vec<String> = english
        .iter()
        .map(|food| match lang {
            Lang::En => food.to_lowercase(),
            Lang::De => food_name(lang, food),
            Lang::Fr | Lang::Es => definite(lang)
                .and_then(|names| names.get(food.as_str()).cloned())
                .unwrap_or_else(|| food_name(lang, food).to_lowercase()),
        })
        .collect();
    let list = lang.and_list(&named);
    match lang {
        Lang::En if !list.is_empty() => format!("the {list}"),
        _ => list,
    }
}
