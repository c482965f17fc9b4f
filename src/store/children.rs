//! Child profiles (repository: `sqlite::children`).

use super::Record;
use crate::domain::child::Child;

pub use super::sqlite::children::Children;

impl Record for Child {
    const VERSION: u8 = 1;
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::child::ChildFields;
    use crate::domain::ids::FamilyId;

    pub fn child(family: FamilyId, name: &str) -> Child {
        Child::create(
            family,
            ChildFields {
                name: name.into(),
                age: Some(3),
                dietary_restrictions: vec![],
                allergies: vec!["Peanuts".into()],
                birth_month: None,
            },
            chrono::Utc::now(),
        )
    }
}
