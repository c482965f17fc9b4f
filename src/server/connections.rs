//! The HTTP/1.1 accept loop. poem's own `Server` holds an idle or half-sent connection for ever and
//! spins when the process runs out of file descriptors, so connections are served here: capped
//! in total and per client IP (refused with a short 503 rather than exhausting descriptors),
//! closed when a request head, a body or an idle keep-alive takes too long, and all gone within
//! a few seconds of a shutdown whatever clients do.

use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use hyper_util::rt::TokioIo;
use ipnet::IpNet;
use poem::web::{LocalAddr, RemoteAddr};
use poem::{Addr, Endpoint, Response};

use crate::auth::limiter::client_network;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};

use crate::config::Settings;

/// After a shutdown signal, how long requests in progress may take before connections are cut.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);
/// How often each connection checks its deadlines.
const TICK: Duration = Duration::from_secs(1);
/// Descriptors kept free for the store, media files and the admin socket.
const RESERVED_FDS: u64 = 128;
/// Connections the kernel may hold for `accept` (capped by `net.core.somaxconn`). std's
/// `TcpListener::bind` uses 128: under a flood of connections the queue overflowed, and a
/// family's connection waited for the kernel's SYN retries (1 s, 3 s, 7 s...) before the
/// server ever saw it.
const BACKLOG: i32 = 1024;
/// Largest request head hyper buffers (cookies and headers of a real browser fit easily).
const MAX_HEAD_BYTES: usize = 64 * 1024;

type BoxBody = http_body_util::combinators::BoxBody<Bytes, io::Error>;

/// Connection limits, from `[limits]` and the process's descriptor limit.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_total: usize,
    pub max_per_ip: usize,
    /// Trusted proxies: every family behind a tunnel arrives from them, so they count only
    /// toward the total.
    pub exempt: Vec<IpNet>,
}

impl ConnectionLimits {
    pub fn from_settings(settings: &Settings, fd_limit: Option<u64>) -> Self {
        let limits = &settings.limits;
        let secs = |s: u32| Duration::from_secs(u64::from(s));
        let configured = limits.max_connections as usize;
        let max_total = match fd_limit {
            // Each connection is one descriptor; leave room for everything else.
            Some(fds) => configured.min(fds.saturating_sub(RESERVED_FDS).max(16) as usize),
            None => configured,
        };
        Self {
            header_timeout: secs(limits.header_timeout_secs),
            body_timeout: secs(limits.body_timeout_secs),
            idle_timeout: secs(limits.idle_timeout_secs),
            max_total,
            max_per_ip: (limits.max_connections_per_ip as usize).min(max_total),
            exempt: settings.trusted_proxy_nets(),
        }
    }
}

/// Listens on `addr` like `std::net::TcpListener::bind` (address reuse, the system's default
/// for IPv6-only), with a backlog of [`BACKLOG`].
pub fn bind(addr: SocketAddr) -> io::Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG)?;
    Ok(socket.into())
}

/// Raises the soft open-files limit to the hard limit and returns the resulting soft limit
/// (`None`: unlimited or unknown).
pub fn raise_fd_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    match (limit.current, limit.maximum) {
        (Some(soft), Some(hard)) if soft < hard => {
            let raised = rustix::process::Rlimit {
                current: Some(hard),
                maximum: Some(hard),
            };
            Some(if setrlimit(Resource::Nofile, raised).is_ok() {
                hard
            } else {
                soft
            })
        }
        (soft, _) => soft,
    }
}

