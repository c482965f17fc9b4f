//! The only place where an error becomes an HTTP status and a `{title, message, field}` body.

use poem::http::StatusCode;
use poem::{IntoResponse, Response};
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, Union};

use crate::domain::error::human_duration;
use crate::domain::{DomainError, Invalid};
use crate::i18n::Text;
use crate::service::{AppError, Stale};

/// Every error the API returns has this shape; `title` and `message` are the spec's toast texts,
/// in the request's language.
#[derive(Debug, Clone, Object, serde::Serialize, serde::Deserialize)]
pub struct ErrorBody {
    pub title: String,
    pub message: String,
    /// The title in English, the same in every language: for a client that acts on a kind of
    /// error ("Invalid PIN", "Access blocked") rather than only showing it.
    pub code: String,
    /// The request field the error is about, when there is one.
    #[oai(nullable)]
    pub field: Option<String>,
}

impl ErrorBody {
    /// Worded in the language of the request being answered.
    pub fn new(title: Text, message: Text) -> Self {
        Self {
            code: title.key().to_string(),
            title: title.here(),
            message: message.here(),
            field: None,
        }
    }
}

/// A 409: the usual error fields and, for a stale update, the current record.
#[derive(Debug, Object)]
pub struct ConflictBody {
    pub title: String,
    pub message: String,
    /// As `ErrorBody::code`.
    pub code: String,
    #[oai(nullable)]
    pub field: Option<String>,
    #[oai(nullable)]
    pub current: Option<Box<Current>>,
}

/// The record as it is now, after someone else changed it.
#[derive(Debug, Union)]
#[oai(one_of)]
pub enum Current {
    Child(super::children::ChildDto),
    Meal(super::meals::MealDto),
    Profile(super::profile::Profile),
    GroceryList(super::grocery::GroceryListDto),
    MealPlan(super::meal_plan::MealPlanDto),
    FamilySettings(super::family::FamilySettingsDto),
    Recipe(super::recipes::RecipeDto),
}

#[derive(Debug, ApiResponse)]
pub enum ApiError {
    /// The request is malformed or a field is invalid.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Not signed in, or the session has ended.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// Refused (for example a request from another site).
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// Unknown, or not yours.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Someone else changed it first (`current` is the record as it is now), or it exists.
    #[oai(status = 409)]
    Conflict(Json<ConflictBody>),
    /// The link has expired.
    #[oai(status = 410)]
    Gone(Json<ErrorBody>),
    /// The body or upload is too large.
    #[oai(status = 413)]
    TooLarge(Json<ErrorBody>),
    /// Not a supported image.
    #[oai(status = 415)]
    Unsupported(Json<ErrorBody>),
    /// Too many attempts; `Retry-After` says how many seconds to wait.
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorBody>, #[oai(header = "Retry-After")] u64),
    /// Something failed on the server; nothing was saved.
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    /// A needed service (such as the recipe model) is unavailable.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
    /// The family's storage quota or the server's disk is full.
    #[oai(status = 507)]
    StorageFull(Json<ErrorBody>),
}

impl ApiError {
    pub fn not_found() -> Self {
        ApiError::NotFound(Json(ErrorBody::new(
            t!("Not found"),
            t!("It may have been removed, or the link is wrong."),
        )))
    }

    pub fn internal() -> Self {
        ApiError::Internal(Json(ErrorBody::new(
            t!("Something went wrong"),
            t!("The server could not finish that. Nothing was changed; please try again."),
        )))
    }

    pub fn too_many(retry_after: std::time::Duration) -> Self {
        let secs = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
        ApiError::TooManyRequests(
            Json(ErrorBody::new(
                t!("Too many attempts"),
                t!(
                    "Please try again after {{duration}}",
                    duration = human_duration(retry_after)
                ),
            )),
            secs.max(1),
        )
    }
}

impl From<Invalid> for ApiError {
    fn from(err: Invalid) -> Self {
        ApiError::BadRequest(Json(ErrorBody {
            code: err.title.key().to_string(),
            title: err.title.here(),
            message: err.message.here(),
            field: err.field,
        }))
    }
}

