//! `/api/children/{id}/allergens`: allergen introduction, the state of each allergen of the
//! family's list for one child (`domain::allergen_intro`).

use chrono::{DateTime, Utc};
use poem_openapi::{Enum, Object};

use crate::domain::allergen_intro::{self, Progress, Region, State};
use crate::service::children::Allergens;

/// Which allergen list a family follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum AllergenListDto {
    /// The 14 allergens of UK and EU food law.
    #[oai(rename = "uk14")]
    Uk14,
    /// The US 9 major food allergens.
    #[oai(rename = "us9")]
    Us9,
}

impl From<Region> for AllergenListDto {
    fn from(r: Region) -> Self {
        match r {
            Region::Uk => AllergenListDto::Uk14,
            Region::Us => AllergenListDto::Us9,
        }
    }
}

impl From<AllergenListDto> for Region {
    fn from(r: AllergenListDto) -> Self {
        match r {
            AllergenListDto::Uk14 => Region::Uk,
            AllergenListDto::Us9 => Region::Us,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "camelCase")]
pub enum IntroStateDto {
    /// Never given.
    NotStarted,
    /// Given fewer than 3 times, the last within 7 days.
    Started,
    /// Given 3 times or more, the last within 7 days.
    Regular,
    /// Given before, not in the last 7 days.
    Lapsed,
    /// A meal with it had a reaction: stop, and talk to a doctor.
    Reaction,
    /// One of the child's listed allergies: never suggested.
    Avoid,
}

impl From<State> for IntroStateDto {
    fn from(s: State) -> Self {
        match s {
            State::NotStarted => IntroStateDto::NotStarted,
            State::Started => IntroStateDto::Started,
            State::Regular => IntroStateDto::Regular,
            State::Lapsed => IntroStateDto::Lapsed,
            State::Reaction => IntroStateDto::Reaction,
            State::Avoid => IntroStateDto::Avoid,
        }
    }
}

/// One allergen for one child.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct AllergenProgressDto {
    /// The stable key ("peanuts", "tree_nuts").
    pub allergen: String,
    /// Its name in the family's list ("Peanuts"; "Wheat" in the US list).
    pub label: String,
    pub state: IntroStateDto,
    /// Meals that had it.
    pub times: u32,
    #[oai(nullable)]
    pub first_given: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub last_given: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub days_since_last: Option<i64>,
}

/// What to try next.
#[derive(Debug, Clone, Object)]
pub struct NextAllergenDto {
    pub allergen: String,
    pub label: String,
}

/// A child's allergen introduction.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct AllergenIntroDto {
    pub child_id: String,
    pub child_name: String,
    /// The family's allergen list (its settings).
    pub region: AllergenListDto,
    /// The list's name, as the settings show it.
    pub region_title: String,
    /// In the list's order, then any other allergen the child must avoid or reacted to.
    pub allergens: Vec<AllergenProgressDto>,
    /// One new allergen at a time: none while one is still being started, and never one of
    /// the child's allergies or one with a reaction.
    #[oai(nullable)]
    pub next: Option<NextAllergenDto>,
    /// Given 3 times or more each (the goal of introducing one).
    pub regular_times: u32,
    /// Days within which an introduced allergen is given again to keep it in the diet.
    pub keep_up_days: i64,
}

impl From<&Allergens> for AllergenIntroDto {
    fn from(a: &Allergens) -> Self {
        let label = |p: &Progress| a.region.name(p.allergen).here();
        AllergenIntroDto {
            child_id: a.child.id.to_string(),
            child_name: a.child.name.clone(),
            region: a.region.into(),
            region_title: a.region.heading().here(),
            allergens: a
                .progress
                .iter()
                .map(|p| AllergenProgressDto {
                    allergen: p.allergen.key().into(),
                    label: label(p),
                    state: p.state.into(),
                    times: p.times,
                    first_given: p.first_given,
                    last_given: p.last_given,
                    days_since_last: p.days_since_last,
                })
                .collect(),
            next: allergen_intro::next_to_try(&a.progress).map(|allergen| NextAllergenDto {
                allergen: allergen.key().into(),
                label: a.region.name(allergen).here(),
            }),
            regular_times: allergen_intro::REGULAR_TIMES,
            keep_up_days: allergen_intro::KEEP_UP_DAYS,
        }
    }
}
