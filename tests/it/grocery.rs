//! Grocery lists over HTTP: validation texts, versions and 409, one-item ticks that two
//! parents make at once, drafts from saved recipes, exports, and other families' 404s.

use serde_json::{Value, json};

use crate::harness::{TestServer, error, family, json};

async fn create(server: &TestServer, client: &reqwest::Client, body: Value) -> Value {
    let resp = client
        .post(server.url("/api/grocery-lists"))
        .json(&body)
        .send()
        .await
        .unwrap();
    json(resp, 201).await
}

fn weekly() -> Value {
    json!({"name": "Weekly shop", "items": [
        {"name": " Milk ", "quantity": "", "category": "Dairy"},
        {"name": "Apples", "quantity": "6", "category": "produce"},
        {"name": "Soap", "quantity": "1"}
    ]})
}

#[tokio::test]
async fn lists_take_the_spec_defaults_and_texts() {
    let server = TestServer::start().await;
    let parent = family(&server, "shop@example.org").await;
    let list = create(&server, &parent, weekly()).await;
    assert_eq!(list["version"], 1);
    let items = list["items"].as_array().unwrap();
    assert_eq!(items[0]["name"], "Milk");
    assert_eq!(items[0]["quantity"], "1");
    assert_eq!(items[1]["category"], "Produce");
    assert_eq!(items[2]["category"], "Other");
    assert!(items.iter().all(|i| i["checked"] == false));
    // Three items at the configured £2.50, except what the catalogue prices (6 apples).
    assert!(list["estimatedTotal"].as_f64().unwrap() > 0.0);
    assert_eq!(list["pricedItems"], 1);

    for (body, title, message) in [
        (
            json!({"name": " ", "items": [{"name": "Milk"}]}),
            "Error saving grocery list",
            "List name is required.",
        ),
        (
            json!({"name": "Shop", "items": []}),
            "No items in list",
            "Please add at least one item to your grocery list",
        ),
        (
            json!({"name": "Shop", "items": [{"name": "  "}]}),
            "Item name required",
            "Please enter an item name",
        ),
    ] {
        let resp = parent
            .post(server.url("/api/grocery-lists"))
            .json(&body)
            .send()
            .await
            .unwrap();
        let (t, m, _) = error(resp, 400).await;
        assert_eq!((t.as_str(), m.as_str()), (title, message));
    }
    let resp = server
        .new_client()
        .post(server.url("/api/grocery-lists"))
        .json(&weekly())
        .send()
        .await
        .unwrap();
    let (t, m, _) = error(resp, 401).await;
    assert_eq!(
        (t.as_str(), m.as_str()),
        (
            "Authentication error",
            "You must be logged in to save grocery lists"
        )
    );
}

#[tokio::test]
async fn a_stale_save_is_refused_and_a_tick_never_loses_the_other_parents_change() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum.shop@example.org").await;
    let list = create(&server, &mum, weekly()).await;
    let id = list["id"].as_str().unwrap();
    let milk = list["items"][0]["id"].as_str().unwrap();
    // A tick: only that item changes; the version moves on.
    let resp = mum
        .patch(server.url(&format!("/api/grocery-lists/{id}/items/{milk}")))
        .json(&json!({"checked": true}))
        .send()
        .await
        .unwrap();
    let ticked = json(resp, 200).await;
    assert_eq!(ticked["applied"], true);
    assert_eq!(ticked["list"]["items"][0]["checked"], true);
    assert_eq!(ticked["list"]["version"], 2);
    // A save made from version 1 is refused with the list as it is now.
    let mut edit = weekly();
    edit["name"] = json!("Renamed");
    edit["version"] = json!(1);
    let resp = mum
        .put(server.url(&format!("/api/grocery-lists/{id}")))
        .json(&edit)
        .send()
        .await
        .unwrap();
    let conflict = json(resp, 409).await;
    assert_eq!(conflict["current"]["name"], "Weekly shop");
    assert_eq!(conflict["current"]["items"][0]["checked"], true);
    // Saved from the current version, with ids: Milk keeps its id and its tick.
    let mut items: Vec<Value> = ticked["list"]["items"].as_array().unwrap().clone();
    items[2]["name"] = json!("Hand soap");
    let resp = mum
        .put(server.url(&format!("/api/grocery-lists/{id}")))
        .json(&json!({"name": "Renamed", "items": items, "version": 2}))
        .send()
        .await
        .unwrap();
    let saved = json(resp, 200).await;
    assert_eq!(saved["items"][0]["id"], milk);
    assert_eq!(saved["items"][0]["checked"], true);
    assert_eq!(saved["items"][2]["name"], "Hand soap");
    // A tick made before the last one (an offline phone catching up) is reported, not applied.
    let resp = mum
        .patch(server.url(&format!("/api/grocery-lists/{id}/items/{milk}")))
        .json(&json!({"checked": false, "at": "2020-01-01T00:00:00Z"}))
        .send()
        .await
        .unwrap();
    let late = json(resp, 200).await;
    assert_eq!(late["applied"], false);
    assert_eq!(late["list"]["items"][0]["checked"], true);
}

