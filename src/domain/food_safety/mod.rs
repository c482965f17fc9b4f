//! Child food safety (issue 30): the choking and age rules of `rules.rs` (data, each with its
//! source) read against foods as typed, and the one check that puts them beside the child's
//! allergies. Every place food is chosen or shown asks this module; the UI never copies it.
//!
//! Foods are read like the allergen matcher reads them (`food_words`): whole words, plurals,
//! accents folded, the longest phrase first. A look-alike ("grape juice", "ground almonds",
//! "olive oil") gets nothing; a food described as prepared the safe way ("grapes, quartered
//! lengthways") gets the advice without the alarm.

pub mod rules;

use std::sync::LazyLock;

use chrono::NaiveDate;

use crate::i18n::{Arg, Text};

use super::allergens;
use super::child::{Child, months_old};
use super::food_words::{PhraseIndex, Word, is_form_of, readings};
pub use rules::{Kind, RULES, Rule, SOURCES, Source};

/// A child's age as the rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Age {
    pub months: u32,
    /// From the birth month (whole months by the calendar), or else from the age in years.
    pub from_birth_month: bool,
}

impl Age {
    /// From the birth month, else from the age in years; none without either.
    pub fn of(child: &Child, today: NaiveDate) -> Option<Age> {
        if let Some(months) = child
            .birth_month
            .as_deref()
            .and_then(|m| months_old(m, today))
        {
            return Some(Age {
                months,
                from_birth_month: true,
            });
        }
        child.age.map(|years| Age {
            months: u32::from(years) * 12,
            from_birth_month: false,
        })
    }

    /// Whether a rule applies at this age. An age in years is its lower bound (a "4" may be
    /// 4 and 11 months), so the rule applies while it is below `until`. A birth month gives
    /// calendar months, up to a month more than the child's true age, so in the month a child
    /// turns the rule's age the rule still applies.
    pub fn within(&self, rule: &Rule) -> bool {
        let until = if self.from_birth_month {
            rule.until + 1
        } else {
            rule.until
        };
        self.months >= rule.from && self.months < until
    }

    /// "9 months", "1 year", "3 years": months for babies and toddlers with a birth month.
    pub fn label(&self) -> Text {
        if self.from_birth_month && self.months < 24 {
            return t_plural!("{{count}} month", "{{count}} months", self.months);
        }
        match self.months / 12 {
            0 => t!("under 1 year"),
            years => t_plural!("{{count}} year", "{{count}} years", years),
        }
    }
}

/// What a warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarningKind {
    /// One of the child's listed allergies.
    Allergen,
    Choking,
    /// A food not for the child's age (honey before 12 months, salt for babies).
    Age,
}

impl From<Kind> for WarningKind {
    fn from(kind: Kind) -> Self {
        match kind {
            Kind::Choking => WarningKind::Choking,
            Kind::Age => WarningKind::Age,
        }
    }
}

/// One thing a parent should know about one food for one child.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    pub kind: WarningKind,
    /// The food as typed.
    pub food: String,
    pub message: Text,
    pub advice: Text,
    /// Where the advice comes from; none for the child's own allergy list.
    pub source: Option<&'static Source>,
    /// The food was described as prepared the safe way: advice, not alarm.
    pub prepared: bool,
    /// The advice in a few words, for a recipe's notes per child.
    pub note: Text,
    /// The allergy as the parent typed it, for an allergen warning.
    pub allergy: Option<String>,
}

/// What a food check answers for one child.
#[derive(Debug, Clone, PartialEq)]
pub struct FoodCheck {
    pub age: Option<Age>,
    pub warnings: Vec<Warning>,
    /// A gentle prompt when the child has no age at all, so no age rule could be checked.
    pub prompt: Option<Text>,
    /// When the foods bring in two allergens a small child has never had (the use case fills
    /// it from the meal log: `allergen_intro::one_at_a_time`).
    pub introduction: Option<Text>,
}

impl FoodCheck {
    /// "For Leo (9 months): quarter the grapes lengthways; no honey before 12 months", from
    /// the choking and age warnings; none when there are none.
    pub fn note_for(&self, name: &str) -> Option<Text> {
        for_child(name, self.age, self.notes())
    }

