//! Logging to stderr at the configured level. Nothing sensitive is ever passed to it.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::LogLevel;

/// The filter for a level: our own events at `level`, noisy dependencies at warn.
pub fn filter(level: LogLevel) -> EnvFilter {
    EnvFilter::new(format!(
        "{level},sled=warn,hyper=warn,hyper_util=warn,poem=warn,reqwest=warn",
        level = level.as_str()
    ))
}

/// Installs the global subscriber (once; later calls are ignored).
pub fn init(level: LogLevel) {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter(level))
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}
