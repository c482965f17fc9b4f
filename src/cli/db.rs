//! `highchair db check` and `highchair db vacuum`: the database file, for the person who runs
//! the server (docs/admin.md).

use std::process::ExitCode;

use clap::Subcommand;

use super::out::say;
use super::user::{finish, require_data_dir};
use super::{EXIT_CONFIG, EXIT_DATA_DIR, EXIT_FAILURE};
use crate::admin::Failure;
use crate::config::Settings;
use crate::store::OpenError;
use crate::store::sqlite::maintenance::{self, Check, MaintenanceError};

#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Check the database (integrity, references between records, photo files) and count its
    /// rows. Safe while the server runs; exit 1 when something is wrong.
    Check,
    /// Rewrite the database without the space deleted records left (the server must be
    /// stopped). A vacuum cut off leaves the database as it was.
    Vacuum,
}

pub fn run(settings: Settings, command: DbCommand) -> ExitCode {
    let dir = &settings.storage.data_dir;
    finish(require_data_dir(&settings).and_then(|()| match command {
        DbCommand::Check => {
            let check = maintenance::check(dir).map_err(failure)?;
            report(&check);
            if check.is_ok() {
                Ok(())
            } else {
                Err(Failure::new(
                    EXIT_FAILURE,
                    "the database has problems (above). Keep the server stopped, take a copy of \
                     the data directory, and restore the newest backup that verifies \
                     (docs/admin.md).",
                ))
            }
        }
        DbCommand::Vacuum => {
            let done = maintenance::vacuum(dir).map_err(failure)?;
            say!(
                "Vacuumed {}: {} -> {}.",
                dir.join(crate::store::import_sled::DATABASE).display(),
                mib(done.bytes_before),
                mib(done.bytes_after)
            );
            Ok(())
        }
    }))
}

fn failure(e: MaintenanceError) -> Failure {
    let code = match &e {
        MaintenanceError::Open(OpenError::InUse(_)) => {
            return Failure::new(
                EXIT_DATA_DIR,
                "the server is running: stop it first (a vacuum rewrites the whole file). \
                 `highchair db check` works while it runs.",
            );
        }
        MaintenanceError::NoDatabase(_)
        | MaintenanceError::Open(_)
        | MaintenanceError::TooNew { .. } => EXIT_DATA_DIR,
        MaintenanceError::NoRoom { .. } => EXIT_CONFIG,
        _ => EXIT_FAILURE,
    };
    Failure::new(code, e.to_string())
}

fn mib(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{} KiB", bytes.div_ceil(1024))
    } else {
        format!("{:.1} MiB", bytes as f64 / 1_048_576.0)
    }
}

fn report(check: &Check) {
    say!("Schema: {}", check.schema);
    say!(
        "Size: {} ({} free inside the file; `highchair db vacuum` gives it back)",
        mib(check.bytes),
        mib(check.free_bytes)
    );
    say!("Rows:");
    let width = check.tables.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, rows) in &check.tables {
        say!("  {name:<width$}  {rows}");
    }
    if check.integrity.is_empty() {
        say!("Integrity: ok");
    } else {
        say!("Integrity: {} problem(s)", check.integrity.len());
        for line in &check.integrity {
            say!("  {line}");
        }
    }
    if check.foreign_keys.is_empty() {
        say!("References: ok");
    } else {
        say!(
            "References: {} row(s) name a record that is not there",
            check.foreign_keys.len()
        );
        for line in check.foreign_keys.iter().take(100) {
            say!("  {line}");
        }
    }
    if check.photos_missing.is_empty() {
        say!("Photo files: ok");
    } else {
        say!(
            "Photo files: {} photo(s) named by a record have lost their files",
            check.photos_missing.len()
        );
        for id in check.photos_missing.iter().take(100) {
            say!("  {id}");
        }
    }
    if check.photo_files_unnamed > 0 {
        say!(
            "  {} photo file(s) no record names (uploads cut off; harmless)",
            check.photo_files_unnamed
        );
    }
}
