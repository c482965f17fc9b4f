//! What a reading in another language needs to know: the shape of the per-language word lists
//! (`fr.rs`, `de.rs`, `es.rs`). They are data, reviewed on their own; `foreign.rs` reads with them.
//!
//! Spellings are folded the way `words` folds a food: lowercase, accents off ("crème" is
//! "creme", "Nüsse" is "nusse", "ß" is "ss"), apostrophes split ("d'amande" is "d amande").
//! "a/b" lists spellings of one entry. An entry of several words is a phrase, matched whole and
//! before its words alone. Inflected forms (plurals, feminine, German cases) need no entry when
//! they are a spelling plus one of `endings`; irregular ones are listed as spellings.
//!
//! The English side is the words the allergen tables and the food safety rules know
//! ("peanut", "cows milk", "quartered"): a reading hands them to the English matchers.

use crate::i18n::Lang;

pub struct Lexicon {
    pub lang: Lang,
    /// Foods, dishes and food phrases (nouns), each with its English: ("lait", "milk").
    pub foods: &'static [(&'static str, &'static str)],
    /// Words that follow the noun they describe where English puts them before it (French and
    /// Spanish adjectives and participles: "raisins entiers" is "whole grapes").
    pub after: &'static [(&'static str, &'static str)],
    /// Words read in place: adjectives before a noun, negations, "and", "with"
    /// ("sans" is "without", "et" is "and").
    pub words: &'static [(&'static str, &'static str)],
    /// Articles and other words that say nothing about the food ("le", "des", "die").
    pub silent: &'static [&'static str],
    /// Words that join two nouns the way English writes the second one first: "jus de raisin"
    /// is "grape juice", "tarte aux pommes" is "apple tart". Elsewhere they are silent.
    pub of: &'static [&'static str],
    /// Words for "without", read in place: they take away the word after them only
    /// ("beurre de cacahuète sans noix" is still peanut). A claim that a food is free of one
    /// allergen is an `after` phrase of its own: ("sans gluten", "gluten free").
    pub without: &'static [&'static str],
    /// Endings an inflected word may carry beyond a listed spelling ("s", "x" for "gâteaux").
    pub endings: &'static [&'static str],
    /// Spellings that are also English food words with another meaning (French "raisin" is a
    /// grape): they alone do not make a food read in this language.
    pub false_friends: &'static [&'static str],
    /// German: a word may be several listed words run together ("Erdnussbutter"), with one
    /// of these between them ("Schokolade-n-kuchen").
    pub linking: Option<&'static [&'static str]>,
}
