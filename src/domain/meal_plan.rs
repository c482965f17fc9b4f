//! The weekly meal plan (issue 13): ISO 8601 weeks ("2026-W48", Monday to Sunday), the entries
//! parents place on a day and meal type (a saved recipe, or free text such as "leftovers"),
//! their checks, and the planned recipes' ingredients scaled to the planned servings.
//! Pure: the family's children and recipes are passed in.

use crate::i18n::Text;
use std::collections::HashMap;
use std::fmt;

use chrono::{DateTime, Datelike, Days, NaiveDate, Utc, Weekday};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::change::first_version;
use super::error::{DomainError, Invalid};
use super::food_safety::WarningKind;
use super::ids::{ChildId, FamilyId, MealPlanEntryId, RecipeId};
use super::meal::MealType;
use super::number::NumberInput;
use super::quantity::{Amount, scale};
use super::recipe::Recipe;
use super::text::{NAME_MAX, char_len, sanitize_line, strip_markup, too_long_message};

pub const WEEK_TITLE: Text = t!("Invalid week");
pub const WEEK_MESSAGE: Text = t!("Use a week like 2026-W48.");
/// Most entries one week holds (six meals a day for a week is 42).
pub const ENTRIES_MAX: usize = 100;
pub const SERVINGS_MAX: u32 = 20;
/// Longest free text ("leftovers", "pizza night at Gran's").
pub const TEXT_MAX: usize = NAME_MAX;

pub const SAVE_TITLE: Text = t!("Error saving meal plan");

/// An ISO 8601 week, held as its Monday.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Week(NaiveDate);

impl Week {
    /// Reads "YYYY-Www" (a 'w' is read as 'W'). Week 53 exists only in the years that have it.
    pub fn parse(text: &str) -> Result<Week, Invalid> {
        let bad = || Invalid::new(WEEK_TITLE, WEEK_MESSAGE, "week");
        let t = text.trim().as_bytes();
        let digits = |b: &[u8]| b.iter().all(u8::is_ascii_digit);
        if t.len() != 8
            || !digits(&t[..4])
            || t[4] != b'-'
            || !matches!(t[5], b'W' | b'w')
            || !digits(&t[6..])
        {
            return Err(bad());
        }
        let number = |b: &[u8]| b.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        let (year, week) = (number(&t[..4]) as i32, number(&t[6..]));
        NaiveDate::from_isoywd_opt(year, week, Weekday::Mon)
            .map(Week)
            .ok_or_else(bad)
    }

    /// The week a day belongs to.
    pub fn containing(date: NaiveDate) -> Week {
        let back = Days::new(u64::from(date.weekday().num_days_from_monday()));
        Week(date.checked_sub_days(back).unwrap_or(date))
    }

    /// The week it is now in UTC.
    pub fn current(now: DateTime<Utc>) -> Week {
        Week::containing(now.date_naive())
    }

    pub fn monday(self) -> NaiveDate {
        self.0
    }

    /// Monday to Sunday.
    pub fn days(self) -> Vec<NaiveDate> {
        self.0.iter_days().take(7).collect()
    }

    pub fn contains(self, date: NaiveDate) -> bool {
        Week::containing(date) == self
    }
}

/// "2026-W48".
impl fmt::Display for Week {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.0.iso_week();
        write!(f, "{:04}-W{:02}", w.year(), w.week())
    }
}

impl Serialize for Week {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Week {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        Week::parse(&raw).map_err(|_| serde::de::Error::custom(format!("not a week: `{raw}`")))
    }
}

/// One planned meal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanEntry {
    pub id: MealPlanEntryId,
    pub date: NaiveDate,
    pub meal_type: MealType,
    /// The saved recipe, if it is one (it may have been deleted since).
    #[serde(default)]
    pub recipe: Option<RecipeId>,
    /// The recipe's title when it was planned (still shown after the recipe is deleted), or
    /// the free text.
    pub title: String,
    pub servings: u32,
    /// Who it is for; empty is the whole family.
    #[serde(default)]
    pub children: Vec<ChildId>,
}

