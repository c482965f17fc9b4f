//! Backups and restores as the admin runs them: the real binary against a running server (its
//! admin socket) and a stopped one, archives checked end to end, restores that swap a complete
//! store in, automatic backups and what `/api/health` says about them.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{
    TestServer, add_child, add_meal, choose_us_list, family, highchair, json, sign_in,
    signed_in_as, upload,
};
use highchair::app::Tuning;
use highchair::media::fixtures::two_colour_jpeg;

/// Runs the real binary; returns (exit code, stdout, stderr).
fn run(args: &[&str], data: &Path) -> (i32, String, String) {
    let out = highchair(data.parent().unwrap())
        .args(args)
        .arg("--data-dir")
        .arg(data)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `highchair backup --out ARCHIVE` against the server of `data`, off the async threads.
async fn backup_out(archive: &Path, data: &Path) -> (i32, String, String) {
    let (archive, data) = (archive.display().to_string(), data.to_path_buf());
    tokio::task::spawn_blocking(move || run(&["backup", "--out", &archive], &data))
        .await
        .unwrap()
}

async fn get(server: &TestServer, client: &reqwest::Client, path: &str) -> Value {
    json(client.get(server.url(path)).send().await.unwrap(), 200).await
}

async fn bytes(server: &TestServer, client: &reqwest::Client, path: &str) -> Vec<u8> {
    let resp = client.get(server.url(path)).send().await.unwrap();
    assert_eq!(resp.status(), 200, "{path}");
    resp.bytes().await.unwrap().to_vec()
}

/// Every meal of the family, newest first.
async fn all_meals(server: &TestServer, client: &reqwest::Client) -> Vec<Value> {
    let mut meals = Vec::new();
    let mut path = "/api/meals?limit=100".to_string();
    loop {
        let page = get(server, client, &path).await;
        meals.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["nextCursor"].as_str() {
            Some(c) => path = format!("/api/meals?limit=100&cursor={c}"),
            None => return meals,
        }
    }
}

/// Links name the server they were read from; the two servers differ in port only.
fn without_origin(server: &TestServer, value: Value) -> Value {
    serde_json::from_str(&value.to_string().replace(&server.url(""), "")).unwrap()
}

const WEEK: &str = "2026-W48";
const CO_PARENT_PIN: &str = "482913";

/// A family with two children, photo meals, a saved recipe, a grocery list, a planned week.
async fn populate(server: &TestServer, email: &str) -> reqwest::Client {
    let parent = family(server, email).await;
    let kids = [
        add_child(server, &parent, "Ada").await,
        add_child(server, &parent, "Noor").await,
    ];
    for i in 0..4u32 {
        let photo = json(
            upload(
                server,
                &parent,
                "/api/media",
                two_colour_jpeg(40 + i, 30),
                "tea.jpg",
            )
            .await,
            201,
        )
        .await;
        add_meal(
            server,
            &parent,
            json!({"childId": kids[i as usize % 2], "mealType": "lunch",
                   "foods": [format!("Peas {i}")], "photo": photo["id"]}),
        )
        .await;
    }
    let recipe = json(
        parent
            .post(server.url("/api/recipes"))
            .json(
                &json!({"source": "own", "title": "Pasta bake", "servings": 2,
                          "ingredients": [{"name": "Pasta", "quantity": "200 g"}],
                          "instructions": ["Cook."]}),
            )
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    json(
        parent
            .post(server.url("/api/grocery-lists"))
            .json(&json!({"name": "Shop", "items": [{"name": "Milk"}, {"name": "Bread"}]}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    json(
        parent
            .put(server.url(&format!("/api/meal-plan?week={WEEK}")))
            .json(&json!({"version": 0, "entries": [
                {"date": "2026-11-24", "mealType": "dinner", "recipeId": recipe["id"],
                 "childIds": [kids[0]]}
            ]}))
            .send()
            .await
            .unwrap(),
        200,
    )
    .await;
    choose_us_list(server, &parent).await;
    parent
}

/// Writes meals one after another until told to stop; returns when each was acknowledged.
fn writer(
    server: &TestServer,
    parent: reqwest::Client,
    child: String,
    stop: Arc<AtomicBool>,
) -> tokio::task::JoinHandle<Vec<(u32, Instant, Instant)>> {
    let url = server.url("/api/meals");
    tokio::spawn(async move {
        let mut acked = Vec::new();
        let mut k = 0u32;
        while !stop.load(Ordering::SeqCst) {
            let sent = Instant::now();
            let resp = parent
                .post(&url)
                .json(&json!({"childId": child, "mealType": "snack", "foods": [format!("W{k}")]}))
                .send()
                .await
                .unwrap();
            assert_eq!(resp.status(), 201);
            acked.push((k, sent, Instant::now()));
            k += 1;
        }
        acked
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_while_parents_write_restores_every_record_and_photo_of_its_moment() {
    let server = TestServer::start().await;
    let emails = [
        "ada.mum@example.org",
        "bo.dad@example.org",
        "cy.mum@example.org",
    ];
    let mut parents = Vec::new();
    for email in emails {
        parents.push(populate(&server, email).await);
    }
    // A second adult in the first family, and a co-parent with a PIN.
    let made = get(&server, &parents[0], "/api/family").await;
    assert!(made["members"].is_array());
    let invite = json(
        parents[0]
            .post(server.url("/api/family/invites"))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let token = invite["url"].as_str().unwrap().rsplit('/').next().unwrap();
    json(
        server
            .new_client()
            .post(server.url(&format!("/api/family/join/{token}")))
            .json(
                &json!({"firstName": "Ben", "lastName": "Okafor", "email": "ben@example.org",
                          "password": "correct horse", "role": "dad", "acceptTerms": true}),
            )
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let nan = json(
        parents[0]
            .post(server.url("/api/co-parents"))
            .json(&json!({"name": "Grandma Zoë", "email": "nan@example.org"}))
            .send()
            .await
            .unwrap(),
        201,
    )
    .await;
    let link = nan["link"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    let phone = server.new_client();
    let opened = phone
        .post(server.url(&format!("/api/share/{link}/session")))
        .json(&json!({"pin": nan["pin"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(opened.status(), 200);
    let chose = phone
        .post(server.url(&format!("/api/share/{link}/pin")))
        .json(&json!({"pin": CO_PARENT_PIN, "confirmPin": CO_PARENT_PIN}))
        .send()
        .await
        .unwrap();
    assert_eq!(chose.status(), 201);

    // Parents keep writing while the backup is taken through the running server's socket.
    let stop = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    for parent in &parents {
        let child = add_child(&server, parent, "Writer").await;
        writers.push(writer(&server, parent.clone(), child, stop.clone()));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let data = server.app.store().dir().to_path_buf();
    let archive = data.parent().unwrap().join("moment.tar");
    let began = Instant::now();
    let (code, out, err) = backup_out(&archive, &data).await;
    let ended = Instant::now();
    tokio::time::sleep(Duration::from_millis(200)).await;
    stop.store(true, Ordering::SeqCst);
    let mut acked = Vec::new();
    for w in writers {
        acked.push(w.await.unwrap());
    }
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Backup written:"), "{out}");
    assert!(out.contains("Accounts 4, children 9"), "{out}");
    let (code, out, err) = run(&["backup", "verify", archive.to_str().unwrap()], &data);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("is a complete Highchair backup"), "{out}");

    // Restored into a new data directory by the real binary, served by a new server.
    let new_dir = tempfile::tempdir().unwrap();
    let new_data = new_dir.path().join("data");
    let (code, out, err) = run(&["restore", archive.to_str().unwrap()], &new_data);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("everyone signs in again"), "{out}");
    let restored = TestServer::start_in(new_dir, |_| {}).await;

    // Sessions are not restored: the old browsers are signed out there.
    assert_eq!(signed_in_as(&restored, &parents[0]).await, None);
    let old_share = phone
        .get(restored.url(&format!("/api/share/{link}/session")))
        .send()
        .await
        .unwrap();
    assert_eq!(old_share.status(), 401);

    for (i, email) in emails.iter().enumerate() {
        let before = &parents[i];
        let after = sign_in(&restored, email).await;
        for path in [
            "/api/children",
            "/api/recipes",
            "/api/grocery-lists",
            &format!("/api/meal-plan?week={WEEK}"),
            "/api/co-parents",
            "/api/profile",
            "/api/family/settings",
        ] {
            assert_eq!(
                without_origin(&server, get(&server, before, path).await),
                without_origin(&restored, get(&restored, &after, path).await),
                "{email} {path}"
            );
        }
        let old_meals = all_meals(&server, before).await;
        let new_meals = all_meals(&restored, &after).await;
        // Every meal that is not a writer's is there as it was, photos byte for byte.
        let fixed = |meals: &[Value]| -> Vec<Value> {
            meals
                .iter()
                .filter(|m| !m["foods"][0].as_str().unwrap().starts_with('W'))
                .cloned()
                .collect()
        };
        assert_eq!(fixed(&old_meals), fixed(&new_meals), "{email}");
        for meal in fixed(&new_meals) {
            for key in ["photoUrl", "thumbnailUrl"] {
                let url = meal[key].as_str().unwrap();
                assert_eq!(
                    bytes(&server, before, url).await,
                    bytes(&restored, &after, url).await,
                    "{url}"
                );
            }
        }
        // The writer's meals are one moment of its sequence: a prefix of what it wrote, holding
        // everything acknowledged before the backup began and nothing sent after it ended.
        let mut written: Vec<u32> = new_meals
            .iter()
            .filter_map(|m| m["foods"][0].as_str()?.strip_prefix('W')?.parse().ok())
            .collect();
        written.sort();
        let n = written.len() as u32;
        assert_eq!(written, (0..n).collect::<Vec<_>>(), "{email}: a prefix");
        for (k, sent, ack) in &acked[i] {
            if *ack < began {
                assert!(
                    *k < n,
                    "{email}: W{k} acknowledged before the backup is missing"
                );
            }
            if *sent > ended {
                assert!(*k >= n, "{email}: W{k} sent after the backup is in it");
            }
        }
        for m in new_meals
            .iter()
            .filter(|m| m["foods"][0].as_str().unwrap().starts_with('W'))
        {
            let old = old_meals.iter().find(|o| o["id"] == m["id"]).unwrap();
            assert_eq!(old, m);
        }
    }

    let settings = get(
        &restored,
        &sign_in(&restored, emails[0]).await,
        "/api/family/settings",
    )
    .await;
    assert_eq!(
        (settings["version"].as_u64(), &settings["allergenList"]),
        (Some(1), &json!("us9"))
    );

    // The co-parent's link and PIN work on the restored server.
    let phone = restored.new_client();
    let resp = phone
        .post(restored.url(&format!("/api/share/{link}/session")))
        .json(&json!({"pin": CO_PARENT_PIN}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let kids = get(&restored, &phone, &format!("/api/share/{link}/children")).await;
    assert_eq!(kids.as_array().unwrap().len(), 3);
    // The second adult, too.
    sign_in(&restored, "ben@example.org").await;
}

#[tokio::test]
async fn restore_refuses_a_running_server_existing_data_and_broken_archives_changing_nothing() {
    let server = TestServer::start().await;
    let parent = populate(&server, "keep@example.org").await;
    let data = server.app.store().dir().to_path_buf();
    let archive = data.parent().unwrap().join("good.tar");
    let (code, _, err) = backup_out(&archive, &data).await;
    assert_eq!(code, 0, "{err}");
    // The same name again is refused, not overwritten.
    let (code, _, err) = backup_out(&archive, &data).await;
    assert_eq!(code, 2);
    assert!(err.contains("exists already"), "{err}");

    let (code, _, err) = run(&["restore", archive.to_str().unwrap(), "--force"], &data);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("in use by a running highchair server"),
        "{err}"
    );
    assert!(err.contains("stop it first"), "{err}");
    add_child(&server, &parent, "After").await;
    let dir = server.stop().await;

    let (code, _, err) = run(&["restore", archive.to_str().unwrap()], &data);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("already holds Highchair data; add --force"),
        "{err}"
    );

    let good = std::fs::read(&archive).unwrap();
    let bad = data.parent().unwrap().join("bad.tar");
    let cut = data.parent().unwrap().join("cut.tar");
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x55;
    std::fs::write(&bad, &flipped).unwrap();
    std::fs::write(&cut, &good[..good.len() * 2 / 3]).unwrap();
    for (file, says) in [(&bad, "damaged"), (&cut, "incomplete")] {
        let (code, _, err) = run(&["backup", "verify", file.to_str().unwrap()], &data);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(says), "{err}");
        let (code, _, err) = run(&["restore", file.to_str().unwrap(), "--force"], &data);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
    // Nothing changed: the child added after the backup is still there, no folder was left.
    let leftovers: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("restore"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let server = TestServer::start_in(dir, |_| {}).await;
    let parent = sign_in(&server, "keep@example.org").await;
    let names: Vec<String> = get(&server, &parent, "/api/children")
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"After".to_string()), "{names:?}");
    let dir = server.stop().await;

    // With --force, the backup replaces the data; the replaced data is kept, dated.
    let (code, out, err) = run(&["restore", archive.to_str().unwrap(), "--force"], &data);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("The data it replaced is kept in"), "{out}");
    let kept: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("before-restore-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(data.join(&kept[0]).join("highchair.db").is_file());
    let server = TestServer::start_in(dir, |_| {}).await;
    let parent = sign_in(&server, "keep@example.org").await;
    let children = get(&server, &parent, "/api/children").await;
    assert_eq!(children.as_array().unwrap().len(), 2, "as at the backup");
}

#[tokio::test]
async fn a_stopped_server_is_backed_up_into_its_backup_directory_and_pruned() {
    let server = TestServer::start().await;
    populate(&server, "offline@example.org").await;
    let data = server.app.store().dir().to_path_buf();
    let _dir = server.stop().await;
    let backups = data.join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    for old in [
        "highchair-20200101T000000Z.tar",
        "highchair-20200102T000000Z.tar",
    ] {
        std::fs::write(backups.join(old), b"old").unwrap();
    }
    std::fs::write(backups.join("notes.txt"), b"mine").unwrap();
    let mut cmd = highchair(data.parent().unwrap());
    let out = cmd
        .args(["backup", "--data-dir"])
        .arg(&data)
        .env("HIGHCHAIR_BACKUP_KEEP", "2")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("Backup written:"), "{text}");
    let mut names: Vec<String> = std::fs::read_dir(&backups)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names[0], "highchair-20200102T000000Z.tar");
    assert!(names[1].starts_with("highchair-20") && names[1] != names[0]);
    assert_eq!(names[2], "notes.txt");
    let (code, out, err) = run(
        &[
            "backup",
            "verify",
            backups.join(&names[1]).to_str().unwrap(),
        ],
        &data,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("children 2, meals 4, photos 4 (12 files)"),
        "{out}"
    );
}

fn soon() -> Tuning {
    Tuning {
        password_iterations: crate::harness::TEST_ITERATIONS,
        first_backup_after: Duration::ZERO,
    }
}

async fn health(server: &TestServer) -> Value {
    json(server.get("/api/health").await, 200).await
}

async fn wait_for_backup(server: &TestServer, state: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let h = health(server).await;
        if h["backup"] == state || Instant::now() > deadline {
            return h;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn automatic_backups_are_written_pruned_and_reported_by_health() {
    let dir = tempfile::tempdir().unwrap();
    let backups = dir.path().join("elsewhere");
    std::fs::create_dir_all(&backups).unwrap();
    for old in [
        "highchair-20200101T000000Z.tar",
        "highchair-20200102T000000Z.tar",
    ] {
        std::fs::write(backups.join(old), b"old").unwrap();
    }
    let to = backups.clone();
    let server = TestServer::start_with_tuning(
        dir,
        move |s| {
            s.backup.dir = to;
            s.backup.keep = 2;
        },
        soon(),
    )
    .await;
    let h = wait_for_backup(&server, "ok").await;
    assert_eq!(h["backup"], "ok", "{h}");
    assert_eq!(h["status"], "ok");
    assert!(h["lastBackupAt"].is_string(), "{h}");
    let names: Vec<String> = std::fs::read_dir(&backups)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(!names.contains(&"highchair-20200101T000000Z.tar".to_string()));
    assert!(names.iter().all(|n| !n.ends_with(".partial")));
}

#[tokio::test]
async fn a_failing_automatic_backup_shows_in_health() {
    let dir = tempfile::tempdir().unwrap();
    let blocked = dir.path().join("a-file");
    std::fs::write(&blocked, b"not a directory").unwrap();
    let to = blocked.join("backups");
    let server = TestServer::start_with_tuning(dir, move |s| s.backup.dir = to, soon()).await;
    let h = wait_for_backup(&server, "failed").await;
    assert_eq!(h["backup"], "failed", "{h}");
    assert_eq!(h["status"], "degraded");
    assert!(
        !h.to_string().contains("a-file"),
        "no paths on the network: {h}"
    );
}

#[tokio::test]
async fn a_server_without_backups_yet_says_none_and_off_when_turned_off() {
    let server = TestServer::start().await;
    assert_eq!(health(&server).await["backup"], "none");
    let off = TestServer::start_with(|s| s.backup.interval_hours = 0).await;
    assert_eq!(health(&off).await["backup"], "off");
}

#[test]
fn a_store_that_cannot_be_opened_names_the_newest_backup_to_restore() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // A store with one backup.
    let (code, _, err) = run(&["user", "list"], &data);
    assert_eq!(code, 3, "{err}");
    let (code, _, err) = run(&["backup"], &data);
    assert_eq!(code, 3, "no data yet: {err}");
    std::fs::create_dir_all(&data).unwrap();
    drop(highchair::store::Store::open(&data, 4).unwrap());
    let (code, out, err) = run(&["backup"], &data);
    assert_eq!(code, 0, "{err}");
    let newest = out
        .lines()
        .find_map(|l| l.strip_prefix("Backup written: "))
        .unwrap()
        .split(" (")
        .next()
        .unwrap()
        .to_string();
    // Then the database is damaged.
    for extra in ["highchair.db-wal", "highchair.db-shm"] {
        let _ = std::fs::remove_file(data.join(extra));
    }
    std::fs::write(data.join("highchair.db"), vec![0xA5; 4096]).unwrap();
    let (code, _, err) = run(&["serve", "--listen", "127.0.0.1:0"], &data);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains(&format!("highchair restore {newest} --force")),
        "{err}"
    );
    // And the advice works.
    let (code, out, err) = run(&["restore", &newest, "--force"], &data);
    assert_eq!(code, 0, "{out}{err}");
    drop(highchair::store::Store::open(&data, 4).expect("opens after the restore"));
}