    /// The choking and age warnings' notes, each once.
    fn notes(&self) -> Vec<Text> {
        let mut notes: Vec<Text> = Vec::new();
        for w in self
            .warnings
            .iter()
            .filter(|w| w.kind != WarningKind::Allergen)
        {
            if !notes.contains(&w.note) {
                notes.push(w.note.clone());
            }
        }
        notes
    }
}

/// "For Leo (9 months): a; b"; none without notes.
fn for_child(name: &str, age: Option<Age>, notes: Vec<Text>) -> Option<Text> {
    if notes.is_empty() {
        return None;
    }
    Some(match age {
        Some(age) => t!(
            "For {{name}} ({{age}}): {{notes}}",
            name = name,
            age = age.label(),
            notes = Arg::List(notes)
        ),
        None => t!(
            "For {{name}}: {{notes}}",
            name = name,
            notes = Arg::List(notes)
        ),
    })
}

/// Every warning for `foods` and this child: allergens first (the child's list), then the
/// choking and age rules for the child's age, food by food.
pub fn check(child: &Child, foods: &[String], today: NaiveDate) -> FoodCheck {
    let age = Age::of(child, today);
    let mut warnings: Vec<Warning> = allergens::conflicts(foods, &child.allergies)
        .into_iter()
        .map(|c| Warning {
            kind: WarningKind::Allergen,
            advice: t!(
                "{{allergy}} is on {{name}}'s allergy list: leave it out, unless a doctor is \
                 guiding its introduction.",
                allergy = &c.allergy,
                name = &child.name
            ),
            note: t!("no {{food}}", food = &c.matched),
            message: c.message(),
            food: c.food,
            allergy: Some(c.allergy),
            source: None,
            prepared: false,
        })
        .collect();
    warnings.extend(rule_warnings(child, age, foods));
    let prompt = age.is_none().then(|| {
        t!(
            "Add {{name}}'s birth month to their profile to check foods for their age.",
            name = &child.name
        )
    });
    FoodCheck {
        age,
        warnings,
        prompt,
        introduction: None,
    }
}

/// The choking and age warnings of `foods` for a child of `age` (none without an age), food
/// by food: the part of the check that does not depend on the allergy list.
pub fn rule_warnings(child: &Child, age: Option<Age>, foods: &[String]) -> Vec<Warning> {
    let Some(age) = age else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for food in foods.iter().map(|f| f.trim()).filter(|f| !f.is_empty()) {
        for hit in rule_hits(food, age) {
            let rule = hit.rule;
            out.push(Warning {
                kind: rule.kind.into(),
                food: food.to_string(),
                message: if hit.prepared {
                    t!(
                        "Described as prepared the safe way for {{name}}'s age.",
                        name = &child.name
                    )
                } else {
                    rule.risk.clone()
                },
                advice: rule.advice.clone(),
                source: rule.sources.first().copied(),
                prepared: hit.prepared,
                note: rule.note.clone().with("food", &hit.matched),
                allergy: None,
            });
        }
    }
    out
}

/// A recipe's note for one child: "For Leo (9 months): quarter the grapes lengthways; no honey
/// before 12 months; mash a portion or chop it into soft, small pieces to pick up", from the
/// choking and age rules (allergens are the allergy guard's) and how to serve it at that age;
/// none when there is nothing to say (from 5, without a rule).
pub fn safety_note(child: &Child, foods: &[String], today: NaiveDate) -> Option<Text> {
    let age = Age::of(child, today);
    let check = FoodCheck {
        age,
        warnings: rule_warnings(child, age, foods),
        prompt: None,
        introduction: None,
    };
    let mut notes = check.notes();
    notes.extend(age.and_then(serving));
    for_child(&child.name, age, notes)
}

