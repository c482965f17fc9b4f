//! The language of the request being answered. The HTTP layer sets it around each request
//! (from `Accept-Language`, else the server's default); the places that turn texts into
//! answers read it, so no handler has to pass it along. Work handed to another task (a
//! generation job) takes the language with it explicitly.

use super::Lang;

tokio::task_local! {
    static LANG: Lang;
}

/// Runs `work` answering in `lang`.
pub async fn within<F: Future>(lang: Lang, work: F) -> F::Output {
    LANG.scope(lang, work).await
}

/// Runs `work` answering in `lang`, synchronously: for an answer made after its request's
/// task let go (a stream's events).
pub fn within_sync<R>(lang: Lang, work: impl FnOnce() -> R) -> R {
    LANG.sync_scope(lang, work)
}

/// The language of the request being answered; English outside any request.
pub fn current() -> Lang {
    LANG.try_with(|l| *l).unwrap_or_default()
}
