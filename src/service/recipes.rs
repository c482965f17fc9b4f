//! Recipes: the catalogue, generation jobs (queued on the generation lane, owned by whoever
//! started them), and the family's saved recipes.

use std::time::{Duration, Instant};

use chrono::Utc;

use super::{AppError, AppResult, Services};
use crate::domain::DomainError;
use crate::domain::ids::{ChildId, FamilyId, GenerationId, RecipeId, UserId};
use crate::domain::meal::{Meal, MealDraft};
use crate::domain::recipe::{
    GenerateFields, GenerateRequest, Recipe, RecipeContent, Source, request_rules,
};
use crate::domain::recipe_guard::Guard;
use crate::jobs::generation::{Live, SubmitError, guard_for};
use crate::recipes::catalogue::Catalogue;
use crate::recipes::{GenerateError, Status, screen};
use crate::store::WriteError;
use crate::store::generations::{Generation, Owner, State};

/// Unfinished generation jobs one owner may have at once.
pub const OWNER_JOBS_MAX: usize = 3;
/// A finished job and its result are kept this long (a waiting job does not expire).
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
    // A request that would find no room is refused before it costs a rate-limit token.
    if !app.generation.has_room(&owner) {
        return Err(queue_full().into());
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
    match app.generation.submit(&job, OWNER_JOBS_MAX).await {
        Ok(()) => Ok(job.id),
        Err(SubmitError::Full) => Err(queue_full().into()),
        // Three of this person's requests are already waiting or being made.
        Err(SubmitError::OwnerBusy) => Err(DomainError::TooManyAttempts {
            retry_after: Duration::from_secs(30),
        }
        .into()),
        Err(SubmitError::Store(e)) => Err(e.into()),
    }
}

fn queue_full() -> DomainError {
    DomainError::Unavailable {
        title: GENERATE_TITLE.into(),
        message: "Many recipes are being made right now. Please try again in a few minutes.".into(),
    }
}

/// A job, if `owner` started it and it has not expired; anything else is not found.
pub async fn job(app: &Services, owner: &Owner, id: GenerationId) -> AppResult<Generation> {
    let job = app
        .store
        .generations
        .get(id)
        .await?
        .filter(|j| {
            &j.owner == owner && !(j.state.is_finished() && j.updated_at < Utc::now() - JOB_TTL)
        })
        .ok_or(DomainError::NotFound)?;
    Ok(job)
}

/// The live state of an owner's unfinished job, for its event stream.
pub async fn watch(
    app: &Services,
    owner: &Owner,
    id: GenerationId,
) -> AppResult<Option<tokio::sync::watch::Receiver<Live>>> {
    job(app, owner, id).await?;
    Ok(app.generation.watch(id))
}

/// A saved recipe with what it contains that one of the family's children is allergic to
/// (a recipe saved before an allergy was added, or the family's own dish).
pub struct Checked {
    pub recipe: Recipe,
    pub warnings: Vec<String>,
}

/// The guard of every allergy of the family's children.
async fn children_guard(app: &Services, family: FamilyId) -> AppResult<Guard> {
    let allergies: Vec<String> = app
        .store
        .children
        .list(family)
        .await?
        .into_iter()
        .flat_map(|c| c.allergies)
        .collect();
    Ok(Guard::new(&allergies, &[]))
}

/// The catalogue's ingredients a request with these allergies and restrictions would leave out
/// (with the allergies of a member's children), each with why in a parent's words: the
/// ingredient picker marks them before anything is asked.
pub async fn left_out_ingredients(
    app: &Services,
    family: Option<FamilyId>,
    allergies: &[String],
    restrictions: &[String],
) -> AppResult<Vec<(String, String)>> {
    let (allergies, restrictions) = request_rules(allergies, restrictions)?;
    let guard = guard_for(&app.store, family, &allergies, &restrictions).await?;
    if guard.is_empty() {
        return Ok(Vec::new());
    }
    Ok(Catalogue::get()
        .items()
        .filter_map(|i| {
            let why = guard.left_out(&i.name, &i.allergens())?;
            Some((i.name.clone(), why))
        })
        .collect())
}

/// What in a recipe breaks the guard's allergies ("Butter contains milk (butter)"): the words,
/// and the catalogue's allergen tags. Empty when nothing does.
pub(crate) fn allergy_reasons(guard: &Guard, content: &RecipeContent) -> Vec<String> {
    if guard.is_empty() {
        return Vec::new();
    }
    let (_, withheld) = screen(guard, vec![content.clone()]);
    withheld.into_iter().flat_map(|w| w.reasons).collect()
}

fn check(guard: &Guard, recipe: Recipe) -> Checked {
    let warnings = allergy_reasons(guard, &recipe.content);
    Checked { recipe, warnings }
}

/// The family's saved recipes, newest first, each checked against the children's allergies.
pub async fn list(app: &Services, family: FamilyId) -> AppResult<Vec<Checked>> {
    let guard = children_guard(app, family).await?;
    Ok(app
        .store
        .recipes
        .list(family)
        .await?
        .into_iter()
        .map(|r| check(&guard, r))
        .collect())
}

async fn find(app: &Services, family: FamilyId, id: RecipeId) -> AppResult<Recipe> {
    app.store
        .recipes
        .get(family, id)
        .await?
        .ok_or_else(|| DomainError::NotFound.into())
}

pub async fn get(app: &Services, family: FamilyId, id: RecipeId) -> AppResult<Checked> {
    let recipe = find(app, family, id).await?;
    Ok(check(&children_guard(app, family).await?, recipe))
}

/// Saves a generated recipe or a family's own dish.
pub async fn save(
    app: &Services,
    family: FamilyId,
    user: UserId,
    source: Source,
    content: RecipeContent,
) -> AppResult<Checked> {
    let content = content.validate()?;
    let recipe = Recipe::create(family, user, source, content, Utc::now());
    let saved = app
        .store
        .recipes
        .insert(&recipe)
        .await
        .map_err(|e| match e {
            WriteError::Rule(e) => e.into(),
            WriteError::Store(e) => e.into(),
            // A new recipe has no older copy, parent or photo to miss.
            other => AppError::Store(crate::store::StoreError::Corrupt(format!("{other:?}"))),
        })?;
    Ok(check(&children_guard(app, family).await?, saved))
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
    let recipe = find(app, family, id).await?;
    let foods = recipe
        .content
        .ingredients
        .iter()
        .map(|i| i.name.chars().take(crate::domain::tags::TAG_MAX).collect())
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
