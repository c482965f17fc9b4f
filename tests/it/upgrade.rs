//! The first start of this release on a data directory the sled release wrote
//! (tests/fixtures/store-sled-release.*, made by `make_store.py --release-fixture` with that
//! binary): each family sees over HTTP what it saw before the upgrade, parents sign in with
//! their passwords, the co-parent enters with the PIN, photos come back byte for byte, health
//! names the folder the sled files were kept in, and `highchair db check` finds nothing wrong.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::harness::{TestServer, highchair, json};

fn fixture() -> Value {
    let text = std::fs::read_to_string(fixtures().join("store-sled-release.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The sled release's data directory, unpacked as `<tmp>/data` (where the harness looks).
fn sled_release_data() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let ok = std::process::Command::new("tar")
        .arg("xzf")
        .arg(fixtures().join("store-sled-release.tar.gz"))
        .arg("-C")
        .arg(dir.path())
        .status()
        .unwrap()
        .success();
    assert!(ok);
    assert!(dir.path().join("data/db").is_dir());
    dir
}

/// A child's `age` follows the calendar when it has a birth month; the rest must not change.
fn without_ages(mut children: Value) -> Value {
    for child in children.as_array_mut().unwrap() {
        child.as_object_mut().unwrap().remove("age");
    }
    children
}

/// What the sled release served of each record: fields added since (a recipe's `safetyNotes`,
/// issue 30) are new answers about the same data, not a change to it.
fn as_served_then(mut now: Value, then: &Value) -> Value {
    for (record, old) in now
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .zip(then.as_array().unwrap())
    {
        let old = old.as_object().unwrap();
        record
            .as_object_mut()
            .unwrap()
            .retain(|k, _| old.contains_key(k));
    }
    now
}

/// A co-parent's `state` follows the calendar (the link expires after 7 days), and the link
/// names the server's address (another port here).
fn without_clock(mut co_parents: Value) -> Value {
    for c in co_parents.as_array_mut().unwrap() {
        let c = c.as_object_mut().unwrap();
        c.remove("state");
        let link = c["link"].as_str().unwrap();
        let path = &link[link.find("/co-parent/").unwrap()..];
        c.insert("link".into(), path.into());
    }
    co_parents
}

/// A browser signed in with the password the sled release stored.
async fn signed_in(server: &TestServer, email: &Value, password: &Value) -> reqwest::Client {
    let client = server.new_client();
    let resp = client
        .post(server.url("/api/auth/login"))
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap();
    json(resp, 200).await;
    client
}

async fn get(server: &TestServer, client: &reqwest::Client, path: &str) -> Value {
    json(client.get(server.url(path)).send().await.unwrap(), 200).await
}

#[tokio::test]
async fn the_sled_releases_data_directory_is_served_as_it_was_after_the_upgrade() {
    let fixture = fixture();
    let server = TestServer::start_in(sled_release_data(), |_| {}).await;

    let health = json(server.get("/api/health").await, 200).await;
    assert_eq!(health["status"], "ok", "{health}");
    let kept = health["previousStore"].as_str().unwrap().to_string();
    assert!(kept.starts_with("sled-before-"), "{health}");

    let week = fixture["week"].as_str().unwrap();
    for (who, family) in [("ann", "lee"), ("ben", "okafor")] {
        let adult = &fixture["families"][family]["adults"][who];
        let client = signed_in(&server, &adult["email"], &adult["password"]).await;
        let before = &fixture["api"][who];
        // The language (issue 32) is new: none chosen yet, so the browser's.
        let mut profile = get(&server, &client, "/api/profile").await;
        assert_eq!(
            profile.as_object_mut().unwrap().remove("language"),
            Some(Value::Null)
        );
        assert_eq!(profile, before["profile"]);
        assert_eq!(get(&server, &client, "/api/family").await, before["family"]);
        // The sled release had no family settings: every family has the defaults.
        let settings = get(&server, &client, "/api/family/settings").await;
        assert_eq!(
            (settings["version"].as_u64(), &settings["allergenList"]),
            (Some(0), &serde_json::json!("uk14"))
        );
        assert_eq!(
            without_ages(get(&server, &client, "/api/children").await),
            without_ages(before["children"].clone()),
            "{who}'s children, allergies included"
        );
        let meals = get(&server, &client, "/api/meals?limit=100").await;
        assert_eq!(meals["items"], before["meals"], "{who}'s meals");
        assert_eq!(
            as_served_then(
                get(&server, &client, "/api/recipes").await,
                &before["recipes"]
            ),
            before["recipes"]
        );
        assert_eq!(
            get(&server, &client, "/api/grocery-lists").await,
            before["groceryLists"]
        );
        assert_eq!(
            without_clock(get(&server, &client, "/api/co-parents").await),
            without_clock(before["coParents"].clone())
        );
        if who == "ann" {
            let plan = get(&server, &client, &format!("/api/meal-plan?week={week}")).await;
            assert_eq!(plan, before["mealPlan"]);
        }
        // Every photo the family's meals name comes back as it was stored.
        for meal in before["meals"].as_array().unwrap() {
            let Some(url) = meal["photoUrl"].as_str() else {
                continue;
            };
            let bytes = client
                .get(server.url(url))
                .send()
                .await
                .unwrap()
                .bytes()
                .await
                .unwrap();
            let id = url.rsplit('/').next().unwrap().replace('-', "");
            let stored = fixture["dataDir"]["media"]
                .as_object()
                .unwrap()
                .iter()
                .find(|(path, _)| path.ends_with(&format!("{id}-full")))
                .map(|(_, m)| m["sha256"].as_str().unwrap().to_string())
                .unwrap();
            assert_eq!(hex::encode(Sha256::digest(&bytes)), stored, "{url}");
        }
    }

    // The co-parent's PIN carried over: with the link extended (it lasts 7 days), Rose enters.
    let co_parent = &fixture["families"]["lee"]["coParent"];
    let ann = signed_in(
        &server,
        &json!("ann@example.org"),
        &json!("correct horse battery"),
    )
    .await;
    let id = co_parent["id"].as_str().unwrap();
    let resp = ann
        .post(server.url(&format!("/api/co-parents/{id}/extend")))
        .send()
        .await
        .unwrap();
    json(resp, 200).await;
    let token = co_parent["token"].as_str().unwrap();
    let rose = server.new_client();
    let wrong = rose
        .post(server.url(&format!("/api/share/{token}/session")))
        .json(&json!({"pin": co_parent["wrongPin"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let right = rose
        .post(server.url(&format!("/api/share/{token}/session")))
        .json(&json!({"pin": co_parent["pin"]}))
        .send()
        .await
        .unwrap();
    json(right, 200).await;
    let shared = json(
        rose.get(server.url(&format!("/api/share/{token}/children")))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    assert!(
        shared.to_string().contains("Peanuts"),
        "the co-parent sees Emma's allergies: {shared}"
    );

    // Stopped: the sled files are kept aside, and the new database checks clean.
    let dir = server.stop().await;
    let data = dir.path().join("data");
    assert!(
        data.join(&kept).join("conf").is_file(),
        "sled's files, kept as they were"
    );
    assert!(!data.join("db").exists());
    let out = highchair(dir.path())
        .args(["db", "check", "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in ["Integrity: ok", "References: ok", "Photo files: ok"] {
        assert!(stdout.contains(line), "{stdout}");
    }
    assert!(stdout.contains("meals"), "{stdout}");
}

#[tokio::test]
async fn db_vacuum_waits_for_the_server_and_keeps_every_record() {
    let server = TestServer::start_in(sled_release_data(), |_| {}).await;
    let data = server.app.settings().storage.data_dir.clone();
    let refused = highchair(&data)
        .args(["db", "vacuum", "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("the server is running: stop it first"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    let dir = server.stop().await;
    let data = dir.path().join("data");
    let done = highchair(dir.path())
        .args(["db", "vacuum", "--data-dir"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(String::from_utf8_lossy(&done.stdout).starts_with("Vacuumed "));
    let server = TestServer::start_in(dir, |_| {}).await;
    let ann = signed_in(
        &server,
        &json!("ann@example.org"),
        &json!("correct horse battery"),
    )
    .await;
    let meals = get(&server, &ann, "/api/meals?limit=100").await;
    assert_eq!(meals["items"], fixture()["api"]["ann"]["meals"]);

    // Without a database there is nothing to check: a clear message, exit 3.
    let empty = tempfile::tempdir().unwrap();
    let out = highchair(empty.path())
        .args(["db", "check", "--data-dir"])
        .arg(empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("there is no database in"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
