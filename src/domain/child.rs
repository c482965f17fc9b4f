//! Child profiles (spec sections 3, 5 and 9).

use crate::i18n::Text;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::change::first_version;
use super::error::Invalid;
use super::ids::{ChildId, FamilyId};
use super::number::NumberInput;
use super::tags;
use super::text::{NAME_MAX, char_len, natural_cmp, sanitize_line, too_long_message};

pub const AGE_MAX: u8 = 18;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Child {
    pub id: ChildId,
    /// Stored as `owner` before households existed.
    #[serde(alias = "owner")]
    pub family: FamilyId,
    #[serde(default = "first_version")]
    pub version: u64,
    pub name: String,
    #[serde(default)]
    pub age: Option<u8>,
    #[serde(default)]
    pub dietary_restrictions: Vec<String>,
    #[serde(default)]
    pub allergies: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// "YYYY-MM", when the parent gave it: babies' ages are shown in months.
    #[serde(default)]
    pub birth_month: Option<String>,
}

/// What the child form sends, before validation.
#[derive(Debug, Clone, Default)]
pub struct ChildDraft {
    pub name: String,
    /// A number, a numeric string, or empty / null for no age.
    pub age: NumberInput,
    pub dietary_restrictions: Vec<String>,
    pub allergies: Vec<String>,
    /// "YYYY-MM", or empty.
    pub birth_month: Option<String>,
}

/// The validated fields of a child.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildFields {
    pub name: String,
    pub age: Option<u8>,
    pub dietary_restrictions: Vec<String>,
    pub allergies: Vec<String>,
    pub birth_month: Option<String>,
}

pub const SAVE_TITLE: Text = t!("Error saving child profile");
pub const UPDATE_TITLE: Text = t!("Error updating child profile");

impl ChildDraft {
    /// `title` is the toast title of the operation (saving or updating).
    /// `today` bounds the birth month (not in the future, at most 18 years back).
    pub fn validate(self, title: &Text, today: NaiveDate) -> Result<ChildFields, Invalid> {
        let name = sanitize_line(&self.name);
        if name.is_empty() {
            return Err(Invalid::new(
                t!("Name is required"),
                t!("Please enter the child's name"),
                "name",
            ));
        }
        if char_len(&name) > NAME_MAX {
            return Err(Invalid::new(
                title,
                too_long_message(t!("Name"), NAME_MAX),
                "name",
            ));
        }
        let age = parse_age(&self.age).map_err(|()| {
            Invalid::new(title, t!("Age must be a whole number from 0 to 18"), "age")
        })?;
        let birth_month = parse_birth_month(self.birth_month.as_deref(), today).map_err(|()| {
            Invalid::new(
                title,
                t!("Birth month must be a month in the last 18 years, like 2025-03"),
                "birthMonth",
            )
        })?;
        Ok(ChildFields {
            name,
            age,
            birth_month,
            dietary_restrictions: tags::clean(
                &self.dietary_restrictions,
                title,
                "dietaryRestrictions",
            )?,
            allergies: tags::clean(&self.allergies, title, "allergies")?,
        })
    }
}

/// An optional "YYYY-MM" from 18 years ago up to this month, normalised.
fn parse_birth_month(value: Option<&str>, today: NaiveDate) -> Result<Option<String>, ()> {
    let Some(text) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let first = NaiveDate::parse_from_str(&format!("{text}-01"), "%Y-%m-%d").map_err(|_| ())?;
    let this_month = today.with_day(1).ok_or(())?;
    let oldest = this_month
        .with_year(this_month.year() - i32::from(AGE_MAX) - 1)
        .ok_or(())?;
    if first > this_month || first <= oldest {
        return Err(());
    }
    Ok(Some(first.format("%Y-%m").to_string()))
}

/// Whole months from a "YYYY-MM" birth month to `today` (0 in the month of birth).
pub fn months_old(birth_month: &str, today: NaiveDate) -> Option<u32> {
    let born = NaiveDate::parse_from_str(&format!("{birth_month}-01"), "%Y-%m-%d").ok()?;
    let months = (today.year() - born.year()) * 12 + today.month() as i32 - born.month() as i32;
    u32::try_from(months).ok()
}

/// An optional age from 0 to 18.
fn parse_age(value: &NumberInput) -> Result<Option<u8>, ()> {
    if value.is_blank() {
        return Ok(None);
    }
    let number = value.as_number().ok_or(())?;
    if number.fract() == 0.0 && (0.0..=f64::from(AGE_MAX)).contains(&number) {
        Ok(Some(number as u8))
    } else {
        Err(())
    }
}

impl Child {
    pub fn create(family: FamilyId, fields: ChildFields, now: DateTime<Utc>) -> Child {
        Child {
            id: ChildId::new(),
            family,
            version: first_version(),
            name: fields.name,
            age: fields.age,
            dietary_restrictions: fields.dietary_restrictions,
            allergies: fields.allergies,
            created_at: now,
            updated_at: now,
            birth_month: fields.birth_month,
        }
    }

    pub fn apply(&mut self, fields: ChildFields, now: DateTime<Utc>) {
        self.name = fields.name;
        self.age = fields.age;
        self.dietary_restrictions = fields.dietary_restrictions;
        self.allergies = fields.allergies;
        self.birth_month = fields.birth_month;
        self.updated_at = now;
    }
}

