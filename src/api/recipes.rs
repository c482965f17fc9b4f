//! `/api/recipes`: generation jobs (anyone, rate-limited; a job belongs to whoever started it:
//! the signed-in account, or the browser's anonymous job cookie) with their event streams, and
//! the family's saved recipes.

use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::stream::{self, BoxStream, StreamExt};
use poem::web::Data;
use poem::web::sse::Event;
use poem::{IntoResponse, Request};
use poem_openapi::param::{Header, Path};
use poem_openapi::payload::{EventStream, Json, Payload};
use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};

use super::children::Deleted;
use super::client::ClientInfo;
use super::etag::{Cached, accepts_gzip, family_answer, openapi_bytes};
use super::meals::MealDto;
use super::session::{CurrentUser, job_cookie, job_cookie_of, secure_cookies};
use super::{ApiError, ApiTags, path_id};
use crate::app::App;
use crate::domain::ids::{ChildId, GenerationId, RecipeId};
use crate::domain::recipe::{
    self, Cost, GenerateFields, Ingredient, Nutrition, RecipeContent, Source, Substitution,
};
use crate::domain::recipe_guard::Withheld;
use crate::jobs::generation::Live;
use crate::service::recipes::{self, Checked, Requester};
use crate::service::sessions::SignedIn;
use crate::store::generations::{Generation, Owner, State};

const KEEP_ALIVE: Duration = Duration::from_secs(20);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Enum)]
#[oai(rename_all = "lowercase")]
pub enum Difficulty {
    #[default]
    Easy,
    Moderate,
    Hard,
}

impl From<recipe::Difficulty> for Difficulty {
    fn from(d: recipe::Difficulty) -> Self {
        match d {
            recipe::Difficulty::Easy => Difficulty::Easy,
            recipe::Difficulty::Moderate => Difficulty::Moderate,
            recipe::Difficulty::Hard => Difficulty::Hard,
        }
    }
}

impl From<Difficulty> for recipe::Difficulty {
    fn from(d: Difficulty) -> Self {
        match d {
            Difficulty::Easy => recipe::Difficulty::Easy,
            Difficulty::Moderate => recipe::Difficulty::Moderate,
            Difficulty::Hard => recipe::Difficulty::Hard,
        }
    }
}

#[derive(Debug, Clone, Object)]
pub struct IngredientLine {
    pub name: String,
    #[oai(default)]
    pub quantity: String,
}

#[derive(Debug, Clone, Object)]
pub struct SubstitutionDto {
    pub ingredient: String,
    pub alternatives: Vec<String>,
}

/// Per serving: kcal, and grams of protein, carbohydrate and fat.
#[derive(Debug, Clone, Object)]
pub struct NutritionDto {
    pub calories: f64,
    pub protein: f64,
    pub carbs: f64,
    pub fat: f64,
}

#[derive(Debug, Clone, Object)]
pub struct CostDto {
    pub amount: f64,
    /// ISO code, e.g. GBP.
    pub currency: String,
}

/// A recipe's content: what a generator suggests and what a family saves or types in.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct RecipeContentDto {
    #[oai(default)]
    pub title: String,
    #[oai(default)]
    pub description: String,
    #[oai(default)]
    pub ingredients: Vec<IngredientLine>,
    /// The steps, in order.
    #[oai(default)]
    pub instructions: Vec<String>,
    /// Minutes (0 when unknown).
    #[oai(default)]
    pub preparation_time: u32,
    #[oai(nullable)]
    pub cooking_time: Option<u32>,
    #[oai(default)]
    pub difficulty: Difficulty,
    #[oai(nullable)]
    pub servings: Option<u32>,
    #[oai(default)]
    pub dietary_restrictions: Vec<String>,
    #[oai(default)]
    pub allergies: Vec<String>,
    #[oai(nullable)]
    pub estimated_cost: Option<CostDto>,
    /// Per serving.
    #[oai(nullable)]
    pub nutritional_info: Option<NutritionDto>,
    #[oai(default)]
    pub tips: Vec<String>,
    #[oai(default)]
    pub substitutions: Vec<SubstitutionDto>,
}