impl From<DomainError> for ApiError {
    fn from(err: DomainError) -> Self {
        let body = |title: Text, message: Text| Json(ErrorBody::new(title, message));
        match err {
            DomainError::Invalid(invalid) => invalid.into(),
            DomainError::NotFound => ApiError::not_found(),
            DomainError::Missing(what) => ApiError::NotFound(Json(ErrorBody {
                code: what.title.key().to_string(),
                title: what.title.here(),
                message: what.message.here(),
                field: what.field,
            })),
            DomainError::NotSignedIn { title, message } => {
                ApiError::Unauthorized(body(title, message))
            }
            DomainError::NotAllowed { title, message } => ApiError::Forbidden(body(title, message)),
            DomainError::Conflict { title, message } => ApiError::Conflict(Json(ConflictBody {
                code: title.key().to_string(),
                title: title.here(),
                message: message.here(),
                field: None,
                current: None,
            })),
            DomainError::TooManyAttempts { retry_after } => ApiError::too_many(retry_after),
            DomainError::Blocked {
                title,
                message,
                retry_after,
            } => ApiError::TooManyRequests(body(title, message), retry_after.as_secs().max(1)),
            DomainError::OverLimit { title, message } => ApiError::TooLarge(body(title, message)),
            DomainError::NotReadable { title, message } => {
                ApiError::Unsupported(body(title, message))
            }
            DomainError::Unavailable { title, message } => {
                ApiError::Unavailable(body(title, message))
            }
            // Only a generator that cannot work at all refuses a request; a job's failure
            // is part of the job.
            DomainError::Generation(failure) => {
                ApiError::Unavailable(Json(super::generation::failure_body(&failure, 0)))
            }
            DomainError::OutOfSpace { title, message } => {
                ApiError::StorageFull(body(title, message))
            }
            DomainError::Expired { title, message } => ApiError::Gone(body(title, message)),
        }
    }
}

impl From<AppError> for ApiError {
    fn from(err: AppError) -> Self {
        match err {
            AppError::Domain(e) => e.into(),
            AppError::Stale(current) => stale(*current),
            AppError::Store(e) => {
                // Logged here once; the client gets a generic message with no internals.
                tracing::error!(error = %e, "store operation failed");
                ApiError::internal()
            }
        }
    }
}

/// 409 'Update conflict' with the record as it is now; nothing was changed.
fn stale(current: Stale) -> ApiError {
    // Whole sentences, one per record: translators may need each worded its own way.
    let (message, current) = match current {
        Stale::Child(c) => (
            t!(
                "This child's profile was changed elsewhere while you were editing. The latest \
                version is shown; your changes were not saved."
            ),
            Current::Child(c.into()),
        ),
        Stale::Meal(m) => (
            t!(
                "This meal was changed elsewhere while you were editing. The latest version is \
                shown; your changes were not saved."
            ),
            Current::Meal(m.into()),
        ),
        Stale::Profile(u) => (
            t!(
                "This profile was changed elsewhere while you were editing. The latest version \
                is shown; your changes were not saved."
            ),
            Current::Profile((&u).into()),
        ),
        Stale::GroceryList(l) => (
            t!(
                "This list was changed elsewhere while you were editing. The latest version is \
                shown; your changes were not saved."
            ),
            Current::GroceryList((&*l).into()),
        ),
        Stale::MealPlan(view) => (
            t!(
                "This meal plan was changed elsewhere while you were editing. The latest version \
                is shown; your changes were not saved."
            ),
            Current::MealPlan((&*view).into()),
        ),
        Stale::FamilySettings(s) => (
            t!(
                "Your family's settings were changed elsewhere while you were editing. The \
                latest version is shown; your changes were not saved."
            ),
            Current::FamilySettings((&s).into()),
        ),
        Stale::Recipe(r) => (
            t!(
                "This recipe was changed elsewhere while you were editing. The latest version \
                is shown; your changes were not saved."
            ),
            Current::Recipe((*r).into()),
        ),
    };
    let title = t!("Update conflict");
    ApiError::Conflict(Json(ConflictBody {
        code: title.key().to_string(),
        title: title.here(),
        message: message.here(),
        field: Some("version".into()),
        current: Some(Box::new(current)),
    }))
}

/// A JSON error response outside poem-openapi (middleware, fallbacks).
pub fn error_response(status: StatusCode, title: Text, message: Text) -> Response {
    json_error(status, &ErrorBody::new(title, message))
}

