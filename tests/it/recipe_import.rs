//! Recipes from anywhere over HTTP (issue 31): the fixture corpus imported by address from a
//! site on loopback, failures in the parent's words, pasting, saving an import with its
//! picture, editing, and export that another Highchair imports as the same recipes.

use serde_json::{Value, json};

use crate::harness::{TestServer, error, family, json, months_ago};
use crate::recipe_pages;

/// A server that may fetch from loopback, where the test site is.
async fn server() -> TestServer {
    TestServer::start_with(|s| s.recipes.import_allow_private = true).await
}

async fn import(server: &TestServer, parent: &reqwest::Client, body: Value) -> reqwest::Response {
    parent
        .post(server.url("/api/recipes/import"))
        .json(&body)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn every_page_of_the_corpus_imports_as_it_says() {
    let site = recipe_pages::serve().await;
    let server = server().await;
    let parent = family(&server, "corpus@example.com").await;
    let pages = recipe_pages::pages();
    assert!(pages.len() >= 20, "the corpus has {} pages", pages.len());
    for (name, text) in pages {
        let expect = recipe_pages::expected(&text);
        let resp = import(&server, &parent, json!({"url": format!("{site}/{name}")})).await;
        if expect["recipes"] == 0 {
            let (title, _, field) = error(resp, 400).await;
            assert_eq!(
                (title.as_str(), field.as_deref()),
                ("No recipe found", Some("url")),
                "{name}"
            );
            continue;
        }
        let found = json(resp, 200).await;
        let recipes = found["recipes"].as_array().unwrap();
        assert_eq!(json!(recipes.len()), expect["recipes"], "{name}");
        let r = &recipes[0];
        assert_eq!(r["title"], expect["title"], "{name}");
        let count = |key: &str| json!(r[key].as_array().map_or(0, |a| a.len()));
        assert_eq!(
            count("ingredients"),
            expect["ingredients"],
            "{name}: {}",
            r["ingredients"]
        );
        assert_eq!(
            count("instructions"),
            expect["steps"],
            "{name}: {}",
            r["instructions"]
        );
        for (key, field) in [
            ("servings", "servings"),
            ("prep", "preparationTime"),
            ("cook", "cookingTime"),
        ] {
            if let Some(want) = expect.get(key) {
                assert_eq!(&r[field], want, "{name}: {field}");
            }
        }
        if let Some(first) = expect.get("first") {
            let line = &r["ingredients"][0];
            assert_eq!(json!([line["quantity"], line["name"]]), *first, "{name}");
        }
        if let Some(image) = expect["image"].as_str() {
            let want = if image.starts_with('/') {
                format!("{site}{image}")
            } else {
                image.to_string()
            };
            assert_eq!(r["imageUrl"], want.as_str(), "{name}");
        }
        // The page is the source unless the recipe names another.
        assert_eq!(r["sourceUrl"], format!("{site}/{name}").as_str(), "{name}");
    }
}

#[tokio::test]
async fn failures_say_what_went_wrong_and_offer_pasting() {
    let site = recipe_pages::serve().await;
    let server = server().await;
    let parent = family(&server, "failures@example.com").await;
    for (url, status, title) in [
        (format!("{site}/too-large.html"), 413, "Page too large"),
        (format!("{site}/loop"), 503, "Page not reachable"),
        (format!("{site}/hop/6"), 503, "Page not reachable"),
        (format!("{site}/missing.html"), 503, "Page not reachable"),
        (format!("{site}/blocked"), 503, "Blocked by the site"),
        (
            "ftp://example.org/recipe".to_string(),
            400,
            "Error importing recipe",
        ),
        ("soup".to_string(), 400, "Error importing recipe"),
        (String::new(), 400, "Error importing recipe"),
    ] {
        let (got, message, _) =
            error(import(&server, &parent, json!({"url": url})).await, status).await;
        assert_eq!(got, title, "{url}: {message}");
        if status == 503 {
            assert!(message.contains("paste the recipe"), "{message}");
        }
    }
    // Five redirects are followed, and a page in 4.5 MB of page is found.
    let hops = json(
        import(&server, &parent, json!({"url": format!("{site}/hop/4")})).await,
        200,
    )
    .await;
    assert_eq!(hops["recipes"][0]["title"], "Cheesy leek and potato bake");
    let huge = json(
        import(
            &server,
            &parent,
            json!({"url": format!("{site}/huge.html")}),
        )
        .await,
        200,
    )
    .await;
    assert_eq!(huge["recipes"][0]["title"], "One-pot chicken and rice");
    // A page or a text, not both.
    let (_, message, _) = error(
        import(&server, &parent, json!({"html": "x", "text": "x"})).await,
        400,
    )
    .await;
    assert_eq!(
        message,
        "Please give the recipe's web address, its page or its text"
    );
    // Pasted pages are bounded like fetched ones; the body limit names the page too.
    let big = "<p>a</p>".repeat(700_000);
    let (title, _, _) = error(import(&server, &parent, json!({"html": big})).await, 413).await;
    assert_eq!(title, "Page too large");
    let (title, message, _) = error(
        import(&server, &parent, json!({"html": "x".repeat(11 << 20)})).await,
        413,
    )
    .await;
    assert_eq!(title, "Request too large");
    assert!(message.contains("5 MB"), "{message}");
    // Only parents import.
    let resp = server
        .new_client()
        .post(server.url("/api/recipes/import"))
        .json(&json!({"text": "Toast\nBread\nButter"}))
        .send()
        .await
        .unwrap();
    let (_, message, _) = error(resp, 401).await;
    assert_eq!(message, "You must be logged in to import recipes");
}

#[tokio::test]
async fn the_home_network_is_not_fetched_unless_the_admin_allows_it() {
    let site = recipe_pages::serve().await;
    let server = TestServer::start().await;
    let parent = family(&server, "private@example.com").await;
    for url in [
        format!("{site}/jsonld-plain.html"),
        "http://localhost:1/".to_string(),
        "http://192.168.1.1/admin".to_string(),
        "http://[::1]/".to_string(),
        "http://169.254.169.254/latest/meta-data/".to_string(),
    ] {
        let (title, message, field) =
            error(import(&server, &parent, json!({"url": url})).await, 400).await;
        assert_eq!(
            (title.as_str(), field.as_deref()),
            ("Address not allowed", Some("url")),
            "{url}"
        );
        assert!(message.contains("allow private addresses"), "{message}");
    }
}

#[tokio::test]
async fn pasted_pages_and_texts_give_the_same_drafts() {
    let server = TestServer::start().await;
    let parent = family(&server, "paste@example.com").await;
    let page = std::fs::read_to_string(recipe_pages::folder().join("microdata-only.html")).unwrap();
    let found = json(import(&server, &parent, json!({"html": page})).await, 200).await;
    let r = &found["recipes"][0];
    assert_eq!(r["title"], "Shepherd's pie");
    assert_eq!(r["servings"], 6);
    // A pasted page has no address of its own.
    assert_eq!(r["sourceUrl"], Value::Null);
    let text = "Granny's flapjacks\n\nMakes 12\nPrep: 10 mins\n\nIngredients\n- 250g porridge oats\n\
                - 125g butter\n- 125g golden syrup\n\nMethod\n1. Melt the butter and syrup.\n\
                2. Stir in the oats.\n3. Bake at 180C for 20 minutes.";
    let found = json(import(&server, &parent, json!({"text": text})).await, 200).await;
    let r = &found["recipes"][0];
    assert_eq!(r["title"], "Granny's flapjacks");
    assert_eq!(r["servings"], 12);
    assert_eq!(r["preparationTime"], 10);
    assert_eq!(
        r["ingredients"][0],
        json!({"name": "porridge oats", "quantity": "250g"})
    );
    assert_eq!(r["instructions"][2], "Bake at 180C for 20 minutes.");
    let (title, _, field) = error(
        import(&server, &parent, json!({"text": "Just a title"})).await,
        400,
    )
    .await;
    assert_eq!(
        (title.as_str(), field.as_deref()),
        ("No recipe found", Some("text"))
    );
    let (_, message, _) = error(import(&server, &parent, json!({"html": "  "})).await, 400).await;
    assert_eq!(message, "Please paste the recipe or its page");
    // A pasted page may say where it came from: its source, and what its picture's address is
    // read against (nothing is fetched).
    let page =
        std::fs::read_to_string(recipe_pages::folder().join("jsonld-relative-image.html")).unwrap();
    let found = json(
        import(
            &server,
            &parent,
            json!({"html": page, "url": "https://wedges.example.org/recipes/1"}),
        )
        .await,
        200,
    )
    .await;
    let r = &found["recipes"][0];
    assert_eq!(r["sourceUrl"], "https://wedges.example.org/recipes/1");
    assert_eq!(
        r["imageUrl"],
        "https://wedges.example.org/images/wedges.jpg"
    );
    let (_, message, field) = error(
        import(&server, &parent, json!({"text": text, "url": "wedges"})).await,
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("url"));
    assert_eq!(
        message,
        "Please enter a web address starting with http:// or https://"
    );
    // Guests try the app; they do not make the server fetch pages.
    let guest = server.new_client();
    let resp = guest
        .post(server.url("/api/auth/guest"))
        .json(&json!({"firstName": "Kim"}))
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    let (_, message, _) = error(import(&server, &guest, json!({"text": text})).await, 403).await;
    assert!(
        message.starts_with("Guests cannot import recipes"),
        "{message}"
    );
}

#[tokio::test]
async fn an_import_is_checked_for_the_children_saved_with_its_picture_edited_and_exported() {
    let site = recipe_pages::serve().await;
    let server = server().await;
    let parent = family(&server, "satay@example.com").await;
    let resp = parent
        .post(server.url("/api/children"))
        .json(&json!({"name": "Leo", "birthMonth": months_ago(9), "allergies": ["Peanuts"]}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await;
    let found = json(
        import(
            &server,
            &parent,
            json!({"url": format!("{site}/satay-for-the-family.html")}),
        )
        .await,
        200,
    )
    .await;
    let mut draft = found["recipes"][0].clone();
    let warnings = draft["allergyWarnings"].to_string();
    assert!(warnings.contains("peanut"), "{warnings}");
    let notes = draft["safetyNotes"].to_string();
    assert!(notes.contains("For Leo (9 months)"), "{notes}");
    assert!(notes.contains("quarter the grapes lengthways"), "{notes}");
    assert!(notes.contains("no honey before 12 months"), "{notes}");

    // Saved as the parent edited it: its picture fetched once into the family's photos.
    draft["source"] = json!("imported");
    draft["title"] = json!("Satay skewers (no honey for Leo)");
    let saved = json(
        parent
            .post(server.url("/api/recipes"))
            .json(&draft)
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    assert_eq!(saved["source"], "imported");
    assert_eq!(
        saved["sourceUrl"],
        format!("{site}/satay-for-the-family.html").as_str()
    );
    assert!(saved["allergyWarnings"].to_string().contains("peanut"));
    let photo = saved["photoId"]
        .as_str()
        .expect("the picture was kept")
        .to_string();
    let picture = parent
        .get(server.url(&format!("/api/media/{photo}")))
        .send()
        .await
        .unwrap();
    assert_eq!(picture.status(), 200);
    assert!(
        picture.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("image/")
    );
    // Another family cannot see the picture.
    let other = family(&server, "other-satay@example.com").await;
    let resp = other
        .get(server.url(&format!("/api/media/{photo}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);

    // A picture that cannot be had leaves the recipe without one.
    let mut no_picture = found["recipes"][0].clone();
    no_picture["source"] = json!("imported");
    no_picture["imageUrl"] = json!(format!("{site}/missing.jpg"));
    let plain = json(
        parent
            .post(server.url("/api/recipes"))
            .json(&no_picture)
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    assert_eq!(plain["photoId"], Value::Null);

    // Edited: a stale version is refused with the recipe as it is.
    let id = saved["id"].as_str().unwrap().to_string();
    let mut edit = saved.clone();
    edit["title"] = json!("Satay skewers");
    edit["ingredients"][1] = json!({"name": "maple syrup", "quantity": "2 tbsp"});
    let edited = json(
        parent
            .put(server.url(&format!("/api/recipes/{id}")))
            .json(&edit)
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(
        (edited["title"].as_str(), edited["version"].as_u64()),
        (Some("Satay skewers"), Some(2))
    );
    assert!(!edited["safetyNotes"].to_string().contains("honey"));
    assert_eq!(edited["photoId"], photo.as_str());
    edit["title"] = json!("Lost");
    let resp = parent
        .put(server.url(&format!("/api/recipes/{id}")))
        .json(&edit)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 409);
    let conflict: Value = resp.json().await.unwrap();
    assert_eq!(conflict["current"]["title"], "Satay skewers");
    let resp = other
        .put(server.url(&format!("/api/recipes/{id}")))
        .json(&edited)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
    let mut bad = edited.clone();
    bad["sourceUrl"] = json!("javascript:alert(1)");
    let (_, message, field) = error(
        parent
            .put(server.url(&format!("/api/recipes/{id}")))
            .json(&bad)
            .send()
            .await
            .unwrap(),
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("sourceUrl"));
    assert!(message.contains("http://"), "{message}");
    // The picture removed: gone from the family's photos.
    let mut drop_photo = edited.clone();
    drop_photo["removePhoto"] = json!(true);
    let without = json(
        parent
            .put(server.url(&format!("/api/recipes/{id}")))
            .json(&drop_photo)
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(without["photoId"], Value::Null);
    let resp = parent
        .get(server.url(&format!("/api/media/{photo}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);

    // Exported: one as schema.org JSON-LD, all as one file that another Highchair imports as
    // the same recipes.
    let one = parent
        .get(server.url(&format!("/api/recipes/{id}/export")))
        .send()
        .await
        .unwrap();
    assert_eq!(one.status(), 200);
    assert!(
        one.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/ld+json")
    );
    assert_eq!(
        one.headers()["content-disposition"],
        "attachment; filename=\"satay-skewers.json\""
    );
    let doc: Value = one.json().await.unwrap();
    assert_eq!(
        (doc["@type"].as_str(), doc["name"].as_str()),
        (Some("Recipe"), Some("Satay skewers"))
    );
    let all = parent
        .get(server.url("/api/recipes/export"))
        .send()
        .await
        .unwrap();
    assert_eq!(all.status(), 200);
    let file = all.text().await.unwrap();
    let elsewhere = TestServer::start().await;
    let newcomer = family(&elsewhere, "newcomer@example.com").await;
    let found = json(
        import(&elsewhere, &newcomer, json!({"text": file})).await,
        200,
    )
    .await;
    let mine = json(
        parent.get(server.url("/api/recipes")).send().await.unwrap(),
        200,
    )
    .await;
    let (mine, theirs) = (
        mine.as_array().unwrap(),
        found["recipes"].as_array().unwrap(),
    );
    assert_eq!(mine.len(), theirs.len());
    for (a, b) in mine.iter().zip(theirs) {
        for key in [
            "title",
            "description",
            "ingredients",
            "instructions",
            "preparationTime",
            "cookingTime",
            "servings",
            "tips",
            "substitutions",
            "sourceUrl",
        ] {
            assert_eq!(a[key], b[key], "{key}");
        }
        let mut again = b.clone();
        again["source"] = json!("imported");
        json(
            newcomer
                .post(elsewhere.url("/api/recipes"))
                .json(&again)
                .send()
                .await
                .unwrap(),
            201,
        )
        .await;
    }
    let copied = json(
        newcomer
            .get(elsewhere.url("/api/recipes"))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(copied.as_array().unwrap().len(), mine.len());
}