impl From<RecipeContent> for RecipeContentDto {
    fn from(c: RecipeContent) -> Self {
        RecipeContentDto {
            title: c.title,
            description: c.description,
            ingredients: c
                .ingredients
                .into_iter()
                .map(|i| IngredientLine {
                    name: i.name,
                    quantity: i.quantity,
                })
                .collect(),
            instructions: c.instructions,
            preparation_time: c.preparation_time,
            cooking_time: c.cooking_time,
            difficulty: c.difficulty.into(),
            servings: c.servings,
            dietary_restrictions: c.dietary_restrictions,
            allergies: c.allergies,
            estimated_cost: c.estimated_cost.map(|c| CostDto {
                amount: c.amount,
                currency: c.currency,
            }),
            nutritional_info: c.nutritional_info.map(|n| NutritionDto {
                calories: n.calories,
                protein: n.protein,
                carbs: n.carbs,
                fat: n.fat,
            }),
            tips: c.tips,
            substitutions: c
                .substitutions
                .into_iter()
                .map(|s| SubstitutionDto {
                    ingredient: s.ingredient,
                    alternatives: s.alternatives,
                })
                .collect(),
        }
    }
}

impl From<RecipeContentDto> for RecipeContent {
    fn from(c: RecipeContentDto) -> Self {
        RecipeContent {
            title: c.title,
            description: c.description,
            ingredients: c
                .ingredients
                .into_iter()
                .map(|i| Ingredient {
                    name: i.name,
                    quantity: i.quantity,
                })
                .collect(),
            instructions: c.instructions,
            preparation_time: c.preparation_time,
            cooking_time: c.cooking_time,
            difficulty: c.difficulty.into(),
            servings: c.servings,
            dietary_restrictions: c.dietary_restrictions,
            allergies: c.allergies,
            estimated_cost: c.estimated_cost.map(|c| Cost {
                amount: c.amount,
                currency: c.currency.trim().to_uppercase(),
            }),
            nutritional_info: c.nutritional_info.map(|n| Nutrition {
                calories: n.calories,
                protein: n.protein,
                carbs: n.carbs,
                fat: n.fat,
            }),
            tips: c.tips,
            substitutions: c
                .substitutions
                .into_iter()
                .map(|s| Substitution {
                    ingredient: s.ingredient,
                    alternatives: s.alternatives,
                })
                .collect(),
        }
    }
}

/// Where a saved recipe came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Enum)]
#[oai(rename_all = "lowercase")]
pub enum RecipeSource {
    /// Suggested by the generator.
    #[default]
    Generated,
    /// The family's own dish, typed in.
    Own,
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RecipeDto {
    pub id: String,
    pub source: RecipeSource,
    #[oai(flatten)]
    pub content: RecipeContentDto,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub version: u64,
    /// What in it one of the family's children is allergic to ("Peanut butter contains
    /// peanuts (peanut)"); empty when nothing.
    pub allergy_warnings: Vec<String>,
}

impl From<Checked> for RecipeDto {
    fn from(c: Checked) -> Self {
        let r = c.recipe;
        RecipeDto {
            allergy_warnings: c.warnings,
            id: r.id.to_string(),
            source: match r.source {
                Source::Generated => RecipeSource::Generated,
                Source::Own => RecipeSource::Own,
            },
            content: r.content.into(),
            created_at: r.created_at,
            updated_at: r.updated_at,
            version: r.version,
        }
    }
}

/// A recipe to save: a generated one as it was shown, or the family's own.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SaveRecipeRequest {
    #[oai(default)]
    pub source: RecipeSource,
    #[oai(flatten)]
    pub content: RecipeContentDto,
}

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
    #[oai(nullable)]
    pub error: Option<JobError>,
    pub created_at: DateTime<Utc>,
}

fn job_dto(job: Generation, live: Option<Live>) -> JobDto {
    let mut dto = JobDto {
        id: job.id.to_string(),
        state: JobState::Queued,
        position: None,
        progress: 0,
        recipes: Vec::new(),
        withheld: Vec::new(),
        notes: Vec::new(),
        error: None,
        created_at: job.created_at,
    };
    match (job.state, live) {
        (
            State::Done {
                recipes,
                withheld,
                notes,
            },
            _,
        ) => {
            dto.state = JobState::Done;
            dto.progress = 100;
            dto.recipes = recipes.into_iter().map(Into::into).collect();
            dto.withheld = withheld.into_iter().map(Into::into).collect();
            dto.notes = notes;
        }
        (
            State::Failed {
                title,
                message,
                unavailable,
                withheld,
            },
            _,
        ) => {
            dto.state = JobState::Failed;
            dto.withheld = withheld.into_iter().map(Into::into).collect();
            dto.error = Some(JobError {
                title,
                message,
                unavailable,
            });
        }
        (_, Some(Live::Generating { percent })) => {
            dto.state = JobState::Generating;
            dto.progress = percent;
        }
        (State::Running, _) => dto.state = JobState::Generating,
        (_, Some(Live::Queued { ahead })) => dto.position = Some(ahead as u32),
        (State::Queued, _) => dto.position = Some(0),
    }
    dto
}

