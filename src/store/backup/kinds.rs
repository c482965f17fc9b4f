//! The kinds of record an archive holds, each as one `records/<kind>.jsonl.gz` member, and how
//! each is read back: its key, its index entries and what it refers to all come from the record
//! itself, so an archive does not depend on how the store lays out its trees.
//!
//! Sessions, share sessions, reset links, rate limits, recipe generation jobs (kept an hour) and
//! the server's signing secrets are not archived: after a restore everyone signs in again.

use super::super::Record;
use super::super::jobs::Job;
use super::super::media::MediaRecord;
use crate::domain::child::Child;
use crate::domain::co_parent::CoParent;
use crate::domain::contact::ContactMessage;
use crate::domain::family::FamilyInvite;
use crate::domain::family_settings::FamilySettings;
use crate::domain::grocery::GroceryList;
use crate::domain::ids::{FamilyId, MediaId};
use crate::domain::meal::Meal;
use crate::domain::meal_plan::MealPlan;
use crate::domain::recipe::Recipe;
use crate::domain::user::User;

/// One archived kind of record. `Families` (revisions) has its own line shape; the others are
/// stored records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Families,
    Users,
    FamilyInvites,
    FamilySettings,
    Children,
    Meals,
    Media,
    Recipes,
    GroceryLists,
    MealPlans,
    CoParents,
    Jobs,
    ContactMessages,
}

impl Kind {
    /// In archive order: a record comes after the records it needs (a meal after its child),
    /// and photos after the meals that use them (a snapshot leaves out the photos of meals it
    /// leaves out).
    pub const ALL: [Kind; 13] = [
        Kind::Families,
        Kind::Users,
        Kind::FamilyInvites,
        Kind::FamilySettings,
        Kind::Children,
        Kind::Meals,
        Kind::Media,
        Kind::Recipes,
        Kind::GroceryLists,
        Kind::MealPlans,
        Kind::CoParents,
        Kind::Jobs,
        Kind::ContactMessages,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Families => "families",
            Kind::Users => "users",
            Kind::FamilyInvites => "family_invites",
            Kind::FamilySettings => "family_settings",
            Kind::Children => "children",
            Kind::Meals => "meals",
            Kind::Media => "media",
            Kind::Recipes => "recipes",
            Kind::GroceryLists => "grocery_lists",
            Kind::MealPlans => "meal_plans",
            Kind::CoParents => "co_parents",
            Kind::Jobs => "jobs",
            Kind::ContactMessages => "contact_messages",
        }
    }

    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Reads one stored record (version byte, then JSON) of this kind.
    pub(crate) fn read(self, stored: &[u8]) -> Result<Loaded, String> {
        fn decode<R: Record>(stored: &[u8]) -> Result<R, String> {
            R::decode(stored).map_err(|e| e.to_string())
        }
        fn owned(family: FamilyId, id: &[u8; 16]) -> Loaded {
            Loaded {
                key: [family.as_bytes().as_slice(), id].concat(),
                family: Some(family),
                ..Loaded::default()
            }
        }
        Ok(match self {
            Kind::Families => return Err("families are not stored records".into()),
            Kind::Users => {
                let user: User = decode(stored)?;
                // An account is named by its id alone (its family can change).
                Loaded {
                    key: user.id.as_bytes().to_vec(),
                    family: Some(user.family_id),
                    photos: user.avatar.into_iter().collect(),
                    ..Loaded::default()
                }
            }
            Kind::FamilyInvites => {
                let invite: FamilyInvite = decode(stored)?;
                owned(invite.family, invite.id.as_bytes())
            }
            Kind::FamilySettings => {
                let settings: FamilySettings = decode(stored)?;
                // One per family, named by it.
                Loaded {
                    key: settings.family.as_bytes().to_vec(),
                    family: Some(settings.family),
                    ..Loaded::default()
                }
            }
            Kind::Children => {
                let child: Child = decode(stored)?;
                owned(child.family, child.id.as_bytes())
            }
            Kind::Meals => {
                let meal: Meal = decode(stored)?;
                Loaded {
                    photos: meal.photo.into_iter().collect(),
                    requires: vec![(
                        Kind::Children,
                        [meal.family.as_bytes().as_slice(), meal.child_id.as_bytes()].concat(),
                    )],
                    ..owned(meal.family, meal.id.as_bytes())
                }
            }
            Kind::Media => {
                let media: MediaRecord = decode(stored)?;
                Loaded {
                    media: Some((media.family, media.id)),
                    ..owned(media.family, media.id.as_bytes())
                }
            }
            Kind::Recipes => {
                let recipe: Recipe = decode(stored)?;
                // An imported recipe's picture, checked like a meal's photo.
                Loaded {
                    photos: recipe.photo.into_iter().collect(),
                    ..owned(recipe.family, recipe.id.as_bytes())
                }
            }
            Kind::GroceryLists => {
                let list: GroceryList = decode(stored)?;
                owned(list.family, list.id.as_bytes())
            }
            Kind::MealPlans => {
                let plan: MealPlan = decode(stored)?;
                Loaded {
                    key: [
                        plan.family.as_bytes().as_slice(),
                        plan.week.to_string().as_bytes(),
                    ]
                    .concat(),
                    family: Some(plan.family),
                    ..Loaded::default()
                }
            }
            Kind::CoParents => {
                let co_parent: CoParent = decode(stored)?;
                owned(co_parent.family, co_parent.id.as_bytes())
            }
            Kind::Jobs => Loaded::plain(decode::<Job>(stored)?.id.as_bytes().to_vec()),
            Kind::ContactMessages => {
                Loaded::plain(decode::<ContactMessage>(stored)?.id.as_bytes().to_vec())
            }
        })
    }
}