impl PlanEntry {
    /// Whether the entry is for this child (an entry for nobody in particular is for all).
    pub fn is_for(&self, child: ChildId) -> bool {
        self.children.is_empty() || self.children.contains(&child)
    }

    /// How much of the recipe the entry needs: planned servings over the recipe's, or the
    /// recipe as written when it does not say how many it serves.
    pub fn factor(&self, recipe_servings: Option<u32>) -> Amount {
        recipe_servings
            .filter(|s| *s > 0)
            .and_then(|s| Amount::new(i64::from(self.servings), i64::from(s)))
            .unwrap_or(Amount::whole(1))
    }

    /// Where the entry sits in the week: by day, then by meal of the day.
    fn place(&self) -> (NaiveDate, usize) {
        let meal = MealType::ALL
            .iter()
            .position(|m| *m == self.meal_type)
            .unwrap_or(MealType::ALL.len());
        (self.date, meal)
    }
}

/// A family's plan for one week.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MealPlan {
    pub family: FamilyId,
    pub week: Week,
    pub entries: Vec<PlanEntry>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    #[serde(default = "first_version")]
    pub version: u64,
}

/// An entry as a save sends it, before checks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EntryDraft {
    /// The entry's id when it is already in the plan; none (or an unknown one) for a new entry.
    pub id: Option<String>,
    pub date: String,
    pub meal_type: String,
    pub recipe_id: Option<String>,
    pub text: Option<String>,
    pub servings: NumberInput,
    pub child_ids: Vec<String>,
}

/// What an entry plans.
#[derive(Debug, Clone, PartialEq)]
pub enum Planned {
    Recipe(RecipeId),
    Text(String),
}

/// A checked entry; its recipe is looked up when it is applied.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryFields {
    pub id: Option<MealPlanEntryId>,
    pub date: NaiveDate,
    pub meal_type: MealType,
    pub planned: Planned,
    /// None: the recipe's servings, or 1 for free text.
    pub servings: Option<u32>,
    pub children: Vec<ChildId>,
}

/// A recipe as a plan entry needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecipeSummary {
    pub title: String,
    pub servings: Option<u32>,
}

impl From<&Recipe> for RecipeSummary {
    fn from(r: &Recipe) -> Self {
        RecipeSummary {
            title: r.content.title.clone(),
            servings: r.content.servings,
        }
    }
}

