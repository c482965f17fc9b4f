//! Foods typed in French, German or Spanish, read into the English words the allergen tables
//! and the food safety rules know ("beurre de cacahuète" is "peanut butter", "Erdnussbutter" is
//! "peanut butter", "raisins entiers" is "whole grapes"), so one set of tables, reviewed once,
//! keeps every child safe whatever language the parent types in.
//!
//! A food is read in every language it shows words of, not only in the language of whoever is
//! looking: a co-parent reading in English still gets the warning for "arachides". A word that
//! is also an English food word with another meaning (French "raisin" is a grape, Spanish
//! "pan" is bread, and a pan in a recipe's steps) is a false friend: on its own it makes a food
//! read in its language only for a parent who uses that language. A food with no such words is
//! read in English.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::LazyLock;

use crate::i18n::foods::food_names;
use crate::i18n::{Lang, scope};

use super::lexicon::Lexicon;
use super::{Word, is_form_of, number_clauses, tokens, words};

/// Every reading of `text` to match: the reading in each language it shows words of, or else
/// the English one. `english_phrase` gives the length of a phrase of the English tables at a
/// place ("pain au chocolat", "fish and chips"): such phrases are kept as they are.
pub fn readings(text: &str, english_phrase: impl Fn(&[Word], usize) -> usize) -> Vec<Vec<Word>> {
    let ws = tokens(text, true);
    // A sentence in English ("Heat the oil in a large frying pan") is English whoever reads
    // it: its false friends are English words.
    // As typed, not folded: French "thé" is no "the".
    let english = ws.iter().any(|w| {
        ENGLISH_ONLY.contains(&w.text.as_str())
            && text
                .get(w.span.0..w.span.1)
                .is_some_and(|typed| typed.eq_ignore_ascii_case(&w.text))
    });
    let preferred = (!english).then(scope::current);
    let read: Vec<Reading> = LEXICONS
        .iter()
        .filter_map(|index| index.read(&ws, Some(index.lex.lang) == preferred, &english_phrase))
        .collect();
    if read.is_empty() {
        return vec![words(text)];
    }
    // Each language that shows words of its own, unless another shows all those and more
    // ("miel de caña" is Spanish, though "miel" is French too), or shows more while it reads
    // this one's as its own small words (Spanish "en" is "in", French "en" says nothing:
    // "riz à risotto en cocotte" is French), unless it is the reader's language (a Spanish
    // parent's "rape en brochette" is monkfish): a food typed in two languages is read in
    // both.
    let kept: Vec<Vec<Word>> = read
        .iter()
        .filter(|r| {
            !read.iter().any(|o| {
                o.shows != r.shows
                    && (o.shows.is_superset(&r.shows)
                        || (Some(r.lang) != preferred
                            && r.shows
                                .iter()
                                .all(|i| o.shows.contains(i) || o.small.contains(i))
                            && !o.shows.is_subset(&r.shows)))
            })
        })
        .map(|r| r.words.clone())
        .collect();
    // Two languages each reading the other's words as small ones: both stay.
    if kept.is_empty() {
        read.into_iter().map(|r| r.words).collect()
    } else {
        kept
    }
}

/// A food read in one language.
struct Reading {
    /// Where its words show the language (typed words' places).
    shows: BTreeSet<usize>,
    /// Where it reads small words that say nothing ("la", "en", "de").
    small: BTreeSet<usize>,
    lang: Lang,
    words: Vec<Word>,
}

static LEXICONS: LazyLock<[Index; 3]> =
    LazyLock::new(|| super::lexicons().map(|lex| Index::new(lex).with_catalogue_names()));

/// The longest word, in bytes, read as a compound.
const LONGEST_COMPOUND: usize = 64;

/// Words of English sentences that no lexicon's language writes: a text with one is read
/// as English by a parent of any language (a recipe's steps).
const ENGLISH_ONLY: &[&str] = &[
    "the", "of", "until", "into", "onto", "then", "them", "it", "is", "are", "your", "from",
    "over", "for",
];

/// The English words that split a food into clauses or negate: never part of a compound.
const JOINING: &[&str] = &["and", "or", "nor", "with", "without", "no"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Food,
    After,
    InPlace,
    Silent,
    Of,
    Without,
}

struct Entry {
    words: Vec<String>,
    english: String,
    kind: Kind,
    false_friend: bool,
}

/// One lexicon, ready to look words up.
struct Index {
    lex: &'static Lexicon,
    by_first_word: HashMap<String, Vec<Entry>>,
    /// Single words that may stand in a compound, with their English.
    pieces: HashMap<String, String>,
    false_friends: HashSet<&'static str>,
}

