//! Allergen introduction (issue 30): for each allergen of the family's list, where a child is
//! with it, computed from the meal log with the one allergen matcher. Advice only: a reaction
//! points to a doctor.
//!
//! States, in order of precedence:
//! - `avoid`: one of the child's listed allergies (never suggested);
//! - `reaction`: a meal with it had a reaction (stop, and talk to a doctor);
//! - `notStarted`: never given;
//! - `lapsed`: given before, not in the last `KEEP_UP_DAYS` days;
//! - `regular`: given `REGULAR_TIMES` times or more, the last within `KEEP_UP_DAYS` days;
//! - `started`: given fewer times, the last within `KEEP_UP_DAYS` days.

use crate::i18n::{Arg, Text};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::allergens::{Allergen, allergens_in_food};
use super::child::Child;
use super::meal::{Meal, Reaction};

/// Times given, within the keep-up window, for an allergen to count as part of the diet.
pub const REGULAR_TIMES: u32 = 3;
/// An introduced allergen is kept in the diet by giving it at least this often (BSACI: once
/// introduced, keep giving it regularly, about weekly, so tolerance is kept).
pub const KEEP_UP_DAYS: i64 = 7;

/// Introduction is for small children: under 3, the meal form names new allergens and the
/// dashboard nudges about lapsed ones (an older child's log says little about first tastes).
pub const INTRODUCTION_UNTIL_MONTHS: u32 = 36;

/// Which allergen list a family follows: the 14 of UK and EU law, or the US 9.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Region {
    #[default]
    #[serde(rename = "uk14")]
    Uk,
    #[serde(rename = "us9")]
    Us,
}

impl Region {
    pub const ALL: [Region; 2] = [Region::Uk, Region::Us];

    /// The region's allergens, in its own order.
    pub fn allergens(self) -> &'static [Allergen] {
        match self {
            Region::Uk => &Allergen::ALL,
            // FALCPA's eight and sesame (FASTER Act, 2023).
            Region::Us => &[
                Allergen::Milk,
                Allergen::Eggs,
                Allergen::Fish,
                Allergen::Crustaceans,
                Allergen::TreeNuts,
                Allergen::Peanuts,
                Allergen::Gluten,
                Allergen::Soya,
                Allergen::Sesame,
            ],
        }
    }

    /// What the family's settings call it, in whichever language it is worded.
    pub fn heading(self) -> Text {
        match self {
            Region::Uk => t!("UK and EU, the 14 allergens of food law"),
            Region::Us => t!("US, the 9 major food allergens"),
        }
    }

    /// The name the region's labels use, in whichever language it is worded.
    pub fn name(self, allergen: Allergen) -> Text {
        match (self, allergen) {
            (Region::Us, Allergen::Gluten) => t!("Wheat"),
            (Region::Us, Allergen::Soya) => t!("Soy"),
            (Region::Us, Allergen::Crustaceans) => t!("Crustacean shellfish"),
            _ => allergen.name(),
        }
    }

    /// The name inside a sentence, the region's way: "wheat" and "soy" in the US.
    pub fn in_sentence(self, allergen: Allergen) -> Text {
        match (self, allergen) {
            (Region::Us, Allergen::Gluten) => t!("wheat"),
            (Region::Us, Allergen::Soya) => t!("soy"),
            (Region::Us, Allergen::Crustaceans) => t!("crustacean shellfish"),
            _ => allergen.in_sentence(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    NotStarted,
    Started,
    Regular,
    Lapsed,
    Reaction,
    Avoid,
}

/// Where a child is with one allergen.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub allergen: Allergen,
    pub state: State,
    /// Meals that had it.
    pub times: u32,
    pub first_given: Option<DateTime<Utc>>,
    pub last_given: Option<DateTime<Utc>>,
    /// Whole days since the last meal with it.
    pub days_since_last: Option<i64>,
}

/// One allergen's meals, as they are read.
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    times: u32,
    first: Option<DateTime<Utc>>,
    last: Option<DateTime<Utc>>,
    reaction: bool,
}

/// The meals of one child, read one by one (the store streams them).
#[derive(Debug, Default)]
pub struct Introduction {
    seen: [Seen; Allergen::ALL.len()],
}

impl Introduction {
    pub fn add(&mut self, meal: &Meal) {
        let mut found = [false; Allergen::ALL.len()];
        for food in &meal.foods {
            for m in allergens_in_food(food) {
                found[m.allergen as usize] = true;
            }
        }
        for (i, seen) in self.seen.iter_mut().enumerate() {
            if !found[i] {
                continue;
            }
            seen.times += 1;
            let at = meal.meal_date;
            seen.first = Some(seen.first.map_or(at, |f| f.min(at)));
            seen.last = Some(seen.last.map_or(at, |l| l.max(at)));
            seen.reaction |= meal.reaction != Reaction::None;
        }
    }