/// 404 'Recipe not found': an unknown id and another family's answer alike.
pub fn recipe_not_found() -> DomainError {
    DomainError::Missing(Invalid::new(
        t!("Recipe not found"),
        t!("That recipe is not among your saved recipes; it may have been deleted."),
        "recipeId",
    ))
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

impl EntryDraft {
    /// The planned day, when it reads as YYYY-MM-DD.
    pub fn day(&self) -> Option<NaiveDate> {
        NaiveDate::parse_from_str(self.date.trim(), "%Y-%m-%d").ok()
    }

    /// Checks one entry of `week`; `children` are the family's.
    pub fn validate(&self, week: Week, children: &[ChildId]) -> Result<EntryFields, DomainError> {
        let invalid = |message: Text, field: &str| Invalid::new(SAVE_TITLE, message, field);
        let date = self
            .day()
            .ok_or_else(|| invalid(t!("Please choose a day (YYYY-MM-DD)"), "date"))?;
        if !week.contains(date) {
            let days = week.days();
            return Err(invalid(
                t!(
                    "Please choose a day of the week {{week}} ({{first}} to {{last}})",
                    week = week.to_string(),
                    first = days[0],
                    last = days[6]
                ),
                "date",
            )
            .into());
        }
        let meal_type = MealType::parse(&self.meal_type)
            .ok_or_else(|| invalid(t!("Please choose a meal type"), "mealType"))?;
        let planned = self.planned()?;
        let servings = if self.servings.is_blank() {
            None
        } else {
            let n = self
                .servings
                .as_number()
                .filter(|n| n.fract() == 0.0 && (1.0..=f64::from(SERVINGS_MAX)).contains(n))
                .ok_or_else(|| {
                    invalid(
                        t!(
                            "Servings must be a whole number from 1 to {{max}}",
                            max = SERVINGS_MAX
                        ),
                        "servings",
                    )
                })?;
            Some(n as u32)
        };
        let chosen = self.chosen_children(children)?;
        Ok(EntryFields {
            id: self.id.as_deref().and_then(|s| s.parse().ok()),
            date,
            meal_type,
            planned,
            servings,
            children: chosen,
        })
    }

    /// What the entry plans: a saved recipe (parsed, not yet looked up) or free text.
    pub fn planned(&self) -> Result<Planned, DomainError> {
        let invalid = |message: Text, field: &str| Invalid::new(SAVE_TITLE, message, field);
        let text = self
            .text
            .as_deref()
            .map(|t| sanitize_line(&strip_markup(t)))
            .filter(|t| !t.is_empty());
        Ok(match (present(&self.recipe_id), text) {
            (Some(_), Some(_)) => {
                return Err(invalid(
                    t!("Please choose a saved recipe or type a meal, not both"),
                    "text",
                )
                .into());
            }
            (None, None) => {
                return Err(
                    invalid(t!("Please choose a saved recipe or type a meal"), "text").into(),
                );
            }
            // An id that does not parse is as unknown as another family's.
            (Some(id), None) => Planned::Recipe(id.parse().map_err(|_| recipe_not_found())?),
            (None, Some(text)) => {
                if char_len(&text) > TEXT_MAX {
                    return Err(
                        invalid(too_long_message(t!("What's planned"), TEXT_MAX), "text").into(),
                    );
                }
                Planned::Text(text)
            }
        })
    }

    /// The children the entry names, each once; `children` are the family's.
    pub fn chosen_children(&self, children: &[ChildId]) -> Result<Vec<ChildId>, DomainError> {
        let invalid = |message: Text, field: &str| Invalid::new(SAVE_TITLE, message, field);
        let mut chosen = Vec::new();
        for raw in &self.child_ids {
            let id = raw
                .parse::<ChildId>()
                .ok()
                .filter(|id| children.contains(id))
                .ok_or_else(|| invalid(t!("Please choose from your children"), "childIds"))?;
            if !chosen.contains(&id) {
                chosen.push(id);
            }
        }
        Ok(chosen)
    }
}

/// Checks a whole week as a save sends it.
pub fn validate_entries(
    week: Week,
    drafts: &[EntryDraft],
    children: &[ChildId],
) -> Result<Vec<EntryFields>, DomainError> {
    if drafts.len() > ENTRIES_MAX {
        return Err(Invalid::new(
            SAVE_TITLE,
            t!(
                "Please plan at most {{max}} meals a week",
                max = ENTRIES_MAX
            ),
            "entries",
        )
        .into());
    }
    drafts.iter().map(|d| d.validate(week, children)).collect()
}

impl MealPlan {
    /// A week nobody has planned yet (version 0 until it is saved).
    pub fn empty(family: FamilyId, week: Week, now: DateTime<Utc>) -> MealPlan {
        MealPlan {
            family,
            week,
            entries: Vec::new(),
            created_at: now,
            updated_at: now,
            version: 0,
        }
    }

    /// Replaces the week's entries. An entry keeps its id when the plan has it (a new or unknown
    /// id gets a fresh one); a recipe entry takes the recipe's title and, unless given, its
    /// servings (1 to 20). `recipes` are the family's recipes the entries name; a recipe that
    /// is gone is refused, except on an entry that already had it (its title stays).
    pub fn apply(
        &mut self,
        entries: Vec<EntryFields>,
        recipes: &HashMap<RecipeId, RecipeSummary>,
        now: DateTime<Utc>,
    ) -> Result<(), DomainError> {
        let old = std::mem::take(&mut self.entries);
        let mut out: Vec<PlanEntry> = Vec::with_capacity(entries.len());
        for fields in entries {
            let before = fields
                .id
                .and_then(|id| old.iter().find(|e| e.id == id))
                .filter(|e| !out.iter().any(|o| o.id == e.id));
            let (recipe, title, default_servings) = match fields.planned {
                Planned::Text(text) => (None, text, 1),
                Planned::Recipe(id) => match recipes.get(&id) {
                    Some(r) => (
                        Some(id),
                        r.title.clone(),
                        r.servings.unwrap_or(1).clamp(1, SERVINGS_MAX),
                    ),
                    None => match before.filter(|b| b.recipe == Some(id)) {
                        Some(b) => (Some(id), b.title.clone(), b.servings),
                        None => {
                            self.entries = old;
                            return Err(recipe_not_found());
                        }
                    },
                },
            };
            out.push(PlanEntry {
                id: before.map_or_else(MealPlanEntryId::new, |b| b.id),
                date: fields.date,
                meal_type: fields.meal_type,
                recipe,
                title,
                servings: fields.servings.unwrap_or(default_servings),
                children: fields.children,
            });
        }
        self.entries = out;
        self.updated_at = now;
        Ok(())
    }

    /// Another family's week joins this one (a parent who moved in brought their plan): its
    /// entries come after this week's, as many as fit under `ENTRIES_MAX`. Returns how many
    /// did not fit.
    pub fn take_in(&mut self, entries: Vec<PlanEntry>, now: DateTime<Utc>) -> usize {
        let room = ENTRIES_MAX.saturating_sub(self.entries.len());
        let left = entries.len().saturating_sub(room);
        self.entries.extend(entries.into_iter().take(room));
        self.updated_at = now;
        left
    }

    /// The entries by day, then by meal of the day (in the order given within one meal).
    pub fn in_order(&self) -> Vec<&PlanEntry> {
        let mut entries: Vec<&PlanEntry> = self.entries.iter().collect();
        entries.sort_by_key(|e| e.place());
        entries
    }
}

/// What a planned meal means for one child it is for: one of the child's allergies (the
/// allergy guard's words: "Cheese sandwich contains milk (cheese)"), or a choking hazard or
/// age rule at the child's age on the planned day ("quarter the grapes lengthways").
#[derive(Debug, Clone, PartialEq)]
pub struct Concern {
    pub child: ChildId,
    pub child_name: String,
    pub kind: WarningKind,
    pub message: Text,
    /// What to do instead (choking and age rules; none for an allergy).
    pub advice: Option<Text>,
    /// The child's age the rule was checked for ("9 months").
    pub age: Option<Text>,
    /// The food was described as prepared the safe way: advice, not alarm.
    pub prepared: bool,
}

/// A concern about one entry of the week.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    pub entry: MealPlanEntryId,
    pub concern: Concern,
}

