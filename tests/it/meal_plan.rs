//! The weekly meal plan over HTTP: ISO weeks, saves with versions and 409, validation texts,
//! title snapshots, allergy warnings, other families' 404s, grocery drafts scaled to the
//! planned servings, and the change feed.

use serde_json::{Value, json};

use crate::events::Stream;
use crate::harness::{TestServer, error, family, json};

const WEEK: &str = "2026-W48";

async fn get_week(server: &TestServer, client: &reqwest::Client, week: &str) -> Value {
    let resp = client
        .get(server.url(&format!("/api/meal-plan?week={week}")))
        .send()
        .await
        .unwrap();
    json(resp, 200).await
}

async fn put_week(
    server: &TestServer,
    client: &reqwest::Client,
    week: &str,
    body: Value,
) -> reqwest::Response {
    client
        .put(server.url(&format!("/api/meal-plan?week={week}")))
        .json(&body)
        .send()
        .await
        .unwrap()
}

async fn save_recipe(
    server: &TestServer,
    client: &reqwest::Client,
    title: &str,
    servings: Option<u32>,
    lines: Value,
) -> Value {
    let resp = client
        .post(server.url("/api/recipes"))
        .json(
            &json!({"source": "own", "title": title, "servings": servings,
                      "ingredients": lines, "instructions": ["Cook."]}),
        )
        .send()
        .await
        .unwrap();
    json(resp, 201).await
}

