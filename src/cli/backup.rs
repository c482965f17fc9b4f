//! `highchair backup`, `highchair backup verify` and `highchair restore`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::out::say;
use super::user::{Target, finish, permission_denied, require_data_dir, runtime, target};
use super::{EXIT_CONFIG, EXIT_DATA_DIR, EXIT_FAILURE};
use crate::admin::Failure;
use crate::admin::client::{self, Unreachable};
use crate::admin::ops;
use crate::config::Settings;
use crate::service::backups::Written;
use crate::store::backup::swap::{self, RestoreError};
use crate::store::backup::{self, Summary};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BackupArgs {
    #[command(subcommand)]
    command: Option<BackupCommand>,
    /// Write the archive to FILE instead of the backup directory ([backup] dir).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum BackupCommand {
    /// Check an archive from end to end (checksums, every record and photo) without changing
    /// anything.
    Verify { file: PathBuf },
}

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The archive to restore (made by `highchair backup`).
    file: PathBuf,
    /// Replace the data the data directory holds (it is kept in a dated folder beside).
    #[arg(long)]
    force: bool,
}

pub fn backup(settings: Settings, args: BackupArgs) -> ExitCode {
    if let Some(BackupCommand::Verify { file }) = args.command {
        return finish(verify(&file));
    }
    finish(runtime().and_then(|rt| rt.block_on(write(settings, args.out))))
}

fn verify(file: &Path) -> Result<(), Failure> {
    let summary = backup::verify_file(file)
        .map_err(|e| Failure::new(EXIT_FAILURE, format!("{}: {e}", file.display())))?;
    say!(
        "{} is a complete Highchair backup taken {}.\n{}",
        file.display(),
        summary.created_at.format("%Y-%m-%d %H:%M:%S UTC"),
        describe(&summary)
    );
    Ok(())
}

/// What an archive holds, in words.
fn describe(summary: &Summary) -> String {
    let n = |key: &str| summary.counts.get(key).copied().unwrap_or(0);
    format!(
        "Accounts {}, children {}, meals {}, photos {} ({} files), recipes {}, grocery lists {}, meal plan weeks {}, co-parents {}.\nSHA-256 of its content: {}",
        n("users"),
        n("children"),
        n("meals"),
        n("media"),
        n("media_files"),
        n("recipes"),
        n("grocery_lists"),
        n("meal_plans"),
        n("co_parents"),
        summary.sha256
    )
}

async fn write(settings: Settings, out: Option<PathBuf>) -> Result<(), Failure> {
    require_data_dir(&settings)?;
    let dir = settings.backup_dir();
    let keep = settings.backup.keep as usize;
    let target = target(settings).await?;
    let (path, bytes, summary) = match (&target, out) {
        (Target::Socket(socket), None) => {
            let stream = connect(socket).await?;
            let written: Written = client::call::<(), _>(stream, "POST", "/backups", None).await?;
            (written.path, written.bytes, written.summary)
        }
        (Target::Socket(socket), Some(out)) => {
            let stream = connect(socket).await?;
            let (partial, path) = partial_for(&out)?;
            let mut file = tokio::fs::File::create(&partial)
                .await
                .map_err(|e| cannot_write(&partial, e))?;
            let mut received = client::download(stream, "/backup", &mut file).await;
            if received.is_ok() {
                // tokio's file writes in the background: all of it must be there (and on
                // disk) before it is checked and named.
                use tokio::io::AsyncWriteExt;
                let synced = match file.flush().await {
                    Ok(()) => file.sync_all().await,
                    Err(e) => Err(e),
                };
                if let Err(e) = synced {
                    received = Err(cannot_write(&partial, e));
                }
            }
            drop(file);
            let kept = received.and_then(|bytes| {
                // What arrived is checked before it gets the name asked for.
                let summary = backup::verify_file(&partial).map_err(|e| {
                    Failure::new(
                        EXIT_FAILURE,
                        format!("the backup that arrived is not complete: {e}"),
                    )
                })?;
                Ok((bytes, summary))
            });
            let (bytes, summary) = settle(kept, &partial, &path)?;
            (path, bytes, summary)
        }
        (Target::Local(app), None) => {
            let store = app.store().clone();
            let written = tokio::task::spawn_blocking(move || {
                crate::service::backups::write_into(&store, &dir, keep)
            })
            .await
            .map_err(|e| Failure::new(EXIT_FAILURE, e.to_string()))?
            .map_err(ops::backup_failure)?;
            (written.path, written.bytes, written.summary)
        }
        (Target::Local(app), Some(out)) => {
            let (partial, path) = partial_for(&out)?;
            let store = app.store().clone();
            let to = partial.clone();
            let made = tokio::task::spawn_blocking(move || {
                crate::service::backups::write_file(&store, &to)
                    .map(|(summary, bytes)| (bytes, summary))
                    .map_err(ops::backup_failure)
            })
            .await
            .map_err(|e| Failure::new(EXIT_FAILURE, e.to_string()))?;
            let (bytes, summary) = settle(made, &partial, &path)?;
            (path, bytes, summary)
        }
    };
    say!(
        "Backup written: {} ({}), taken {}.\n{}",
        path.display(),
        size(bytes),
        summary.created_at.format("%Y-%m-%d %H:%M:%S UTC"),
        describe(&summary)
    );
    Ok(())
}