/// The anonymous job cookie's owner key: a hash, so the store never holds the cookie.
fn cookie_hash(token: &str) -> String {
    hex::encode(crate::auth::tokens::token_hash(token))
}

/// Who may see a job from this request.
fn owners(user: &Option<SignedIn>, req: &Request) -> Vec<Owner> {
    let mut out = Vec::new();
    if let Some(me) = user {
        out.push(Owner::User(me.user.id));
    }
    if let Some(token) = job_cookie_of(req) {
        out.push(Owner::Anonymous(cookie_hash(token)));
    }
    out
}

async fn find_job(app: &App, owners: &[Owner], id: &str) -> Result<Generation, ApiError> {
    let id = path_id::<GenerationId>(id)?;
    for owner in owners {
        if let Ok(job) = recipes::job(app, owner, id).await {
            return Ok(job);
        }
    }
    Err(crate::domain::DomainError::NotFound.into())
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
pub enum RecipeCreated {
    #[oai(status = 201)]
    Created(Json<RecipeDto>),
}

#[derive(ApiResponse)]
pub enum MealLogged {
    #[oai(status = 201)]
    Created(Json<MealDto>),
}

#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LogMealRequest {
    #[oai(default)]
    pub child_id: String,
    #[oai(default)]
    pub meal_type: String,
    /// RFC 3339; empty or missing means now.
    pub eaten_at: Option<String>,
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
        let event = MetaSchema {
            enum_items: names.iter().map(|n| serde_json::json!(n)).collect(),
            ..MetaSchema::new("string")
        };
        let data = MetaSchema {
            description: Some("A JobDto as JSON."),
            ..MetaSchema::new("string")
        };
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            required: vec!["data"],
            properties: vec![
                ("event", MetaSchemaRef::Inline(Box::new(event))),
                ("data", MetaSchemaRef::Inline(Box::new(data))),
            ],
            ..MetaSchema::new("object")
        }))
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

/// The stream's state: the job's watch until it finishes, then one last event from the store.
enum Follow {
    Watching {
        app: App,
        job: Box<Generation>,
        rx: tokio::sync::watch::Receiver<Live>,
        first: bool,
    },
    Final(Box<JobDto>),
    Ended,
}

async fn follow(state: Follow) -> Option<(JobDto, Follow)> {
    match state {
        Follow::Ended => None,
        Follow::Final(dto) => Some((*dto, Follow::Ended)),
        Follow::Watching {
            app,
            job,
            mut rx,
            first,
        } => {
            if !first && rx.changed().await.is_err() {
                // The lane dropped the job's channel: it has finished.
                return finished(&app, &job).await;
            }
            let live = *rx.borrow_and_update();
            if live == Live::Finished {
                return finished(&app, &job).await;
            }
            let dto = job_dto((*job).clone(), Some(live));
            Some((
                dto,
                Follow::Watching {
                    app,
                    job,
                    rx,
                    first: false,
                },
            ))
        }
    }
}

async fn finished(app: &App, job: &Generation) -> Option<(JobDto, Follow)> {
    let stored = app.store().generations.get(job.id).await.ok().flatten()?;
    Some((final_dto(stored), Follow::Ended))
}

/// A job the lane no longer follows. If its stored state is not final (the lane broke off
/// before it could store one), it is reported as failed, so no stream waits for ever.
fn final_dto(job: Generation) -> JobDto {
    if job.state.is_finished() {
        return job_dto(job, None);
    }
    let mut job = job;
    job.state = State::Failed {
        title: "Error generating recipes".into(),
        message: "Something went wrong while making these recipes. Please try again.".into(),
        unavailable: false,
        withheld: Vec::new(),
    };
    job_dto(job, None)
}

#[derive(Default)]
pub struct RecipesApi;