/// A week as it is read: its plan (none before the first save) and the warnings of now.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanView {
    pub week: Week,
    pub plan: Option<MealPlan>,
    pub warnings: Vec<Warning>,
}

/// The planned recipes' ingredients, each quantity scaled to its entry's servings, in the
/// order of the week; free text and recipes that are gone are skipped. Returns the
/// `(name, quantity)` pairs and how many recipe entries were used.
pub fn planned_ingredients<'a>(
    plan: &MealPlan,
    recipe_of: impl Fn(RecipeId) -> Option<&'a Recipe>,
) -> (Vec<(String, String)>, usize) {
    let mut out = Vec::new();
    let mut used = 0;
    for entry in plan.in_order() {
        let Some(recipe) = entry.recipe.and_then(&recipe_of) else {
            continue;
        };
        used += 1;
        let factor = entry.factor(recipe.content.servings);
        for i in &recipe.content.ingredients {
            out.push((i.name.clone(), scale(&i.quantity, factor)));
        }
    }
    (out, used)
}

/// The name of a grocery list drafted from a week: 'Meal plan, week of 23 Nov'.
pub fn grocery_list_name(week: Week) -> Text {
    t!(
        "Meal plan, week of {{date}}",
        date = crate::i18n::Arg::DayMonth(week.monday())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::UserId;
    use crate::domain::recipe::tests::content;
    use crate::domain::recipe::{Ingredient, Source};

    fn week(s: &str) -> Week {
        Week::parse(s).unwrap()
    }

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn weeks_parse_and_print_as_iso_8601() {
        let w = week("2026-W48");
        assert_eq!(w.to_string(), "2026-W48");
        assert_eq!(w.monday(), day("2026-11-23"));
        assert_eq!(week(" 2026-w48 "), w);
        let days = w.days();
        assert_eq!(days.len(), 7);
        assert_eq!(days[6], day("2026-11-29"));
        assert_eq!(days[6].weekday(), Weekday::Sun);
        for bad in [
            "",
            "2026",
            "2026-48",
            "2026W48",
            "26-W48",
            "2026-W4",
            "2026-W048",
            "2026-W00",
            "2026-W54",
            "+026-W01",
            "2026-W4x",
            "２０２６-W48",
        ] {
            let err = Week::parse(bad).unwrap_err();
            assert_eq!(
                (err.title, err.message, err.field.as_deref()),
                (WEEK_TITLE, WEEK_MESSAGE, Some("week")),
                "{bad}"
            );
        }
    }

    #[test]
    fn year_boundaries_follow_iso_weeks() {
        // A year has 53 weeks when it starts on a Thursday (or a leap year on a Wednesday):
        // 2020 and 2026 do, 2025 and 2027 do not.
        for short in ["2025-W53", "2027-W53", "2021-W53"] {
            assert!(Week::parse(short).is_err(), "{short}");
        }
        assert_eq!(week("2020-W53").monday(), day("2020-12-28"));
        assert_eq!(week("2026-W53").monday(), day("2026-12-28"));
        assert_eq!(week("2027-W01").monday(), day("2027-01-04"));
        assert_eq!(week("2026-W01").monday(), day("2025-12-29"));
        // 1 January 2027 is the Friday of 2026's last week; 31 December 2024 is in 2025-W01.
        assert_eq!(Week::containing(day("2027-01-01")).to_string(), "2026-W53");
        assert_eq!(Week::containing(day("2024-12-31")).to_string(), "2025-W01");
        assert_eq!(Week::containing(day("2021-01-03")).to_string(), "2020-W53");
        assert!(week("2020-W53").contains(day("2021-01-03")));
        assert!(!week("2020-W53").contains(day("2021-01-04")));
        let now = "2026-11-24T23:59:00Z".parse::<DateTime<Utc>>().unwrap();
        assert_eq!(Week::current(now).to_string(), "2026-W48");
        let json = serde_json::to_string(&week("2020-W53")).unwrap();
        assert_eq!(json, "\"2020-W53\"");
        assert_eq!(
            serde_json::from_str::<Week>(&json).unwrap(),
            week("2020-W53")
        );
    }

    fn draft(date: &str, meal: &str) -> EntryDraft {
        EntryDraft {
            date: date.into(),
            meal_type: meal.into(),
            text: Some("Leftovers".into()),
            ..EntryDraft::default()
        }
    }

    fn invalid(e: DomainError) -> (String, String) {
        match e {
            DomainError::Invalid(i) => (i.message.to_string(), i.field.unwrap_or_default()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn entries_are_checked_with_clear_texts() {
        let w = week("2026-W48");
        let ava = ChildId::new();
        let ok = draft("2026-11-23", "dinner").validate(w, &[ava]).unwrap();
        assert_eq!(ok.meal_type, MealType::Dinner);
        assert_eq!(ok.planned, Planned::Text("Leftovers".into()));
        assert_eq!((ok.servings, ok.children.len()), (None, 0));

        let mut d = draft("2026-11-30", "Lunch");
        let (m, f) = invalid(d.validate(w, &[]).unwrap_err());
        assert_eq!(f, "date");
        assert_eq!(
            m,
            "Please choose a day of the week 2026-W48 (Mon 23 Nov to Sun 29 Nov)"
        );
        d.date = "23/11/2026".into();
        assert_eq!(invalid(d.validate(w, &[]).unwrap_err()).1, "date");
        let mut d = draft("2026-11-23", "Brunch");
        assert_eq!(
            invalid(d.validate(w, &[]).unwrap_err()),
            ("Please choose a meal type".into(), "mealType".into())
        );
        d.meal_type = "Morning Snack".into();
        d.recipe_id = Some(RecipeId::new().to_string());
        assert_eq!(
            invalid(d.validate(w, &[]).unwrap_err()).0,
            "Please choose a saved recipe or type a meal, not both"
        );
        d.recipe_id = None;
        d.text = Some("  <b></b> ".into());
        assert_eq!(
            invalid(d.validate(w, &[]).unwrap_err()),
            (
                "Please choose a saved recipe or type a meal".into(),
                "text".into()
            )
        );
        d.text = Some("<i>Pizza</i>   night".into());
        assert_eq!(
            d.validate(w, &[]).unwrap().planned,
            Planned::Text("Pizza night".into())
        );
        d.text = Some("x".repeat(TEXT_MAX + 1));
        assert_eq!(
            invalid(d.validate(w, &[]).unwrap_err()),
            (
                "What's planned must be 100 characters or less".into(),
                "text".into()
            )
        );
        d.text = Some("é".repeat(TEXT_MAX));
        assert!(d.validate(w, &[]).is_ok(), "100 characters, not bytes");
        for bad in [
            NumberInput::Number(0.0),
            NumberInput::Number(21.0),
            NumberInput::Number(2.5),
            NumberInput::Text("many".into()),
            NumberInput::Other,
        ] {
            d.servings = bad.clone();
            assert_eq!(
                invalid(d.validate(w, &[]).unwrap_err()),
                (
                    "Servings must be a whole number from 1 to 20".into(),
                    "servings".into()
                ),
                "{bad:?}"
            );
        }
        d.servings = NumberInput::Text("4".into());
        assert_eq!(d.validate(w, &[]).unwrap().servings, Some(4));
        d.child_ids = vec![ChildId::new().to_string()];
        assert_eq!(
            invalid(d.validate(w, &[ava]).unwrap_err()),
            ("Please choose from your children".into(), "childIds".into())
        );
        d.child_ids = vec![ava.to_string(), ava.to_string()];
        assert_eq!(d.validate(w, &[ava]).unwrap().children, vec![ava]);
        let mut d = draft("2026-11-23", "Lunch");
        d.text = None;
        d.recipe_id = Some("not-an-id".into());
        assert!(matches!(
            d.validate(w, &[]).unwrap_err(),
            DomainError::Missing(i) if i.title == "Recipe not found"
        ));
        let many = vec![draft("2026-11-23", "Lunch"); ENTRIES_MAX + 1];
        assert_eq!(
            invalid(validate_entries(w, &many, &[]).unwrap_err()),
            (
                "Please plan at most 100 meals a week".into(),
                "entries".into()
            )
        );
        assert_eq!(
            validate_entries(w, &many[..ENTRIES_MAX], &[])
                .unwrap()
                .len(),
            ENTRIES_MAX
        );
    }

    fn fields(planned: Planned, id: Option<MealPlanEntryId>) -> EntryFields {
        EntryFields {
            id,
            date: day("2026-11-24"),
            meal_type: MealType::Dinner,
            planned,
            servings: None,
            children: vec![],
        }
    }

    #[test]
    fn saving_keeps_ids_snapshots_titles_and_defaults_servings() {
        let now = Utc::now();
        let w = week("2026-W48");
        let mut plan = MealPlan::empty(FamilyId::new(), w, now);
        let (pasta, gone) = (RecipeId::new(), RecipeId::new());
        let mut recipes = HashMap::new();
        recipes.insert(
            pasta,
            RecipeSummary {
                title: "Pasta bake".into(),
                servings: Some(4),
            },
        );
        plan.apply(
            vec![
                fields(Planned::Recipe(pasta), None),
                fields(Planned::Text("Leftovers".into()), None),
            ],
            &recipes,
            now,
        )
        .unwrap();
        assert_eq!(plan.entries[0].title, "Pasta bake");
        assert_eq!(plan.entries[0].servings, 4);
        assert_eq!(plan.entries[1].servings, 1);
        let (first, second) = (plan.entries[0].id, plan.entries[1].id);
        // Sent back: ids kept; an unknown id or a repeated one becomes a new entry.
        let mut again = fields(Planned::Recipe(pasta), Some(first));
        again.servings = Some(2);
        plan.apply(
            vec![
                again,
                fields(Planned::Text("Soup".into()), Some(MealPlanEntryId::new())),
                fields(Planned::Text("Soup".into()), Some(first)),
            ],
            &recipes,
            now,
        )
        .unwrap();
        assert_eq!(plan.entries[0].id, first);
        assert_eq!(plan.entries[0].servings, 2);
        assert!(plan.entries[1].id != second && plan.entries[1].id != first);
        assert!(plan.entries[2].id != first);
        // The recipe is deleted: the entry that had it keeps its title; a new one is refused.
        recipes.clear();
        plan.apply(
            vec![fields(Planned::Recipe(pasta), Some(first))],
            &recipes,
            now,
        )
        .unwrap();
        assert_eq!(plan.entries[0].title, "Pasta bake");
        let before = plan.clone();
        let err = plan
            .apply(vec![fields(Planned::Recipe(gone), None)], &recipes, now)
            .unwrap_err();
        assert!(matches!(err, DomainError::Missing(_)));
        assert_eq!(plan, before, "a refused save changes nothing");
    }

    fn recipe(servings: Option<u32>, lines: &[(&str, &str)]) -> Recipe {
        let mut c = content("Dish", &[]);
        c.servings = servings;
        c.ingredients = lines
            .iter()
            .map(|(n, q)| Ingredient {
                name: n.to_string(),
                quantity: q.to_string(),
            })
            .collect();
        Recipe::create(FamilyId::new(), UserId::new(), Source::Own, c, Utc::now())
    }

    #[test]
    fn planned_ingredients_are_scaled_to_the_planned_servings() {
        let now = Utc::now();
        let pasta = recipe(Some(2), &[("Pasta", "200 g"), ("Salt", "a pinch")]);
        let soup = recipe(None, &[("Carrots", "3")]);
        let mut plan = MealPlan::empty(FamilyId::new(), week("2026-W48"), now);
        let entry = |id: RecipeId, servings: u32, date: &str| PlanEntry {
            id: MealPlanEntryId::new(),
            date: day(date),
            meal_type: MealType::Dinner,
            recipe: Some(id),
            title: "x".into(),
            servings,
            children: vec![],
        };
        plan.entries = vec![
            entry(soup.id, 6, "2026-11-25"),
            entry(pasta.id, 4, "2026-11-23"),
            entry(RecipeId::new(), 2, "2026-11-24"),
        ];
        plan.entries.push(PlanEntry {
            recipe: None,
            ..entry(pasta.id, 2, "2026-11-23")
        });
        let all = [&pasta, &soup];
        let (lines, used) =
            planned_ingredients(&plan, |id| all.iter().find(|r| r.id == id).copied());
        assert_eq!(used, 2, "free text and a deleted recipe are skipped");
        assert_eq!(
            lines,
            vec![
                ("Pasta".to_string(), "400 g".to_string()),
                ("Salt".to_string(), "a pinch".to_string()),
                ("Carrots".to_string(), "3".to_string()),
            ],
            "Monday first; a recipe without servings as written"
        );
        assert_eq!(
            entry(pasta.id, 3, "2026-11-23").factor(Some(2)),
            Amount::new(3, 2).unwrap()
        );
        assert_eq!(
            grocery_list_name(week("2026-W48")),
            "Meal plan, week of 23 Nov"
        );
        assert_eq!(
            grocery_list_name(week("2027-W01")),
            "Meal plan, week of 4 Jan"
        );
    }

    #[test]
    fn an_entry_for_nobody_in_particular_is_for_every_child() {
        let (ava, ben) = (ChildId::new(), ChildId::new());
        let mut e = PlanEntry {
            id: MealPlanEntryId::new(),
            date: day("2026-11-23"),
            meal_type: MealType::Lunch,
            recipe: None,
            title: "Soup".into(),
            servings: 1,
            children: vec![],
        };
        assert!(e.is_for(ava) && e.is_for(ben));
        e.children = vec![ava];
        assert!(e.is_for(ava) && !e.is_for(ben));
    }
}
