//! The kinds of record an archive holds, each as one `records/<kind>.jsonl.gz` member, and how
//! each is read back: its key, its index entries and what it refers to all come from the record
//! itself, so an archive does not depend on how the store lays out its trees.
//!
//! Sessions, share sessions, reset links, rate limits, recipe generation jobs (kept an hour) and
//! the server's signing secrets are not archived: after a restore everyone signs in again.

use super::super::Record;
use super::super::jobs::Job;
use super::super::media::MediaRecord;
use super::super::write::{Entity, TreeId};
use crate::domain::child::Child;
use crate::domain::co_parent::CoParent;
use crate::domain::contact::ContactMessage;
use crate::domain::family::FamilyInvite;
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
    pub const ALL: [Kind; 12] = [
        Kind::Families,
        Kind::Users,
        Kind::FamilyInvites,
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

    /// The tree the kind's records live in (`None`: contact messages, kept outside the
    /// write primitive in their own tree).
    pub(crate) fn tree(self) -> Option<TreeId> {
        Some(match self {
            Kind::Families => TreeId::Families,
            Kind::Users => TreeId::Users,
            Kind::FamilyInvites => TreeId::FamilyInvites,
            Kind::Children => TreeId::Children,
            Kind::Meals => TreeId::Meals,
            Kind::Media => TreeId::Media,
            Kind::Recipes => TreeId::Recipes,
            Kind::GroceryLists => TreeId::GroceryLists,
            Kind::MealPlans => TreeId::MealPlans,
            Kind::CoParents => TreeId::CoParents,
            Kind::Jobs => TreeId::Jobs,
            Kind::ContactMessages => return None,
        })
    }

    /// Reads one stored record (version byte, then JSON) of this kind.
    pub(crate) fn read(self, stored: &[u8]) -> Result<Loaded, String> {
        match self {
            Kind::Families => Err("families are not stored records".into()),
            Kind::Users => entity::<User>(stored),
            Kind::FamilyInvites => entity::<FamilyInvite>(stored),
            Kind::Children => entity::<Child>(stored),
            Kind::Meals => entity::<Meal>(stored),
            Kind::Media => {
                let mut loaded = entity::<MediaRecord>(stored)?;
                let media = MediaRecord::decode(stored).map_err(|e| e.to_string())?;
                loaded.media = Some((media.family, media.id));
                Ok(loaded)
            }
            Kind::Recipes => entity::<Recipe>(stored),
            Kind::GroceryLists => entity::<GroceryList>(stored),
            Kind::MealPlans => entity::<MealPlan>(stored),
            Kind::CoParents => entity::<CoParent>(stored),
            Kind::Jobs => {
                let job = Job::decode(stored).map_err(|e| e.to_string())?;
                Ok(Loaded::plain(job.id.as_bytes().to_vec()))
            }
            Kind::ContactMessages => {
                let message = ContactMessage::decode(stored).map_err(|e| e.to_string())?;
                Ok(Loaded::plain(message.id.as_bytes().to_vec()))
            }
        }
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

/// What a record means for the store: where it goes and what goes with it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Loaded {
    pub key: Vec<u8>,
    pub index: Vec<(TreeId, Vec<u8>, Vec<u8>)>,
    pub family: Option<FamilyId>,
    pub photos: Vec<MediaId>,
    pub requires: Vec<(TreeId, Vec<u8>)>,
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

fn entity<R: Entity>(stored: &[u8]) -> Result<Loaded, String> {
    let record = R::decode(stored).map_err(|e| e.to_string())?;
    Ok(Loaded {
        key: record.key(),
        index: record.index(),
        family: Some(record.family()),
        photos: record.photos(),
        requires: record.requires(),
        media: None,
    })
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