    /// Each allergen of the region's list for this child, as of `now`, then any other
    /// allergen the child must avoid or reacted to: a family on the US list still sees a
    /// reaction to mustard.
    pub fn finish(&self, child: &Child, region: Region, now: DateTime<Utc>) -> Vec<Progress> {
        let avoided: Vec<Allergen> = child
            .allergies
            .iter()
            .flat_map(|a| Allergen::from_allergy_text(a))
            .collect();
        let progress = |allergen: Allergen| {
            let seen = self.seen[allergen as usize];
            let days_since_last = seen.last.map(|l| (now - l).num_days().max(0));
            let recent = days_since_last.is_some_and(|d| d < KEEP_UP_DAYS);
            let state = if avoided.contains(&allergen) {
                State::Avoid
            } else if seen.reaction {
                State::Reaction
            } else if seen.times == 0 {
                State::NotStarted
            } else if !recent {
                State::Lapsed
            } else if seen.times >= REGULAR_TIMES {
                State::Regular
            } else {
                State::Started
            };
            Progress {
                allergen,
                state,
                times: seen.times,
                first_given: seen.first,
                last_given: seen.last,
                days_since_last,
            }
        };
        let listed = region.allergens();
        let mut out: Vec<Progress> = listed.iter().map(|&a| progress(a)).collect();
        out.extend(
            Allergen::ALL
                .iter()
                .filter(|a| !listed.contains(a))
                .map(|&a| progress(a))
                .filter(|p| matches!(p.state, State::Avoid | State::Reaction)),
        );
        out
    }
}

/// What to try next: the first allergen not started, never one the child must avoid or
/// reacted to, and nothing new while another is still being started (one new allergen at a
/// time).
pub fn next_to_try(progress: &[Progress]) -> Option<Allergen> {
    if progress.iter().any(|p| p.state == State::Started) {
        return None;
    }
    progress
        .iter()
        .find(|p| p.state == State::NotStarted)
        .map(|p| p.allergen)
}

/// The allergens in `foods` that the child has never had: the meal form says when a meal
/// would bring in two new ones at once.
pub fn new_in(progress: &[Progress], foods: &[String]) -> Vec<Allergen> {
    let mut out = Vec::new();
    for food in foods {
        for m in allergens_in_food(food) {
            let new = progress
                .iter()
                .any(|p| p.allergen == m.allergen && p.state == State::NotStarted);
            if new && !out.contains(&m.allergen) {
                out.push(m.allergen);
            }
        }
    }
    out
}

