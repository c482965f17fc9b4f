//! The real binary: help, version, configuration precedence and errors, the data-dir lock,
//! graceful shutdown.

use std::process::Command;
use std::time::Duration;

use crate::harness::{free_port, highchair, http_status, sigterm, start_serve};

fn output(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version_and_help_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) = output(highchair(dir.path()).arg("--version"));
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        format!("highchair {}", env!("CARGO_PKG_VERSION"))
    );

    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["config", "--help"],
        vec!["config", "check", "--help"],
        vec!["openapi", "--help"],
    ] {
        let (code, out, _) = output(highchair(dir.path()).args(&args));
        assert_eq!(code, 0, "{args:?}");
        assert!(out.contains("Usage: highchair"), "{args:?}: {out}");
        assert!(
            out.contains("--config"),
            "{args:?} shows the global options"
        );
    }
    let (_, out, _) = output(highchair(dir.path()).arg("--help"));
    for command in ["serve", "config", "openapi"] {
        assert!(out.contains(command), "lists {command}");
    }
    let (code, _, err) = output(highchair(dir.path()).arg("frobnicate"));
    assert_eq!(code, 2);
    assert!(err.contains("unrecognized subcommand"), "{err}");
}

#[test]
fn config_check_applies_defaults_file_env_flags_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hc.toml");
    std::fs::write(
        &file,
        "[server]\nlisten = \"127.0.0.1:9000\"\n[storage]\ncache_mb = 8\n",
    )
    .unwrap();

    let (code, out, err) = output(
        highchair(dir.path())
            .args(["config", "check", "--config"])
            .arg(&file),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("Configuration OK"));
    assert!(out.contains("listen = \"127.0.0.1:9000\""), "{out}");
    assert!(out.contains("cache_mb = 8"));
    assert!(
        out.contains("session_days = 30"),
        "defaults are printed too"
    );

    let (_, out, _) = output(
        highchair(dir.path())
            .args(["config", "check", "--config"])
            .arg(&file)
            .env("HIGHCHAIR_SERVER_LISTEN", "127.0.0.1:9001")
            .env("HIGHCHAIR_STORAGE_DATA_DIR", "/srv/highchair"),
    );
    assert!(
        out.contains("listen = \"127.0.0.1:9001\""),
        "env beats file: {out}"
    );
    assert!(out.contains("data_dir = \"/srv/highchair\""));

    let (_, out, _) = output(
        highchair(dir.path())
            .args([
                "config",
                "check",
                "--listen",
                "127.0.0.1:9002",
                "--data-dir",
                "/tmp/flag",
                "--config",
            ])
            .arg(&file)
            .env("HIGHCHAIR_SERVER_LISTEN", "127.0.0.1:9001"),
    );
    assert!(
        out.contains("listen = \"127.0.0.1:9002\""),
        "flag beats env: {out}"
    );
    assert!(out.contains("data_dir = \"/tmp/flag\""));

    // HIGHCHAIR_CONFIG names the file when --config is absent.
    let (_, out, _) = output(
        highchair(dir.path())
            .args(["config", "check"])
            .env("HIGHCHAIR_CONFIG", &file),
    );
    assert!(out.contains("listen = \"127.0.0.1:9000\""));
}

