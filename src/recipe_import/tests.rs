//! Pages in the shapes real recipe sites write, inline; the fixture corpus served over HTTP
//! comes with the import use case.

use super::*;

fn page(jsonld: &str) -> String {
    format!(
        "<!doctype html><html><head><title>x</title>\
         <script type=\"application/ld+json\">{jsonld}</script></head><body><h1>x</h1></body></html>"
    )
}

#[test]
fn a_plain_recipe_object_gives_every_field() {
    let html = page(
        r#"{"@context": "https://schema.org", "@type": "Recipe",
            "name": "Fish &amp; chips", "description": "<p>A Friday treat.</p>",
            "image": {"@type": "ImageObject", "url": "https://example.org/fish.jpg"},
            "prepTime": "PT15M", "cookTime": "PT25M", "totalTime": "PT40M",
            "recipeYield": ["4", "4 servings"],
            "recipeIngredient": ["400g cod fillets", "2 large potatoes, cut into chips", "Salt"],
            "recipeInstructions": [
              {"@type": "HowToStep", "text": "Heat the oven to 200C."},
              {"@type": "HowToStep", "name": "Bake", "text": "Bake the chips for 25 minutes."}
            ],
            "nutrition": {"@type": "NutritionInformation", "calories": "520 kcal",
                          "proteinContent": "32 g", "fatContent": "18g"}}"#,
    );
    let found = from_html(&html);
    assert_eq!(found.len(), 1);
    let r = &found[0].content;
    assert_eq!(r.title, "Fish & chips");
    assert_eq!(r.description, "A Friday treat.");
    assert_eq!(
        (r.preparation_time, r.cooking_time, r.servings),
        (15, Some(25), Some(4))
    );
    let lines: Vec<(&str, &str)> = r
        .ingredients
        .iter()
        .map(|i| (i.quantity.as_str(), i.name.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            ("400g", "cod fillets"),
            ("2", "large potatoes, cut into chips"),
            ("", "Salt")
        ]
    );
    assert_eq!(
        r.instructions,
        ["Heat the oven to 200C.", "Bake the chips for 25 minutes."]
    );
    let n = r.nutritional_info.unwrap();
    assert_eq!(
        (n.calories, n.protein, n.carbs, n.fat),
        (520.0, 32.0, 0.0, 18.0)
    );
    assert_eq!(
        found[0].image.as_deref(),
        Some("https://example.org/fish.jpg")
    );
}

#[test]
fn a_graph_with_types_as_lists_and_sections_of_steps() {
    let html = page(
        r#"{"@context": "https://schema.org", "@graph": [
            {"@type": "WebSite", "name": "Family Food"},
            {"@type": ["Recipe", "NewsArticle"], "name": "Shepherd's pie",
             "image": ["https://example.org/pie-16x9.jpg", "https://example.org/pie-1x1.jpg"],
             "totalTime": "PT1H30M", "cookTime": "PT1H",
             "recipeYield": "Serves 4-6",
             "recipeIngredient": ["500 g lamb mince", "1 onion"],
             "recipeInstructions": [
               {"@type": "HowToSection", "name": "For the filling", "itemListElement": [
                 {"@type": "HowToStep", "text": "Brown the mince."},
                 {"@type": "HowToStep", "text": "Add the onion."}]},
               {"@type": "HowToSection", "name": "For the mash", "itemListElement": [
                 {"@type": "HowToStep", "text": "Boil and mash the potatoes."}]}
             ]}
        ]}"#,
    );
    let found = from_html(&html);
    assert_eq!(found.len(), 1);
    let r = &found[0].content;
    assert_eq!(r.title, "Shepherd's pie");
    assert_eq!(
        (r.preparation_time, r.cooking_time, r.servings),
        (30, Some(60), Some(4))
    );
    assert_eq!(
        r.instructions,
        [
            "Brown the mince.",
            "Add the onion.",
            "Boil and mash the potatoes."
        ]
    );
    assert_eq!(
        found[0].image.as_deref(),
        Some("https://example.org/pie-16x9.jpg")
    );
}

