//! Recipes from anywhere (issue 31): a web page, pasted HTML or text, or another Highchair's
//! export, read into drafts a parent edits before saving, each checked against the children's
//! allergies and ages as a generated recipe is. Nothing is saved here; `recipes::save` keeps
//! the one chosen, with its picture fetched once into the family's photos.

use super::recipes::{Family, allergy_reasons, family_of, safety_notes};
use super::{AppResult, Services};
use crate::domain::DomainError;
use crate::domain::error::Invalid;
use crate::domain::recipe::RecipeContent;
use crate::domain::user::User;
use crate::i18n::{Text, scope};
use crate::recipe_import::fetch::{self, FetchError, Limits};
use crate::recipe_import::{self, Draft};

/// Imports a family may start in an hour (each may fetch a page, and a picture when saved).
pub const IMPORTS_PER_HOUR: u32 = 60;
/// The most a page, pasted HTML or text may be.
pub const PAGE_MAX_BYTES: usize = 5 << 20;

const TITLE: Text = t!("Error importing recipe");

/// What the parent gave: a page's address alone (the server fetches it), or a page's HTML or
/// a text, with the page's address when they know it (not fetched: the draft's source, and
/// what the page's relative picture address is read against).
#[derive(Debug, Clone, Default)]
pub struct ImportRequest {
    pub url: Option<String>,
    pub html: Option<String>,
    pub text: Option<String>,
}

/// The request, checked: what to read.
enum ImportFrom {
    Url(String),
    Html(String),
    Text(String),
}

/// Drafts an import may give (a page of one hundred recipes is a list, not a recipe page).
pub const DRAFTS_MAX: usize = 50;

/// A recipe read from what was given, checked for the family's children. Not saved.
#[derive(Debug, Clone)]
pub struct Drafted {
    pub content: RecipeContent,
    /// The page it came from.
    pub source_url: Option<String>,
    /// Its picture's address on the web; fetched when the recipe is saved.
    pub image_url: Option<String>,
    pub warnings: Vec<String>,
    pub safety_notes: Vec<Text>,
}

/// Every recipe in what was given, in order (a page may hold several). Errors say what went
/// wrong: an address that is not a web page's or is on the home network, a page that cannot
/// be reached or whose site refuses, too large a page, or no recipe in it.
pub async fn import(
    app: &Services,
    importer: &User,
    request: ImportRequest,
) -> AppResult<Vec<Drafted>> {
    if importer.is_guest {
        return Err(DomainError::not_allowed(
            TITLE,
            t!(
                "Guests cannot import recipes. Sign up for an account to bring in your family's \
             recipes."
            ),
        )
        .into());
    }
    let family = importer.family_id;
    let (from, base) = what_to_read(request)?;
    app.limits
        .imports_family
        .check(&family.to_string())
        .map_err(DomainError::too_many)?;
    let field = field_of(&from);
    let (page_url, from) = match from {
        ImportFrom::Url(url) => {
            let page = fetch::fetch(&url, &limits(app, PAGE_MAX_BYTES))
                .await
                .map_err(fetch_failed)?;
            (Some(page.url), ImportFrom::Html(page.html))
        }
        other => (base, other),
    };
    let checks = family_of(app, family).await?;
    // One page at a time: a page without JSON-LD has its tree built (45 MB for 4.5 MB). The
    // turn goes with the work, so a request given up on still holds it until the work ends.
    let turn = app
        .imports
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| unavailable())?;
    // The blocking thread reads foods and words its warnings in the request's language.
    let lang = scope::current();
    let drafts = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        scope::within_sync(lang, || {
            let found = match from {
                ImportFrom::Html(html) => recipe_import::from_html(&html),
                ImportFrom::Text(text) => recipe_import::from_text(&text),
                ImportFrom::Url(_) => Vec::new(),
            };
            found
                .into_iter()
                .take(DRAFTS_MAX)
                .map(|d| drafted(d, page_url.as_deref(), &checks))
                .collect::<Vec<_>>()
        })
    })
    .await
    .map_err(|_| unreadable())?;
    if drafts.is_empty() {
        return Err(Invalid::new(
            t!("No recipe found"),
            t!("Highchair could not find a recipe there. Check that it is the recipe's own page, or \
             paste the recipe's text (title, ingredients and method)."),
            field,
        )
        .into());
    }
    Ok(drafts)
}

/// Exactly one of an address, a page and a text; a page or a text may bring the page's
/// address (checked, never fetched).
fn what_to_read(request: ImportRequest) -> AppResult<(ImportFrom, Option<String>)> {
    let url = request.url.filter(|u| !u.trim().is_empty());
    let (pasted, is_html) = match (request.html, request.text) {
        (Some(html), None) => (html, true),
        (None, Some(text)) => (text, false),
        (Some(_), Some(_)) => return Err(one_way().into()),
        (None, None) => {
            let url = url.ok_or_else(|| {
                Invalid::new(TITLE, t!("Please enter the recipe's web address"), "url")
            })?;
            return Ok((ImportFrom::Url(url), None));
        }
    };
    if pasted.len() > PAGE_MAX_BYTES {
        return Err(too_large().into());
    }
    if pasted.trim().is_empty() {
        let field = if is_html { "html" } else { "text" };
        return Err(Invalid::new(TITLE, t!("Please paste the recipe or its page"), field).into());
    }
    let base = url
        .map(|u| fetch::resolve(None, &u).ok_or_else(|| Invalid::new(TITLE, BAD_ADDRESS, "url")))
        .transpose()?;
    let from = if is_html {
        ImportFrom::Html(pasted)
    } else {
        ImportFrom::Text(pasted)
    };
    Ok((from, base))
}

