//! Versions: every update carries the version it was made on; a stale one answers 409 with the
//! current record and changes nothing.

use serde_json::json;

use crate::harness::{TestServer, add_child, family, json, sign_in};

/// Two parents of one family: two signed-in clients of the same account.
async fn two_tabs(server: &TestServer) -> (reqwest::Client, reqwest::Client) {
    let mum = family(server, "mum@example.org").await;
    (mum, sign_in(server, "mum@example.org").await)
}

async fn assert_conflict(resp: reqwest::Response) -> serde_json::Value {
    let body = json(resp, 409).await;
    assert_eq!(body["title"], "Update conflict");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("was changed elsewhere"),
        "{body}"
    );
    assert_eq!(body["field"], "version");
    body["current"].clone()
}

#[tokio::test]
async fn a_stale_child_update_is_refused_with_the_current_child() {
    let server = TestServer::start().await;
    let (mum, dad) = two_tabs(&server).await;
    let id = add_child(&server, &mum, "Emma").await;
    let url = server.url(&format!("/api/children/{id}"));
    let saved = json(
        mum.put(&url)
            .json(&json!({"name": "Emma Rose", "age": 4, "version": 1}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(saved["version"], 2);

    // Dad edited the form he opened at version 1.
    let current = assert_conflict(
        dad.put(&url)
            .json(&json!({"name": "Emmy", "age": 5, "version": 1}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(current["name"], "Emma Rose");
    assert_eq!(current["version"], 2);
    let now = json(dad.get(&url).send().await.unwrap(), 200).await;
    assert_eq!(
        (now["name"].clone(), now["version"].clone()),
        (json!("Emma Rose"), json!(2))
    );

    // Saving again on the current version overwrites on purpose.
    let again = json(
        dad.put(&url)
            .json(&json!({"name": "Emmy", "age": 5, "version": 2}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(
        (again["name"].clone(), again["version"].clone()),
        (json!("Emmy"), json!(3))
    );
}

#[tokio::test]
async fn a_stale_meal_update_is_refused_and_changes_nothing() {
    let server = TestServer::start().await;
    let (mum, dad) = two_tabs(&server).await;
    let child = add_child(&server, &mum, "Emma").await;
    let meal = json(
        mum.post(server.url("/api/meals"))
            .json(&json!({"childId": child, "mealType": "Lunch", "foods": ["Pasta"]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    assert_eq!(meal["version"], 1);
    assert_eq!(meal["mealType"], "Lunch");
    let url = server.url(&format!("/api/meals/{}", meal["id"].as_str().unwrap()));
    let body = |foods: &str, version: u64| {
        json!({"childId": child, "mealType": "Dinner", "foods": [foods],
               "mealDate": meal["mealDate"], "version": version})
    };
    json(
        mum.put(&url).json(&body("Rice", 1)).send().await.unwrap(),
        200,
    )
    .await;
    let current = assert_conflict(dad.put(&url).json(&body("Soup", 1)).send().await.unwrap()).await;
    assert_eq!(current["foods"], json!(["Rice"]));
    let page = json(dad.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
    assert_eq!(page["items"][0]["foods"], json!(["Rice"]));
}

#[tokio::test]
async fn a_stale_profile_update_is_refused_with_the_current_profile() {
    let server = TestServer::start().await;
    let (mum, dad) = two_tabs(&server).await;
    let me = json(
        mum.get(server.url("/api/profile")).send().await.unwrap(),
        200,
    )
    .await;
    let version = me["version"].as_u64().unwrap();
    json(
        mum.patch(server.url("/api/profile"))
            .json(&json!({"firstName": "Amira", "lastName": "Khan-Lee", "version": version}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let current = assert_conflict(
        dad.patch(server.url("/api/profile"))
            .json(&json!({"firstName": "Ami", "version": version}))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(current["lastName"], "Khan-Lee");
    assert!(current.get("email").is_some());
    assert!(current.get("passwordHash").is_none());
    let now = json(
        dad.get(server.url("/api/profile")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(now["firstName"], "Amira");
}

/// Issue 26: a PUT of a meal or a grocery list without `version` overwrote silently. Every
/// update names the version it was made on: without one it is a 400 naming the field, and the
/// record is unchanged.
#[tokio::test]
async fn an_update_without_its_version_is_refused_and_changes_nothing() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let child = add_child(&server, &mum, "Emma").await;
    let meal = json(
        mum.post(server.url("/api/meals"))
            .json(&json!({"childId": child, "mealType": "Lunch", "foods": ["Rice"]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let list = json(
        mum.post(server.url("/api/grocery-lists"))
            .json(&json!({"name": "Shop", "items": [{"name": "Milk"}]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let cases = [
        (
            "PUT",
            format!("/api/meals/{}", meal["id"].as_str().unwrap()),
            json!({"childId": child, "mealType": "Lunch", "foods": ["Soup"]}),
            "Error updating meal",
        ),
        (
            "PUT",
            format!("/api/grocery-lists/{}", list["id"].as_str().unwrap()),
            json!({"name": "Renamed", "items": [{"name": "Bread"}]}),
            "Error updating grocery list",
        ),
        (
            "PUT",
            format!("/api/children/{child}"),
            json!({"name": "Emmy"}),
            "Error updating child profile",
        ),
        (
            "PATCH",
            "/api/profile".to_string(),
            json!({"firstName": "Someone"}),
            "Update failed",
        ),
    ];
    for (method, path, body, title) in cases {
        let resp = mum
            .request(method.parse().unwrap(), server.url(&path))
            .json(&body)
            .send()
            .await
            .unwrap();
        let refused = json(resp, 400).await;
        assert_eq!(refused["title"], title, "{path}");
        assert_eq!(refused["field"], "version", "{path}");
    }
    let meal_now = json(
        mum.get(server.url(&format!("/api/meals/{}", meal["id"].as_str().unwrap())))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(meal_now["foods"], json!(["Rice"]));
    assert_eq!(meal_now["version"], 1);
    let list_now = json(
        mum.get(server.url(&format!(
            "/api/grocery-lists/{}",
            list["id"].as_str().unwrap()
        )))
        .send()
        .await
        .unwrap(),
        200,
    )
    .await;
    assert_eq!(list_now["name"], "Shop");
}
