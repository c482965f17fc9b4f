//! `GET /api/health`: is the server up, and can it read its store?

use poem::web::Data;
use poem_openapi::payload::Json;
use poem_openapi::{ApiResponse, Object, OpenApi};

use super::ApiTags;
use crate::app::App;
use crate::service::health;

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct Health {
    /// `ok`, or `degraded` when the store cannot be read.
    pub status: String,
    pub version: String,
    /// `ok` or `error`.
    pub store: String,
    /// The configured recipe generator: `builtin` or `ollama`.
    pub generator: String,
    /// `ok`, or `unavailable` when the generator cannot make recipes (Ollama unreachable, or
    /// its model not installed); `generatorMessage` says which.
    pub generator_status: String,
    #[oai(nullable)]
    pub generator_message: Option<String>,
    /// `ok`, or `low` when the data directory's disk has less free space than
    /// `min_free_disk_mb` (photo uploads are refused; status is `degraded`).
    pub disk: String,
    /// `ok` (the last automatic or requested backup succeeded), `failed` (the last attempt
    /// failed: status is `degraded`; the server's log says why), `none` (none written since
    /// start yet) or `off` (`backup.interval_hours = 0` and none requested).
    pub backup: String,
    /// When the last good backup was taken, since the server started.
    #[oai(nullable)]
    pub last_backup_at: Option<chrono::DateTime<chrono::Utc>>,
    /// The folder in the data directory where the upgrade to the SQLite store kept the
    /// earlier release's files (`sled-before-<date>`), until the admin removes it.
    #[oai(nullable)]
    pub previous_store: Option<String>,
}

#[derive(ApiResponse)]
pub enum HealthResponse {
    /// The server works (`status` says `degraded` when the disk is low).
    #[oai(status = 200)]
    Ok(Json<Health>),
    /// The server runs but cannot read its store.
    #[oai(status = 503)]
    Degraded(Json<Health>),
}

#[derive(Default)]
pub struct HealthApi;

#[OpenApi(tag = "ApiTags::Site")]
impl HealthApi {
    /// Server status, for monitoring and the test harness.
    #[oai(path = "/health", method = "get", operation_id = "getHealth")]
    async fn health(&self, app: Data<&App>) -> HealthResponse {
        let h = health::check(&app).await;
        let (generator_status, generator_message) = match &h.generator_status {
            crate::generator::Status::Ok => ("ok", None),
            // What is wrong, not where: the address and errors stay in the server's log.
            crate::generator::Status::Unavailable(e) => ("unavailable", Some(e.public().into())),
        };
        let health = Health {
            status: if h.is_ok() { "ok" } else { "degraded" }.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            store: if h.store_ok { "ok" } else { "error" }.into(),
            generator: h.generator.clone(),
            generator_status: generator_status.into(),
            generator_message,
            disk: if h.disk_low { "low" } else { "ok" }.into(),
            backup: match h.backups {
                health::Backups::Ok => "ok",
                health::Backups::Failed => "failed",
                health::Backups::Off => "off",
                health::Backups::None => "none",
            }
            .into(),
            last_backup_at: h.last_backup_at,
            previous_store: h.previous_store.clone(),
        };
        if h.store_ok {
            HealthResponse::Ok(Json(health))
        } else {
            HealthResponse::Degraded(Json(health))
        }
    }
}
