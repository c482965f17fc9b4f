//! Photos cannot fill the disk: a quota per family (small for guests), an upload rate per
//! family, and a guard that refuses uploads while the disk is low (reported by /api/health).

use highchair::media::fixtures::photo_like_jpeg;
use serde_json::json;

use crate::harness::{TestServer, error, json, upload};

async fn guest(server: &TestServer) -> reqwest::Client {
    let client = server.new_client();
    let resp = client
        .post(server.url("/api/auth/guest"))
        .json(&json!({"firstName": "Tess", "children": 1}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await;
    client
}

#[tokio::test]
async fn a_guest_fills_its_small_quota_and_then_gets_a_507() {
    let server = TestServer::start_with(|s| s.limits.guest_storage_mb = 1).await;
    let client = guest(&server).await;
    let mut stored = 0;
    let refusal = loop {
        let resp = upload(
            &server,
            &client,
            "/api/media",
            photo_like_jpeg(900, 700),
            "p.jpg",
        )
        .await;
        if resp.status() != 201 {
            break resp;
        }
        stored += 1;
        assert!(stored < 20, "the quota never stopped the uploads");
    };
    assert!(stored >= 1, "the first photo fits");
    let (title, message, _) = error(refusal, 507).await;
    assert_eq!(title, "Photo upload failed");
    assert!(message.contains("1 MB"), "{message}");
    let family = server.app.store().users.list().await.unwrap()[0].family_id;
    let used = server.app.store().media.family_usage(family).await.unwrap();
    assert!(used <= 1024 * 1024, "{used} bytes stored over a 1 MB quota");
}

async fn small_photo(server: &TestServer, client: &reqwest::Client) -> reqwest::Response {
    upload(
        server,
        client,
        "/api/media",
        photo_like_jpeg(64, 64),
        "p.jpg",
    )
    .await
}

#[tokio::test]
async fn uploads_are_rate_limited_per_family() {
    let server = TestServer::start_with(|s| s.limits.guest_uploads_per_hour = 3).await;
    let client = guest(&server).await;
    for _ in 0..3 {
        assert_eq!(small_photo(&server, &client).await.status(), 201);
    }
    let resp = small_photo(&server, &client).await;
    assert!(resp.headers().contains_key("retry-after"));
    let (title, _, _) = error(resp, 429).await;
    assert_eq!(title, "Too many attempts");
    // Another family is not held by it.
    let other = guest(&server).await;
    let resp = small_photo(&server, &other).await;
    assert_eq!(resp.status(), 201);
}

#[tokio::test]
async fn a_low_disk_refuses_uploads_keeps_meals_and_shows_in_health() {
    // More free space asked for than any disk has: the disk counts as low.
    let server = TestServer::start_with(|s| s.limits.min_free_disk_mb = 16_777_216).await;
    let client = guest(&server).await;
    let resp = small_photo(&server, &client).await;
    let (_, message, _) = error(resp, 507).await;
    assert!(message.contains("disk is nearly full"), "{message}");
    let health = json(server.get("/api/health").await, 200).await;
    assert_eq!(health["disk"], "low");
    assert_eq!(health["status"], "degraded");
    assert_eq!(health["store"], "ok");
    // Meals (small) are still saved.
    let child = crate::harness::add_child(&server, &client, "Noor").await;
    crate::harness::add_meal(
        &server,
        &client,
        json!({"childId": child, "mealType": "lunch", "foods": ["Rice"]}),
    )
    .await;
}
