//! The server answers only to its own names, and unsafe requests only from its own origin
//! (scheme, host and port): DNS rebinding and cross-site requests are refused.

use serde_json::json;

use crate::harness::{TestServer, error};

async fn get_with_host(server: &TestServer, host: &str) -> reqwest::Response {
    server
        .client
        .get(server.url("/api/health"))
        .header("host", host)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn only_the_servers_own_names_are_answered() {
    let server =
        TestServer::start_with(|s| s.server.allowed_hosts = vec!["nas.home.arpa".into()]).await;
    for host in [
        "pi.local:8080",
        "localhost:8080",
        "192.168.1.20:8080",
        "nas.home.arpa",
    ] {
        assert_eq!(get_with_host(&server, host).await.status(), 200, "{host}");
    }
    let (title, message, _) = error(get_with_host(&server, "evil.example").await, 400).await;
    assert_eq!(title, "Unknown host");
    assert!(message.contains("allowed_hosts"), "{message}");
}

#[tokio::test]
async fn a_dns_rebinding_page_cannot_create_the_first_account() {
    let server = TestServer::start().await;
    let resp = server
        .client
        .post(server.url("/api/auth/signup"))
        .header("host", "rebind.evil.example:8080")
        .header("origin", "http://rebind.evil.example:8080")
        .json(&json!({
            "firstName": "Eve", "lastName": "Vil", "email": "eve@evil.example",
            "password": "correct horse", "role": "mom", "acceptTerms": true
        }))
        .send()
        .await
        .unwrap();
    error(resp, 400).await;
    assert!(
        server.app.store().users.list().await.unwrap().is_empty(),
        "no admin made"
    );
}

#[tokio::test]
async fn an_origin_must_match_scheme_host_and_port() {
    let server = TestServer::start().await;
    let host = server.url.trim_start_matches("http://").to_string();
    let post = |origin: String| {
        server
            .client
            .post(server.url("/api/contact"))
            .header("origin", origin)
            .json(&json!({"name": "Sam", "email": "sam@example.org", "message": "Hello there"}))
            .send()
    };
    let (title, _, _) = error(post(format!("https://{host}")).await.unwrap(), 403).await;
    assert_eq!(
        title, "Request refused",
        "an https origin on a plain http server"
    );
    let port: u16 = host.rsplit(':').next().unwrap().parse().unwrap();
    error(
        post(format!("http://127.0.0.1:{}", port.wrapping_add(1)))
            .await
            .unwrap(),
        403,
    )
    .await;
    assert_eq!(post(format!("http://{host}")).await.unwrap().status(), 201);
}
