//! `/api/recipes/generate` and `/api/recipes/jobs`: recipe generation as a job. Anyone may
//! ask (rate-limited); a job belongs to whoever started it: the signed-in account, or the
//! browser's anonymous job cookie. Here a job is worded (its failure in the spec's texts) and
//! its stream of views (`service::generation::follow`) becomes Server-Sent Events.

use std::time::Duration;

use crate::i18n::Text;

use chrono::{DateTime, Utc};
use futures_util::stream::{BoxStream, StreamExt};
use poem::web::Data;
use poem::web::sse::Event;
use poem::{IntoResponse, Request};
use poem_openapi::param::Path;
use poem_openapi::payload::{EventStream, Json, Payload};
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::client::ClientInfo;
use super::error::ErrorBody;
use super::recipes::RecipeContentDto;
use super::session::{CurrentUser, job_cookie, job_cookie_of, secure_cookies};
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::auth::tokens::JobCookie;
use crate::domain::generation::Failure;
use crate::domain::ids::GenerationId;
use crate::domain::recipe::GenerateFields;
use crate::domain::recipe_guard::Withheld;
use crate::service::generation::{self, JobView, Requester, Stage, Viewer};

const KEEP_ALIVE: Duration = Duration::from_secs(20);
const GENERATE_TITLE: Text = t!("Error generating recipes");

