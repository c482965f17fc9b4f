//! Child profiles over HTTP.

use serde_json::json;

use crate::harness::{TestServer, add_child, add_meal, error, family, json, upload};

#[tokio::test]
async fn children_need_a_session() {
    let server = TestServer::start().await;
    let (t, m, _) = error(server.get("/api/children").await, 401).await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Authentication required",
            "You must be logged in to view children profiles"
        )
    );
    let (t, m, _) = error(
        server
            .post_json("/api/children", json!({"name": "Emma"}))
            .await,
        401,
    )
    .await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Authentication error",
            "You must be logged in to save child profiles"
        )
    );
}

#[tokio::test]
async fn validation_uses_the_spec_texts() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let post = |body: serde_json::Value| mum.post(server.url("/api/children")).json(&body).send();
    let (t, m, f) = error(post(json!({"name": "  "})).await.unwrap(), 400).await;
    assert_eq!(
        (t.as_str(), m.as_str(), f.as_deref()),
        (
            "Name is required",
            "Please enter the child's name",
            Some("name")
        )
    );
    for age in [json!(19), json!(-1), json!(3.5), json!("old")] {
        let (t, _, f) = error(
            post(json!({"name": "Emma", "age": age})).await.unwrap(),
            400,
        )
        .await;
        assert_eq!(
            (t.as_str(), f.as_deref()),
            ("Error saving child profile", Some("age")),
            "{age}"
        );
    }
    let (_, m, _) = error(post(json!({"name": "x".repeat(101)})).await.unwrap(), 400).await;
    assert_eq!(m, "Name must be 100 characters or less");

    let id = json(post(json!({"name": "Emma"})).await.unwrap(), 201).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let resp = mum
        .put(server.url(&format!("/api/children/{id}")))
        .json(&json!({"name": "Emma", "age": 40, "version": 1}))
        .send()
        .await
        .unwrap();
    assert_eq!(error(resp, 400).await.0, "Error updating child profile");
}