impl Index {
    fn new(lex: &'static Lexicon) -> Index {
        let mut index = Index {
            lex,
            by_first_word: HashMap::new(),
            pieces: HashMap::new(),
            false_friends: lex.false_friends.iter().copied().collect(),
        };
        let plain = |words: &'static [&'static str]| words.iter().map(|w| (*w, ""));
        let lists: [(Kind, Vec<(&'static str, &'static str)>); 6] = [
            (Kind::Food, lex.foods.to_vec()),
            (Kind::After, lex.after.to_vec()),
            (Kind::InPlace, lex.words.to_vec()),
            (Kind::Silent, plain(lex.silent).collect()),
            (Kind::Of, plain(lex.of).collect()),
            (
                Kind::Without,
                plain(lex.without).map(|(w, _)| (w, "without")).collect(),
            ),
        ];
        for (kind, entries) in lists {
            for (spellings, english) in entries {
                for spelling in spellings.split('/') {
                    index.add(spelling, english, kind, true);
                }
            }
        }
        index
    }

    /// Adds the ingredient catalogue's names, after the lexicon's own words ("Beurre de
    /// cacahuète" is the catalogue's "Peanut butter").
    fn with_catalogue_names(mut self) -> Index {
        for (english, name) in food_names(self.lex.lang) {
            let (name, english) = (words(name), words(english));
            if name.iter().all(|w| w.segment == name[0].segment) && !english.is_empty() {
                let join =
                    |ws: Vec<Word>| ws.into_iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
                self.add(&join(name), &join(english), Kind::Food, false);
            }
        }
        self
    }

    /// Adds an entry; a `piece` may also stand in a compound (the catalogue's names may not:
    /// "Obst" would end "Lobster").
    fn add(&mut self, spelling: &str, english: &str, kind: Kind, piece: bool) {
        let words: Vec<String> = spelling.split(' ').map(str::to_string).collect();
        if words.iter().any(String::is_empty) {
            return;
        }
        let single = words.len() == 1;
        let joining = JOINING.contains(&english);
        if piece
            && single
            && spelling.len() >= 3
            && matches!(kind, Kind::Food | Kind::InPlace)
            && !joining
        {
            self.pieces
                .entry(spelling.to_string())
                .or_insert_with(|| english.to_string());
        }
        self.by_first_word
            .entry(words[0].clone())
            .or_default()
            .push(Entry {
                false_friend: single && self.false_friends.contains(spelling),
                words,
                english: english.to_string(),
                kind,
            });
    }

    /// The word as typed, then without each ending the language inflects with.
    fn stems<'w>(&self, word: &'w str) -> impl Iterator<Item = &'w str> + use<'w, '_> {
        std::iter::once(word).chain(
            self.lex
                .endings
                .iter()
                .filter_map(move |e| word.strip_suffix(e).filter(|s| s.len() >= 2)),
        )
    }

    fn is_form(&self, word: &str, term: &str) -> bool {
        self.stems(word).any(|s| s == term)
    }

    /// The longest entry at `at` within its segment: as typed first, then inflected.
    fn longest_at(&self, ws: &[Word], at: usize) -> Option<(usize, &Entry)> {
        let mut best: Option<(usize, &Entry)> = None;
        let segment = ws[at].segment;
        for stem in self.stems(&ws[at].text) {
            for entry in self.by_first_word.get(stem).into_iter().flatten() {
                // Words like "und" take no ending ("under" is not "und").
                let inflects = matches!(entry.kind, Kind::Food | Kind::After);
                if stem.len() != ws[at].text.len() && !inflects {
                    continue;
                }
                let n = entry.words.len();
                if at + n > ws.len() || best.is_some_and(|(b, _)| n <= b) {
                    continue;
                }
                let fits = ws[at + 1..at + n]
                    .iter()
                    .zip(&entry.words[1..])
                    .all(|(w, term)| w.segment == segment && self.is_form(&w.text, term));
                if fits {
                    best = Some((n, entry));
                }
            }
        }
        best
    }

    /// The reading of a text's words (apostrophes split) in this language, when a word of it
    /// shows the language (a false friend does only for a parent who uses the language).
    fn read(
        &self,
        ws: &[Word],
        preferred: bool,
        english_phrase: &impl Fn(&[Word], usize) -> usize,
    ) -> Option<Reading> {
        if !ws.iter().any(|w| self.may_show(&w.text, preferred)) {
            return None;
        }
        let units = self.units(ws, english_phrase);
        // A word spelled as its English ("pizza", "gluten", "Kiwi") shows no language.
        let shows: BTreeSet<usize> = units
            .iter()
            .filter(|u| {
                u.known
                    && !u.english_too
                    && !matches!(u.kind, Kind::Silent | Kind::Of)
                    && (!u.false_friend || (preferred && u.kind == Kind::Food))
            })
            .flat_map(|u| u.at..u.at + u.typed_words)
            .collect();
        if shows.is_empty() {
            return None;
        }
        let small: BTreeSet<usize> = units
            .iter()
            .filter(|u| u.known && matches!(u.kind, Kind::Silent | Kind::Of))
            .flat_map(|u| u.at..u.at + u.typed_words)
            .collect();
        let mut out = Vec::new();
        let mut at = 0;
        while at < units.len() {
            let end = units[at..]
                .iter()
                .position(|u| u.segment != units[at].segment)
                .map_or(units.len(), |n| at + n);
            out.extend(arrange(&units[at..end], !self.lex.after.is_empty()));
            at = end;
        }
        number_clauses(&mut out);
        Some(Reading {
            shows,
            small,
            lang: self.lex.lang,
            words: out,
        })
    }

    /// Whether a word may show the language: a quick look that passes most English foods by
    /// (the reading itself decides).
    fn may_show(&self, word: &str, preferred: bool) -> bool {
        let listed = self.stems(word).any(|stem| {
            self.by_first_word.get(stem).into_iter().flatten().any(|e| {
                !matches!(e.kind, Kind::Silent | Kind::Of)
                    && (!e.false_friend || preferred)
                    && (e.words.len() > 1 || e.english != e.words[0])
            })
        });
        // A compound holds a listed word of 3 letters or more.
        let compound = self.lex.linking.is_some()
            && word.len() <= LONGEST_COMPOUND
            && (0..word.len()).any(|i| {
                (i + 3..=word.len()).any(|j| {
                    (i, j) != (0, word.len())
                        && word.get(i..j).is_some_and(|p| self.pieces.contains_key(p))
                })
            });
        listed || compound
    }

    /// The words as units of meaning, left to right, the longest entry first.
    fn units(&self, ws: &[Word], english_phrase: &impl Fn(&[Word], usize) -> usize) -> Vec<Unit> {
        let mut units = Vec::new();
        let mut at = 0;
        while at < ws.len() {
            let kept = english_phrase(ws, at);
            let found = self.longest_at(ws, at);
            // Words the English tables know too: a longer phrase of theirs is kept as it is
            // ("pain au chocolat"); a word of the same length is read in this language, as
            // the English tables would read it (the false friends' test sees to that), unless
            // it is a false friend.
            let english_longer = found.is_none_or(|(n, _)| kept > n);
            if kept >= 1 && english_longer {
                units.extend((at..at + kept).map(|i| Unit::as_is(&ws[i], i)));
                at += kept;
                continue;
            }
            if let Some((n, entry)) = found {
                let span = (ws[at].span.0, ws[at + n - 1].span.1);
                let english: Vec<String> = entry.english.split(' ').map(str::to_string).collect();
                let spelled_alike = english.len() == n
                    && ws[at..at + n]
                        .iter()
                        .zip(&english)
                        .all(|(w, e)| is_form_of(&w.text, e));
                let english_too = spelled_alike || (kept == n && !entry.false_friend);
                units.push(Unit {
                    english,
                    at,
                    typed_words: n,
                    english_too,
                    kind: entry.kind,
                    span,
                    segment: ws[at].segment,
                    clause: ws[at].clause,
                    known: true,
                    false_friend: entry.false_friend,
                });
                at += n;
                continue;
            }
            match self.compound(&ws[at], at) {
                Some(parts) => units.extend(parts),
                None => units.push(Unit::as_is(&ws[at], at)),
            }
            at += 1;
        }
        units
    }

    /// A German word made of listed words ("Erdnussbutter", "Schokoladenkuchen",
    /// "Bauernbrot"), as the units of its parts; none when it is not one.
    fn compound(&self, word: &Word, at: usize) -> Option<Vec<Unit>> {
        let linking = self.lex.linking?;
        // German's longest food words are far shorter; a longer "word" is not one to split
        // (and the cut is quadratic in its length).
        if word.text.len() > LONGEST_COMPOUND {
            return None;
        }
        let parts = split(&word.text, &self.pieces, linking, self.lex.endings)?;
        // A word run together from a start it does not know and its own words shows German
        // ("Räuchertofu"); so does a piece spelled unlike its English.
        let german = parts.iter().any(|part| match part {
            Part::Known(typed, english) => !is_form_of(typed, english),
            Part::Unknown(_) => true,
        });
        Some(
            parts
                .into_iter()
                .map(|part| Unit {
                    at,
                    typed_words: 1,
                    known: matches!(part, Part::Known(..)),
                    english_too: !german || matches!(part, Part::Unknown(_)),
                    false_friend: false,
                    english: match part {
                        Part::Known(_, english) => english.split(' ').map(str::to_string).collect(),
                        // As typed: "gluten" of "Glutenunverträglichkeit".
                        Part::Unknown(start) => vec![start.to_string()],
                    },
                    kind: Kind::Food,
                    span: word.span,
                    segment: word.segment,
                    clause: word.clause,
                })
                .collect(),
        )
    }
}

