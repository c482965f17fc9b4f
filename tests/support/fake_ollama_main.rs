//! `fake_ollama --port N`: the fake Ollama of the integration tests as a process of its own, for
//! the browser tests. Port 0 takes any free port; the address is printed on stdout as
//! `listening on http://127.0.0.1:PORT` once the port is open. Runs until killed.
//! Built as a cargo example: `cargo build --example fake_ollama`.

#[path = "fake_ollama.rs"]
mod fake_ollama;

use std::io::Write;
use std::net::Ipv4Addr;
use std::process::ExitCode;

use fake_ollama::FakeOllama;

const USAGE: &str = "usage: fake_ollama --port N   (0 = any free port)";

#[tokio::main]
async fn main() -> ExitCode {
    let port = match port_from_args(std::env::args().skip(1)) {
        Ok(port) => port,
        Err(msg) => {
            eprintln!("fake_ollama: {msg}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("fake_ollama: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let server = FakeOllama::start_on(listener).await;
    // The browser tests' harness waits for this line, so it must not sit in a buffer.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "listening on {}", server.url);
    let _ = stdout.flush();
    drop(stdout);

    // Usually killed; Ctrl-C stops it cleanly too.
    let _ = tokio::signal::ctrl_c().await;
    drop(server);
    ExitCode::SUCCESS
}

/// `--port N` or `--port=N`, required.
fn port_from_args(mut args: impl Iterator<Item = String>) -> Result<u16, String> {
    let mut port = None;
    while let Some(arg) = args.next() {
        let value = match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "--port" => args.next().ok_or("--port needs a value")?,
            _ => match arg.strip_prefix("--port=") {
                Some(value) => value.to_string(),
                None => return Err(format!("unexpected argument {arg:?}")),
            },
        };
        let parsed = value.parse::<u16>();
        port = Some(parsed.map_err(|_| format!("--port {value:?} is not a port number"))?);
    }
    port.ok_or_else(|| "--port is required".to_string())
}
