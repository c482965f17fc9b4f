//! The command line. `main.rs` calls `run`; each command group has its own file.
//!
//! Exit codes: 0 success, 1 failure, 2 bad configuration, usage or input, 3 data directory
//! unusable or in use, 4 unknown account, 5 no permission to use the admin socket, 6 another
//! backup is being written.

mod backup;
mod config;
mod db;
mod health;
mod openapi;
mod out;
mod serve;
mod user;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::config::{Overrides, Settings, Sources};

pub const EXIT_FAILURE: u8 = 1;
pub const EXIT_CONFIG: u8 = 2;
pub const EXIT_DATA_DIR: u8 = 3;

#[derive(Debug, Parser)]
#[command(
    name = "highchair",
    version,
    about = "Highchair: a self-hosted family meal planner in one binary.",
    long_about = "Highchair keeps child profiles, a meal log with photos, recipes and grocery \
lists for one family, on your own server. Settings come from defaults, then a TOML file \
(--config), then HIGHCHAIR_<SECTION>_<KEY> environment variables, then these flags.",
    after_help = "Exit codes: 0 success, 1 failure, 2 bad configuration, usage or input, 3 data directory \
unusable or in use, 4 unknown account, 5 no permission to use the admin socket, 6 another backup is \
being written."
)]
pub struct Cli {
    /// TOML configuration file (see config/highchair.toml). Also HIGHCHAIR_CONFIG.
    #[arg(long, global = true, value_name = "PATH")]
    config: Option<PathBuf>,
    /// Address and port to listen on, e.g. 127.0.0.1:8080 (overrides server.listen).
    #[arg(long, global = true, value_name = "ADDR")]
    listen: Option<String>,
    /// Data directory (overrides storage.data_dir).
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the server: API, web interface and background jobs.
    Serve,
    /// Work with configuration files.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Manage accounts (works while the server runs, through its admin socket).
    User {
        #[command(subcommand)]
        command: user::UserCommand,
    },
    /// Show messages sent with the contact form.
    Messages,
    /// Write a backup of every record and photo (works while the server runs, without
    /// stopping it); `backup verify FILE` checks one.
    Backup(backup::BackupArgs),
    /// Restore a backup into the data directory (the server must be stopped). The current
    /// data is kept in a dated folder.
    Restore(backup::RestoreArgs),
    /// Check the database or give back the space deleted records left (see docs/admin.md).
    Db {
        #[command(subcommand)]
        command: db::DbCommand,
    },
    /// Print the OpenAPI document of the HTTP API (also served at /api/openapi.json).
    Openapi {
        /// Print instead the rules the UI's forms check (ui/src/api/rules.json; also in
        /// /api/site).
        #[arg(long)]
        rules: bool,
    },
    /// Ask the running server whether it is healthy (exit 0 when /api/health answers 200):
    /// the container image's health check.
    Health,
}

#[derive(Debug, Subcommand)]
enum ConfigCommand {
    /// Validate the configuration and print the effective settings.
    Check,
}

/// Parses the command line and runs the command.
pub fn run() -> ExitCode {
    install_panic_hook();
    crate::memory::tune_allocator();
    // Everything the program creates (store files, the admin socket, exports) is private.
    crate::store::private_umask();
    let cli = Cli::parse();
    let overrides = Overrides {
        listen: cli.listen.clone(),
        data_dir: cli.data_dir.clone(),
    };
    let sources = Sources::from_process(cli.config.clone(), overrides);
    match cli.command {
        Command::Openapi { rules } => openapi::run(rules),
        Command::Config {
            command: ConfigCommand::Check,
        } => config::check(&sources),
        Command::Serve => match load(&sources) {
            Ok(settings) => serve::run(settings),
            Err(code) => code,
        },
        Command::User { command } => match load(&sources) {
            Ok(settings) => user::run(settings, command),
            Err(code) => code,
        },
        Command::Backup(args) => match load(&sources) {
            Ok(settings) => backup::backup(settings, args),
            Err(code) => code,
        },
        Command::Restore(args) => match load(&sources) {
            Ok(settings) => backup::restore(settings, args),
            Err(code) => code,
        },
        Command::Health => match load(&sources) {
            Ok(settings) => health::run(settings),
            Err(code) => code,
        },
        Command::Db { command } => match load(&sources) {
            Ok(settings) => db::run(settings, command),
            Err(code) => code,
        },
        Command::Messages => match load(&sources) {
            Ok(settings) => user::messages(settings),
            Err(code) => code,
        },
    }
}

/// Loads settings, printing the problem and returning exit code 2 when they are invalid.
fn load(sources: &Sources) -> Result<Settings, ExitCode> {
    Settings::load(sources).map_err(|err| {
        eprintln!("highchair: configuration error: {err}");
        ExitCode::from(EXIT_CONFIG)
    })
}

/// A short message instead of a backtrace if something unexpected panics.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown error".into());
        let location = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("highchair: internal error: {message}{location}");
    }));
}
