//! The catalogues, built into the binary and read once, on first use.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::Lang;
use super::lang::PluralForm;

/// The catalogue files, as shipped (one per language; docs/translating.md).
pub(super) const FILES: [(Lang, &str); 4] = [
    (Lang::En, include_str!("../../locales/server/en.json")),
    (Lang::Fr, include_str!("../../locales/server/fr.json")),
    (Lang::De, include_str!("../../locales/server/de.json")),
    (Lang::Es, include_str!("../../locales/server/es.json")),
];

type Catalogue = HashMap<String, String>;

static LOADED: [OnceLock<Catalogue>; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

fn catalogue(lang: Lang) -> &'static Catalogue {
    let index = Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    LOADED[index].get_or_init(|| parse(FILES[index].1))
}

/// A flat JSON object of texts. A catalogue that does not parse counts as empty (English is
/// then shown); the catalogue test fails long before such a file could ship.
pub(super) fn parse(json: &str) -> Catalogue {
    serde_json::from_str::<HashMap<String, String>>(json)
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, v)| !v.trim().is_empty())
        .collect()
}

/// The text for `key` (in `form`, for a text that counts) in `lang`'s catalogue.
pub(super) fn lookup(lang: Lang, key: &str, form: Option<PluralForm>) -> Option<&'static str> {
    let catalogue = catalogue(lang);
    match form {
        None => catalogue.get(key),
        Some(form) => catalogue
            .get(&format!("{key}{}", form.suffix()))
            .or_else(|| catalogue.get(&format!("{key}_other"))),
    }
    .map(String::as_str)
}