#[test]
fn nested_several_and_broken_scripts() {
    let html = r#"<html><head>
         <script type="application/ld+json">{ not json</script>
         <script type="Application/LD+JSON; charset=utf-8">
            {"@type": "WebPage", "mainEntity": {"@type": "schema:Recipe",
              "name": "Pancakes", "recipeIngredient": "100g flour\n2 eggs\n300ml milk",
              "recipeInstructions": "<p>Whisk.</p><p>Fry.</p>",}}
         </script>
         <script type="application/ld+json">[{"@type": "http://schema.org/Recipe",
              "name": "Flapjacks", "recipeIngredient": ["200 g oats"],
              "recipeInstructions": ["Mix.", "Bake."], "image": "https://example.org/f.jpg"}]</script>
         <script type="text/javascript">var x = {"@type": "Recipe"};</script>
         </head></html>"#;
    let found = from_html(html);
    let titles: Vec<&str> = found.iter().map(|d| d.content.title.as_str()).collect();
    assert_eq!(titles, ["Pancakes", "Flapjacks"]);
    assert_eq!(found[0].content.ingredients.len(), 3);
    assert_eq!(found[0].content.ingredients[2].quantity, "300ml");
    assert_eq!(found[0].content.instructions, ["Whisk.", "Fry."]);
    assert_eq!(found[1].content.instructions, ["Mix.", "Bake."]);
}

#[test]
fn a_page_without_a_recipe_gives_none() {
    assert!(from_html("<html><body><p>Hello</p></body></html>").is_empty());
    assert!(from_html(&page(r#"{"@type": "Article", "name": "Ten tips"}"#)).is_empty());
    assert!(from_html(&page(r#"{"@type": "Recipe"}"#)).is_empty());
    assert!(from_html("").is_empty());
}

#[test]
fn microdata_when_there_is_no_json_ld() {
    let html = r#"<html><body>
      <div itemscope itemtype="https://schema.org/Recipe">
        <h1 itemprop="name">Banana bread</h1>
        <img itemprop="image" src="https://example.org/bread.jpg" alt="">
        <p itemprop="description">Uses up &lt;3&gt; brown bananas.</p>
        <meta itemprop="prepTime" content="PT10M"><time itemprop="cookTime" datetime="PT1H">1 hour</time>
        <span itemprop="recipeYield">Makes 8 slices</span>
        <ul>
          <li itemprop="recipeIngredient">3 ripe bananas</li>
          <li itemprop="recipeIngredient">250 g self-raising flour</li>
          <li itemprop="ingredients">100 g butter, melted</li>
        </ul>
        <div itemprop="recipeInstructions">
          <ol><li>Mash the bananas.</li><li>Stir in the rest.</li><li>Bake for an hour.</li></ol>
        </div>
        <div itemprop="review" itemscope itemtype="https://schema.org/Review">
          <span itemprop="name">Lovely</span>
        </div>
      </div></body></html>"#;
    let found = from_html(html);
    assert_eq!(found.len(), 1);
    let r = &found[0].content;
    assert_eq!(r.title, "Banana bread");
    assert_eq!(r.description, "Uses up <3> brown bananas.");
    assert_eq!(
        (r.preparation_time, r.cooking_time, r.servings),
        (10, Some(60), Some(8))
    );
    let names: Vec<&str> = r.ingredients.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        ["ripe bananas", "self-raising flour", "butter, melted"]
    );
    assert_eq!(
        r.instructions,
        [
            "Mash the bananas.",
            "Stir in the rest.",
            "Bake for an hour."
        ]
    );
    assert_eq!(
        found[0].image.as_deref(),
        Some("https://example.org/bread.jpg")
    );
}

#[test]
fn a_page_with_only_headings_and_lists() {
    let html = r#"<html><head><title>Flapjacks | Nan's Kitchen</title></head><body>
      <nav><ul><li>Home</li><li>Recipes</li></ul></nav>
      <article>
        <p>My nan's flapjacks, every Sunday.</p>
        <h2>Ingredients</h2>
        <ul><li>200 g porridge oats</li><li>100 g butter</li><li>3 tbsp golden syrup</li></ul>
        <h2>Method</h2>
        <ol><li><p>1. Melt the butter and syrup.</p></li><li>Stir in the oats.</li></ol>
        <p>Bake at 180C for 20 minutes.</p>
        <h2>Comments</h2><p>Great!</p>
      </article></body></html>"#;
    let found = from_html(html);
    assert_eq!(found.len(), 1);
    let r = &found[0].content;
    assert_eq!(r.title, "Flapjacks");
    assert_eq!(r.ingredients.len(), 3);
    assert_eq!(r.ingredients[2].quantity, "3 tbsp");
    assert_eq!(
        r.instructions,
        [
            "Melt the butter and syrup.",
            "Stir in the oats.",
            "Bake at 180C for 20 minutes."
        ]
    );
}

#[test]
fn pasted_text_with_and_without_headings() {
    let with = "Grandma's lentil soup\n\
                A warming soup for cold days.\n\
                Serves 4\n\
                Prep: 10 mins\n\
                Cook time: 40 minutes\n\
                \n\
                Ingredients:\n\
                - 1 onion, chopped\n\
                • 200g red lentils\n\
                * 1 litre vegetable stock\n\
                \n\
                Method\n\
                1. Soften the onion.\n\
                2) Add the lentils and stock.\n\
                Step 3: Simmer for 30 minutes.\n";
    let r = from_text(with)[0].clone().content;
    assert_eq!(r.title, "Grandma's lentil soup");
    assert_eq!(r.description, "A warming soup for cold days.");
    assert_eq!(
        (r.servings, r.preparation_time, r.cooking_time),
        (Some(4), 10, Some(40))
    );
    let lines: Vec<(&str, &str)> = r
        .ingredients
        .iter()
        .map(|i| (i.quantity.as_str(), i.name.as_str()))
        .collect();
    assert_eq!(
        lines,
        [
            ("1", "onion, chopped"),
            ("200g", "red lentils"),
            ("1 litre", "vegetable stock")
        ]
    );
    assert_eq!(
        r.instructions,
        [
            "Soften the onion.",
            "Add the lentils and stock.",
            "Simmer for 30 minutes."
        ]
    );

    let without = "Cheese on toast\n2 slices bread\n50 g cheddar\nToast the bread on one side.\n\
                   Grate the cheese over the other side and grill until bubbling.";
    let r = from_text(without)[0].clone().content;
    assert_eq!(r.title, "Cheese on toast");
    assert_eq!(r.ingredients.len(), 2);
    assert_eq!(r.instructions.len(), 2);

    assert!(from_text("").is_empty());
    assert!(from_text("Just a title").is_empty());
}

#[test]
fn json_ld_is_found_in_the_page_text_as_a_parser_finds_it() {
    let html = r#"<html><head>
        <!-- <script type="application/ld+json">{"@type": "Recipe", "name": "Commented out",
             "recipeIngredient": ["1 egg"]}</script> -->
        <SCRIPT data-x='a > b' TYPE = 'application/ld+json'>{"@type": "Recipe", "name": "Upper case",
            "recipeIngredient": ["1 egg"]}</SCRIPT>
        <script type="application/json">{"@type": "Recipe", "name": "Not JSON-LD",
            "recipeIngredient": ["1 egg"]}</script>
        <scripts type="application/ld+json">{"@type": "Recipe", "name": "Not a script"}</scripts>
        <script data-type="text/plain" id='schema-type' type="application/ld+json">{"@type": "Recipe",
            "name": "Other attributes first", "recipeIngredient": ["1 egg"]}</script>
        <script type=application/ld+json>{"@type": "Recipe", "name": "Unquoted",
            "recipeIngredient": ["2 eggs"]}</script>
        <script type="application/ld+json">{"@type": "Recipe", "name": "Unclosed",
            "recipeIngredient": ["3 eggs"]}"#;
    let titles: Vec<String> = from_html(html)
        .into_iter()
        .map(|d| d.content.title)
        .collect();
    assert_eq!(
        titles,
        [
            "Upper case",
            "Other attributes first",
            "Unquoted",
            "Unclosed"
        ]
    );
}

#[test]
fn a_list_of_recipe_titles_is_no_recipe() {
    let html = page(
        r#"{"@type": "ItemList", "itemListElement": [
            {"@type": "ListItem", "item": {"@type": "Recipe", "name": "Soup", "url": "/soup"}},
            {"@type": "ListItem", "item": {"@type": "Recipe", "name": "Stew", "url": "/stew"}}]}"#,
    );
    assert!(from_html(&html).is_empty());
}

#[test]
fn pasted_method_lines_that_name_a_time_stay_steps() {
    let text = "Porridge\nServes 2\nIngredients\n80g oats\n500ml milk\nMethod\n\
                Cook for 5 minutes, stirring.\nServe warm.";
    let r = &from_text(text)[0].content;
    assert_eq!(
        r.instructions,
        ["Cook for 5 minutes, stirring.", "Serve warm."]
    );
    assert_eq!((r.servings, r.cooking_time), (Some(2), None));
}

#[test]
fn a_draft_is_fitted_to_what_a_saved_recipe_holds() {
    let long_sentences = "Stir the pot gently. ".repeat(120);
    let draft = RecipeContent {
        title: format!("{} soup", "Very ".repeat(60)),
        description: "word ".repeat(400),
        ingredients: (0..150)
            .map(|i| Ingredient {
                name: format!("food {i}"),
                quantity: "1".into(),
            })
            .collect(),
        instructions: vec![long_sentences.clone(), "x".repeat(2500)],
        preparation_time: 5000,
        cooking_time: Some(3000),
        servings: Some(0),
        nutritional_info: Some(Nutrition {
            calories: f64::NAN,
            ..Nutrition::default()
        }),
        ..RecipeContent::default()
    };
    let fitted = fit(draft);
    assert!(fitted.title.chars().count() <= 200 && fitted.title.ends_with('…'));
    assert!(fitted.description.chars().count() <= 1000);
    assert_eq!(fitted.ingredients.len(), 100);
    // The long step is split after its sentences; the one without spaces at the limit.
    assert!(
        fitted
            .instructions
            .iter()
            .all(|s| s.chars().count() <= 1000)
    );
    assert!(fitted.instructions[0].ends_with("gently."));
    assert!(fitted.instructions.iter().all(|s| !s.is_empty()));
    assert_eq!(fitted.instructions.last().unwrap(), &"x".repeat(500));
    assert_eq!(
        (
            fitted.preparation_time,
            fitted.cooking_time,
            fitted.servings
        ),
        (24 * 60, None, None)
    );
    assert!(fitted.nutritional_info.is_none());
    // What `fit` gives can be saved as it is.
    let mut saveable = fitted.clone();
    saveable.instructions.truncate(60);
    assert!(saveable.validate().is_ok());
}

#[test]
fn texts_made_to_be_slow_are_read_in_one_pass() {
    // A 5 MB paste of '&'s, '<'s or one endless step: each would take minutes if every '&'
    // or '<' looked through the rest of the text.
    for text in [
        "&".repeat(5 << 20),
        "<a".repeat(5 << 19),
        "a ".repeat(5 << 19),
    ] {
        let pasted = format!("Title\nIngredients\n1 egg\nMethod\n{text}");
        let found = fit(from_text(&pasted)[0].content.clone());
        let steps = &found.instructions;
        assert!(steps.len() <= 60 && steps.iter().all(|s| s.chars().count() <= 1000));
    }
}