async fn child(
    server: &TestServer,
    client: &reqwest::Client,
    name: &str,
    allergies: Value,
) -> String {
    let resp = client
        .post(server.url("/api/children"))
        .json(&json!({"name": name, "age": 4, "allergies": allergies}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await["id"].as_str().unwrap().to_string()
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn an_unsaved_week_is_empty_and_weeks_are_iso_8601() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.empty@example.org").await;
    let plan = get_week(&server, &parent, WEEK).await;
    assert_eq!(plan["week"], WEEK);
    assert_eq!(
        plan["days"],
        json!([
            "2026-11-23",
            "2026-11-24",
            "2026-11-25",
            "2026-11-26",
            "2026-11-27",
            "2026-11-28",
            "2026-11-29"
        ])
    );
    assert_eq!(plan["entries"], json!([]));
    assert_eq!(plan["warnings"], json!([]));
    assert_eq!(plan["version"], 0);
    assert_eq!(plan["updatedAt"], Value::Null);
    // The year boundary: 2027-W01 starts on Monday 4 January; 2020 and 2026 have a week 53.
    let first = get_week(&server, &parent, "2027-W01").await;
    assert_eq!(first["days"][0], "2027-01-04");
    assert_eq!(
        get_week(&server, &parent, "2020-W53").await["days"][6],
        "2021-01-03"
    );
    assert_eq!(
        get_week(&server, &parent, "2026-W53").await["days"][0],
        "2026-12-28"
    );
    // No week: the current one (UTC).
    let resp = parent
        .get(server.url("/api/meal-plan"))
        .send()
        .await
        .unwrap();
    let now = json(resp, 200).await;
    let current = highchair::domain::meal_plan::Week::current(chrono::Utc::now()).to_string();
    assert_eq!(now["week"], current);
    for bad in [
        "2026-48",
        "2025-W53",
        "2027-W53",
        "2026-W00",
        "junk",
        "2026-W48x",
    ] {
        let resp = parent
            .get(server.url(&format!("/api/meal-plan?week={bad}")))
            .send()
            .await
            .unwrap();
        let (t, m, f) = error(resp, 400).await;
        assert_eq!(
            (t.as_str(), m.as_str(), f.as_deref()),
            ("Invalid week", "Use a week like 2026-W48.", Some("week")),
            "{bad}"
        );
    }
    // Reading wrote nothing: the week is still saved from version 0.
    let resp = put_week(&server, &parent, WEEK, json!({"entries": [], "version": 0})).await;
    assert_eq!(json(resp, 200).await["version"], 1);
    let resp = server
        .new_client()
        .get(server.url("/api/meal-plan"))
        .send()
        .await
        .unwrap();
    let (t, _, _) = error(resp, 401).await;
    assert_eq!(t, "Authentication required");
}

#[tokio::test]
async fn a_week_round_trips_keeps_ids_and_snapshots_titles() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.trip@example.org").await;
    let ava = child(&server, &parent, "Ava", json!([])).await;
    let pasta = save_recipe(
        &server,
        &parent,
        "Pasta bake",
        Some(2),
        json!([{"name": "Pasta", "quantity": "200 g"}]),
    )
    .await;
    let resp = put_week(
        &server,
        &parent,
        WEEK,
        json!({"version": 0, "entries": [
            {"date": "2026-11-24", "mealType": "Lunch", "text": "  <b>Leftovers</b>  "},
            {"date": "2026-11-23", "mealType": "dinner", "recipeId": id(&pasta), "servings": 4,
             "childIds": [ava]},
            {"date": "2026-11-23", "mealType": "Breakfast", "recipeId": id(&pasta)}
        ]}),
    )
    .await;
    let saved = json(resp, 200).await;
    assert_eq!(saved["version"], 1);
    assert!(saved["updatedAt"].is_string());
    let entries = saved["entries"].as_array().unwrap();
    // By day, then by meal of the day.
    let shown: Vec<(&str, &str, &str, u64)> = entries
        .iter()
        .map(|e| {
            (
                e["date"].as_str().unwrap(),
                e["mealType"].as_str().unwrap(),
                e["title"].as_str().unwrap(),
                e["servings"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            ("2026-11-23", "Breakfast", "Pasta bake", 2),
            ("2026-11-23", "Dinner", "Pasta bake", 4),
            ("2026-11-24", "Lunch", "Leftovers", 1),
        ]
    );
    assert_eq!(entries[1]["recipeId"], pasta["id"]);
    assert_eq!(entries[1]["childIds"], json!([ava]));
    assert_eq!(entries[2]["recipeId"], Value::Null);
    assert_eq!(entries[2]["childIds"], json!([]));
    assert_eq!(get_week(&server, &parent, WEEK).await, saved);
    // Another week is its own.
    assert_eq!(
        get_week(&server, &parent, "2026-W49").await["entries"],
        json!([])
    );

    // Sent back with ids: they are kept. The recipe is then deleted; its entries keep the title.
    let mut again: Vec<Value> = entries.clone();
    again.truncate(2);
    let resp = put_week(
        &server,
        &parent,
        WEEK,
        json!({"version": 1, "entries": again}),
    )
    .await;
    let second = json(resp, 200).await;
    assert_eq!(second["version"], 2);
    assert_eq!(second["entries"][0]["id"], entries[0]["id"]);
    assert_eq!(second["entries"][1]["id"], entries[1]["id"]);
    assert_eq!(second["entries"].as_array().unwrap().len(), 2);
    let resp = parent
        .delete(server.url(&format!("/api/recipes/{}", id(&pasta))))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    let after = get_week(&server, &parent, WEEK).await;
    assert_eq!(after["entries"][1]["title"], "Pasta bake");
    assert_eq!(after["entries"][1]["recipeId"], pasta["id"]);
    // Saved as it is, the deleted recipe's entries stay; a new entry with it is refused.
    let resp = put_week(
        &server,
        &parent,
        WEEK,
        json!({"version": 2, "entries": after["entries"]}),
    )
    .await;
    assert_eq!(json(resp, 200).await["version"], 3);
    let resp = put_week(
        &server,
        &parent,
        WEEK,
        json!({"version": 3, "entries": [
            {"date": "2026-11-25", "mealType": "Dinner", "recipeId": id(&pasta)}
        ]}),
    )
    .await;
    let (t, m, f) = error(resp, 404).await;
    assert_eq!(
        (t.as_str(), m.as_str(), f.as_deref()),
        (
            "Recipe not found",
            "That recipe is not among your saved recipes; it may have been deleted.",
            Some("recipeId")
        )
    );
    assert_eq!(get_week(&server, &parent, WEEK).await["version"], 3);
}

#[tokio::test]
async fn a_stale_save_is_refused_with_the_week_as_it_is() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.stale@example.org").await;
    let body = |version: u64, text: &str| {
        json!({"version": version, "entries": [
            {"date": "2026-11-26", "mealType": "Dinner", "text": text}
        ]})
    };
    // A week never saved is version 0.
    let resp = put_week(&server, &parent, WEEK, body(5, "Soup")).await;
    let conflict = json(resp, 409).await;
    assert_eq!(conflict["title"], "Update conflict");
    assert_eq!(conflict["field"], "version");
    assert_eq!(conflict["current"]["version"], 0);
    assert_eq!(conflict["current"]["entries"], json!([]));
    json(put_week(&server, &parent, WEEK, body(0, "Soup")).await, 200).await;
    json(put_week(&server, &parent, WEEK, body(1, "Stew")).await, 200).await;
    // The other parent's save, made from version 1, changes nothing.
    let resp = put_week(&server, &parent, WEEK, body(1, "Pizza")).await;
    let conflict = json(resp, 409).await;
    assert!(
        conflict["message"]
            .as_str()
            .unwrap()
            .starts_with("This meal plan was changed elsewhere"),
        "{conflict}"
    );
    assert_eq!(conflict["current"]["version"], 2);
    assert_eq!(conflict["current"]["entries"][0]["title"], "Stew");
    let now = get_week(&server, &parent, WEEK).await;
    assert_eq!(now, conflict["current"]);
}

#[tokio::test]
async fn invalid_entries_are_refused_with_clear_texts() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.invalid@example.org").await;
    let recipe = save_recipe(
        &server,
        &parent,
        "Rice",
        None,
        json!([{"name": "Rice", "quantity": "1 cup"}]),
    )
    .await;
    let entry = |extra: Value| {
        let mut e = json!({"date": "2026-11-23", "mealType": "Lunch"});
        for (k, v) in extra.as_object().unwrap() {
            e[k] = v.clone();
        }
        json!({"version": 0, "entries": [e]})
    };
    for (body, message, field) in [
        (
            entry(json!({"text": "Soup", "date": "2026-11-30"})),
            "Please choose a day of the week 2026-W48 (Mon 23 Nov to Sun 29 Nov)",
            "date",
        ),
        (
            entry(json!({"text": "Soup", "date": "tomorrow"})),
            "Please choose a day (YYYY-MM-DD)",
            "date",
        ),
        (
            entry(json!({"text": "Soup", "mealType": "Elevenses"})),
            "Please choose a meal type",
            "mealType",
        ),
        (
            entry(json!({})),
            "Please choose a saved recipe or type a meal",
            "text",
        ),
        (
            entry(json!({"text": "<p> </p>"})),
            "Please choose a saved recipe or type a meal",
            "text",
        ),
        (
            entry(json!({"text": "Soup", "recipeId": id(&recipe)})),
            "Please choose a saved recipe or type a meal, not both",
            "text",
        ),
        (
            entry(json!({"text": "x".repeat(101)})),
            "What's planned must be 100 characters or less",
            "text",
        ),
        (
            entry(json!({"text": "Soup", "servings": 21})),
            "Servings must be a whole number from 1 to 20",
            "servings",
        ),
        (
            entry(json!({"text": "Soup", "servings": 0})),
            "Servings must be a whole number from 1 to 20",
            "servings",
        ),
        (
            entry(json!({"text": "Soup", "childIds": [uuid::Uuid::now_v7().to_string()]})),
            "Please choose from your children",
            "childIds",
        ),
        (
            json!({"version": 0, "entries": vec![json!({"date": "2026-11-23", "mealType": "Lunch", "text": "Soup"}); 101]}),
            "Please plan at most 100 meals a week",
            "entries",
        ),
    ] {
        let resp = put_week(&server, &parent, WEEK, body.clone()).await;
        let (t, m, f) = error(resp, 400).await;
        assert_eq!(
            (t.as_str(), m.as_str(), f.as_deref()),
            ("Error saving meal plan", message, Some(field)),
            "{body}"
        );
    }
    // A save names its week.
    let resp = parent
        .put(server.url("/api/meal-plan"))
        .json(&json!({"version": 0, "entries": []}))
        .send()
        .await
        .unwrap();
    let (t, m, f) = error(resp, 400).await;
    assert_eq!(
        (t.as_str(), m.as_str(), f.as_deref()),
        ("Invalid week", "Use a week like 2026-W48.", Some("week"))
    );
    // A recipe without servings plans 1 by default; 100 entries are fine.
    let resp = put_week(
        &server,
        &parent,
        WEEK,
        json!({"version": 0, "entries": vec![json!({"date": "2026-11-29", "mealType": "Evening Snack", "recipeId": id(&recipe)}); 100]}),
    )
    .await;
    let saved = json(resp, 200).await;
    assert_eq!(saved["entries"].as_array().unwrap().len(), 100);
    assert_eq!(saved["entries"][0]["servings"], 1);
    assert_eq!(saved["entries"][0]["mealType"], "Evening Snack");
}

#[tokio::test]
async fn another_familys_recipes_children_and_plan_are_out_of_reach() {
    let server = TestServer::start().await;
    let mum = family(&server, "plan.mine@example.org").await;
    let nosy = family(&server, "plan.nosy@example.org").await;
    let kid = child(&server, &mum, "Ava", json!([])).await;
    let recipe = save_recipe(
        &server,
        &mum,
        "Secret stew",
        Some(2),
        json!([{"name": "Beef", "quantity": "300 g"}]),
    )
    .await;
    let saved = json(
        put_week(
            &server,
            &mum,
            WEEK,
            json!({"version": 0, "entries": [
                {"date": "2026-11-23", "mealType": "Dinner", "recipeId": id(&recipe), "childIds": [kid]}
            ]}),
        )
        .await,
        200,
    )
    .await;
    // The other family's week is its own: empty, and nothing of ours in it.
    let theirs = get_week(&server, &nosy, WEEK).await;
    assert_eq!(
        (theirs["version"].clone(), theirs["entries"].clone()),
        (json!(0), json!([]))
    );
    assert!(!theirs.to_string().contains("Secret stew"));
    // Our recipe in their plan is not found, exactly as an id that never existed.
    let with = |recipe: String| {
        json!({"version": 0, "entries": [
            {"date": "2026-11-23", "mealType": "Dinner", "recipeId": recipe}
        ]})
    };
    let ours = put_week(&server, &nosy, WEEK, with(id(&recipe))).await;
    let ours = (ours.status(), ours.text().await.unwrap());
    let random = put_week(&server, &nosy, WEEK, with(uuid::Uuid::now_v7().to_string())).await;
    let random = (random.status(), random.text().await.unwrap());
    assert_eq!(ours.0, 404);
    assert_eq!(ours, random);
    assert!(ours.1.contains("Recipe not found"));
    // Our child in their plan is refused as an unknown one.
    let resp = put_week(
        &server,
        &nosy,
        WEEK,
        json!({"version": 0, "entries": [
            {"date": "2026-11-23", "mealType": "Dinner", "text": "Soup", "childIds": [kid]}
        ]}),
    )
    .await;
    let (_, m, f) = error(resp, 400).await;
    assert_eq!(
        (m.as_str(), f.as_deref()),
        ("Please choose from your children", Some("childIds"))
    );
    // Their draft from the week does not see our plan.
    let resp = nosy
        .post(server.url("/api/grocery-lists/from-meal-plan"))
        .json(&json!({"week": WEEK}))
        .send()
        .await
        .unwrap();
    let (t, _, _) = error(resp, 400).await;
    assert_eq!(t, "No recipes planned");
    assert_eq!(get_week(&server, &mum, WEEK).await, saved);
}

#[tokio::test]
async fn a_planned_recipe_warns_about_the_children_it_is_for() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.allergy@example.org").await;
    let ava = child(&server, &parent, "Ava", json!(["milk"])).await;
    let ben = child(&server, &parent, "Ben", json!([])).await;
    let cheesy = save_recipe(
        &server,
        &parent,
        "Cheesy pasta",
        Some(2),
        json!([{"name": "Pasta", "quantity": "200 g"}, {"name": "Cheddar cheese", "quantity": "50 g"}]),
    )
    .await;
    let fruit = save_recipe(
        &server,
        &parent,
        "Fruit salad",
        Some(2),
        json!([{"name": "Apples", "quantity": "2"}]),
    )
    .await;
    let resp = put_week(
        &server,
        &parent,
        WEEK,
        json!({"version": 0, "entries": [
            {"date": "2026-11-23", "mealType": "Dinner", "recipeId": id(&cheesy)},
            {"date": "2026-11-24", "mealType": "Dinner", "recipeId": id(&cheesy), "childIds": [ben]},
            {"date": "2026-11-25", "mealType": "Dinner", "recipeId": id(&fruit)},
            {"date": "2026-11-26", "mealType": "Dinner", "text": "Cheese on toast"}
        ]}),
    )
    .await;
    let plan = json(resp, 200).await;
    let warnings = plan["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    // Free text is read as the meal tracker reads foods.
    assert_eq!(warnings[1]["entryId"], plan["entries"][3]["id"]);
    assert_eq!(warnings[1]["childName"], "Ava");
    assert_eq!(
        warnings[1]["message"],
        "Cheese on toast contains milk (cheese)"
    );
    let w = &warnings[0];
    assert_eq!(w["entryId"], plan["entries"][0]["id"]);
    assert_eq!(w["childId"], json!(ava));
    assert_eq!(w["childName"], "Ava");
    // The same words as the saved recipe's own warning.
    let shown = json(
        parent
            .get(server.url(&format!("/api/recipes/{}", id(&cheesy))))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let words: Vec<&str> = shown["allergyWarnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(w["message"], json!(words.join("; ")));
    assert!(w["message"].as_str().unwrap().contains("milk"), "{w}");
    // Warnings are worked out when read: an allergy added later shows at once.
    let resp = parent
        .put(server.url(&format!("/api/children/{ben}")))
        .json(&json!({"name": "Ben", "allergies": ["dairy"], "version": 1}))
        .send()
        .await
        .unwrap();
    json(resp, 200).await;
    let again = get_week(&server, &parent, WEEK).await;
    let who: Vec<(&str, &str)> = again["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["childName"].as_str().unwrap(),
                w["entryId"].as_str().unwrap(),
            )
        })
        .collect();
    let (monday, tuesday, thursday) = (
        again["entries"][0]["id"].as_str().unwrap(),
        again["entries"][1]["id"].as_str().unwrap(),
        again["entries"][3]["id"].as_str().unwrap(),
    );
    assert_eq!(
        who,
        [
            ("Ava", monday),
            ("Ben", monday),
            ("Ben", tuesday),
            ("Ava", thursday),
            ("Ben", thursday)
        ]
    );
    assert_eq!(again["version"], 1, "nothing is stored by reading");
}

async fn check_entry(server: &TestServer, client: &reqwest::Client, body: Value) -> Value {
    let resp = client
        .post(server.url("/api/meal-plan/check"))
        .json(&body)
        .send()
        .await
        .unwrap();
    json(resp, 200).await
}

#[tokio::test]
async fn an_entry_is_checked_before_it_is_saved_for_the_children_it_is_for() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.check@example.org").await;
    let ava = child(&server, &parent, "Ava", json!(["milk"])).await;
    let ben = child(&server, &parent, "Ben", json!(["peanuts"])).await;
    // Free text for the whole family: each child whose allergy it meets.
    let found = check_entry(
        &server,
        &parent,
        json!({"text": "Cheese sandwich and satay chicken"}),
    )
    .await;
    let who: Vec<(&str, &str)> = found["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["childName"].as_str().unwrap(),
                w["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        who,
        [
            (
                "Ava",
                "Cheese sandwich and satay chicken contains milk (cheese)"
            ),
            (
                "Ben",
                "Cheese sandwich and satay chicken contains peanuts (satay)"
            )
        ]
    );
    assert_eq!(found["warnings"][0]["childId"], json!(ava));
    // Only for Ben: Ava's allergy does not matter.
    let found = check_entry(
        &server,
        &parent,
        json!({"text": "Cheese sandwich", "childIds": [ben]}),
    )
    .await;
    assert_eq!(found["warnings"], json!([]));
    // A saved recipe is read with its ingredients, as the week view reads it.
    let cheesy = save_recipe(
        &server,
        &parent,
        "Pasta bake",
        Some(2),
        json!([{"name": "Pasta", "quantity": "200 g"}, {"name": "Butter", "quantity": "20 g"}]),
    )
    .await;
    let found = check_entry(&server, &parent, json!({"recipeId": id(&cheesy)})).await;
    assert_eq!(found["warnings"].as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found["warnings"][0]["childName"], "Ava");
    // Nothing was saved by checking.
    assert_eq!(get_week(&server, &parent, WEEK).await["version"], 0);
    // Another family's recipe is unknown; an empty entry says what is missing.
    let other = family(&server, "plan.check.other@example.org").await;
    let resp = other
        .post(server.url("/api/meal-plan/check"))
        .json(&json!({"recipeId": id(&cheesy)}))
        .send()
        .await
        .unwrap();
    assert_eq!(error(resp, 404).await.0, "Recipe not found");
    let resp = parent
        .post(server.url("/api/meal-plan/check"))
        .json(&json!({"text": "  "}))
        .send()
        .await
        .unwrap();
    assert_eq!(error(resp, 400).await.2.as_deref(), Some("text"));
}

/// GET with `If-None-Match`: (status, ETag, body or Null).
async fn revalidate(
    server: &TestServer,
    client: &reqwest::Client,
    path: &str,
    etag: &str,
) -> (u16, String, Value) {
    let resp = client
        .get(server.url(path))
        .header("If-None-Match", etag)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let tag = resp.headers()["etag"].to_str().unwrap().to_string();
    let body = if status == 200 {
        resp.json().await.unwrap()
    } else {
        Value::Null
    };
    (status, tag, body)
}

#[tokio::test]
async fn the_week_and_the_saved_recipes_are_kept_until_the_family_changes() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.cache@example.org").await;
    let ava = child(&server, &parent, "Ava", json!([])).await;
    let cheesy = save_recipe(
        &server,
        &parent,
        "Cheesy pasta",
        Some(2),
        json!([{"name": "Pasta", "quantity": "200 g"}, {"name": "Cheddar cheese", "quantity": "50 g"}]),
    )
    .await;
    let body = json!({"version": 0, "entries": [
        {"date": "2026-11-23", "mealType": "Dinner", "recipeId": id(&cheesy)}]});
    json(put_week(&server, &parent, WEEK, body).await, 200).await;
    let week = format!("/api/meal-plan?week={WEEK}");
    let (_, plan_tag, plan) = revalidate(&server, &parent, &week, "\"none\"").await;
    let (_, recipes_tag, recipes) = revalidate(&server, &parent, "/api/recipes", "\"none\"").await;
    assert_eq!(plan["warnings"], json!([]));
    assert_eq!(recipes[0]["allergyWarnings"], json!([]));
    assert_eq!(revalidate(&server, &parent, &week, &plan_tag).await.0, 304);
    assert_eq!(
        revalidate(&server, &parent, "/api/recipes", &recipes_tag)
            .await
            .0,
        304
    );

    // A child's new allergy changes both answers, though no recipe or plan was written.
    let resp = parent
        .put(server.url(&format!("/api/children/{ava}")))
        .json(&json!({"name": "Ava", "allergies": ["milk"], "version": 1}))
        .send()
        .await
        .unwrap();
    json(resp, 200).await;
    let (status, tag, plan) = revalidate(&server, &parent, &week, &plan_tag).await;
    assert_eq!((status, tag != plan_tag), (200, true));
    assert_eq!(plan["warnings"][0]["childName"], "Ava");
    let (status, tag, recipes) = revalidate(&server, &parent, "/api/recipes", &recipes_tag).await;
    assert_eq!((status, tag != recipes_tag), (200, true));
    assert!(
        recipes[0]["allergyWarnings"][0]
            .as_str()
            .unwrap()
            .contains("milk")
    );

    // Another family holding these ETags gets its own (empty) answers.
    let other = family(&server, "plan.cache.other@example.org").await;
    let (status, _, theirs) = revalidate(&server, &other, &week, &plan_tag).await;
    assert_eq!((status, &theirs["entries"]), (200, &json!([])));
    let (status, _, theirs) = revalidate(&server, &other, "/api/recipes", &recipes_tag).await;
    assert_eq!((status, theirs), (200, json!([])));
}