/// Children are listed by name (spec section 7), ignoring case and with numbers in order:
/// a guest's "Child 2" before "Child 10".
pub fn sort_by_name(children: &mut [Child]) {
    children.sort_by(|a, b| natural_cmp(&a.name, &b.name).then(a.id.cmp(&b.id)));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, 23).unwrap()
    }

    #[test]
    fn birth_months_are_checked_and_give_an_age_in_months() {
        let with = |m: &str| ChildDraft {
            birth_month: Some(m.into()),
            ..draft("Baby", None)
        };
        let ok = with(" 2026-02 ").validate(&SAVE_TITLE, day()).unwrap();
        assert_eq!(ok.birth_month.as_deref(), Some("2026-02"));
        assert_eq!(months_old("2026-02", day()), Some(9));
        assert_eq!(months_old("2026-11", day()), Some(0));
        for bad in ["2026-12", "2007-11", "2026-13", "Feb 2026", "2026"] {
            let e = with(bad).validate(&SAVE_TITLE, day()).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("birthMonth"), "{bad}");
        }
        assert!(with("2007-12").validate(&SAVE_TITLE, day()).is_ok());
        assert_eq!(
            draft("Baby", None)
                .validate(&SAVE_TITLE, day())
                .unwrap()
                .birth_month,
            None
        );
    }

    fn draft(name: &str, age: Option<f64>) -> ChildDraft {
        ChildDraft {
            name: name.into(),
            age: age.map_or(NumberInput::Absent, NumberInput::Number),
            dietary_restrictions: vec!["Vegetarian".into(), " vegetarian ".into()],
            allergies: vec!["Peanuts".into(), "".into(), "Milk".into()],
            birth_month: None,
        }
    }

    #[test]
    fn valid_child_is_cleaned() {
        let f = draft("  Emma  Rose ", Some(4.0))
            .validate(&SAVE_TITLE, day())
            .unwrap();
        assert_eq!(f.name, "Emma Rose");
        assert_eq!(f.age, Some(4));
        assert_eq!(f.dietary_restrictions, ["Vegetarian"]);
        assert_eq!(f.allergies, ["Peanuts", "Milk"]);
        assert_eq!(
            draft("Baby", None)
                .validate(&SAVE_TITLE, day())
                .unwrap()
                .age,
            None
        );
        assert_eq!(
            draft("Newborn", Some(0.0))
                .validate(&SAVE_TITLE, day())
                .unwrap()
                .age,
            Some(0)
        );
        assert_eq!(
            draft("Teen", Some(18.0))
                .validate(&SAVE_TITLE, day())
                .unwrap()
                .age,
            Some(18)
        );
    }

    #[test]
    fn spec_messages() {
        let e = draft("  ", None).validate(&SAVE_TITLE, day()).unwrap_err();
        assert_eq!(
            (e.title.to_string().as_str(), e.message.to_string().as_str()),
            ("Name is required", "Please enter the child's name")
        );
        for bad in [
            NumberInput::Number(19.0),
            NumberInput::Number(-1.0),
            NumberInput::Number(2.5),
            NumberInput::Text("seven".into()),
        ] {
            let e = ChildDraft {
                age: bad,
                ..draft("Emma", None)
            }
            .validate(&UPDATE_TITLE, day())
            .unwrap_err();
            assert_eq!(e.title, UPDATE_TITLE);
            assert_eq!(e.field.as_deref(), Some("age"));
        }
        let e = draft(&"n".repeat(101), None)
            .validate(&SAVE_TITLE, day())
            .unwrap_err();
        assert_eq!(e.message, "Name must be 100 characters or less");
    }

    #[test]
    fn age_accepts_numbers_numeric_text_and_blank() {
        assert_eq!(parse_age(&NumberInput::Text("7".into())), Ok(Some(7)));
        assert_eq!(parse_age(&NumberInput::Text("".into())), Ok(None));
        assert_eq!(parse_age(&NumberInput::Absent), Ok(None));
        assert_eq!(parse_age(&NumberInput::Text("seven".into())), Err(()));
        assert_eq!(parse_age(&NumberInput::Other), Err(()));
    }

    #[test]
    fn sorted_by_name_ignoring_case() {
        let now = Utc::now();
        let owner = FamilyId::new();
        let mk = |n: &str| {
            Child::create(
                owner,
                draft(n, None).validate(&SAVE_TITLE, day()).unwrap(),
                now,
            )
        };
        let mut list = vec![mk("noah"), mk("Emma"), mk("ava")];
        sort_by_name(&mut list);
        let names: Vec<_> = list.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["ava", "Emma", "noah"]);
        // Issue 26: a guest's ten children came as Child 1, Child 10, Child 2.
        let mut list: Vec<Child> = [10, 2, 1, 9, 3]
            .iter()
            .map(|n| mk(&format!("Child {n}")))
            .collect();
        sort_by_name(&mut list);
        let names: Vec<_> = list.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            ["Child 1", "Child 2", "Child 3", "Child 9", "Child 10"]
        );
    }
}
