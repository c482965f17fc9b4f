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

fn names(lang: Lang) -> Option<&'static HashMap<String, String>> {
    let i = FILES.iter().position(|(l, _)| *l == lang)?;
    Some(LOADED[i].get_or_init(|| super::catalogue::parse(FILES[i].1)))
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
