//! Co-parents, their side: a PIN chosen through the link, share sessions, what a session may
//! read and the one write it may make, and the limits on guessing (per link, per address, on
//! the whole server, over the link's lifetime) that survive a restart.

use std::time::Duration;

use chrono::Utc;
use highchair::domain::email::Email;
use highchair::domain::ids::FamilyId;
use reqwest::header::{COOKIE, ORIGIN};
use serde_json::json;

use crate::events::Stream;
use crate::harness::{
    TestServer, add_child, add_meal, choose_us_list, error, family, json, upload,
};

/// An invited co-parent as their parent hands them over.
struct Invite {
    id: String,
    token: String,
    pin: String,
}

async fn invite(server: &TestServer, parent: &reqwest::Client, email: &str) -> Invite {
    let made = json(
        parent
            .post(server.url("/api/co-parents"))
            .json(&json!({"name": "Grandma Zoë", "email": email}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let link = made["link"].as_str().unwrap();
    Invite {
        id: made["coParent"]["id"].as_str().unwrap().to_string(),
        token: link.rsplit('/').next().unwrap().to_string(),
        pin: made["pin"].as_str().unwrap().to_string(),
    }
}

fn share(token: &str, rest: &str) -> String {
    format!("/api/share/{token}{rest}")
}

async fn sign_in_with(
    server: &TestServer,
    client: &reqwest::Client,
    token: &str,
    pin: &str,
) -> reqwest::Response {
    client
        .post(server.url(&share(token, "/session")))
        .json(&json!({"pin": pin}))
        .send()
        .await
        .unwrap()
}

/// The share cookie's value from a response that set it.
fn share_cookie(resp: &reqwest::Response) -> String {
    let header = resp.headers()["set-cookie"].to_str().unwrap();
    header
        .split(';')
        .next()
        .unwrap()
        .strip_prefix("highchair_share=")
        .unwrap()
        .to_string()
}

/// A wrong PIN for `pin`: same length, never equal.
fn wrong(pin: &str, n: u32) -> String {
    let right: u32 = pin.parse().unwrap();
    let guess = 100_000 + (right - 100_000 + 1 + n % 899_000) % 900_000;
    assert_ne!(guess, right);
    guess.to_string()
}

async fn family_of(server: &TestServer, email: &str) -> FamilyId {
    server
        .app
        .store()
        .users
        .get_by_email(&Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap()
        .family_id
}

/// Ada's lunch of peas, with a photo; returns Ada's id and the photo's upload answer.
async fn lunch_with_a_photo(
    server: &TestServer,
    mum: &reqwest::Client,
) -> (String, serde_json::Value) {
    let child = add_child(server, mum, "Ada").await;
    let photo = json(
        upload(
            server,
            mum,
            "/api/media",
            highchair::media::fixtures::two_colour_jpeg(64, 48),
            "tea.jpg",
        )
        .await,
        201,
    )
    .await;
    add_meal(
        server,
        mum,
        json!({"childId": child, "mealType": "lunch", "foods": ["Peas"], "photo": photo["id"]}),
    )
    .await;
    (child, photo)
}

#[tokio::test]
async fn a_co_parent_chooses_a_pin_reads_the_family_and_ticks_an_item() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let (child, _) = lunch_with_a_photo(&server, &mum).await;
    let list = json(
        mum.post(server.url("/api/grocery-lists"))
            .json(&json!({"name": "Shop", "items": [{"name": "Milk"}, {"name": "Bread"}]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    let phone = server.new_client();

    // Before a PIN, nothing of the family is open.
    let (title, message, _) = error(
        phone
            .get(server.url(&share(&nan.token, "/children")))
            .send()
            .await
            .unwrap(),
        401,
    )
    .await;
    assert_eq!(
        (title.as_str(), message.as_str()),
        (
            "Session expired",
            "Your session has expired. Please enter your PIN again."
        )
    );

    let choose = |pin: &str, confirm: &str| {
        phone
            .post(server.url(&share(&nan.token, "/pin")))
            .json(&json!({"pin": pin, "confirmPin": confirm}))
            .send()
    };
    // The link alone opens nothing, not even choosing a PIN (issue 26: anyone holding only the
    // link of a Pending invitation could choose a PIN and get in).
    let (title, _, _) = error(choose("482913", "482913").await.unwrap(), 401).await;
    assert_eq!(title, "Session expired");
    assert_eq!(
        json(server.get(&share(&nan.token, "")).await, 200).await["state"],
        "pending"
    );
    // The PIN the parent shared opens it; then the co-parent may choose their own, with the
    // strength rules and texts of spec section 5.
    let first = sign_in_with(&server, &phone, &nan.token, &nan.pin).await;
    assert_eq!(first.status(), 200);
    let shared_session = share_cookie(&first);
    for (pin, confirm, message) in [
        ("1234", "1234", "PIN must be at least 6 characters long"),
        ("12a456", "12a456", "PIN must contain only numbers"),
        ("777777", "777777", "PIN cannot be all the same digit"),
        ("123456", "123456", "PIN cannot be a sequential pattern"),
        ("482913", "482914", "PINs do not match"),
    ] {
        let (title, got, _) = error(choose(pin, confirm).await.unwrap(), 400).await;
        assert_eq!(got, message, "{pin}/{confirm}");
        if message != "PINs do not match" {
            assert_eq!(title, "Weak PIN");
        }
    }
    let opened = choose("482913", "482913").await.unwrap();
    assert_eq!(opened.status(), 201);
    let cookie = opened.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.contains(&format!("Path=/api/share/{}", nan.token))
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Strict")
            && cookie.contains("Max-Age=86400"),
        "{cookie}"
    );
    let opened = json(opened, 201).await;
    assert_eq!(opened["name"], "Grandma Zoë");
    assert_eq!(opened["state"], "active");
    // The session opened with the shared PIN has ended; this browser has a new one.
    let ended = server
        .new_client()
        .get(server.url(&share(&nan.token, "/session")))
        .header(COOKIE, format!("highchair_share={shared_session}"))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 401);
    let shown = json(server.get(&share(&nan.token, "")).await, 200).await;
    assert_eq!(shown["state"], "active");
    // The owner sees Active, and the shared PIN no longer opens anything.
    let owner = json(
        mum.get(server.url("/api/co-parents")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(owner[0]["state"], "active");
    let other_phone = server.new_client();
    assert_eq!(
        sign_in_with(&server, &other_phone, &nan.token, &nan.pin)
            .await
            .status(),
        401
    );

    // The family, read only.
    let session = json(
        phone
            .get(server.url(&share(&nan.token, "/session")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(session["name"], "Grandma Zoë");
    let children = json(
        phone
            .get(server.url(&share(&nan.token, "/children")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(children[0]["name"], "Ada");
    let meals = json(
        phone
            .get(server.url(&share(&nan.token, &format!("/meals?childId={child}"))))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let meal = &meals["items"][0];
    assert_eq!(meal["foods"], json!(["Peas"]));
    let thumb = meal["thumbnailUrl"].as_str().unwrap();
    assert!(thumb.starts_with(&share(&nan.token, "/media/")), "{thumb}");
    let image = phone.get(server.url(thumb)).send().await.unwrap();
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/jpeg");
    assert!(!image.bytes().await.unwrap().is_empty());
    let plan = json(
        phone
            .get(server.url(&share(&nan.token, "/meal-plan?week=2026-W48")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(plan["week"], "2026-W48");

    // Live: the co-parent hears of meals and lists, not of recipes or co-parents.
    let mut feed = Stream::open_at(&server, &phone, &share(&nan.token, "/events"), None).await;
    json(
        mum.post(server.url("/api/recipes"))
            .json(&json!({"source": "own", "title": "Soup",
                "ingredients": [{"name": "Leeks", "quantity": "2"}], "instructions": ["Cook."]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    add_meal(
        &server,
        &mum,
        json!({"childId": child, "mealType": "dinner", "foods": ["Rice"]}),
    )
    .await;
    assert_eq!(
        feed.change().await.data["kind"],
        "meal",
        "the recipe is not announced"
    );
    // The family's allergen list is: the co-parent's allergen pages follow it.
    choose_us_list(&server, &mum).await;
    assert_eq!(feed.change().await.data["kind"], "family_settings");

    // The one write: a tick, which the parent sees.
    let milk = list["items"][0]["id"].as_str().unwrap();
    let list_id = list["id"].as_str().unwrap();
    let lists = json(
        phone
            .get(server.url(&share(&nan.token, "/grocery-lists")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(lists[0]["name"], "Shop");
    let ticked = json(
        phone
            .patch(server.url(&share(
                &nan.token,
                &format!("/grocery-lists/{list_id}/items/{milk}"),
            )))
            .json(&json!({"checked": true}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(ticked["applied"], true);
    assert_eq!(feed.change().await.data["kind"], "grocery_list");
    let seen = json(
        mum.get(server.url(&format!("/api/grocery-lists/{list_id}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(seen["items"][0]["checked"], true);

    // Logout ends the session on the server, and its stream.
    let out = phone
        .delete(server.url(&share(&nan.token, "/session")))
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 204);
    assert!(
        out.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    assert_eq!(server.app.store().share_sessions.len().await.unwrap(), 0);
    assert!(
        feed.ends(Duration::from_secs(3)).await,
        "the stream ends with the session"
    );
    assert_eq!(
        phone
            .get(server.url(&share(&nan.token, "/children")))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    // ...and the PIN chosen opens a new one.
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, "482913")
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn a_share_session_reaches_only_its_own_link_and_family_and_writes_only_ticks() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let other = family(&server, "other@example.org").await;
    let their_child = add_child(&server, &other, "Theo").await;
    let their_list = json(
        other
            .post(server.url("/api/grocery-lists"))
            .json(&json!({"name": "Theirs", "items": [{"name": "Tea"}]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let their_meal = add_meal(
        &server,
        &other,
        json!({"childId": their_child, "mealType": "lunch", "foods": ["Toast"]}),
    )
    .await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    let theirs = invite(&server, &other, "gran@example.org").await;
    let phone = server.new_client();
    let opened = sign_in_with(&server, &phone, &nan.token, &nan.pin).await;
    assert_eq!(opened.status(), 200);
    let cookie = format!("highchair_share={}", share_cookie(&opened));
    // A session with the generated PIN makes the link Active.
    assert_eq!(
        json(server.get(&share(&nan.token, "")).await, 200).await["state"],
        "active"
    );

    // Another family's records through this link: not found.
    let item = their_list["items"][0]["id"].as_str().unwrap();
    let tick = phone
        .patch(server.url(&share(
            &nan.token,
            &format!(
                "/grocery-lists/{}/items/{item}",
                their_list["id"].as_str().unwrap()
            ),
        )))
        .json(&json!({"checked": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(tick.status(), 404);
    let meals = phone
        .get(server.url(&share(&nan.token, &format!("/meals?childId={their_child}"))))
        .send()
        .await
        .unwrap();
    // Their child's meals are none of this family's: nothing comes back.
    if meals.status() == 200 {
        let page = json(meals, 200).await;
        assert_eq!(page["items"], json!([]), "{page}");
    } else {
        assert!(
            matches!(meals.status().as_u16(), 400 | 404),
            "{}",
            meals.status()
        );
    }
    let photo_of_theirs = format!("/media/{}", their_meal["id"].as_str().unwrap());
    assert_eq!(
        phone
            .get(server.url(&share(&nan.token, &photo_of_theirs)))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    // The cookie sent by hand to another link, or to the owner routes, opens nothing.
    for path in [
        share(&theirs.token, "/children"),
        share(&theirs.token, "/grocery-lists"),
    ] {
        let resp = server
            .new_client()
            .get(server.url(&path))
            .header(COOKIE, &cookie)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 401, "{path}");
    }
    for (method, path) in [
        ("GET", "/api/children"),
        ("GET", "/api/meals"),
        ("GET", "/api/grocery-lists"),
        ("GET", "/api/co-parents"),
        ("POST", "/api/meals"),
        ("POST", "/api/co-parents"),
    ] {
        let resp = server
            .new_client()
            .request(method.parse().unwrap(), server.url(path))
            .header(COOKIE, &cookie)
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert!(
            matches!(resp.status().as_u16(), 401 | 404),
            "{method} {path}: {}",
            resp.status()
        );
    }
    let session = server
        .new_client()
        .get(server.url("/api/auth/session"))
        .header(COOKIE, &cookie)
        .send()
        .await
        .unwrap();
    let session = json(session, 200).await;
    assert!(
        session["user"].is_null(),
        "not signed in as anyone: {session}"
    );
    // Under the link, nothing but ticks writes.
    let child = add_child(&server, &mum, "Ada").await;
    let list = json(
        mum.post(server.url("/api/grocery-lists"))
            .json(&json!({"name": "Ours", "items": [{"name": "Milk"}]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let list_id = list["id"].as_str().unwrap();
    for (method, rest) in [
        ("PUT", format!("/grocery-lists/{list_id}")),
        ("DELETE", format!("/grocery-lists/{list_id}")),
        ("POST", "/grocery-lists".to_string()),
        ("POST", "/meals".to_string()),
        ("PUT", format!("/children/{child}")),
        ("DELETE", format!("/children/{child}")),
        ("POST", "/media".to_string()),
    ] {
        let resp = phone
            .request(
                method.parse().unwrap(),
                server.url(&share(&nan.token, &rest)),
            )
            .json(&json!({"name": "Hacked", "items": [], "version": 1}))
            .send()
            .await
            .unwrap();
        assert!(
            matches!(resp.status().as_u16(), 404 | 405),
            "{method} {rest}: {}",
            resp.status()
        );
    }
    let kept = json(
        mum.get(server.url(&format!("/api/grocery-lists/{list_id}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(kept["name"], "Ours");
    // An unattached upload of the family is not one of its meal photos.
    let loose = json(
        upload(
            &server,
            &mum,
            "/api/media",
            highchair::media::fixtures::two_colour_jpeg(16, 16),
            "loose.jpg",
        )
        .await,
        201,
    )
    .await;
    let resp = phone
        .get(server.url(&share(
            &nan.token,
            &format!("/media/{}", loose["id"].as_str().unwrap()),
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);

    // A link has one spelling: the same UUID written another way is no link (so it cannot
    // get a guessing window of its own).
    let uuid: uuid::Uuid = nan.token.parse().unwrap();
    for other in [
        uuid.simple().to_string(),
        uuid.urn().to_string(),
        format!("%7B{uuid}%7D"),
    ] {
        let resp = sign_in_with(&server, &server.new_client(), &other, &nan.pin).await;
        assert_eq!(resp.status(), 404, "{other}");
    }

    // A PIN from another site's page is refused before it is checked.
    let resp = server
        .new_client()
        .post(server.url(&share(&nan.token, "/session")))
        .header(ORIGIN, "https://evil.example")
        .json(&json!({"pin": nan.pin}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);
}

#[tokio::test]
async fn a_pin_reset_or_removal_ends_the_co_parents_sessions_at_once() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    let phone = server.new_client();
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &nan.pin)
            .await
            .status(),
        200
    );
    let mut feed = Stream::open_at(&server, &phone, &share(&nan.token, "/events"), None).await;

    let reset = json(
        mum.post(server.url(&format!("/api/co-parents/{}/pin", nan.id)))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let (_, message, _) = error(
        phone
            .get(server.url(&share(&nan.token, "/grocery-lists")))
            .send()
            .await
            .unwrap(),
        401,
    )
    .await;
    assert_eq!(
        message,
        "Your session has expired. Please enter your PIN again."
    );
    assert!(
        feed.ends(Duration::from_secs(3)).await,
        "the stream ends with the reset"
    );
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &nan.pin)
            .await
            .status(),
        401
    );
    let new_pin = reset["pin"].as_str().unwrap();
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, new_pin)
            .await
            .status(),
        200
    );
    assert_eq!(
        phone
            .get(server.url(&share(&nan.token, "/children")))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    let removed = mum
        .delete(server.url(&format!("/api/co-parents/{}", nan.id)))
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), 204);
    let (_, message, _) = error(
        phone
            .get(server.url(&share(&nan.token, "/children")))
            .send()
            .await
            .unwrap(),
        404,
    )
    .await;
    assert_eq!(message, "Invalid or expired invitation");
}

#[tokio::test]
async fn wrong_pins_lock_the_link_and_every_limit_holds_across_a_restart() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    let phone = server.new_client();

    // Three wrong PINs (a missing one counts), then the link waits.
    let (title, message, _) = error(
        sign_in_with(&server, &phone, &nan.token, &wrong(&nan.pin, 1)).await,
        401,
    )
    .await;
    assert_eq!(
        (title.as_str(), message.as_str()),
        ("Invalid PIN", "Invalid PIN. Please try again.")
    );
    let missing = phone
        .post(server.url(&share(&nan.token, "/session")))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 401);
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &wrong(&nan.pin, 2))
            .await
            .status(),
        401
    );
    let locked = sign_in_with(&server, &phone, &nan.token, &nan.pin).await;
    assert_eq!(locked.status(), 429, "even the right PIN waits");
    let retry: u64 = locked.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((200..=900).contains(&retry), "{retry}");
    let (title, message, _) = error(locked, 429).await;
    assert_eq!(title, "Too many attempts");
    assert!(message.starts_with("Please try again after "), "{message}");

    // A restart forgets nothing.
    let server = server.restart().await;
    let phone = server.new_client();
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &nan.pin)
            .await
            .status(),
        429
    );
    let family_id = family_of(&server, "mum@example.org").await;
    assert_eq!(
        server.app.store().co_parents.list(family_id).await.unwrap()[0].failures_total,
        3
    );

    // The owner resets the PIN: the window starts afresh. Near the lifetime cap, one more
    // wrong PIN locks the link until the next reset, whatever the window says.
    let mum = crate::harness::sign_in(&server, "mum@example.org").await;
    let reset = json(
        mum.post(server.url(&format!("/api/co-parents/{}/pin", nan.id)))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let pin = reset["pin"].as_str().unwrap().to_string();
    let id = nan.id.parse().unwrap();
    server
        .app
        .store()
        .co_parents
        .update(family_id, id, |c| {
            c.failures_total = highchair::domain::co_parent::LIFETIME_FAILURES_MAX - 1;
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &wrong(&pin, 3))
            .await
            .status(),
        401
    );
    let blocked = sign_in_with(&server, &phone, &nan.token, &pin).await;
    assert!(blocked.headers().contains_key("retry-after"));
    let (title, message, _) = error(blocked, 429).await;
    assert_eq!(title, "Access blocked");
    assert_eq!(
        message,
        "Too many failed attempts. Please ask the parent who invited you for a new PIN."
    );
    let owner = json(
        mum.get(server.url("/api/co-parents")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(owner[0]["state"], "locked");
    let server = server.restart().await;
    let phone = server.new_client();
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &pin)
            .await
            .status(),
        429
    );
    let mum = crate::harness::sign_in(&server, "mum@example.org").await;
    let reset = json(
        mum.post(server.url(&format!("/api/co-parents/{}/pin", nan.id)))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let pin = reset["pin"].as_str().unwrap();
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, pin)
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn a_thousand_guesses_over_tokens_and_addresses_check_only_the_designed_number() {
    // The families' own budgets are tested on their own (below): here, the addresses'.
    let server = TestServer::start_with(|s| {
        s.server.trusted_proxies = vec!["127.0.0.1".into()];
        s.limits.pin_attempts_per_family_per_hour = 1000;
    })
    .await;
    // 50 links over three families (20 co-parents at most each).
    let mut links = Vec::new();
    for f in 0..3 {
        let parent = family(&server, &format!("parent{f}@example.org")).await;
        for n in 0..17 {
            if links.len() < 50 {
                links.push(invite(&server, &parent, &format!("gran{f}-{n}@example.org")).await);
            }
        }
    }
    assert_eq!(links.len(), 50);
    let per_ip = server.app.settings().limits.pin_attempts_per_ip_per_hour;
    assert_eq!(per_ip, 20, "the default");
    let attacker = server.new_client();
    let guess = |link: &Invite, ip: String, n: u32| {
        attacker
            .post(server.url(&share(&link.token, "/session")))
            .header("x-forwarded-for", ip)
            .json(&json!({"pin": wrong(&link.pin, n)}))
            .send()
    };

    // 1,000 guesses at one link from one address: three are checked.
    let mut checked = 0;
    for n in 0..1_000 {
        match guess(&links[0], "203.0.113.1".into(), n)
            .await
            .unwrap()
            .status()
            .as_u16()
        {
            401 => checked += 1,
            429 => {}
            other => panic!("{other}"),
        }
    }
    assert_eq!(checked, 3);

    // 1,000 guesses spread over 50 links and 5 addresses: 20 per address are checked at most.
    let mut checked = 0;
    for n in 0..1_000u32 {
        let link = &links[(n % 50) as usize];
        let ip = format!("198.51.100.{}", n % 5 + 1);
        match guess(link, ip, n).await.unwrap().status().as_u16() {
            401 => checked += 1,
            429 => {}
            other => panic!("{other}"),
        }
    }
    assert!(checked <= 5 * per_ip, "{checked}");
    assert!(checked >= 5 * per_ip - 5, "{checked}");

    // The real co-parent of an untouched link still gets in, from their own address, and the
    // parents were never held up.
    let parent = crate::harness::sign_in(&server, "parent2@example.org").await;
    assert_eq!(
        parent
            .get(server.url("/api/meals"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    let last = links.last().unwrap();
    let fresh = server.new_client();
    let ok = fresh
        .post(server.url(&share(&last.token, "/session")))
        .header("x-forwarded-for", "192.0.2.77")
        .json(&json!({"pin": last.pin}))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);

    // After a restart the addresses are still held.
    let server = server.restart().await;
    let resp = server
        .new_client()
        .post(server.url(&share(&links[3].token, "/session")))
        .header("x-forwarded-for", "198.51.100.2")
        .json(&json!({"pin": links[3].pin}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 429);
    assert!(resp.headers().contains_key("retry-after"));
}

#[tokio::test]
async fn unknown_and_expired_links_count_and_answer_with_the_spec_texts() {
    // Seven PIN requests from this address, then it waits.
    let server = TestServer::start_with(|s| s.limits.pin_attempts_per_ip_per_hour = 7).await;
    let mum = family(&server, "mum@example.org").await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    let phone = server.new_client();
    let unknown = "3f0c2a5e-8b1d-4c7e-9a2b-6d5e4f3a2b1c";
    for token in [unknown, "not-a-token", unknown, "x"] {
        let (_, message, _) =
            error(sign_in_with(&server, &phone, token, "482913").await, 404).await;
        assert_eq!(message, "Invalid or expired invitation");
    }
    let (_, message, _) = error(
        phone
            .post(server.url(&share(unknown, "/pin")))
            .json(&json!({"pin": "482913", "confirmPin": "482913"}))
            .send()
            .await
            .unwrap(),
        404,
    )
    .await;
    assert_eq!(message, "Invalid or expired invitation");

    // An expired link takes no PIN and opens nothing.
    let family_id = family_of(&server, "mum@example.org").await;
    server
        .app
        .store()
        .co_parents
        .update(family_id, nan.id.parse().unwrap(), |c| {
            c.expires_at = Utc::now() - chrono::Duration::minutes(1);
            Ok(())
        })
        .await
        .unwrap();
    let (title, message, _) = error(
        sign_in_with(&server, &phone, &nan.token, &nan.pin).await,
        410,
    )
    .await;
    assert_eq!(title, "Invitation expired");
    assert_eq!(
        message,
        "This invitation has expired. Please ask for a new invitation."
    );
    let (_, message, _) = error(
        phone
            .post(server.url(&share(&nan.token, "/pin")))
            .json(&json!({"pin": "482913", "confirmPin": "482913"}))
            .send()
            .await
            .unwrap(),
        410,
    )
    .await;
    assert_eq!(
        message,
        "This invitation has expired. Please ask for a new invitation."
    );
    // Every one of those counted against this address: the next attempt waits, whatever the
    // link.
    let held = sign_in_with(&server, &phone, &nan.token, &nan.pin).await;
    assert_eq!(held.status(), 429);
    assert!(held.headers().contains_key("retry-after"));
}

#[tokio::test]
async fn racing_pins_and_guesses_lose_nothing() {
    // Every PIN request from this one address counts against its hourly limit.
    let server = TestServer::start_with(|s| s.limits.pin_attempts_per_ip_per_hour = 40).await;
    let mum = family(&server, "mum@example.org").await;
    let family_id = family_of(&server, "mum@example.org").await;
    for round in 0..3 {
        let link = invite(&server, &mum, &format!("nan{round}@example.org")).await;
        // Two phones signed in with the shared PIN choose their own at the same moment: one
        // wins, the other's session has ended with the PIN it was opened with.
        let (a, b) = (server.new_client(), server.new_client());
        for phone in [&a, &b] {
            let opened = sign_in_with(&server, phone, &link.token, &link.pin).await;
            assert_eq!(opened.status(), 200, "round {round}");
        }
        let body = |pin: &str| json!({"pin": pin, "confirmPin": pin});
        let (ra, rb) = tokio::join!(
            a.post(server.url(&share(&link.token, "/pin")))
                .json(&body("482913"))
                .send(),
            b.post(server.url(&share(&link.token, "/pin")))
                .json(&body("592817"))
                .send(),
        );
        let mut statuses = [ra.unwrap().status().as_u16(), rb.unwrap().status().as_u16()];
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 401], "round {round}");
        // Three wrong PINs at once are all counted.
        let (x, y, z) = (
            server.new_client(),
            server.new_client(),
            server.new_client(),
        );
        let (r1, r2, r3) = tokio::join!(
            sign_in_with(&server, &x, &link.token, "100001"),
            sign_in_with(&server, &y, &link.token, "100002"),
            sign_in_with(&server, &z, &link.token, "100003"),
        );
        assert_eq!([r1.status(), r2.status(), r3.status()], [401, 401, 401]);
        let stored = server
            .app
            .store()
            .co_parents
            .get(family_id, link.id.parse().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(stored.failures_total, 3, "round {round}");
    }
}

#[tokio::test]
async fn a_spent_server_budget_costs_the_real_co_parent_nothing_of_their_own() {
    let server = TestServer::start_with(|s| s.limits.pin_attempts_per_hour = 2).await;
    let mum = family(&server, "mum@example.org").await;
    let family_id = family_of(&server, "mum@example.org").await;
    let (a, b, nan) = (
        invite(&server, &mum, "a@example.org").await,
        invite(&server, &mum, "b@example.org").await,
        invite(&server, &mum, "nan@example.org").await,
    );
    let attacker = server.new_client();
    for link in [&a, &b] {
        assert_eq!(
            sign_in_with(&server, &attacker, &link.token, &wrong(&link.pin, 1))
                .await
                .status(),
            401
        );
    }
    // The budget is spent: the real co-parent waits, but no failure is counted on their link
    // (their tries still use up its 15-minute window, as any try does).
    let phone = server.new_client();
    for _ in 0..3 {
        let (title, _, _) = error(
            sign_in_with(&server, &phone, &nan.token, &nan.pin).await,
            429,
        )
        .await;
        assert_eq!(title, "Too many attempts");
    }
    let stored = server
        .app
        .store()
        .co_parents
        .get(family_id, nan.id.parse().unwrap())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        stored.failures_total, 0,
        "no failure on their link's record"
    );
    assert_eq!(stored.last_failure_at, None, "so no backoff either");
}

/// Issue 26: a co-parent fetched the parent's avatar through the share media route. It serves
/// only the photos of the family's meals.
#[tokio::test]
async fn share_media_serves_meal_photos_and_never_a_parents_avatar() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let (_, photo) = lunch_with_a_photo(&server, &mum).await;
    let profile = json(
        upload(
            &server,
            &mum,
            "/api/profile/avatar",
            highchair::media::fixtures::two_colour_jpeg(64, 64),
            "me.jpg",
        )
        .await,
        200,
    )
    .await;
    let avatar_url = profile["avatarUrl"].as_str().unwrap();
    let avatar = avatar_url
        .trim_start_matches("/api/media/")
        .split('?')
        .next()
        .unwrap()
        .to_string();
    let nan = invite(&server, &mum, "nan@example.org").await;
    let phone = server.new_client();
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &nan.pin)
            .await
            .status(),
        200
    );
    let get = |id: String| {
        phone
            .get(server.url(&share(&nan.token, &format!("/media/{id}"))))
            .send()
    };
    assert_eq!(
        get(photo["id"].as_str().unwrap().to_string())
            .await
            .unwrap()
            .status(),
        200
    );
    assert_eq!(get(avatar.clone()).await.unwrap().status(), 404);
    // The parent still sees their own avatar.
    let own = mum.get(server.url(avatar_url)).send().await.unwrap();
    assert_eq!(own.status(), 200);
}

/// Issue 26: a family's own link, its right PIN and a few addresses spent the server's whole
/// PIN budget in a second and a half, and every other family's co-parent then got 429 for the
/// hour. A family spends its own budget; right PINs spend nothing of the server's.
#[tokio::test]
async fn a_familys_own_links_cannot_lock_out_other_families_co_parents() {
    let server = TestServer::start_with(|s| {
        s.server.trusted_proxies = vec!["127.0.0.1".into()];
        s.limits.pin_attempts_per_hour = 4;
        s.limits.pin_attempts_per_family_per_hour = 6;
    })
    .await;
    let mallory = family(&server, "mallory@example.org").await;
    let own = invite(&server, &mallory, "own@example.org").await;
    let mut refused = 0;
    for i in 0..20 {
        let resp = server
            .new_client()
            .post(server.url(&share(&own.token, "/session")))
            .header("x-forwarded-for", format!("198.51.100.{}", i % 6))
            .json(&json!({"pin": own.pin}))
            .send()
            .await
            .unwrap();
        match resp.status().as_u16() {
            200 => {}
            429 => refused += 1,
            other => panic!("sign-in {i}: {other}"),
        }
    }
    assert_eq!(refused, 14, "the family's own budget of 6, and no more");
    // Another family's co-parent signs in, again and again: right PINs spend nothing of the
    // server's budget (4 here), only their own family's.
    let mum = family(&server, "mum@example.org").await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    for i in 0..6 {
        let resp = server
            .new_client()
            .post(server.url(&share(&nan.token, "/session")))
            .header("x-forwarded-for", "203.0.113.50")
            .json(&json!({"pin": nan.pin}))
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), 200, "sign-in {i}");
    }
}

/// Issue 26: Reset PIN had no limit (1,263 resets, each a PBKDF2 hash, in 15 s from one
/// account). A family makes at most 20 new PINs an hour, invites included.
#[tokio::test]
async fn new_pins_are_limited_per_family() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    let reset = || {
        mum.post(server.url(&format!("/api/co-parents/{}/pin", nan.id)))
            .send()
    };
    for i in 1..20 {
        assert_eq!(reset().await.unwrap().status(), 200, "reset {i}");
    }
    let held = reset().await.unwrap();
    assert_eq!(held.status(), 429);
    assert!(held.headers().contains_key("retry-after"));
    let resp = mum
        .post(server.url("/api/co-parents"))
        .json(&json!({"name": "Grandpa Joe", "email": "joe@example.org"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 429, "invites make PINs too");
    // Another family is not held.
    let dad = family(&server, "dad@example.org").await;
    invite(&server, &dad, "gran@example.org").await;
}

#[tokio::test]
async fn a_co_parent_reads_a_childs_allergen_introduction_as_the_parents_do() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let (child, _) = lunch_with_a_photo(&server, &mum).await;
    let nan = invite(&server, &mum, "nan@example.org").await;
    let phone = server.new_client();
    let path = share(&nan.token, &format!("/children/{child}/allergens"));

    // The link alone opens nothing.
    error(phone.get(server.url(&path)).send().await.unwrap(), 401).await;
    assert_eq!(
        sign_in_with(&server, &phone, &nan.token, &nan.pin)
            .await
            .status(),
        200
    );
    let parents = json(
        mum.get(server.url(&format!("/api/children/{child}/allergens")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let shared = json(phone.get(server.url(&path)).send().await.unwrap(), 200).await;
    assert_eq!(shared, parents, "the co-parent sees what the parents see");
    assert_eq!(shared["allergens"].as_array().unwrap().len(), 14);

    // The family's list is the co-parent's too.
    choose_us_list(&server, &mum).await;
    let shared = json(phone.get(server.url(&path)).send().await.unwrap(), 200).await;
    assert_eq!(shared["region"], "us9");
    assert_eq!(shared["allergens"].as_array().unwrap().len(), 9);

    // Another family's child is not found through this link.
    let other = family(&server, "other@example.org").await;
    let (theirs, _) = lunch_with_a_photo(&server, &other).await;
    error(
        phone
            .get(server.url(&share(&nan.token, &format!("/children/{theirs}/allergens"))))
            .send()
            .await
            .unwrap(),
        404,
    )
    .await;
}
