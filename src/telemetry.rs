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

/// Path segments that follow these are secrets (invite and reset tokens) and are not logged.
const SECRET_AFTER: &[&str] = &["share", "reset-password", "accept", "dashboard", "join"];
const MAX_LOGGED_PATH: usize = 200;

/// The path with tokens replaced by `…` and cut to a sane length.
pub fn redact_path(path: &str) -> String {
    let mut out = Vec::new();
    let mut hide_next = false;
    for segment in path.split('/') {
        if hide_next && !segment.is_empty() {
            out.push("…");
            hide_next = false;
            continue;
        }
        hide_next = SECRET_AFTER.contains(&segment);
        out.push(segment);
    }
    let joined = out.join("/");
    if joined.chars().count() > MAX_LOGGED_PATH {
        let cut: String = joined.chars().take(MAX_LOGGED_PATH).collect();
        format!("{cut}…")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_redacted() {
        assert_eq!(
            redact_path("/api/share/abc123/children"),
            "/api/share/…/children"
        );
        assert_eq!(redact_path("/reset-password/secret"), "/reset-password/…");
        assert_eq!(redact_path("/co-parent/accept/tok"), "/co-parent/accept/…");
        assert_eq!(redact_path("/api/family/join/tok"), "/api/family/join/…");
        assert_eq!(redact_path("/join/tok"), "/join/…");
        assert_eq!(redact_path("/api/children/42"), "/api/children/42");
        assert_eq!(
            redact_path(&format!("/{}", "a".repeat(500)))
                .chars()
                .count(),
            201
        );
    }
}
