//! Where to open Highchair once it listens: printed at start, so the person who started it
//! knows what to type on the phone.

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};

/// The addresses to open for a server bound to `bound`: the public URL when set, this machine,
/// and (when it listens on every interface) the machine's address on the local network.
pub fn to_open(bound: SocketAddr, public_url: &str, lan: Option<IpAddr>) -> Vec<String> {
    let mut urls = Vec::new();
    if !public_url.is_empty() {
        urls.push(public_url.trim_end_matches('/').to_string());
    }
    let port = bound.port();
    let url = |ip: IpAddr| match ip {
        IpAddr::V4(v4) => format!("http://{v4}:{port}"),
        IpAddr::V6(v6) => format!("http://[{v6}]:{port}"),
    };
    if bound.ip().is_unspecified() {
        urls.push(format!("http://localhost:{port}"));
        if let Some(ip) = lan.filter(|ip| !ip.is_loopback() && !ip.is_unspecified()) {
            urls.push(url(ip));
        }
    } else if bound.ip().is_loopback() {
        urls.push(format!("http://localhost:{port}"));
    } else {
        urls.push(url(bound.ip()));
    }
    urls
}

/// This machine's address on its network: the source address the kernel would use to reach a
/// documentation address (a UDP "connect" sends nothing). `None` without a route.
pub fn lan_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
    Some(socket.local_addr().ok()?.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_interface_gives_localhost_and_the_lan_address() {
        let lan = Some(IpAddr::V4(Ipv4Addr::new(192, 168, 1, 20)));
        assert_eq!(
            to_open("0.0.0.0:8080".parse().unwrap(), "", lan),
            ["http://localhost:8080", "http://192.168.1.20:8080"]
        );
        assert_eq!(
            to_open("127.0.0.1:8080".parse().unwrap(), "", lan),
            ["http://localhost:8080"]
        );
        assert_eq!(
            to_open(
                "192.168.1.20:80".parse().unwrap(),
                "https://meals.example/",
                None
            ),
            ["https://meals.example", "http://192.168.1.20:80"]
        );
        assert_eq!(
            to_open(
                "[::]:8080".parse().unwrap(),
                "",
                Some("127.0.0.1".parse().unwrap())
            ),
            ["http://localhost:8080"]
        );
    }
}
