//! Languages (issue 32): the server words its messages in the request's language, keeps each
//! parent's choice with the account, and falls back to the configured default.

use serde_json::{Value, json};

use crate::harness::{TestServer, catalogue_items, family, json, left_out_reason};

/// `PATCH /api/profile` with an empty first name: a 400 in the parent's words.
async fn refused_profile(
    server: &TestServer,
    client: &reqwest::Client,
    lang: Option<&str>,
) -> Value {
    let mut req = client
        .patch(server.url("/api/profile"))
        .json(&json!({"firstName": "", "version": 1}));
    if let Some(lang) = lang {
        req = req.header("accept-language", lang);
    }
    json(req.send().await.unwrap(), 400).await
}

#[tokio::test]
async fn errors_are_worded_in_the_language_asked_for_with_the_same_code() {
    let server = TestServer::start().await;
    let ann = family(&server, "ann@example.org").await;

    let en = refused_profile(&server, &ann, None).await;
    assert_eq!(
        (&en["title"], &en["message"], &en["code"], &en["field"]),
        (
            &json!("Update failed"),
            &json!("Please enter your first name"),
            &json!("Update failed"),
            &json!("firstName")
        )
    );
    let fr = refused_profile(&server, &ann, Some("fr-FR,fr;q=0.9,en;q=0.5")).await;
    assert_eq!(fr["title"], "Échec de la mise à jour");
    assert_eq!(fr["message"], "Veuillez saisir votre prénom");
    // A client acts on the code, the same whatever the language.
    assert_eq!(fr["code"], "Update failed");
    assert_eq!(fr["field"], "firstName");
    let de = refused_profile(&server, &ann, Some("it-IT, de;q=0.8")).await;
    assert_ne!(de["title"], en["title"]);
    assert_eq!(de["code"], "Update failed");
    let es = refused_profile(&server, &ann, Some("es")).await;
    assert_ne!(es["title"], en["title"]);
    // None of the UI's languages: the server's default (English here).
    let it = refused_profile(&server, &ann, Some("it, pt;q=0.5")).await;
    assert_eq!(it["title"], "Update failed");

    // Errors raised outside the endpoints (an unknown path) follow the language too.
    let resp = ann
        .get(server.url("/api/no-such-thing"))
        .header("accept-language", "fr")
        .send()
        .await
        .unwrap();
    let body = json(resp, 404).await;
    assert_eq!(
        (&body["title"], &body["code"]),
        (&json!("Introuvable"), &json!("Not found"))
    );
}

#[tokio::test]
async fn counted_waits_follow_the_languages_plural_rules() {
    let server = TestServer::start().await;
    let client = server.new_client();
    // Wrong passwords until the sign-in is held back: "Please try again after …".
    let mut last = Value::Null;
    for _ in 0..30 {
        let resp = client
            .post(server.url("/api/auth/login"))
            .header("accept-language", "fr")
            .json(&json!({"email": "nobody@example.org", "password": "wrong password"}))
            .send()
            .await
            .unwrap();
        if resp.status() == 429 {
            last = resp.json().await.unwrap();
            break;
        }
    }
    assert_eq!(last["code"], "Too many attempts", "{last}");
    assert_eq!(last["title"], "Trop de tentatives");
    let message = last["message"].as_str().unwrap();
    assert!(message.starts_with("Veuillez réessayer dans "), "{message}");
    assert!(
        message.ends_with(" minute")
            || message.ends_with(" minutes")
            || message.contains("seconde"),
        "{message}"
    );
}

