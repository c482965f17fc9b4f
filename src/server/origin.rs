//! Which sites may talk to the server. Two checks:
//! - the Host header must name this server (an IP literal, `localhost`, a `*.local` name, the
//!   host of `public_url`, or one of `allowed_hosts`), so a DNS-rebinding page that points its
//!   own name at the server cannot read from it or create the first (admin) account;
//! - unsafe methods sent by a browser must come from this very origin (scheme, host and port),
//!   not from another site (CSRF). The UI is same-origin; there is no CORS.

use std::net::IpAddr;
use std::sync::Arc;

use poem::http::{Method, StatusCode, header};
use poem::{Endpoint, IntoResponse, Request, Response, Result};

use crate::api::client::ClientInfo;
use crate::api::error::error_response;

/// What the server answers to, built once from the settings.
#[derive(Debug, Clone, Default)]
pub struct Sites {
    /// `public_url` without a trailing slash (empty: not set).
    public_url: String,
    /// The host of `public_url`, lower-case.
    public_host: Option<String>,
    /// `allowed_hosts`, lower-case; `*.example.org` allows every subdomain.
    allowed_hosts: Vec<String>,
}

impl Sites {
    pub fn new(public_url: &str, allowed_hosts: &[String]) -> Self {
        let public_url = public_url.trim_end_matches('/').to_string();
        let public_host = split_origin(&public_url).map(|(_, host, _)| host);
        Self {
            public_url,
            public_host,
            allowed_hosts: allowed_hosts
                .iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .collect(),
        }
    }

    /// Whether a Host header names this server.
    pub fn host_allowed(&self, host_header: &str) -> bool {
        let Some((name, _)) = split_authority(host_header) else {
            return false;
        };
        if name.parse::<IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || name.ends_with(".local")
            || self.public_host.as_deref() == Some(name.as_str())
        {
            return true;
        }
        self.allowed_hosts
            .iter()
            .any(|allowed| match allowed.strip_prefix("*.") {
                Some(parent) => name.ends_with(&format!(".{parent}")),
                None => *allowed == name,
            })
    }

    /// Whether an `Origin` is this server as the request reached it: the same scheme, host
    /// and port, or `public_url`.
    pub fn origin_allowed(&self, origin: &str, host: Option<&str>, https: bool) -> bool {
        let origin = origin.trim();
        if origin.eq_ignore_ascii_case("null") {
            return false;
        }
        if !self.public_url.is_empty() && origin.eq_ignore_ascii_case(&self.public_url) {
            return true;
        }
        let (Some((scheme, origin_host, origin_port)), Some(host)) = (split_origin(origin), host)
        else {
            return false;
        };
        let request_scheme = if https { "https" } else { "http" };
        let Some((host_name, host_port)) = split_authority(host) else {
            return false;
        };
        let default_port = if https { 443 } else { 80 };
        scheme == request_scheme
            && origin_host == host_name
            && origin_port == host_port.unwrap_or(default_port)
    }
}

/// `scheme://host[:port]` → (scheme, lower-case host, port with the scheme's default).
fn split_origin(origin: &str) -> Option<(&'static str, String, u16)> {
    let (scheme, rest, default_port) = if let Some(rest) = strip_prefix_ci(origin, "https://") {
        ("https", rest, 443)
    } else if let Some(rest) = strip_prefix_ci(origin, "http://") {
        ("http", rest, 80)
    } else {
        return None;
    };
    if rest.contains('/') {
        return None;
    }
    let (host, port) = split_authority(rest)?;
    Some((scheme, host, port.unwrap_or(default_port)))
}

fn strip_prefix_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    (s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix))
        .then(|| &s[prefix.len()..])
}

/// `host[:port]` or `[v6][:port]` → (lower-case host without brackets or trailing dot, port).
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    let authority = authority.trim();
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (v6, port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some((host, port))
}

