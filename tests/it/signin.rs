//! Sign-in throttling that slows guessing without locking the owner out: limits per IP and per
//! account and IP, an account-wide slowdown for browsers that never signed in to the account,
//! and device cookies that exempt a known browser from it.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::{TestServer, error, json, sign_up};

const OWNER: &str = "amira@example.org";

async fn behind_a_proxy() -> TestServer {
    TestServer::start_with(|s| s.server.trusted_proxies = vec!["127.0.0.1".into()]).await
}

/// One sign-in attempt from `ip` (through the trusted proxy) with `client`'s cookies.
async fn attempt(
    server: &TestServer,
    client: &reqwest::Client,
    ip: &str,
    email: &str,
    password: &str,
) -> reqwest::Response {
    client
        .post(server.url("/api/auth/login"))
        .header("x-forwarded-for", ip)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap()
}

/// The owner's browser: signed up from home, so it holds a device cookie for the account.
async fn owners_browser(server: &TestServer) -> reqwest::Client {
    let browser = server.new_client();
    sign_up(server, &browser, OWNER, "correct horse").await;
    browser
}

async fn assert_too_many(resp: reqwest::Response) {
    let wait: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(wait > 0);
    let (title, message, _) = error(resp, 429).await;
    assert_eq!(title, "Too many attempts");
    assert!(message.starts_with("Please try again after "), "{message}");
}

#[tokio::test]
async fn an_attacker_on_one_address_never_locks_the_owner_out() {
    let server = behind_a_proxy().await;
    let owner = owners_browser(&server).await;
    let attacker = server.new_client();

    // Guesses as fast as the server answers, for a while, with the owner signing in meanwhile
    // from another address: once from the known browser and once from a new one.
    let started = Instant::now();
    let (mut guessed, mut refused) = (0, 0);
    let mut owner_results = Vec::new();
    let mut round = 0;
    while started.elapsed() < Duration::from_secs(3) || round < 60 {
        let resp = attempt(&server, &attacker, "203.0.113.9", OWNER, "guess {round}").await;
        match resp.status().as_u16() {
            401 => guessed += 1,
            429 => {
                refused += 1;
                if refused == 1 {
                    assert_too_many(resp).await;
                }
            }
            other => panic!("attacker got {other}"),
        }
        if round == 20 {
            let known = attempt(&server, &owner, "198.51.100.2", OWNER, "correct horse").await;
            owner_results.push(("known browser", known.status().as_u16()));
            let new = server.new_client();
            let fresh = attempt(&server, &new, "198.51.100.3", OWNER, "correct horse").await;
            owner_results.push(("new browser", fresh.status().as_u16()));
        }
        round += 1;
    }
    assert_eq!(
        owner_results,
        [("known browser", 200), ("new browser", 200)],
        "the owner gets in while the attacker keeps guessing"
    );
    // Designed ceiling for one address on one account: a burst of 5, then one every 3 minutes.
    let ceiling = 5 + started.elapsed().as_secs() / 180 + 1;
    assert!(
        guessed <= ceiling,
        "{guessed} guesses evaluated in {:?} (ceiling {ceiling})",
        started.elapsed()
    );
    assert!(
        refused >= round - ceiling as i32,
        "{refused} refused of {round}"
    );
}

#[tokio::test]
async fn guessing_from_many_addresses_slows_new_browsers_but_not_the_owners() {
    let server = behind_a_proxy().await;
    let owner = owners_browser(&server).await;

    // One guess from each of many addresses: the account-wide slowdown starts after 10.
    let mut statuses = Vec::new();
    for i in 0..12 {
        let bot = server.new_client();
        let resp = attempt(&server, &bot, &format!("203.0.113.{i}"), OWNER, "guess!").await;
        statuses.push(resp.status().as_u16());
    }
    assert_eq!(statuses[..10], [401; 10]);
    assert_eq!(statuses[10..], [429, 429]);

    // A browser that never signed in to the account is slowed down too, right password or not.
    let new = server.new_client();
    assert_too_many(attempt(&server, &new, "198.51.100.20", OWNER, "correct horse").await).await;
    // A forged device cookie does not help.
    let forged = reqwest::Client::new()
        .post(server.url("/api/auth/login"))
        .header("x-forwarded-for", "198.51.100.21")
        .header("cookie", "highchair_device=0123.abc.99999999999.AAAA")
        .json(&json!({"email": OWNER, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 429);
    // The owner's browser is known: in at once, from anywhere.
    json(
        attempt(&server, &owner, "198.51.100.22", OWNER, "correct horse").await,
        200,
    )
    .await;

    // The limits survive a restart; so does the owner's device cookie.
    let mut server = server.restart().await;
    server.client = owner.clone();
    let new = server.new_client();
    assert_eq!(
        attempt(&server, &new, "198.51.100.23", OWNER, "correct horse")
            .await
            .status(),
        429
    );
    json(
        attempt(&server, &owner, "198.51.100.24", OWNER, "correct horse").await,
        200,
    )
    .await;
}

#[tokio::test]
async fn one_address_guessing_many_accounts_is_limited_and_stays_limited_after_a_restart() {
    let server = behind_a_proxy().await;
    let bot = server.new_client();
    for i in 0..30 {
        let email = format!("someone{i}@example.org");
        let resp = attempt(&server, &bot, "198.51.100.7", &email, "guessing!").await;
        assert_eq!(resp.status(), 401, "attempt {i}");
    }
    assert_too_many(
        attempt(
            &server,
            &bot,
            "198.51.100.7",
            "other@example.org",
            "guessing!",
        )
        .await,
    )
    .await;
    let server = server.restart().await;
    let resp = attempt(&server, &bot, "198.51.100.7", "x@example.org", "whatever1").await;
    assert_eq!(resp.status(), 429, "the address's limit survives a restart");
    // Another address is not held by it.
    let resp = attempt(&server, &bot, "198.51.100.8", "x@example.org", "whatever1").await;
    assert_eq!(resp.status(), 401);
}

#[tokio::test]
async fn the_device_cookie_is_scoped_signed_and_kept_for_other_accounts() {
    let server = behind_a_proxy().await;
    let browser = server.new_client();
    let resp = browser
        .post(server.url("/api/auth/signup"))
        .json(&json!({
            "firstName": "Amira", "lastName": "Khan", "email": OWNER,
            "password": "correct horse", "role": "mom", "acceptTerms": true
        }))
        .send()
        .await
        .unwrap();
    let cookies: Vec<String> = resp
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .collect();
    assert_eq!(cookies.len(), 2, "{cookies:?}");
    assert!(cookies[0].starts_with("highchair_session="), "{cookies:?}");
    let device = &cookies[1];
    assert!(device.starts_with("highchair_device="), "{device}");
    for attribute in [
        "Path=/api/auth",
        "HttpOnly",
        "SameSite=Strict",
        "Max-Age=31536000",
    ] {
        assert!(device.contains(attribute), "{device}");
    }
    json(resp, 201).await;
}
