//! The meal log over HTTP: validation, defaults, ordering, pagination, updates.

use chrono::{Duration, Utc};
use serde_json::{Value, json};

use crate::harness::{TestServer, add_child, add_meal, error, family, json};

fn meal(child: &str) -> Value {
    json!({"childId": child, "mealType": "Lunch", "foods": ["Pasta"]})
}

fn with(mut body: Value, key: &str, value: Value) -> Value {
    body[key] = value;
    body
}

#[tokio::test]
async fn every_field_is_validated() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let child = add_child(&server, &mum, "Emma").await;
    let cases = [
        (
            with(meal(&child), "childId", json!("")),
            "childId",
            "Please choose a child",
        ),
        (
            with(meal(&child), "childId", json!(uuid_like())),
            "childId",
            "Please choose one of your children",
        ),
        (
            with(meal(&child), "mealType", json!("Brunch")),
            "mealType",
            "Please choose a meal type",
        ),
        (
            with(meal(&child), "foods", json!([" ", ""])),
            "foods",
            "Please add at least one food",
        ),
        (
            with(meal(&child), "portion", json!("lots")),
            "portion",
            "Please choose a portion",
        ),
        (
            with(meal(&child), "mood", json!("angry")),
            "mood",
            "Please choose a mood",
        ),
        (
            with(meal(&child), "feedback", json!("meh")),
            "feedback",
            "Please choose a feedback option",
        ),
        (
            with(meal(&child), "notes", json!("n".repeat(1001))),
            "notes",
            "Notes must be 1000 characters or less",
        ),
        (
            with(meal(&child), "mealDate", json!("yesterday")),
            "mealDate",
            "Please enter a valid date and time",
        ),
    ];
    for (body, field, message) in cases {
        let (t, m, f) = error(
            mum.post(server.url("/api/meals"))
                .json(&body)
                .send()
                .await
                .unwrap(),
            400,
        )
        .await;
        assert_eq!(
            (t.as_str(), m.as_str(), f.as_deref()),
            ("Error saving meal", message, Some(field))
        );
    }
    let (t, m, f) = error(
        mum.post(server.url("/api/meals"))
            .json(&with(meal(&child), "photo", json!(uuid_like())))
            .send()
            .await
            .unwrap(),
        400,
    )
    .await;
    assert_eq!(
        (t.as_str(), f.as_deref()),
        ("Photo upload failed", Some("photo"))
    );
    assert!(m.contains("not found"), "{m}");

    let (t, m, _) = error(server.get("/api/meals").await, 401).await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Authentication required",
            "You must be logged in to view meals"
        )
    );
    let (t, m, _) = error(server.post_json("/api/meals", meal(&child)).await, 401).await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Authentication error",
            "You must be logged in to save meals"
        )
    );
}

fn uuid_like() -> String {
    "01900000-0000-7000-8000-000000000000".into()
}

#[tokio::test]
async fn defaults_and_normalised_values() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let child = add_child(&server, &mum, "Emma").await;
    let before = Utc::now();
    let m = add_meal(
        &server,
        &mum,
        json!({"childId": child, "mealType": "snack", "foods": [" Apple ", "apple", "Cheese"]}),
    )
    .await;
    assert_eq!(
        m["mealType"], "Afternoon Snack",
        "legacy 'snack' is normalised"
    );
    assert_eq!(m["foods"], json!(["Apple", "Cheese"]));
    assert_eq!(m["portion"], "full");
    assert_eq!(m["mood"], "happy");
    assert_eq!(m["feedback"], json!(null));
    assert_eq!(m["notes"], "");
    assert_eq!(m["photo"], json!(null));
    let date: chrono::DateTime<Utc> = m["mealDate"].as_str().unwrap().parse().unwrap();
    assert!(
        date >= before - Duration::seconds(1) && date <= Utc::now(),
        "mealDate defaults to now"
    );

    let m = add_meal(
        &server,
        &mum,
        json!({"childId": child, "mealType": "breakfast", "foods": ["Porridge"], "portion": "seconds", "mood": "sad",
               "feedback": "disliked", "notes": "Too hot", "mealDate": "2025-05-20T08:00:00+01:00"}),
    )
    .await;
    assert_eq!(m["mealType"], "Breakfast");
    assert_eq!(
        (
            m["portion"].as_str(),
            m["mood"].as_str(),
            m["feedback"].as_str()
        ),
        (Some("seconds"), Some("sad"), Some("disliked"))
    );
    let date: chrono::DateTime<Utc> = m["mealDate"].as_str().unwrap().parse().unwrap();
    assert_eq!(date.to_rfc3339(), "2025-05-20T07:00:00+00:00");
    let fetched = json(
        mum.get(server.url(&format!("/api/meals/{}", m["id"].as_str().unwrap())))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(fetched, m);
    // The list is written by a faster serializer; it must give exactly the same JSON.
    let list = json(mum.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    let listed = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == fetched["id"])
        .unwrap();
    assert_eq!(listed, &fetched);
    assert_eq!(list["nextCursor"], json!(null));
}