fn one_way() -> Invalid {
    Invalid::new(
        TITLE,
        t!("Please give the recipe's web address, its page or its text"),
        "url",
    )
}

const BAD_ADDRESS: Text = t!("Please enter a web address starting with http:// or https://");

/// A draft fitted to what a saved recipe holds, checked for each child. Its source is the page
/// it was read from, else the one the recipe names (`isBasedOn`: an export's).
fn drafted(d: Draft, page_url: Option<&str>, checks: &Family) -> Drafted {
    let content = recipe_import::fit(d.content);
    Drafted {
        warnings: allergy_reasons(&checks.guard, &content),
        safety_notes: safety_notes(&checks.children, &content, checks.today),
        source_url: page_url
            .map(str::to_string)
            .or(d.source_url)
            .and_then(|u| fetch::resolve(None, &u)),
        image_url: d.image.and_then(|i| fetch::resolve(page_url, &i)),
        content,
    }
}

/// A recipe's picture from the web, for `recipes::save`: its bytes, or none when it cannot be
/// had (the recipe is saved without it). Counts as an import.
pub(crate) async fn picture(app: &Services, saver: &User, url: &str) -> Option<Vec<u8>> {
    // Guests import nothing, so they have no picture to fetch.
    if saver.is_guest {
        return None;
    }
    let family = saver.family_id;
    app.limits.imports_family.check(&family.to_string()).ok()?;
    let max = usize::try_from(app.settings().limits.upload_bytes()).unwrap_or(usize::MAX);
    match fetch::fetch_image(url, &limits(app, max)).await {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            // The address is the parent's and may be private: only why.
            tracing::info!(error = ?e, "an imported recipe's picture could not be fetched");
            None
        }
    }
}

fn limits(app: &Services, max_bytes: usize) -> Limits {
    Limits {
        max_bytes,
        allow_private: app.settings().recipes.import_allow_private,
        ..Limits::default()
    }
}

fn field_of(from: &ImportFrom) -> &'static str {
    match from {
        ImportFrom::Url(_) => "url",
        ImportFrom::Html(_) => "html",
        ImportFrom::Text(_) => "text",
    }
}

fn too_large() -> DomainError {
    DomainError::over_limit(
        t!("Page too large"),
        t!(
            "The page is larger than {{mb}} MB, so Highchair did not read it. Paste the recipe's \
             text instead.",
            mb = PAGE_MAX_BYTES >> 20
        ),
    )
}

fn unavailable() -> DomainError {
    DomainError::unavailable(TITLE, t!("The server is shutting down. Please try again."))
}

/// The reading failed in a way no page should cause: said, not a 500.
fn unreadable() -> DomainError {
    tracing::error!("reading a page for a recipe import failed");
    DomainError::unavailable(
        TITLE,
        t!("Highchair could not read that page. Please paste the recipe's text instead."),
    )
}

/// Why the page could not be had, in the parent's words, with the other way to bring it.
fn fetch_failed(e: FetchError) -> DomainError {
    const PASTE: Text = t!("Open the page in your browser and paste the recipe instead.");
    let unreachable = |why: Text| DomainError::unavailable(t!("Page not reachable"), why);
    match e {
        FetchError::BadAddress => Invalid::new(TITLE, BAD_ADDRESS, "url").into(),
        FetchError::NotAllowed => Invalid::new(
            t!("Address not allowed"),
            t!(
                "That address is on this server's own network, so Highchair does not fetch it. \
             Paste the recipe instead, or ask the person who runs Highchair to allow private \
             addresses."
            ),
            "url",
        )
        .into(),
        FetchError::Unreachable => unreachable(t!(
            "The page could not be reached: check the address, or try again later. {{paste}}",
            paste = PASTE
        )),
        FetchError::TimedOut => unreachable(t!(
            "The site did not answer within {{secs}} seconds. {{paste}}",
            secs = Limits::default().timeout.as_secs(),
            paste = PASTE
        )),
        FetchError::TooManyRedirects => unreachable(t!(
            "The page kept sending Highchair elsewhere (more than {{max}} redirects). {{paste}}",
            max = Limits::default().max_redirects,
            paste = PASTE
        )),
        FetchError::Blocked => DomainError::unavailable(
            t!("Blocked by the site"),
            t!(
                "The site does not let servers read its pages. {{paste}}",
                paste = PASTE
            ),
        ),
        FetchError::TooLarge => too_large(),
    }
}
