//! Foods as typed, read word by word: the tokenizer and plural rules that the allergen matcher
//! and the child food safety rules share, so both read "Grapes, quartered" the same way, and
//! the readings of foods typed in French, German or Spanish (`foreign`).

mod de;
mod es;
mod foreign;
mod fr;
pub mod lexicon;

pub use foreign::readings;

/// The lexicons of the languages foods are read in besides English, for their tests.
pub fn lexicons() -> [&'static lexicon::Lexicon; 3] {
    [&fr::LEXICON, &de::LEXICON, &es::LEXICON]
}

/// Words that start a new clause, like a comma: a negation stops there.
pub const SEPARATORS: &[&str] = &["and", "with", "or", "nor", "plus", "but", "then"];

/// A word of the text, lowercase and accent-folded. Phrases never cross a segment (punctuation);
/// negations never cross a clause (punctuation other than brackets, and words like "with").
#[derive(Debug, Clone)]
pub struct Word {
    pub text: String,
    pub segment: u32,
    pub clause: u32,
    /// Where the word stands in the text, in bytes (a translated word: the words it came from).
    pub span: (usize, usize),
    /// Read from another language: warnings show the words as typed, not the table's.
    pub translated: bool,
}

impl Word {
    /// The words `words` stand for, as typed (in lower case but in German): "beurre de cacahuète".
    pub fn as_typed(text: &str, words: &[Word]) -> String {
        let start = words.iter().map(|w| w.span.0).min().unwrap_or(0);
        let end = words.iter().map(|w| w.span.1).max().unwrap_or(0);
        let typed = text.get(start..end).unwrap_or_default();
        // Inside a sentence, in lower case; German nouns keep their capital ("Karotte").
        if crate::i18n::scope::current() == crate::i18n::Lang::De {
            typed.to_string()
        } else {
            typed.to_lowercase()
        }
    }
}

/// The words of an English reading.
pub fn words(text: &str) -> Vec<Word> {
    let mut out = tokens(text, false);
    number_clauses(&mut out);
    out
}

/// The words of the text with `clause` counting punctuation only. Apostrophes join ("cow's")
/// or, in another language, split ("d'amande", "l'huile").
fn tokens(text: &str, split_apostrophes: bool) -> Vec<Word> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start = 0;
    let (mut segment, mut clause) = (0u32, 0u32);
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            if current.is_empty() {
                start = at;
            }
            fold(c, &mut current);
            continue;
        }
        let apostrophe = matches!(c, '\'' | '\u{2019}' | '\u{2018}' | '\u{02bc}' | '`');
        // "cow's" is one word; a quote around a word is nothing. Another language's elision
        // splits ("d'amande", "l'huile", "qu'"), an English possessive does not ("shepherd's").
        if apostrophe && !(split_apostrophes && (1..=2).contains(&current.len())) {
            continue;
        }
        push_word(&mut out, &mut current, (start, at), segment, clause);
        // Hyphens join ("egg-free" reads as "egg free"); other punctuation splits.
        if apostrophe || c.is_whitespace() || matches!(c, '-' | '_' | '\u{2010}' | '\u{2011}') {
            continue;
        }
        segment += 1;
        // "Cheese (dairy-free)" is one clause.
        if !matches!(c, '(' | ')' | '[' | ']') {
            clause += 1;
        }
    }
    push_word(&mut out, &mut current, (start, text.len()), segment, clause);
    out
}

fn push_word(
    out: &mut Vec<Word>,
    current: &mut String,
    span: (usize, usize),
    segment: u32,
    clause: u32,
) {
    if current.is_empty() {
        return;
    }
    out.push(Word {
        text: std::mem::take(current),
        segment,
        clause,
        span,
        translated: false,
    });
}

/// Adds the clauses that words like "and" and "with" start to those of the punctuation.
fn number_clauses(words: &mut [Word]) {
    let mut separators = 0;
    for word in words {
        if SEPARATORS.contains(&word.text.as_str()) {
            separators += 1;
        }
        word.clause += separators;
    }
}

/// A text in lower case with its accents off ("Épicerie" is "epicerie").
pub fn folded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        fold(c, &mut out);
    }
    out
}

/// Lowercase, accents off ("crème fraîche" is "creme fraiche").
fn fold(c: char, out: &mut String) {
    for c in c.to_lowercase() {
        match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' => out.push('a'),
            'ç' | 'č' => out.push('c'),
            'è' | 'é' | 'ê' | 'ë' | 'ē' => out.push('e'),
            'ì' | 'í' | 'î' | 'ï' => out.push('i'),
            'ñ' => out.push('n'),
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => out.push('o'),
            'ù' | 'ú' | 'û' | 'ü' => out.push('u'),
            'ý' | 'ÿ' => out.push('y'),
            'œ' => out.push_str("oe"),
            'æ' => out.push_str("ae"),
            'ß' => out.push_str("ss"),
            _ => out.push(c),
        }
    }
}

