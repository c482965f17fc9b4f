//! Assembles routes and middleware, and runs the HTTP server until shutdown.
//!
//! Connections are accepted and bounded in `connections`.
//!
//! Order, outermost first: request log (id, timing) → panic guard → security headers →
//! client info (IP, HTTPS) → known Host, and same origin for unsafe methods → body size limit → routes.

mod addresses;
mod admin_socket;
mod body_limit;
pub mod connections;
mod language;
mod origin;
mod request_log;
mod security_headers;

use std::future::Future;
use std::sync::Arc;

use poem::middleware::CatchPanic;
use poem::{Endpoint, EndpointExt, IntoResponse, Route};

use crate::api;
use crate::app::App;

/// An endpoint built on its first request. The OpenAPI document and its Swagger page are
/// rarely asked for, and building them at start (poem-openapi renders the whole document for
/// each) left about 4 MiB in the idle server's RSS.
struct Lazy<F> {
    make: F,
    built: std::sync::OnceLock<poem::endpoint::BoxEndpoint<'static, poem::Response>>,
}

fn lazy<F>(make: F) -> Lazy<F>
where
    F: Fn() -> poem::endpoint::BoxEndpoint<'static, poem::Response> + Send + Sync,
{
    Lazy {
        make,
        built: std::sync::OnceLock::new(),
    }
}

impl<F> Endpoint for Lazy<F>
where
    F: Fn() -> poem::endpoint::BoxEndpoint<'static, poem::Response> + Send + Sync,
{
    type Output = poem::Response;

    async fn call(&self, req: poem::Request) -> poem::Result<poem::Response> {
        self.built.get_or_init(&self.make).call(req).await
    }
}

/// The whole application as one poem endpoint; `pages` keeps rendered list answers.
pub fn endpoint(
    app: App,
    pages: Arc<api::page_cache::PageCache>,
) -> impl Endpoint<Output = poem::Response> {
    let spec = lazy(|| api::service().spec_endpoint().map_to_response().boxed());

    let api_routes = Route::new()
        .at("/openapi.json", spec)
        .nest("/docs", crate::ui_assets::ApiDocs)
        .nest("/", api::service())
        .catch_all_error(api::error::api_error_response);

    let proxies = app.settings().trusted_proxy_nets();
    let language = app.settings().server.language;
    let limits = app.settings().limits.clone();
    let sites = std::sync::Arc::new(origin::Sites::new(
        &app.settings().server.public_url,
        &app.settings().server.allowed_hosts,
    ));

    Route::new()
        .nest("/api", api_routes)
        .nest("/", crate::ui_assets::UiEndpoint)
        .data(app)
        .data(pages)
        .around(move |ep, req| body_limit::limit(ep, req, limits.clone()))
        .around(move |ep, req| origin::check(ep, req, sites.clone()))
        .around(move |ep, req| api::client::resolve(ep, req, proxies.clone()))
        .around(security_headers::add)
        .around(move |ep, req| language::answer_in(ep, req, language))
        .with(CatchPanic::new().with_handler(|_| api::ApiError::internal().into_response()))
        .around(request_log::log)
        .map_to_response()
}

/// Serves HTTP on `listener` and the admin API on the data directory's Unix socket until
/// `shutdown` completes, then finishes in-flight requests and flushes the store.
pub async fn serve(
    app: App,
    listener: std::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let addr = listener.local_addr()?;
    let fd_limit = connections::raise_fd_limit();
    let limits = connections::ConnectionLimits::from_settings(app.settings(), fd_limit);
    if limits.max_total < app.settings().limits.max_connections as usize {
        tracing::warn!(
            max_connections = limits.max_total,
            open_files_limit = fd_limit,
            "fewer connections than limits.max_connections: the open-files limit is too low (LimitNOFILE)"
        );
    }

    let socket_path = app.store().dir().join(crate::admin::SOCKET);
    let admin_listener =
        tokio::net::UnixListener::from_std(crate::admin::socket::bind(&socket_path)?)?;
    let (stop_admin, admin_stopped) = tokio::sync::oneshot::channel::<()>();
    let admin = tokio::spawn(admin_socket::serve(
        admin_listener,
        crate::admin::socket::endpoint(app.clone()),
        async {
            let _ = admin_stopped.await;
        },
    ));

    let pages = Arc::new(api::page_cache::PageCache::default());
    let kept = pages.clone();
    let forget_answers = move |unused_for| kept.forget_unused(unused_for);
    let background = crate::service::background::start(app.clone(), forget_answers).await;
    tracing::info!(address = %addr, data_dir = %app.store().dir().display(), "highchair is listening");
    let lan = addr
        .ip()
        .is_unspecified()
        .then(addresses::lan_address)
        .flatten();
    for url in addresses::to_open(addr, &app.settings().server.public_url, lan) {
        tracing::info!(%url, "open Highchair at");
    }
    let result = connections::serve(listener, endpoint(app.clone(), pages), limits, shutdown).await;

    let _ = stop_admin.send(());
    let _ = admin.await;
    let _ = std::fs::remove_file(&socket_path);
    background.stop().await;
    tracing::info!("stopped");
    result
}
