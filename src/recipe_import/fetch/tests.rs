//! Fetches against a small server on loopback: the pages a test needs, by path.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;

/// Serves: /recipe (a page), /big (6 MB), /loop (redirects to itself), /hop/N (redirects to
/// /hop/N-1, /hop/0 is the page), /blocked (403), /gone (404), /slow (never answers).
async fn server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let mut head = vec![0u8; 4096];
                let n = socket.read(&mut head).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&head[..n]).to_string();
                let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
                let page = "<html><h1>Soup</h1></html>";
                let (status, extra, body): (&str, String, Vec<u8>) = match path.as_str() {
                    "/recipe" | "/hop/0" => {
                        let ua_ok =
                            request.contains("Mozilla/5.0") && request.contains("text/html");
                        if ua_ok {
                            ("200 OK", String::new(), page.into())
                        } else {
                            ("403 Forbidden", String::new(), Vec::new())
                        }
                    }
                    "/big" => ("200 OK", String::new(), vec![b'a'; 6 << 20]),
                    "/loop" => ("302 Found", "Location: /loop\r\n".into(), Vec::new()),
                    p if p.starts_with("/hop/") => {
                        let n: u32 = p[5..].parse().unwrap_or(0);
                        (
                            "302 Found",
                            format!("Location: /hop/{}\r\n", n - 1),
                            Vec::new(),
                        )
                    }
                    "/blocked" => ("403 Forbidden", String::new(), Vec::new()),
                    "/slow" => {
                        tokio::time::sleep(Duration::from_secs(30)).await;
                        return;
                    }
                    _ => ("404 Not Found", String::new(), Vec::new()),
                };
                let reply = format!(
                    "HTTP/1.1 {status}\r\n{extra}Content-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(reply.as_bytes()).await;
                let _ = socket.write_all(&body).await;
            });
        }
    });
    format!("http://{addr}")
}

fn local() -> Limits {
    Limits {
        allow_private: true,
        timeout: Duration::from_secs(3),
        ..Limits::default()
    }
}

#[tokio::test]
async fn a_page_comes_back_as_a_browser_would_get_it() {
    let base = server().await;
    let page = fetch(&format!("{base}/recipe"), &local()).await.unwrap();
    assert_eq!(page.html, "<html><h1>Soup</h1></html>");
    // Two redirects are followed, and the page says where it ended up.
    let page = fetch(&format!("{base}/hop/2"), &local()).await.unwrap();
    assert_eq!(page.url, format!("{base}/hop/0"));
}

#[tokio::test]
async fn the_home_network_is_refused_unless_the_admin_allows_it() {
    let base = server().await;
    let refused = fetch(&format!("{base}/recipe"), &Limits::default()).await;
    assert_eq!(refused, Err(FetchError::NotAllowed));
    for url in [
        "http://localhost:1/",
        "http://192.168.1.1/",
        "http://[::1]/",
        "http://[::ffff:10.0.0.1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/",
    ] {
        assert_eq!(
            fetch(url, &Limits::default()).await,
            Err(FetchError::NotAllowed),
            "{url}"
        );
    }
    for url in [
        "file:///etc/passwd",
        "ftp://example.org/",
        "not a url",
        "javascript:alert(1)",
    ] {
        assert_eq!(
            fetch(url, &local()).await,
            Err(FetchError::BadAddress),
            "{url}"
        );
    }
}

#[tokio::test]
async fn limits_hold_size_redirects_time_and_refusals() {
    let base = server().await;
    let get = |path: &str| fetch_local(format!("{base}{path}"));
    assert_eq!(get("/big").await, Err(FetchError::TooLarge));
    assert_eq!(get("/loop").await, Err(FetchError::TooManyRedirects));
    assert_eq!(get("/hop/6").await, Err(FetchError::TooManyRedirects));
    assert_eq!(get("/blocked").await, Err(FetchError::Blocked));
    assert_eq!(get("/gone").await, Err(FetchError::Unreachable));
    let quick = Limits {
        timeout: Duration::from_millis(300),
        ..local()
    };
    assert_eq!(
        fetch(&format!("{base}/slow"), &quick).await,
        Err(FetchError::TimedOut)
    );
}

async fn fetch_local(url: String) -> Result<Page, FetchError> {
    fetch(&url, &local()).await
}

#[test]
fn public_and_private_addresses() {
    let public = ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "1.1.1.1"];
    let private = [
        "127.0.0.1",
        "10.1.2.3",
        "172.20.0.1",
        "192.168.0.10",
        "100.100.0.1",
        "169.254.1.1",
        "0.0.0.0",
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "::",
        "fd00::1",
        "fe80::1",
        "::ffff:192.168.0.1",
        "64:ff9b::a00:1",
        "64:ff9b:1::a00:1",
        "::127.0.0.1",
        "2002:c0a8:1::1",
        "2001:0:4136:e378::1",
    ];
    for ip in public {
        assert!(is_public(ip.parse().unwrap()), "{ip}");
    }
    for ip in private {
        assert!(!is_public(ip.parse().unwrap()), "{ip}");
    }
}

#[test]
fn addresses_a_page_names_are_read_against_the_page() {
    let page = Some("https://example.org/recipes/soup");
    assert_eq!(
        resolve(page, "/img/soup.jpg").as_deref(),
        Some("https://example.org/img/soup.jpg")
    );
    assert_eq!(
        resolve(page, "//cdn.example.net/a.jpg").as_deref(),
        Some("https://cdn.example.net/a.jpg")
    );
    assert_eq!(
        resolve(None, "https://example.org/a.jpg").as_deref(),
        Some("https://example.org/a.jpg")
    );
    assert_eq!(resolve(None, "/a.jpg"), None);
    assert_eq!(resolve(page, "data:image/png;base64,AAAA"), None);
    assert_eq!(resolve(page, "javascript:alert(1)"), None);
}
