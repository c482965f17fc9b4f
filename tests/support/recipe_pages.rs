//! The recipe pages of tests/fixtures/recipe-pages served on loopback, as sites serve them, with
//! the pages a test cannot keep as files: `/huge.html` (a recipe in about 4.5 MB of page;
//! `/huge-microdata.html` the same with its recipe in microdata),
//! `/too-large.html` (6 MB), `/loop` (a redirect to itself), `/hop/N` (N redirects, then
//! `jsonld-plain.html`), `/blocked` (403, as a bot wall answers) and `/images/NAME.jpg` (a
//! picture). Used by the integration tests, the browser test (as the `recipe_pages` example)
//! and the import benchmark.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::Arc;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The corpus folder.
pub fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recipe-pages")
}

/// Every page of the corpus: its file name and text.
pub fn pages() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(folder())
        .expect("the recipe pages folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".html"))
        .map(|name| {
            let text = std::fs::read_to_string(folder().join(&name)).expect("a page");
            (name, text)
        })
        .collect();
    out.sort();
    out
}

/// A recipe at the end of about 4.5 MB of page (navigation, comments, inline data), as the
/// heaviest recipe blogs are: under the 5 MB an import reads.
pub fn huge_page() -> String {
    huge_page_of("jsonld-graph.html")
}

/// The corpus page `name` at the end of about 4.5 MB of page.
pub fn huge_page_of(name: &str) -> String {
    let recipe = std::fs::read_to_string(folder().join(name)).expect("a page");
    let mut page = String::with_capacity(4_800_000);
    page.push_str("<!DOCTYPE html><html><head><title>A very long page</title>");
    page.push_str("<script>window.__DATA__ = {\"ads\": [");
    for i in 0..20_000 {
        page.push_str(&format!("{{\"slot\": {i}, \"size\": [300, 250]}},"));
    }
    page.push_str("{}]};</script></head><body>");
    for i in 0..14_000 {
        page.push_str(&format!(
            "<div class=\"comment\" id=\"c{i}\"><p class=\"author\">Reader {i}</p>\
             <p>We made this on Sunday and the children asked for seconds. Next time I will \
             add a little more garlic and serve it with crusty bread.</p>\
             <ul class=\"actions\"><li><a href=\"#reply-{i}\">Reply</a></li></ul></div>\n"
        ));
    }
    page.push_str(&recipe);
    page.push_str("</body></html>");
    page
}

/// A small JPEG, as a site serves a recipe's picture.
pub fn picture() -> Vec<u8> {
    highchair::media::fixtures::photo_like_jpeg(640, 480)
}

/// Serves the corpus on 127.0.0.1 (any free port); the base address, without a trailing `/`.
pub async fn serve() -> String {
    serve_on(TcpListener::bind("127.0.0.1:0").await.expect("a port")).await
}

pub async fn serve_on(listener: TcpListener) -> String {
    let addr = listener.local_addr().expect("an address");
    let huge = Arc::new(huge_page());
    let huge_microdata = Arc::new(huge_page_of("microdata-only.html"));
    let picture = Arc::new(picture());
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let (huge, huge_microdata, picture) =
                (huge.clone(), huge_microdata.clone(), picture.clone());
            tokio::spawn(async move {
                let mut head = vec![0u8; 8192];
                let n = socket.read(&mut head).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&head[..n]).to_string();
                let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
                let html = "text/html; charset=utf-8";
                let (status, extra, kind, body): (&str, String, &str, Vec<u8>) = match path.as_str()
                {
                    "/huge.html" => ("200 OK", String::new(), html, huge.as_bytes().to_vec()),
                    "/huge-microdata.html" => (
                        "200 OK",
                        String::new(),
                        html,
                        huge_microdata.as_bytes().to_vec(),
                    ),
                    "/too-large.html" => {
                        let mut page = b"<html><body>".to_vec();
                        page.resize(6 << 20, b' ');
                        ("200 OK", String::new(), html, page)
                    }
                    "/loop" => ("302 Found", "Location: /loop\r\n".into(), html, Vec::new()),
                    "/blocked" => (
                        "403 Forbidden",
                        String::new(),
                        html,
                        b"Just a moment...".to_vec(),
                    ),
                    p if p.starts_with("/hop/") => match p[5..].parse::<u32>() {
                        Ok(0) => (
                            "302 Found",
                            "Location: /jsonld-plain.html\r\n".into(),
                            html,
                            Vec::new(),
                        ),
                        Ok(n) => (
                            "302 Found",
                            format!("Location: /hop/{}\r\n", n - 1),
                            html,
                            Vec::new(),
                        ),
                        Err(_) => ("404 Not Found", String::new(), html, Vec::new()),
                    },
                    p if p.starts_with("/images/") && p.ends_with(".jpg") => {
                        ("200 OK", String::new(), "image/jpeg", picture.to_vec())
                    }
                    p => {
                        let name = p.trim_start_matches('/');
                        let file = folder().join(name);
                        match std::fs::read(&file) {
                            Ok(bytes) if !name.contains("..") && name.ends_with(".html") => {
                                ("200 OK", String::new(), html, bytes)
                            }
                            _ => ("404 Not Found", String::new(), html, Vec::new()),
                        }
                    }
                };
                let reply = format!(
                    "HTTP/1.1 {status}\r\n{extra}Content-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(reply.as_bytes()).await;
                let _ = socket.write_all(&body).await;
            });
        }
    });
    format!("http://{addr}")
}

/// What a page says an import of it must give (its first line, `<!-- expect: {...} -->`).
pub fn expected(page: &str) -> serde_json::Value {
    let line = page.lines().next().unwrap_or_default();
    let json = line
        .trim()
        .strip_prefix("<!-- expect:")
        .and_then(|l| l.strip_suffix("-->"))
        .unwrap_or_else(|| panic!("a page without its expect line: {line}"));
    serde_json::from_str(json.trim()).expect("the expect line is JSON")
}
