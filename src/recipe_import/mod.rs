//! Recipes from anywhere (issue 31): the recipe of a web page, read into a draft a parent edits
//! before saving it. Pages say what their recipe is in schema.org JSON-LD (what search engines
//! read), in any of the shapes real sites write. Nothing here fetches: the use case brings the
//! page, and fetches the image once the draft is saved.

mod jsonld;
mod values;

use scraper::Html;

use crate::domain::recipe::RecipeContent;

/// A recipe read from a page, not saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    pub content: RecipeContent,
    /// The address of the page's picture of it.
    pub image: Option<String>,
}

/// Every recipe the page holds, in page order (a page may hold several, or none).
pub fn from_html(html: &str) -> Vec<Draft> {
    let page = Html::parse_document(html);
    jsonld::recipes(&page)
}

#[cfg(test)]
mod tests;
