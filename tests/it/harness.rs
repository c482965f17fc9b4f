//! Boots the app in-process and talks HTTP to it; also runs the real binary for CLI tests.

use std::io::Write;
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use highchair::app::Tuning;
use highchair::{App, Settings};
use tempfile::TempDir;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// In-process tests hash passwords cheaply; the real binary (CLI tests) uses the production cost.
pub const TEST_ITERATIONS: u32 = 1_000;

/// Everything the app logged in this test process (all tests share it).
static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();

#[derive(Clone)]
struct LogSink(Arc<Mutex<Vec<u8>>>);

impl Write for LogSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn install_log_capture() -> Arc<Mutex<Vec<u8>>> {
    LOGS.get_or_init(|| {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let sink = LogSink(buffer.clone());
        // Everything the server and poem emit through `tracing`, at the most verbose level.
        // No `log` bridge: the test client's libraries log through `log` (reqwest's cookie store
        // logs every cookie it receives), and those are not the server's log lines.
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(
                "warn,highchair=trace,poem=debug",
            ))
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .finish();
        let _ = tracing::subscriber::set_global_default(subscriber);
        buffer
    })
    .clone()
}

/// The captured log text so far.
pub fn logs() -> String {
    String::from_utf8_lossy(&install_log_capture().lock().unwrap()).into_owned()
}

pub struct TestServer {
    pub url: String,
    pub app: App,
    pub client: reqwest::Client,
    dir: Option<TempDir>,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    pub async fn start() -> TestServer {
        Self::start_with(|_| {}).await
    }

