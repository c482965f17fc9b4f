//! Co-parents, owner side: a parent invites (link + PIN shown once), lists, resets the PIN,
//! extends the link and removes; validation and auth texts; another family's co-parents are
//! not found; what a link answers (pending, unknown, expired).

use chrono::{DateTime, Duration, Utc};
use highchair::auth::pin;
use highchair::domain::co_parent::{CoParent, CoParentDraft, Pin};
use highchair::domain::email::Email;
use highchair::domain::ids::{FamilyId, UserId};
use serde_json::{Value, json};

use crate::events::Stream;
use crate::harness::{TestServer, error, family, json};

async fn invite(
    server: &TestServer,
    client: &reqwest::Client,
    name: &str,
    email: &str,
) -> reqwest::Response {
    client
        .post(server.url("/api/co-parents"))
        .json(&json!({"name": name, "email": email}))
        .send()
        .await
        .unwrap()
}

async fn list(server: &TestServer, client: &reqwest::Client) -> (Value, String) {
    let resp = client
        .get(server.url("/api/co-parents"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let text = resp.text().await.unwrap();
    (serde_json::from_str(&text).unwrap(), text)
}

async fn post(server: &TestServer, client: &reqwest::Client, path: &str) -> reqwest::Response {
    client.post(server.url(path)).send().await.unwrap()
}

fn time(v: &Value) -> DateTime<Utc> {
    v.as_str().unwrap().parse().unwrap()
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

fn assert_six_digits(pin: &str) {
    assert_eq!(pin.len(), 6, "{pin}");
    let n: u32 = pin.parse().expect("digits only");
    assert!((100_000..=999_999).contains(&n), "{pin}");
}

#[tokio::test]
async fn a_parent_invites_resets_the_pin_extends_and_removes_a_co_parent() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let mut feed = Stream::open(&server, &mum, None).await;

    let made = json(
        invite(&server, &mum, "  Siobhán Ní Bhriain ", "Nan@Example.org").await,
        201,
    )
    .await;
    let co = &made["coParent"];
    let id = co["id"].as_str().unwrap().to_string();
    assert_eq!(co["name"], "Siobhán Ní Bhriain");
    assert_eq!(co["email"], "nan@example.org");
    assert_eq!(co["state"], "pending");
    assert_eq!(co["pinSet"], true);
    assert_eq!(co["invitationSent"], true);
    assert_eq!(
        time(&co["expiresAt"]) - time(&co["createdAt"]),
        Duration::days(7)
    );
    // The link: the address the parent used, then a random UUID v4.
    let link = made["link"].as_str().unwrap().to_string();
    assert_eq!(co["link"], link.as_str());
    let token = link
        .strip_prefix(&server.url("/co-parent/accept/"))
        .unwrap_or_else(|| panic!("{link}"))
        .to_string();
    let parsed = uuid::Uuid::parse_str(&token).expect("a UUID token");
    assert_eq!(parsed.get_version_num(), 4, "random, never time-ordered");
    let first_pin = made["pin"].as_str().unwrap().to_string();
    assert_six_digits(&first_pin);

    // The change feed names the co-parent.
    let event = feed.change().await;
    assert_eq!(
        (event.data["kind"].as_str(), event.data["id"].as_str()),
        (Some("co_parent"), Some(id.as_str()))
    );

    // Only the PIN's hash is stored, at the spec's parameters.
    let family = family_of(&server, "mum@example.org").await;
    let stored = server
        .app
        .store()
        .co_parents
        .list(family)
        .await
        .unwrap()
        .remove(0);
    let hash = stored.pin_hash.clone().unwrap();
    assert!(
        hash.as_str().starts_with("pbkdf2-sha256$100000$"),
        "{hash:?}"
    );
    assert!(!hash.as_str().contains(&first_pin));
    assert!(pin::verify(&hash, &Pin::parse(&first_pin).unwrap()));
    assert_eq!(stored.token.to_string(), token);

    // The list never shows the PIN again.
    let (listed, text) = list(&server, &mum).await;
    let items = listed.as_array().unwrap();
    assert_eq!(items.len(), 1);
    let item = items[0].as_object().unwrap();
    let mut fields: Vec<&str> = item.keys().map(String::as_str).collect();
    fields.sort();
    assert_eq!(
        fields,
        [
            "accepted",
            "createdAt",
            "email",
            "expiresAt",
            "id",
            "invitationSent",
            "link",
            "name",
            "pinSet",
            "state"
        ]
    );
    assert!(!text.contains(&format!("\"{first_pin}\"")));
    assert_eq!(item["link"], link.as_str());

    // The link says who it is for.
    let shared = json(
        server
            .new_client()
            .get(server.url(&format!("/api/share/{token}")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(
        shared,
        json!({"name": "Siobhán Ní Bhriain", "state": "pending"})
    );

    // A new PIN replaces the old one and moves the session epoch on.
    let reset = json(
        post(&server, &mum, &format!("/api/co-parents/{id}/pin")).await,
        200,
    )
    .await;
    let second_pin = reset["pin"].as_str().unwrap().to_string();
    assert_six_digits(&second_pin);
    assert_ne!(second_pin, first_pin);
    assert_eq!(reset["coParent"]["pinSet"], true);
    assert!(reset["coParent"].get("pin").is_none());
    let stored = server
        .app
        .store()
        .co_parents
        .list(family)
        .await
        .unwrap()
        .remove(0);
    let hash = stored.pin_hash.clone().unwrap();
    assert!(pin::verify(&hash, &Pin::parse(&second_pin).unwrap()));
    assert!(!pin::verify(&hash, &Pin::parse(&first_pin).unwrap()));
    assert_eq!(stored.session_epoch, 1);
    let (_, text) = list(&server, &mum).await;
    assert!(!text.contains(&format!("\"{second_pin}\"")));
    assert_eq!(
        feed.change().await.data["kind"],
        "co_parent",
        "the reset is announced"
    );

    // Extending adds 7 days to an expiry still ahead.
    let before = time(&item["expiresAt"]);
    let extended = json(
        post(&server, &mum, &format!("/api/co-parents/{id}/extend")).await,
        200,
    )
    .await;
    assert_eq!(time(&extended["expiresAt"]), before + Duration::days(7));
    assert_eq!(extended["state"], "pending");
    assert!(extended.get("pin").is_none());

    // Removing ends the link.
    let removed = mum
        .delete(server.url(&format!("/api/co-parents/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), 204);
    assert_eq!(list(&server, &mum).await.0, json!([]));
    let (title, message, _) = error(server.get(&format!("/api/share/{token}")).await, 404).await;
    assert_eq!(
        (title.as_str(), message.as_str()),
        ("Invalid invitation", "Invalid or expired invitation")
    );
    assert!(
        server
            .app
            .store()
            .co_parents
            .by_token(&stored.token)
            .await
            .unwrap()
            .is_none()
    );
    // The token was never logged (request paths under /api/share are redacted).
    assert!(!crate::harness::logs().contains(&token));
    for again in [
        mum.delete(server.url(&format!("/api/co-parents/{id}")))
            .send()
            .await
            .unwrap(),
        post(&server, &mum, &format!("/api/co-parents/{id}/pin")).await,
        post(&server, &mum, &format!("/api/co-parents/{id}/extend")).await,
    ] {
        assert_eq!(again.status(), 404);
    }
}

#[tokio::test]
async fn the_link_uses_the_public_url_when_one_is_set() {
    let server =
        TestServer::start_with(|s| s.server.public_url = "https://meals.example.org".into()).await;
    let mum = family(&server, "mum@example.org").await;
    let made = json(invite(&server, &mum, "Nan", "nan@example.org").await, 201).await;
    let link = made["link"].as_str().unwrap();
    assert!(
        link.starts_with("https://meals.example.org/co-parent/accept/"),
        "{link}"
    );
}

#[tokio::test]
async fn names_and_emails_are_checked_with_the_spec_texts() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;

    for (n, name) in [
        "Zoë",
        "Siobhán",
        "Dvořák",
        "Mary-Jane O'Neil",
        "<b>Rosa</b>",
    ]
    .iter()
    .enumerate()
    {
        let made = json(
            invite(&server, &mum, name, &format!("p{n}@example.org")).await,
            201,
        )
        .await;
        assert_eq!(
            made["coParent"]["name"],
            name.replace("<b>", "").replace("</b>", "")
        );
    }

    let invalid_name = (
        "Invalid name",
        "Please enter a valid name (letters, spaces, hyphens, and apostrophes only)",
    );
    let long = "a".repeat(101);
    let cases: Vec<(Value, &str, &str, &str)> = vec![
        (
            json!({"name": "Nana 2", "email": "x@example.org"}),
            invalid_name.0,
            invalid_name.1,
            "name",
        ),
        (
            json!({"name": "<script>alert(1)</script>", "email": "x@example.org"}),
            invalid_name.0,
            invalid_name.1,
            "name",
        ),
        (
            json!({"name": "<img src=x onerror=alert(1)>", "email": "x@example.org"}),
            invalid_name.0,
            invalid_name.1,
            "name",
        ),
        (
            json!({"name": "Grandpa 👴", "email": "x@example.org"}),
            invalid_name.0,
            invalid_name.1,
            "name",
        ),
        (
            json!({"name": long, "email": "x@example.org"}),
            "Invalid name",
            "Name must be 100 characters or less",
            "name",
        ),
        (
            json!({"name": "Nan", "email": "not an email"}),
            "Invalid email",
            "Please enter a valid email address",
            "email",
        ),
        (
            json!({"name": "Nan", "email": "nan@localhost"}),
            "Invalid email",
            "Please enter a valid email address",
            "email",
        ),
        (
            json!({"name": "Nan", "email": format!("{}@example.org", "a".repeat(250))}),
            "Invalid email",
            "Email must be 254 characters or less",
            "email",
        ),
        (
            json!({"name": "  ", "email": "x@example.org"}),
            "Missing information",
            "Please provide both name and email",
            "name",
        ),
        (
            json!({"name": "Nan"}),
            "Missing information",
            "Please provide both name and email",
            "email",
        ),
    ];
    for (body, title, message, field) in cases {
        let resp = mum
            .post(server.url("/api/co-parents"))
            .json(&body)
            .send()
            .await
            .unwrap();
        let (t, m, f) = error(resp, 400).await;
        assert_eq!(
            (t.as_str(), m.as_str(), f.as_deref()),
            (title, message, Some(field)),
            "{body}"
        );
    }

    // One invitation per address (a second would be a second link and PIN for one person).
    let (title, message, _) =
        error(invite(&server, &mum, "Zoë", "P0@example.org").await, 409).await;
    assert_eq!(title, "Error inviting co-parent");
    assert!(message.contains("already invited"), "{message}");
    assert_eq!(list(&server, &mum).await.0.as_array().unwrap().len(), 5);

    // A guest cannot invite.
    let guest = server.new_client();
    json(
        guest
            .post(server.url("/api/auth/guest"))
            .json(&json!({"firstName": "Gus", "children": 1}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let (title, message, _) =
        error(invite(&server, &guest, "Nan", "nan@example.org").await, 403).await;
    assert_eq!(title, "Error inviting co-parent");
    assert!(
        message.starts_with("Guests cannot invite co-parents"),
        "{message}"
    );
    assert_eq!(list(&server, &guest).await.0, json!([]));
}

#[tokio::test]
async fn owner_routes_need_a_signed_in_parent_with_the_spec_texts() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let made = json(invite(&server, &mum, "Nan", "nan@example.org").await, 201).await;
    let id = made["coParent"]["id"].as_str().unwrap();
    let anon = server.new_client();
    let requests = [
        (anon.get(server.url("/api/co-parents")), "manage co-parents"),
        (
            anon.post(server.url("/api/co-parents"))
                .json(&json!({"name": "Eve", "email": "eve@example.org"})),
            "invite co-parents",
        ),
        (
            anon.post(server.url(&format!("/api/co-parents/{id}/pin"))),
            "manage co-parents",
        ),
        (
            anon.post(server.url(&format!("/api/co-parents/{id}/extend"))),
            "manage co-parents",
        ),
        (
            anon.delete(server.url(&format!("/api/co-parents/{id}"))),
            "delete co-parents",
        ),
    ];
    for (request, action) in requests {
        let (title, message, _) = error(request.send().await.unwrap(), 401).await;
        assert_eq!(title, "Authentication required");
        assert_eq!(message, format!("You must be logged in to {action}"));
    }
    // A path that is not an id is no route at all, signed in or not (docs/decisions.md).
    let (title, _, _) = error(
        anon.delete(server.url("/api/co-parents/not-an-id"))
            .send()
            .await
            .unwrap(),
        404,
    )
    .await;
    assert_eq!(title, "Not found");
    assert_eq!(list(&server, &mum).await.0.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn another_familys_co_parent_is_not_found_everywhere() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let other = family(&server, "other@example.org").await;
    let made = json(invite(&server, &mum, "Nan", "nan@example.org").await, 201).await;
    let id = made["coParent"]["id"].as_str().unwrap().to_string();
    let random = uuid::Uuid::now_v7().to_string();

    assert_eq!(list(&server, &other).await.0, json!([]));
    for target in [id.as_str(), random.as_str(), "not-an-id"] {
        let answers = [
            post(&server, &other, &format!("/api/co-parents/{target}/pin")).await,
            post(&server, &other, &format!("/api/co-parents/{target}/extend")).await,
            other
                .delete(server.url(&format!("/api/co-parents/{target}")))
                .send()
                .await
                .unwrap(),
        ];
        for resp in answers {
            let (title, message, _) = error(resp, 404).await;
            assert_eq!(
                (title.as_str(), message.as_str()),
                (
                    "Not found",
                    "It may have been removed, or the link is wrong."
                )
            );
        }
    }
    // Untouched.
    let (listed, _) = list(&server, &mum).await;
    assert_eq!(listed[0]["expiresAt"], made["coParent"]["expiresAt"]);
    let stored = server
        .app
        .store()
        .co_parents
        .list(family_of(&server, "mum@example.org").await)
        .await
        .unwrap();
    assert_eq!((stored[0].version, stored[0].session_epoch), (1, 0));
}

#[tokio::test]
async fn a_link_answers_pending_unknown_and_expired_with_the_spec_texts() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let family = family_of(&server, "mum@example.org").await;

    // An unknown token, a malformed one and a record id all answer alike.
    let made = json(invite(&server, &mum, "Nan", "nan@example.org").await, 201).await;
    let co_parent_id = made["coParent"]["id"].as_str().unwrap().to_string();
    let mut bodies = Vec::new();
    for token in [
        uuid::Uuid::new_v4().to_string(),
        "not-a-token".to_string(),
        co_parent_id,
        family.to_string(),
    ] {
        let resp = server.get(&format!("/api/share/{token}")).await;
        assert_eq!(resp.status(), 404, "{token}");
        bodies.push(resp.text().await.unwrap());
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "{bodies:?}");
    let body: Value = serde_json::from_str(&bodies[0]).unwrap();
    assert_eq!(
        body,
        json!({"title": "Invalid invitation", "message": "Invalid or expired invitation",
            "code": "Invalid invitation", "field": null})
    );

    // A link whose week is over (written through the store, eight days back).
    let fields = CoParentDraft {
        name: "Old Friend".into(),
        email: "old@example.org".into(),
    }
    .validate()
    .unwrap();
    let old = CoParent::new(
        family,
        UserId::new(),
        fields,
        pin::hash(&Pin::parse("482913").unwrap()),
        Utc::now() - Duration::days(8),
    );
    server.app.store().co_parents.insert(&old).await.unwrap();
    let (title, message, _) =
        error(server.get(&format!("/api/share/{}", old.token)).await, 410).await;
    assert_eq!(title, "Invitation expired");
    assert_eq!(
        message,
        "This invitation has expired. Please ask for a new invitation."
    );
    let (listed, _) = list(&server, &mum).await;
    let entry = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == old.id.to_string())
        .unwrap()
        .clone();
    assert_eq!(entry["state"], "expired");

    // Extended, it works again, for 7 days from now.
    let before = Utc::now();
    let extended = json(
        post(&server, &mum, &format!("/api/co-parents/{}/extend", old.id)).await,
        200,
    )
    .await;
    assert_eq!(extended["state"], "pending");
    let expires = time(&extended["expiresAt"]);
    assert!(expires >= before + Duration::days(7) && expires <= Utc::now() + Duration::days(7));
    let shared = json(server.get(&format!("/api/share/{}", old.token)).await, 200).await;
    assert_eq!(shared, json!({"name": "Old Friend", "state": "pending"}));
}