/// What a parent asks the generator for (spec section 7's function body).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct GenerateBody {
    #[oai(default)]
    pub ingredients: Vec<String>,
    #[oai(default)]
    pub dietary_restrictions: Vec<String>,
    #[oai(default)]
    pub allergies: Vec<String>,
    /// 1, 2, 3, 4, 5, 6, 8 or 10 (default 2).
    pub servings: Option<u32>,
    /// easy (default), moderate or hard.
    pub difficulty: Option<String>,
    /// How many recipes, 1 to 5 (default 3).
    pub quantity: Option<u32>,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct JobAccepted {
    pub job_id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum JobState {
    Queued,
    Generating,
    Done,
    Failed,
}

#[derive(Debug, Clone, Object)]
pub struct WithheldDto {
    pub title: String,
    pub reasons: Vec<String>,
}

impl From<Withheld> for WithheldDto {
    fn from(w: Withheld) -> Self {
        WithheldDto {
            title: w.title,
            reasons: w.reasons,
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct JobError {
    pub title: String,
    pub message: String,
    /// The generator could not work at all (the HTTP equivalent is 503).
    pub unavailable: bool,
}

/// A generation job: where it stands, and its recipes when done.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct JobDto {
    pub id: String,
    pub state: JobState,
    /// While queued: how many jobs are ahead of it, counting the one being made (0: next).
    #[oai(nullable)]
    pub position: Option<u32>,
    /// 0 to 100.
    pub progress: u8,
    pub recipes: Vec<RecipeContentDto>,
    /// Recipes that were not shown because they contained an allergen or broke a restriction.
    pub withheld: Vec<WithheldDto>,
    /// Ingredients left out, restrictions that could not be checked.
    pub notes: Vec<String>,
    /// Per recipe, in the order of `recipes`: each of the family's children's choking and age
    /// notes ("For Leo (9 months): quarter the grapes lengthways"); empty for a visitor.
    pub safety_notes: Vec<Vec<String>>,
    #[oai(nullable)]
    pub error: Option<JobError>,
    pub created_at: DateTime<Utc>,
}

impl From<JobView> for JobDto {
    fn from(job: JobView) -> Self {
        let mut dto = JobDto {
            id: job.id.to_string(),
            state: JobState::Queued,
            position: None,
            progress: 0,
            recipes: Vec::new(),
            withheld: Vec::new(),
            notes: Vec::new(),
            safety_notes: Vec::new(),
            error: None,
            created_at: job.created_at,
        };
        match job.stage {
            Stage::Queued { ahead } => dto.position = Some(ahead as u32),
            Stage::Generating { percent } => {
                dto.state = JobState::Generating;
                dto.progress = percent;
            }
            Stage::Done {
                recipes,
                withheld,
                notes,
                safety_notes,
            } => {
                dto.state = JobState::Done;
                dto.progress = 100;
                dto.safety_notes = safety_notes
                    .iter()
                    .map(|notes| notes.iter().map(Text::here).collect())
                    .collect();
                dto.recipes = recipes.into_iter().map(Into::into).collect();
                dto.withheld = withheld.into_iter().map(Into::into).collect();
                dto.notes = notes;
            }
            Stage::Failed { failure, withheld } => {
                let words = failure_body(&failure, withheld.len());
                dto.state = JobState::Failed;
                dto.withheld = withheld.into_iter().map(Into::into).collect();
                dto.error = Some(JobError {
                    title: words.title,
                    message: words.message,
                    unavailable: failure.is_unavailable(),
                });
            }
        }
        dto
    }
}

/// Why no recipes came, in the spec's words (section 8). `withheld`: how many suggestions
/// were left out for an allergen or a restriction.
pub(crate) fn failure_body(failure: &Failure, withheld: usize) -> ErrorBody {
    let message = match failure {
        Failure::ModelMissing { model } => t!(
            "The recipe model {{model}} is not installed on this server. Ask the person who runs \
             Highchair to install it, or switch to the built-in generator.",
            model = model
        ),
        Failure::Unreachable => {
            t!("The recipe model cannot be reached right now. Please try again later.")
        }
        Failure::Timeout { secs } => t!(
            "The recipe model did not finish within {{secs}} seconds. Please try again.",
            secs = *secs
        ),
        Failure::Unusable => {
            t!("We couldn't generate recipes with those ingredients. Please try again.")
        }
        Failure::AllWithheld => t_plural!(
            "No recipes were generated: {{count}} suggestion contained an allergen or broke a \
             dietary restriction.",
            "No recipes were generated: {{count}} suggestions contained an allergen or broke a \
             dietary restriction.",
            withheld
        ),
        Failure::NothingToMake {
            notes,
            all_left_out,
        } => {
            let why = if *all_left_out {
                t!(
                    "No recipes were generated: every ingredient you chose was left out. Please \
                    choose others."
                )
            } else {
                t!(
                    "No recipes were generated: please add a main ingredient such as a vegetable, \
                    a protein, a grain or a fruit."
                )
            };
            // The notes say which ingredients were left out and why (the generator's words).
            if notes.is_empty() {
                why
            } else {
                t!("{{why}} {{notes}}", why = why, notes = notes.join(" "))
            }
        }
        Failure::Interrupted => {
            t!("The server restarted while these recipes were being made. Please try again.")
        }
        Failure::QueueFull => {
            t!("Many recipes are being made right now. Please try again in a few minutes.")
        }
        Failure::Broke => t!("Something went wrong while making these recipes. Please try again."),
    };
    ErrorBody::new(GENERATE_TITLE, message)
}

/// Who is looking, from the session and the job cookie.
fn viewer(user: &CurrentUser, req: &Request) -> Viewer {
    Viewer {
        user: user.0.as_ref().map(|me| me.user.id),
        job_cookie: job_cookie_of(req).map(JobCookie::from_client),
    }
}

#[derive(ApiResponse)]
pub enum GenerateResponse {
    /// Queued: follow it at `/api/recipes/jobs/{jobId}` or its `events` stream.
    #[oai(status = 202)]
    Accepted(
        Json<JobAccepted>,
        /// The anonymous job cookie, for a visitor who is not signed in.
        #[oai(header = "Set-Cookie")]
        Option<String>,
    ),
}

#[derive(ApiResponse)]
pub enum JobEventsResponse {
    /// `text/event-stream`: events `queued`, `generating`, `done` and `failed`, each with the
    /// job as JSON; the stream ends after `done` or `failed`.
    #[oai(status = 200)]
    Stream(JobStream),
}

pub struct JobStream(EventStream<BoxStream<'static, JobDto>>);

impl Payload for JobStream {
    const CONTENT_TYPE: &'static str = "text/event-stream";

    fn schema_ref() -> MetaSchemaRef {
        let names = ["queued", "generating", "done", "failed"];
        super::sse::event_schema(&names, "A JobDto as JSON.", false)
    }

    fn register(registry: &mut Registry) {
        JobDto::register(registry);
    }
}

impl IntoResponse for JobStream {
    fn into_response(self) -> poem::Response {
        self.0.into_response()
    }
}

fn job_event(dto: JobDto) -> Event {
    let name = match dto.state {
        JobState::Queued => "queued",
        JobState::Generating => "generating",
        JobState::Done => "done",
        JobState::Failed => "failed",
    };
    let data = poem_openapi::types::ToJSON::to_json(&dto).unwrap_or_default();
    Event::message(data.to_string()).event_type(name)
}

#[derive(Default)]
pub struct GenerationApi;

#[OpenApi(tag = "ApiTags::Recipes")]
impl GenerationApi {
    /// Queues a recipe generation (anyone may ask; visitors who are not signed in are limited
    /// per address). For a signed-in parent every allergy of their children is honoured too.
    #[oai(
        path = "/recipes/generate",
        method = "post",
        operation_id = "generateRecipes"
    )]
    async fn generate(
        &self,
        app: Data<&App>,
        client: Data<&ClientInfo>,
        user: CurrentUser,
        req: &Request,
        body: Json<GenerateBody>,
    ) -> Result<GenerateResponse, ApiError> {
        let body = body.0;
        let fields = GenerateFields {
            ingredients: body.ingredients,
            dietary_restrictions: body.dietary_restrictions,
            allergies: body.allergies,
            servings: body.servings,
            difficulty: body.difficulty,
            count: body.quantity,
        };
        let (id, set_cookie) = match &user.0 {
            Some(me) => {
                let who = Requester::Member {
                    user: me.user.id,
                    family: me.user.family_id,
                };
                (generation::generate(&app, who, fields).await?, None)
            }
            None => {
                // Sent again with every request, so the cookie lives as long as the newest job.
                let token =
                    job_cookie_of(req).map_or_else(crate::auth::tokens::new_token, str::to_string);
                let (cookie, address) = (JobCookie::from_client(&token), client.key());
                let who = Requester::Anonymous {
                    job_cookie: &cookie,
                    client: &address,
                };
                let id = generation::generate(&app, who, fields).await?;
                (id, Some(job_cookie(&token, secure_cookies(&app, &client))))
            }
        };
        Ok(GenerateResponse::Accepted(
            Json(JobAccepted {
                job_id: id.to_string(),
            }),
            set_cookie,
        ))
    }

    /// A generation job: queued (with its place), generating (with progress), done (with the
    /// recipes) or failed (with the error). Another person's job is not found.
    #[oai(
        path = "/recipes/jobs/:id",
        method = "get",
        operation_id = "getRecipeJob"
    )]
    async fn job(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        req: &Request,
        id: Path<GenerationId>,
    ) -> Result<Json<JobDto>, ApiError> {
        let id = id.0;
        let job = generation::job(&app, &viewer(&user, req), id).await?;
        Ok(Json(job.into()))
    }

    /// The job's progress as Server-Sent Events, ending with `done` or `failed`.
    #[oai(
        path = "/recipes/jobs/:id/events",
        method = "get",
        operation_id = "streamRecipeJob"
    )]
    async fn job_events(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        req: &Request,
        id: Path<GenerationId>,
    ) -> Result<JobEventsResponse, ApiError> {
        let id = id.0;
        let views = generation::follow(&app, &viewer(&user, req), id).await?;
        // The events are made after this request's task: they take its language along.
        let lang = crate::i18n::scope::current();
        Ok(JobEventsResponse::Stream(JobStream(
            EventStream::new(
                views
                    .map(move |v| crate::i18n::scope::within_sync(lang, || JobDto::from(v)))
                    .boxed(),
            )
            .keep_alive(KEEP_ALIVE)
            .to_event(job_event),
        )))
    }
}
