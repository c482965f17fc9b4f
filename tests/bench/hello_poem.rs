//! The baseline for the health throughput benchmark: the smallest poem server there is.
//! Built as a cargo example: `cargo build --release --example hello_poem`.

use poem::{Route, Server, get, handler, listener::TcpListener};

#[handler]
fn hello() -> &'static str {
    "hello"
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18181".into());
    Server::new(TcpListener::bind(addr))
        .run(Route::new().at("/", get(hello)))
        .await
}
