use chrono::{NaiveDate, TimeZone, Utc};

use super::*;
use crate::domain::ids::{ChildId, FamilyId};

fn months(n: u32) -> Age {
    Age {
        months: n,
        from_birth_month: true,
    }
}

fn years(n: u32) -> Age {
    Age {
        months: n * 12,
        from_birth_month: false,
    }
}

/// What one food gives at one age: the rule keys, "~" after a key when the food was described
/// as prepared the safe way, "" for nothing.
fn found(food: &str, age: Age) -> String {
    rule_hits(food, age)
        .iter()
        .map(|h| format!("{}{}", h.rule.key, if h.prepared { "~" } else { "" }))
        .collect::<Vec<_>>()
        .join(",")
}

/// Foods as parents type them, at the ages that matter: at least 150 rows.
/// An age in the table: months from a birth month, or years.
#[derive(Clone, Copy)]
enum At {
    M(u32),
    Y(u32),
}
use At::{M, Y};

impl At {
    fn age(self) -> Age {
        match self {
            M(n) => months(n),
            Y(n) => years(n),
        }
    }
}

const TABLE: &[(&str, At, &str)] = &[
    // Small round foods: quartered lengthways until 5; halves are not enough.
    ("Grapes", M(9), "round-foods"),
    ("grapes", Y(4), "round-foods"),
    ("Grapes", Y(5), ""),
    ("Whole grapes", Y(2), "round-foods"),
    ("Halved grapes", Y(2), "round-foods"),
    ("grapes, halved", Y(3), "round-foods"),
    ("Grapes, quartered lengthways", Y(2), "round-foods~"),
    ("grapes (quartered)", M(14), "round-foods~"),
    ("grapes cut into quarters", Y(3), "round-foods~"),
    ("Red grape", M(10), "round-foods"),
    ("Grape juice", M(10), ""),
    ("grapefruit", Y(2), ""),
    ("Grapefruit segments", Y(1), ""),
    ("Grape jelly on toast", Y(2), ""),
    ("Cherry tomatoes", Y(3), "round-foods"),
    ("cherry tomato", M(8), "round-foods"),
    ("Cherry tomatoes, quartered", Y(3), "round-foods~"),
    ("Baby tomatoes", Y(1), "round-foods"),
    ("Tomatoes", Y(1), ""),
    ("Tomato sauce", M(9), ""),
    ("Blueberries", M(11), "round-foods"),
    ("blueberries, squashed", M(8), "round-foods~"),
    ("Blueberry muffin", Y(2), ""),
    ("Blueberry yoghurt", M(10), ""),
    ("Strawberries", Y(2), "round-foods"),
    ("Strawberry jam", Y(2), ""),
    ("Mashed strawberries", M(9), "round-foods~"),
    ("Glace cherries", Y(3), "round-foods"),
    ("Melon balls", Y(2), "round-foods"),
    ("Melon slices", Y(2), ""),
    ("Raspberries", M(9), ""),
    // Whole nuts and peanuts: none before 5; ground, crushed or smooth butter is fine.
    ("Peanuts", Y(3), "whole-nuts"),
    ("peanuts", Y(5), ""),
    ("Salted peanuts", Y(4), "whole-nuts"),
    ("Almonds", Y(2), "whole-nuts"),
    ("Ground almonds", M(8), ""),
    ("almonds, ground", M(8), "whole-nuts~"),
    ("Crushed peanuts", M(7), ""),
    ("Smooth peanut butter", M(7), ""),
    ("Peanut butter on toast", M(9), ""),
    ("Crunchy peanut butter", Y(2), "whole-nuts"),
    ("Almond milk", Y(2), ""),
    ("Almond flour", Y(1), ""),
    ("Cashews", Y(4), "whole-nuts"),
    ("Mixed nuts", Y(3), "whole-nuts"),
    ("Walnut halves", Y(2), "whole-nuts"),
    ("Brazil nuts", Y(4), "whole-nuts"),
    ("Hazelnuts", Y(1), "whole-nuts"),
    ("Pistachios", Y(3), "whole-nuts"),
    ("Nutmeg", M(9), ""),
    ("Coconut", M(9), ""),
    ("Coconut milk", M(9), ""),
    ("Butternut squash", M(7), ""),
    ("Doughnut", Y(2), ""),
    ("Chestnuts", Y(2), ""),
    ("Nut-free flapjack", Y(2), ""),
    ("No nuts", Y(2), ""),
    ("Banana, without nuts", Y(2), ""),
    ("Nut roast", Y(2), ""),
    // Whole seeds.
    ("Sunflower seeds", Y(2), "whole-seeds"),
    ("Ground sunflower seeds", M(9), ""),
    ("Pumpkin seeds", Y(4), "whole-seeds"),
    ("Pine nuts", Y(3), "whole-seeds"),
    ("Sesame seeds", Y(2), ""),
    ("Chia seeds", Y(2), ""),
    // Popcorn, sweets, marshmallows, jelly cubes, gum.
    ("Popcorn", Y(3), "popcorn"),
    ("Popcorn", Y(6), ""),
    ("Toffee popcorn", Y(3), "hard-sweets,popcorn"),
    ("Boiled sweets", Y(4), "hard-sweets"),
    ("Lollipop", Y(3), "hard-sweets"),
    ("Ice lolly", Y(2), ""),
    ("Jelly beans", Y(3), "hard-sweets"),
    ("Gummy bears", Y(2), "hard-sweets"),
    ("Toffee", Y(4), "hard-sweets"),
    ("Marshmallows", Y(3), "marshmallows-and-jelly-cubes"),
    (
        "Hot chocolate with marshmallows",
        Y(4),
        "marshmallows-and-jelly-cubes",
    ),
    ("Jelly cubes", Y(2), "marshmallows-and-jelly-cubes"),
    ("Strawberry jelly", Y(2), ""),
    ("Jelly", Y(2), ""),
    ("Chewing gum", Y(4), "chewing-gum"),
    ("Bubble gum", Y(3), "chewing-gum"),
    ("Xanthan gum", Y(3), ""),
    // Sausages and hot dogs: strips, never rounds.
    ("Sausages", Y(3), "sausages"),
    ("Sausage", M(10), "sausages,salt"),
    ("Sausage cut in strips", Y(2), "sausages~"),
    ("Sausages, sliced lengthways", Y(3), "sausages~"),
    ("Sausage rounds", Y(3), "sausages"),
    ("Hot dog", Y(4), "sausages"),
    ("Hotdogs", Y(2), "sausages"),
    ("Frankfurters", Y(2), "sausages"),
    ("Cocktail sausages", Y(3), "sausages"),
    ("Sausage roll", Y(3), ""),
    ("Sausage and mash", Y(3), "sausages"),
    ("Veggie sausages", Y(2), "sausages"),
    ("Sausages", Y(5), ""),
    // Stones: olives, cherries, lychees, plums.
    ("Olives", Y(2), "stones"),
    ("Whole olives", Y(4), "stones"),
    ("Pitted olives", Y(2), ""),
    ("Olives, stones removed", Y(2), "stones~"),
    ("Olive oil", M(7), ""),
    ("Cherries", Y(3), "stones"),
    ("Cherry yoghurt", Y(1), ""),
    ("Cherries, pitted and quartered", Y(2), "stones~"),
    ("Lychees", Y(2), "stones"),
    ("Plums", Y(1), "stones"),
    ("Plum tomatoes", Y(1), ""),
    // Raw hard fruit and vegetables for babies.
    ("Raw carrot", M(8), "raw-hard-fruit-and-vegetables"),
    ("Carrot sticks", M(9), "raw-hard-fruit-and-vegetables"),
    (
        "Steamed carrot sticks",
        M(9),
        "raw-hard-fruit-and-vegetables~",
    ),
    ("Grated carrot", M(8), "raw-hard-fruit-and-vegetables~"),
    ("Carrot", Y(2), ""),
    ("Carrot cake", M(11), ""),
    ("Apple", M(7), "raw-hard-fruit-and-vegetables"),
    ("Apple slices", M(10), "raw-hard-fruit-and-vegetables"),
    ("Stewed apple", M(7), "raw-hard-fruit-and-vegetables~"),
    ("Apple puree", M(6), ""),
    ("Apple juice", M(10), ""),
    ("Pineapple", M(10), ""),
    ("Celery sticks", M(11), "raw-hard-fruit-and-vegetables"),
    ("Roast carrots", M(9), "raw-hard-fruit-and-vegetables~"),
    (
        "Beef stew with carrots",
        M(10),
        "raw-hard-fruit-and-vegetables~",
    ),
    (
        "Apple and cinnamon porridge",
        M(9),
        "raw-hard-fruit-and-vegetables~",
    ),
    // Cheese in cubes.
    ("Cheese cubes", Y(2), "cheese-cubes"),
    ("Cubed cheese", Y(3), "cheese-cubes"),
    ("Grated cheese", Y(2), ""),
    ("Cheese on toast", M(10), ""),
    ("Cheese strips", Y(2), ""),
    ("Cheddar", M(8), ""),
    // Tough meat and bones.
    ("Steak", Y(3), "tough-meat"),
    ("Steak, cut into thin strips", Y(2), "tough-meat~"),
    ("Beef jerky", Y(4), "tough-meat"),
    ("Stewing steak", Y(2), ""),
    ("Salmon steak", Y(2), ""),
    ("Pulled pork", Y(2), ""),
    ("Chicken wings", Y(3), "bones"),
    ("Chicken drumsticks", Y(2), "bones"),
    ("Chicken drumsticks, meat off the bone", Y(2), "bones~"),
    ("Fish on the bone", Y(2), "bones"),
    ("Boneless chicken", Y(2), ""),
    ("Bone broth", M(9), ""),
    ("Ribs", Y(4), "bones"),
    ("Rib eye steak", Y(3), "tough-meat"),
    ("Fish fingers", M(10), ""),
    // Dried fruit as a snack before 12 months.
    ("Raisins", M(10), "dried-fruit-snack"),
    ("Raisins", M(14), ""),
    ("Chopped raisins", M(10), "dried-fruit-snack~"),
    ("Porridge with chopped dates", M(11), "dried-fruit-snack~"),
    ("Dried apricots", M(9), "dried-fruit-snack"),
    ("Sultanas", M(8), "dried-fruit-snack"),
    ("Raisin bread", M(11), ""),
    // Honey before 12 months: botulism, cooked or not.
    ("Honey", M(9), "honey"),
    ("Honey", M(13), ""),
    ("Honey yoghurt", M(10), "honey"),
    ("Porridge with honey", M(11), "honey"),
    ("Baked honey flapjack", M(11), "honey"),
    ("Manuka honey", M(6), "honey"),
    ("Honeydew melon", M(9), ""),
    ("No honey", M(9), ""),
    ("Honey", Y(0), "honey"),
    ("Honey", Y(1), ""),
    // The month a child turns 12 months still counts: we only know the birth month.
    ("Honey", M(12), "honey"),
    // Salt and stock for babies.
    ("Salt", M(8), "salt"),
    ("Pasta with a stock cube", M(9), "salt"),
    ("Low salt baby stock cube", M(9), ""),
    ("Low salt stock cube", M(9), ""),
    ("Reduced salt soy sauce", M(10), ""),
    ("Soy sauce", M(10), "salt"),
    ("Unsalted butter", M(9), ""),
    ("Mash, no added salt", M(9), ""),
    ("Bacon", M(10), "salt"),
    ("Bacon", Y(2), ""),
    ("Ready salted crisps", M(11), "salt"),
    ("Gravy", M(10), "salt"),
    ("Soy sauce", M(10), "salt"),
    ("Salt and vinegar crisps", M(11), "salt"),
    ("Salt", Y(1), ""),
    // Cows' milk as a main drink before 12 months; in cooking from 6 months.
    ("Milk", M(9), "milk-as-a-drink"),
    ("Cow's milk", M(10), "milk-as-a-drink"),
    ("Whole milk", M(11), "milk-as-a-drink"),
    ("Glass of milk", M(8), "milk-as-a-drink"),
    ("Milk", M(14), ""),
    ("Breast milk", M(7), ""),
    ("Formula milk", M(7), ""),
    ("Porridge made with milk", M(7), ""),
    ("Milk (in porridge)", M(7), ""),
    ("Oat milk", M(10), "plant-drinks"),
    ("Oat milk", Y(2), ""),
    ("Semi-skimmed milk", M(18), "semi-skimmed-milk-drink"),
    ("Semi-skimmed milk", Y(3), ""),
    ("Skimmed milk", Y(3), "skimmed-milk-drink"),
    ("Skimmed milk", Y(6), ""),
    ("Rice milk", Y(3), "rice-drinks"),
    ("Rice pudding", Y(1), ""),
    // Soft ripened and blue cheeses; shark, swordfish, marlin.
    ("Brie", Y(2), "soft-ripened-cheese"),
    ("Baked camembert", Y(3), "soft-ripened-cheese~"),
    ("Blue cheese dip", Y(4), "soft-ripened-cheese"),
    ("Swordfish steak", Y(8), "shark-swordfish-marlin"),
    ("Marlin", Y(15), "shark-swordfish-marlin"),
    ("Marlin", Y(16), ""),
    // Gaps the translators found in these tables (issue 32).
    ("Whole cows milk", M(10), "milk-as-a-drink"),
    ("Raw milk", M(10), "milk-as-a-drink"),
    ("Unpasteurised milk", M(11), "milk-as-a-drink"),
    ("Ham", M(9), "salt"),
    ("Cured ham", M(10), "salt"),
    ("Pepperoni", M(11), "salt"),
    ("Ham", Y(2), ""),
    ("Lamb chops", Y(2), "bones"),
    ("Pork chop, off the bone", Y(3), "bones~"),
    // Griddled sticks may still be hard: no sign of soft.
    (
        "Griddled carrot sticks",
        M(10),
        "raw-hard-fruit-and-vegetables",
    ),
    ("Braised apple", M(10), "raw-hard-fruit-and-vegetables~"),
    ("Shark", Y(4), "shark-swordfish-marlin"),
    // Foods with nothing to say, at any age.
    ("Banana", M(6), ""),
    ("Avocado", M(6), ""),
    ("Scrambled egg", M(7), ""),
    ("Toast fingers", M(8), ""),
    ("Pasta with tomato sauce", M(9), ""),
    ("Broccoli florets, steamed", M(7), ""),
    ("Salmon", M(9), ""),
    ("Yoghurt", M(6), ""),
    ("Porridge", M(7), ""),
    ("Chicken curry", Y(3), ""),
];