pub(super) async fn check<E: Endpoint>(
    ep: Arc<E>,
    req: Request,
    sites: Arc<Sites>,
) -> Result<Response> {
    let headers = req.headers();
    let header_str = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let host = header_str(header::HOST);
    if let Some(host) = host
        && !sites.host_allowed(host)
    {
        tracing::info!(
            "request for an unknown host refused (add it to server.allowed_hosts if it is yours)"
        );
        return Ok(error_response(
            StatusCode::BAD_REQUEST,
            t!("Unknown host"),
            t!("This server does not answer to that name. Its admin can add it to allowed_hosts."),
        ));
    }

    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        let https = req.data::<ClientInfo>().is_some_and(|c| c.secure);
        let same_origin = match header_str(header::ORIGIN) {
            Some(origin) => sites.origin_allowed(origin, host, https),
            // No Origin: not a browser form or fetch from another page (curl, the CLI).
            // Browsers that send Sec-Fetch-Site tell us when a request is cross-site.
            None => header_str(header::HeaderName::from_static("sec-fetch-site"))
                .is_none_or(|s| s != "cross-site"),
        };
        if !same_origin {
            tracing::info!(method = %req.method(), "cross-origin request refused");
            return Ok(error_response(
                StatusCode::FORBIDDEN,
                t!("Request refused"),
                t!("Requests from other sites are not allowed."),
            ));
        }
    }
    ep.call(req).await.map(IntoResponse::into_response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sites() -> Sites {
        Sites::new("", &[])
    }

    #[test]
    fn hosts_of_a_home_server_are_allowed_and_other_names_are_not() {
        let s = sites();
        for host in [
            "127.0.0.1:8080",
            "192.168.1.20",
            "[::1]:8080",
            "[fe80::1]",
            "localhost:8080",
            "pi.local",
            "Highchair.Local:8080",
            "pi.local.",
        ] {
            assert!(s.host_allowed(host), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8080",
            "local",
            "notlocal",
            "127.0.0.1.evil.example",
            "",
            "user@pi.local",
            "pi.local:99999",
        ] {
            assert!(!s.host_allowed(host), "{host}");
        }
    }

    #[test]
    fn public_url_and_allowed_hosts_add_names() {
        let s = Sites::new(
            "https://meals.example.org",
            &["nas.home.arpa".into(), "*.ts.net".into()],
        );
        assert!(s.host_allowed("meals.example.org"));
        assert!(s.host_allowed("NAS.home.arpa:8080"));
        assert!(s.host_allowed("pi.tail1234.ts.net"));
        assert!(!s.host_allowed("ts.net.evil.example"));
        assert!(!s.host_allowed("other.example.org"));
    }

    #[test]
    fn the_origin_must_match_scheme_host_and_port() {
        let s = sites();
        assert!(s.origin_allowed("http://pi.local:8080", Some("pi.local:8080"), false));
        assert!(s.origin_allowed("http://PI.local", Some("pi.local:80"), false));
        assert!(s.origin_allowed("https://pi.local", Some("pi.local"), true));
        assert!(
            !s.origin_allowed("https://pi.local:8080", Some("pi.local:8080"), false),
            "an https origin on a plain http server"
        );
        assert!(!s.origin_allowed("http://pi.local:8080", Some("pi.local:8080"), true));
        assert!(!s.origin_allowed("http://pi.local:8081", Some("pi.local:8080"), false));
        assert!(!s.origin_allowed("http://evil.example", Some("pi.local:8080"), false));
        assert!(!s.origin_allowed("null", Some("pi.local:8080"), false));
        assert!(!s.origin_allowed("http://pi.local:8080/x", Some("pi.local:8080"), false));
        assert!(!s.origin_allowed("http://pi.local:8080", None, false));
    }

    #[test]
    fn public_url_is_accepted_as_origin_behind_a_proxy() {
        let s = Sites::new("https://meals.example.org", &[]);
        assert!(s.origin_allowed("https://meals.example.org", Some("127.0.0.1:8080"), false));
        assert!(!s.origin_allowed("https://evil.example", Some("127.0.0.1:8080"), false));
    }
}
