//! The embedded UI: SPA fallback, caching, precompressed assets.

use crate::harness::{TestServer, logs};

#[tokio::test]
async fn pages_get_index_html_and_unknown_paths_a_logged_404() {
    let server = TestServer::start().await;
    for path in ["/", "/about", "/privacy", "/terms", "/contact", "/about/"] {
        let resp = server.get(path).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert_eq!(resp.headers()["cache-control"], "no-cache", "{path}");
        assert!(
            resp.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
        assert!(
            resp.text().await.unwrap().contains("<div id=\"root\">"),
            "{path}"
        );
    }
    let resp = server.get("/definitely/not-a-page-4711").await;
    assert_eq!(resp.status(), 404);
    assert!(
        resp.text().await.unwrap().contains("<div id=\"root\">"),
        "the SPA renders the not-found page"
    );
    assert!(
        logs().contains("page not found path=/definitely/not-a-page-4711"),
        "attempted path is logged"
    );
}

/// The hashed script the index page loads.
async fn entry_script(server: &TestServer) -> String {
    let html = server.get("/").await.text().await.unwrap();
    let start = html.find("/assets/").expect("index links an asset");
    let end = html[start..].find('"').unwrap() + start;
    let asset = html[start..end].to_string();
    assert!(asset.ends_with(".js") || asset.ends_with(".css"), "{asset}");
    html[start..]
        .split('"')
        .find(|s| s.starts_with("/assets/") && s.ends_with(".js"))
        .unwrap_or(&asset)
        .to_string()
}

#[tokio::test]
async fn hashed_assets_are_immutable_and_precompressed() {
    let server = TestServer::start().await;
    let asset = entry_script(&server).await;

    let raw = server
        .client
        .get(server.url(&asset))
        .header("accept-encoding", "identity")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 200);
    assert_eq!(
        raw.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(
        raw.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    assert!(raw.headers().get("content-encoding").is_none());
    let etag = raw.headers()["etag"].to_str().unwrap().to_string();
    let raw_len = raw.bytes().await.unwrap().len();

    for (accept, coding) in [("gzip", "gzip"), ("br", "br"), ("gzip, deflate, br", "br")] {
        let resp = server
            .client
            .get(server.url(&asset))
            .header("accept-encoding", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.headers()["content-encoding"], coding, "{accept}");
        assert_eq!(resp.headers()["vary"], "Accept-Encoding");
        let len = resp.headers()["content-length"]
            .to_str()
            .unwrap()
            .parse::<usize>()
            .unwrap();
        assert!(len < raw_len / 2, "{coding} is smaller: {len} vs {raw_len}");
    }

    let resp = server
        .client
        .get(server.url(&asset))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 304);

    let resp = server
        .client
        .head(server.url(&asset))
        .header("accept-encoding", "identity")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.headers()["content-length"].to_str().unwrap(),
        raw_len.to_string()
    );
}

#[tokio::test]
async fn ui_references_no_other_host() {
    let server = TestServer::start().await;
    let html = server.get("/").await.text().await.unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "index.html loads nothing from elsewhere"
    );
    let asset = entry_script(&server).await;
    let js = server.get(&asset).await.text().await.unwrap();
    for cdn in [
        "fonts.googleapis",
        "cdn.jsdelivr",
        "unpkg.com",
        "cdnjs",
        "google-analytics",
    ] {
        assert!(!js.contains(cdn), "bundle mentions {cdn}");
    }
}