#[test]
fn the_table_of_foods_gives_the_expected_rules() {
    assert!(TABLE.len() >= 150, "{} rows", TABLE.len());
    let mut wrong = Vec::new();
    for (food, age, expected) in TABLE {
        let age = age.age();
        let got = found(food, age);
        if got != *expected {
            wrong.push(format!(
                "{food:?} at {} months: expected {expected:?}, got {got:?}",
                age.months
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_rule_has_a_source_advice_and_a_sane_age_range() {
    for rule in RULES {
        assert!(!rule.sources.is_empty(), "{}", rule.key);
        assert!(rule.from < rule.until, "{}", rule.key);
        assert!(!rule.foods.is_empty(), "{}", rule.key);
        assert!(
            rule.risk.to_string().ends_with('.') && rule.advice.to_string().ends_with('.'),
            "{}",
            rule.key
        );
        assert!(!rule.note.to_string().is_empty(), "{}", rule.key);
        for s in rule.sources {
            assert!(s.url.starts_with("https://"), "{}", rule.key);
            assert!(SOURCES.contains(s), "{} cites an unlisted source", rule.key);
        }
    }
    let mut keys: Vec<_> = RULES.iter().map(|r| r.key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), RULES.len(), "rule keys are unique");
}

#[test]
fn every_food_of_every_rule_matches_its_own_rule() {
    for rule in RULES {
        let age = months(rule.from);
        for line in rule.foods {
            for spelling in line.split('/') {
                let hits = rule_hits(spelling, age);
                assert!(
                    hits.iter().any(|h| std::ptr::eq(h.rule, rule)),
                    "{:?} does not match {}",
                    spelling,
                    rule.key
                );
            }
        }
    }
}

fn child(birth_month: Option<&str>, age: Option<u8>, allergies: &[&str]) -> Child {
    let now = Utc.with_ymd_and_hms(2026, 11, 27, 12, 0, 0).unwrap();
    Child {
        id: ChildId::new(),
        family: FamilyId::new(),
        version: 1,
        name: "Leo".into(),
        age,
        dietary_restrictions: vec![],
        allergies: allergies.iter().map(|a| a.to_string()).collect(),
        created_at: now,
        updated_at: now,
        birth_month: birth_month.map(str::to_string),
    }
}

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 27).unwrap()
}

fn foods(list: &[&str]) -> Vec<String> {
    list.iter().map(|f| f.to_string()).collect()
}

#[test]
fn a_check_puts_allergens_first_then_choking_and_age_with_their_sources() {
    let leo = child(Some("2026-02"), None, &["milk"]);
    let check = check(
        &leo,
        &foods(&["Buttered toast", "Grapes", "Honey"]),
        today(),
    );
    assert_eq!(
        check.age.map(|a| a.label().to_string()),
        Some("9 months".to_string())
    );
    let kinds: Vec<_> = check.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [
            WarningKind::Allergen,
            WarningKind::Choking,
            WarningKind::Age
        ]
    );
    assert_eq!(
        check.warnings[0].message,
        "Buttered toast contains milk (butter)"
    );
    assert!(check.warnings[0].source.is_none());
    assert_eq!(check.warnings[1].food, "Grapes");
    assert_eq!(check.warnings[1].source, Some(&rules::DFE_CHOKING));
    assert_eq!(check.warnings[2].source, Some(&rules::NHS_FOODS_TO_AVOID));
    assert!(check.prompt.is_none());
    assert_eq!(
        check.note_for(&leo.name).map(|t| t.to_string()).as_deref(),
        Some("For Leo (9 months): quarter the grapes lengthways; no honey before 12 months")
    );
}

#[test]
fn a_food_prepared_the_safe_way_gets_the_advice_without_the_alarm() {
    let leo = child(Some("2025-06"), None, &[]);
    let check = check(&leo, &foods(&["Grapes, quartered lengthways"]), today());
    let w = &check.warnings[0];
    assert!(w.prepared);
    assert_eq!(
        w.message,
        "Described as prepared the safe way for Leo's age."
    );
    assert!(w.advice.to_string().contains("quarters"), "{}", w.advice);
}

#[test]
fn a_child_without_an_age_gets_allergens_only_and_a_prompt() {
    let leo = child(None, None, &["peanut"]);
    let check = check(&leo, &foods(&["Peanuts", "Honey"]), today());
    assert!(check.age.is_none());
    assert_eq!(check.warnings.len(), 1);
    assert_eq!(check.warnings[0].kind, WarningKind::Allergen);
    assert_eq!(
        check.prompt.as_ref().map(|t| t.to_string()).as_deref(),
        Some("Add Leo's birth month to their profile to check foods for their age.")
    );
    assert_eq!(check.note_for("Leo"), None);
}

#[test]
fn the_birth_month_wins_over_the_age_in_years() {
    let leo = child(Some("2025-01"), Some(3), &[]);
    assert_eq!(
        Age::of(&leo, today()),
        Some(Age {
            months: 22,
            from_birth_month: true
        })
    );
    let older = child(None, Some(3), &[]);
    assert_eq!(Age::of(&older, today()).unwrap().label(), "3 years");
    assert_eq!(years(0).label(), "under 1 year");
    assert_eq!(months(1).label(), "1 month");
    assert_eq!(months(30).label(), "2 years");
}

#[test]
fn every_recipe_form_of_a_rule_reads_as_prepared_the_safe_way() {
    for rule in RULES.iter() {
        let Some(form) = &rule.in_recipes else {
            continue;
        };
        let form = form.to_string();
        assert!(
            rule.prepared
                .iter()
                .any(|p| form.contains(p.split('/').next().unwrap())),
            "{}: \"{form}\" names none of its safe preparations",
            rule.key,
        );
        let age = months(rule.from.max(6));
        for line in rule.foods {
            let food = line.split('/').next().unwrap();
            // The recipe's name for it gets the advice, never the alarm.
            match in_recipe(food, age) {
                InRecipe::Prepared(named) => {
                    let named = named.to_string();
                    let hits = rule_hits(&named, age);
                    let hit = hits.iter().find(|h| std::ptr::eq(h.rule, rule));
                    assert!(hit.is_some_and(|h| h.prepared), "{}: {named}", rule.key);
                }
                // Another rule of the same food leaves it out ("bacon" is salt for a baby).
                InRecipe::LeftOut(other) => assert!(!std::ptr::eq(other, rule), "{food}"),
                InRecipe::AsIs => {
                    assert!(rule.alone, "{}: {food} needs preparing", rule.key)
                }
            }
        }
    }
}

#[test]
fn a_recipe_for_a_baby_prepares_what_it_can_and_leaves_out_what_it_cannot() {
    let baby = months(9);
    let named = |food: &str, age: Age| match in_recipe(food, age) {
        InRecipe::AsIs => "as is".to_string(),
        InRecipe::Prepared(name) => name.to_string(),
        InRecipe::LeftOut(rule) => format!("left out: {}", rule.key),
    };
    assert_eq!(named("Grapes", baby), "Grapes, quartered lengthways");
    assert_eq!(named("Almonds", baby), "Almonds, ground");
    assert_eq!(named("Carrot", baby), "Carrot, grated or cooked soft");
    assert_eq!(named("Carrot", months(14)), "as is");
    assert_eq!(named("Honey", baby), "left out: honey");
    assert_eq!(named("Honey", months(14)), "as is");
    assert_eq!(named("Vegetable stock cube", baby), "left out: salt");
    assert_eq!(named("Soy sauce", baby), "left out: salt");
    assert_eq!(named("Low salt stock cube", baby), "as is");
    assert_eq!(named("Popcorn", years(3)), "left out: popcorn");
    assert_eq!(
        named("Sausages", years(3)),
        "Sausages, cut in strips lengthways"
    );
    // Milk as a drink is not a recipe's milk.
    assert_eq!(named("Whole milk", baby), "as is");
    assert_eq!(named("Grapes, quartered", baby), "as is");
    assert_eq!(named("Grapes", years(5)), "as is");
}

#[test]
fn a_childs_note_reads_well_in_each_language_whatever_the_foods_number() {
    use crate::i18n::{Lang, scope::within_sync};
    // As a parent types them: one carrot, several grapes. A note never puts a plural article
    // before a food of unknown number, German keeps its nouns' capital, and French puts a
    // no-break space before the semicolon between notes.
    let note = |lang: Lang| {
        within_sync(lang, || {
            let foods = match lang {
                Lang::Fr => ["Carotte crue", "Raisins"],
                Lang::De => ["Rohe Karotte", "Weintrauben"],
                Lang::Es => ["Zanahoria cruda", "Uvas"],
                Lang::En => ["Raw carrot", "Grapes"],
            };
            let child = child(Some("2026-02"), None, &[]);
            safety_note(&child, &self::foods(&foods), today())
                .unwrap()
                .render(lang)
        })
    };
    let fr = note(Lang::Fr);
    assert!(fr.starts_with("Pour Leo (9 mois)\u{a0}: "), "{fr}");
    assert!(fr.contains("carotte\u{a0}: râper"), "{fr}");
    assert!(fr.contains("raisins\u{a0}: couper en quatre"), "{fr}");
    assert!(fr.contains("\u{a0}; "), "{fr}");
    assert!(
        !fr.contains(" les carotte") && !fr.contains("qu’ils"),
        "{fr}"
    );
    let de = note(Lang::De);
    assert!(de.contains("Karotte weich garen oder reiben"), "{de}");
    assert!(de.contains("Weintrauben längs vierteln"), "{de}");
    let es = note(Lang::Es);
    assert!(es.contains("rallar zanahoria"), "{es}");
    assert!(note(Lang::En).contains("carrot cooked soft or grated; quarter the grapes lengthways"));
}

#[test]
fn a_recipes_note_for_a_child_says_how_to_serve_it_until_5() {
    let note = |birth_month: Option<&str>, age: Option<u8>, foods: &[&str]| {
        safety_note(&child(birth_month, age, &[]), &self::foods(foods), today())
    };
    // today() is 2026-11-27: born 2026-02 is 9 months.
    assert_eq!(
        note(Some("2026-02"), None, &["Grapes", "Rice"])
            .map(|t| t.to_string())
            .as_deref(),
        Some(
            "For Leo (9 months): quarter the grapes lengthways; mash a portion or chop it into \
             soft, small pieces to pick up"
        )
    );
    assert!(
        note(Some("2026-04"), None, &["Rice"])
            .unwrap()
            .to_string()
            .contains("blend or mash")
    );
    assert!(
        note(Some("2026-08"), None, &["Rice"])
            .unwrap()
            .to_string()
            .contains("around 6 months")
    );
    assert!(
        note(None, Some(2), &["Rice"])
            .unwrap()
            .to_string()
            .contains("no salt")
    );
    assert!(
        note(None, Some(4), &["Rice"])
            .unwrap()
            .to_string()
            .contains("sit with them")
    );
    assert_eq!(note(None, Some(5), &["Rice"]), None);
    // "0 years" is a baby of unknown months: no stage is guessed.
    assert_eq!(note(None, Some(0), &["Rice"]), None);
    assert_eq!(note(None, None, &["Grapes"]), None);
}

#[test]
fn the_rules_at_an_age_are_those_a_prompt_names() {
    let keys: Vec<&str> = rules_at(months(9)).map(|r| r.key).collect();
    assert!(keys.contains(&"honey") && keys.contains(&"round-foods"));
    let keys: Vec<&str> = rules_at(years(3)).map(|r| r.key).collect();
    assert!(!keys.contains(&"honey") && keys.contains(&"whole-nuts"));
}
