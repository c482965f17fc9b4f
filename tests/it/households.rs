//! Households: two parents share one family through a one-time invite link; members leave or
//! are removed; the family goes with its last member; stores of the previous release migrate.

use std::time::Duration;

use serde_json::{Value, json};

use crate::events::Stream;
use crate::harness::{
    TestServer, add_child, add_meal, choose_us_list, error, family, json, sign_in, signed_in_as,
    upload,
};

/// An invite link made by `client`; returns (invite id, the link's token).
async fn invite(server: &TestServer, client: &reqwest::Client) -> (String, String) {
    let made = json(
        client
            .post(server.url("/api/family/invites"))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let url = made["url"].as_str().unwrap();
    assert!(url.starts_with(&server.url("/join/")), "{url}");
    let token = url.rsplit('/').next().unwrap().to_string();
    let parsed = uuid::Uuid::parse_str(&token).expect("a UUID token");
    assert_eq!(parsed.get_version_num(), 4, "random, never time-ordered");
    (made["id"].as_str().unwrap().to_string(), token)
}

/// Someone without an account joins through the link; returns their signed-in client.
async fn join_as_new(server: &TestServer, token: &str, email: &str) -> reqwest::Client {
    let client = server.new_client();
    let body = json(
        client
            .post(server.url(&format!("/api/family/join/{token}")))
            .json(&json!({
                "firstName": "Ben", "lastName": "Okafor", "email": email,
                "password": "correct horse", "role": "dad", "acceptTerms": true
            }))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    assert_eq!(body["user"]["email"], email);
    client
}

/// Eve, with no account, tries the link; returns the status.
async fn eve_joins(server: &TestServer, token: &str) -> u16 {
    server
        .new_client()
        .post(server.url(&format!("/api/family/join/{token}")))
        .json(
            &json!({"firstName": "Eve", "lastName": "X", "email": "eve@example.org",
                      "password": "correct horse", "acceptTerms": true}),
        )
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

async fn get_family(server: &TestServer, client: &reqwest::Client) -> Value {
    json(
        client.get(server.url("/api/family")).send().await.unwrap(),
        200,
    )
    .await
}

async fn children_names(server: &TestServer, client: &reqwest::Client) -> Vec<String> {
    let list = json(
        client
            .get(server.url("/api/children"))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect()
}

/// Mum and Dad in one family (Dad joined through a link), with Emma.
pub(crate) async fn two_parents(server: &TestServer) -> (reqwest::Client, reqwest::Client, String) {
    let mum = family(server, "mum@example.org").await;
    let emma = add_child(server, &mum, "Emma").await;
    let (_, token) = invite(server, &mum).await;
    let dad = join_as_new(server, &token, "dad@example.org").await;
    (mum, dad, emma)
}

#[tokio::test]
async fn a_second_parent_joins_by_link_and_both_share_everything_live() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let emma = add_child(&server, &mum, "Emma").await;
    let (_, token) = invite(&server, &mum).await;

    let preview = json(server.get(&format!("/api/family/join/{token}")).await, 200).await;
    assert_eq!(preview["familyName"], "The Khan family");
    assert_eq!(preview["invitedBy"], "Amira Khan");

    let dad = join_as_new(&server, &token, "dad@example.org").await;
    assert_eq!(children_names(&server, &dad).await, ["Emma"]);

    // The link worked once.
    assert_eq!(eve_joins(&server, &token).await, 404);
    assert_eq!(
        server
            .get(&format!("/api/family/join/{token}"))
            .await
            .status(),
        404
    );

    let members = get_family(&server, &mum).await;
    let names: Vec<_> = members["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["firstName"].as_str().unwrap(),
                m["isYou"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(names, [("Amira", true), ("Ben", false)]);
    assert!(members["invites"].as_array().unwrap().is_empty(), "used up");

    // Each sees the other's changes live.
    let mut dads_feed = Stream::open(&server, &dad, None).await;
    let meal = add_meal(
        &server,
        &mum,
        json!({"childId": emma, "mealType": "Lunch", "foods": ["Pasta"]}),
    )
    .await;
    let event = dads_feed.change().await;
    assert_eq!(
        (event.name.as_str(), &event.data["kind"]),
        ("change", &json!("meal"))
    );
    assert_eq!(event.data["id"], meal["id"]);

    // Both edit the same meal from version 1: the second save is refused, nothing is lost.
    let url = server.url(&format!("/api/meals/{}", meal["id"].as_str().unwrap()));
    let edit =
        |foods: &str| json!({"childId": emma, "mealType": "Lunch", "foods": [foods], "version": 1});
    json(
        mum.put(&url)
            .json(&edit("Pasta, peas"))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let refused = json(
        dad.put(&url)
            .json(&edit("Pasta, ham"))
            .send()
            .await
            .unwrap(),
        409,
    )
    .await;
    assert_eq!(refused["current"]["foods"], json!(["Pasta, peas"]));
    let now = json(dad.get(&url).send().await.unwrap(), 200).await;
    assert_eq!(now["foods"], json!(["Pasta, peas"]));
}

#[tokio::test]
async fn links_can_be_revoked_and_expire() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let (id, token) = invite(&server, &mum).await;
    let listed = get_family(&server, &mum).await;
    assert_eq!(listed["invites"][0]["id"], id.as_str());
    assert!(
        !listed.to_string().contains(&token),
        "the link is shown once"
    );

    let revoke = mum
        .delete(server.url(&format!("/api/family/invites/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(revoke.status(), 204);
    assert_eq!(
        server
            .get(&format!("/api/family/join/{token}"))
            .await
            .status(),
        404
    );

    // An expired link says so (410) and cannot be used.
    let old = highchair::domain::family::FamilyInvite::new(
        server
            .app
            .store()
            .users
            .get_by_email(&highchair::domain::email::Email::parse("mum@example.org").unwrap())
            .await
            .unwrap()
            .unwrap()
            .family_id,
        highchair::domain::ids::UserId::new(),
        highchair::auth::tokens::token_hash("an-old-link"),
        chrono::Utc::now() - chrono::Duration::days(8),
    );
    server.app.store().invites.insert(&old).await.unwrap();
    let (title, message, _) = error(server.get("/api/family/join/an-old-link").await, 410).await;
    assert_eq!(title, "Invite expired");
    assert!(message.contains("Ask for a new one"), "{message}");
    assert_eq!(eve_joins(&server, "an-old-link").await, 410);
    assert!(
        server
            .app
            .store()
            .users
            .get_by_email(&highchair::domain::email::Email::parse("eve@example.org").unwrap())
            .await
            .unwrap()
            .is_none()
    );
    // Housekeeping removes the expired link: it is then unknown.
    highchair::service::housekeeping::run_once(&server.app).await;
    assert_eq!(
        server.get("/api/family/join/an-old-link").await.status(),
        404
    );
}

#[tokio::test]
async fn a_signed_in_parent_moves_in_only_with_an_empty_family() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    add_child(&server, &mum, "Emma").await;
    let (_, token) = invite(&server, &mum).await;

    // Dad already keeps Leo: joining would leave Leo behind.
    let dad = family(&server, "dad@example.org").await;
    add_child(&server, &dad, "Leo").await;
    let (title, _, _) = error(
        dad.post(server.url(&format!("/api/family/join/{token}")))
            .json(&json!({}))
            .send()
            .await
            .unwrap(),
        409,
    )
    .await;
    assert_eq!(title, "Join failed");
    assert_eq!(children_names(&server, &dad).await, ["Leo"]);

    // A guest cannot join, nor invite.
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
    let refused = guest
        .post(server.url(&format!("/api/family/join/{token}")))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 403);
    let no_invites = guest
        .post(server.url("/api/family/invites"))
        .send()
        .await
        .unwrap();
    assert_eq!(no_invites.status(), 403);

    // Grandad has an account and nothing in it, and an avatar that goes with him.
    let grandad = family(&server, "grandad@example.org").await;
    let photo = highchair::media::fixtures::two_colour_jpeg(64, 48);
    let avatar = json(
        upload(&server, &grandad, "/api/profile/avatar", photo, "me.jpg").await,
        200,
    )
    .await;
    let moved = json(
        grandad
            .post(server.url(&format!("/api/family/join/{token}")))
            .json(&json!({}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(moved["user"]["email"], "grandad@example.org");
    assert_eq!(children_names(&server, &grandad).await, ["Emma"]);
    let picture = grandad
        .get(server.url(avatar["avatarUrl"].as_str().unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(picture.status(), 200, "the avatar moved with him");
    let mums_view = grandad.get(server.url(avatar["avatarUrl"].as_str().unwrap()));
    assert_eq!(mums_view.send().await.unwrap().status(), 200);
    assert_eq!(
        mum.get(server.url(avatar["avatarUrl"].as_str().unwrap()))
            .send()
            .await
            .unwrap()
            .status(),
        200,
        "the family's members see it"
    );
}

#[tokio::test]
async fn removing_a_parent_ends_their_sessions_and_leaving_keeps_the_account() {
    let server = TestServer::start().await;
    let (mum, dad, _emma) = two_parents(&server).await;
    let dad_id = get_family(&server, &dad).await["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["isYou"] == true)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let dad_phone = sign_in(&server, "dad@example.org").await;
    let mut dads_feed = Stream::open(&server, &dad_phone, None).await;

    // Nobody removes themselves; an id from outside the family is not found.
    let me = get_family(&server, &mum).await["members"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        mum.delete(server.url(&format!("/api/family/members/{me}")))
            .send()
            .await
            .unwrap()
            .status(),
        409
    );
    let stranger = family(&server, "stranger@example.org").await;
    assert_eq!(
        stranger
            .delete(server.url(&format!("/api/family/members/{dad_id}")))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );

    let removed = mum
        .delete(server.url(&format!("/api/family/members/{dad_id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(removed.status(), 204);
    assert!(
        dads_feed.ends(Duration::from_secs(3)).await,
        "his stream closed"
    );
    for client in [&dad, &dad_phone] {
        assert_eq!(
            client
                .get(server.url("/api/children"))
                .send()
                .await
                .unwrap()
                .status(),
            401,
            "his sessions ended"
        );
    }
    // He keeps his account, in a family of his own.
    let dad = sign_in(&server, "dad@example.org").await;
    assert!(children_names(&server, &dad).await.is_empty());
    assert_eq!(children_names(&server, &mum).await, ["Emma"]);

    // Leaving: the last adult cannot; with two, the one who leaves keeps the session.
    let (title, _, _) = error(
        mum.post(server.url("/api/family/leave"))
            .send()
            .await
            .unwrap(),
        409,
    )
    .await;
    assert_eq!(title, "Leave failed");
    let (_, token) = invite(&server, &mum).await;
    json(
        dad.post(server.url(&format!("/api/family/join/{token}")))
            .json(&json!({}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(children_names(&server, &dad).await, ["Emma"]);
    json(
        dad.post(server.url("/api/family/leave"))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(
        signed_in_as(&server, &dad).await.as_deref(),
        Some("dad@example.org")
    );
    assert!(children_names(&server, &dad).await.is_empty());
    assert_eq!(children_names(&server, &mum).await, ["Emma"]);
}

#[tokio::test]
async fn the_family_goes_with_its_last_member_only() {
    let server = TestServer::start().await;
    let (mum, dad, emma) = two_parents(&server).await;
    add_meal(
        &server,
        &dad,
        json!({"childId": emma, "mealType": "Dinner", "foods": ["Soup"]}),
    )
    .await;
    let email = |e: &str| highchair::domain::email::Email::parse(e).unwrap();
    let mum_id = server
        .app
        .store()
        .users
        .get_by_email(&email("mum@example.org"))
        .await
        .unwrap()
        .unwrap()
        .id;
    highchair::service::accounts::delete_account(&server.app, mum_id)
        .await
        .unwrap();
    assert_eq!(
        mum.get(server.url("/api/children"))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    assert_eq!(
        children_names(&server, &dad).await,
        ["Emma"],
        "Dad keeps the family"
    );
    let meals = json(dad.get(server.url("/api/meals")).send().await.unwrap(), 200).await;
    assert_eq!(meals["items"].as_array().unwrap().len(), 1);

    let dad_user = server
        .app
        .store()
        .users
        .get_by_email(&email("dad@example.org"))
        .await
        .unwrap()
        .unwrap();
    highchair::service::accounts::delete_account(&server.app, dad_user.id)
        .await
        .unwrap();
    // The removal job runs in the background; the family's records go.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !server
        .app
        .store()
        .children
        .list(dad_user.family_id)
        .await
        .unwrap()
        .is_empty()
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the family's records were removed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_store_written_by_the_previous_release_opens_with_everything_in_it() {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let ids: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures.join("store-schema2.json")).unwrap(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let unpacked = std::process::Command::new("tar")
        .arg("xzf")
        .arg(fixtures.join("store-schema2.tar.gz"))
        .arg("-C")
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(unpacked.success());
    // The archive holds `data/`; the harness uses `<dir>/data`.
    let server = TestServer::start_in(dir, |_| {}).await;

    let client = server.new_client();
    let login = |email: &'static str, password: &'static str| {
        client
            .post(server.url("/api/auth/login"))
            .json(&json!({"email": email, "password": password}))
            .send()
    };
    let ann = json(
        login("ann@example.org", "correct horse").await.unwrap(),
        200,
    )
    .await;
    assert!(ann["user"]["isAdmin"].as_bool().unwrap());
    let avatar = ann["user"]["avatarUrl"]
        .as_str()
        .expect("avatar kept")
        .to_string();
    assert_eq!(
        client
            .get(server.url(&avatar))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    let children = json(
        client
            .get(server.url("/api/children"))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    let mut child_ids: Vec<_> = children
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    child_ids.sort();
    let mut expected: Vec<String> = serde_json::from_value(ids["ann"]["children"].clone()).unwrap();
    expected.sort();
    assert_eq!(child_ids, expected);
    let emma = children
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "Emma")
        .unwrap();
    assert_eq!(emma["allergies"], json!(["Peanuts", "Milk"]));
    let meals = json(
        client.get(server.url("/api/meals")).send().await.unwrap(),
        200,
    )
    .await;
    let meals = meals["items"].as_array().unwrap();
    assert_eq!(meals.len(), 3);
    let with_photo = meals.iter().find(|m| !m["photo"].is_null()).unwrap();
    assert_eq!(with_photo["photo"], ids["ann"]["photo"]);
    assert_eq!(
        client
            .get(server.url(with_photo["photoUrl"].as_str().unwrap()))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    // The member index was built: Ann's family lists her, and households work on old data.
    let fam = get_family(&server, &client).await;
    assert_eq!(fam["members"].as_array().unwrap().len(), 1);
    assert_eq!(fam["name"], "The Lee family");
    let (_, token) = invite(&server, &client).await;
    let partner = join_as_new(&server, &token, "sam@example.org").await;
    assert_eq!(children_names(&server, &partner).await.len(), 2);

    let ben = server.new_client();
    json(
        ben.post(server.url("/api/auth/login"))
            .json(&json!({"email": "ben@example.org", "password": "battery staple"}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert_eq!(children_names(&server, &ben).await, ["Ada"]);
    let ben_family = get_family(&server, &ben).await;
    assert_eq!(ben_family["members"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_link_raced_by_many_is_used_once() {
    // A fresh server per round: eight sign-ups from 127.0.0.1 stay under its per-IP limit.
    for round in 0..5 {
        let server = TestServer::start().await;
        let mum = family(&server, "mum@example.org").await;
        let (_, token) = invite(&server, &mum).await;
        let attempts = (0..8).map(|i| {
            let server = &server;
            let token = token.clone();
            async move {
                server
                    .new_client()
                    .post(server.url(&format!("/api/family/join/{token}")))
                    .json(&json!({"firstName": "Racer", "lastName": "X",
                                  "email": format!("racer{i}@example.org"),
                                  "password": "correct horse", "acceptTerms": true}))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            }
        });
        let mut statuses = futures_util::future::join_all(attempts).await;
        statuses.sort();
        assert_eq!(
            statuses,
            [201, 404, 404, 404, 404, 404, 404, 404],
            "round {round}"
        );
        let members = get_family(&server, &mum).await["members"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(members, 2, "one adult per link");
    }
}

/// Issue 26: an account with its own recipes, grocery lists, meal plan and a co-parent link
/// joined another family, and nobody saw those again while the old link still signed in, to a
/// family with no members. They come along; the old links end.
#[tokio::test]
async fn joining_brings_the_recipes_lists_and_plan_along_and_ends_the_old_links() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let (_, token) = invite(&server, &mum).await;
    let week = "2026-W48";
    let plan = |client: &reqwest::Client, text: &str| {
        client
            .put(server.url(&format!("/api/meal-plan?week={week}")))
            .json(&json!({"version": 0, "entries": [
                {"date": "2026-11-24", "mealType": "Dinner", "text": text}]}))
            .send()
    };
    json(plan(&mum, "Fish pie").await.unwrap(), 200).await;

    let dad = family(&server, "dad@example.org").await;
    let recipe = json(
        dad.post(server.url("/api/recipes"))
            .json(&json!({"source": "own", "title": "Dad's chilli",
                "ingredients": [{"name": "Beans", "quantity": "1 tin"}],
                "instructions": ["Simmer."]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    json(
        dad.post(server.url("/api/grocery-lists"))
            .json(&json!({"name": "Dad's list", "items": [{"name": "Beans"}]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    json(plan(&dad, "Dad's chilli night").await.unwrap(), 200).await;
    // Dad's family followed the US allergen list; the family he joins keeps its own.
    choose_us_list(&server, &dad).await;
    let link = json(
        dad.post(server.url("/api/co-parents"))
            .json(&json!({"name": "Grandma Zoe", "email": "zoe@example.org"}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let share = link["link"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    let gran = server.new_client();
    let opened = gran
        .post(server.url(&format!("/api/share/{share}/session")))
        .json(&json!({"pin": link["pin"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), 200);

    json(
        dad.post(server.url(&format!("/api/family/join/{token}")))
            .json(&json!({}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    // Both parents see Dad's recipe, list and planned meal beside Mum's.
    for parent in [&mum, &dad] {
        let recipes = json(
            parent.get(server.url("/api/recipes")).send().await.unwrap(),
            200,
        )
        .await;
        assert_eq!(recipes[0]["title"], "Dad's chilli");
        assert_eq!(recipes[0]["id"], recipe["id"]);
        let lists = json(
            parent
                .get(server.url("/api/grocery-lists"))
                .send()
                .await
                .unwrap(),
            200,
        )
        .await;
        let names: Vec<&str> = lists
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["Dad's list"]);
        let week = json(
            parent
                .get(server.url(&format!("/api/meal-plan?week={week}")))
                .send()
                .await
                .unwrap(),
            200,
        )
        .await;
        let titles: Vec<&str> = week["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["title"].as_str().unwrap())
            .collect();
        assert_eq!(titles, ["Fish pie", "Dad's chilli night"]);
        let settings = json(
            parent
                .get(server.url("/api/family/settings"))
                .send()
                .await
                .unwrap(),
            200,
        )
        .await;
        assert_eq!(
            (settings["version"].as_u64(), &settings["allergenList"]),
            (Some(0), &json!("uk14"))
        );
    }
    // The old family's co-parent link has ended, and its session with it.
    let ended = gran
        .get(server.url(&format!("/api/share/{share}/children")))
        .send()
        .await
        .unwrap();
    assert_eq!(ended.status(), 404);
    let again = server
        .new_client()
        .post(server.url(&format!("/api/share/{share}/session")))
        .json(&json!({"pin": link["pin"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 404);
    // And no co-parent of the old family is left to list.
    let co_parents = json(
        dad.get(server.url("/api/co-parents")).send().await.unwrap(),
        200,
    )
    .await;
    assert_eq!(co_parents, json!([]));
}