/// A word or phrase of the food, with what it means in English.
#[derive(Debug, Clone)]
struct Unit {
    english: Vec<String>,
    kind: Kind,
    span: (usize, usize),
    segment: u32,
    clause: u32,
    /// The place of its first typed word, and how many it stands for.
    at: usize,
    typed_words: usize,
    /// Found in the lexicon (else passed on as typed).
    known: bool,
    /// An English word too (spelled as its English, or read the same way by the English
    /// tables): it shows no language.
    english_too: bool,
    false_friend: bool,
}

impl Unit {
    /// A word the lexicon does not know, passed on as typed: a name, or an English word.
    fn as_is(word: &Word, at: usize) -> Unit {
        Unit {
            english: vec![word.text.clone()],
            at,
            typed_words: 1,
            kind: Kind::Food,
            span: word.span,
            segment: word.segment,
            clause: word.clause,
            known: false,
            english_too: true,
            false_friend: false,
        }
    }

    fn words(&self) -> impl Iterator<Item = Word> + '_ {
        self.english.iter().map(|text| Word {
            text: text.clone(),
            segment: self.segment,
            clause: self.clause,
            span: self.span,
            translated: self.known,
        })
    }
}

/// One segment's units in English order: a word after its noun goes before it ("lait entier",
/// "pain sans gluten" with "sans gluten" listed as "gluten free"), and nouns joined by "de" go
/// last first ("beurre de cacahuète" is "peanut butter").
///
/// Where describing words follow the noun (French, Spanish), a known noun right after a known
/// noun describes it too: "yaourt fraise" is "strawberry yoghurt".
fn arrange(units: &[Unit], describing_after: bool) -> Vec<Word> {
    enum Item<'a> {
        /// A noun's words, and whether words that describe it came after it.
        Noun(Vec<Word>, bool),
        Link(&'a Unit),
    }
    let mut items: Vec<Item> = Vec::new();
    for unit in units {
        match unit.kind {
            Kind::Food => items.push(Item::Noun(unit.words().collect(), false)),
            Kind::After => match items.last_mut() {
                Some(Item::Noun(noun, described)) => {
                    noun.splice(0..0, unit.words());
                    *described = true;
                }
                _ => items.push(Item::Noun(unit.words().collect(), false)),
            },
            Kind::Silent => {}
            // "Sans" stays where it is, as "without": it takes away the word after it, not the
            // noun before ("beurre de cacahuète sans noix" is still peanut). An allergen-free
            // claim is a describing word of its own ("sans gluten" is "gluten free").
            Kind::InPlace | Kind::Of | Kind::Without => items.push(Item::Link(unit)),
        }
    }
    // "A de B de C" is "C B A"; a "de" without nouns on both sides says nothing.
    let mut out = Vec::new();
    let mut chain: Vec<Vec<Word>> = Vec::new();
    let mut pending_of = false;
    for item in items {
        match item {
            Item::Noun(noun, described) => {
                // "yaourt fraise", not "yaourt raisins entiers" (whole grapes stay grapes).
                let known = |ws: &[Word]| ws.iter().all(|w| w.translated);
                let describes = describing_after
                    && !described
                    && known(&noun)
                    && chain.last().is_some_and(|last| known(last));
                if !pending_of && !describes && !chain.is_empty() {
                    flush(&mut chain, &mut out);
                }
                chain.push(noun);
                pending_of = false;
            }
            Item::Link(unit) if unit.kind == Kind::Of => pending_of = !chain.is_empty(),
            Item::Link(unit) => {
                flush(&mut chain, &mut out);
                pending_of = false;
                out.extend(unit.words());
            }
        }
    }
    flush(&mut chain, &mut out);
    out
}