#[OpenApi(tag = "ApiTags::Recipes")]
impl RecipesApi {
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
        let (who, set_cookie) = match &user.0 {
            Some(me) => (
                Requester::Member {
                    user: me.user.id,
                    family: me.user.family_id,
                },
                None,
            ),
            None => {
                // Sent again with every request, so the cookie lives as long as the newest job.
                let token =
                    job_cookie_of(req).map_or_else(crate::auth::tokens::new_token, str::to_string);
                let cookie = job_cookie(&token, secure_cookies(&app, &client));
                (
                    Requester::Anonymous {
                        cookie_hash: cookie_hash(&token),
                        ip: client.ip_key(),
                    },
                    Some(cookie),
                )
            }
        };
        let id = recipes::generate(&app, who, fields).await?;
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
        id: Path<String>,
    ) -> Result<Json<JobDto>, ApiError> {
        let job = find_job(&app, &owners(&user.0, req), &id).await?;
        let live = app.generation().watch(job.id).map(|rx| *rx.borrow());
        Ok(Json(job_dto(job, live)))
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
        id: Path<String>,
    ) -> Result<JobEventsResponse, ApiError> {
        let job = find_job(&app, &owners(&user.0, req), &id).await?;
        let start = match app.generation().watch(job.id) {
            Some(rx) => Follow::Watching {
                app: app.clone(),
                job: Box::new(job),
                rx,
                first: true,
            },
            // Finished (maybe just now, after it was read above): the stored result.
            None => {
                let latest = app.store().generations.get(job.id).await?.unwrap_or(job);
                Follow::Final(Box::new(final_dto(latest)))
            }
        };
        let events = stream::unfold(start, follow).boxed();
        Ok(JobEventsResponse::Stream(JobStream(
            EventStream::new(events)
                .keep_alive(KEEP_ALIVE)
                .to_event(job_event),
        )))
    }

    /// The family's saved recipes, newest first. The ETag follows the family's revision:
    /// `If-None-Match` with it answers 304 until something changes.
    #[oai(path = "/recipes", method = "get", operation_id = "listRecipes")]
    async fn list(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        req: &poem::Request,
        #[oai(name = "If-None-Match")] if_none_match: Header<Option<String>>,
    ) -> Result<Cached<Vec<RecipeDto>>, ApiError> {
        let me = user.require_to_view("view recipes")?;
        let family = me.user.family_id;
        family_answer(
            &app,
            family,
            "recipes",
            if_none_match.0.as_deref(),
            accepts_gzip(req),
            async || {
                let list = recipes::list(&app, family).await?;
                let dtos: Vec<RecipeDto> = list.into_iter().map(RecipeDto::from).collect();
                Ok(openapi_bytes(&dtos))
            },
        )
        .await
    }

    /// Saves a generated recipe, or the family's own dish (title, ingredients and steps
    /// required).
    #[oai(path = "/recipes", method = "post", operation_id = "saveRecipe")]
    async fn save(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        body: Json<SaveRecipeRequest>,
    ) -> Result<RecipeCreated, ApiError> {
        let me = user.require_to_save("save recipes")?;
        let source = match body.0.source {
            RecipeSource::Generated => Source::Generated,
            RecipeSource::Own => Source::Own,
        };
        let saved = recipes::save(
            &app,
            me.user.family_id,
            me.user.id,
            source,
            body.0.content.into(),
        )
        .await?;
        Ok(RecipeCreated::Created(Json(saved.into())))
    }

    #[oai(path = "/recipes/:id", method = "get", operation_id = "getRecipe")]
    async fn get(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<String>,
    ) -> Result<Json<RecipeDto>, ApiError> {
        let me = user.require_to_view("view recipes")?;
        let found = recipes::get(&app, me.user.family_id, path_id::<RecipeId>(&id)?).await?;
        Ok(Json(found.into()))
    }

    #[oai(
        path = "/recipes/:id",
        method = "delete",
        operation_id = "deleteRecipe"
    )]
    async fn delete(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<String>,
    ) -> Result<Deleted, ApiError> {
        let me = user.require_to_save("delete recipes")?;
        recipes::delete(&app, me.user.family_id, path_id::<RecipeId>(&id)?).await?;
        Ok(Deleted::Done)
    }

    /// Logs the recipe as a child's meal: its ingredients become the foods. Foods that match
    /// the child's allergies are saved as exposures, as in the meal log.
    #[oai(
        path = "/recipes/:id/log-meal",
        method = "post",
        operation_id = "logRecipeMeal"
    )]
    async fn log_meal(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        id: Path<String>,
        body: Json<LogMealRequest>,
    ) -> Result<MealLogged, ApiError> {
        let me = user.require_to_save("save meals")?;
        let recipe = path_id::<RecipeId>(&id)?;
        let child = body.0.child_id.trim().parse::<ChildId>().map_err(|_| {
            crate::domain::Invalid::new(
                "Error saving meal",
                "Please choose one of your children",
                "childId",
            )
        })?;
        let meal = recipes::log_meal(
            &app,
            me.user.family_id,
            recipe,
            child,
            body.0.meal_type,
            body.0.eaten_at,
        )
        .await?;
        Ok(MealLogged::Created(Json(meal.into())))
    }
}
