//! Families cannot see or touch each other's records: every route answers 404 for another
//! family's ids, and lists never include another family's records.

use serde_json::json;

use crate::harness::{TestServer, add_child, add_meal, family, json, upload};

#[tokio::test]
async fn another_familys_records_are_not_found_anywhere() {
    let server = TestServer::start().await;
    let a = family(&server, "a@example.org").await;
    let b = family(&server, "b@example.org").await;

    let a_child = add_child(&server, &a, "Emma").await;
    let photo = json(
        upload(
            &server,
            &a,
            "/api/media",
            highchair::media::fixtures::two_colour_jpeg(32, 32),
            "p.jpg",
        )
        .await,
        201,
    )
    .await;
    let a_meal = add_meal(
        &server,
        &a,
        json!({"childId": a_child, "mealType": "Lunch", "foods": ["Soup"], "photo": photo["id"]}),
    )
    .await;
    let a_meal = a_meal["id"].as_str().unwrap().to_string();
    let spare = json(
        upload(
            &server,
            &a,
            "/api/media",
            highchair::media::fixtures::two_colour_jpeg(32, 32),
            "q.jpg",
        )
        .await,
        201,
    )
    .await;
    let avatar = json(
        upload(
            &server,
            &a,
            "/api/profile/avatar",
            highchair::media::fixtures::two_colour_jpeg(32, 32),
            "me.jpg",
        )
        .await,
        200,
    )
    .await;
    let b_child = add_child(&server, &b, "Noah").await;

    let child_body = json!({"name": "Taken", "version": 1});
    let meal_body =
        json!({"childId": b_child, "mealType": "Dinner", "foods": ["Rice"], "version": 1});
    let requests: Vec<(reqwest::Method, String, Option<serde_json::Value>)> = vec![
        (
            reqwest::Method::GET,
            format!("/api/children/{a_child}"),
            None,
        ),
        (
            reqwest::Method::PUT,
            format!("/api/children/{a_child}"),
            Some(child_body),
        ),
        (
            reqwest::Method::DELETE,
            format!("/api/children/{a_child}"),
            None,
        ),
        (reqwest::Method::GET, format!("/api/meals/{a_meal}"), None),
        (
            reqwest::Method::PUT,
            format!("/api/meals/{a_meal}"),
            Some(meal_body),
        ),
        (
            reqwest::Method::DELETE,
            format!("/api/meals/{a_meal}"),
            None,
        ),
        (
            reqwest::Method::GET,
            photo["url"].as_str().unwrap().to_string(),
            None,
        ),
        (
            reqwest::Method::GET,
            photo["thumbnailUrl"].as_str().unwrap().to_string(),
            None,
        ),
        (
            reqwest::Method::GET,
            spare["url"].as_str().unwrap().to_string(),
            None,
        ),
        (
            reqwest::Method::GET,
            avatar["avatarUrl"].as_str().unwrap().to_string(),
            None,
        ),
    ];
    for (method, path, body) in &requests {
        let mut req = b.request(method.clone(), server.url(path));
        if let Some(body) = body {
            req = req.json(body);
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), 404, "{method} {path}");
        let error: serde_json::Value = resp.json().await.unwrap();
        assert_eq!(error["title"], "Not found", "{method} {path}");
    }

    // B's lists hold only B's records, also when filtering by A's child.
    let children = json(
        b.get(server.url("/api/children")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(children.as_array().unwrap().len(), 1);
    assert_eq!(children[0]["id"], json!(b_child));
    let meals = json(b.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    assert!(meals["items"].as_array().unwrap().is_empty());
    let meals = json(
        b.get(server.url(&format!("/api/meals?childId={a_child}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert!(meals["items"].as_array().unwrap().is_empty());

    // B cannot record meals for A's child, nor attach A's photo.
    let resp = b
        .post(server.url("/api/meals"))
        .json(&json!({"childId": a_child, "mealType": "Lunch", "foods": ["x"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    assert_eq!(
        resp.json::<serde_json::Value>().await.unwrap()["message"],
        "Please choose one of your children"
    );
    let resp = b
        .post(server.url("/api/meals"))
        .json(
            &json!({"childId": b_child, "mealType": "Lunch", "foods": ["x"], "photo": spare["id"]}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 400);
    assert_eq!(
        resp.json::<serde_json::Value>().await.unwrap()["title"],
        "Photo upload failed"
    );

    // A's records are untouched.
    assert_eq!(
        json(
            a.get(server.url(&format!("/api/children/{a_child}")))
                .send()
                .await
                .unwrap(),
            200
        )
        .await["name"],
        "Emma"
    );
    assert_eq!(
        json(
            a.get(server.url(&format!("/api/meals/{a_meal}")))
                .send()
                .await
                .unwrap(),
            200
        )
        .await["foods"],
        json!(["Soup"])
    );
    for url in [
        photo["url"].as_str().unwrap(),
        spare["url"].as_str().unwrap(),
        avatar["avatarUrl"].as_str().unwrap(),
    ] {
        assert_eq!(
            a.get(server.url(url)).send().await.unwrap().status(),
            200,
            "{url}"
        );
    }
}

#[tokio::test]
async fn deleting_an_account_removes_all_of_its_family_records() {
    let server = TestServer::start().await;
    let a = family(&server, "a@example.org").await;
    let b = family(&server, "b@example.org").await;
    for client in [&a, &b] {
        let child = add_child(&server, client, "Kid").await;
        let photo = json(
            upload(
                &server,
                client,
                "/api/media",
                highchair::media::fixtures::two_colour_jpeg(32, 32),
                "p.jpg",
            )
            .await,
            201,
        )
        .await;
        add_meal(
            &server,
            client,
            json!({"childId": child, "mealType": "Lunch", "foods": ["Soup"], "photo": photo["id"]}),
        )
        .await;
    }
    highchair::admin::ops::delete_user(&server.app, "a@example.org")
        .await
        .unwrap();
    // The family's records go in a background job.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !server.app.store().jobs.pending().await.unwrap().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the removal job finished"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(
        server.app.store().media.count().await.unwrap(),
        1,
        "only B's photo is left"
    );
    let b_meals = json(b.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    assert_eq!(b_meals["items"].as_array().unwrap().len(), 1);
    let a_again = family(&server, "a@example.org").await;
    let meals = json(
        a_again.get(server.url("/api/meals")).send().await.unwrap(),
        200,
    )
    .await;
    assert!(meals["items"].as_array().unwrap().is_empty());
    assert!(
        json(
            a_again
                .get(server.url("/api/children"))
                .send()
                .await
                .unwrap(),
            200
        )
        .await
        .as_array()
        .unwrap()
        .is_empty()
    );
}