#[tokio::test]
async fn meals_come_newest_first_in_pages_and_by_child() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let emma = add_child(&server, &mum, "Emma").await;
    let noah = add_child(&server, &mum, "Noah").await;
    let base = Utc::now() - Duration::days(30);
    // Recorded out of order; 120 meals, every third for Noah.
    let mut order: Vec<i64> = (0..120).collect();
    order.reverse();
    order.swap(3, 70);
    for i in order {
        let child = if i % 3 == 0 { &noah } else { &emma };
        let date = (base + Duration::minutes(i * 37)).to_rfc3339();
        add_meal(&server, &mum, json!({"childId": child, "mealType": "Dinner", "foods": [format!("food {i}")], "mealDate": date})).await;
    }

    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = Vec::new();
    loop {
        let url = match &cursor {
            Some(c) => format!("/api/meals?cursor={c}"),
            None => "/api/meals".into(),
        };
        let page = json(mum.get(server.url(&url)).send().await.unwrap(), 200).await;
        let items = page["items"].as_array().unwrap().clone();
        pages.push(items.len());
        seen.extend(
            items
                .iter()
                .map(|m| m["mealDate"].as_str().unwrap().to_string()),
        );
        match page["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(pages, [50, 50, 20], "default page of 50");
    let mut sorted = seen.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(seen, sorted, "newest first across pages");
    sorted.dedup();
    assert_eq!(sorted.len(), 120, "no meal twice, none missing");

    let page = json(
        mum.get(server.url(&format!("/api/meals?childId={noah}&limit=100")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let items = page["items"].as_array().unwrap();
    assert_eq!(items.len(), 40);
    assert!(items.iter().all(|m| m["childId"] == json!(noah)));
    assert_eq!(page["nextCursor"], json!(null));
    let first = &items[0]["foods"][0];
    assert_eq!(first, "food 117", "the newest of Noah's meals first");

    let page = json(
        mum.get(server.url(&format!("/api/meals?childId={emma}&limit=7")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(page["items"].as_array().unwrap().len(), 7);
    assert!(page["nextCursor"].is_string());

    for bad in [
        "/api/meals?cursor=garbage",
        "/api/meals?limit=0",
        "/api/meals?limit=1000",
        "/api/meals?childId=nope",
    ] {
        let (t, _, _) = error(mum.get(server.url(bad)).send().await.unwrap(), 400).await;
        assert_eq!(t, "Error fetching meals", "{bad}");
    }
}

#[tokio::test]
async fn updating_a_meal_moves_it_in_the_lists() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let emma = add_child(&server, &mum, "Emma").await;
    let noah = add_child(&server, &mum, "Noah").await;
    let old = add_meal(&server, &mum, json!({"childId": emma, "mealType": "Lunch", "foods": ["Soup"], "mealDate": "2025-01-01T12:00:00Z"})).await;
    add_meal(&server, &mum, json!({"childId": emma, "mealType": "Dinner", "foods": ["Fish"], "mealDate": "2025-01-02T18:00:00Z"})).await;
    let id = old["id"].as_str().unwrap();

    let resp = mum
        .put(server.url(&format!("/api/meals/{id}")))
        .json(&json!({"childId": noah, "mealType": "Dinner", "foods": ["Soup", "Bread"], "mood": "neutral", "mealDate": "2025-01-03T18:00:00Z", "version": 1}))
        .send()
        .await
        .unwrap();
    let updated = json(resp, 200).await;
    assert_eq!(updated["childId"], json!(noah));
    assert_eq!(updated["createdAt"], old["createdAt"]);
    let all = json(mum.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    assert_eq!(all["items"][0]["id"], json!(id), "now the newest");
    assert_eq!(
        all["items"].as_array().unwrap().len(),
        2,
        "moved, not copied"
    );
    let emmas = json(
        mum.get(server.url(&format!("/api/meals?childId={emma}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(emmas["items"].as_array().unwrap().len(), 1);
    let (t, _, _) = error(
        mum.put(server.url(&format!("/api/meals/{id}")))
            .json(&json!({"childId": noah, "mealType": "Dinner", "foods": [], "version": 2}))
            .send()
            .await
            .unwrap(),
        400,
    )
    .await;
    assert_eq!(t, "Error updating meal");

    assert_eq!(
        mum.delete(server.url(&format!("/api/meals/{id}")))
            .send()
            .await
            .unwrap()
            .status(),
        204
    );
    assert_eq!(
        mum.get(server.url(&format!("/api/meals/{id}")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    let all = json(mum.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    assert_eq!(all["items"].as_array().unwrap().len(), 1);
    assert_eq!(
        mum.get(server.url("/api/meals/not-an-id"))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn the_meal_list_answers_304_until_the_family_changes() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let child = add_child(&server, &mum, "Emma").await;
    add_meal(
        &server,
        &mum,
        json!({"childId": child, "mealType": "Lunch", "foods": ["Pasta"]}),
    )
    .await;
    let url = server.url("/api/meals");
    let first = mum.get(&url).send().await.unwrap();
    assert_eq!(first.status(), 200);
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(first.headers()["cache-control"], "private, no-cache");
    let body = first.text().await.unwrap();

    let again = mum
        .get(&url)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);

    // The same list again, from the cache, is the same answer.
    let cached = mum.get(&url).send().await.unwrap();
    assert_eq!(cached.text().await.unwrap(), body);

    // Another page is another ETag; any write of the family makes a new one.
    let of_child = mum
        .get(server.url(&format!("/api/meals?childId={child}")))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(of_child.status(), 200);
    add_child(&server, &mum, "Noah").await;
    let changed = mum
        .get(&url)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), 200);
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), etag);
    add_meal(
        &server,
        &mum,
        json!({"childId": child, "mealType": "Dinner", "foods": ["Soup"]}),
    )
    .await;
    let page = json(mum.get(&url).send().await.unwrap(), 200).await;
    assert_eq!(
        page["items"].as_array().unwrap().len(),
        2,
        "not a stale cached page"
    );

    // Another family with the same revision number gets its own list, never this one.
    let other = family(&server, "other@example.org").await;
    let theirs = json(other.get(&url).send().await.unwrap(), 200).await;
    assert!(theirs["items"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn meals_are_back_dated_edited_and_flagged_when_they_meet_an_allergy() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let emma = json(
        mum.post(server.url("/api/children"))
            .json(&serde_json::json!({"name": "Emma", "allergies": ["Milk", "Sesame"]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Before saving, the form asks the server's matcher.
    let check = json(
        mum.post(server.url(&format!("/api/children/{emma}/allergen-check")))
            .json(&serde_json::json!({"foods": ["Buttered toast", "Eggplant", "Hummus"]}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let messages: Vec<_> = check["exposures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        messages,
        [
            "Buttered toast contains milk (butter)",
            "Hummus contains sesame (hummus)"
        ]
    );

    // Lunch logged at 9 pm, for 12:30; saved anyway and flagged, with a reaction.
    let lunch = chrono::Utc::now() - chrono::Duration::hours(8);
    let meal = add_meal(
        &server,
        &mum,
        serde_json::json!({"childId": emma, "mealType": "Lunch", "foods": ["Buttered toast"],
                           "mealDate": lunch.to_rfc3339(), "reaction": "mild",
                           "reactionNote": "Red cheeks"}),
    )
    .await;
    assert_eq!(meal["exposures"][0]["allergy"], "Milk");
    assert_eq!(
        (meal["reaction"].as_str(), meal["reactionNote"].as_str()),
        (Some("mild"), Some("Red cheeks"))
    );
    let stored = chrono::DateTime::parse_from_rfc3339(meal["mealDate"].as_str().unwrap()).unwrap();
    assert_eq!(stored.timestamp(), lunch.timestamp());

    // A breakfast logged now sorts above it; a meal for tomorrow is refused.
    add_meal(
        &server,
        &mum,
        serde_json::json!({"childId": emma, "mealType": "Breakfast", "foods": ["Apple"]}),
    )
    .await;
    let list = json(mum.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    let order: Vec<_> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["mealType"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["Breakfast", "Lunch"]);
    let tomorrow = chrono::Utc::now() + chrono::Duration::days(1);
    let (_, message, field) = error(
        mum.post(server.url("/api/meals"))
            .json(
                &serde_json::json!({"childId": emma, "mealType": "Dinner", "foods": ["Soup"],
                                      "mealDate": tomorrow.to_rfc3339()}),
            )
            .send()
            .await
            .unwrap(),
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("mealDate"));
    assert!(message.contains("future"), "{message}");

    // Every field is editable: the toast becomes plain toast, and the flag goes.
    let url = server.url(&format!("/api/meals/{}", meal["id"].as_str().unwrap()));
    let edited = json(
        mum.put(&url)
            .json(
                &serde_json::json!({"childId": emma, "mealType": "Dinner", "foods": ["Dry toast"],
                                      "mealDate": lunch.to_rfc3339(), "portion": "half",
                                      "mood": "sad", "feedback": "disliked", "notes": "Tired",
                                      "version": meal["version"]}),
            )
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(edited["exposures"], serde_json::json!([]));
    assert_eq!(edited["reaction"], "none");
    assert_eq!(edited["mealType"], "Dinner");
    assert_eq!(edited["portion"], "half");

    // Another family's child is not found.
    let other = family(&server, "other@example.org").await;
    let resp = other
        .post(server.url(&format!("/api/children/{emma}/allergen-check")))
        .json(&serde_json::json!({"foods": ["Milk"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
}
