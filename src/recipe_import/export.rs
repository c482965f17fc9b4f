//! Saved recipes as schema.org JSON-LD: what other recipe apps and search engines read, with
//! Highchair's own fields beside them (`HIGHCHAIR`) so that importing the file into another
//! Highchair gives the same recipes.

use serde_json::{Value, json};

use super::HIGHCHAIR;
use crate::domain::recipe::Recipe;

/// One recipe, a document of its own.
pub fn recipe(recipe: &Recipe) -> Value {
    let mut value = item(recipe);
    if let Value::Object(o) = &mut value {
        o.insert("@context".into(), json!("https://schema.org"));
    }
    value
}

/// Every recipe given, one document (a `@graph`).
pub fn all(recipes: &[Recipe]) -> Value {
    json!({
        "@context": "https://schema.org",
        "@graph": recipes.iter().map(item).collect::<Vec<_>>(),
    })
}

fn item(r: &Recipe) -> Value {
    let c = &r.content;
    let mut o = serde_json::Map::new();
    o.insert("@type".into(), json!("Recipe"));
    o.insert("name".into(), json!(c.title));
    if !c.description.is_empty() {
        o.insert("description".into(), json!(c.description));
    }
    o.insert(
        "recipeIngredient".into(),
        json!(
            c.ingredients
                .iter()
                .map(|i| format!("{} {}", i.quantity, i.name).trim().to_string())
                .collect::<Vec<_>>()
        ),
    );
    o.insert(
        "recipeInstructions".into(),
        json!(
            c.instructions
                .iter()
                .map(|s| json!({"@type": "HowToStep", "text": s}))
                .collect::<Vec<_>>()
        ),
    );
    if c.preparation_time > 0 {
        o.insert("prepTime".into(), json!(duration(c.preparation_time)));
    }
    if let Some(cook) = c.cooking_time {
        o.insert("cookTime".into(), json!(duration(cook)));
    }
    let total = c.preparation_time + c.cooking_time.unwrap_or(0);
    if total > 0 {
        o.insert("totalTime".into(), json!(duration(total)));
    }
    if let Some(s) = c.servings {
        o.insert("recipeYield".into(), json!(format!("{s} servings")));
    }
    if !c.dietary_restrictions.is_empty() {
        o.insert("keywords".into(), json!(c.dietary_restrictions.join(", ")));
    }
    if let Some(n) = &c.nutritional_info {
        o.insert(
            "nutrition".into(),
            json!({
                "@type": "NutritionInformation",
                "calories": format!("{} kcal", n.calories),
                "proteinContent": format!("{} g", n.protein),
                "carbohydrateContent": format!("{} g", n.carbs),
                "fatContent": format!("{} g", n.fat),
            }),
        );
    }
    if let Some(url) = &r.source_url {
        o.insert("isBasedOn".into(), json!(url));
    }
    o.insert("dateCreated".into(), json!(r.created_at.to_rfc3339()));
    o.insert("dateModified".into(), json!(r.updated_at.to_rfc3339()));
    o.insert(
        HIGHCHAIR.into(),
        serde_json::to_value(c).unwrap_or(Value::Null),
    );
    Value::Object(o)
}

