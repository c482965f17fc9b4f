//! Serves the admin API (`admin::socket`) on the data directory's Unix socket: HTTP/1.1, a task
//! per connection, each peer checked first. Requests in progress get [`SHUTDOWN_GRACE`] after a
//! shutdown; what is left (a backup still streaming) is then cut, as on the TCP side.
//!
//! Served here rather than by poem's `Server`, whose HTTP/2 server was 0.3 MB of the binary
//! used by nothing else.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;

use hyper_util::rt::TokioIo;
use poem::http::uri::Scheme;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Addr, Endpoint, Response};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

use super::connections::SHUTDOWN_GRACE;
use crate::admin::socket::admit;

/// Serves `ep` on `listener` until `shutdown` completes and the connections have finished or
/// had their grace.
pub async fn serve<E>(listener: UnixListener, ep: E, shutdown: impl Future<Output = ()>)
where
    E: Endpoint<Output = Response> + 'static,
{
    let ep = Arc::new(ep);
    let (stopping, stop) = watch::channel(false);
    let mut open = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    open.spawn(connection(stream, ep.clone(), stop.clone()));
                }
                Err(e) => {
                    // Out of descriptors, most likely: wait rather than spin.
                    tracing::warn!(error = %e, "admin socket: accept failed");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
            },
            Some(_) = open.join_next(), if !open.is_empty() => {}
        }
    }
    let _ = stopping.send(true);
    let drained = async { while open.join_next().await.is_some() {} };
    if tokio::time::timeout(SHUTDOWN_GRACE, drained).await.is_err() {
        open.shutdown().await;
    }
}

async fn connection<E>(stream: UnixStream, ep: Arc<E>, mut stop: watch::Receiver<bool>)
where
    E: Endpoint<Output = Response> + 'static,
{
    let Some(stream) = admit(stream).await else {
        return;
    };
    let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
        let ep = ep.clone();
        async move {
            let req = poem::Request::from((
                req,
                LocalAddr(Addr::Custom("unix", "admin socket".into())),
                RemoteAddr(Addr::Custom("unix", "admin client".into())),
                Scheme::HTTP,
            ));
            let resp: hyper::Response<_> = ep.get_response(req).await.into();
            Ok::<_, Infallible>(resp)
        }
    });
    let conn =
        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        _ = async { stop.wait_for(|stopping| *stopping).await.is_ok() } => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}
