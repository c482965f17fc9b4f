//! Recipes over HTTP: the catalogue, generation jobs with the built-in generator and against a
//! fake Ollama server in every mode, job ownership, queueing, limits, saved recipes.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::fake_ollama::FakeOllama;
use crate::harness::{
    TestServer, add_child, catalogue_items, error, family, json, left_out_reason,
};
use highchair::config::GeneratorKind;

/// Starts a generation and returns the job id.
pub async fn start_job(server: &TestServer, client: &reqwest::Client, body: Value) -> String {
    started(client.post(server.url("/api/recipes/generate")).json(&body)).await
}

/// Starts a generation asked in `lang` (`Accept-Language`) and returns the job id.
pub async fn start_job_in(
    server: &TestServer,
    client: &reqwest::Client,
    lang: &str,
    body: Value,
) -> String {
    let request = client
        .post(server.url("/api/recipes/generate"))
        .header("accept-language", lang)
        .json(&body);
    started(request).await
}

async fn started(request: reqwest::RequestBuilder) -> String {
    let resp = request.send().await.unwrap();
    json(resp, 202).await["jobId"].as_str().unwrap().to_string()
}

/// Polls a job until it is done or failed.
pub async fn finished(server: &TestServer, client: &reqwest::Client, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let resp = client
            .get(server.url(&format!("/api/recipes/jobs/{id}")))
            .send()
            .await
            .unwrap();
        let job = json(resp, 200).await;
        if job["state"] == "done" || job["state"] == "failed" {
            return job;
        }
        assert!(Instant::now() < deadline, "job did not finish: {job}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Reads a job's event stream to its end: (event name, data) in order.
pub async fn events(
    server: &TestServer,
    client: &reqwest::Client,
    id: &str,
) -> Vec<(String, Value)> {
    let mut resp = client
        .get(server.url(&format!("/api/recipes/jobs/{id}/events")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while let Ok(Some(chunk)) = tokio::time::timeout_at(deadline.into(), resp.chunk())
        .await
        .expect("stream ended in time")
    {
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    text.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    name = Some(v.to_string());
                }
                if let Some(v) = line.strip_prefix("data: ") {
                    data = serde_json::from_str(v).ok();
                }
            }
            Some((name?, data?))
        })
        .collect()
}

fn titles(job: &Value) -> Vec<String> {
    job["recipes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["title"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_catalogue_lists_the_specs_categories_with_allergens_prices_and_nutrition() {
    let server = TestServer::start().await;
    let resp = server.get("/api/ingredients").await;
    assert!(
        resp.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("max-age")
    );
    let body = json(resp, 200).await;
    assert_eq!(body["currency"], "GBP");
    let cats: Vec<&str> = body["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        cats,
        [
            "Protein",
            "Dairy",
            "Vegetables",
            "Fruits",
            "Grains",
            "Pantry",
            "Nuts & Seeds"
        ]
    );
    let items = catalogue_items(&body);
    assert!(items.len() >= 150);
    let tahini = items.iter().find(|i| i["name"] == "Tahini").unwrap();
    assert_eq!(tahini["allergens"], json!(["sesame"]));
    assert_eq!(tahini["groceryCategory"], "Condiments & Spices");
    assert!(tahini["price"].as_f64().unwrap() > 0.0);
    assert!(tahini["nutrition"]["calories"].as_f64().unwrap() > 500.0);
}

#[tokio::test]
async fn a_visitor_generates_with_the_builtin_generator_and_only_they_see_the_job() {
    let server = TestServer::start().await;
    let visitor = server.new_client();
    let resp = visitor
        .post(server.url("/api/recipes/generate"))
        .json(
            &json!({"ingredients": ["Chicken breast", "Broccoli", "Carrot", "Basmati rice"],
                      "servings": 4, "difficulty": "moderate", "quantity": 4}),
        )
        .send()
        .await
        .unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.starts_with("highchair_jobs=") && cookie.contains("HttpOnly"));
    assert!(cookie.contains("Path=/api/recipes"));
    let id = json(resp, 202).await["jobId"].as_str().unwrap().to_string();
    // The same cookie is sent again with the next request: it lives as long as the newest job.
    let again = visitor
        .post(server.url("/api/recipes/generate"))
        .json(&json!({"ingredients": ["Peas"], "quantity": 1}))
        .send()
        .await
        .unwrap();
    let renewed = again.headers()["set-cookie"].to_str().unwrap().to_string();
    assert_eq!(
        renewed.split(';').next(),
        cookie.split(';').next(),
        "same value, new expiry"
    );
    let job = finished(&server, &visitor, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["progress"], 100);
    let recipes = job["recipes"].as_array().unwrap();
    assert_eq!(recipes.len(), 4);
    let mut unique = titles(&job);
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 4, "options differ");
    for r in recipes {
        assert_eq!(r["servings"], 4);
        assert_eq!(r["difficulty"], "moderate");
        assert!(r["estimatedCost"]["amount"].as_f64().unwrap() > 0.0);
        assert_eq!(r["estimatedCost"]["currency"], "GBP");
        assert!(r["nutritionalInfo"]["calories"].as_f64().unwrap() > 0.0);
        assert!(r["preparationTime"].as_u64().unwrap() > 0);
        assert!(!r["tips"].as_array().unwrap().is_empty());
        assert!(!r["substitutions"].as_array().unwrap().is_empty());
        let names: Vec<&str> = r["ingredients"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["name"].as_str().unwrap())
            .collect();
        assert!(
            names
                .iter()
                .any(|n| ["Chicken breast", "Broccoli", "Carrot", "Basmati rice"].contains(n)),
            "{names:?}"
        );
    }
    // Another browser, or a parent, cannot see it.
    let stranger = server.new_client();
    let resp = stranger
        .get(server.url(&format!("/api/recipes/jobs/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
    let parent = family(&server, "snoop@example.com").await;
    let resp = parent
        .get(server.url(&format!("/api/recipes/jobs/{id}/events")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
    // The finished job's stream is one `done` event.
    let stream = events(&server, &visitor, &id).await;
    assert_eq!(stream.len(), 1);
    assert_eq!(stream[0].0, "done");
}

#[tokio::test]
async fn bad_requests_get_the_specs_texts() {
    let server = TestServer::start().await;
    let c = server.new_client();
    let post = async |body: Value| {
        c.post(server.url("/api/recipes/generate"))
            .json(&body)
            .send()
            .await
            .unwrap()
    };
    let (title, message, field) = error(post(json!({"ingredients": [" "]})).await, 400).await;
    assert_eq!(
        (title.as_str(), message.as_str()),
        (
            "No ingredients provided",
            "Please select at least one ingredient"
        )
    );
    assert_eq!(field.as_deref(), Some("ingredients"));
    let (_, _, field) = error(
        post(json!({"ingredients": ["Rice"], "servings": 7})).await,
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("servings"));
    let (_, _, field) = error(
        post(json!({"ingredients": ["Rice"], "quantity": 6})).await,
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("quantity"));
    let (_, message, _) = error(
        post(json!({"ingredients": ["Rice"], "allergies": ["x".repeat(1001)]})).await,
        400,
    )
    .await;
    assert_eq!(message, "Each allergy must be 1000 characters or less");
    let resp = post(json!({"ingredients": "Rice"})).await;
    assert_eq!(resp.status(), 400);
}

#[tokio::test]
async fn a_childs_allergy_is_honoured_without_being_asked() {
    let server = TestServer::start().await;
    let parent = family(&server, "milkfree@example.com").await;
    let resp = parent
        .post(server.url("/api/children"))
        .json(&json!({"name": "Noor", "allergies": ["Dairy"]}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await;
    let id = start_job(
        &server,
        &parent,
        json!({"ingredients": ["Cheddar cheese", "Penne", "Courgette", "Chicken thighs"], "quantity": 3}),
    )
    .await;
    let job = finished(&server, &parent, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    let text = job["recipes"].to_string().to_lowercase();
    assert!(
        !text.contains("cheddar") && !text.contains("cheese"),
        "{text}"
    );
    assert_eq!(
        job["notes"][0],
        "Cheddar cheese was left out: Noor is allergic to dairy."
    );
}

/// Issue 26: only Eggs for an egg-allergic child said "please add a protein ... Left out: Eggs
/// contains eggs". The picker marks what would be left out before anything is asked, and the
/// failure says plainly that it was left out for that child's allergy.
#[tokio::test]
async fn an_ingredient_left_out_for_a_childs_allergy_is_marked_and_said_plainly() {
    let server = TestServer::start().await;
    let parent = family(&server, "eggfree@example.com").await;
    let resp = parent
        .post(server.url("/api/children"))
        .json(&json!({"name": "Ava", "allergies": ["eggs"]}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await;
    let check = |client: reqwest::Client, body: Value| {
        let server = &server;
        async move {
            let resp = client
                .post(server.url("/api/ingredients/check"))
                .json(&body)
                .send()
                .await
                .unwrap();
            json(resp, 200).await
        }
    };
    let marked = check(parent.clone(), json!({})).await;
    let left_out = marked["leftOut"].as_array().unwrap();
    let eggs = left_out.iter().find(|l| l["name"] == "Eggs").expect("eggs");
    assert_eq!(
        eggs["reason"],
        "Eggs was left out: Ava is allergic to eggs."
    );
    assert!(
        left_out.iter().any(|l| l["name"] == "Mayonnaise"),
        "{marked}"
    );
    assert!(
        !left_out.iter().any(|l| l["name"] == "Aubergine"),
        "{marked}"
    );
    assert!(
        !left_out.iter().any(|l| l["name"] == "Honey"),
        "Ava has no age: {marked}"
    );
    // A baby in the family: what no preparation makes safe is marked, in the same words.
    let birth = chrono::Utc::now().date_naive() - chrono::Months::new(8);
    json(
        parent
            .post(server.url("/api/children"))
            .json(&json!({"name": "Leo", "birthMonth": birth.format("%Y-%m").to_string()}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let marked = check(parent.clone(), json!({})).await;
    let left_out = marked["leftOut"].as_array().unwrap();
    let honey = left_out
        .iter()
        .find(|l| l["name"] == "Honey")
        .expect("honey");
    assert_eq!(
        honey["reason"],
        "Honey was left out: for Leo (8 months), no honey before 12 months."
    );
    assert!(
        !left_out.iter().any(|l| l["name"] == "Grapes"),
        "grapes go in quartered: {marked}"
    );
    // The request's own allergies and restrictions count too.
    let marked = check(
        parent.clone(),
        json!({"allergies": ["sesame"], "dietaryRestrictions": ["vegetarian"]}),
    )
    .await;
    let reason = |name: &str| left_out_reason(&marked, name);
    assert_eq!(
        reason("Tahini").as_deref(),
        Some("Tahini was left out: you asked for recipes without sesame.")
    );
    assert_eq!(
        reason("Chicken breast").as_deref(),
        Some("Chicken breast was left out: it is not vegetarian.")
    );
    // A visitor has no children: nothing is marked without allergies.
    let visitor = reqwest::Client::new();
    let marked = check(visitor, json!({})).await;
    assert_eq!(marked["leftOut"], json!([]));

    let id = start_job(
        &server,
        &parent,
        json!({"ingredients": ["Eggs"], "quantity": 1}),
    )
    .await;
    let job = finished(&server, &parent, &id).await;
    assert_eq!(job["state"], "failed", "{job}");
    let message = job["error"]["message"].as_str().unwrap();
    assert_eq!(
        message,
        "No recipes were generated: every ingredient you chose was left out. Please choose others. Eggs was left out: Ava is allergic to eggs."
    );
}

#[tokio::test]
async fn saved_recipes_belong_to_the_family_and_a_recipe_logs_as_a_meal() {
    let server = TestServer::start().await;
    let parent = family(&server, "saver@example.com").await;
    let child = add_child(&server, &parent, "Idris").await; // allergic to peanuts
    // Saving needs an account.
    let resp = server
        .new_client()
        .post(server.url("/api/recipes"))
        .json(&json!({"title": "Toast"}))
        .send()
        .await
        .unwrap();
    let (title, message, _) = error(resp, 401).await;
    assert_eq!(
        (title.as_str(), message.as_str()),
        (
            "Authentication error",
            "You must be logged in to save recipes"
        )
    );
    // A family's own dish: title, ingredients and steps are required.
    let resp = parent
        .post(server.url("/api/recipes"))
        .json(&json!({"source": "own", "title": "Granny's satay", "ingredients": []}))
        .send()
        .await
        .unwrap();
    let (_, message, field) = error(resp, 400).await;
    assert_eq!(message, "Please add at least one ingredient");
    assert_eq!(field.as_deref(), Some("ingredients"));
    let resp = parent
        .post(server.url("/api/recipes"))
        .json(&json!({"source": "own", "title": "Granny's satay",
            "ingredients": [{"name": "Chicken thighs", "quantity": "400 g"}, {"name": "Peanut butter", "quantity": "2 tbsp"}],
            "instructions": ["Marinate.", "Grill."]}))
        .send()
        .await
        .unwrap();
    let own = json(resp, 201).await;
    assert_eq!(own["source"], "own");
    // Idris is allergic to peanuts: the family's own dish says so wherever it is shown.
    let warnings = own["allergyWarnings"].to_string();
    assert!(
        warnings.contains("Peanut butter contains peanuts"),
        "{warnings}"
    );
    assert_eq!(own["version"], 1);
    // A generated one, saved as shown.
    let id = start_job(
        &server,
        &parent,
        json!({"ingredients": ["Salmon fillet", "Peas"], "quantity": 1}),
    )
    .await;
    let job = finished(&server, &parent, &id).await;
    let mut generated = job["recipes"][0].clone();
    generated["source"] = json!("generated");
    let resp = parent
        .post(server.url("/api/recipes"))
        .json(&generated)
        .send()
        .await
        .unwrap();
    let saved = json(resp, 201).await;
    assert_eq!(saved["title"], generated["title"]);
    assert_eq!(saved["ingredients"], generated["ingredients"]);
    // Newest first; the other parent of the family sees them, another family does not.
    let list = json(
        parent.get(server.url("/api/recipes")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(list[0]["id"], saved["id"]);
    assert_eq!(list[1]["id"], own["id"]);
    let other = family(&server, "other@example.com").await;
    let list = json(
        other.get(server.url("/api/recipes")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(list, json!([]));
    let own_id = own["id"].as_str().unwrap();
    for resp in [
        other
            .get(server.url(&format!("/api/recipes/{own_id}")))
            .send()
            .await
            .unwrap(),
        other
            .delete(server.url(&format!("/api/recipes/{own_id}")))
            .send()
            .await
            .unwrap(),
        other
            .post(server.url(&format!("/api/recipes/{own_id}/log-meal")))
            .json(&json!({"childId": child, "mealType": "Dinner"}))
            .send()
            .await
            .unwrap(),
    ] {
        assert_eq!(resp.status(), 404);
    }
    // Logged as Idris's dinner: the peanut butter is an exposure.
    let resp = parent
        .post(server.url(&format!("/api/recipes/{own_id}/log-meal")))
        .json(&json!({"childId": child, "mealType": "Dinner"}))
        .send()
        .await
        .unwrap();
    let meal = json(resp, 201).await;
    assert_eq!(meal["foods"], json!(["Chicken thighs", "Peanut butter"]));
    assert_eq!(meal["mealType"], "Dinner");
    assert_eq!(meal["exposures"][0]["allergy"], "Peanuts");
    // Deleted: gone for the family.
    let resp = parent
        .delete(server.url(&format!("/api/recipes/{own_id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    let resp = parent
        .get(server.url(&format!("/api/recipes/{own_id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
}

#[tokio::test]
async fn anonymous_generation_is_limited_per_address() {
    let server = TestServer::start().await;
    let mut last = 0;
    for _ in 0..11 {
        // A new browser each time: the limit is on the address, not the cookie.
        let resp = server
            .new_client()
            .post(server.url("/api/recipes/generate"))
            .json(&json!({"ingredients": ["Rice", "Peas"], "quantity": 1}))
            .send()
            .await
            .unwrap();
        last = resp.status().as_u16();
        if last == 429 {
            assert!(resp.headers().contains_key("retry-after"));
            break;
        }
        assert_eq!(last, 202);
    }
    assert_eq!(last, 429, "the eleventh request in an hour is refused");
}

fn ollama(fake: &FakeOllama, model: &str) -> impl FnOnce(&mut highchair::Settings) {
    let url = fake.url.clone();
    let model = model.to_string();
    move |s| {
        s.recipes.generator = GeneratorKind::Ollama;
        s.recipes.ollama_url = url;
        s.recipes.ollama_model = model;
        s.recipes.timeout_secs = 2;
    }
}

#[tokio::test]
async fn ollama_good_answers_stream_progress_in_order() {
    let fake = FakeOllama::start().await;
    let server = TestServer::start_with(|s| {
        ollama(&fake, "slow")(s);
        s.recipes.timeout_secs = 30;
    })
    .await;
    let health = json(server.get("/api/health").await, 200).await;
    assert_eq!(health["generator"], "ollama");
    assert_eq!(health["generatorStatus"], "ok");
    let c = server.new_client();
    let id = start_job(
        &server,
        &c,
        json!({"ingredients": ["Chicken breast", "Rice"], "quantity": 3}),
    )
    .await;
    let stream = events(&server, &c, &id).await;
    let names: Vec<&str> = stream.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names.last(), Some(&"done"), "{names:?}");
    let generating: Vec<u64> = stream
        .iter()
        .filter(|(n, _)| n == "generating")
        .map(|(_, d)| d["progress"].as_u64().unwrap())
        .collect();
    assert!(
        generating.len() >= 3,
        "progress arrives as it streams: {names:?}"
    );
    assert!(
        generating.windows(2).all(|w| w[0] <= w[1]),
        "{generating:?}"
    );
    let done = &stream.last().unwrap().1;
    assert_eq!(done["recipes"].as_array().unwrap().len(), 3);
    // The model was asked for structured output with a JSON schema.
    let asked = fake.requests();
    let chat = asked.iter().find(|r| r.path == "/api/chat").unwrap();
    assert_eq!(chat.format.as_ref().unwrap()["type"], "object");
}

#[tokio::test]
async fn ollama_string_fields_are_normalised() {
    let fake = FakeOllama::start().await;
    let server = TestServer::start_with(ollama(&fake, "stringfields")).await;
    let c = server.new_client();
    let id = start_job(&server, &c, json!({"ingredients": ["Rice"], "quantity": 3})).await;
    let job = finished(&server, &c, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    let all: Vec<&Value> = job["recipes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["ingredients"].as_array().unwrap())
        .collect();
    assert!(all.len() > 6, "read from the JSON strings: {all:?}");
    assert!(
        all.iter()
            .any(|i| i["name"] == "Unknown" && i["quantity"] == "0")
    );
    let costs: Vec<&Value> = job["recipes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["estimatedCost"])
        .collect();
    assert!(
        costs
            .iter()
            .any(|c| c["amount"] == 3.5 && c["currency"] == "GBP")
    );
    assert!(costs.iter().any(|c| c["amount"] == 4.2));
}

#[tokio::test]
async fn ollama_failures_give_clear_errors() {
    let fake = FakeOllama::start().await;
    // Malformed JSON: the request fails with the spec's text.
    let server = TestServer::start_with(ollama(&fake, "malformed")).await;
    let c = server.new_client();
    let id = start_job(&server, &c, json!({"ingredients": ["Rice"]})).await;
    let job = finished(&server, &c, &id).await;
    assert_eq!(job["state"], "failed");
    assert_eq!(job["error"]["title"], "Error generating recipes");
    assert_eq!(
        job["error"]["message"],
        "We couldn't generate recipes with those ingredients. Please try again."
    );
    server.stop().await;

    // A model that hangs past the timeout (2 s here).
    let server = TestServer::start_with(ollama(&fake, "hang")).await;
    let c = server.new_client();
    let id = start_job(&server, &c, json!({"ingredients": ["Rice"]})).await;
    let job = finished(&server, &c, &id).await;
    assert_eq!(job["state"], "failed");
    assert!(
        job["error"]["message"]
            .as_str()
            .unwrap()
            .contains("within 2 seconds"),
        "{job}"
    );
    server.stop().await;

    // A model that is not installed: refused at once with 503, and health says so.
    let server = TestServer::start_with(ollama(&fake, "missing")).await;
    let health = json(server.get("/api/health").await, 200).await;
    assert_eq!(health["generatorStatus"], "unavailable");
    let resp = server
        .post_json("/api/recipes/generate", json!({"ingredients": ["Rice"]}))
        .await;
    let (title, message, _) = error(resp, 503).await;
    assert_eq!(title, "Error generating recipes");
    assert!(message.contains("missing is not installed"), "{message}");
    server.stop().await;

    // Nothing listening at the address.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let server = TestServer::start_with(|s| {
        s.recipes.generator = GeneratorKind::Ollama;
        s.recipes.ollama_url = format!("http://127.0.0.1:{port}");
    })
    .await;
    let resp = server
        .post_json("/api/recipes/generate", json!({"ingredients": ["Rice"]}))
        .await;
    let (_, message, _) = error(resp, 503).await;
    assert_eq!(
        message,
        "The recipe model cannot be reached right now. Please try again later."
    );
}

#[tokio::test]
async fn ollama_recipes_with_hidden_allergens_are_withheld_after_one_stricter_retry() {
    let fake = FakeOllama::start().await;
    let server = TestServer::start_with(ollama(&fake, "allergens")).await;
    let c = server.new_client();
    let id = start_job(
        &server,
        &c,
        json!({"ingredients": ["Chicken breast", "Rice"], "allergies": ["peanut", "milk"], "quantity": 3}),
    )
    .await;
    let job = finished(&server, &c, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    let text = job["recipes"].to_string().to_lowercase();
    for word in ["groundnut", "satay", "parmigiano"] {
        assert!(!text.contains(word), "{word} shown: {text}");
    }
    let withheld = job["withheld"].as_array().unwrap();
    assert!(!withheld.is_empty());
    assert!(
        withheld[0]["reasons"].to_string().contains("peanuts"),
        "{withheld:?}"
    );
    let chats: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path == "/api/chat")
        .collect();
    assert_eq!(chats.len(), 2, "asked once more");
    assert!(chats[1].prompt.contains("STRICT"));
}

#[tokio::test]
async fn jobs_queue_one_at_a_time_and_report_their_place() {
    let fake = FakeOllama::start().await;
    let server = TestServer::start_with(|s| {
        ollama(&fake, "slow")(s);
        s.recipes.timeout_secs = 30;
    })
    .await;
    let a = server.new_client();
    let b = server.new_client();
    let first = start_job(&server, &a, json!({"ingredients": ["Rice"], "quantity": 1})).await;
    let second = start_job(&server, &b, json!({"ingredients": ["Peas"], "quantity": 1})).await;
    let job = json(
        b.get(server.url(&format!("/api/recipes/jobs/{second}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(job["state"], "queued");
    assert_eq!(job["position"], 1, "one job ahead of it: the one running");
    let stream = events(&server, &b, &second).await;
    assert_eq!(stream[0].0, "queued");
    assert_eq!(stream.last().unwrap().0, "done");
    let first_job = finished(&server, &a, &first).await;
    assert_eq!(first_job["state"], "done");
    // The model never saw two requests at once: the second chat came after the first ended.
    let chats: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.path == "/api/chat")
        .collect();
    assert_eq!(chats.len(), 2);
}

#[tokio::test]
async fn a_job_running_when_the_server_stops_runs_again_after_the_restart() {
    let fake = FakeOllama::start().await;
    let server = TestServer::start_with(|s| {
        ollama(&fake, "hang")(s);
        s.recipes.timeout_secs = 60;
    })
    .await;
    let c = server.new_client();
    let id = start_job(
        &server,
        &c,
        json!({"ingredients": ["Rice", "Carrot"], "quantity": 2}),
    )
    .await;
    // Wait until it is running.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let job = json(
            c.get(server.url(&format!("/api/recipes/jobs/{id}")))
                .send()
                .await
                .unwrap(),
            200,
        )
        .await;
        if job["state"] == "generating" {
            break;
        }
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let dir = server.stop().await;
    // Back up with the built-in generator: the job is queued again and finishes.
    let server = TestServer::start_in(dir, |_| {}).await;
    let job = finished(&server, &c, &id).await;
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["recipes"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn both_parents_share_saved_recipes_live() {
    let server = TestServer::start().await;
    let (mum, dad, _) = crate::households::two_parents(&server).await;
    let mut feed = crate::events::Stream::open(&server, &dad, None).await;
    let resp = mum
        .post(server.url("/api/recipes"))
        .json(&json!({"source": "own", "title": "Fish pie Fridays",
            "ingredients": [{"name": "Cod fillet", "quantity": "400 g"}],
            "instructions": ["Bake for 30 minutes."]}))
        .send()
        .await
        .unwrap();
    let saved = json(resp, 201).await;
    let event = feed.change().await;
    assert_eq!(event.data["kind"], "recipe");
    assert_eq!(event.data["id"], saved["id"]);
    let list = json(
        dad.get(server.url("/api/recipes")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(list[0]["title"], "Fish pie Fridays");
    let id = saved["id"].as_str().unwrap();
    let resp = dad
        .delete(server.url(&format!("/api/recipes/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    assert_eq!(feed.change().await.data["kind"], "recipe");
    let list = json(
        mum.get(server.url("/api/recipes")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(list, json!([]));
}