/// Serves `ep` on `listener` until `shutdown` completes; then lets requests in progress finish
/// for up to [`SHUTDOWN_GRACE`] and closes whatever is left.
pub async fn serve<E>(
    listener: TcpListener,
    ep: E,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()>
where
    E: Endpoint<Output = Response> + 'static,
{
    let ep = Arc::new(ep);
    let limits = Arc::new(limits);
    let local = listener.local_addr()?;
    let (stop, stopping) = watch::channel(Phase::Running);
    let open = Arc::new(OpenConnections::default());
    let mut last_accept_warning: Option<Instant> = None;
    tokio::pin!(shutdown);

    loop {
        let accepted = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // Out of descriptors (or a transient error): back off instead of spinning.
                if last_accept_warning.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
                    tracing::warn!(error = %e, "cannot accept connections");
                    last_accept_warning = Some(Instant::now());
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let peer_ip = peer.ip().to_canonical();
        match open.admit(peer_ip, &limits) {
            Ok(slot) => {
                let (ep, limits, stopping) = (ep.clone(), limits.clone(), stopping.clone());
                tokio::spawn(async move {
                    serve_connection(stream, local, peer, ep, &limits, stopping).await;
                    drop(slot);
                });
            }
            Err(refusal) => {
                tracing::debug!(%refusal, "connection refused");
                refuse(stream);
            }
        }
    }

    drop(listener);
    let _ = stop.send(Phase::Graceful);
    if tokio::time::timeout(SHUTDOWN_GRACE, open.all_closed())
        .await
        .is_err()
    {
        tracing::info!(
            open = open.total(),
            "closing connections still open after the shutdown grace"
        );
    }
    let _ = stop.send(Phase::Closed);
    let _ = tokio::time::timeout(Duration::from_secs(1), open.all_closed()).await;
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Running,
    Graceful,
    Closed,
}

/// Why a connection was not served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    Full,
    TooManyFromClient,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::Full => "connection limit reached",
            Refusal::TooManyFromClient => "per-client connection limit reached",
        })
    }
}

/// A short answer to a connection over the limits, then close, without waiting on the client:
/// the answer fits in a fresh socket's send buffer, and what the client already sent is read
/// so that closing does not reset the connection before it reads the answer.
fn refuse(stream: TcpStream) {
    const BODY: &str = r#"{"title":"Server busy","message":"Too many connections are open. Please try again in a moment."}"#;
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json; charset=utf-8\r\n\
         retry-after: 5\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    use std::io::{Read, Write};
    // Straight to the kernel through the std socket (still non-blocking): tokio's `try_write`
    // answers WouldBlock until the reactor has seen a new socket become writable, which on a
    // busy machine it may not have yet, and the 503 was then silently never sent.
    let Ok(mut stream) = stream.into_std() else {
        return;
    };
    let _ = stream.write_all(response.as_bytes());
    let mut sink = [0u8; 4096];
    while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

#[derive(Default)]
struct OpenConnections {
    counts: Mutex<Counts>,
    closed: Notify,
}

#[derive(Default)]
struct Counts {
    total: usize,
    per_client: HashMap<IpAddr, usize>,
}

/// One admitted connection; gives its place back when dropped.
struct Slot {
    open: Arc<OpenConnections>,
    client: Option<IpAddr>,
}

impl OpenConnections {
    fn admit(self: &Arc<Self>, ip: IpAddr, limits: &ConnectionLimits) -> Result<Slot, Refusal> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.total >= limits.max_total {
            return Err(Refusal::Full);
        }
        let client =
            (!limits.exempt.iter().any(|net| net.contains(&ip))).then(|| client_network(ip));
        if let Some(client) = client {
            let count = counts.per_client.entry(client).or_default();
            if *count >= limits.max_per_ip {
                return Err(Refusal::TooManyFromClient);
            }
            *count += 1;
        }
        counts.total += 1;
        Ok(Slot {
            open: self.clone(),
            client,
        })
    }

    fn total(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).total
    }

    async fn all_closed(&self) {
        loop {
            let notified = self.closed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.total() == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.open.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.total -= 1;
        if let Some(client) = self.client
            && let Some(count) = counts.per_client.get_mut(&client)
        {
            *count -= 1;
            if *count == 0 {
                counts.per_client.remove(&client);
            }
        }
        if counts.total == 0 {
            self.open.closed.notify_waiters();
        }
    }
}

/// Milliseconds on a process-wide monotonic clock; never 0, so 0 can mean "not set".
fn now_ms() -> u64 {
    static BASE: OnceLock<Instant> = OnceLock::new();
    BASE.get_or_init(Instant::now).elapsed().as_millis() as u64 + 1
}

/// What a connection has been doing, for its deadlines.
#[derive(Default)]
struct Activity {
    /// Last byte read, request started or response finished.
    last: AtomicU64,
    /// First byte of a request head that has not completed yet (0: none).
    head_started: AtomicU64,
    /// Since when a write has been waiting for the client to read (0: not blocked).
    write_blocked: AtomicU64,
    /// Requests whose response has not been sent completely.
    in_flight: AtomicUsize,
}

