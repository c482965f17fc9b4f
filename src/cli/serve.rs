//! `highchair serve`.

use std::process::ExitCode;

use super::{EXIT_DATA_DIR, EXIT_FAILURE};
use crate::app::App;
use crate::config::Settings;

pub fn run(settings: Settings) -> ExitCode {
    crate::telemetry::init(settings.log.level);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("highchair: cannot start the async runtime: {e}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let listen = settings.server.listen;
    let backups = settings.backup_dir();
    let app = match App::new(settings) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("highchair: {e}");
            if let crate::store::OpenError::Unusable { dir, .. } = &e {
                eprintln!("{}", restore_hint(dir, &backups));
            }
            return ExitCode::from(EXIT_DATA_DIR);
        }
    };
    let listener = match crate::server::connections::bind(listen) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("highchair: cannot listen on {listen}: {e}");
            return ExitCode::from(EXIT_FAILURE);
        }
    };
    let result = runtime.block_on(crate::serve(app, listener, shutdown_signal()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("highchair: server error: {e}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// What to do when the store cannot be opened: restore the newest automatic backup.
fn restore_hint(data_dir: &std::path::Path, backups: &std::path::Path) -> String {
    match crate::service::backups::newest(backups) {
        Some(newest) => format!(
            "The newest automatic backup is {newest}. To restore it (the data now in {dir} is kept \
             in a dated folder beside it):\n  highchair restore {newest} --force\nwith the same \
             --config or --data-dir as this command, then start the server again.",
            newest = newest.display(),
            dir = data_dir.display(),
        ),
        None => format!(
            "No automatic backup was found in {}. If you keep backups elsewhere, restore the newest \
             with `highchair restore FILE --force`.",
            backups.display()
        ),
    }
}

/// Completes on SIGTERM or Ctrl-C.
async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let ctrl_c = tokio::signal::ctrl_c();
    match signal(SignalKind::terminate()) {
        Ok(mut term) => {
            tokio::select! {
                _ = ctrl_c => {},
                _ = term.recv() => {},
            }
        }
        Err(_) => {
            let _ = ctrl_c.await;
        }
    }
    tracing::info!("shutting down: finishing requests");
}
