//! `SerdeJson<T>`: a JSON response documented like poem-openapi's `Json<T>` (same schema), but
//! written straight to bytes with serde. `Json<T>` first builds a `serde_json::Value` tree, which
//! costs microseconds per item on long lists such as the meal log.

use poem::{IntoResponse, Response};
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use poem_openapi::{ApiResponse, payload::Payload};
use serde::Serialize;

const CONTENT_TYPE: &str = "application/json; charset=utf-8";

pub struct SerdeJson<T>(pub T);

impl<T: Type> Payload for SerdeJson<T> {
    const CONTENT_TYPE: &'static str = CONTENT_TYPE;

    fn check_content_type(content_type: &str) -> bool {
        content_type.starts_with("application/json")
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Serialize + Send> IntoResponse for SerdeJson<T> {
    fn into_response(self) -> Response {
        match serde_json::to_vec(&self.0) {
            Ok(body) => Response::builder().content_type(CONTENT_TYPE).body(body),
            Err(e) => {
                tracing::error!(error = %e, "response not serialisable");
                super::ApiError::internal().into_response()
            }
        }
    }
}

impl<T: Type + Serialize + Send> ApiResponse for SerdeJson<T> {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: vec![MetaResponse {
                description: "",
                status: Some(200),
                status_range: None,
                content: vec![MetaMediaType {
                    content_type: CONTENT_TYPE,
                    schema: T::schema_ref(),
                }],
                headers: vec![],
            }],
        }
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

/// Dates as poem-openapi writes them (`to_rfc3339`), so both paths give identical JSON.
pub mod rfc3339 {
    use chrono::{DateTime, Utc};
    use serde::Serializer;

    pub fn serialize<S: Serializer>(date: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&date.to_rfc3339())
    }
}