impl Activity {
    fn new() -> Self {
        let activity = Self::default();
        activity.last.store(now_ms(), Ordering::Relaxed);
        activity
    }

    fn read(&self) {
        let now = now_ms();
        self.last.store(now, Ordering::Relaxed);
        if self.in_flight.load(Ordering::Acquire) == 0 {
            let _ = self
                .head_started
                .compare_exchange(0, now, Ordering::AcqRel, Ordering::Relaxed);
        }
    }

    fn wrote(&self, blocked: bool) {
        if blocked {
            let _ = self.write_blocked.compare_exchange(
                0,
                now_ms(),
                Ordering::AcqRel,
                Ordering::Relaxed,
            );
        } else {
            self.write_blocked.store(0, Ordering::Release);
        }
    }

    fn request_started(&self) {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.head_started.store(0, Ordering::Release);
        self.last.store(now_ms(), Ordering::Relaxed);
    }

    fn request_finished(&self) {
        self.last.store(now_ms(), Ordering::Relaxed);
        self.in_flight.fetch_sub(1, Ordering::AcqRel);
    }

    /// Why the connection should be closed now, if it should.
    fn expired(&self, limits: &ConnectionLimits, now: u64) -> Option<&'static str> {
        let older_than = |since: u64, limit: Duration| {
            since != 0 && now.saturating_sub(since) > limit.as_millis() as u64
        };
        if older_than(
            self.write_blocked.load(Ordering::Acquire),
            limits.body_timeout,
        ) {
            return Some("client stopped reading");
        }
        if self.in_flight.load(Ordering::Acquire) > 0 {
            // Request bodies have their own timeout where they are read (body_limit).
            return None;
        }
        if older_than(
            self.head_started.load(Ordering::Acquire),
            limits.header_timeout,
        ) {
            return Some("request head timeout");
        }
        if older_than(self.last.load(Ordering::Relaxed), limits.idle_timeout) {
            return Some("idle");
        }
        None
    }
}

/// The socket, noting reads and blocked writes in the connection's [`Activity`].
struct Tracked {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let result = Pin::new(&mut this.inner).poll_read(cx, buf);
        if matches!(result, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.activity.read();
        }
        result
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.activity.wrote(result.is_pending());
        result
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let result = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.activity.wrote(result.is_pending());
        result
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// Counts a request as in flight until its response body is done (or dropped).
struct InFlight(Arc<Activity>);

impl InFlight {
    fn start(activity: &Arc<Activity>) -> Self {
        activity.request_started();
        Self(activity.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.request_finished();
    }
}

/// A response body that holds its request's [`InFlight`] mark.
struct TrackedBody {
    inner: BoxBody,
    _in_flight: InFlight,
}

impl HttpBody for TrackedBody {
    type Data = Bytes;
    type Error = io::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, io::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

async fn serve_connection<E>(
    stream: TcpStream,
    local: SocketAddr,
    peer: SocketAddr,
    ep: Arc<E>,
    limits: &ConnectionLimits,
    mut stopping: watch::Receiver<Phase>,
) where
    E: Endpoint<Output = Response> + 'static,
{
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Tracked {
        inner: stream,
        activity: activity.clone(),
    });
    let service = hyper::service::service_fn({
        let activity = activity.clone();
        move |req: hyper::Request<hyper::body::Incoming>| {
            let in_flight = InFlight::start(&activity);
            let ep = ep.clone();
            async move {
                let req = poem::Request::from((
                    req,
                    LocalAddr(Addr::SocketAddr(local)),
                    RemoteAddr(Addr::SocketAddr(peer)),
                    poem::http::uri::Scheme::HTTP,
                ));
                let resp: hyper::Response<BoxBody> = ep.get_response(req).await.into();
                Ok::<_, Infallible>(resp.map(|inner| TrackedBody {
                    inner,
                    _in_flight: in_flight,
                }))
            }
        }
    });

