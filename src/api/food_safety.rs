//! The child food safety answer as the screens read it: warnings about allergens, choking and
//! age for one child, with advice and the source of each (`domain::food_safety`).

use poem_openapi::{Enum, Object};

use crate::domain::food_safety::{FoodCheck, Source, Warning, WarningKind};
use crate::i18n::Text;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "camelCase")]
pub enum WarningKindDto {
    /// One of the child's listed allergies.
    Allergen,
    /// A choking hazard at the child's age.
    Choking,
    /// A food not for the child's age (honey before 12 months, salt for babies).
    Age,
}

impl From<WarningKind> for WarningKindDto {
    fn from(kind: WarningKind) -> Self {
        match kind {
            WarningKind::Allergen => WarningKindDto::Allergen,
            WarningKind::Choking => WarningKindDto::Choking,
            WarningKind::Age => WarningKindDto::Age,
        }
    }
}

/// Public guidance a warning comes from.
#[derive(Debug, Clone, Object)]
pub struct SourceDto {
    /// "NHS", "CDC".
    pub publisher: String,
    pub title: String,
    pub url: String,
}

impl From<&Source> for SourceDto {
    fn from(s: &Source) -> Self {
        SourceDto {
            publisher: s.publisher.into(),
            title: s.title.into(),
            url: s.url.into(),
        }
    }
}

/// One thing to know about one food for one child.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct FoodWarningDto {
    pub kind: WarningKindDto,
    /// The food as sent.
    pub food: String,
    pub message: String,
    /// What to do instead.
    pub advice: String,
    /// None for the child's own allergy list.
    #[oai(nullable)]
    pub source: Option<SourceDto>,
    /// The food was described as prepared the safe way: advice, not alarm.
    pub prepared: bool,
    /// The advice in a few words ("quarter the grapes lengthways").
    pub note: String,
    /// The allergy as the parent typed it, for an allergen warning.
    #[oai(nullable)]
    pub allergy: Option<String>,
}

impl From<&Warning> for FoodWarningDto {
    fn from(w: &Warning) -> Self {
        FoodWarningDto {
            kind: w.kind.into(),
            food: w.food.clone(),
            message: w.message.here(),
            advice: w.advice.here(),
            source: w.source.map(SourceDto::from),
            prepared: w.prepared,
            note: w.note.here(),
            allergy: w.allergy.clone(),
        }
    }
}

/// The food check of one child.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct FoodCheckDto {
    pub child_id: String,
    pub child_name: String,
    /// "9 months", "3 years": the age the rules were checked for; none without one.
    #[oai(nullable)]
    pub age: Option<String>,
    /// Asks for a birth month when the child has no age, so no age rule was checked.
    #[oai(nullable)]
    pub prompt: Option<String>,
    /// Allergens first, then choking and age, food by food; empty when all is well.
    pub warnings: Vec<FoodWarningDto>,
    /// "For Leo (9 months): quarter the grapes lengthways; no honey before 12 months".
    #[oai(nullable)]
    pub note: Option<String>,
    /// For a child under 3, when the foods bring in two or more allergens never given:
    /// "Eggs and fish would both be new for Leo: introduce one new allergen at a time, ...".
    #[oai(nullable)]
    pub introduction: Option<String>,
}

impl FoodCheckDto {
    pub fn new(child: &crate::domain::child::Child, check: &FoodCheck) -> Self {
        FoodCheckDto {
            child_id: child.id.to_string(),
            child_name: child.name.clone(),
            age: check.age.map(|a| a.label().here()),
            prompt: check.prompt.as_ref().map(Text::here),
            warnings: check.warnings.iter().map(FoodWarningDto::from).collect(),
            note: check.note_for(&child.name).as_ref().map(Text::here),
            introduction: check.introduction.as_ref().map(Text::here),
        }
    }
}