/// What one food means for each child, in a few words: "Leo is allergic: Butter contains
/// milk (butter)", "For Leo (9 months): quarter the grapes lengthways" (a grocery item).
pub fn notes_for_children(children: &[Child], food: &str, today: NaiveDate) -> Vec<Text> {
    let foods = [food.to_string()];
    let mut out = Vec::new();
    for child in children {
        let check = check(child, &foods, today);
        for w in check
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Allergen)
        {
            out.push(t!(
                "{{name}} is allergic: {{warning}}",
                name = &child.name,
                warning = w.message.clone()
            ));
        }
        out.extend(check.note_for(&child.name));
    }
    out
}

/// A rule that one food matches.
#[derive(Debug, Clone)]
pub struct RuleHit {
    pub rule: &'static Rule,
    /// The food's words that matched, as typed (folded): "grapes".
    pub matched: String,
    pub prepared: bool,
}

/// The rules one food matches at this age, each once, in the order the food names them (in
/// every language it is read in).
pub fn rule_hits(food: &str, age: Age) -> Vec<RuleHit> {
    // The allergen tables' phrases too: both matchers read a food the same way.
    let phrase = |ws: &[Word], at| {
        let rules = INDEX.longest_at(ws, at, |_| true).0;
        rules.max(allergens::english_phrase(ws, at))
    };
    rule_hits_in_readings(food, readings(food, phrase), age)
}

