//! The meal log (spec sections 3, 5 and 9).

use crate::i18n::Text;
use std::fmt;

use chrono::{DateTime, Datelike, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::allergens::{Allergen, Conflict, conflicts};
use super::change::first_version;
use super::error::Invalid;
use super::ids::{ChildId, FamilyId, MealId, MediaId};
use super::tags;
use super::text::{GENERAL_TEXT_MAX, char_len, sanitize, too_long_message};

/// The six meal types. Stored and sent as their display names ("Morning Snack").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MealType {
    Breakfast,
    MorningSnack,
    Lunch,
    AfternoonSnack,
    Dinner,
    EveningSnack,
}

impl MealType {
    pub const ALL: [MealType; 6] = [
        MealType::Breakfast,
        MealType::MorningSnack,
        MealType::Lunch,
        MealType::AfternoonSnack,
        MealType::Dinner,
        MealType::EveningSnack,
    ];

    pub fn label(self) -> &'static str {
        match self {
            MealType::Breakfast => "Breakfast",
            MealType::MorningSnack => "Morning Snack",
            MealType::Lunch => "Lunch",
            MealType::AfternoonSnack => "Afternoon Snack",
            MealType::Dinner => "Dinner",
            MealType::EveningSnack => "Evening Snack",
        }
    }

    /// Reads current names and the older or variant values found in earlier data
    /// ("breakfast", "LUNCH", "morning_snack", "snack"). A bare "snack" becomes an afternoon snack.
    pub fn parse(input: &str) -> Option<MealType> {
        let key: String = input
            .chars()
            .filter(|c| c.is_alphabetic())
            .flat_map(char::to_lowercase)
            .collect();
        Some(match key.as_str() {
            "breakfast" => MealType::Breakfast,
            "morningsnack" => MealType::MorningSnack,
            "lunch" => MealType::Lunch,
            "afternoonsnack" | "snack" => MealType::AfternoonSnack,
            "dinner" | "supper" => MealType::Dinner,
            "eveningsnack" => MealType::EveningSnack,
            _ => return None,
        })
    }
}

impl fmt::Display for MealType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl Serialize for MealType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.label())
    }
}

/// Normalises legacy values when old records are read.
impl<'de> Deserialize<'de> for MealType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        MealType::parse(&raw)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown meal type `{raw}`")))
    }
}

/// How much was eaten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Portion {
    None,
    Half,
    #[default]
    Full,
    Seconds,
}

impl Portion {
    pub fn parse(input: &str) -> Option<Portion> {
        Some(match input.trim().to_ascii_lowercase().as_str() {
            "none" => Portion::None,
            "half" => Portion::Half,
            "full" => Portion::Full,
            "seconds" => Portion::Seconds,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Portion::None => "none",
            Portion::Half => "half",
            Portion::Full => "full",
            Portion::Seconds => "seconds",
        }
    }
}

/// The child's reaction (the spec's `reactions[0]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mood {
    #[default]
    Happy,
    Neutral,
    Sad,
}

