//! Highchair: a self-hosted family meal planner in one binary.
//!
//! `App::new(settings)` opens the store; `serve(app, listener, shutdown)` runs the HTTP server.
//! `main.rs` only parses the command line (see `cli`).

// First: its `t!` and `t_plural!` are then in scope everywhere below.
#[macro_use]
pub mod i18n;
pub mod admin;
pub mod api;
pub mod app;
pub mod auth;
pub mod cli;
pub mod config;
pub mod domain;
pub mod events;
pub mod generator;
pub mod jobs;
pub mod media;
pub mod memory;
pub mod recipe_import;
pub mod server;
pub mod service;
pub mod store;
pub mod telemetry;
pub mod ui_assets;

pub use app::App;
pub use config::Settings;
pub use server::serve;