#[tokio::test]
async fn a_parent_keeps_a_language_with_the_account_and_the_other_parent_their_own() {
    let server = TestServer::start().await;
    let ann = family(&server, "ann@example.org").await;
    let profile = json(
        ann.get(server.url("/api/profile")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(
        profile["language"],
        Value::Null,
        "none chosen: the browser's"
    );
    let version = profile["version"].as_u64().unwrap();

    let resp = ann
        .patch(server.url("/api/profile"))
        .json(&json!({"language": "fr", "version": version}))
        .send()
        .await
        .unwrap();
    let saved = json(resp, 200).await;
    assert_eq!(saved["language"], "fr");
    assert_eq!(saved["firstName"], "Amira", "the names stay");
    // The session (which the UI reads first) carries it, and it outlives a restart.
    let session = json(
        ann.get(server.url("/api/auth/session"))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(session["user"]["language"], "fr");

    // Stale: 409 with the profile as it is; unknown: 400 on the field; signed out: 401.
    let stale = ann
        .patch(server.url("/api/profile"))
        .json(&json!({"language": "de", "version": version}))
        .send()
        .await
        .unwrap();
    let body = json(stale, 409).await;
    assert_eq!(body["current"]["language"], "fr");
    let version = saved["version"].as_u64().unwrap();
    let bad = ann
        .patch(server.url("/api/profile"))
        .json(&json!({"language": "it", "version": version}))
        .send()
        .await
        .unwrap();
    let body = json(bad, 400).await;
    assert_eq!(body["field"], "language");
    assert_eq!(
        body["message"],
        "Please choose one of the languages: en, fr, de, es"
    );
    let resp = server
        .new_client()
        .patch(server.url("/api/profile"))
        .json(&json!({"language": "fr", "version": version}))
        .send()
        .await
        .unwrap();
    json(resp, 401).await;

    // The other parent of another family keeps theirs (none).
    let ben = family(&server, "ben@example.org").await;
    let theirs = json(
        ben.get(server.url("/api/profile")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(theirs["language"], Value::Null);

    let server = server.restart().await;
    let ann = crate::harness::sign_in(&server, "ann@example.org").await;
    let profile = json(
        ann.get(server.url("/api/profile")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(profile["language"], "fr");
    // Empty: back to the browser's.
    let resp = ann
        .patch(server.url("/api/profile"))
        .json(&json!({"language": "", "version": profile["version"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(json(resp, 200).await["language"], Value::Null);
}

#[tokio::test]
async fn the_configured_default_speaks_when_the_browser_asks_for_none_of_the_languages() {
    let server = TestServer::start_with(|s| s.server.language = highchair::i18n::Lang::De).await;
    let site = json(server.get("/api/site").await, 200).await;
    assert_eq!(site["defaultLanguage"], "de");
    let ann = family(&server, "ann@example.org").await;
    let none = refused_profile(&server, &ann, None).await;
    let italian = refused_profile(&server, &ann, Some("it")).await;
    let english = refused_profile(&server, &ann, Some("en-GB")).await;
    assert_eq!(none["title"], italian["title"]);
    assert_ne!(none["title"], "Update failed");
    assert_eq!(english["title"], "Update failed");
}

#[tokio::test]
async fn a_family_list_is_kept_per_language_with_its_own_etag() {
    let server = TestServer::start().await;
    let ann = family(&server, "ann@example.org").await;
    crate::harness::add_child(&server, &ann, "Leo").await;
    let get = |lang: &'static str| {
        ann.get(server.url("/api/grocery-lists"))
            .header("accept-language", lang)
            .send()
    };
    let en = get("en").await.unwrap();
    let fr = get("fr").await.unwrap();
    let (en_tag, fr_tag) = (en.headers()["etag"].clone(), fr.headers()["etag"].clone());
    assert_ne!(en_tag, fr_tag);
    assert!(
        fr.headers()["vary"]
            .to_str()
            .unwrap()
            .contains("Accept-Language"),
        "{:?}",
        fr.headers()
    );
    // Each language's ETag is a 304 in its own language only.
    let again = ann
        .get(server.url("/api/grocery-lists"))
        .header("accept-language", "fr")
        .header("if-none-match", fr_tag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    let other = ann
        .get(server.url("/api/grocery-lists"))
        .header("accept-language", "en")
        .header("if-none-match", fr_tag)
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);
}

#[tokio::test]
async fn the_ingredient_catalogue_names_its_foods_in_the_language_asked_for() {
    let server = TestServer::start().await;
    let client = reqwest::Client::new();
    let mut labels = Vec::new();
    for lang in ["en", "fr", "de", "es"] {
        let resp = client
            .get(server.url("/api/ingredients"))
            .header("accept-language", lang)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.headers()["vary"], "Accept-Language");
        let catalogue = json(resp, 200).await;
        let items = catalogue_items(&catalogue);
        let peanut = items
            .iter()
            .find(|i| i["name"] == "Peanut butter")
            .expect("the catalogue's English name stays the request's name");
        labels.push((
            catalogue["categories"][0]["label"]
                .as_str()
                .unwrap()
                .to_string(),
            peanut["label"].as_str().unwrap().to_string(),
        ));
        // Every food has a name to show.
        assert!(
            items
                .iter()
                .all(|i| !i["label"].as_str().unwrap().is_empty())
        );
    }
    assert_eq!(labels[0], ("Protein".into(), "Peanut butter".into()));
    assert_eq!(labels[1].1, "Beurre de cacahuète");
    assert_eq!(labels[2].1, "Erdnussbutter");
    assert_ne!(labels[3].1, "Peanut butter");
    assert_ne!(labels[1].0, "Protein");
}

/// A family whose child Noor is allergic to gluten.
async fn family_with_noor(server: &TestServer, email: &str) -> reqwest::Client {
    let parent = family(server, email).await;
    let resp = parent
        .post(server.url("/api/children"))
        .json(&json!({"name": "Noor", "allergies": ["gluten"]}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await;
    parent
}

/// A recipe job reads foods and words why it left one out in the language of the request
/// that queued it, though it runs later on its own: "Pan" is bread to a Spanish parent, not
/// a frying pan, so a child's gluten allergy keeps it out of every recipe.
#[tokio::test]
async fn a_recipe_job_reads_and_answers_in_the_language_it_was_asked_in() {
    let server = TestServer::start().await;
    let parent = family_with_noor(&server, "pan@example.com").await;
    let body =
        json!({"ingredients": ["Pan", "Eggs", "Courgette", "Chicken thighs"], "quantity": 2});
    let mut notes = Vec::new();
    for lang in ["es", "en"] {
        let id = crate::recipes::start_job_in(&server, &parent, lang, body.clone()).await;
        let job = crate::recipes::finished(&server, &parent, &id).await;
        assert_eq!(job["state"], "done", "{job}");
        notes.push((job["notes"].clone(), job["recipes"].to_string()));
    }
    let (spanish, recipes) = &notes[0];
    assert_eq!(
        spanish[0], "Pan: ingrediente quitado, Noor tiene alergia a gluten.",
        "{spanish}"
    );
    assert!(!recipes.contains("\"Pan\""), "{recipes}");
    // The same word from an English parent is a pan (their words, their reading).
    assert!(!notes[1].0.to_string().contains("Pan"), "{}", notes[1].0);

    // The picker's marks are worded for the reader, with the catalogue's names.
    let resp = parent
        .post(server.url("/api/ingredients/check"))
        .header("accept-language", "fr")
        .json(&json!({"dietaryRestrictions": ["vegetarian"]}))
        .send()
        .await
        .unwrap();
    let marked = json(resp, 200).await;
    let reason = |name: &str| left_out_reason(&marked, name);
    assert_eq!(
        reason("Chicken breast").as_deref(),
        Some("Blanc de poulet : ingrédient retiré, non compatible avec le régime végétarien.")
    );
    assert_eq!(
        reason("Plain flour").as_deref(),
        Some("Farine de blé : ingrédient retiré, Noor est allergique (gluten).")
    );
}

#[tokio::test]
async fn the_built_in_generator_writes_recipes_in_the_parents_language() {
    use chrono::Datelike;
    let server = TestServer::start().await;
    let parent = family(&server, "recettes@example.com").await;
    // A baby of 9 months: a carrot is named as prepared for her, in French.
    let today = chrono::Utc::now().date_naive();
    let total = today.year() * 12 + today.month0() as i32 - 9;
    let born = format!("{:04}-{:02}", total / 12, total % 12 + 1);
    let resp = parent
        .post(server.url("/api/children"))
        .json(&json!({"name": "Léa", "birthMonth": born, "allergies": ["lait"]}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await;
    let body = json!({
        "ingredients": ["Raisins", "Carotte", "Blanc de poulet", "Courgette", "Riz basmati"],
        "quantity": 5
    });
    let id = crate::recipes::start_job_in(&server, &parent, "fr", body).await;
    let job = crate::recipes::finished(&server, &parent, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["withheld"].as_array().map(Vec::len), Some(0), "{job}");
    let recipes = job["recipes"].as_array().unwrap();
    assert_eq!(recipes.len(), 5, "{job}");
    let all = job["recipes"].to_string();
    // French steps name the foods with their article; no English template is left.
    assert!(
        all.contains("la carotte") || all.contains("la courgette"),
        "{all}"
    );
    for english in ["Cut ", "Heat the", "Serve ", "A child-friendly", " the "] {
        assert!(!all.contains(english), "{english:?} in {all}");
    }
    let names: Vec<&str> = recipes
        .iter()
        .flat_map(|r| r["ingredients"].as_array().unwrap())
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    assert!(names.iter().any(|n| n.starts_with("Carotte")), "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| !n.starts_with("Carrot") && !n.starts_with("Grapes")),
        "{names:?}"
    );
    // Prepared for Léa in French words, which the French reading takes as prepared: no
    // recipe was withheld for its own carrot.
    let carrot = names
        .iter()
        .find(|n| n.starts_with("Carotte"))
        .unwrap_or_else(|| panic!("no carrot in {names:?}"));
    assert!(carrot.starts_with("Carotte, "), "{carrot}");
}

/// A French, German or Spanish family writes its list in its language: the items get the
/// aisle and price that "Milk" and "Bananas" get in English, not Other at the flat estimate.
#[tokio::test]
async fn grocery_items_written_in_a_language_get_their_aisle_and_price() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let mut english = None;
    for (lang, names) in [
        ("en", ["Milk", "Bananas"]),
        ("fr", ["Lait", "Bananes"]),
        ("de", ["Milch", "Bananen"]),
        ("es", ["Leche", "Plátanos"]),
    ] {
        let items: Vec<Value> = names
            .iter()
            .map(|n| json!({"name": n, "quantity": "1"}))
            .collect();
        let resp = mum
            .post(server.url("/api/grocery-lists/estimate"))
            .header("accept-language", lang)
            .json(&json!({"items": items}))
            .send()
            .await
            .unwrap();
        let estimate = json(resp, 200).await;
        let categories: Vec<String> = estimate["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["suggestedCategory"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(categories, ["Dairy", "Produce"], "{lang}: {estimate}");
        let priced = estimate["pricedItems"].clone();
        assert_eq!(
            priced,
            *english.get_or_insert(priced.clone()),
            "{lang}: {estimate}"
        );
    }
    assert_eq!(english, Some(json!(1)));
}

/// An import is read in the parent's language, as their meals are: a Spanish family's "Pan"
/// is bread for a child allergic to gluten (in English it is a pan), and the warning is
/// worded in Spanish.
#[tokio::test]
async fn an_imported_recipe_is_read_in_the_language_it_was_asked_in() {
    let server = TestServer::start().await;
    let parent = family_with_noor(&server, "importa@example.com").await;
    // One word each, so that nothing but the reader's language says which language it is.
    let text = "Merienda\n\nIngredients\n- Pan\n- Tomate\n\nMethod\n1. Servir.";
    let mut warned = Vec::new();
    for lang in ["es", "en"] {
        let resp = parent
            .post(server.url("/api/recipes/import"))
            .header("accept-language", lang)
            .json(&json!({"text": text}))
            .send()
            .await
            .unwrap();
        let found = json(resp, 200).await;
        warned.push(found["recipes"][0]["allergyWarnings"].to_string());
    }
    assert!(warned[0].contains("gluten"), "{warned:?}");
    assert!(warned[0].contains("contiene"), "{}", warned[0]);
    assert!(!warned[1].contains("gluten"), "{}", warned[1]);
}