fn json_error(status: StatusCode, body: &ErrorBody) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .body(serde_json::to_vec(body).unwrap_or_default())
}

/// Turns any error poem or poem-openapi raised under `/api` into the standard JSON body.
/// Errors that already carry one of our responses pass through unchanged.
pub async fn api_error_response(err: poem::Error) -> Response {
    if err.is_from_response() {
        return err.into_response();
    }
    let status = err.status();
    use poem_openapi::error::{
        ContentTypeError, ParseMultipartError, ParseParamError, ParsePathError,
        ParseRequestPayloadError,
    };
    let (title, message, field) = if let Some(e) = err.downcast_ref::<ParseRequestPayloadError>() {
        (
            t!("Invalid request"),
            describe_payload_error(&e.reason),
            None,
        )
    } else if let Some(e) = err.downcast_ref::<ParseParamError>() {
        (
            t!("Invalid request"),
            t!("The parameter `{{name}}` is not valid.", name = e.name),
            Some(e.name.to_string()),
        )
    } else if err.is::<ParsePathError>() {
        return ApiError::not_found().into_response();
    } else if let Some(e) = err.downcast_ref::<ParseMultipartError>() {
        (
            t!("Invalid request"),
            t!(
                "The upload could not be read: {{reason}}",
                reason = &e.reason
            ),
            None,
        )
    } else if err.is::<ContentTypeError>() {
        (
            t!("Unsupported content type"),
            t!(
                "This endpoint does not accept that Content-Type (JSON for data, \
                multipart/form-data for photos)."
            ),
            None,
        )
    } else {
        match status {
            StatusCode::NOT_FOUND => (t!("Not found"), t!("There is no such API endpoint."), None),
            StatusCode::METHOD_NOT_ALLOWED => (
                t!("Method not allowed"),
                t!("This endpoint does not accept that method."),
                None,
            ),
            StatusCode::PAYLOAD_TOO_LARGE => (
                t!("Request too large"),
                t!("The request body is larger than this server accepts."),
                None,
            ),
            s if s.is_client_error() => (
                t!("Invalid request"),
                t!("The request could not be understood."),
                None,
            ),
            _ => {
                tracing::error!(error = %err, "request failed");
                return ApiError::internal().into_response();
            }
        }
    };
    let mut body = ErrorBody::new(title, message);
    body.field = field;
    let status = if status.is_client_error() {
        status
    } else {
        StatusCode::BAD_REQUEST
    };
    json_error(status, &body)
}

/// Makes poem-openapi's payload errors readable. Request DTOs use lenient field types and the
/// domain validates values, so what reaches here is a body that is not JSON or has a wrong type.
/// The reason is the parser's own words (English), named as they are.
fn describe_payload_error(reason: &str) -> Text {
    let reason = reason.trim_end_matches('.');
    if reason.contains(" at line ") && reason.contains(" column ") {
        return t!(
            "The request body is not valid JSON ({{reason}}).",
            reason = reason
        );
    }
    if reason.contains("Expected input type") || reason.contains("expects an input value") {
        return t!(
            "The request body has a value of the wrong type ({{reason}}).",
            reason = reason
        );
    }
    t!(
        "The request body is not valid ({{reason}}).",
        reason = reason
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_errors_say_what_is_wrong() {
        let msg = describe_payload_error(
            "Expected input type \"string\", found [1]. (occurred while parsing \"ContactRequest\")",
        );
        assert!(
            msg.to_string()
                .starts_with("The request body has a value of the wrong type"),
            "{msg}"
        );
        let msg = describe_payload_error("expected value at line 1 column 2");
        assert!(
            msg.to_string()
                .starts_with("The request body is not valid JSON")
        );
    }

    #[test]
    fn too_many_rounds_up_and_says_when() {
        match ApiError::too_many(std::time::Duration::from_millis(1500)) {
            ApiError::TooManyRequests(Json(body), secs) => {
                assert_eq!(secs, 2);
                assert_eq!(body.title, "Too many attempts");
                assert_eq!(body.message, "Please try again after 2 seconds");
            }
            other => panic!("{other:?}"),
        }
    }
}