    // HTTP/1.1 only: browsers speak HTTP/2 only over TLS, which a proxy in front terminates,
    // and plain-text HTTP/2 would bypass the body limits and the deadlines above (a stream
    // whose flow-control window stays at zero never blocks a write).
    let conn = hyper::server::conn::http1::Builder::new()
        .max_buf_size(MAX_HEAD_BYTES)
        .serve_connection(io, service);
    tokio::pin!(conn);

    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut graceful = false;
    loop {
        tokio::select! {
            _ = conn.as_mut() => return,
            changed = stopping.changed() => {
                let phase = if changed.is_ok() { *stopping.borrow() } else { Phase::Closed };
                match phase {
                    Phase::Running => {}
                    Phase::Graceful if !graceful => {
                        graceful = true;
                        conn.as_mut().graceful_shutdown();
                    }
                    Phase::Graceful => {}
                    Phase::Closed => return,
                }
            }
            _ = tick.tick() => {
                if let Some(reason) = activity.expired(limits, now_ms()) {
                    tracing::debug!(reason, "closing connection");
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_queues_a_flood_of_connections_without_accepting() {
        let listener = bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let addr = listener.local_addr().unwrap();
        // With std's backlog of 128 the kernel drops the SYNs after the queue fills, and a
        // connect waits a second for its retry. The kernel caps the backlog at somaxconn.
        let somaxconn = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
            .unwrap_or(4096);
        let flood = 600.min(somaxconn);
        let held: Vec<_> = (0..flood)
            .map(|i| {
                std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(900))
                    .unwrap_or_else(|e| panic!("connection {i} was not queued: {e}"))
            })
            .collect();
        assert_eq!(held.len(), flood);
        let (_, peer) = listener.accept().unwrap();
        assert_eq!(peer, held[0].local_addr().unwrap());
    }

    fn limits(total: usize, per_ip: usize) -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            max_total: total,
            max_per_ip: per_ip,
            exempt: vec!["10.0.0.1/32".parse().unwrap()],
        }
    }

    #[test]
    fn caps_per_client_and_in_total_and_gives_places_back() {
        let open = Arc::new(OpenConnections::default());
        let limits = limits(3, 2);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = open.admit(a, &limits).unwrap();
        let _second = open.admit(a, &limits).unwrap();
        assert_eq!(
            open.admit(a, &limits).err(),
            Some(Refusal::TooManyFromClient)
        );
        let _third = open.admit(b, &limits).unwrap();
        assert_eq!(open.admit(b, &limits).err(), Some(Refusal::Full));
        drop(first);
        assert!(
            open.admit(a, &limits).is_ok(),
            "a closed connection frees its place"
        );
    }

    #[test]
    fn trusted_proxies_count_only_toward_the_total() {
        let open = Arc::new(OpenConnections::default());
        let limits = limits(10, 1);
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let held: Vec<_> = (0..5)
            .map(|_| open.admit(proxy, &limits).unwrap())
            .collect();
        assert_eq!(held.len(), 5);
    }

    #[test]
    fn an_ipv6_client_is_its_64_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_network(a), client_network(b));
        assert_ne!(client_network(a), client_network(c));
    }

    #[test]
    fn deadlines_follow_what_the_connection_is_doing() {
        let limits = limits(10, 10);
        let activity = Activity::new();
        let start = activity.last.load(Ordering::Relaxed);
        assert_eq!(activity.expired(&limits, start + 59_000), None);
        assert_eq!(activity.expired(&limits, start + 61_000), Some("idle"));

        activity.read();
        let head = activity.head_started.load(Ordering::Relaxed);
        assert_ne!(head, 0, "a first byte starts the head clock");
        assert_eq!(
            activity.expired(&limits, head + 11_000),
            Some("request head timeout")
        );

        activity.request_started();
        assert_eq!(
            activity.expired(&limits, head + 600_000),
            None,
            "a request in progress is not idle"
        );
        activity.wrote(true);
        let blocked = activity.write_blocked.load(Ordering::Relaxed);
        assert_eq!(
            activity.expired(&limits, blocked + 31_000),
            Some("client stopped reading")
        );
        activity.wrote(false);
        activity.request_finished();
        let last = activity.last.load(Ordering::Relaxed);
        assert_eq!(activity.expired(&limits, last + 1_000), None);
    }
}
