//! The public contact form: validation texts, storage, per-IP limit.

use serde_json::json;

use crate::harness::{TestServer, error, json};

fn message(name: &str, email: &str, text: &str) -> serde_json::Value {
    json!({"name": name, "email": email, "message": text})
}

#[tokio::test]
async fn every_field_is_validated_with_the_spec_texts() {
    let server = TestServer::start().await;
    let cases = [
        (
            message("S", "sam@example.org", "Hello there, friends"),
            "name",
            "Name must be at least 2 characters",
        ),
        (
            message(&"n".repeat(101), "sam@example.org", "Hello there, friends"),
            "name",
            "Name must be 100 characters or less",
        ),
        (
            message("Sam", "sam@", "Hello there, friends"),
            "email",
            "Please enter a valid email address",
        ),
        (
            message("Sam", "sam@example.org", "Too short"),
            "message",
            "Message must be at least 10 characters",
        ),
        (
            message("Sam", "sam@example.org", &"m".repeat(1001)),
            "message",
            "Message must be 1000 characters or less",
        ),
        (json!({}), "name", "Name must be at least 2 characters"),
    ];
    for (body, field, text) in cases {
        let (title, message, got_field) =
            error(server.post_json("/api/contact", body).await, 400).await;
        assert_eq!(title, "Error sending message");
        assert_eq!(message, text);
        assert_eq!(got_field.as_deref(), Some(field));
    }
    assert!(
        server
            .app
            .store()
            .contact_messages
            .list()
            .await
            .unwrap()
            .is_empty(),
        "nothing stored"
    );
}

#[tokio::test]
async fn a_valid_message_is_stored_cleaned_and_survives_a_restart() {
    let server = TestServer::start().await;
    let body = json(
        server
            .post_json(
                "/api/contact",
                message(
                    "  Sam   Jones ",
                    "Sam@Example.org",
                    "  Hello there, friends!  ",
                ),
            )
            .await,
        201,
    )
    .await;
    let id = body["id"].as_str().unwrap().to_string();
    assert!(body["receivedAt"].is_string());

    let server = server.restart().await;
    let stored = server.app.store().contact_messages.list().await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].id.to_string(), id);
    assert_eq!(stored[0].name, "Sam Jones");
    assert_eq!(stored[0].email.as_str(), "sam@example.org");
    assert_eq!(stored[0].message, "Hello there, friends!");
}

async fn send_valid(server: &TestServer, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut req = server
        .client
        .post(server.url("/api/contact"))
        .json(&message("Sam", "sam@example.org", "Hello there, friends"));
    if let Some(ip) = forwarded_for {
        req = req.header("x-forwarded-for", ip);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn messages_are_limited_per_ip_and_the_limit_survives_a_restart() {
    let server = TestServer::start().await;
    // Invalid submissions do not use up the allowance.
    for _ in 0..3 {
        error(server.post_json("/api/contact", json!({})).await, 400).await;
    }
    for _ in 0..5 {
        assert_eq!(send_valid(&server, None).await.status(), 201);
    }
    let resp = send_valid(&server, None).await;
    let retry: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 60 && retry <= 720, "about 12 minutes: {retry}");
    let (title, message, _) = error(resp, 429).await;
    assert_eq!(title, "Too many attempts");
    assert!(message.starts_with("Please try again after "), "{message}");
    assert!(message.ends_with("minutes"), "{message}");

    let server = server.restart().await;
    let resp = send_valid(&server, None).await;
    assert_eq!(resp.status(), 429, "still limited after a restart");
    assert_eq!(
        server
            .app
            .store()
            .contact_messages
            .list()
            .await
            .unwrap()
            .len(),
        5
    );
}

#[tokio::test]
async fn forwarded_for_counts_only_from_a_trusted_proxy() {
    // Not trusted: a forged X-Forwarded-For does not escape the limit.
    let server = TestServer::start().await;
    for i in 0..5 {
        assert_eq!(
            send_valid(&server, Some(&format!("198.51.100.{i}")))
                .await
                .status(),
            201
        );
    }
    assert_eq!(
        send_valid(&server, Some("198.51.100.99")).await.status(),
        429
    );

    // Trusted: each forwarded client has its own allowance.
    let server =
        TestServer::start_with(|s| s.server.trusted_proxies = vec!["127.0.0.1".into()]).await;
    for _ in 0..5 {
        assert_eq!(send_valid(&server, Some("203.0.113.1")).await.status(), 201);
    }
    assert_eq!(send_valid(&server, Some("203.0.113.1")).await.status(), 429);
    assert_eq!(send_valid(&server, Some("203.0.113.2")).await.status(), 201);
}
