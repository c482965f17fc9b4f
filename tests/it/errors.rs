//! Error bodies, status codes and security headers for every kind of failure.

use crate::harness::{TestServer, error};

#[tokio::test]
async fn unknown_api_path_is_a_json_404() {
    let server = TestServer::start().await;
    let (title, _, field) = error(server.get("/api/no-such-thing").await, 404).await;
    assert_eq!(title, "Not found");
    assert_eq!(field, None);
}

#[tokio::test]
async fn wrong_method_is_a_json_405() {
    let server = TestServer::start().await;
    let resp = server
        .client
        .delete(server.url("/api/health"))
        .send()
        .await
        .unwrap();
    let (title, _, _) = error(resp, 405).await;
    assert_eq!(title, "Method not allowed");
    let resp = server
        .client
        .put(server.url("/about"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["allow"], "GET, HEAD");
    error(resp, 405).await;
}

#[tokio::test]
async fn malformed_json_is_a_400_naming_the_problem() {
    let server = TestServer::start().await;
    let resp = server
        .client
        .post(server.url("/api/contact"))
        .header("content-type", "application/json")
        .body("{\"name\": ")
        .send()
        .await
        .unwrap();
    let (title, message, _) = error(resp, 400).await;
    assert_eq!(title, "Invalid request");
    assert!(message.contains("not valid JSON"), "{message}");
    assert!(message.contains("line 1"), "says where: {message}");

    let resp = server
        .client
        .post(server.url("/api/contact"))
        .json(&serde_json::json!(["not", "an", "object"]))
        .send()
        .await
        .unwrap();
    let (_, message, _) = error(resp, 400).await;
    assert!(message.contains("wrong type"), "{message}");
}

#[tokio::test]
async fn body_over_the_limit_is_a_413_declared_or_chunked() {
    let server = TestServer::start_with(|s| s.limits.body_kb = 1).await;
    let big = format!("{{\"name\":\"{}\"}}", "x".repeat(2000));
    let resp = server
        .client
        .post(server.url("/api/contact"))
        .header("content-type", "application/json")
        .body(big.clone())
        .send()
        .await
        .unwrap();
    let (title, message, _) = error(resp, 413).await;
    assert_eq!(title, "Request too large");
    assert!(message.contains("1 KB"), "{message}");

    // No Content-Length: the body arrives chunked and is counted while it is read.
    let mut request = String::from(
        "POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
    );
    for chunk in big.as_bytes().chunks(100) {
        request.push_str(&format!(
            "{:x}\r\n{}\r\n",
            chunk.len(),
            String::from_utf8_lossy(chunk)
        ));
    }
    request.push_str("0\r\n\r\n");
    let response = raw_http(&server.url, &request).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(
        response.contains("\"title\":\"Request too large\""),
        "{response}"
    );
}

/// Sends a hand-written HTTP/1.1 request and returns the whole response as text.
pub async fn raw_http(base_url: &str, request: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base_url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out).await;
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn cross_origin_unsafe_requests_are_refused() {
    let server = TestServer::start().await;
    let body = serde_json::json!({"name": "Sam", "email": "sam@example.org", "message": "Hello there, friends"});
    let resp = server
        .client
        .post(server.url("/api/contact"))
        .header("origin", "http://evil.example")
        .json(&body)
        .send()
        .await
        .unwrap();
    let (title, message, _) = error(resp, 403).await;
    assert_eq!(title, "Request refused");
    assert_eq!(message, "Requests from other sites are not allowed.");

    let resp = server
        .client
        .post(server.url("/api/contact"))
        .header("sec-fetch-site", "cross-site")
        .json(&body)
        .send()
        .await
        .unwrap();
    error(resp, 403).await;

    // The server's own origin is fine.
    let own = server.url.clone();
    let resp = server
        .client
        .post(server.url("/api/contact"))
        .header("origin", own)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    assert!(
        server
            .app
            .store()
            .contact_messages
            .list()
            .await
            .unwrap()
            .len()
            == 1
    );

    // Safe methods are not affected.
    let resp = server
        .client
        .get(server.url("/api/health"))
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn public_url_origin_is_accepted() {
    let server =
        TestServer::start_with(|s| s.server.public_url = "https://meals.example.org".into()).await;
    let resp = server
        .client
        .post(server.url("/api/contact"))
        .header("origin", "https://meals.example.org")
        .json(&serde_json::json!({"name": "Sam", "email": "sam@example.org", "message": "Hello there, friends"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
}

#[tokio::test]
async fn security_headers_are_on_every_response() {
    let server = TestServer::start().await;
    for path in [
        "/",
        "/api/health",
        "/api/nope",
        "/no-such-page",
        "/favicon.svg",
    ] {
        let resp = server.get(path).await;
        let h = resp.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        for directive in [
            "default-src 'self'",
            "img-src 'self' data: blob:",
            "style-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "form-action 'self'",
        ] {
            assert!(csp.contains(directive), "{path}: {directive} in {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "no-referrer", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-request-id"].len(), 16, "{path}");
    }
    let api = server.get("/api/health").await;
    assert_eq!(api.headers()["cache-control"], "no-store");
}

#[tokio::test]
async fn no_response_leaks_rust_internals() {
    let server = TestServer::start().await;
    let probes = [
        (
            "POST",
            "/api/contact",
            "{\"name\": 12, \"email\": [], \"message\": {}}",
        ),
        ("POST", "/api/contact", "null"),
        ("POST", "/api/contact", ""),
        ("GET", "/api/health/%ZZ", ""),
        ("POST", "/api/site", "{}"),
        ("PATCH", "/api/contact", "{}"),
    ];
    for (method, path, body) in probes {
        let resp = server
            .client
            .request(method.parse().unwrap(), server.url(path))
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        assert!(status < 500, "{method} {path} gave {status}: {text}");
        assert!(
            !text.contains("panicked") && !text.contains("src/"),
            "{text}"
        );
        let parsed: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("{method} {path}: {text}"));
        assert!(
            parsed["title"].is_string() && parsed["message"].is_string(),
            "{text}"
        );
    }
}

/// Issue 26: names and foods made only of invisible characters were accepted, and direction
/// overrides (U+202E) were stored and then spoofed what a screen or an export showed.
#[tokio::test]
async fn invisible_names_are_refused_and_direction_overrides_are_dropped() {
    use serde_json::json;
    let server = TestServer::start().await;
    let mum = crate::harness::family(&server, "mum@example.org").await;
    let post = |path: &'static str, body: serde_json::Value| {
        let mum = mum.clone();
        let url = server.url(path);
        async move { mum.post(url).json(&body).send().await.unwrap() }
    };
    let (_, message, field) = error(
        post("/api/children", json!({"name": "\u{200B}\u{200C}\u{FEFF}"})).await,
        400,
    )
    .await;
    assert_eq!(
        (message.as_str(), field.as_deref()),
        ("Please enter the child's name", Some("name"))
    );
    let (_, _, field) = error(
        post("/api/children", json!({"name": "\u{202E}\u{2066}"})).await,
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("name"));
    let child = crate::harness::json(
        post(
            "/api/children",
            json!({"name": "Ava\u{202E}gpj.exe", "allergies": ["\u{2067}milk\u{2069}"]}),
        )
        .await,
        201,
    )
    .await;
    assert_eq!(child["name"], "Avagpj.exe");
    assert_eq!(child["allergies"], json!(["milk"]));
    let (_, _, field) = error(
        post(
            "/api/meals",
            json!({"childId": child["id"], "mealType": "Lunch", "foods": ["\u{200B}"]}),
        )
        .await,
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("foods"));
    let (_, _, field) = error(
        post(
            "/api/grocery-lists",
            json!({"name": "\u{3164}", "items": [{"name": "Milk"}]}),
        )
        .await,
        400,
    )
    .await;
    assert_eq!(field.as_deref(), Some("name"));
}
