//! schema.org Recipe microdata (`itemscope itemtype=".../Recipe"`, `itemprop`s), for pages
//! without JSON-LD. A property's value is its `content`, `datetime`, `src` or `href`
//! attribute where the element has one, else its text.

use scraper::{ElementRef, Html, Selector};

use super::values::{clean, minutes, servings_in};
use super::{Draft, Found};

/// Every Recipe item of the page, in page order.
pub fn recipes(page: &Html) -> Vec<Draft> {
    let Ok(items) = Selector::parse("[itemscope][itemtype]") else {
        return Vec::new();
    };
    page.select(&items)
        .filter(|e| {
            e.value().attr("itemtype").is_some_and(|t| {
                t.split_whitespace()
                    .any(|t| t.trim_end_matches('/').ends_with("schema.org/Recipe"))
            })
        })
        .filter_map(draft)
        .collect()
}

/// The item's own properties: nested items' properties belong to them (a review's `name`).
fn props<'a>(item: ElementRef<'a>, name: &str) -> Vec<ElementRef<'a>> {
    let mut out = Vec::new();
    walk(item, name, &mut out);
    out
}

fn walk<'a>(element: ElementRef<'a>, name: &str, out: &mut Vec<ElementRef<'a>>) {
    for child in element.children().filter_map(ElementRef::wrap) {
        let named = child
            .value()
            .attr("itemprop")
            .is_some_and(|p| p.split_whitespace().any(|p| p == name));
        if named {
            out.push(child);
        }
        // A nested item is its own: only its element can be one of ours (named above).
        if child.value().attr("itemscope").is_none() {
            walk(child, name, out);
        }
    }
}

fn value(e: ElementRef<'_>) -> String {
    let v = e.value();
    for attr in ["content", "datetime"] {
        if let Some(a) = v.attr(attr) {
            return clean(a);
        }
    }
    if matches!(v.name(), "img" | "source") {
        return v.attr("src").map(clean).unwrap_or_default();
    }
    if matches!(v.name(), "a" | "link") {
        return v.attr("href").map(clean).unwrap_or_default();
    }
    clean(&e.text().collect::<Vec<_>>().join(" "))
}

fn first(item: ElementRef<'_>, name: &str) -> String {
    props(item, name)
        .into_iter()
        .map(value)
        .find(|v| !v.is_empty())
        .unwrap_or_default()
}

fn draft(item: ElementRef<'_>) -> Option<Draft> {
    let mut lines: Vec<String> = props(item, "recipeIngredient")
        .into_iter()
        .chain(props(item, "ingredients"))
        .map(value)
        .filter(|l| !l.is_empty())
        .collect();
    lines.dedup();
    let mut steps = Vec::new();
    for e in props(item, "recipeInstructions") {
        // A list of steps, or a block of paragraphs, or one text.
        let Ok(parts) = Selector::parse("li, p") else {
            continue;
        };
        let found: Vec<String> = e
            .select(&parts)
            .map(value)
            .filter(|s| !s.is_empty())
            .collect();
        if found.is_empty() {
            let text = value(e);
            if !text.is_empty() {
                steps.push(text);
            }
        } else {
            steps.extend(found);
        }
    }
    let time = |name: &str| minutes(&first(item, name));
    Found {
        title: first(item, "name"),
        description: first(item, "description"),
        lines,
        steps,
        prep: time("prepTime"),
        cook: time("cookTime"),
        total: time("totalTime"),
        servings: servings_in(&first(item, "recipeYield")),
        nutrition: None,
        image: props(item, "image")
            .into_iter()
            .map(value)
            .find(|v| !v.is_empty()),
        source_url: None,
    }
    .draft()
}