#[tokio::test]
async fn two_parents_ticking_different_items_at_once_keep_every_tick() {
    let server = TestServer::start().await;
    let (mum, dad, _) = crate::households::two_parents(&server).await;
    let list = create(&server, &mum, weekly()).await;
    let id = list["id"].as_str().unwrap().to_string();
    let items: Vec<String> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect();
    let mut tasks = Vec::new();
    for (client, item) in [
        (mum.clone(), items[0].clone()),
        (dad.clone(), items[1].clone()),
    ] {
        let url = server.url(&format!("/api/grocery-lists/{id}/items/{item}"));
        tasks.push(tokio::spawn(async move {
            for round in 0..200 {
                let resp = client
                    .patch(&url)
                    .json(&json!({"checked": round % 2 == 0}))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(resp.status(), 200);
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let end = json(
        mum.get(server.url(&format!("/api/grocery-lists/{id}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(end["version"], 401, "every tick is one write");
    assert_eq!(end["items"][0]["checked"], false);
    assert_eq!(end["items"][1]["checked"], false);
}

#[tokio::test]
async fn a_draft_from_saved_recipes_merges_and_categorises() {
    let server = TestServer::start().await;
    let parent = family(&server, "merge@example.org").await;
    let mut ids = Vec::new();
    for (title, lines) in [
        (
            "Rice bowl",
            json!([{"name": "basmati rice", "quantity": "1 cup"}, {"name": "Chicken breast", "quantity": "200 g"}]),
        ),
        (
            "Fried rice",
            json!([{"name": "Basmati rice", "quantity": "1/2 cup"}, {"name": "chicken breast", "quantity": "100 g"}, {"name": "Soy sauce", "quantity": "2 tbsp"}]),
        ),
    ] {
        let resp = parent
            .post(server.url("/api/recipes"))
            .json(&json!({"source": "own", "title": title, "ingredients": lines, "instructions": ["Cook."]}))
            .send()
            .await
            .unwrap();
        ids.push(json(resp, 201).await["id"].as_str().unwrap().to_string());
    }
    let resp = parent
        .post(server.url("/api/grocery-lists/from-recipes"))
        .json(&json!({"recipeIds": ids}))
        .send()
        .await
        .unwrap();
    let draft = json(resp, 200).await;
    assert_eq!(draft["name"], "List from 2 recipe(s)");
    let items = draft["items"].as_array().unwrap();
    assert_eq!(items[0]["name"], "Basmati rice");
    assert_eq!(items[0]["quantity"], "1 1/2 cups");
    assert_eq!(items[0]["category"], "Dry Goods & Pasta");
    assert_eq!(items[1]["name"], "Chicken breast");
    assert_eq!(items[1]["quantity"], "300 g");
    assert_eq!(items[1]["category"], "Meat & Seafood");
    assert!(items.iter().all(|i| i["checked"] == false));
    // Another family's recipe is not found.
    let other = family(&server, "other.merge@example.org").await;
    let resp = other
        .post(server.url("/api/grocery-lists/from-recipes"))
        .json(&json!({"recipeIds": [ids[0]]}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
}

#[tokio::test]
async fn exports_are_real_files_and_other_families_get_404_everywhere() {
    let server = TestServer::start().await;
    let parent = family(&server, "export@example.org").await;
    let list = create(
        &server,
        &parent,
        json!({"name": "Party, \"big\" one", "items": [
            {"name": "Crisps, salted", "quantity": "3", "category": "Snacks"},
            {"name": "=SUM(A1)", "quantity": "1"}
        ]}),
    )
    .await;
    let id = list["id"].as_str().unwrap();
    let item = list["items"][0]["id"].as_str().unwrap();
    let resp = parent
        .get(server.url(&format!("/api/grocery-lists/{id}/export?format=csv")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    assert_eq!(
        resp.headers()["content-disposition"],
        "attachment; filename=\"party-big-one.csv\""
    );
    let csv = resp.text().await.unwrap();
    assert!(
        csv.contains("\"Snacks\",\"Crisps, salted\",\"3\",\"no\""),
        "{csv}"
    );
    assert!(csv.contains("\"'=SUM(A1)\""), "{csv}");
    for (format, start) in [
        ("txt", "Party, \"big\" one\n"),
        ("md", "# Party, \"big\" one\n"),
    ] {
        let resp = parent
            .get(server.url(&format!("/api/grocery-lists/{id}/export?format={format}")))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200);
        assert!(resp.text().await.unwrap().starts_with(start));
    }
    let other = family(&server, "nosy@example.org").await;
    for resp in [
        other
            .get(server.url(&format!("/api/grocery-lists/{id}")))
            .send()
            .await
            .unwrap(),
        other
            .get(server.url(&format!("/api/grocery-lists/{id}/export?format=csv")))
            .send()
            .await
            .unwrap(),
        other
            .put(server.url(&format!("/api/grocery-lists/{id}")))
            .json(&{
                let mut edit = weekly();
                edit["version"] = json!(1);
                edit
            })
            .send()
            .await
            .unwrap(),
        other
            .patch(server.url(&format!("/api/grocery-lists/{id}/items/{item}")))
            .json(&json!({"checked": true}))
            .send()
            .await
            .unwrap(),
        other
            .delete(server.url(&format!("/api/grocery-lists/{id}")))
            .send()
            .await
            .unwrap(),
    ] {
        assert_eq!(resp.status(), 404);
    }
    let lists = json(
        other
            .get(server.url("/api/grocery-lists"))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(lists, json!([]));
    let resp = parent
        .delete(server.url(&format!("/api/grocery-lists/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
}

#[tokio::test]
async fn the_lists_answer_is_kept_per_revision_with_an_etag() {
    let server = TestServer::start().await;
    let parent = family(&server, "etag@example.org").await;
    let list = create(&server, &parent, weekly()).await;
    let id = list["id"].as_str().unwrap();
    let item = list["items"][1]["id"].as_str().unwrap();
    let ticked = parent
        .patch(server.url(&format!("/api/grocery-lists/{id}/items/{item}")))
        .json(&json!({"checked": true}))
        .send()
        .await
        .unwrap();
    json(ticked, 200).await;

    let first = parent
        .get(server.url("/api/grocery-lists"))
        .send()
        .await
        .unwrap();
    let etag = first.headers()["etag"].to_str().unwrap().to_string();
    assert_eq!(first.headers()["cache-control"], "private, no-cache");
    let lists = json(first, 200).await;
    // The cached answer is written by serde; it must be exactly what the single read gives.
    let one = json(
        parent
            .get(server.url(&format!("/api/grocery-lists/{id}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(lists[0], one);
    assert!(one["items"][1]["checkedAt"].is_string());
    assert_eq!(one["items"][0]["checkedAt"], Value::Null);

    let same = parent
        .get(server.url("/api/grocery-lists"))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(same.status(), 304);
    // A tick moves the family on: the old ETag gets the new lists.
    let untick = parent
        .patch(server.url(&format!("/api/grocery-lists/{id}/items/{item}")))
        .json(&json!({"checked": false}))
        .send()
        .await
        .unwrap();
    json(untick, 200).await;
    let changed = parent
        .get(server.url("/api/grocery-lists"))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_ne!(changed.headers()["etag"].to_str().unwrap(), etag);
    let lists = json(changed, 200).await;
    assert_eq!(lists[0]["items"][1]["checked"], false);
    // Another family never meets this family's answer.
    let other = family(&server, "other@example.org").await;
    let theirs = other
        .get(server.url("/api/grocery-lists"))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(json(theirs, 200).await, json!([]));
}

#[tokio::test]
async fn a_browser_gets_the_lists_gzip_compressed_and_the_same_etag() {
    let server = TestServer::start().await;
    let parent = family(&server, "gzip@example.org").await;
    let mut items: Vec<Value> = (0..40)
        .map(|i| json!({"name": format!("Item {i}"), "quantity": "1"}))
        .collect();
    items[0]["category"] = json!("Produce");
    create(
        &server,
        &parent,
        json!({"name": "Big shop", "items": items}),
    )
    .await;

    let get = |encoding: &'static str| {
        parent
            .get(server.url("/api/grocery-lists"))
            .header("Accept-Encoding", encoding)
            .send()
    };
    let plain = get("identity").await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.headers()["vary"], "Accept-Encoding, Accept-Language");
    let etag = plain.headers()["etag"].to_str().unwrap().to_string();
    let plain = plain.bytes().await.unwrap();

    let zipped = get("gzip, deflate, br").await.unwrap();
    assert_eq!(zipped.status(), 200);
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    assert_eq!(zipped.headers()["vary"], "Accept-Encoding, Accept-Language");
    assert_eq!(zipped.headers()["etag"].to_str().unwrap(), etag);
    let zipped = zipped.bytes().await.unwrap();
    assert!(
        zipped.len() * 4 < plain.len(),
        "{} of {}",
        zipped.len(),
        plain.len()
    );
    let mut json_back = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&zipped[..]),
        &mut json_back,
    )
    .unwrap();
    assert_eq!(json_back, plain);
    assert_eq!(
        serde_json::from_slice::<Value>(&json_back).unwrap()[0]["items"]
            .as_array()
            .unwrap()
            .len(),
        40
    );

    // Short answers go as they are.
    let none = parent
        .get(server.url("/api/recipes"))
        .header("Accept-Encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert!(none.headers().get("content-encoding").is_none());
    assert_eq!(json(none, 200).await, json!([]));
    let revalidated = parent
        .get(server.url("/api/grocery-lists"))
        .header("Accept-Encoding", "gzip")
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
}

/// Issue 26: a new list's dialog showed £30.00 (2.50 an item) and the saved card £13.68
/// (catalogue prices) for the same items, and a typed item started at Other. The form asks the
/// server, which estimates as it does a saved list and suggests each item's category.
#[tokio::test]
async fn items_being_written_are_estimated_as_the_saved_list_and_get_a_category() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let items = json!([
        {"name": "Eggs", "quantity": "6"},
        {"name": "Nappies size 4", "quantity": ""},
        {"name": "bagels", "quantity": "1"},
        {"name": "Soap", "quantity": "2"},
        {"name": "cheese", "quantity": "200 g"}
    ]);
    let estimate = json(
        mum.post(server.url("/api/grocery-lists/estimate"))
            .json(&json!({"items": items}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let categories: Vec<&str> = estimate["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["suggestedCategory"].as_str().unwrap())
        .collect();
    assert_eq!(categories, ["Dairy", "Baby", "Bakery", "Cleaning", "Dairy"]);
    // Saved as written (the quantity left empty becomes '1'), the card's total is the same.
    let saved_items: Vec<Value> = items
        .as_array()
        .unwrap()
        .iter()
        .zip(&categories)
        .map(|(i, c)| json!({"name": i["name"], "quantity": i["quantity"], "category": c}))
        .collect();
    let saved = create(&server, &mum, json!({"name": "Shop", "items": saved_items})).await;
    assert_eq!(saved["estimatedTotal"], estimate["estimatedTotal"]);
    assert_eq!(saved["pricedItems"], estimate["pricedItems"]);
    assert!(estimate["pricedItems"].as_u64().unwrap() >= 1, "{estimate}");
    // Signed out: nothing to estimate for.
    let resp = server
        .new_client()
        .post(server.url("/api/grocery-lists/estimate"))
        .json(&json!({"items": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 401);
}