impl Mood {
    pub fn parse(input: &str) -> Option<Mood> {
        Some(match input.trim().to_ascii_lowercase().as_str() {
            "happy" => Mood::Happy,
            "neutral" => Mood::Neutral,
            "sad" => Mood::Sad,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Mood::Happy => "happy",
            Mood::Neutral => "neutral",
            Mood::Sad => "sad",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Feedback {
    Loved,
    Disliked,
    Seconds,
}

impl Feedback {
    pub fn parse(input: &str) -> Option<Feedback> {
        Some(match input.trim().to_ascii_lowercase().as_str() {
            "loved" => Feedback::Loved,
            "disliked" => Feedback::Disliked,
            "seconds" => Feedback::Seconds,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Feedback::Loved => "loved",
            Feedback::Disliked => "disliked",
            Feedback::Seconds => "seconds",
        }
    }
}

/// How far ahead of the server's clock a meal's time may be: a phone's clock runs a little
/// fast, or a parent logs the dinner being served. Back-dating has no limit.
pub const FUTURE_SLACK_MINUTES: i64 = 10;
/// The earliest year a meal may be dated: older is a typo (and outside what the store keeps
/// exactly: times are nanoseconds from 1970 in a 64-bit number, 1677 to 2262).
pub const EARLIEST_YEAR: i32 = 1900;

/// A reaction the child had to the meal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reaction {
    #[default]
    None,
    Mild,
    Severe,
}

impl Reaction {
    pub fn parse(input: &str) -> Option<Reaction> {
        Some(match input.trim().to_ascii_lowercase().as_str() {
            "none" => Reaction::None,
            "mild" => Reaction::Mild,
            "severe" => Reaction::Severe,
            _ => return None,
        })
    }
}

/// A food of the meal that matches one of the child's allergies when it was saved: the meal
/// is an exposure (allergens are introduced on purpose, under a doctor's guidance).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exposure {
    pub food: String,
    pub allergy: String,
    /// "Buttered toast contains milk (butter)", in English as it was saved: shown as it is
    /// only for an exposure saved before its parts were kept.
    pub message: String,
    /// The allergen's key (`Allergen::key`), none when the allergy matched word for word.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allergen: Option<String>,
    /// The food's words that matched; none in exposures saved before languages (issue 32).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matched: Option<String>,
}

impl Exposure {
    /// "Buttered toast contains milk (butter)", in whichever language it is worded. One saved
    /// before its parts were kept is read again from its food and allergy, or else shown as
    /// it was saved.
    pub fn message(&self) -> Text {
        let Some(matched) = &self.matched else {
            let again = conflicts(
                std::slice::from_ref(&self.food),
                std::slice::from_ref(&self.allergy),
            );
            return match again.into_iter().find(|c| c.to_string() == self.message) {
                Some(c) => c.message(),
                None => Text::as_given(&self.message),
            };
        };
        Conflict {
            food: self.food.clone(),
            allergy: self.allergy.clone(),
            allergen: self.allergen.as_deref().and_then(Allergen::from_key),
            matched: matched.clone(),
        }
        .message()
    }
}

/// The exposures of `foods` for a child with `allergies` (the one matcher in `allergens`).
pub fn exposures(foods: &[String], allergies: &[String]) -> Vec<Exposure> {
    conflicts(foods, allergies)
        .into_iter()
        .map(|c| Exposure {
            message: c.to_string(),
            allergen: c.allergen.map(|a| a.key().to_string()),
            matched: Some(c.matched.clone()),
            food: c.food,
            allergy: c.allergy,
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meal {
    pub id: MealId,
    /// Stored as `owner` before households existed.
    #[serde(alias = "owner")]
    pub family: FamilyId,
    #[serde(default = "first_version")]
    pub version: u64,
    pub child_id: ChildId,
    pub meal_type: MealType,
    pub foods: Vec<String>,
    #[serde(default)]
    pub portion: Portion,
    #[serde(default)]
    pub mood: Mood,
    #[serde(default)]
    pub feedback: Option<Feedback>,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub photo: Option<MediaId>,
    pub meal_date: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(default)]
    pub reaction: Reaction,
    #[serde(default)]
    pub reaction_note: String,
    /// Set from the child's allergies each time the meal is saved.
    #[serde(default)]
    pub exposures: Vec<Exposure>,
}

/// What the meal form sends, before validation. Strings are parsed here, not at the edge, so
/// bad values get the spec's messages.
#[derive(Debug, Clone, Default)]
pub struct MealDraft {
    pub child_id: String,
    pub meal_type: String,
    pub foods: Vec<String>,
    pub portion: Option<String>,
    pub mood: Option<String>,
    pub feedback: Option<String>,
    pub notes: Option<String>,
    pub photo: Option<String>,
    /// RFC 3339; empty means now.
    pub meal_date: Option<String>,
    /// none (default), mild or severe.
    pub reaction: Option<String>,
    pub reaction_note: Option<String>,
}

/// The validated fields of a meal. The child and photo still have to be checked against the
/// owner's records by the caller.
#[derive(Debug, Clone, PartialEq)]
pub struct MealFields {
    pub child_id: ChildId,
    pub meal_type: MealType,
    pub foods: Vec<String>,
    pub portion: Portion,
    pub mood: Mood,
    pub feedback: Option<Feedback>,
    pub notes: String,
    pub photo: Option<MediaId>,
    pub meal_date: DateTime<Utc>,
    pub reaction: Reaction,
    pub reaction_note: String,
}

pub const SAVE_TITLE: Text = t!("Error saving meal");
pub const UPDATE_TITLE: Text = t!("Error updating meal");

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

impl MealDraft {
    pub fn validate(self, title: &Text, now: DateTime<Utc>) -> Result<MealFields, Invalid> {
        let child_id = self
            .child_id
            .trim()
            .parse::<ChildId>()
            .map_err(|_| Invalid::new(title, t!("Please choose a child"), "childId"))?;
        let meal_type = MealType::parse(&self.meal_type)
            .ok_or_else(|| Invalid::new(title, t!("Please choose a meal type"), "mealType"))?;
        let foods = tags::clean(&self.foods, title, "foods")?;
        if foods.is_empty() {
            return Err(Invalid::new(
                title,
                t!("Please add at least one food"),
                "foods",
            ));
        }
        let portion = match present(&self.portion) {
            None => Portion::default(),
            Some(p) => Portion::parse(p)
                .ok_or_else(|| Invalid::new(title, t!("Please choose a portion"), "portion"))?,
        };
        let mood = match present(&self.mood) {
            None => Mood::default(),
            Some(m) => Mood::parse(m)
                .ok_or_else(|| Invalid::new(title, t!("Please choose a mood"), "mood"))?,
        };
        let feedback = match present(&self.feedback) {
            None => None,
            Some(f) => Some(Feedback::parse(f).ok_or_else(|| {
                Invalid::new(title, t!("Please choose a feedback option"), "feedback")
            })?),
        };
        let notes = sanitize(self.notes.as_deref().unwrap_or_default());
        if char_len(&notes) > GENERAL_TEXT_MAX {
            return Err(Invalid::new(
                title,
                too_long_message(t!("Notes"), GENERAL_TEXT_MAX),
                "notes",
            ));
        }
        let photo = match present(&self.photo) {
            None => None,
            Some(p) => Some(p.parse::<MediaId>().map_err(|_| {
                Invalid::new(
                    t!("Photo upload failed"),
                    t!("Please add the photo again"),
                    "photo",
                )
            })?),
        };
        let meal_date = match present(&self.meal_date) {
            None => now,
            Some(d) => DateTime::parse_from_rfc3339(d)
                .map(|d| d.with_timezone(&Utc))
                .map_err(|_| {
                    Invalid::new(title, t!("Please enter a valid date and time"), "mealDate")
                })?,
        };
        if meal_date.year() < EARLIEST_YEAR {
            return Err(Invalid::new(
                title,
                t!("Please enter a valid date and time"),
                "mealDate",
            ));
        }
        if meal_date > now + chrono::Duration::minutes(FUTURE_SLACK_MINUTES) {
            return Err(Invalid::new(
                title,
                t!("A meal cannot be logged in the future. Check the date and time."),
                "mealDate",
            ));
        }
        let reaction = match present(&self.reaction) {
            None => Reaction::None,
            Some(r) => Reaction::parse(r)
                .ok_or_else(|| Invalid::new(title, t!("Please choose a reaction"), "reaction"))?,
        };
        let reaction_note = match reaction {
            // A note about no reaction would show nowhere.
            Reaction::None => String::new(),
            _ => sanitize(self.reaction_note.as_deref().unwrap_or_default()),
        };
        if char_len(&reaction_note) > GENERAL_TEXT_MAX {
            return Err(Invalid::new(
                title,
                too_long_message(t!("Reaction note"), GENERAL_TEXT_MAX),
                "reactionNote",
            ));
        }
        Ok(MealFields {
            child_id,
            meal_type,
            foods,
            portion,
            mood,
            feedback,
            notes,
            photo,
            meal_date,
            reaction,
            reaction_note,
        })
    }
}

impl Meal {
    pub fn create(family: FamilyId, fields: MealFields, now: DateTime<Utc>) -> Meal {
        let mut meal = Meal {
            id: MealId::new(),
            family,
            version: first_version(),
            child_id: fields.child_id,
            meal_type: fields.meal_type,
            foods: Vec::new(),
            portion: Portion::default(),
            mood: Mood::default(),
            feedback: None,
            notes: String::new(),
            photo: None,
            meal_date: now,
            created_at: now,
            updated_at: now,
            reaction: Reaction::None,
            reaction_note: String::new(),
            exposures: Vec::new(),
        };
        meal.apply(fields, now);
        meal
    }

    pub fn apply(&mut self, fields: MealFields, now: DateTime<Utc>) {
        self.child_id = fields.child_id;
        self.meal_type = fields.meal_type;
        self.foods = fields.foods;
        self.portion = fields.portion;
        self.mood = fields.mood;
        self.feedback = fields.feedback;
        self.notes = fields.notes;
        self.photo = fields.photo;
        self.meal_date = fields.meal_date;
        self.reaction = fields.reaction;
        self.reaction_note = fields.reaction_note;
        self.updated_at = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draft() -> MealDraft {
        MealDraft {
            child_id: ChildId::new().to_string(),
            meal_type: "Lunch".into(),
            foods: vec![" Pasta ".into(), "peas".into(), "Peas".into()],
            ..MealDraft::default()
        }
    }

    #[test]
    fn defaults_and_cleaning() {
        let now = Utc::now();
        let f = draft().validate(&SAVE_TITLE, now).unwrap();
        assert_eq!(f.foods, ["Pasta", "peas"]);
        assert_eq!(f.portion, Portion::Full);
        assert_eq!(f.mood, Mood::Happy);
        assert_eq!(f.feedback, None);
        assert_eq!(f.notes, "");
        assert_eq!(f.meal_date, now, "meal date defaults to now");
    }

    #[test]
    fn meals_can_be_back_dated_but_not_logged_in_the_future() {
        let now = Utc::now();
        let at = |t: DateTime<Utc>| MealDraft {
            meal_date: Some(t.to_rfc3339()),
            ..draft()
        };
        let lunch = now - chrono::Duration::hours(9);
        assert_eq!(
            at(lunch)
                .validate(&SAVE_TITLE, now)
                .unwrap()
                .meal_date
                .timestamp(),
            lunch.timestamp()
        );
        let served = now + chrono::Duration::minutes(FUTURE_SLACK_MINUTES - 1);
        assert!(at(served).validate(&SAVE_TITLE, now).is_ok());
        let tomorrow = now + chrono::Duration::days(1);
        let err = at(tomorrow).validate(&SAVE_TITLE, now).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("mealDate"));
        let typo = MealDraft {
            meal_date: Some("0201-03-04T12:00:00Z".into()),
            ..draft()
        };
        let err = typo.validate(&SAVE_TITLE, now).unwrap_err();
        assert_eq!(err.field.as_deref(), Some("mealDate"));
        assert_eq!(err.message, "Please enter a valid date and time");
    }

    #[test]
    fn reactions_are_parsed_and_a_note_needs_one() {
        let now = Utc::now();
        let with = |r: &str, note: &str| MealDraft {
            reaction: Some(r.into()),
            reaction_note: Some(note.into()),
            ..draft()
        };
        let f = with("Severe", " Hives on cheeks ")
            .validate(&SAVE_TITLE, now)
            .unwrap();
        assert_eq!(
            (f.reaction, f.reaction_note.as_str()),
            (Reaction::Severe, "Hives on cheeks")
        );
        let f = with("none", "ignored").validate(&SAVE_TITLE, now).unwrap();
        assert_eq!((f.reaction, f.reaction_note.as_str()), (Reaction::None, ""));
        assert_eq!(
            with("deadly", "")
                .validate(&SAVE_TITLE, now)
                .unwrap_err()
                .field
                .as_deref(),
            Some("reaction")
        );
    }

    #[test]
    fn exposures_name_the_food_and_the_allergy() {
        let found = exposures(
            &["Buttered toast".into(), "Apple".into()],
            &["Milk".into(), "Peanuts".into()],
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].food, "Buttered toast");
        assert_eq!(found[0].allergy, "Milk");
        assert_eq!(found[0].message, "Buttered toast contains milk (butter)");
    }

    #[test]
    fn legacy_meal_types_are_normalised() {
        for (raw, want) in [
            ("breakfast", MealType::Breakfast),
            ("BREAKFAST", MealType::Breakfast),
            ("Lunch", MealType::Lunch),
            ("dinner", MealType::Dinner),
            ("snack", MealType::AfternoonSnack),
            ("Snack", MealType::AfternoonSnack),
            ("morning_snack", MealType::MorningSnack),
            ("Evening Snack", MealType::EveningSnack),
        ] {
            assert_eq!(MealType::parse(raw), Some(want), "{raw}");
            let json = format!("\"{raw}\"");
            assert_eq!(serde_json::from_str::<MealType>(&json).unwrap(), want);
        }
        assert_eq!(
            serde_json::to_string(&MealType::MorningSnack).unwrap(),
            "\"Morning Snack\""
        );
        assert!(MealType::parse("brunch").is_none());
    }

    #[test]
    fn messages_per_field() {
        let now = Utc::now();
        let check = |d: MealDraft, field: &str, message: &str| {
            let e = d.validate(&SAVE_TITLE, now).unwrap_err();
            assert_eq!(e.field.as_deref(), Some(field));
            assert_eq!(e.message, message);
        };
        check(
            MealDraft {
                child_id: "x".into(),
                ..draft()
            },
            "childId",
            "Please choose a child",
        );
        check(
            MealDraft {
                meal_type: "brunch".into(),
                ..draft()
            },
            "mealType",
            "Please choose a meal type",
        );
        check(
            MealDraft {
                foods: vec![" ".into()],
                ..draft()
            },
            "foods",
            "Please add at least one food",
        );
        check(
            MealDraft {
                portion: Some("lots".into()),
                ..draft()
            },
            "portion",
            "Please choose a portion",
        );
        check(
            MealDraft {
                mood: Some("angry".into()),
                ..draft()
            },
            "mood",
            "Please choose a mood",
        );
        check(
            MealDraft {
                feedback: Some("meh".into()),
                ..draft()
            },
            "feedback",
            "Please choose a feedback option",
        );
        check(
            MealDraft {
                notes: Some("n".repeat(1001)),
                ..draft()
            },
            "notes",
            "Notes must be 1000 characters or less",
        );
        check(
            MealDraft {
                photo: Some("not-an-id".into()),
                ..draft()
            },
            "photo",
            "Please add the photo again",
        );
        check(
            MealDraft {
                meal_date: Some("yesterday".into()),
                ..draft()
            },
            "mealDate",
            "Please enter a valid date and time",
        );
    }

    #[test]
    fn explicit_values_are_read() {
        let f = MealDraft {
            portion: Some("seconds".into()),
            mood: Some("Sad".into()),
            feedback: Some("disliked".into()),
            notes: Some("  Ate slowly \r\n ".into()),
            ..draft()
        }
        .validate(&UPDATE_TITLE, Utc::now())
        .unwrap();
        assert_eq!(
            (f.portion, f.mood, f.feedback),
            (Portion::Seconds, Mood::Sad, Some(Feedback::Disliked))
        );
        assert_eq!(f.notes, "Ate slowly");
        let dated = MealDraft {
            meal_date: Some("2025-05-20T08:30:00+01:00".into()),
            ..draft()
        }
        .validate(&SAVE_TITLE, Utc::now())
        .unwrap();
        assert_eq!(dated.meal_date.to_rfc3339(), "2025-05-20T07:30:00+00:00");
    }

    #[test]
    fn an_exposure_is_worded_in_the_language_it_is_shown_in() {
        let foods = vec![
            "Beurre de cacahuète".to_string(),
            "Buttered toast".to_string(),
        ];
        let allergies = vec!["Peanuts".to_string(), "Milk".to_string()];
        let found = exposures(&foods, &allergies);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].allergen.as_deref(), Some("peanuts"));
        assert_eq!(found[0].matched.as_deref(), Some("beurre de cacahuète"));
        assert_eq!(
            found[1].message().to_string(),
            "Buttered toast contains milk (butter)"
        );
        let french = found[0].message().render(crate::i18n::Lang::Fr);
        assert!(
            french.contains("Beurre de cacahuète") && !french.contains("contains"),
            "{french}"
        );
        // Saved before its parts were kept: read again from its food and allergy...
        let old = Exposure {
            food: "Buttered toast".into(),
            allergy: "Milk".into(),
            message: "Buttered toast contains milk (butter)".into(),
            allergen: None,
            matched: None,
        };
        assert_eq!(old.message(), found[1].message());
        // ...or, when the tables now read it another way, shown as it was saved.
        let changed = Exposure {
            message: "Buttered toast contains milk (ghee)".into(),
            ..old
        };
        assert_eq!(
            changed.message().render(crate::i18n::Lang::De),
            changed.message
        );
    }
}
