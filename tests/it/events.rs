//! `GET /api/events`: the family's change feed over Server-Sent Events.

use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{TestServer, add_child, family, json, sign_in};

/// One parsed SSE event.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: String,
    pub id: Option<u64>,
    pub data: Value,
}

/// Reads events from a streaming response.
pub struct Stream {
    resp: reqwest::Response,
    buf: String,
}

impl Stream {
    pub async fn open(server: &TestServer, client: &reqwest::Client, last: Option<u64>) -> Stream {
        Stream::open_at(server, client, "/api/events", last).await
    }

    /// A stream of another feed (a co-parent's, under their link).
    pub async fn open_at(
        server: &TestServer,
        client: &reqwest::Client,
        path: &str,
        last: Option<u64>,
    ) -> Stream {
        let mut req = client.get(server.url(path));
        if let Some(last) = last {
            req = req.header("Last-Event-ID", last.to_string());
        }
        let resp = req.send().await.unwrap();
        assert_eq!(resp.status(), 200);
        assert!(
            resp.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream")
        );
        Stream {
            resp,
            buf: String::new(),
        }
    }

    /// The next event within `wait`; `None` on timeout. Panics if the stream ended.
    async fn next(&mut self, wait: Duration) -> Option<Event> {
        match self.next_or_end(wait).await {
            Ok(e) => e,
            Err(()) => panic!("the stream ended"),
        }
    }

    /// `Err(())` when the server ended the stream.
    async fn next_or_end(&mut self, wait: Duration) -> Result<Option<Event>, ()> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                if let Some(event) = parse(&block) {
                    return Ok(Some(event));
                }
                continue; // a keep-alive comment
            }
            match tokio::time::timeout_at(deadline, self.resp.chunk()).await {
                Err(_) => return Ok(None),
                Ok(Ok(Some(bytes))) => self.buf.push_str(&String::from_utf8_lossy(&bytes)),
                Ok(Ok(None)) | Ok(Err(_)) => return Err(()),
            }
        }
    }

    /// Reads until the server ends the stream (within `wait`), skipping events.
    pub async fn ends(&mut self, wait: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match self.next_or_end(left).await {
                Err(()) => return true,
                Ok(None) => return false,
                Ok(Some(_)) => {}
            }
        }
    }

    /// The next event that is not `ready`.
    pub async fn change(&mut self) -> Event {
        loop {
            let e = self
                .next(Duration::from_secs(3))
                .await
                .expect("an event within 3 s");
            if e.name != "ready" {
                return e;
            }
        }
    }
}

fn parse(block: &str) -> Option<Event> {
    let (mut name, mut id, mut data) = (String::from("message"), None, String::new());
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("event:") {
            name = v.trim().to_string();
        } else if let Some(v) = line.strip_prefix("id:") {
            id = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("data:") {
            data.push_str(v.trim());
        }
    }
    if data.is_empty() {
        return None;
    }
    Some(Event {
        name,
        id,
        data: serde_json::from_str(&data).ok()?,
    })
}

