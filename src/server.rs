//! Assembles routes and middleware, and runs the HTTP server until shutdown.
//!
//! Order, outermost first: request log (id, timing) → panic guard → security headers →
//! client info (IP, HTTPS) → same-origin check for unsafe methods → body size limit → routes.

mod body_limit;
mod origin;
mod request_log;
mod security_headers;

use std::future::Future;
use std::time::Duration;

use poem::listener::{Acceptor, TcpAcceptor, UnixAcceptor};
use poem::middleware::CatchPanic;
use poem::{Endpoint, EndpointExt, IntoResponse, Route, Server};

use crate::api;
use crate::app::App;

/// How long in-flight requests may take to finish after a shutdown signal.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

/// The whole application as one poem endpoint.
pub fn endpoint(app: App) -> impl Endpoint<Output = poem::Response> {
    let service = api::service();
    let spec = service.spec_endpoint();
    let docs = service.swagger_ui();

    let api_routes = Route::new()
        .at("/openapi.json", spec)
        .nest("/docs", docs)
        .nest("/", service)
        .catch_all_error(api::error::api_error_response);

    let proxies = app.settings.trusted_proxy_nets();
    let limits = app.settings.limits.clone();
    let public_url = app.settings.server.public_url.clone();

    Route::new()
        .nest("/api", api_routes)
        .nest("/", crate::ui_assets::UiEndpoint)
        .data(app)
        .around(move |ep, req| body_limit::limit(ep, req, limits.clone()))
        .around(move |ep, req| origin::same_origin_only(ep, req, public_url.clone()))
        .around(move |ep, req| api::client::resolve(ep, req, proxies.clone()))
        .around(security_headers::add)
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
    let acceptor = TcpAcceptor::from_std(listener)?;
    let addr = acceptor
        .local_addr()
        .first()
        .and_then(|a| a.as_socket_addr().copied())
        .map(|a| a.to_string())
        .unwrap_or_default();

    let socket_path = app.store.dir().join(crate::admin::SOCKET);
    let admin_acceptor = UnixAcceptor::from_std(crate::admin::socket::bind(&socket_path)?)?;
    let (stop_admin, admin_stopped) = tokio::sync::oneshot::channel::<()>();
    let admin = tokio::spawn(
        Server::new_with_acceptor(admin_acceptor).run_with_graceful_shutdown(
            crate::admin::socket::endpoint(app.clone()),
            async {
                let _ = admin_stopped.await;
            },
            Some(SHUTDOWN_GRACE),
        ),
    );

    let housekeeping = crate::service::housekeeping::spawn(app.clone());
    let jobs = crate::jobs::spawn(app.store.clone(), app.jobs_wake.clone());
    tracing::info!(address = %addr, data_dir = %app.store.dir().display(), "highchair is listening");
    let result = Server::new_with_acceptor(acceptor)
        .run_with_graceful_shutdown(endpoint(app.clone()), shutdown, Some(SHUTDOWN_GRACE))
        .await;

    let _ = stop_admin.send(());
    let _ = admin.await;
    let _ = std::fs::remove_file(&socket_path);
    for task in [housekeeping, jobs] {
        task.abort();
        let _ = task.await;
    }
    if let Err(e) = app.store.flush().await {
        tracing::error!(error = %e, "final flush failed");
    }
    tracing::info!("stopped");
    result
}