#[test]
fn the_documented_example_config_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/config/highchair.toml");
    let (code, _, err) =
        output(highchair(dir.path()).args(["config", "check", "--config", example]));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn config_errors_name_the_key_exit_2_and_never_start_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[server]\nlisten = \"0.0.0.0:1\"\nlisen = 1\n",
            "`server.lisen`",
            Some("line 3"),
        ),
        (
            "[storage]\ncache_mb = \"lots\"\n",
            "`storage.cache_mb`",
            Some("line 2"),
        ),
        (
            "[limits]\n\nupload_mb = 0\n",
            "`limits.upload_mb`",
            Some("line 3"),
        ),
        (
            "[recipes]\ngenerator = \"gpt\"\n",
            "`recipes.generator`",
            Some("line 2"),
        ),
        ("[server\n", "", Some("line 1")),
    ];
    for (i, (text, key, line)) in cases.iter().enumerate() {
        let file = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&file, text).unwrap();
        let data = dir.path().join(format!("data{i}"));
        let (code, _, err) = output(
            highchair(dir.path())
                .arg("serve")
                .arg("--config")
                .arg(&file)
                .arg("--data-dir")
                .arg(&data)
                .arg("--listen")
                .arg(format!("127.0.0.1:{}", free_port())),
        );
        assert_eq!(code, 2, "{text}: {err}");
        assert!(err.contains("configuration error"), "{err}");
        assert!(err.contains(key), "{text}: names {key}: {err}");
        if let Some(line) = line {
            assert!(err.contains(line), "{text}: {line}: {err}");
        }
        assert!(!data.exists(), "the server never started");
    }

    let (code, _, err) = output(
        highchair(dir.path())
            .args(["config", "check"])
            .env("HIGHCHAIR_STORAGE_CACHE_MB", "lots"),
    );
    assert_eq!(code, 2);
    assert!(err.contains("HIGHCHAIR_STORAGE_CACHE_MB"), "{err}");
    let (code, _, err) = output(
        highchair(dir.path())
            .args(["config", "check"])
            .env("HIGHCHAIR_SERVER_LISTN", "x"),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("HIGHCHAIR_SERVER_LISTN") && err.contains("unknown setting"),
        "{err}"
    );
    let (code, _, err) =
        output(highchair(dir.path()).args(["config", "check", "--listen", "nowhere"]));
    assert_eq!(code, 2);
    assert!(err.contains("--listen"), "{err}");
    let (code, _, err) =
        output(highchair(dir.path()).args(["config", "check", "--config", "/no/such/file.toml"]));
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/file.toml"), "{err}");
}

#[test]
fn a_second_server_on_the_same_data_dir_exits_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("family-data");
    let (first, url) = start_serve(dir.path(), &data);

    let (code, _, err) = output(
        highchair(dir.path())
            .args([
                "serve",
                "--listen",
                &format!("127.0.0.1:{}", free_port()),
                "--data-dir",
            ])
            .arg(&data),
    );
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("already in use by another highchair process"),
        "{err}"
    );
    assert!(err.contains("family-data"), "names the directory: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(
        http_status(&format!("{url}/api/health")),
        Some(200),
        "first server unharmed"
    );
    drop(first);
}

#[test]
fn an_unusable_data_dir_gives_a_message_and_exit_code_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("photos");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("holiday.jpg"), b"jpeg").unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    for (data, expect) in [
        (&foreign, "is not a highchair data directory"),
        (&file, "cannot use the data directory"),
    ] {
        let (code, _, err) = output(
            highchair(dir.path())
                .args([
                    "serve",
                    "--listen",
                    &format!("127.0.0.1:{}", free_port()),
                    "--data-dir",
                ])
                .arg(data),
        );
        assert_eq!(code, 3, "{err}");
        assert!(err.contains(expect), "{err}");
        assert!(
            !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
            "{err}"
        );
    }
}

#[tokio::test]
async fn sigterm_stops_gracefully_with_exit_0_and_keeps_acknowledged_writes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, url) = start_serve(dir.path(), &data);

    let addr = url.trim_start_matches("http://");
    let body = r#"{"name":"Sam","email":"sam@example.org","message":"Written before shutdown"}"#;
    let request = format!(
        "POST /api/contact HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    std::io::Write::write_all(&mut stream, request.as_bytes()).unwrap();
    let mut response = String::new();
    std::io::Read::read_to_string(&mut stream, &mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 201"), "{response}");

    sigterm(&server.0);
    let deadline = std::time::Instant::now() + Duration::from_secs(25);
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "server stops after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(25));
    };
    assert_eq!(status.code(), Some(0));

    // The store is released and holds the message.
    let store = highchair::store::Store::open(&data, 8).expect("lock released");
    let messages = store.contact_messages.list().await.unwrap();
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].message, "Written before shutdown");
}

