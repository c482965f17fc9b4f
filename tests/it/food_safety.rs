//! Child food safety over HTTP: the food check of one child (allergens, choking, age rules).

use chrono::Utc;
use serde_json::{Value, json};

use crate::harness::{TestServer, error, family, json, months_ago, save_family_settings};

async fn add_child(server: &TestServer, parent: &reqwest::Client, body: Value) -> String {
    json(
        parent
            .post(server.url("/api/children"))
            .json(&body)
            .send()
            .await
            .unwrap(),
        201,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A family's own recipe of these ingredients (one of each).
async fn own_recipe(
    server: &TestServer,
    parent: &reqwest::Client,
    title: &str,
    ingredients: &[&str],
) -> Value {
    let lines: Vec<Value> = ingredients
        .iter()
        .map(|name| json!({"name": name, "quantity": "1"}))
        .collect();
    json(
        parent
            .post(server.url("/api/recipes"))
            .json(
                &json!({"source": "own", "title": title, "ingredients": lines,
                          "instructions": ["Serve."]}),
            )
            .send()
            .await
            .unwrap(),
        201,
    )
    .await
}

async fn food_check(
    server: &TestServer,
    parent: &reqwest::Client,
    child: &str,
    foods: &[&str],
) -> reqwest::Response {
    parent
        .post(server.url(&format!("/api/children/{child}/food-check")))
        .json(&json!({ "foods": foods }))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_babys_food_check_names_allergens_choking_and_age_rules_with_advice_and_sources() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let leo = add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(9), "allergies": ["Milk"]}),
    )
    .await;
    let check = json(
        food_check(
            &server,
            &mum,
            &leo,
            &[
                "Buttered toast",
                "Grapes",
                "Grapes, quartered lengthways",
                "Honey",
                "Grape juice",
                "Banana",
            ],
        )
        .await,
        200,
    )
    .await;
    assert_eq!(check["childName"], "Leo");
    assert_eq!(check["age"], "9 months");
    assert_eq!(check["prompt"], Value::Null);
    let warnings = check["warnings"].as_array().unwrap();
    let seen: Vec<(&str, &str, bool)> = warnings
        .iter()
        .map(|w| {
            (
                w["kind"].as_str().unwrap(),
                w["food"].as_str().unwrap(),
                w["prepared"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("allergen", "Buttered toast", false),
            ("choking", "Grapes", false),
            ("choking", "Grapes, quartered lengthways", true),
            ("age", "Honey", false),
        ]
    );
    assert_eq!(
        warnings[0]["message"],
        "Buttered toast contains milk (butter)"
    );
    assert_eq!(warnings[0]["source"], Value::Null);
    assert!(
        warnings[1]["advice"]
            .as_str()
            .unwrap()
            .contains("lengthways into quarters")
    );
    assert!(
        warnings[1]["source"]["url"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
    assert_eq!(warnings[3]["source"]["publisher"], "NHS");
    assert_eq!(
        check["note"],
        "For Leo (9 months): quarter the grapes lengthways; no honey before 12 months"
    );

    // At 5 the same grapes and honey are fine; the allergy still counts.
    let older = add_child(
        &server,
        &mum,
        json!({"name": "Maya", "age": 5, "allergies": ["Milk"]}),
    )
    .await;
    let check = json(
        food_check(&server, &mum, &older, &["Grapes", "Honey", "Butter"]).await,
        200,
    )
    .await;
    assert_eq!(check["age"], "5 years");
    let kinds: Vec<_> = check["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["allergen"]);
}

#[tokio::test]
async fn a_child_without_an_age_gets_the_allergens_and_a_prompt_for_a_birth_month() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let ada = add_child(
        &server,
        &mum,
        json!({"name": "Ada", "allergies": ["peanut"]}),
    )
    .await;
    let check = json(
        food_check(&server, &mum, &ada, &["Peanuts", "Honey"]).await,
        200,
    )
    .await;
    assert_eq!(check["age"], Value::Null);
    assert_eq!(
        check["prompt"],
        "Add Ada's birth month to their profile to check foods for their age."
    );
    assert_eq!(check["warnings"].as_array().unwrap().len(), 1);
    assert_eq!(check["warnings"][0]["kind"], "allergen");
}

#[tokio::test]
async fn the_food_check_is_the_familys_own_and_bounded() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let other = family(&server, "other@example.org").await;
    let leo = add_child(&server, &mum, json!({"name": "Leo", "age": 1})).await;

    let (title, _, _) = error(food_check(&server, &other, &leo, &["Honey"]).await, 404).await;
    assert_eq!(title, "Not found");
    let anon = server.new_client();
    let (_, message, _) = error(food_check(&server, &anon, &leo, &["Honey"]).await, 401).await;
    assert_eq!(message, "You must be logged in to check foods");

    let many: Vec<String> = (0..500).map(|i| format!("food {i}")).collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    let (title, message, field) = error(food_check(&server, &mum, &leo, &many).await, 400).await;
    assert_eq!(title, "Error checking foods");
    assert!(message.contains("entries or fewer"), "{message}");
    assert_eq!(field.as_deref(), Some("foods"));
}

#[tokio::test]
async fn the_meal_plan_names_choking_and_age_rules_for_the_children_an_entry_is_for() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let leo = add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(9)}),
    )
    .await;
    let maya = add_child(&server, &mum, json!({"name": "Maya", "age": 7})).await;
    let today = Utc::now().date_naive();

    // Before saving: the check of one entry for the whole family.
    let found = json(
        mum.post(server.url("/api/meal-plan/check"))
            .json(&json!({"date": today.to_string(), "mealType": "Lunch",
                          "text": "Grapes and honey yoghurt"}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let seen: Vec<(String, String, String)> = found["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["childName"].as_str().unwrap().to_string(),
                w["kind"].as_str().unwrap().to_string(),
                w["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                "Leo".into(),
                "choking".into(),
                "quarter the grapes lengthways".into()
            ),
            (
                "Leo".into(),
                "age".into(),
                "no honey before 12 months".into()
            ),
        ]
    );
    assert_eq!(found["warnings"][0]["age"], "9 months");
    assert!(
        found["warnings"][1]["advice"]
            .as_str()
            .unwrap()
            .contains("12 months")
    );

    // Saved for Maya only: nothing to say; for both: Leo's notes on the week.
    let week = json(
        mum.get(server.url("/api/meal-plan")).send().await.unwrap(),
        200,
    )
    .await;
    let saved = json(
        mum.put(server.url(&format!(
            "/api/meal-plan?week={}",
            week["week"].as_str().unwrap()
        )))
        .json(&json!({"version": 0, "entries": [
            {"date": today.to_string(), "mealType": "Lunch", "text": "Grapes",
             "childIds": [maya]},
            {"date": today.to_string(), "mealType": "Dinner", "text": "Popcorn",
             "childIds": [leo, maya]},
        ]}))
        .send()
        .await
        .unwrap(),
        200,
    )
    .await;
    let warnings = saved["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["childName"], "Leo");
    assert_eq!(warnings[0]["kind"], "choking");
    assert_eq!(warnings[0]["message"], "no popcorn");
}

#[tokio::test]
async fn a_saved_recipe_carries_each_childs_notes_for_their_age() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(9)}),
    )
    .await;
    add_child(&server, &mum, json!({"name": "Maya", "age": 3})).await;
    add_child(&server, &mum, json!({"name": "Sam", "age": 9})).await;
    let saved = own_recipe(
        &server,
        &mum,
        "Fruit salad with honey",
        &["Grapes", "Honey", "Banana"],
    )
    .await;
    // The rules that apply, then how to serve it at that age; nothing for Sam at 9.
    let expected = json!([
        "For Leo (9 months): quarter the grapes lengthways; no honey before 12 months; mash a \
         portion or chop it into soft, small pieces to pick up",
        "For Maya (3 years): quarter the grapes lengthways; cut round or firm pieces small, and \
         sit with them while they eat"
    ]);
    assert_eq!(saved["safetyNotes"], expected);
    let listed = json(
        mum.get(server.url("/api/recipes")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(listed[0]["safetyNotes"], expected);
    let id = saved["id"].as_str().unwrap();
    let one = json(
        mum.get(server.url(&format!("/api/recipes/{id}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(one["safetyNotes"], expected);
}

#[tokio::test]
async fn a_grocery_list_from_recipes_says_what_its_items_mean_for_the_children() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(9), "allergies": ["milk"]}),
    )
    .await;
    let recipe = own_recipe(
        &server,
        &mum,
        "Snack plate",
        &["Grapes", "Butter", "Banana"],
    )
    .await;
    let draft = json(
        mum.post(server.url("/api/grocery-lists/from-recipes"))
            .json(&json!({"recipeIds": [recipe["id"]]}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(
        draft["notes"],
        json!([
            {"name": "Grapes", "notes": ["For Leo (9 months): quarter the grapes lengthways"]},
            {"name": "Butter", "notes": ["Leo is allergic: Butter contains milk (butter)"]},
        ])
    );
}

async fn log_meal(
    server: &TestServer,
    parent: &reqwest::Client,
    child: &str,
    days_ago: i64,
    foods: &[&str],
    reaction: &str,
) {
    let when = Utc::now() - chrono::Duration::days(days_ago);
    json(
        parent
            .post(server.url("/api/meals"))
            .json(
                &json!({"childId": child, "mealType": "Lunch", "foods": foods,
                          "mealDate": when.to_rfc3339(), "reaction": reaction,
                          "reactionNote": if reaction == "none" { "" } else { "Hives" }}),
            )
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
}

#[tokio::test]
async fn back_dated_meals_make_each_allergen_introduction_state() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let leo = add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(8), "allergies": ["celery"]}),
    )
    .await;
    for days in [1, 3, 5] {
        log_meal(&server, &mum, &leo, days, &["Scrambled egg"], "none").await;
    }
    log_meal(&server, &mum, &leo, 2, &["Smooth peanut butter"], "none").await;
    for days in [10, 12, 14] {
        log_meal(&server, &mum, &leo, days, &["Salmon"], "none").await;
    }
    log_meal(&server, &mum, &leo, 4, &["Hummus"], "mild").await;

    let intro = json(
        mum.get(server.url(&format!("/api/children/{leo}/allergens")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(intro["region"], "uk14");
    assert_eq!(intro["childName"], "Leo");
    let allergens = intro["allergens"].as_array().unwrap();
    assert_eq!(allergens.len(), 14);
    let of = |key: &str| {
        allergens
            .iter()
            .find(|a| a["allergen"] == key)
            .unwrap()
            .clone()
    };
    assert_eq!(of("eggs")["state"], "regular");
    assert_eq!(of("eggs")["times"], 3);
    assert_eq!(of("eggs")["daysSinceLast"], 1);
    assert_eq!(of("peanuts")["state"], "started");
    assert_eq!(of("fish")["state"], "lapsed");
    assert_eq!(of("fish")["daysSinceLast"], 10);
    assert_eq!(of("sesame")["state"], "reaction");
    assert_eq!(of("celery")["state"], "avoid");
    assert_eq!(of("mustard")["state"], "notStarted");
    assert_eq!(of("mustard")["firstGiven"], Value::Null);
    // Peanuts are still being started: nothing new to try yet.
    assert_eq!(intro["next"], Value::Null);

    // The meal form says when one meal would bring in two new allergens.
    let check = json(
        food_check(&server, &mum, &leo, &["Mustard chicken", "Prawns"]).await,
        200,
    )
    .await;
    assert_eq!(
        check["introduction"],
        "Mustard and crustaceans would both be new for Leo: introduce one new allergen at a \
         time, so a reaction points to one food."
    );
    let check = json(
        food_check(&server, &mum, &leo, &["Egg", "Prawns"]).await,
        200,
    )
    .await;
    assert_eq!(check["introduction"], Value::Null, "eggs are not new");

    // Another family's child is not found.
    let other = family(&server, "other@example.org").await;
    error(
        other
            .get(server.url(&format!("/api/children/{leo}/allergens")))
            .send()
            .await
            .unwrap(),
        404,
    )
    .await;
}

#[tokio::test]
async fn generated_recipes_are_made_for_the_youngest_child_and_carry_each_childs_notes() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(9)}),
    )
    .await;
    let resp = mum
        .post(server.url("/api/recipes/generate"))
        .json(
            &json!({"ingredients": ["Chicken breast", "Carrot", "Basmati rice", "Honey"],
                      "servings": 2, "difficulty": "easy", "quantity": 3}),
        )
        .send()
        .await
        .unwrap();
    let id = json(resp, 202).await["jobId"].as_str().unwrap().to_string();
    let job = crate::recipes::finished(&server, &mum, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    let recipes = job["recipes"].as_array().unwrap();
    let notes = job["safetyNotes"].as_array().unwrap();
    assert_eq!(notes.len(), recipes.len());
    // Made for Leo: no honey (left out, and the job says why), no salt, stock or soy sauce.
    let job_notes = job["notes"].to_string();
    assert!(
        job_notes.contains("Honey was left out: for Leo (9 months), no honey before 12 months."),
        "{job_notes}"
    );
    for (recipe, notes) in recipes.iter().zip(notes) {
        let names: Vec<String> = recipe["ingredients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().unwrap().to_lowercase())
            .collect();
        let notes: Vec<&str> = notes
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        for note in &notes {
            assert!(note.starts_with("For Leo (9 months): "), "{note}");
        }
        for banned in ["honey", "stock cube", "soy sauce", "salt"] {
            assert!(
                names.iter().all(|n| !n.contains(banned)),
                "{banned}: {names:?}"
            );
        }
        // Every recipe has the carrot, named as Leo has it, and the advice stays.
        assert!(
            names.contains(&"carrot, grated or cooked soft".to_string()),
            "{names:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("carrot cooked soft or grated")),
            "{names:?}: {notes:?}"
        );
        // And how to serve it at Leo's age.
        assert!(
            notes[0].ends_with("; mash a portion or chop it into soft, small pieces to pick up"),
            "{notes:?}"
        );
    }
}

#[tokio::test]
async fn the_familys_allergen_list_is_a_shared_versioned_setting_the_introduction_follows() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let leo = add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(8)}),
    )
    .await;
    let get_settings = |client: reqwest::Client| {
        let url = server.url("/api/family/settings");
        async move { json(client.get(url).send().await.unwrap(), 200).await }
    };
    let intro = |client: reqwest::Client| {
        let url = server.url(&format!("/api/children/{leo}/allergens"));
        async move { json(client.get(url).send().await.unwrap(), 200).await }
    };

    // Never saved: the UK and EU's 14, at version 0, with both lists to choose from.
    let settings = get_settings(mum.clone()).await;
    assert_eq!(settings["version"], 0);
    assert_eq!(settings["allergenList"], "uk14");
    let lists = settings["allergenLists"].as_array().unwrap();
    assert_eq!(lists.len(), 2);
    assert_eq!(lists[0]["allergens"].as_array().unwrap().len(), 14);
    assert_eq!(lists[1]["id"], "us9");
    assert_eq!(lists[1]["allergens"].as_array().unwrap().len(), 9);
    assert!(
        lists[1]["allergens"]
            .as_array()
            .unwrap()
            .contains(&json!("Wheat"))
    );
    assert_eq!(intro(mum.clone()).await["region"], "uk14");

    let saved = json(
        save_family_settings(&server, &mum, json!({"version": 0, "allergenList": "us9"})).await,
        200,
    )
    .await;
    assert_eq!(
        (saved["version"].as_u64(), &saved["allergenList"]),
        (Some(1), &json!("us9"))
    );
    let us = intro(mum.clone()).await;
    assert_eq!(us["region"], "us9");
    let allergens = us["allergens"].as_array().unwrap();
    assert_eq!(allergens.len(), 9);
    assert!(allergens.iter().all(|a| a["allergen"] != "celery"));
    let gluten = allergens
        .iter()
        .find(|a| a["allergen"] == "gluten")
        .unwrap();
    assert_eq!(gluten["label"], "Wheat");

    // Saved from an old version: 409 with the settings as they are; nothing changes.
    let stale = json(
        save_family_settings(&server, &mum, json!({"version": 0, "allergenList": "uk14"})).await,
        409,
    )
    .await;
    assert_eq!(stale["title"], "Update conflict");
    assert_eq!(stale["field"], "version");
    assert_eq!(stale["current"]["version"], 1);
    assert_eq!(stale["current"]["allergenList"], "us9");
    assert_eq!(get_settings(mum.clone()).await["allergenList"], "us9");

    // Not a list: 400; signed out: 401.
    let (title, _, _) = error(
        save_family_settings(&server, &mum, json!({"version": 1, "allergenList": "eu"})).await,
        400,
    )
    .await;
    assert_eq!(title, "Invalid request");
    let anon = server.new_client();
    error(
        save_family_settings(
            &server,
            &anon,
            json!({"version": 1, "allergenList": "uk14"}),
        )
        .await,
        401,
    )
    .await;
    error(
        anon.get(server.url("/api/family/settings"))
            .send()
            .await
            .unwrap(),
        401,
    )
    .await;

    // Another family has its own settings, and its saves are its own.
    let other = family(&server, "other@example.org").await;
    assert_eq!(get_settings(other.clone()).await["allergenList"], "uk14");
    json(
        save_family_settings(
            &server,
            &other,
            json!({"version": 1, "allergenList": "uk14"}),
        )
        .await,
        409,
    )
    .await;
    let theirs = json(
        save_family_settings(
            &server,
            &other,
            json!({"version": 0, "allergenList": "uk14"}),
        )
        .await,
        200,
    )
    .await;
    assert_eq!(theirs["version"], 1);
    assert_eq!(get_settings(mum.clone()).await["allergenList"], "us9");

    // Back to the UK list: the introduction follows at once.
    json(
        save_family_settings(&server, &mum, json!({"version": 1, "allergenList": "uk14"})).await,
        200,
    )
    .await;
    assert_eq!(
        intro(mum.clone()).await["allergens"]
            .as_array()
            .unwrap()
            .len(),
        14
    );
}

