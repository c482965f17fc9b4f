//! Health, the OpenAPI document and the Swagger UI.

use crate::harness::{TestServer, json};

#[tokio::test]
async fn health_reports_status_version_store_and_generator() {
    let server = TestServer::start().await;
    let body = json(server.get("/api/health").await, 200).await;
    assert_eq!(body["status"], "ok");
    assert_eq!(body["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(body["store"], "ok");
    assert_eq!(body["generator"], "builtin");
}

#[tokio::test]
async fn site_info_reflects_the_settings() {
    let server = TestServer::start_with(|s| {
        s.auth.allow_signup = false;
        s.money.currency = "EUR".into();
        s.server.contact_email = "help@family.example".into();
    })
    .await;
    let body = json(server.get("/api/site").await, 200).await;
    assert_eq!(body["allowSignup"], false);
    assert_eq!(body["allowGuests"], true);
    assert_eq!(body["currency"], "EUR");
    assert_eq!(body["groceryItemEstimate"], 2.5);
    assert_eq!(body["contactEmail"], "help@family.example");
}

/// Every operation the API serves, as (method, path).
const ROUTES: &[(&str, &str)] = &[
    ("get", "/health"),
    ("get", "/site"),
    ("post", "/contact"),
    ("post", "/auth/signup"),
    ("post", "/auth/login"),
    ("post", "/auth/guest"),
    ("post", "/auth/logout"),
    ("get", "/auth/session"),
    ("post", "/auth/forgot-password"),
    ("get", "/auth/reset-password/{token}"),
    ("post", "/auth/reset-password/{token}"),
    ("get", "/profile"),
    ("patch", "/profile"),
    ("put", "/profile/avatar"),
    ("get", "/family"),
    ("post", "/family/invites"),
    ("delete", "/family/invites/{id}"),
    ("post", "/family/leave"),
    ("get", "/family/settings"),
    ("put", "/family/settings"),
    ("delete", "/family/members/{id}"),
    ("get", "/family/join/{token}"),
    ("post", "/family/join/{token}"),
    ("get", "/children"),
    ("post", "/children"),
    ("get", "/children/{id}"),
    ("put", "/children/{id}"),
    ("delete", "/children/{id}"),
    ("post", "/children/{id}/allergen-check"),
    ("post", "/children/{id}/food-check"),
    ("get", "/children/{id}/allergens"),
    ("get", "/children/{id}/foods"),
    ("get", "/children/{id}/delete-preview"),
    ("get", "/meals"),
    ("post", "/meals"),
    ("get", "/meals/{id}"),
    ("put", "/meals/{id}"),
    ("delete", "/meals/{id}"),
    ("post", "/media"),
    ("get", "/media/{id}"),
    ("get", "/ingredients"),
    ("post", "/ingredients/check"),
    ("post", "/recipes/generate"),
    ("get", "/recipes/jobs/{id}"),
    ("get", "/recipes/jobs/{id}/events"),
    ("get", "/recipes"),
    ("post", "/recipes"),
    ("post", "/recipes/import"),
    ("get", "/recipes/export"),
    ("get", "/recipes/{id}"),
    ("put", "/recipes/{id}"),
    ("delete", "/recipes/{id}"),
    ("get", "/recipes/{id}/export"),
    ("post", "/recipes/{id}/log-meal"),
    ("get", "/grocery-lists"),
    ("post", "/grocery-lists"),
    ("get", "/grocery-lists/{id}"),
    ("put", "/grocery-lists/{id}"),
    ("delete", "/grocery-lists/{id}"),
    ("patch", "/grocery-lists/{id}/items/{itemId}"),
    ("post", "/grocery-lists/from-recipes"),
    ("post", "/grocery-lists/from-meal-plan"),
    ("post", "/grocery-lists/estimate"),
    ("get", "/grocery-lists/{id}/export"),
    ("get", "/meal-plan"),
    ("put", "/meal-plan"),
    ("post", "/meal-plan/check"),
    ("get", "/events"),
    ("get", "/co-parents"),
    ("post", "/co-parents"),
    ("post", "/co-parents/{id}/pin"),
    ("post", "/co-parents/{id}/extend"),
    ("delete", "/co-parents/{id}"),
    ("get", "/share/{token}"),
    ("post", "/share/{token}/pin"),
    ("get", "/share/{token}/session"),
    ("post", "/share/{token}/session"),
    ("delete", "/share/{token}/session"),
    ("get", "/share/{token}/children"),
    ("get", "/share/{token}/children/{id}/allergens"),
    ("get", "/share/{token}/meals"),
    ("get", "/share/{token}/media/{id}"),
    ("get", "/share/{token}/grocery-lists"),
    ("patch", "/share/{token}/grocery-lists/{id}/items/{itemId}"),
    ("get", "/share/{token}/meal-plan"),
    ("get", "/share/{token}/events"),
];

#[tokio::test]
async fn openapi_document_is_valid_and_lists_every_route() {
    let server = TestServer::start().await;
    let spec = json(server.get("/api/openapi.json").await, 200).await;
    assert!(
        spec["openapi"].as_str().unwrap().starts_with("3."),
        "OpenAPI 3"
    );
    assert_eq!(spec["info"]["title"], "Highchair");
    assert_eq!(spec["servers"][0]["url"], "/api");

    let mut listed = Vec::new();
    for (path, item) in spec["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().unwrap() {
            assert!(
                op["operationId"].is_string(),
                "{method} {path} has an operationId"
            );
            let responses = op["responses"].as_object().expect("responses");
            assert!(
                !responses.is_empty(),
                "{method} {path} documents its responses"
            );
            listed.push((method.clone(), path.clone()));
        }
    }
    listed.sort();
    let mut expected: Vec<(String, String)> = ROUTES
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    expected.sort();
    assert_eq!(listed, expected);

    // Every referenced schema exists.
    let text = spec.to_string();
    let schemas = spec["components"]["schemas"].as_object().unwrap();
    for part in text.split("#/components/schemas/").skip(1) {
        let name = part.split('"').next().unwrap();
        assert!(schemas.contains_key(name), "schema {name} is defined");
    }
    assert!(schemas.contains_key("ErrorBody"));
}

#[tokio::test]
async fn committed_ui_copy_of_the_openapi_document_is_current() {
    let served: serde_json::Value = serde_json::from_str(&highchair::api::spec_json()).unwrap();
    let committed: serde_json::Value =
        serde_json::from_str(include_str!("../../ui/src/api/openapi.json")).unwrap();
    assert!(
        served == committed,
        "ui/src/api/openapi.json is stale: run scripts/gen-api"
    );
}

#[tokio::test]
async fn the_ui_checks_the_rules_the_server_serves() {
    let server = TestServer::start().await;
    let site = json(server.get("/api/site").await, 200).await;
    let committed: serde_json::Value =
        serde_json::from_str(include_str!("../../ui/src/api/rules.json")).unwrap();
    assert!(
        site["rules"] == committed,
        "ui/src/api/rules.json is stale: run scripts/gen-api\nserved: {}",
        site["rules"]
    );
    // Spot checks against the spec, so the copy cannot agree with a wrong server.
    assert_eq!(committed["groceryCategories"].as_array().unwrap().len(), 15);
    assert_eq!(committed["groceryCategories"][14], "Other");
    assert_eq!(committed["pinLength"], 6);
}

#[tokio::test]
async fn swagger_ui_is_served_from_the_binary() {
    let server = TestServer::start().await;
    let resp = server.get("/api/docs").await;
    assert_eq!(resp.status(), 200);
    let csp = resp.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("frame-ancestors 'none'"));
    // Its scripts are files, like the app's: no inline script is allowed.
    let script_src = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src"));
    assert_eq!(script_src, Some("script-src 'self'"), "{csp}");
    let html = resp.text().await.unwrap();
    assert!(html.contains("/api/docs/swagger-ui-bundle.js"), "{html}");
    for external in [
        "src=\"http",
        "href=\"http",
        "src='http",
        "href='http",
        "url(http",
    ] {
        assert!(
            !html.contains(external),
            "no assets from a CDN ({external})"
        );
    }
    let init = server.get("/api/docs/init.js").await.text().await.unwrap();
    assert!(init.contains("url: '/api/openapi.json'"), "{init}");

    // The bundle is stored gzip-compressed only: sent as it is, or decompressed for a client
    // that takes no gzip.
    let fetch = |encoding: &'static str| {
        server
            .client
            .get(server.url("/api/docs/swagger-ui-bundle.js"))
            .header("accept-encoding", encoding)
            .send()
    };
    let gzipped = fetch("gzip, br").await.unwrap();
    assert_eq!(gzipped.status(), 200);
    assert_eq!(gzipped.headers()["content-encoding"], "gzip");
    assert_eq!(gzipped.headers()["vary"], "Accept-Encoding");
    assert!(
        gzipped.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    let etag = gzipped.headers()["etag"].clone();
    let gzipped = gzipped.bytes().await.unwrap();
    let plain = fetch("identity").await.unwrap();
    assert_eq!(plain.status(), 200);
    assert!(plain.headers().get("content-encoding").is_none());
    assert_eq!(plain.headers()["etag"], etag);
    let plain = plain.text().await.unwrap();
    assert!(plain.contains("SwaggerUIBundle"));
    assert!(
        plain.len() > gzipped.len() * 3,
        "{} vs {}",
        plain.len(),
        gzipped.len()
    );

    // Nothing else is under /api/docs: the stored copy's name, a folder, another file.
    for path in [
        "/api/docs/swagger-ui-bundle.js.gz",
        "/api/docs/../index.html",
        "/api/docs/assets/x.js",
        "/api/docs/nope.js",
    ] {
        assert_eq!(server.get(path).await.status(), 404, "{path}");
    }
    let post = server.post_json("/api/docs", serde_json::json!({})).await;
    assert_eq!(post.status(), 405);
    // The build keeps them in api-docs/; the web interface does not serve that folder.
    assert_eq!(server.get("/api-docs/init.js").await.status(), 404);
}