/// The rules these readings of `food` match at this age.
fn rule_hits_in_readings(food: &str, readings: Vec<Vec<Word>>, age: Age) -> Vec<RuleHit> {
    let index = &*INDEX;
    let mut out: Vec<(usize, RuleHit)> = Vec::new();
    for ws in readings {
        let mut at = 0;
        while at < ws.len() {
            let (n, entries) = index.longest_at(&ws, at, |_| true);
            if n == 0 {
                at += 1;
                continue;
            }
            // A declared look-alike of the same length wins over every rule.
            if entries.iter().all(|e| e.is_some()) {
                for rule in entries.iter().filter_map(|e| **e) {
                    // Each rule once; where two readings differ, the one that alarms.
                    let taken = out.iter().position(|(_, h)| std::ptr::eq(h.rule, rule));
                    let alarmed = taken.is_some_and(|i| !out[i].1.prepared);
                    if alarmed || !age.within(rule) || !matches_here(rule, &ws, at, n) {
                        continue;
                    }
                    let prepared = rule.prepared.iter().any(|p| contains_phrase(&ws, p));
                    if let Some(i) = taken {
                        if !prepared {
                            out.remove(i);
                        } else {
                            continue;
                        }
                    }
                    let hit_words = &ws[at..at + n];
                    let matched = if hit_words.iter().any(|w| w.translated) {
                        Word::as_typed(food, hit_words)
                    } else {
                        hit_words
                            .iter()
                            .map(|w| w.text.as_str())
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    let start = hit_words.iter().map(|w| w.span.0).min().unwrap_or(0);
                    out.push((
                        start,
                        RuleHit {
                            rule,
                            matched,
                            prepared,
                        },
                    ));
                }
            }
            at += n;
        }
    }
    out.sort_by_key(|(start, _)| *start);
    out.into_iter().map(|(_, hit)| hit).collect()
}

/// What a recipe made for a child of some age does with one of its foods: the generators
/// adapt to the youngest child of the family.
#[derive(Debug, Clone)]
pub enum InRecipe {
    AsIs,
    /// Named as prepared the safe way: "Grapes, quartered lengthways".
    Prepared(Text),
    /// Left out, for this rule (honey before 12 months, salt for babies, popcorn).
    LeftOut(&'static Rule),
}

/// How a recipe for a child of `age` uses `food`. Drink rules (a food `alone`) leave a recipe
/// as it is: milk in cooking is fine from 6 months.
pub fn in_recipe(food: &str, age: Age) -> InRecipe {
    let mut forms: Vec<&'static Text> = Vec::new();
    for hit in rule_hits(food, age) {
        let rule = hit.rule;
        if hit.prepared || rule.alone {
            continue;
        }
        let Some(form) = &rule.in_recipes else {
            return InRecipe::LeftOut(rule);
        };
        if !forms.iter().any(|f| std::ptr::eq(*f, form)) {
            forms.push(form);
        }
    }
    if forms.is_empty() {
        InRecipe::AsIs
    } else {
        InRecipe::Prepared(t!(
            "{{food}}, {{how}}",
            food = Arg::Food {
                name: food.trim().to_string(),
                lowercase: false,
            },
            how = Arg::And {
                items: forms.into_iter().cloned().collect(),
                capitalise: false,
            },
        ))
    }
}

/// The rules that apply at `age`, for a model's prompt.
pub fn rules_at(age: Age) -> impl Iterator<Item = &'static Rule> {
    RULES.iter().filter(move |r| age.within(r))
}

/// How to serve a family dish at this age (NHS weaning stages; CDC for toddlers), for a
/// recipe's note per child; none from 5, and none for "0 years" (a baby of unknown months).
pub fn serving(age: Age) -> Option<Text> {
    if !age.from_birth_month && age.months < 12 {
        return None;
    }
    Some(match age.months {
        0..6 => t!("solid food starts at around 6 months; until then, milk is all a baby needs"),
        6..9 => t!(
            "blend or mash a portion until smooth or a little lumpy, or offer soft pieces about \
             the size of an adult's finger to hold"
        ),
        9..12 => t!("mash a portion or chop it into soft, small pieces to pick up"),
        12..36 => t!("cut a portion into small pieces and let it cool; add no salt to their plate"),
        36..60 => t!("cut round or firm pieces small, and sit with them while they eat"),
        _ => return None,
    })
}

/// Words before a food that take it away: "no honey", "without nuts", "no added salt".
const NEGATED_BY_WORD_BEFORE: &[&str] = &["no", "without", "non"];

/// Whether the food phrase at `at..at + n` is the hazard, not a look-alike or a negation.
fn matches_here(rule: &Rule, ws: &[Word], at: usize, n: usize) -> bool {
    let end = at + n;
    if rule.alone && (at != 0 || end != ws.len()) {
        return false;
    }
    let same_segment = |i: usize| ws[i].segment == ws[at].segment;
    let before = at.checked_sub(1).filter(|&b| same_segment(b));
    if let Some(b) = before {
        let word = ws[b].text.as_str();
        if rule.not_after.iter().any(|w| is_form_of(word, w)) {
            return false;
        }
        let negated = NEGATED_BY_WORD_BEFORE.contains(&word)
            || (word == "added"
                && b.checked_sub(1)
                    .is_some_and(|bb| same_segment(bb) && ws[bb].text == "no"));
        if negated {
            return false;
        }
    }
    if end < ws.len() && same_segment(end) {
        if ws[end].text == "free" {
            return false;
        }
        if rule.products_are_safe
            && rules::PRODUCTS
                .iter()
                .flat_map(|p| p.split('/'))
                .any(|p| phrase_at(ws, end, p))
        {
            return false;
        }
    }
    true
}

/// Whether the words of `phrase` stand at `at`, within one segment.
fn phrase_at(ws: &[Word], at: usize, phrase: &str) -> bool {
    let parts: Vec<&str> = phrase.split(' ').collect();
    at + parts.len() <= ws.len()
        && ws[at..at + parts.len()]
            .iter()
            .zip(&parts)
            .all(|(w, p)| w.segment == ws[at].segment && is_form_of(&w.text, p))
}

/// Whether the phrase (or one of its "a/b" spellings) stands anywhere in the food.
fn contains_phrase(ws: &[Word], phrase: &str) -> bool {
    phrase
        .split('/')
        .any(|p| (0..ws.len()).any(|at| phrase_at(ws, at, p)))
}

/// Every spelling of every rule's foods (the rule) and look-alikes (none).
static INDEX: LazyLock<PhraseIndex<Option<&'static Rule>>> = LazyLock::new(|| {
    let mut index = PhraseIndex::default();
    for rule in RULES {
        for line in rule.foods {
            index.add(line, || Some(rule));
        }
        for line in rule.not {
            index.add(line, || None);
        }
    }
    index
});

#[cfg(test)]
mod language_tests;
#[cfg(test)]
mod tests;
