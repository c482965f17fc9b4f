//! Typed record ids: UUIDv7 (time-ordered), stored as 16 bytes, so keys sort by creation time.

/// Declares an id newtype. Ids are parsed at the edge and never travel as raw strings.
#[macro_export]
macro_rules! typed_id {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(uuid::Uuid);

        impl $name {
            /// A fresh, time-ordered id.
            #[allow(clippy::new_without_default)]
            pub fn new() -> Self {
                Self(uuid::Uuid::now_v7())
            }

            pub fn from_uuid(id: uuid::Uuid) -> Self {
                Self(id)
            }

            pub fn as_uuid(&self) -> uuid::Uuid {
                self.0
            }

            pub fn as_bytes(&self) -> &[u8; 16] {
                self.0.as_bytes()
            }

            pub fn from_bytes(bytes: [u8; 16]) -> Self {
                Self(uuid::Uuid::from_bytes(bytes))
            }

            /// Reads an id from the first 16 bytes of a slice (store keys).
            pub fn from_slice(bytes: &[u8]) -> Option<Self> {
                let bytes: [u8; 16] = bytes.get(..16)?.try_into().ok()?;
                Some(Self::from_bytes(bytes))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = uuid::Error;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                uuid::Uuid::parse_str(s.trim()).map(Self)
            }
        }
    };
}

typed_id!(
    /// A message sent through the public contact form.
    ContactMessageId
);

typed_id!(
    /// An account: a parent (the family owner) or a guest.
    UserId
);

typed_id!(
    /// A family (household): the owner of children, meals and photos. An account made before
    /// households existed has a family id equal to its user id; after that the two are
    /// independent, so never derive one from the other.
    FamilyId
);

typed_id!(
    /// An adult invite to a family (its id; the link carries a separate random token).
    InviteId
);

typed_id!(
    /// A co-parent invited to a family's shared view (its id; the link carries a separate
    /// random token, `co_parent::ShareToken`).
    CoParentId
);

typed_id!(
    /// A persisted background job (cascading deletes, purges).
    JobId
);

typed_id!(
    /// A stored photo (meal photo or avatar).
    MediaId
);

typed_id!(
    /// A child profile, owned by one family.
    ChildId
);

typed_id!(
    /// One meal in the meal log.
    MealId
);

typed_id!(
    /// A saved recipe, owned by one family.
    RecipeId
);

typed_id!(
    /// A grocery list, owned by one family.
    GroceryListId
);

typed_id!(
    /// One item of a grocery list: stable across edits, so a tick names the item, not its place.
    GroceryItemId
);

typed_id!(
    /// One entry of a week's meal plan: stable across saves of the week.
    MealPlanEntryId
);

typed_id!(
    /// A recipe generation job (queued, running or finished; kept for an hour).
    GenerationId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_time_ordered_and_round_trip() {
        let a = ContactMessageId::new();
        let b = ContactMessageId::new();
        assert!(a.as_bytes() < b.as_bytes(), "v7 ids sort by creation");
        assert_eq!(a.to_string().parse::<ContactMessageId>().unwrap(), a);
        assert_eq!(ContactMessageId::from_slice(a.as_bytes()), Some(a));
        assert!("not-an-id".parse::<ContactMessageId>().is_err());
        assert_eq!(ContactMessageId::from_slice(&[1, 2, 3]), None);
    }
}
