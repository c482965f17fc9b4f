//! Recipes from anywhere (issue 31): a web page, pasted HTML or text, or another Highchair's
//! export, read into drafts a parent edits before saving, each checked against the children's
//! allergies and ages as a generated recipe is. Nothing is saved here; `recipes::save` keeps
//! the one chosen, with its picture fetched once into the family's photos.

use super::recipes::{allergy_reasons, family_of, safety_notes};
use super::{AppResult, Services};
use crate::domain::DomainError;
use crate::domain::error::Invalid;
use crate::domain::ids::FamilyId;
use crate::domain::recipe::RecipeContent;
use crate::recipe_import::fetch::{self, FetchError, Limits};
use crate::recipe_import::{self, Draft};

/// Imports a family may start in an hour (each may fetch a page, and a picture when saved).
pub const IMPORTS_PER_HOUR: u32 = 60;
/// The most a page, pasted HTML or text may be.
pub const PAGE_MAX_BYTES: usize = 5 << 20;

const TITLE: &str = "Error importing recipe";

/// What the parent gave.
#[derive(Debug, Clone)]
pub enum ImportFrom {
    /// A page's address: the server fetches it.
    Url(String),
    /// A page's HTML, as the parent saved or copied it.
    Html(String),
    /// A recipe as text, or a JSON-LD file (Highchair's export).
    Text(String),
}

/// A recipe read from what was given, checked for the family's children. Not saved.
#[derive(Debug, Clone)]
pub struct Drafted {
    pub content: RecipeContent,
    /// The page it came from.
    pub source_url: Option<String>,
    /// Its picture's address on the web; fetched when the recipe is saved.
    pub image_url: Option<String>,
    pub warnings: Vec<String>,
    pub safety_notes: Vec<String>,
}

/// Every recipe in what was given, in order (a page may hold several). Errors say what went
/// wrong: an address that is not a web page's or is on the home network, a page that cannot
/// be reached or whose site refuses, too large a page, or no recipe in it.
pub async fn import(app: &Services, family: FamilyId, from: ImportFrom) -> AppResult<Vec<Drafted>> {
    let size = match &from {
        ImportFrom::Url(url) if url.trim().is_empty() => {
            return Err(Invalid::new(TITLE, "Please enter the recipe's web address", "url").into());
        }
        ImportFrom::Url(_) => 0,
        ImportFrom::Html(text) | ImportFrom::Text(text) => text.len(),
    };
    if size > PAGE_MAX_BYTES {
        return Err(too_large().into());
    }
    if let ImportFrom::Html(t) | ImportFrom::Text(t) = &from
        && t.trim().is_empty()
    {
        let field = field_of(&from);
        return Err(Invalid::new(TITLE, "Please paste the recipe or its page", field).into());
    }
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
        other => (None, other),
    };
    // One page at a time: a large page's tree takes tens of MB, and a Pi has little.
    let _turn = app.imports.acquire().await.map_err(|_| unavailable())?;
    let drafts = tokio::task::spawn_blocking(move || match from {
        ImportFrom::Html(html) => recipe_import::from_html(&html),
        ImportFrom::Text(text) => recipe_import::from_text(&text),
        ImportFrom::Url(_) => Vec::new(),
    })
    .await
    .map_err(|_| unavailable())?;
    if drafts.is_empty() {
        return Err(Invalid::new(
            "No recipe found",
            "Highchair could not find a recipe there. Check that it is the recipe's own page, or \
             paste the recipe's text (title, ingredients and method).",
            field,
        )
        .into());
    }
    let checks = family_of(app, family).await?;
    Ok(drafts
        .into_iter()
        .map(|d| drafted(d, page_url.as_deref(), &checks))
        .collect())
}

fn drafted(d: Draft, page_url: Option<&str>, checks: &super::recipes::Family) -> Drafted {
    let content = recipe_import::fit(d.content);
    Drafted {
        warnings: allergy_reasons(&checks.guard, &content),
        safety_notes: safety_notes(&checks.children, &content, checks.today),
        source_url: d
            .source_url
            .or(page_url.map(str::to_string))
            .and_then(|u| fetch::resolve(None, &u)),
        image_url: d.image.and_then(|i| fetch::resolve(page_url, &i)),
        content,
    }
}

/// A recipe's picture from the web, for `recipes::save`: its bytes, or none when it cannot be
/// had (the recipe is saved without it). Counts as an import.
pub(crate) async fn picture(app: &Services, family: FamilyId, url: &str) -> Option<Vec<u8>> {
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
        "Page too large",
        format!(
            "The page is larger than {} MB, so Highchair did not read it. Paste the recipe's \
             text instead.",
            PAGE_MAX_BYTES >> 20
        ),
    )
}

fn unavailable() -> DomainError {
    DomainError::unavailable(TITLE, "The server is shutting down. Please try again.")
}

/// Why the page could not be had, in the parent's words, with the other way to bring it.
fn fetch_failed(e: FetchError) -> DomainError {
    const PASTE: &str = "Open the page in your browser and paste the recipe instead.";
    let unreachable =
        |why: &str| DomainError::unavailable("Page not reachable", format!("{why} {PASTE}"));
    match e {
        FetchError::BadAddress => Invalid::new(
            TITLE,
            "Please enter a web address starting with http:// or https://",
            "url",
        )
        .into(),
        FetchError::NotAllowed => Invalid::new(
            "Address not allowed",
            "That address is on this server's own network, so Highchair does not fetch it. \
             Paste the recipe instead, or ask the person who runs Highchair to allow private \
             addresses.",
            "url",
        )
        .into(),
        FetchError::Unreachable => {
            unreachable("The page could not be reached: check the address, or try again later.")
        }
        FetchError::TimedOut => unreachable(&format!(
            "The site did not answer within {} seconds.",
            Limits::default().timeout.as_secs()
        )),
        FetchError::TooManyRedirects => unreachable(&format!(
            "The page kept sending Highchair elsewhere (more than {} redirects).",
            Limits::default().max_redirects
        )),
        FetchError::Blocked => DomainError::unavailable(
            "Blocked by the site",
            format!("The site does not let servers read its pages. {PASTE}"),
        ),
        FetchError::TooLarge => too_large(),
    }
}