/// A server catalogue's text for `english` (the key), with `{{name}}` values filled in.
fn worded(lang: &str, english: &str, values: &[(&str, &str)]) -> String {
    let path = format!("{}/locales/server/{lang}.json", env!("CARGO_MANIFEST_DIR"));
    let catalogue: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut text = catalogue[english]
        .as_str()
        .unwrap_or_else(|| panic!("{lang} has no {english:?}"))
        .to_string();
    for (name, value) in values {
        text = text.replace(&format!("{{{{{name}}}}}"), value);
    }
    text
}

#[tokio::test]
async fn the_food_check_speaks_the_parents_language_with_every_warning_and_note() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let leo = add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(9), "allergies": ["Milk"]}),
    )
    .await;
    const ROUND: &str = "Small round foods like grapes can block a young child's airway: halves \
                         are not small enough.";
    const HONEY: &str = "no honey before 12 months";
    for lang in ["fr", "de", "es"] {
        let resp = mum
            .post(server.url(&format!("/api/children/{leo}/food-check")))
            .header("accept-language", lang)
            .json(&json!({ "foods": ["Buttered toast", "Grapes", "Honey"] }))
            .send()
            .await
            .unwrap();
        let check = json(resp, 200).await;
        let warnings = check["warnings"].as_array().unwrap();
        // The same warnings as in English, each worded in the language: none dropped.
        let kinds: Vec<_> = warnings
            .iter()
            .map(|w| w["kind"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["allergen", "choking", "age"], "{lang}");
        assert_eq!(
            warnings[0]["message"],
            worded(
                lang,
                "{{food}} contains {{allergen}} ({{matched}})",
                &[
                    ("food", "Buttered toast"),
                    ("allergen", &worded(lang, "milk", &[])),
                    ("matched", "butter")
                ]
            ),
            "{lang}"
        );
        assert_eq!(warnings[1]["message"], worded(lang, ROUND, &[]), "{lang}");
        assert!(!warnings[1]["advice"].as_str().unwrap().is_empty());
        assert_ne!(warnings[1]["advice"], json!(null));
        let age = worded(lang, "{{count}} months_other", &[("count", "9")]);
        assert_eq!(check["age"], age, "{lang}");
        let quarter = worded(
            lang,
            "quarter the {{food}} lengthways",
            &[("food", "grapes")],
        );
        let note = worded(
            lang,
            "For {{name}} ({{age}}): {{notes}}",
            &[
                ("name", "Leo"),
                ("age", &age),
                (
                    "notes",
                    // French puts a no-break space before the semicolon.
                    &format!(
                        "{quarter}{}; {}",
                        if lang == "fr" { "\u{a0}" } else { "" },
                        worded(lang, HONEY, &[])
                    ),
                ),
            ],
        );
        assert_eq!(check["note"], note, "{lang}");
        assert_ne!(
            check["note"],
            json!("For Leo (9 months): quarter the grapes lengthways; no honey before 12 months")
        );
    }
}

