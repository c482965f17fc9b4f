//! The CLI side of the admin socket: one HTTP/1.1 request per connection.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixStream;

use super::Failure;

/// Why the running server could not be asked.
#[derive(Debug)]
pub enum Unreachable {
    /// No socket, or nobody listening: the server is not running.
    NotRunning,
    /// The socket belongs to another user.
    PermissionDenied,
    Other(String),
}

pub async fn connect(socket: &Path) -> Result<UnixStream, Unreachable> {
    UnixStream::connect(socket)
        .await
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused => {
                Unreachable::NotRunning
            }
            std::io::ErrorKind::PermissionDenied => Unreachable::PermissionDenied,
            _ => Unreachable::Other(e.to_string()),
        })
}

/// Sends one request and decodes the answer (or the server's `Failure`).
pub async fn call<B: Serialize, T: DeserializeOwned>(
    mut stream: UnixStream,
    method: &str,
    path: &str,
    body: Option<&B>,
) -> Result<T, Failure> {
    let io = |e: std::io::Error| Failure::new(1, format!("admin socket: {e}"));
    let payload = match body {
        Some(b) => serde_json::to_vec(b).map_err(|e| Failure::new(1, e.to_string()))?,
        None => Vec::new(),
    };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: admin\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        payload.len()
    );
    stream.write_all(head.as_bytes()).await.map_err(io)?;
    stream.write_all(&payload).await.map_err(io)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.map_err(io)?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| Failure::new(1, "admin socket: malformed answer"))?;
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| Failure::new(1, "admin socket: malformed status"))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_string()
    };
    if (200..300).contains(&status) {
        serde_json::from_str(&body).map_err(|e| Failure::new(1, format!("admin socket: {e}")))
    } else {
        Err(serde_json::from_str::<Failure>(&body)
            .unwrap_or_else(|_| Failure::new(1, format!("the server answered {status}: {body}"))))
    }
}

/// GETs `path` and writes the body to `out` as it arrives (a backup can be gigabytes).
/// Returns the bytes written; a non-2xx answer is the server's `Failure`.
pub async fn download(
    stream: UnixStream,
    path: &str,
    out: &mut tokio::fs::File,
) -> Result<u64, Failure> {
    use http_body_util::BodyExt;
    let fail = |e: &dyn std::fmt::Display| Failure::new(1, format!("admin socket: {e}"));
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream))
            .await
            .map_err(|e| fail(&e))?;
    let connection = tokio::spawn(conn);
    let request = hyper::Request::get(path)
        .header("host", "admin")
        .body(http_body_util::Empty::<bytes::Bytes>::new())
        .map_err(|e| fail(&e))?;
    let response = sender.send_request(request).await.map_err(|e| fail(&e))?;
    let status = response.status();
    let mut body = response.into_body();
    if !status.is_success() {
        let bytes = body.collect().await.map_err(|e| fail(&e))?.to_bytes();
        return Err(serde_json::from_slice::<Failure>(&bytes)
            .unwrap_or_else(|_| Failure::new(1, format!("the server answered {status}"))));
    }
    let mut written = 0u64;
    let mut unsynced = 0u64;
    let cannot_write = |e: std::io::Error| Failure::new(1, format!("cannot write the backup: {e}"));
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            Failure::new(
                1,
                format!("the server stopped sending the backup ({e}); see its log for why"),
            )
        })?;
        if let Ok(data) = frame.into_data() {
            out.write_all(&data).await.map_err(cannot_write)?;
            written += data.len() as u64;
            unsynced += data.len() as u64;
            // Paced to the disk, or the server's next commit would wait for all of it
            // (crate::store::backup::SYNC_EVERY says why).
            if unsynced >= crate::store::backup::SYNC_EVERY {
                out.flush().await.map_err(cannot_write)?;
                out.sync_data().await.map_err(cannot_write)?;
                unsynced = 0;
            }
        }
    }
    connection.abort();
    Ok(written)
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(len) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if len == 0 || after.len() < len {
            break;
        }
        out.push_str(&after[..len]);
        rest = after[len..].trim_start_matches("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(dechunk("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), "abcde");
    }
}