#[tokio::test]
async fn changes_arrive_in_order_and_only_to_their_family() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let other = family(&server, "other@example.org").await;
    let mut mine = Stream::open(&server, &mum, None).await;
    let mut theirs = Stream::open(&server, &other, None).await;
    let ready = mine.next(Duration::from_secs(3)).await.unwrap();
    assert_eq!(ready.name, "ready");
    let start = ready.id.unwrap();

    let child = add_child(&server, &mum, "Emma").await;
    let meal = json(
        mum.post(server.url("/api/meals"))
            .json(&json!({"childId": child, "mealType": "Lunch", "foods": ["Pasta"]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    json(
        mum.put(server.url(&format!("/api/children/{child}")))
            .json(&json!({"name": "Emma Rose", "version": 1}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;

    let got = [
        mine.change().await,
        mine.change().await,
        mine.change().await,
    ];
    let seen: Vec<(String, String, String)> = got
        .iter()
        .map(|e| {
            (
                e.name.clone(),
                e.data["kind"].as_str().unwrap().to_string(),
                e.data["id"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let meal_id = meal["id"].as_str().unwrap().to_string();
    assert_eq!(
        seen,
        [
            ("change".into(), "child".into(), child.clone()),
            ("change".into(), "meal".into(), meal_id),
            ("change".into(), "child".into(), child.clone()),
        ]
    );
    let ids: Vec<u64> = got.iter().map(|e| e.id.unwrap()).collect();
    assert_eq!(ids, [start + 1, start + 2, start + 3], "id is the revision");
    assert_eq!(got[2].data["revision"], json!(start + 3));

    // The other family hears nothing of it.
    let first = theirs.next(Duration::from_secs(3)).await.unwrap();
    assert_eq!(first.name, "ready");
    assert!(theirs.next(Duration::from_millis(500)).await.is_none());
}

#[tokio::test]
async fn last_event_id_replays_what_was_missed_or_asks_for_a_resync() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let family_id = server
        .app
        .store()
        .users
        .get_by_email(&highchair::domain::email::Email::parse("mum@example.org").unwrap())
        .await
        .unwrap()
        .unwrap()
        .family_id;
    let revision = || server.app.store().revision(family_id);
    let child = add_child(&server, &mum, "Emma").await;
    let seen = revision();

    // Nobody listened while this happened: nothing was kept, so resuming means reloading.
    add_child(&server, &mum, "Noah").await;
    let now = revision();
    assert_eq!(now, seen + 1);
    let mut late = Stream::open(&server, &mum, Some(seen)).await;
    let e = late.next(Duration::from_secs(3)).await.unwrap();
    assert_eq!(e.name, "resync");
    assert_eq!((e.id, e.data["revision"].clone()), (Some(now), json!(now)));
    let from_the_future = Stream::open(&server, &mum, Some(99))
        .await
        .next(Duration::from_secs(3))
        .await
        .unwrap();
    assert_eq!(from_the_future.name, "resync");

    // While a tab listens, the family's recent changes are kept: a reconnecting tab gets
    // exactly what it missed.
    let dad = sign_in(&server, "mum@example.org").await;
    for name in ["Emma A", "Emma B"] {
        let current = json(
            mum.get(server.url(&format!("/api/children/{child}")))
                .send()
                .await
                .unwrap(),
            200,
        )
        .await;
        json(
            mum.put(server.url(&format!("/api/children/{child}")))
                .json(&json!({"name": name, "version": current["version"]}))
                .send()
                .await
                .unwrap(),
            200,
        )
        .await;
    }
    let mut again = Stream::open(&server, &dad, Some(now)).await;
    let (a, b) = (again.change().await, again.change().await);
    assert_eq!((a.id, b.id), (Some(now + 1), Some(now + 2)));
    assert_eq!(a.name, "change");
    assert!(
        again.next(Duration::from_millis(300)).await.is_none(),
        "nothing twice"
    );
    drop(late);
}

#[tokio::test]
async fn the_stream_ends_when_its_session_ends() {
    let server = TestServer::start().await;
    let mum = family(&server, "mum@example.org").await;
    let mut stream = Stream::open(&server, &mum, None).await;
    assert_eq!(
        stream.next(Duration::from_secs(3)).await.unwrap().name,
        "ready"
    );
    let other_tab = sign_in(&server, "mum@example.org").await;
    let mut other = Stream::open(&server, &other_tab, None).await;
    other.next(Duration::from_secs(3)).await.unwrap();

    let resp = mum
        .post(server.url("/api/auth/logout"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    assert!(
        stream.ends(Duration::from_secs(3)).await,
        "the signed-out tab's stream ends"
    );
    assert_eq!(
        other.next_or_end(Duration::from_millis(300)).await,
        Ok(None),
        "another session's stream goes on"
    );

    // A password reset ends every session, and their streams.
    let link = highchair::service::accounts::create_reset_link(
        &server.app,
        &highchair::domain::email::Email::parse("mum@example.org").unwrap(),
    )
    .await
    .unwrap();
    let token = link.rsplit('/').next().unwrap();
    let resp = server
        .new_client()
        .post(server.url(&format!("/api/auth/reset-password/{token}")))
        .json(&json!({"password": "a new password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(
        other.ends(Duration::from_secs(3)).await,
        "reset ends every stream"
    );
    assert_eq!(
        other_tab
            .get(server.url("/api/events"))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
}

#[tokio::test]
async fn signed_out_is_refused_and_a_new_stream_closes_the_oldest_of_its_session() {
    let server = TestServer::start().await;
    let resp = server.get("/api/events").await;
    assert_eq!(resp.status(), 401);
    let mum = family(&server, "mum@example.org").await;
    let mut open = Vec::new();
    for _ in 0..highchair::events::STREAMS_PER_SESSION {
        let mut s = Stream::open(&server, &mum, None).await;
        s.next(Duration::from_secs(3)).await.unwrap();
        open.push(s);
    }
    // A reload (a fifth stream) is never refused; the oldest stream is closed instead.
    let mut fifth = Stream::open(&server, &mum, None).await;
    assert_eq!(
        fifth.next(Duration::from_secs(3)).await.unwrap().name,
        "ready"
    );
    let last = open[0].next(Duration::from_secs(3)).await.unwrap();
    assert_eq!(last.name, "superseded", "told not to reconnect");
    assert!(open[0].next_or_end(Duration::from_secs(3)).await.is_err());
    assert_eq!(
        open[1].next_or_end(Duration::from_millis(200)).await,
        Ok(None)
    );
}
