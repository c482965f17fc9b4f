//! Server-Sent Events as the OpenAPI document describes them: one event's shape (how OpenAPI
//! 3.0 tools read a `text/event-stream` schema), where poem-openapi's `EventStream` documents
//! an array.

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::Type;

/// One event: its name (one of `names`), the JSON in `data` (described by `data`), and with
/// `ids` the `id` and `retry` fields a resumable stream sends.
pub fn event_schema(names: &[&str], data: &'static str, ids: bool) -> MetaSchemaRef {
    let event = MetaSchema {
        enum_items: names.iter().map(|n| serde_json::json!(n)).collect(),
        ..MetaSchema::new("string")
    };
    let data = MetaSchema {
        description: Some(data),
        ..MetaSchema::new("string")
    };
    let mut properties = vec![("event", MetaSchemaRef::Inline(Box::new(event)))];
    if ids {
        properties.push(("id", String::schema_ref()));
        properties.push(("retry", u64::schema_ref()));
    }
    properties.push(("data", MetaSchemaRef::Inline(Box::new(data))));
    MetaSchemaRef::Inline(Box::new(MetaSchema {
        required: vec!["data"],
        properties,
        ..MetaSchema::new("object")
    }))
}