/// One recipe as a page to print or keep: plain HTML (no style, no script to run) with its
/// JSON-LD inside, so that a recipe app reading the page finds the recipe too. The children's
/// allergy warnings and notes are on it: the paper goes to whoever cooks.
pub fn html(recipe: &Recipe, warnings: &[String], notes: &[String]) -> String {
    let c = &recipe.content;
    let mut page = String::new();
    let mut line = |text: String| {
        page.push_str(&text);
        page.push('\n');
    };
    line("<!DOCTYPE html>".into());
    line(format!(
        "<html lang=\"{}\">",
        crate::i18n::scope::current().code()
    ));
    line("<head>".into());
    line("<meta charset=\"utf-8\">".into());
    line("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">".into());
    line(format!("<title>{}</title>", escape(&c.title)));
    // The recipe's own texts cannot end or change the script: "<", ">" and "&" are written
    // as JSON escapes, which JSON reads back as they were.
    let data = serde_json::to_string(&self::recipe(recipe))
        .unwrap_or_default()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    line(format!(
        "<script type=\"application/ld+json\">{data}</script>"
    ));
    line("</head>".into());
    line("<body>".into());
    line(format!("<h1>{}</h1>", escape(&c.title)));
    let mut about = Vec::new();
    if let Some(s) = c.servings {
        about.push(t_plural!("Serves {{count}}", "Serves {{count}}", s).here());
    }
    if c.preparation_time > 0 {
        about.push(
            t!(
                "Prep {{minutes}} min",
                minutes = c.preparation_time.to_string()
            )
            .here(),
        );
    }
    if let Some(m) = c.cooking_time {
        about.push(t!("Cook {{minutes}} min", minutes = m.to_string()).here());
    }
    if !about.is_empty() {
        line(format!("<p>{}</p>", escape(&about.join(" · "))));
    }
    if !c.description.is_empty() {
        line(format!("<p>{}</p>", escape(&c.description)));
    }
    let list = |tag: &str, items: &[String]| {
        let items: String = items
            .iter()
            .map(|i| format!("<li>{}</li>", escape(i)))
            .collect();
        format!("<{tag}>{items}</{tag}>")
    };
    if !warnings.is_empty() {
        line(format!(
            "<h2>{}</h2>",
            escape(&t!("Allergy warning").here())
        ));
        line(list("ul", warnings));
    }
    if !notes.is_empty() {
        line(format!(
            "<h2>{}</h2>",
            escape(&t!("For the children").here())
        ));
        line(list("ul", notes));
    }
    line(format!("<h2>{}</h2>", escape(&t!("Ingredients").here())));
    let ingredients: Vec<String> = c
        .ingredients
        .iter()
        .map(|i| format!("{} {}", i.quantity, i.name).trim().to_string())
        .collect();
    line(list("ul", &ingredients));
    line(format!("<h2>{}</h2>", escape(&t!("Method").here())));
    line(list("ol", &c.instructions));
    if !c.tips.is_empty() {
        line(format!("<h2>{}</h2>", escape(&t!("Tips").here())));
        line(list("ul", &c.tips));
    }
    if let Some(url) = &recipe.source_url {
        line(format!(
            "<p>{1} <a href=\"{0}\">{0}</a></p>",
            escape(url),
            escape(&t!("Source:").here())
        ));
    }
    line("</body>".into());
    line("</html>".into());
    page
}

/// Text as HTML shows it.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// ISO 8601, as schema.org times are written ("PT1H30M").
fn duration(minutes: u32) -> String {
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("PT{m}M"),
        (h, 0) => format!("PT{h}H"),
        (h, m) => format!("PT{h}H{m}M"),
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;

    use super::*;
    use crate::domain::ids::{FamilyId, UserId};
    use crate::domain::recipe::tests::content;
    use crate::domain::recipe::{Ingredient, Nutrition, Source};
    use crate::recipe_import::{from_html, from_text, values::minutes};

    fn saved() -> Recipe {
        let mut c = content("Lentil soup", &["Red lentils"]);
        c.ingredients = vec![
            Ingredient {
                name: "red lentils".into(),
                quantity: "200 g".into(),
            },
            Ingredient {
                name: "lemon wedges".into(),
                quantity: "to serve".into(),
            },
        ];
        c.preparation_time = 10;
        c.cooking_time = Some(95);
        c.servings = Some(4);
        c.tips = vec!["Freezes well.".into()];
        c.nutritional_info = Some(Nutrition {
            calories: 310.0,
            protein: 18.0,
            carbs: 40.0,
            fat: 6.5,
        });
        let mut r = Recipe::create(FamilyId::new(), UserId::new(), Source::Own, c, Utc::now());
        r.source_url = Some("https://example.org/soup".into());
        r
    }

    #[test]
    fn the_print_page_escapes_the_recipe_keeps_the_warnings_and_imports_back() {
        let mut r = saved();
        r.content.title = "Fish & chips <script>alert(1)</script>".into();
        r.content.instructions = vec!["Serve </script><b>hot</b>.".into()];
        let page = html(
            &r,
            &["Fish contains fish".into()],
            &["For Leo (9 months): mash a portion".into()],
        );
        assert!(!page.contains("<script>alert"), "{page}");
        assert!(!page.contains("<b>hot"), "{page}");
        assert!(
            page.contains("<title>Fish &amp; chips &lt;script&gt;"),
            "{page}"
        );
        assert!(page.contains("<h2>Allergy warning</h2>\n<ul><li>Fish contains fish</li></ul>"));
        assert!(page.contains("For Leo (9 months): mash a portion"));
        // Its JSON-LD, found by the importer, is the recipe as saved.
        let read = from_html(&page);
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].content, r.content);
    }

    #[test]
    fn durations_are_iso_8601_and_read_back() {
        for m in [5, 60, 95, 24 * 60] {
            assert_eq!(minutes(&duration(m)), Some(m), "{}", duration(m));
        }
        assert_eq!(duration(95), "PT1H35M");
    }

    #[test]
    fn a_recipe_is_schema_org_that_other_readers_understand() {
        let r = saved();
        let doc = recipe(&r);
        assert_eq!(doc["@type"], "Recipe");
        assert_eq!(doc["recipeIngredient"][0], "200 g red lentils");
        assert_eq!(doc["cookTime"], "PT1H35M");
        assert_eq!(doc["isBasedOn"], "https://example.org/soup");
        // A reader that does not know Highchair's key: the schema.org fields alone.
        let mut plain = doc.clone();
        plain.as_object_mut().unwrap().remove(HIGHCHAIR);
        let page = format!(
            "<script type=\"application/ld+json\">{}</script>",
            serde_json::to_string(&plain).unwrap()
        );
        let read = &from_html(&page)[0];
        assert_eq!(read.content.title, "Lentil soup");
        assert_eq!(
            (read.content.preparation_time, read.content.cooking_time),
            (10, Some(95))
        );
        assert_eq!(read.content.servings, Some(4));
        assert_eq!(read.content.ingredients[0].quantity, "200 g");
        assert_eq!(read.source_url.as_deref(), Some("https://example.org/soup"));
    }

    #[test]
    fn every_recipe_of_a_file_comes_back_as_it_was_saved() {
        let (first, second) = (saved(), {
            let mut r = saved();
            r.content.title = "Second soup".into();
            r.source_url = None;
            r
        });
        let file = serde_json::to_string_pretty(&all(&[first.clone(), second.clone()])).unwrap();
        let read = from_text(&file);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].content, first.content);
        assert_eq!(read[1].content, second.content);
        assert_eq!(read[0].source_url, first.source_url);
        assert_eq!(read[1].source_url, None);
    }
}
