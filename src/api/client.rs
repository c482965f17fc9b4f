//! Who is asking: the client IP (forwarding headers believed only from trusted proxies) and
//! whether the request came over HTTPS.

use std::net::IpAddr;
use std::sync::Arc;

use ipnet::IpNet;
use poem::{Endpoint, IntoResponse, Request, Response, Result};

use crate::app::App;
use crate::auth::ClientKey;

/// Put into every request's extensions; handlers read it with `Data<&ClientInfo>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientInfo {
    pub ip: Option<IpAddr>,
    /// The browser reached us over HTTPS (directly, or as a trusted proxy says).
    pub secure: bool,
}

impl ClientInfo {
    /// The key of per-client limits (the IPv4 address, or the IPv6 /64).
    pub fn key(&self) -> ClientKey {
        ClientKey::of(self.ip)
    }
}

/// The address links start with (household invites, co-parent links): the configured public
/// URL, or the one the parent used (its host already passed the server's host check).
pub fn site_base(app: &App, client: &ClientInfo, req: &Request) -> String {
    let public = &app.settings().server.public_url;
    if !public.is_empty() {
        return public.trim_end_matches('/').to_string();
    }
    match req.headers().get("host").and_then(|h| h.to_str().ok()) {
        Some(host) => {
            let scheme = if client.secure { "https" } else { "http" };
            format!("{scheme}://{host}")
        }
        None => app.settings().base_url(),
    }
}

/// Middleware: puts the request's `ClientInfo` into its extensions.
pub async fn resolve<E: Endpoint>(
    ep: Arc<E>,
    mut req: Request,
    proxies: Vec<IpNet>,
) -> Result<Response> {
    let peer = req
        .remote_addr()
        .as_socket_addr()
        .map(|a| canonical(a.ip()));
    let trusted = peer.is_some_and(|p| is_trusted(p, &proxies));
    // Every line, in order: a proxy may append its own line rather than extend the last one.
    let forwarded_for: Vec<Option<&str>> = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .map(|v| v.to_str().ok())
        .collect();
    let ip = client_ip(peer, &forwarded_for, &proxies);
    let forwarded_https = trusted
        && req
            .headers()
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    let secure = req.uri().scheme_str() == Some("https") || forwarded_https;
    req.extensions_mut().insert(ClientInfo { ip, secure });
    ep.call(req).await.map(IntoResponse::into_response)
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

fn is_trusted(ip: IpAddr, proxies: &[IpNet]) -> bool {
    proxies.iter().any(|net| net.contains(&ip))
}

/// The peer, unless the peer is a trusted proxy: then the right-most `X-Forwarded-For` hop (all
/// header lines read as one list) that is not itself a trusted proxy; entries further left can
/// be forged by the client. Hops may carry ports and brackets (`1.2.3.4:5678`, `[2001:db8::1]`).
/// A hop a trusted proxy wrote that is no address ("unknown") ends the walk at the nearest
/// proxy: skipping it would let the client's own entries count.
pub fn client_ip(
    peer: Option<IpAddr>,
    forwarded_for: &[Option<&str>],
    proxies: &[IpNet],
) -> Option<IpAddr> {
    let peer = peer?;
    if !is_trusted(peer, proxies) {
        return Some(peer);
    }
    let mut nearest = peer;
    let hops = forwarded_for.iter().rev().flat_map(|line| match line {
        Some(line) => line.rsplit(',').map(parse_hop).collect::<Vec<_>>(),
        None => vec![None],
    });
    for hop in hops {
        match hop.map(canonical) {
            Some(ip) if is_trusted(ip, proxies) => nearest = ip,
            Some(ip) => return Some(ip),
            None => return Some(nearest),
        }
    }
    Some(nearest)
}

/// One `X-Forwarded-For` entry: an address, with or without a port, IPv6 with or without
/// brackets.
fn parse_hop(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim().trim_matches('"');
    if let Ok(ip) = entry.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(addr) = entry.parse::<std::net::SocketAddr>() {
        return Some(addr.ip());
    }
    entry
        .strip_prefix('[')
        .and_then(|e| e.strip_suffix(']'))
        .and_then(|e| e.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarded_for_is_ignored_from_untrusted_peers() {
        let proxies: Vec<IpNet> = vec!["10.0.0.1/32".parse().unwrap()];
        assert_eq!(
            client_ip(Some(ip("203.0.113.9")), &[Some("1.1.1.1")], &proxies),
            Some(ip("203.0.113.9"))
        );
        assert_eq!(
            client_ip(Some(ip("203.0.113.9")), &[], &[]),
            Some(ip("203.0.113.9"))
        );
    }

    #[test]
    fn trusted_proxy_gives_the_rightmost_untrusted_hop() {
        let proxies: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let peer = Some(ip("10.0.0.1"));
        assert_eq!(
            client_ip(peer, &[Some("6.6.6.6, 198.51.100.7, 10.0.0.2")], &proxies),
            Some(ip("198.51.100.7")),
            "the forged left-most entry is not believed"
        );
        assert_eq!(
            client_ip(peer, &[Some("garbage")], &proxies),
            Some(ip("10.0.0.1"))
        );
        assert_eq!(
            client_ip(peer, &[Some("10.0.0.5")], &proxies),
            Some(ip("10.0.0.5"))
        );
    }

    /// Issue 26: only the first header line was read and entries with ports were skipped, so
    /// a proxy that appends its own line (HAProxy's `option forwardfor`) or writes ports let a
    /// client choose its address.
    #[test]
    fn every_header_line_is_read_and_ports_and_brackets_are_parsed() {
        let proxies: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let peer = Some(ip("10.0.0.1"));
        // The client's forged line first, the proxy's appended line last.
        assert_eq!(
            client_ip(peer, &[Some("6.6.6.6"), Some("198.51.100.7")], &proxies),
            Some(ip("198.51.100.7"))
        );
        assert_eq!(
            client_ip(
                peer,
                &[Some("6.6.6.6"), Some("198.51.100.7:51234")],
                &proxies
            ),
            Some(ip("198.51.100.7"))
        );
        assert_eq!(
            client_ip(peer, &[Some("6.6.6.6, [2001:db8::7]:443")], &proxies),
            Some(ip("2001:db8::7"))
        );
        assert_eq!(
            client_ip(peer, &[Some("6.6.6.6, [2001:db8::8]")], &proxies),
            Some(ip("2001:db8::8"))
        );
        assert_eq!(
            client_ip(peer, &[Some("6.6.6.6, \"198.51.100.9\"")], &proxies),
            Some(ip("198.51.100.9"))
        );
        // What the proxy wrote is no address: the client's entries are not believed either.
        assert_eq!(
            client_ip(peer, &[Some("6.6.6.6, unknown")], &proxies),
            Some(ip("10.0.0.1"))
        );
        assert_eq!(
            client_ip(peer, &[Some("6.6.6.6"), None, Some("10.0.0.9")], &proxies),
            Some(ip("10.0.0.9"))
        );
    }

    #[test]
    fn mapped_ipv6_is_treated_as_ipv4() {
        assert_eq!(canonical(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
    }
}
