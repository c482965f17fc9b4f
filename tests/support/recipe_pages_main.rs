//! `recipe_pages --port N`: the recipe pages of tests/fixtures/recipe-pages served on loopback,
//! for the browser test and the import benchmark. Port 0 takes any free port; the address is
//! printed on stdout as `listening on http://127.0.0.1:PORT` once the port is open. Runs until
//! killed. Built as a cargo example: `cargo build --example recipe_pages`.

#[path = "recipe_pages.rs"]
mod recipe_pages;

use std::io::Write;
use std::net::Ipv4Addr;
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let port = match (args.next().as_deref(), args.next()) {
        (Some("--port"), Some(p)) => p.parse::<u16>().ok(),
        _ => None,
    };
    let Some(port) = port else {
        eprintln!("usage: recipe_pages --port N   (0 = any free port)");
        return ExitCode::from(2);
    };
    let listener = match tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("recipe_pages: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let url = recipe_pages::serve_on(listener).await;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "listening on {url}");
    let _ = stdout.flush();
    drop(stdout);
    let _ = tokio::signal::ctrl_c().await;
    ExitCode::SUCCESS
}