async fn connect(socket: &Path) -> Result<tokio::net::UnixStream, Failure> {
    client::connect(socket).await.map_err(|e| match e {
        Unreachable::PermissionDenied => permission_denied(socket),
        Unreachable::NotRunning => {
            Failure::new(EXIT_FAILURE, "the server stopped while this command ran")
        }
        Unreachable::Other(e) => Failure::new(EXIT_FAILURE, format!("admin socket: {e}")),
    })
}

/// The hidden partial file beside `out`, and `out` itself. Refuses to overwrite a file.
fn partial_for(out: &Path) -> Result<(PathBuf, PathBuf), Failure> {
    if out.exists() {
        return Err(Failure::new(
            EXIT_CONFIG,
            format!("{} exists already; choose a new file name", out.display()),
        ));
    }
    let name = out.file_name().ok_or_else(|| {
        Failure::new(EXIT_CONFIG, format!("{} is not a file name", out.display()))
    })?;
    let partial = out.with_file_name(format!(".{}.partial", name.to_string_lossy()));
    Ok((partial, out.to_path_buf()))
}

/// Renames a complete archive into place, or removes what was written.
fn settle<T>(result: Result<T, Failure>, partial: &Path, path: &Path) -> Result<T, Failure> {
    match result {
        Ok(value) => {
            std::fs::rename(partial, path).map_err(|e| cannot_write(path, e))?;
            Ok(value)
        }
        Err(e) => {
            let _ = std::fs::remove_file(partial);
            Err(e)
        }
    }
}

fn cannot_write(path: &Path, e: std::io::Error) -> Failure {
    Failure::new(
        EXIT_FAILURE,
        format!("cannot write {}: {e}", path.display()),
    )
}

fn size(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    }
}

pub fn restore(settings: Settings, args: RestoreArgs) -> ExitCode {
    let dir = settings.storage.data_dir.clone();
    match swap::restore(&args.file, &dir, args.force, settings.storage.cache_mb) {
        Ok(restored) => {
            say!(
                "Restored {} (taken {}) into {}.\n{}",
                args.file.display(),
                restored.summary.created_at.format("%Y-%m-%d %H:%M:%S UTC"),
                dir.display(),
                describe(&restored.summary)
            );
            if let Some(previous) = restored.previous {
                say!("The data it replaced is kept in {}.", previous.display());
            }
            say!("Start the server again; everyone signs in again (sessions are not in backups).");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("highchair: {e}");
            ExitCode::from(match e {
                RestoreError::InUse(_)
                | RestoreError::NotHighchair(_)
                | RestoreError::Io { .. } => EXIT_DATA_DIR,
                RestoreError::HasData(_) => EXIT_CONFIG,
                RestoreError::Archive(_) => EXIT_FAILURE,
            })
        }
    }
}