#[tokio::test]
async fn a_grocery_draft_from_the_week_scales_and_merges() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.shop@example.org").await;
    let bake = save_recipe(
        &server,
        &parent,
        "Pasta bake",
        Some(2),
        json!([{"name": "Pasta", "quantity": "200 g"}, {"name": "Whole milk", "quantity": "100 ml"},
               {"name": "Salt", "quantity": "a pinch"}]),
    )
    .await;
    let salad = save_recipe(
        &server,
        &parent,
        "Pasta salad",
        Some(4),
        json!([{"name": "pasta", "quantity": "100 g"}]),
    )
    .await;
    let gone = save_recipe(
        &server,
        &parent,
        "Gone soon",
        Some(1),
        json!([{"name": "Turnips", "quantity": "3"}]),
    )
    .await;
    let draft = |body: Value| {
        parent
            .post(server.url("/api/grocery-lists/from-meal-plan"))
            .json(&body)
            .send()
    };
    // Nothing planned yet, or only free text.
    let (t, m, f) = error(draft(json!({"week": WEEK})).await.unwrap(), 400).await;
    assert_eq!(
        (t.as_str(), m.as_str(), f.as_deref()),
        (
            "No recipes planned",
            "Plan at least one saved recipe this week to make a grocery list.",
            Some("week")
        )
    );
    json(
        put_week(
            &server,
            &parent,
            WEEK,
            json!({"version": 0, "entries": [
                {"date": "2026-11-23", "mealType": "Dinner", "text": "Leftovers"}
            ]}),
        )
        .await,
        200,
    )
    .await;
    let (t, _, _) = error(draft(json!({"week": WEEK})).await.unwrap(), 400).await;
    assert_eq!(t, "No recipes planned");
    let (t, _, f) = error(draft(json!({"week": "2026-W99"})).await.unwrap(), 400).await;
    assert_eq!((t.as_str(), f.as_deref()), ("Invalid week", Some("week")));

    json(
        put_week(
            &server,
            &parent,
            WEEK,
            json!({"version": 1, "entries": [
                {"date": "2026-11-25", "mealType": "Lunch", "recipeId": id(&salad), "servings": 2},
                {"date": "2026-11-23", "mealType": "Dinner", "recipeId": id(&bake), "servings": 4},
                {"date": "2026-11-24", "mealType": "Dinner", "text": "Leftovers"},
                {"date": "2026-11-26", "mealType": "Dinner", "recipeId": id(&gone)}
            ]}),
        )
        .await,
        200,
    )
    .await;
    let resp = parent
        .delete(server.url(&format!("/api/recipes/{}", id(&gone))))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    let list = json(draft(json!({"week": WEEK})).await.unwrap(), 200).await;
    assert_eq!(list["name"], "Meal plan, week of 23 Nov");
    let items: Vec<(&str, &str, &str)> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap(),
                i["quantity"].as_str().unwrap(),
                i["category"].as_str().unwrap(),
            )
        })
        .collect();
    // 200 g for 2, planned for 4: 400 g; with the salad's 100 g for 4, planned for 2: 450 g.
    assert_eq!(
        items,
        [
            ("Pasta", "450 g", "Dry Goods & Pasta"),
            ("Whole milk", "200 ml", "Dairy"),
            ("Salt", "a pinch", "Condiments & Spices"),
        ]
    );
    assert!(
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["checked"] == false)
    );
    // The draft saves like any list.
    let resp = parent
        .post(server.url("/api/grocery-lists"))
        .json(&list)
        .send()
        .await
        .unwrap();
    assert_eq!(json(resp, 201).await["items"][0]["quantity"], "450 g");
}

