//! The admin API on the Unix socket: plain JSON routes for the operations in `ops`.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{Endpoint, EndpointExt, IntoResponse, Response, Route, get, handler, post};
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;

use super::Failure;
use super::ops::{self, AddUser, EXIT_BUSY, EXIT_INVALID, EXIT_NOT_FOUND, EmailRequest};
use crate::app::App;
use crate::store::backup::BackupError;
use futures_util::StreamExt;

fn reply<T: Serialize + Send>(result: Result<T, Failure>) -> Response {
    match result {
        Ok(value) => Json(value).into_response(),
        Err(failure) => {
            let status = match failure.exit_code {
                EXIT_NOT_FOUND => StatusCode::NOT_FOUND,
                EXIT_INVALID => StatusCode::BAD_REQUEST,
                EXIT_BUSY => StatusCode::CONFLICT,
                _ => StatusCode::INTERNAL_SERVER_ERROR,
            };
            Json(failure).with_status(status).into_response()
        }
    }
}

#[handler]
async fn list_users(app: Data<&App>) -> Response {
    reply(ops::list_users(&app).await)
}

#[handler]
async fn add_user(app: Data<&App>, body: Json<AddUser>) -> Response {
    reply(ops::add_user(&app, body.0).await)
}

#[handler]
async fn reset_password(app: Data<&App>, body: Json<EmailRequest>) -> Response {
    reply(ops::reset_password(&app, &body.email).await)
}

#[handler]
async fn promote(app: Data<&App>, body: Json<EmailRequest>) -> Response {
    reply(ops::promote(&app, &body.email).await)
}

#[handler]
async fn delete_user(app: Data<&App>, body: Json<EmailRequest>) -> Response {
    reply(ops::delete_user(&app, &body.email).await)
}

#[handler]
async fn purge_guests(app: Data<&App>) -> Response {
    reply(ops::purge_guests(&app).await)
}

#[handler]
async fn list_messages(app: Data<&App>) -> Response {
    reply(ops::list_messages(&app).await)
}

#[handler]
async fn backup_now(app: Data<&App>) -> Response {
    reply(ops::backup_now(&app).await)
}

/// Streams a backup of this moment (for `highchair backup --out FILE`). A backup that cannot
/// start answers with its reason; one that fails midway cuts the stream, which the CLI finds
/// when it verifies what it received.
#[handler]
async fn stream_backup(app: Data<&App>) -> Response {
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Result<bytes::Bytes, String>>(4);
    let store = app.store().clone();
    tokio::task::spawn_blocking(move || {
        let out = ChannelWriter {
            tx: tx.clone(),
            buf: Vec::with_capacity(CHUNK),
        };
        let done = store.backup(out).and_then(|(_, mut w)| {
            std::io::Write::flush(&mut w).map_err(|e| BackupError::Io(e.to_string()))
        });
        if let Err(e) = done {
            tracing::error!(error = %e, "a streamed backup failed");
            let _ = tx.blocking_send(Err(e.to_string()));
        }
    });
    // The first chunk says whether the backup started at all.
    let first = match rx.recv().await {
        Some(Ok(chunk)) => chunk,
        Some(Err(message)) => {
            return reply::<()>(Err(Failure::new(
                ops::EXIT_FAILURE,
                format!("the backup failed: {message}"),
            )));
        }
        None => bytes::Bytes::new(),
    };
    let rest = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|item| (item.map_err(std::io::Error::other), rx))
    });
    let stream = futures_util::stream::once(async move { Ok(first) }).chain(rest);
    Response::builder()
        .content_type("application/x-tar")
        .body(poem::Body::from_bytes_stream(stream))
}

/// Bytes per chunk sent to the CLI.
const CHUNK: usize = 256 << 10;

/// Sends what the archive writer writes to the response, in chunks. A client that went away
/// makes the write fail, which stops the backup.
struct ChannelWriter {
    tx: tokio::sync::mpsc::Sender<Result<bytes::Bytes, String>>,
    buf: Vec<u8>,
}

impl std::io::Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= CHUNK {
            self.flush()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = bytes::Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(CHUNK)));
        self.tx.blocking_send(Ok(chunk)).map_err(|_| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away")
        })
    }
}

pub fn endpoint(app: App) -> impl Endpoint<Output = Response> {
    Route::new()
        .at("/users", get(list_users).post(add_user))
        .at("/users/reset-password", post(reset_password))
        .at("/users/promote", post(promote))
        .at("/users/delete", post(delete_user))
        .at("/guests/purge", post(purge_guests))
        .at("/messages", get(list_messages))
        .at("/backup", get(stream_backup))
        .at("/backups", post(backup_now))
        .data(app)
}

/// Whether a peer with this user id may use the admin socket.
pub fn peer_allowed(peer_uid: u32, own_uid: u32) -> bool {
    peer_uid == own_uid || peer_uid == 0
}

/// The admin socket's door: only the server's own user and root may use it (the socket's 0600
/// mode already says so; `SO_PEERCRED` checks it even if the mode is changed). Anyone else gets
/// a 403 saying why, and `None`.
pub async fn admit(mut stream: UnixStream) -> Option<UnixStream> {
    let own_uid = rustix::process::geteuid().as_raw();
    let peer = stream.peer_cred().map(|c| c.uid());
    if let Ok(uid) = peer
        && peer_allowed(uid, own_uid)
    {
        return Some(stream);
    }
    let uid = peer.map_or_else(|_| "unknown".to_string(), |u| u.to_string());
    tracing::warn!(peer_uid = %uid, "admin socket: refused a user other than the server's own or root");
    const BODY: &str = r#"{"message":"Only the user running the server (or root) may use the admin socket.","exit_code":5}"#;
    let reply = format!(
        "HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    // Read the request before closing, or the close resets the connection before the client
    // reads why.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), async {
        let _ = stream.write_all(reply.as_bytes()).await;
        let _ = stream.shutdown().await;
        let mut sink = [0u8; 4096];
        while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
    })
    .await;
    None
}

/// Binds the socket, readable and writable by the server's user only. A leftover socket from
/// a crash is replaced; that is safe because we hold the data directory lock.
pub fn bind(path: &Path) -> std::io::Result<std::os::unix::net::UnixListener> {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let listener = std::os::unix::net::UnixListener::bind(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

#[cfg(test)]
mod tests {
    use super::peer_allowed;

    #[test]
    fn only_the_servers_own_user_and_root_may_use_the_socket() {
        assert!(peer_allowed(1000, 1000), "the server's own user");
        assert!(peer_allowed(0, 1000), "root");
        assert!(peer_allowed(0, 0), "a server run as root, by root");
        assert!(!peer_allowed(1001, 1000), "another user");
        assert!(
            !peer_allowed(65534, 0),
            "nobody, against a server run as root"
        );
        assert!(
            !peer_allowed(1000, 0),
            "a user, against a server run as root"
        );
    }
}