#[test]
fn openapi_command_prints_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) = output(highchair(dir.path()).arg("openapi"));
    assert_eq!(code, 0);
    let spec: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(spec["paths"]["/health"].is_object());
}

#[test]
fn output_read_only_in_part_ends_quietly() {
    // `highchair openapi | head -c 100`: the reader closes the pipe while the document (far
    // more than a pipe holds) is still being written.
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let mut child = highchair(dir.path())
        .arg("openapi")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut start = [0u8; 100];
    child.stdout.take().unwrap().read_exact(&mut start).unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(start.starts_with(b"{"));
    assert!(status.success(), "{status:?}: {err}");
    assert_eq!(err, "");
}

#[test]
fn an_open_data_directory_is_made_private_at_start_and_the_log_says_so() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, _) = start_serve(dir.path(), &data);
    sigterm(&server.0);
    server.0.wait().unwrap();
    // What an older version left behind: a world-readable directory and store files.
    let mut files = 0;
    for entry in walk(&data) {
        let mode = if entry.is_dir() { 0o755 } else { 0o644 };
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(mode)).unwrap();
        files += 1;
    }
    // The directory, its lock file and the database at least.
    assert!(files >= 3, "{files}");
    assert!(data.join("highchair.db").is_file());

    let (mut server, _) = start_serve(dir.path(), &data);
    sigterm(&server.0);
    server.0.wait().unwrap();
    let mut log = String::new();
    std::io::Read::read_to_string(&mut server.0.stderr.take().unwrap(), &mut log).unwrap();
    assert!(log.contains("made it private"), "{log}");
    for entry in walk(&data) {
        let mode = std::fs::symlink_metadata(&entry)
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        let want = if entry.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode, want, "{}", entry.display());
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = vec![dir.to_path_buf()];
    let mut i = 0;
    while i < found.len() {
        if found[i].is_dir() {
            let children: Vec<_> = std::fs::read_dir(&found[i])
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            found.extend(children);
        }
        i += 1;
    }
    found
}

#[test]
fn the_start_log_says_which_addresses_to_open() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut child = highchair(dir.path())
        .args([
            "serve",
            "--listen",
            &format!("0.0.0.0:{port}"),
            "--data-dir",
        ])
        .arg(dir.path().join("data"))
        .env("HIGHCHAIR_LOG_LEVEL", "info")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let up = crate::harness::wait_for_http(
        &format!("http://127.0.0.1:{port}/api/health"),
        Duration::from_secs(15),
    );
    sigterm(&child);
    let _ = child.wait();
    assert!(up, "server starts");
    let mut log = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut stderr, &mut log);
    }
    assert!(log.contains("open Highchair at"), "{log}");
    assert!(log.contains(&format!("http://localhost:{port}")), "{log}");
}

#[test]
fn health_exits_0_while_the_server_answers_and_1_when_it_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (server, url) = start_serve(dir.path(), &data);
    let listen = url.trim_start_matches("http://").to_string();

    let (code, out, err) = output(highchair(dir.path()).args(["health", "--listen", &listen]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("answered 200"), "{out}");
    // The listen address as a container sets it: 0.0.0.0 is asked on loopback.
    let port = listen.rsplit(':').next().unwrap();
    let (code, _, err) = output(
        highchair(dir.path())
            .args(["health"])
            .env("HIGHCHAIR_SERVER_LISTEN", format!("0.0.0.0:{port}")),
    );
    assert_eq!(code, 0, "{err}");
    drop(server);

    let (code, _, err) = output(highchair(dir.path()).args(["health", "--listen", &listen]));
    assert_eq!(code, 1);
    assert!(err.contains("unhealthy"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