impl Kind {
    /// A stored record of this kind as the JSON of what it means now (older record versions
    /// upgraded): two stores hold the same record when these are equal.
    pub(crate) fn canonical(self, stored: &[u8]) -> Result<Vec<u8>, String> {
        fn json<R: Record>(stored: &[u8]) -> Result<Vec<u8>, String> {
            let record = R::decode(stored).map_err(|e| e.to_string())?;
            serde_json::to_vec(&record).map_err(|e| e.to_string())
        }
        match self {
            Kind::Families => Err("families are not stored records".into()),
            Kind::Users => json::<User>(stored),
            Kind::FamilyInvites => json::<FamilyInvite>(stored),
            Kind::FamilySettings => json::<FamilySettings>(stored),
            Kind::Children => json::<Child>(stored),
            Kind::Meals => json::<Meal>(stored),
            Kind::Media => json::<MediaRecord>(stored),
            Kind::Recipes => json::<Recipe>(stored),
            Kind::GroceryLists => json::<GroceryList>(stored),
            Kind::MealPlans => json::<MealPlan>(stored),
            Kind::CoParents => json::<CoParent>(stored),
            Kind::Jobs => json::<Job>(stored),
            Kind::ContactMessages => json::<ContactMessage>(stored),
        }
    }
}

/// What a record refers to: its key among its kind (family and id), its family, its photos,
/// the records it needs (a meal's child).
#[derive(Debug, Clone, Default)]
pub(crate) struct Loaded {
    pub key: Vec<u8>,
    pub family: Option<FamilyId>,
    pub photos: Vec<MediaId>,
    pub requires: Vec<(Kind, Vec<u8>)>,
    /// A photo record: its family and id (its blobs are archived beside it).
    pub media: Option<(FamilyId, MediaId)>,
}

impl Loaded {
    fn plain(key: Vec<u8>) -> Loaded {
        Loaded {
            key,
            ..Loaded::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(Kind::from_name("sessions"), None);
        let mut names: Vec<_> = Kind::ALL.iter().map(|k| k.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Kind::ALL.len());
    }

    #[test]
    fn a_record_of_another_shape_is_refused() {
        assert!(Kind::Children.read(b"\x01{\"nope\":1}").is_err());
        assert!(Kind::Children.read(b"").is_err());
        assert!(Kind::Families.read(b"\x01{}").is_err());
    }
}