#[tokio::test]
async fn the_allergen_page_and_the_lists_to_choose_name_allergens_in_the_parents_language() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let leo = add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(8)}),
    )
    .await;
    let get = |path: String| {
        mum.get(server.url(&path))
            .header("accept-language", "de-DE")
            .send()
    };
    let page = json(
        get(format!("/api/children/{leo}/allergens")).await.unwrap(),
        200,
    )
    .await;
    assert_eq!(
        page["regionTitle"],
        worded("de", "UK and EU, the 14 allergens of food law", &[])
    );
    let labels: Vec<&str> = page["allergens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels.len(), 14);
    assert_eq!(labels[0], worded("de", "Celery", &[]));
    // The stable keys stay as they are, whatever the language.
    assert_eq!(page["allergens"][0]["allergen"], "celery");
    let settings = json(get("/api/family/settings".into()).await.unwrap(), 200).await;
    let us = &settings["allergenLists"][1];
    assert_eq!(
        us["title"],
        worded("de", "US, the 9 major food allergens", &[])
    );
    assert!(
        us["allergens"]
            .as_array()
            .unwrap()
            .contains(&json!(worded("de", "Wheat", &[]))),
        "{us}"
    );
}

/// The warnings' rule keys of a food check answer, with their foods as typed.
fn warned(check: &Value) -> Vec<(String, String)> {
    check["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["kind"].as_str().unwrap().to_string(),
                w["food"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn foods_typed_in_french_german_or_spanish_warn_whoever_reads_them() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let leo = add_child(
        &server,
        &mum,
        json!({"name": "Leo", "birthMonth": months_ago(9), "allergies": ["Peanuts", "Lait"]}),
    )
    .await;
    let foods = [
        "Beurre de cacahuète",
        "raisins entiers",
        "Erdnussbutter",
        "Vollmilch",
        "uvas enteras",
        "jus de raisin",
        "pain sans gluten",
    ];
    // A French parent and an English co-parent get the same warnings: the reading does not
    // depend on who looks.
    let mut seen = Vec::new();
    for lang in ["fr", "en"] {
        let resp = mum
            .post(server.url(&format!("/api/children/{leo}/food-check")))
            .header("accept-language", lang)
            .json(&json!({ "foods": foods }))
            .send()
            .await
            .unwrap();
        seen.push(warned(&json(resp, 200).await));
    }
    assert_eq!(seen[0], seen[1]);
    let has = |kind: &str, food: &str| seen[0].iter().any(|(k, f)| k == kind && f == food);
    assert!(has("allergen", "Beurre de cacahuète"), "{seen:?}");
    assert!(has("allergen", "Erdnussbutter"), "{seen:?}");
    // "Lait" is read as milk, in German whole milk too.
    assert!(has("allergen", "Vollmilch"), "{seen:?}");
    assert!(has("choking", "raisins entiers"), "{seen:?}");
    assert!(has("choking", "uvas enteras"), "{seen:?}");
    assert!(
        has("age", "Vollmilch"),
        "milk as a drink before 12 months: {seen:?}"
    );
    // Grape juice is not a whole grape; gluten-free bread carries no allergen of Leo's.
    assert!(
        !seen[0]
            .iter()
            .any(|(_, f)| f == "jus de raisin" || f == "pain sans gluten")
    );

    // The warning shows the words as typed, worded in the reader's language.
    let resp = mum
        .post(server.url(&format!("/api/children/{leo}/food-check")))
        .header("accept-language", "fr")
        .json(&json!({ "foods": ["Beurre de cacahuète"] }))
        .send()
        .await
        .unwrap();
    let check = json(resp, 200).await;
    let message = check["warnings"][0]["message"].as_str().unwrap();
    assert!(message.contains("(beurre de cacahuète)"), "{message}");
    assert!(!message.contains("peanut"), "{message}");

    // Logged as a meal, the exposure is kept and worded for each reader.
    let meal = json(
        mum.post(server.url("/api/meals"))
            .json(&json!({"childId": leo, "mealType": "Lunch", "foods": ["Tartine au beurre de cacahuète"]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let id = meal["id"].as_str().unwrap();
    for (lang, contains) in [("en", "contains peanuts"), ("de", "Erdnüsse")] {
        let read = json(
            mum.get(server.url(&format!("/api/meals/{id}")))
                .header("accept-language", lang)
                .send()
                .await
                .unwrap(),
            200,
        )
        .await;
        let exposure = read["exposures"][0]["message"].as_str().unwrap();
        assert!(exposure.contains(contains), "{lang}: {exposure}");
        assert!(
            exposure.contains("beurre de cacahuète"),
            "{lang}: {exposure}"
        );
    }
}
