//! Recipes: the catalogue, generation jobs (queued on the generation lane, owned by whoever
//! started them), and the family's saved recipes.

use std::time::{Duration, Instant};

use chrono::Utc;

use super::{AppError, AppResult, Services};
use crate::domain::DomainError;
use crate::domain::ids::{ChildId, FamilyId, GenerationId, RecipeId, UserId};
use crate::domain::meal::{Meal, MealDraft};
use crate::domain::recipe::{GenerateFields, GenerateRequest, Recipe, RecipeContent, Source};
use crate::jobs::generation::{Live, SubmitError};
use crate::recipes::{GenerateError, Status};
use crate::store::WriteError;
use crate::store::generations::{Generation, Owner, State};

/// Unfinished generation jobs one owner may have at once.
pub const OWNER_JOBS_MAX: usize = 3;
/// A job and its result are kept this long.
pub const JOB_TTL: chrono::Duration = chrono::Duration::hours(1);
/// How long a generator status check is reused.
const STATUS_FOR: Duration = Duration::from_secs(15);

const GENERATE_TITLE: &str = "Error generating recipes";

/// Who asks: a signed-in account (with its family), or an anonymous browser.
pub enum Requester {
    Member { user: UserId, family: FamilyId },
    Anonymous { cookie_hash: String, ip: String },
}

impl Requester {
    fn owner(&self) -> Owner {
        match self {
            Requester::Member { user, .. } => Owner::User(*user),
            Requester::Anonymous { cookie_hash, .. } => Owner::Anonymous(cookie_hash.clone()),
        }
    }
}

/// Whether the generator can work now; checked at most every 15 seconds.
pub async fn generator_status(app: &Services) -> Status {
    if let Some((at, status)) = app.generator_status.lock().await.as_ref()
        && at.elapsed() < STATUS_FOR
    {
        return status.clone();
    }
    let status = app.generation.generator().status().await;
    *app.generator_status.lock().await = Some((Instant::now(), status.clone()));
    status
}

/// 503 with what is wrong and what to do.
fn unavailable(e: &GenerateError) -> DomainError {
    let message = match e {
        GenerateError::ModelMissing { model } => format!(
            "The recipe model {model} is not installed on this server. Ask the person who runs Highchair to install it, or switch to the built-in generator."
        ),
        _ => "The recipe model cannot be reached right now. Please try again later.".into(),
    };
    DomainError::Unavailable {
        title: GENERATE_TITLE.into(),
        message,
    }
}

/// Checks the request and queues it. Anonymous generation is limited per client IP, a
/// family's per family; each owner may have three jobs waiting or running.
pub async fn generate(
    app: &Services,
    who: Requester,
    fields: GenerateFields,
) -> AppResult<GenerationId> {
    let request = GenerateRequest::new(fields)?;
    if let Status::Unavailable(e) = generator_status(app).await {
        return Err(unavailable(&e).into());
    }
    let owner = who.owner();
    if app.generation.unfinished_of(&owner) >= OWNER_JOBS_MAX {
        return Err(DomainError::TooManyAttempts {
            retry_after: Duration::from_secs(30),
        }
        .into());
    }
    let limited = match &who {
        Requester::Member { family, .. } => app.limits.recipes_family.check(&family.to_string()),
        Requester::Anonymous { ip, .. } => app.limits.recipes_ip.check(ip),
    };
    if let Err(retry_after) = limited {
        return Err(DomainError::TooManyAttempts { retry_after }.into());
    }
    let now = Utc::now();
    let job = Generation {
        id: GenerationId::new(),
        owner,
        family: match who {
            Requester::Member { family, .. } => Some(family),
            Requester::Anonymous { .. } => None,
        },
        request,
        state: State::Queued,
        attempts: 0,
        created_at: now,
        updated_at: now,
    };
    match app.generation.submit(&job).await {
        Ok(()) => Ok(job.id),
        Err(SubmitError::Full) => Err(DomainError::Unavailable {
            title: GENERATE_TITLE.into(),
            message: "Many recipes are being made right now. Please try again in a few minutes."
                .into(),
        }
        .into()),
        Err(SubmitError::Store(e)) => Err(e.into()),
    }
}

/// A job, if `owner` started it and it has not expired; anything else is not found.
pub fn job(app: &Services, owner: &Owner, id: GenerationId) -> AppResult<Generation> {
    let job = app
        .store
        .generations
        .get(id)?
        .filter(|j| &j.owner == owner && j.created_at > Utc::now() - JOB_TTL)
        .ok_or(DomainError::NotFound)?;
    Ok(job)
}

/// The live state of an owner's unfinished job, for its event stream.
pub fn watch(
    app: &Services,
    owner: &Owner,
    id: GenerationId,
) -> AppResult<Option<tokio::sync::watch::Receiver<Live>>> {
    job(app, owner, id)?;
    Ok(app.generation.watch(id))
}

/// The family's saved recipes, newest first.
pub fn list(app: &Services, family: FamilyId) -> AppResult<Vec<Recipe>> {
    Ok(app.store.recipes.list(family)?)
}

pub fn get(app: &Services, family: FamilyId, id: RecipeId) -> AppResult<Recipe> {
    app.store
        .recipes
        .get(family, id)?
        .ok_or_else(|| DomainError::NotFound.into())
}

/// Saves a generated recipe or a family's own dish.
pub async fn save(
    app: &Services,
    family: FamilyId,
    user: UserId,
    source: Source,
    content: RecipeContent,
) -> AppResult<Recipe> {
    let content = content.validate()?;
    let recipe = Recipe::create(family, user, source, content, Utc::now());
    app.store
        .recipes
        .insert(&recipe)
        .await
        .map_err(|e| match e {
            WriteError::Rule(e) => e.into(),
            WriteError::Store(e) => e.into(),
            // A new recipe has no older copy, parent or photo to miss.
            other => AppError::Store(crate::store::StoreError::Corrupt(format!("{other:?}"))),
        })
}

pub async fn delete(app: &Services, family: FamilyId, id: RecipeId) -> AppResult<()> {
    if app.store.recipes.delete(family, id).await? {
        Ok(())
    } else {
        Err(DomainError::NotFound.into())
    }
}

/// Logs a saved recipe as a child's meal: its ingredients become the foods (the meal log's
/// allergy check flags any exposure, as for a meal typed in).
pub async fn log_meal(
    app: &Services,
    family: FamilyId,
    id: RecipeId,
    child: ChildId,
    meal_type: String,
    eaten_at: Option<String>,
) -> AppResult<Meal> {
    let recipe = get(app, family, id)?;
    let foods = recipe
        .content
        .ingredients
        .iter()
        .map(|i| i.name.clone())
        .take(crate::domain::tags::TAGS_MAX)
        .collect();
    let draft = MealDraft {
        child_id: child.to_string(),
        meal_type,
        foods,
        notes: Some(format!("From the recipe {}", recipe.content.title)),
        meal_date: eaten_at,
        ..MealDraft::default()
    };
    super::meals::create(app, family, draft).await
}