/// "Eggs and fish would both be new for Leo: introduce one new allergen at a time, so a
/// reaction points to one food." when `foods` bring in two or more the child has never had.
pub fn one_at_a_time(
    progress: &[Progress],
    foods: &[String],
    name: &str,
    region: Region,
) -> Option<Text> {
    let new = new_in(progress, foods);
    if new.len() < 2 {
        return None;
    }
    let allergens = Arg::And {
        items: new.iter().map(|&a| region.in_sentence(a)).collect(),
        capitalise: true,
    };
    Some(if new.len() == 2 {
        t!(
            "{{allergens}} would both be new for {{name}}: introduce one new allergen at a time, \
             so a reaction points to one food.",
            allergens = allergens,
            name = name
        )
    } else {
        t!(
            "{{allergens}} would all be new for {{name}}: introduce one new allergen at a time, \
             so a reaction points to one food.",
            allergens = allergens,
            name = name
        )
    })
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone};

    use super::*;
    use crate::domain::ids::{ChildId, FamilyId, MealId};
    use crate::domain::meal::{MealType, Mood, Portion};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 27, 18, 0, 0).unwrap()
    }

    fn child(allergies: &[&str]) -> Child {
        Child {
            id: ChildId::new(),
            family: FamilyId::new(),
            version: 1,
            name: "Leo".into(),
            age: Some(1),
            dietary_restrictions: vec![],
            allergies: allergies.iter().map(|a| a.to_string()).collect(),
            created_at: now(),
            updated_at: now(),
            birth_month: None,
        }
    }

    fn meal(days_ago: i64, foods: &[&str], reaction: Reaction) -> Meal {
        let at = now() - Duration::days(days_ago);
        Meal {
            id: MealId::new(),
            family: FamilyId::new(),
            version: 1,
            child_id: ChildId::new(),
            meal_type: MealType::Lunch,
            foods: foods.iter().map(|f| f.to_string()).collect(),
            portion: Portion::Full,
            mood: Mood::Happy,
            feedback: None,
            notes: String::new(),
            photo: None,
            meal_date: at,
            created_at: at,
            updated_at: at,
            reaction,
            reaction_note: String::new(),
            exposures: vec![],
        }
    }

    fn states(meals: &[Meal], allergies: &[&str], region: Region) -> Vec<(Allergen, State, u32)> {
        let mut intro = Introduction::default();
        for m in meals {
            intro.add(m);
        }
        intro
            .finish(&child(allergies), region, now())
            .into_iter()
            .map(|p| (p.allergen, p.state, p.times))
            .collect()
    }

    fn state_of(all: &[(Allergen, State, u32)], allergen: Allergen) -> (State, u32) {
        let found = all.iter().find(|(a, _, _)| *a == allergen).unwrap();
        (found.1, found.2)
    }

    #[test]
    fn each_state_comes_from_the_meal_log() {
        let meals = [
            // Eggs: three times this week.
            meal(1, &["Scrambled egg"], Reaction::None),
            meal(3, &["Omelette"], Reaction::None),
            meal(5, &["Egg fingers"], Reaction::None),
            // Peanuts: twice, the last two days ago.
            meal(2, &["Smooth peanut butter on toast"], Reaction::None),
            meal(9, &["Peanut butter"], Reaction::None),
            // Fish: four times, the last ten days ago.
            meal(10, &["Salmon"], Reaction::None),
            meal(12, &["Cod"], Reaction::None),
            meal(14, &["Fish pie"], Reaction::None),
            meal(16, &["Tuna"], Reaction::None),
            // Sesame: a mild reaction.
            meal(4, &["Hummus"], Reaction::Mild),
            // Milk: the child's allergy, given anyway (an exposure).
            meal(1, &["Cheese"], Reaction::None),
        ];
        let all = states(&meals, &["dairy"], Region::Uk);
        assert_eq!(all.len(), 14);
        assert_eq!(state_of(&all, Allergen::Eggs), (State::Regular, 3));
        assert_eq!(state_of(&all, Allergen::Peanuts), (State::Started, 2));
        assert_eq!(state_of(&all, Allergen::Fish), (State::Lapsed, 4));
        assert_eq!(state_of(&all, Allergen::Sesame), (State::Reaction, 1));
        // Cheese, and the milk of a usual fish pie: an allergy is avoided however often given.
        assert_eq!(state_of(&all, Allergen::Milk).0, State::Avoid);
        assert_eq!(state_of(&all, Allergen::Mustard), (State::NotStarted, 0));
    }

    #[test]
    fn dates_and_days_since_are_kept() {
        let mut intro = Introduction::default();
        intro.add(&meal(9, &["Egg"], Reaction::None));
        intro.add(&meal(2, &["Egg"], Reaction::None));
        let eggs = intro
            .finish(&child(&[]), Region::Uk, now())
            .into_iter()
            .find(|p| p.allergen == Allergen::Eggs)
            .unwrap();
        assert_eq!(eggs.first_given, Some(now() - Duration::days(9)));
        assert_eq!(eggs.last_given, Some(now() - Duration::days(2)));
        assert_eq!(eggs.days_since_last, Some(2));
    }

    #[test]
    fn the_us_list_has_nine_with_its_own_names() {
        let all = states(&[], &[], Region::Us);
        assert_eq!(all.len(), 9);
        assert_eq!(Region::Us.name(Allergen::Gluten), "Wheat");
        assert_eq!(
            Region::Uk.name(Allergen::Gluten),
            "Cereals containing gluten"
        );
    }

    #[test]
    fn a_reaction_or_an_allergy_outside_the_familys_list_is_never_dropped() {
        let meals = [
            meal(3, &["Mustard chicken"], Reaction::Mild),
            meal(2, &["Celeriac mash"], Reaction::None),
        ];
        let all = states(&meals, &["lupin"], Region::Us);
        assert_eq!(all.len(), 11, "{all:?}");
        assert_eq!(state_of(&all, Allergen::Mustard), (State::Reaction, 1));
        assert_eq!(state_of(&all, Allergen::Lupin).0, State::Avoid);
        // Given without trouble, outside the list: not shown.
        assert!(all.iter().all(|(a, _, _)| *a != Allergen::Celery));
        assert_eq!(
            all[..9].iter().map(|(a, _, _)| *a).collect::<Vec<_>>(),
            Region::Us.allergens()
        );
    }

    #[test]
    fn the_next_to_try_is_one_at_a_time_and_never_an_allergy() {
        let mut intro = Introduction::default();
        let leo = child(&["celery"]);
        let progress = intro.finish(&leo, Region::Uk, now());
        // Celery is first in the list, and Leo's allergy: never suggested.
        assert_eq!(next_to_try(&progress), Some(Allergen::Gluten));
        intro.add(&meal(1, &["Toast"], Reaction::None));
        let progress = intro.finish(&leo, Region::Uk, now());
        assert_eq!(
            next_to_try(&progress),
            None,
            "gluten is still being started"
        );
        let foods = ["Scrambled egg on toast".to_string(), "Fish".into()];
        assert_eq!(new_in(&progress, &foods), [Allergen::Eggs, Allergen::Fish]);
        assert_eq!(
            one_at_a_time(&progress, &foods, "Leo", Region::Uk)
                .map(|t| t.to_string())
                .as_deref(),
            Some(
                "Eggs and fish would both be new for Leo: introduce one new allergen at a \
                 time, so a reaction points to one food."
            )
        );
        assert_eq!(
            one_at_a_time(&progress, &foods[..1], "Leo", Region::Uk),
            None
        );
    }
}