#[tokio::test]
async fn children_are_created_listed_by_name_updated_and_kept() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let resp = mum
        .post(server.url("/api/children"))
        .json(&json!({"name": " Noah ", "age": "3", "dietaryRestrictions": ["Vegetarian", " vegetarian", ""], "allergies": ["Peanuts", "Milk", "peanuts"]}))
        .send()
        .await
        .unwrap();
    let noah = json(resp, 201).await;
    assert_eq!(noah["name"], "Noah");
    assert_eq!(noah["age"], 3);
    assert_eq!(noah["dietaryRestrictions"], json!(["Vegetarian"]));
    assert_eq!(noah["allergies"], json!(["Peanuts", "Milk"]));
    let bare = json(
        mum.post(server.url("/api/children"))
            .json(&json!({"name": "ava"}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    assert_eq!(bare["age"], json!(null));
    assert_eq!(bare["allergies"], json!([]));
    json(
        mum.post(server.url("/api/children"))
            .json(&json!({"name": "Emma", "age": 0}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;

    let list = json(
        mum.get(server.url("/api/children")).send().await.unwrap(),
        200,
    )
    .await;
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ava", "Emma", "Noah"], "by name, ignoring case");

    let id = noah["id"].as_str().unwrap();
    let resp = mum
        .put(server.url(&format!("/api/children/{id}")))
        .json(&json!({"name": "Noah James", "age": 4, "allergies": ["Sesame"], "version": 1}))
        .send()
        .await
        .unwrap();
    let updated = json(resp, 200).await;
    assert_eq!(updated["name"], "Noah James");
    assert_eq!(updated["allergies"], json!(["Sesame"]));
    assert_eq!(updated["dietaryRestrictions"], json!([]));
    assert_ne!(updated["updatedAt"], noah["updatedAt"]);
    assert_eq!(updated["createdAt"], noah["createdAt"]);

    let server = server.restart().await;
    let again = json(
        mum.get(server.url(&format!("/api/children/{id}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(again["name"], "Noah James", "saved to disk");
}

#[tokio::test]
async fn deleting_a_child_removes_its_meals_and_their_photos() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let emma = crate::harness::add_child(&server, &mum, "Emma").await;
    let noah = crate::harness::add_child(&server, &mum, "Noah").await;
    let photo = json(
        upload(
            &server,
            &mum,
            "/api/media",
            highchair::media::fixtures::two_colour_jpeg(64, 48),
            "a.jpg",
        )
        .await,
        201,
    )
    .await;
    let photo_url = photo["url"].as_str().unwrap().to_string();
    add_meal(
        &server,
        &mum,
        json!({"childId": emma, "mealType": "Lunch", "foods": ["Soup"], "photo": photo["id"]}),
    )
    .await;
    add_meal(
        &server,
        &mum,
        json!({"childId": emma, "mealType": "Dinner", "foods": ["Fish"]}),
    )
    .await;
    let kept = add_meal(
        &server,
        &mum,
        json!({"childId": noah, "mealType": "Dinner", "foods": ["Rice"]}),
    )
    .await;
    assert_eq!(
        mum.get(server.url(&photo_url))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    let resp = mum
        .delete(server.url(&format!("/api/children/{emma}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    assert_eq!(
        mum.get(server.url(&format!("/api/children/{emma}")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    let meals = json(mum.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    let ids: Vec<&str> = meals["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [kept["id"].as_str().unwrap()],
        "only the other child's meal is left"
    );
    let emma_meals = json(
        mum.get(server.url(&format!("/api/meals?childId={emma}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert!(emma_meals["items"].as_array().unwrap().is_empty());
    // The meals and their photos follow in a job queued with the deletion (CI, under load,
    // once asked before it had run).
    let mut photo = 0;
    for _ in 0..100 {
        photo = mum
            .get(server.url(&photo_url))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16();
        if photo == 404 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(photo, 404, "the photo is gone");
    assert_eq!(server.app.store().media.count().await.unwrap(), 0);
    assert_eq!(
        mum.delete(server.url(&format!("/api/children/{emma}")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

#[tokio::test]
async fn a_childs_food_history_and_what_deleting_it_takes() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let emma = add_child(&server, &mum, "Emma").await; // allergic to peanuts
    let at = |days: i64| (chrono::Utc::now() - chrono::Duration::days(days)).to_rfc3339();
    add_meal(&server, &mum, json!({"childId": emma, "mealType": "Lunch", "foods": ["Peas", "Rice"], "mood": "happy", "mealDate": at(20)})).await;
    add_meal(&server, &mum, json!({"childId": emma, "mealType": "Dinner", "foods": ["peas"], "mood": "happy", "mealDate": at(10)})).await;
    let photo = json(
        upload(
            &server,
            &mum,
            "/api/media",
            highchair::media::fixtures::two_colour_jpeg(64, 48),
            "p.jpg",
        )
        .await,
        201,
    )
    .await;
    add_meal(
        &server,
        &mum,
        json!({"childId": emma, "mealType": "Breakfast", "foods": ["Satay sauce"],
                                   "mood": "sad", "reaction": "severe", "reactionNote": "Hives",
                                   "mealDate": at(1), "photo": photo["id"]}),
    )
    .await;

    let foods_url = server.url(&format!("/api/children/{emma}/foods"));
    let first = mum.get(&foods_url).send().await.unwrap();
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    let history = json(first, 200).await;
    let foods = history["foods"].as_array().unwrap();
    let names: Vec<_> = foods.iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["Satay sauce", "Peas", "Rice"],
        "newest first tried first"
    );
    assert_eq!(history["newThisWeek"], 1);
    let satay = &foods[0];
    assert_eq!(
        (satay["exposures"].as_u64(), satay["liking"].as_str()),
        (Some(1), Some("disliked"))
    );
    assert_eq!(satay["reactions"][0]["note"], "Hives");
    assert_eq!(satay["isNew"], true);
    let peas = &foods[1];
    assert_eq!(
        (peas["times"].as_u64(), peas["liking"].as_str()),
        (Some(2), Some("liked"))
    );
    // Kept until the family changes: the same answer is a 304, a new meal a new answer.
    let same = mum
        .get(&foods_url)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(same.status(), 304);
    add_meal(
        &server,
        &mum,
        json!({"childId": emma, "mealType": "Snack", "foods": ["Kiwi"]}),
    )
    .await;
    let changed = mum
        .get(&foods_url)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), etag);
    assert_eq!(json(changed, 200).await["foods"][0]["name"], "Kiwi");

    let preview = json(
        mum.get(server.url(&format!("/api/children/{emma}/delete-preview")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(
        (preview["meals"].as_u64(), preview["photos"].as_u64()),
        (Some(4), Some(1))
    );

    let other = family(&server, "other@example.org").await;
    for path in ["foods", "delete-preview"] {
        let resp = other
            .get(server.url(&format!("/api/children/{emma}/{path}")))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 404, "{path}");
    }
    // "Not modified" would tell another family the child exists.
    let star = other
        .get(&foods_url)
        .header("If-None-Match", "*")
        .send()
        .await
        .unwrap();
    assert_eq!(star.status(), 404);
}

#[tokio::test]
async fn a_birth_month_gives_babies_an_age_in_months() {
    use chrono::Datelike;
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let today = chrono::Utc::now().date_naive();
    let month = |back: i32| {
        let total = today.year() * 12 + today.month0() as i32 - back;
        format!("{:04}-{:02}", total / 12, total % 12 + 1)
    };
    let baby = json(
        mum.post(server.url("/api/children"))
            .json(&json!({"name": "Noah", "birthMonth": month(9)}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    assert_eq!(baby["birthMonth"], month(9).as_str());
    assert_eq!(baby["monthsOld"], 9);
    let (_, _, field) = error(
        mum.post(server.url("/api/children"))
            .json(&json!({"name": "Future", "birthMonth": month(-1)}))
            .send()
            .await
            .unwrap(),
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("birthMonth"));
}