    pub async fn start_with(configure: impl FnOnce(&mut Settings)) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        Self::start_in(dir, configure).await
    }

    /// Starts on an existing data directory (for restart tests).
    pub async fn start_in(dir: TempDir, configure: impl FnOnce(&mut Settings)) -> TestServer {
        Self::start_tuned(dir, configure, TEST_ITERATIONS).await
    }

    /// Starts with a given password hashing cost.
    pub async fn start_tuned(
        dir: TempDir,
        configure: impl FnOnce(&mut Settings),
        password_iterations: u32,
    ) -> TestServer {
        Self::start_with_tuning(
            dir,
            configure,
            Tuning {
                password_iterations,
                ..Tuning::default()
            },
        )
        .await
    }

    /// Starts with every knob given.
    pub async fn start_with_tuning(
        dir: TempDir,
        configure: impl FnOnce(&mut Settings),
        tuning: Tuning,
    ) -> TestServer {
        install_log_capture();
        let mut settings = Settings::default();
        settings.storage.data_dir = dir.path().join("data");
        settings.storage.cache_mb = 8;
        // Test machines can be short of disk; the low-disk guard has its own test.
        settings.limits.min_free_disk_mb = 0;
        configure(&mut settings);
        settings.validate().expect("test settings are valid");
        // After a restart, the last connection tasks of the server stopped a moment ago may
        // still hold its store for a few milliseconds: wait for them, briefly.
        let mut tries = 0;
        let app = loop {
            match App::with_tuning(settings.clone(), tuning.clone()) {
                Err(highchair::store::OpenError::InUse(_)) if tries < 100 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                opened => break opened.expect("store opens"),
            }
        };
        let listener =
            highchair::server::connections::bind("127.0.0.1:0".parse().unwrap()).expect("bind");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(highchair::serve(app.clone(), listener, async {
            let _ = rx.await;
        }));
        let client = reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap();
        let server = TestServer {
            url,
            app,
            client,
            dir: Some(dir),
            shutdown: Some(tx),
            task: Some(task),
        };
        server.wait_healthy().await;
        server
    }

    async fn wait_healthy(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let resp = self.client.get(self.url("/api/health")).send().await;
            if resp.is_ok_and(|r| r.status().is_success()) {
                return;
            }
            assert!(Instant::now() < deadline, "server did not become healthy");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.url, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.expect("GET")
    }

    /// A second browser: its own cookie jar, same server.
    pub fn new_client(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap()
    }

    pub async fn post_json(&self, path: &str, body: serde_json::Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .expect("POST")
    }

    /// Stops the server (graceful shutdown, store flushed and closed); returns the data directory.
    pub async fn stop(mut self) -> TempDir {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task").expect("server ran");
        }
        let dir = self.dir.take().expect("dir");
        drop(self);
        dir
    }

    /// Stops and starts again on the same data directory with the same settings.
    pub async fn restart(self) -> TestServer {
        let iterations = self.app.hasher().iterations();
        self.restart_tuned(iterations).await
    }

    /// Restarts with a different password hashing cost. `client` keeps its cookies, like a
    /// browser that stays open while the server restarts.
    pub async fn restart_tuned(self, password_iterations: u32) -> TestServer {
        let settings = self.app.settings().clone();
        let client = self.client.clone();
        let dir = self.stop().await;
        let mut server = Self::start_tuned(dir, move |s| *s = settings, password_iterations).await;
        server.client = client;
        server
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A signed-up parent: the cookie is in `client`'s jar.
pub async fn sign_up(
    server: &TestServer,
    client: &reqwest::Client,
    email: &str,
    password: &str,
) -> serde_json::Value {
    let resp = client
        .post(server.url("/api/auth/signup"))
        .json(&serde_json::json!({
            "firstName": "Amira", "lastName": "Khan", "email": email,
            "password": password, "role": "mom", "acceptTerms": true
        }))
        .send()
        .await
        .unwrap();
    json(resp, 201).await
}

/// A signed-in family on its own client (own cookie jar).
pub async fn family(server: &TestServer, email: &str) -> reqwest::Client {
    let client = server.new_client();
    sign_up(server, &client, email, "correct horse").await;
    client
}

/// Another browser signed in to an existing account (password "correct horse").
pub async fn sign_in(server: &TestServer, email: &str) -> reqwest::Client {
    let client = server.new_client();
    let resp = client
        .post(server.url("/api/auth/login"))
        .json(&serde_json::json!({"email": email, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    json(resp, 200).await;
    client
}

/// `PUT /api/family/settings` with this body.
pub async fn save_family_settings(
    server: &TestServer,
    client: &reqwest::Client,
    body: serde_json::Value,
) -> reqwest::Response {
    client
        .put(server.url("/api/family/settings"))
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// A family that never chose its allergen list chooses the US 9.
pub async fn choose_us_list(server: &TestServer, client: &reqwest::Client) {
    let body = serde_json::json!({"version": 0, "allergenList": "us9"});
    json(save_family_settings(server, client, body).await, 200).await;
}

/// Adds a child for `client`'s family and returns its id.
pub async fn add_child(server: &TestServer, client: &reqwest::Client, name: &str) -> String {
    let resp = client
        .post(server.url("/api/children"))
        .json(&serde_json::json!({"name": name, "age": 4, "allergies": ["Peanuts"]}))
        .send()
        .await
        .unwrap();
    json(resp, 201).await["id"].as_str().unwrap().to_string()
}

/// Uploads `bytes` as a photo; returns the response.
pub async fn upload(
    server: &TestServer,
    client: &reqwest::Client,
    path: &str,
    bytes: Vec<u8>,
    name: &str,
) -> reqwest::Response {
    let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_string());
    let form = reqwest::multipart::Form::new().part("file", part);
    let builder = if path.ends_with("/avatar") {
        client.put(server.url(path))
    } else {
        client.post(server.url(path))
    };
    builder.multipart(form).send().await.unwrap()
}

/// Records a meal; returns the created meal.
pub async fn add_meal(
    server: &TestServer,
    client: &reqwest::Client,
    body: serde_json::Value,
) -> serde_json::Value {
    let resp = client
        .post(server.url("/api/meals"))
        .json(&body)
        .send()
        .await
        .unwrap();
    json(resp, 201).await
}

/// JSON body of a response, asserting the status first.
/// The ingredients of a `GET /api/ingredients` answer, in catalogue order.
/// Why `/api/ingredients/check` marks the ingredient `name` as left out; `None` when it does not.
pub fn left_out_reason(marked: &serde_json::Value, name: &str) -> Option<String> {
    marked["leftOut"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name)
        .map(|l| l["reason"].as_str().unwrap().to_string())
}

pub fn catalogue_items(catalogue: &serde_json::Value) -> Vec<&serde_json::Value> {
    catalogue["categories"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["subcategories"].as_array().unwrap())
        .flat_map(|s| s["ingredients"].as_array().unwrap())
        .collect()
}

pub async fn json(resp: reqwest::Response, status: u16) -> serde_json::Value {
    let actual = resp.status().as_u16();
    let text = resp.text().await.unwrap_or_default();
    assert_eq!(actual, status, "unexpected status; body: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Asserts the standard error shape and returns (title, message, field).
pub async fn error(resp: reqwest::Response, status: u16) -> (String, String, Option<String>) {
    let body = json(resp, status).await;
    let title = body["title"].as_str().expect("title").to_string();
    let message = body["message"].as_str().expect("message").to_string();
    assert!(body.get("field").is_some(), "field key present: {body}");
    (title, message, body["field"].as_str().map(str::to_string))
}

/// The real binary, for CLI tests.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_highchair")
}

/// A command for the binary with a clean environment (no HIGHCHAIR_* from the developer's shell).
pub fn highchair(dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(binary());
    cmd.current_dir(dir);
    for (key, _) in std::env::vars() {
        if key.starts_with("HIGHCHAIR_") {
            cmd.env_remove(key);
        }
    }
    cmd
}

/// A port that was free a moment ago.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Polls `url` until it answers 200 or the deadline passes (blocking; for the real binary).
pub fn wait_for_http(url: &str, timeout: Duration) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if http_status(url) == Some(200) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    false
}

/// The status of a blocking GET over a raw socket (CLI tests run outside a runtime).
pub fn http_status(url: &str) -> Option<u16> {
    use std::io::Read;
    let rest = url.strip_prefix("http://")?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream = std::net::TcpStream::connect(host).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    write!(
        stream,
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf).ok()?;
    let head = String::from_utf8_lossy(&buf[..buf.len().min(12)]).into_owned();
    head.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
}

/// A `highchair serve` child that is killed if the test fails.
pub struct Running(pub std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn start_serve(dir: &std::path::Path, data: &std::path::Path) -> (Running, String) {
    let port = free_port();
    let child = highchair(dir)
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--data-dir",
        ])
        .arg(data)
        .env("HIGHCHAIR_LOG_LEVEL", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let url = format!("http://127.0.0.1:{port}");
    assert!(
        wait_for_http(&format!("{url}/api/health"), Duration::from_secs(15)),
        "server starts"
    );
    (Running(child), url)
}

pub fn sigterm(child: &std::process::Child) {
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Whom the session probe says `client` is signed in as (e-mail); `None` when signed out.
pub async fn signed_in_as(server: &TestServer, client: &reqwest::Client) -> Option<String> {
    let resp = client
        .get(server.url("/api/auth/session"))
        .send()
        .await
        .unwrap();
    let body = json(resp, 200).await;
    assert_eq!(
        body["user"].is_null(),
        body["expiresAt"].is_null(),
        "user and expiry go together: {body}"
    );
    body["user"]["email"].as_str().map(str::to_string)
}

/// The "YYYY-MM" of `n` months ago: a child's birth month for an age.
pub fn months_ago(n: u32) -> String {
    use chrono::{Datelike, Months};
    let d = chrono::Utc::now().date_naive() - Months::new(n);
    format!("{:04}-{:02}", d.year(), d.month())
}