fn flush(chain: &mut Vec<Vec<Word>>, out: &mut Vec<Word>) {
    out.extend(chain.drain(..).rev().flatten());
}

/// A part of a compound word.
#[derive(Debug, PartialEq)]
enum Part<'w> {
    /// A listed piece as typed, and its English.
    Known(&'w str, &'w str),
    /// The start of the word, not listed.
    Unknown(&'w str),
}

/// A word cut into listed pieces, the fewest unknown letters first, then the fewest pieces:
/// the pieces' English, with the stretches it does not know as typed ("bauern" of
/// "Bauernbrot", "riegel" of "Erdnussriegel"). Pieces have 3 letters or more; a linking piece
/// may stand between two; an ending may follow the last. An unknown start has 3 letters or
/// more; an unknown stretch after it (3 or more) only follows a piece spelled unlike its
/// English, so "Butterfly" is no butter. None without a piece.
fn split<'w>(
    word: &'w str,
    pieces: &'w HashMap<String, String>,
    linking: &[&str],
    endings: &[&str],
) -> Option<Vec<Part<'w>>> {
    /// What stands before a cut's last part.
    #[derive(Clone, Copy)]
    enum Before {
        Start,
        Unknown(usize),
        Piece(usize),
        Link(usize),
        Gap(usize),
    }
    #[derive(Clone, Copy)]
    struct Cut<'p> {
        cost: (usize, usize),
        before: Before,
        /// Where the last part starts.
        from: usize,
        english: &'p str,
    }
    let keep = |slot: &mut Option<Cut<'w>>, cut: Cut<'w>| {
        if slot.is_none_or(|s| cut.cost < s.cost) {
            *slot = Some(cut);
        }
    };
    let n = word.len();
    let at = |i: usize| word.is_char_boundary(i);
    // Cuts of word[..i] that end with a piece, a linking piece, or an unknown stretch.
    let mut piece: Vec<Option<Cut<'w>>> = vec![None; n + 1];
    let mut link: Vec<Option<Cut<'w>>> = vec![None; n + 1];
    let mut gap: Vec<Option<Cut<'w>>> = vec![None; n + 1];
    for i in (3..=n).filter(|&i| at(i)) {
        for j in (0..=i - 3).filter(|&j| at(j)) {
            if let Some(english) = pieces.get(&word[j..i]) {
                let mut options = match j {
                    0 => vec![((0, 1), Before::Start)],
                    1 | 2 => Vec::new(),
                    _ => vec![((j, 1), Before::Unknown(j))],
                };
                let after = |c: Cut, b| ((c.cost.0, c.cost.1 + 1), b);
                options.extend(piece[j].map(|c| after(c, Before::Piece(j))));
                options.extend(link[j].map(|c| after(c, Before::Link(j))));
                options.extend(gap[j].map(|c| after(c, Before::Gap(j))));
                for (cost, before) in options {
                    let cut = Cut {
                        cost,
                        before,
                        from: j,
                        english,
                    };
                    keep(&mut piece[i], cut);
                }
            }
            // Letters it does not know, after a piece that shows German.
            if let Some(c) = piece[j]
                && !is_form_of(&word[c.from..j], c.english)
            {
                let cut = Cut {
                    cost: (c.cost.0 + i - j, c.cost.1),
                    before: Before::Piece(j),
                    from: j,
                    english: "",
                };
                keep(&mut gap[i], cut);
            }
        }
        for l in linking.iter().filter(|l| i < n && word[..i].ends_with(**l)) {
            let j = i - l.len();
            if let Some(c) = piece[j] {
                let cut = Cut {
                    cost: c.cost,
                    before: Before::Piece(j),
                    from: j,
                    english: "",
                };
                keep(&mut link[i], cut);
            }
        }
    }
    // The last part: a piece (maybe with an ending), or an unknown stretch.
    let last_piece = std::iter::once(n)
        .chain(
            endings
                .iter()
                .filter_map(|e| word.strip_suffix(e).map(str::len)),
        )
        .filter_map(|i| piece[i].map(|c| (c.cost, Before::Piece(i))));
    let (_, mut state) = last_piece
        .chain(gap[n].map(|c| (c.cost, Before::Gap(n))))
        .min_by_key(|(cost, _)| *cost)?;
    // Walk back from the end.
    let mut parts = Vec::new();
    loop {
        let cut = match state {
            Before::Piece(i) => {
                let c = piece[i]?;
                parts.push(Part::Known(&word[c.from..i], c.english));
                c
            }
            Before::Link(i) => link[i]?,
            Before::Gap(i) => {
                let c = gap[i]?;
                parts.push(Part::Unknown(&word[c.from..i]));
                c
            }
            Before::Start => break,
            Before::Unknown(j) => {
                parts.push(Part::Unknown(&word[..j]));
                break;
            }
        };
        state = cut.before;
    }
    parts.reverse();
    Some(parts)
}

#[cfg(test)]
mod tests;
