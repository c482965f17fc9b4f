//! Foods as French, German and Spanish parents type them, read by the allergen tables and the
//! choking and age rules (issue 32): each language's table says what a 9-month-old's check
//! finds, as the English tables find it for the same food in English.

use std::collections::BTreeSet;

use super::{Age, rule_hits, rule_hits_in_readings};
use crate::domain::allergens::{Allergen, allergens_in_food, allergens_in_readings};
use crate::domain::food_words::{lexicons, words};
use crate::i18n::{Lang, scope::within_sync};

mod de;
mod es;
mod fr;

type Foods = &'static [(&'static str, &'static [Allergen], &'static [&'static str])];
type Allergies = &'static [(&'static str, &'static [Allergen])];

const NINE_MONTHS: Age = Age {
    months: 9,
    from_birth_month: true,
};

/// What the check finds: the allergens, and the rules ("~key" when prepared the safe way).
fn found(food: &str) -> (BTreeSet<Allergen>, BTreeSet<String>) {
    let allergens = allergens_in_food(food)
        .into_iter()
        .map(|m| m.allergen)
        .collect();
    let rules = rule_hits(food, NINE_MONTHS)
        .into_iter()
        .map(|h| format!("{}{}", if h.prepared { "~" } else { "" }, h.rule.key))
        .collect();
    (allergens, rules)
}

/// Every case of the table, as the parent who typed it reads it; and as a co-parent reading in
/// English does, unless the food's only words of its language are false friends.
fn check(lang: Lang, foods: Foods, allergies: Allergies) {
    let friends = lexicons()
        .into_iter()
        .find(|l| l.lang == lang)
        .expect("a lexicon per language")
        .false_friends;
    let mut failures = Vec::new();
    for &(food, allergens, rules) in foods {
        let want: (BTreeSet<Allergen>, BTreeSet<String>) = (
            allergens.iter().copied().collect(),
            rules.iter().map(|r| r.to_string()).collect(),
        );
        let got = within_sync(lang, || found(food));
        if got != want {
            failures.push(format!("{food:?}: want {want:?}, got {got:?}"));
        }
        let in_english = within_sync(Lang::En, || found(food));
        let lowered = food.to_lowercase();
        let has_friend = friends.iter().any(|f| lowered.contains(f));
        if in_english != got && !has_friend {
            failures.push(format!(
                "{food:?} read by an English co-parent: {in_english:?}, by the parent: {got:?}"
            ));
        }
    }
    for &(allergy, allergens) in allergies {
        let want: BTreeSet<Allergen> = allergens.iter().copied().collect();
        let got: BTreeSet<Allergen> = within_sync(lang, || Allergen::from_allergy_text(allergy))
            .into_iter()
            .collect();
        if got != want {
            failures.push(format!("allergy {allergy:?}: want {want:?}, got {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn french_foods() {
    check(Lang::Fr, fr::FOODS, fr::ALLERGIES);
}

#[test]
fn german_foods() {
    check(Lang::De, de::FOODS, de::ALLERGIES);
}

#[test]
fn spanish_foods() {
    check(Lang::Es, es::FOODS, es::ALLERGIES);
}

/// A sentence in English is English to every parent: a recipe's "frying pan" is no Spanish
/// bread, its "raisins" no French grapes; the same words alone are.
#[test]
fn false_friends_in_an_english_sentence_are_english() {
    let steps = [
        (
            Lang::Es,
            "Heat the oil in a large frying pan for 2 minutes.",
        ),
        (Lang::Fr, "Scatter over the raisins and serve."),
        (Lang::De, "Serve it with the pudding."),
    ];
    for (lang, step) in steps {
        assert_eq!(
            within_sync(lang, || found(step)),
            within_sync(Lang::En, || found(step)),
            "{step}"
        );
    }
    assert_eq!(
        within_sync(Lang::Es, || found("Pan")).0,
        BTreeSet::from([Allergen::Gluten])
    );
}

/// What the English tables alone find in a food.
fn in_english(food: &str) -> (BTreeSet<Allergen>, BTreeSet<String>) {
    let allergens = allergens_in_readings(food, vec![words(food)])
        .into_iter()
        .map(|m| m.allergen)
        .collect();
    let rules = rule_hits_in_readings(food, vec![words(food)], NINE_MONTHS)
        .into_iter()
        .map(|h| h.rule.key.to_string())
        .collect();
    (allergens, rules)
}

/// A word of a lexicon that the English tables read another way must be a false friend, or
/// an English family would get its foreign meaning whenever a food shows the language.
#[test]
fn words_the_english_tables_read_another_way_are_false_friends() {
    let mut failures = Vec::new();
    for lex in lexicons() {
        for &(spellings, english) in lex.foods.iter().chain(lex.after).chain(lex.words) {
            for spelling in spellings.split('/').filter(|s| !s.contains(' ')) {
                let read = in_english(spelling);
                let nothing = read.0.is_empty() && read.1.is_empty();
                if nothing || lex.false_friends.contains(&spelling) {
                    continue;
                }
                let meant = in_english(english);
                if read != meant {
                    failures.push(format!(
                        "{:?} {spelling:?}: English reads {read:?}; {english:?} is {meant:?}",
                        lex.lang
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each false friend is one: the English tables read it, and read it another way.
#[test]
fn false_friends_are_english_words_of_another_meaning() {
    for lex in lexicons() {
        for friend in lex.false_friends {
            let meaning = lex
                .foods
                .iter()
                .chain(lex.after)
                .chain(lex.words)
                .find(|(spellings, _)| spellings.split('/').any(|s| s == *friend))
                .map(|(_, english)| *english);
            let Some(english) = meaning else {
                panic!(
                    "{:?} false friend {friend:?} is not in the lexicon",
                    lex.lang
                );
            };
            assert_ne!(
                in_english(friend),
                in_english(english),
                "{:?} {friend:?}",
                lex.lang
            );
        }
    }
}

#[test]
#[ignore = "prints how HIGHCHAIR_READ is read, for looking into a lexicon"]
fn show_readings() {
    let text = std::env::var("HIGHCHAIR_READ").unwrap_or_default();
    for food in text.split('|') {
        let phrase = |ws: &[crate::domain::food_words::Word], at| {
            crate::domain::allergens::english_phrase(ws, at)
        };
        for ws in crate::domain::food_words::readings(food, phrase) {
            let text: Vec<&str> = ws.iter().map(|w| w.text.as_str()).collect();
            println!("{food:?}: {}", text.join(" "));
        }
        println!("{food:?}: {:?}", found(food));
    }
}

/// A word a language reads as its own is that word, not an English word spelled alike; small
/// words two languages share ("en", "la") do not make a French food Spanish.
#[test]
fn foods_typed_in_a_language_meet_diets_and_allergies_in_it() {
    use crate::domain::allergens::{conflicts, conflicts_with};
    use crate::domain::diet::is_listed_word;
    let meat = |food: &str| {
        within_sync(Lang::Fr, || {
            conflicts_with(&[food.to_string()], &["pate".to_string()], is_listed_word).len()
        })
    };
    // The diets' meat words are English: French pasta is no pâté, in a sentence or alone.
    assert_eq!(meat("Pâtes"), 0);
    assert_eq!(
        meat("Mélangez les pâtes à la sauce, en la détendant avec un peu d’eau."),
        0
    );
    assert_eq!(meat("Pâté de campagne"), 1);
    assert_eq!(meat("Pâtés de campagne"), 1);
    let pork = |food: &str| {
        within_sync(Lang::Fr, || {
            conflicts_with(&[food.to_string()], &["pork".to_string()], is_listed_word).len()
        })
    };
    assert_eq!(pork("Pâtés impériaux"), 1);
    // A Spanish parent's monkfish stays fish, though French reads "rape" and "en" too.
    let (fish, _) = within_sync(Lang::Es, || found("Rape en brochette"));
    assert!(fish.contains(&Allergen::Fish), "{fish:?}");
    // Risotto rice is no risotto (a milk dish), though Spanish also says "en".
    let (milk, _) = within_sync(Lang::Fr, || found("Tempeh et riz à risotto en cocotte"));
    assert!(!milk.contains(&Allergen::Milk), "{milk:?}");
    // An allergy typed in the family's language still finds the food typed in it.
    let typed = |food: &str, allergy: &str| {
        within_sync(Lang::Fr, || {
            conflicts(&[food.to_string()], &[allergy.to_string()]).len()
        })
    };
    assert_eq!(typed("Tarte aux fraises", "fraises"), 1);
    assert_eq!(typed("Kiwano en dés", "kiwano"), 1);
    assert_eq!(typed("Compote de pommes", "fraises"), 0);
    // Also where the language reads the food as a dish that does not name it: the parent's
    // word is found as typed, whoever reads.
    for lang in [Lang::Es, Lang::Fr, Lang::En] {
        let found = |food: &str, allergy: &str| {
            within_sync(lang, || {
                conflicts(&[food.to_string()], &[allergy.to_string()]).len()
            })
        };
        assert_eq!(found("Tortilla de patatas", "patatas"), 1, "{lang:?}");
        assert_eq!(found("Palomitas de maíz", "maíz"), 1, "{lang:?}");
        assert_eq!(found("Uvas pasas", "uvas"), 1, "{lang:?}");
        assert_eq!(found("Confiture de prunes", "prunes"), 1, "{lang:?}");
        assert_eq!(found("Heißer Kakao", "Kakao"), 1, "{lang:?}");
    }
}