/// `word` is `base` or one of its plurals (eggs, tomatoes, anchovies, loaves).
pub fn is_form_of(word: &str, base: &str) -> bool {
    if word == base {
        return true;
    }
    if let Some(stem) = word.strip_suffix('s')
        && (stem == base || stem.strip_suffix('e') == Some(base))
    {
        return true;
    }
    if let Some(stem) = word.strip_suffix("ies")
        && !stem.is_empty()
        && base.strip_suffix('y') == Some(stem)
    {
        return true;
    }
    if let Some(stem) = word.strip_suffix("ves")
        && (base.strip_suffix('f') == Some(stem) || base.strip_suffix("fe") == Some(stem))
    {
        return true;
    }
    false
}

/// The same word, either one maybe plural: for allergies typed as plain food words.
pub fn same_word(a: &str, b: &str) -> bool {
    // A form of a word of three letters or more starts with its letter: most pairs differ there
    // (a diet's sixty words are compared with every word of a recipe).
    if a.len() >= 3 && b.len() >= 3 && a.as_bytes()[0] != b.as_bytes()[0] {
        return false;
    }
    is_form_of(a, b) || is_form_of(b, a)
}

/// The singulars a word may have, to look it up.
pub fn singulars(word: &str) -> impl Iterator<Item = String> + '_ {
    let s = word.strip_suffix('s');
    let es = word.strip_suffix("es");
    let ies = word.strip_suffix("ies").map(|stem| format!("{stem}y"));
    let ves = word.strip_suffix("ves");
    [
        Some(word.to_string()),
        s.map(str::to_string),
        es.map(str::to_string),
        ies,
        ves.map(|stem| format!("{stem}f")),
        ves.map(|stem| format!("{stem}fe")),
    ]
    .into_iter()
    .flatten()
}

/// Phrases ("a/b" spellings of one, each of words) by their first word, each with what it
/// means: the allergen tables and the food safety rules look foods up in one.
pub struct PhraseIndex<T> {
    entries: Vec<(Vec<&'static str>, T)>,
    by_first_word: std::collections::HashMap<&'static str, Vec<usize>>,
}

impl<T> Default for PhraseIndex<T> {
    fn default() -> Self {
        PhraseIndex {
            entries: Vec::new(),
            by_first_word: std::collections::HashMap::new(),
        }
    }
}

impl<T> PhraseIndex<T> {
    /// Adds every "a/b" spelling of `line`, each with its own copy of what it means.
    pub fn add(&mut self, line: &'static str, meaning: impl Fn() -> T) {
        for spelling in line.split('/') {
            let words: Vec<&'static str> = spelling.split(' ').collect();
            self.by_first_word
                .entry(words[0])
                .or_default()
                .push(self.entries.len());
            self.entries.push((words, meaning()));
        }
    }

    /// Every spelling and what it means, in the order added (for the tables' own tests).
    pub fn entries(&self) -> impl Iterator<Item = (&[&'static str], &T)> {
        self.entries.iter().map(|(w, t)| (w.as_slice(), t))
    }

    /// The longest phrases that stand at `at` within one segment, plurals allowed (several
    /// when spellings coincide), among those `accept` takes, and their length in words.
    pub fn longest_at(
        &self,
        words: &[Word],
        at: usize,
        accept: impl Fn(&T) -> bool,
    ) -> (usize, Vec<&T>) {
        let mut best: (usize, Vec<&T>) = (0, Vec::new());
        let segment = words[at].segment;
        for key in singulars(&words[at].text) {
            for &e in self.by_first_word.get(key.as_str()).into_iter().flatten() {
                let (phrase, meaning) = &self.entries[e];
                let n = phrase.len();
                if n < best.0 || at + n > words.len() || !accept(meaning) {
                    continue;
                }
                let fits = words[at..at + n]
                    .iter()
                    .zip(phrase)
                    .all(|(w, term)| w.segment == segment && is_form_of(&w.text, term));
                if !fits {
                    continue;
                }
                if n > best.0 {
                    best = (n, Vec::new());
                }
                if !best.1.iter().any(|b| std::ptr::eq(*b, meaning)) {
                    best.1.push(meaning);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_the_same_as_its_plurals_and_nothing_else() {
        for (a, b) in [
            ("egg", "eggs"),
            ("tomatoes", "tomato"),
            ("berry", "berries"),
            ("loaves", "loaf"),
            ("knives", "knife"),
            ("nut", "nut"),
            ("pea", "peas"),
        ] {
            assert!(same_word(a, b), "{a} / {b}");
            assert!(same_word(b, a), "{b} / {a}");
        }
        for (a, b) in [
            ("egg", "leg"),
            ("eggs", "legs"),
            ("oat", "goat"),
            ("rye", "ryes s"),
        ] {
            assert!(!same_word(a, b), "{a} / {b}");
        }
    }
}
