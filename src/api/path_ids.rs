//! Record ids as path parameters: a handler receives the typed id, parsed by poem-openapi
//! before it runs. One that does not parse fails as poem-openapi's `ParsePathError`, which
//! `error.rs` answers 404: a malformed id is as unknown as another family's.

use std::borrow::Cow;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromParameter, ParseResult, Type};

use crate::domain::ids::{
    ChildId, CoParentId, GenerationId, GroceryItemId, GroceryListId, InviteId, MealId, MediaId,
    RecipeId, UserId,
};

macro_rules! path_ids {
    ($($id:ty),* $(,)?) => {$(
        impl Type for $id {
            const IS_REQUIRED: bool = true;
            type RawValueType = Self;
            type RawElementValueType = Self;

            fn name() -> Cow<'static, str> {
                "string_uuid".into()
            }

            fn schema_ref() -> MetaSchemaRef {
                MetaSchemaRef::Inline(Box::new(MetaSchema::new_with_format("string", "uuid")))
            }

            fn as_raw_value(&self) -> Option<&Self> {
                Some(self)
            }

            fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
                Box::new(std::iter::once(self))
            }
        }

        impl ParseFromParameter for $id {
            fn parse_from_parameter(value: &str) -> ParseResult<Self> {
                value.parse().map_err(ParseError::custom)
            }
        }
    )*};
}

path_ids!(
    ChildId,
    CoParentId,
    GenerationId,
    GroceryItemId,
    GroceryListId,
    InviteId,
    MealId,
    MediaId,
    RecipeId,
    UserId,
);
