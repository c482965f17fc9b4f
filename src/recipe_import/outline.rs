//! A recipe from how a page or a text is laid out, when it says nothing in schema.org: a
//! title, an "Ingredients" heading over a list, a "Method" heading over steps. Pasted text
//! (from a book, a message) is read the same way, line by line.

use scraper::{ElementRef, Html, Selector};

use super::values::{clean, minutes, servings_in};
use super::{Draft, Found};
use crate::domain::quantity::split_ingredient;

/// The parts of a recipe a heading or a line can open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Ingredients,
    Method,
}

/// What a heading says it opens: "Ingredients", "For the sauce you need:", "Method",
/// "Instructions", "Directions", "Steps", "How to make it".
fn section_of(heading: &str) -> Option<Section> {
    let h = heading.trim().trim_end_matches(':').to_lowercase();
    if h.len() > 40 {
        return None;
    }
    if h.contains("ingredient") || h == "you will need" || h == "you'll need" {
        return Some(Section::Ingredients);
    }
    let method = [
        "method",
        "instruction",
        "direction",
        "steps",
        "preparation",
        "how to make",
    ];
    method
        .iter()
        .any(|m| h.contains(m))
        .then_some(Section::Method)
}

/// The page's headings and lists, in document order.
pub fn from_page(page: &Html) -> Option<Draft> {
    let parts = Selector::parse("h1, h2, h3, h4, h5, h6, li, p, title").ok()?;
    let mut found = Found::default();
    let mut title_tag = String::new();
    let mut section: Option<Section> = None;
    for e in page.select(&parts) {
        let name = e.value().name();
        let text = clean(&e.text().collect::<Vec<_>>().join(" "));
        if text.is_empty() {
            continue;
        }
        match name {
            "title" => title_tag = text,
            "h1" if found.title.is_empty() => {
                found.title = text;
                section = None;
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => section = section_of(&text),
            // A paragraph inside a list item is that item's.
            "p" if inside_li(e) => {}
            // "Serves 4", "Prep: 10 mins" under the title.
            "p" | "li" if section.is_none() && meta(&text, &mut found) => {}
            "li" | "p" => match section {
                Some(Section::Ingredients) if name == "li" => found.lines.push(text),
                Some(Section::Method) => found.steps.push(strip_number(&text)),
                _ => {}
            },
            _ => {}
        }
    }
    if found.lines.is_empty() {
        return None;
    }
    if found.title.is_empty() {
        // "Banana bread | Family Food": the part before the site's name.
        found.title = title_tag
            .split(['|', '–', '—'])
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
    }
    found.draft()
}

fn inside_li(e: ElementRef<'_>) -> bool {
    e.ancestors()
        .filter_map(ElementRef::wrap)
        .any(|a| a.value().name() == "li")
}

/// A recipe pasted as text: a title line, then ingredients and steps, under headings or not.
pub fn from_text(text: &str) -> Option<Draft> {
    let mut found = Found::default();
    let mut section: Option<Section> = None;
    let mut description: Vec<String> = Vec::new();
    for raw in text.lines() {
        let line = clean(raw);
        if line.is_empty() {
            continue;
        }
        if let Some(s) = section_of(&line) {
            section = Some(s);
            continue;
        }
        // "Serves 4", "Prep: 10 mins" outside the method: there, "Cook for 20 minutes" is a step.
        if section != Some(Section::Method) && meta(&line, &mut found) {
            continue;
        }
        if found.title.is_empty() {
            found.title = line;
            continue;
        }
        let item = strip_bullet(&line);
        match section {
            Some(Section::Ingredients) => found.lines.push(item),
            Some(Section::Method) => found.steps.push(strip_number(&item)),
            // No headings: short lines and lines with an amount are ingredients, until the
            // first sentence.
            None if found.steps.is_empty() && looks_like_ingredient(&item) => {
                found.lines.push(item)
            }
            None if found.lines.is_empty() => description.push(item),
            None => found.steps.push(strip_number(&item)),
        }
    }
    found.description = description.join(" ");
    if found.lines.is_empty() {
        return None;
    }
    found.draft()
}

/// "Serves 4", "Makes 12", "Prep: 10 mins", "Cook time: 1 hour", "Total time 40 minutes".
fn meta(line: &str, found: &mut Found) -> bool {
    let lower = line.to_lowercase();
    if ["serves", "makes", "yield", "servings"]
        .iter()
        .any(|w| lower.starts_with(w))
        && let Some(n) = servings_in(line)
    {
        found.servings = Some(n);
        return true;
    }
    let time = |w: &str| {
        lower
            .starts_with(w)
            .then(|| minutes(&lower[w.len()..]))
            .flatten()
    };
    for (word, slot) in [
        ("prep", &mut found.prep),
        ("cook", &mut found.cook),
        ("total", &mut found.total),
    ] {
        if let Some(m) = time(word) {
            *slot = Some(m);
            return true;
        }
    }
    false
}

fn looks_like_ingredient(line: &str) -> bool {
    let (quantity, _) = split_ingredient(line);
    !quantity.is_empty() || (line.chars().count() <= 40 && !line.ends_with('.'))
}

/// "- 2 eggs", "• 2 eggs", "* 2 eggs", "▢ 2 eggs" -> "2 eggs".
fn strip_bullet(line: &str) -> String {
    line.trim_start_matches(['-', '*', '•', '·', '▢', '◦', '–'])
        .trim()
        .to_string()
}

/// "1. Mix", "2) Bake", "Step 3: Serve", "Step 3 - Serve" -> the step.
fn strip_number(line: &str) -> String {
    let mut rest = line.trim();
    if let Some(after) = rest
        .strip_prefix("Step ")
        .or_else(|| rest.strip_prefix("step "))
    {
        rest = after;
    }
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && digits < 3 {
        let after = rest[digits..].trim_start();
        if let Some(step) = after.strip_prefix(['.', ')', ':', '-'])
            && step.starts_with(char::is_whitespace)
        {
            return step.trim().to_string();
        }
    }
    line.trim().to_string()
}
