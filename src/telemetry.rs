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

/// The path with tokens replaced by `…` and cut to a sane length. A segment after one of
/// `SECRET_AFTER` is hidden, read percent-decoded and past empty and `.` segments
/// (`/api/%73hare//<token>`), and so is any segment that looks like a token wherever it is: a
/// random (version 4) UUID, or a long run of token characters that is no record id.
pub fn redact_path(path: &str) -> String {
    let mut out = Vec::new();
    let mut hide_next = false;
    for segment in path.split('/') {
        let decoded = percent_encoding::percent_decode_str(segment)
            .decode_utf8_lossy()
            .to_lowercase();
        let filler = decoded.is_empty() || decoded == ".";
        if (hide_next && !filler) || looks_like_token(&decoded) {
            out.push("…");
            hide_next = false;
            continue;
        }
        if !filler {
            hide_next = SECRET_AFTER.contains(&decoded.as_str());
        }
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

/// A link's token (a random UUID) or a session or reset token (32 random bytes, base64url);
/// record ids are time-ordered (version 7) UUIDs and stay readable.
fn looks_like_token(segment: &str) -> bool {
    if let Ok(id) = uuid::Uuid::parse_str(segment) {
        return id.get_version_num() != 7;
    }
    // No route has a segment this long.
    segment.len() >= 20
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
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
        // Issue 26: malformed share paths logged the token in clear.
        let token = "3f0c2a5e-8b1d-4c7e-9a2b-6d5e4f3a2b1c";
        for path in [
            format!("/api/share//{token}"),
            format!("/api/%73hare/{token}/children"),
            format!("/api/share/./{token}"),
            format!("/api/SHARE/{}", token.to_uppercase()),
            format!("/anything/{token}"),
            "/api/share/%33f0c2a5e-8b1d-4c7e-9a2b-6d5e4f3a2b1c".to_string(),
            "/reset-password//Qm9vbS1zZWNyZXQtdG9rZW4tMTIzNDU2Nzg5MA".to_string(),
        ] {
            let logged = redact_path(&path);
            assert!(
                !logged.to_lowercase().contains("3f0c2a5e") && !logged.contains("Qm9vbS1zZWNyZXQ"),
                "{path} -> {logged}"
            );
        }
        // Record ids (version 7 UUIDs) and words stay readable.
        let meal = "/api/meals/019abc12-3456-7def-8123-456789abcdef";
        assert_eq!(redact_path(meal), meal);
        assert_eq!(
            redact_path("/api/grocery-lists/from-recipes"),
            "/api/grocery-lists/from-recipes"
        );
        assert_eq!(
            redact_path(&"/no-such-page".repeat(50)).chars().count(),
            201
        );
    }
}