#[tokio::test]
async fn a_save_is_announced_on_the_change_feed_by_its_week() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.feed@example.org").await;
    let mut feed = Stream::open(&server, &parent, None).await;
    json(
        put_week(
            &server,
            &parent,
            WEEK,
            json!({"version": 0, "entries": [
                {"date": "2026-11-27", "mealType": "Dinner", "text": "Fish and chips"}
            ]}),
        )
        .await,
        200,
    )
    .await;
    let event = feed.change().await;
    assert_eq!(event.name, "change");
    assert_eq!(event.data["kind"], "meal_plan");
    assert_eq!(event.data["id"], WEEK);
    // A refused save announces nothing; the next one does.
    let resp = put_week(&server, &parent, WEEK, json!({"version": 0, "entries": []})).await;
    assert_eq!(resp.status(), 409);
    json(
        put_week(&server, &parent, WEEK, json!({"version": 1, "entries": []})).await,
        200,
    )
    .await;
    let next = feed.change().await;
    assert_eq!(
        (next.data["kind"].clone(), next.data["id"].clone()),
        (json!("meal_plan"), json!(WEEK))
    );
    assert_eq!(next.id, Some(event.id.unwrap() + 1));
}

#[tokio::test]
async fn two_saves_from_the_same_version_at_once_one_wins_and_the_other_is_refused() {
    let server = TestServer::start().await;
    let parent = family(&server, "plan.race@example.org").await;
    let other_device = parent.clone();
    for round in 0..40u64 {
        let week = get_week(&server, &parent, WEEK).await;
        let version = week["version"].as_u64().unwrap();
        assert_eq!(version, round, "one save per round moved the week on");
        let body = |text: &str| {
            json!({"version": version, "entries": [
                {"date": "2026-11-23", "mealType": "Dinner", "text": text}
            ]})
        };
        // Both released together, from the same version.
        let (a, b) = tokio::join!(
            put_week(&server, &parent, WEEK, body("Soup")),
            put_week(&server, &other_device, WEEK, body("Tacos")),
        );
        let mut statuses = [a.status().as_u16(), b.status().as_u16()];
        statuses.sort();
        assert_eq!(statuses, [200, 409], "round {round}");
        let winner = if a.status() == 200 { "Soup" } else { "Tacos" };
        let now = get_week(&server, &parent, WEEK).await;
        assert_eq!(now["entries"][0]["title"], winner, "round {round}");
        assert_eq!(now["entries"].as_array().unwrap().len(), 1);
    }
}
