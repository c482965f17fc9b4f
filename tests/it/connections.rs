//! Connections as an attacker on the internet would make them: floods of idle and half-sent
//! connections, stalled bodies, and a shutdown while clients hold connections open.

use std::io::{Read, Write};
use std::net::{IpAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::harness::{TestServer, sign_up, sigterm, start_serve};

fn connect(addr: &str) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// Reads until the server closes the connection; returns what it sent and how long it took.
fn read_until_closed(mut stream: TcpStream) -> (String, Duration) {
    let started = Instant::now();
    let mut buf = Vec::new();
    let _ = stream.read_to_end(&mut buf);
    (
        String::from_utf8_lossy(&buf).into_owned(),
        started.elapsed(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_idle_and_half_sent_connections_leaves_a_parent_served() {
    // The flood's admitted connections are held for the whole test (a minute before their head
    // times out), so the per-client cap stays full however slowly a loaded machine runs it.
    let server = TestServer::start_with(|s| s.limits.header_timeout_secs = 60).await;
    // The parent is on another address than the attacker (127.0.0.1).
    let parent = reqwest::Client::builder()
        .cookie_store(true)
        .local_address("127.0.0.2".parse::<IpAddr>().unwrap())
        .build()
        .unwrap();
    sign_up(&server, &parent, "amira@example.org", "correct horse").await;

    let addr = server.url.trim_start_matches("http://").to_string();
    let held = tokio::task::spawn_blocking(move || {
        let mut held = Vec::new();
        for i in 0..1_550 {
            let Ok(mut stream) = TcpStream::connect(&addr) else {
                continue;
            };
            if i < 50 {
                let _ =
                    stream.write_all(b"GET /api/meals HTTP/1.1\r\nHost: localhost\r\nCookie: a");
            }
            held.push(stream);
        }
        held
    })
    .await
    .unwrap();
    assert!(held.len() >= 1_500, "the attacker connected {}", held.len());

    let started = Instant::now();
    let meals = parent.get(server.url("/api/meals")).send().await.unwrap();
    assert_eq!(meals.status(), 200);
    let health = parent.get(server.url("/api/health")).send().await.unwrap();
    assert_eq!(health.status(), 200);
    // Generous: a loaded 2-core CI machine must not fail this; a parent stuck behind the
    // flood would wait for the flood's timeouts (10 s and more).
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "a parent waited {:?} behind the flood",
        started.elapsed()
    );

    // A connection over the per-client cap, opened while the flood is still held, is answered
    // (not left hanging or reset). It is opened now rather than taken from the flood: when the
    // 1,550 connects outrun the accept loop on a loaded machine, the kernel's accept queue
    // overflows and drops the handshake's last ACK of the flood's latest connections, which are
    // then accepted only at the SYN-ACK retransmits (1, 3, 7, 15, 31 s): the kernel's doing,
    // not the server's. A connection left hanging would get nothing at all, and one treated as
    // a client's would be closed at the header timeout without a 503.
    let addr = server.url.trim_start_matches("http://").to_string();
    let answer = tokio::task::spawn_blocking(move || {
        let over_cap = connect(&addr);
        over_cap
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        read_until_closed(over_cap).0
    })
    .await
    .unwrap();
    drop(held);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 5"),
        "{answer}"
    );
    assert!(answer.contains("Too many connections"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_idle_and_stalled_connections_are_closed() {
    let server = TestServer::start_with(|s| {
        s.limits.header_timeout_secs = 1;
        s.limits.body_timeout_secs = 1;
        s.limits.idle_timeout_secs = 2;
    })
    .await;
    let addr = server.url.trim_start_matches("http://").to_string();

    tokio::task::spawn_blocking(move || {
        let mut half = connect(&addr);
        half.write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n")
            .unwrap();
        let idle = connect(&addr);
        let mut stalled = connect(&addr);
        stalled
            .write_all(
                b"POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                  Content-Length: 100\r\n\r\n{\"name\":",
            )
            .unwrap();
        let mut kept_alive = connect(&addr);
        kept_alive
            .write_all(b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            .unwrap();

        let (answer, waited) = read_until_closed(half);
        assert!(
            waited < Duration::from_secs(4),
            "half-sent head held {waited:?}"
        );
        assert!(!answer.contains("200 OK"), "{answer}");

        let (answer, waited) = read_until_closed(stalled);
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("The request stopped arriving"), "{answer}");
        assert!(
            waited < Duration::from_secs(4),
            "stalled body held {waited:?}"
        );

        let (answer, waited) = read_until_closed(idle);
        assert!(answer.is_empty(), "{answer}");
        assert!(
            waited < Duration::from_secs(5),
            "idle connection held {waited:?}"
        );

        let (answer, waited) = read_until_closed(kept_alive);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(
            waited < Duration::from_secs(5),
            "kept-alive connection held {waited:?} after its response"
        );
    })
    .await
    .unwrap();
}

#[test]
fn sigterm_exits_within_seconds_whatever_clients_hold_open() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, url) = start_serve(dir.path(), &dir.path().join("data"));
    let addr = url.trim_start_matches("http://");

    let mut held = Vec::new();
    for i in 0..20 {
        let mut stream = connect(addr);
        let partial: &[u8] = match i % 3 {
            0 => b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n",
            1 => b"POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Length: 500\r\n\r\n{",
            _ => b"",
        };
        stream.write_all(partial).unwrap();
        held.push(stream);
    }
    std::thread::sleep(Duration::from_millis(200));

    let started = Instant::now();
    sigterm(&server.0);
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "still running 5 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(25));
    };
    assert_eq!(status.code(), Some(0));
    drop(held);
}

#[tokio::test]
async fn plain_text_http2_is_not_spoken() {
    // HTTP/2 without TLS would bypass the body limits and deadlines; browsers never use it.
    let server = TestServer::start().await;
    let addr = server.url.trim_start_matches("http://").to_string();
    let answer = tokio::task::spawn_blocking(move || {
        let mut stream = connect(&addr);
        stream
            .write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")
            .unwrap();
        read_until_closed(stream).0
    })
    .await
    .unwrap();
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 "),
        "{answer:?}"
    );
}
