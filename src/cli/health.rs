//! `highchair health`: asks the running server's `GET /api/health` on its own listen address
//! and exits 0 when it answers 200. The container's HEALTHCHECK, so the image needs no shell
//! or HTTP client of its own.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::process::ExitCode;
use std::time::Duration;

use super::EXIT_FAILURE;
use super::out::say;
use crate::config::Settings;

const TIMEOUT: Duration = Duration::from_secs(5);

pub fn run(settings: Settings) -> ExitCode {
    let target = local_address(settings.server.listen);
    match status_of(target) {
        Ok(200) => {
            say!("healthy: http://{target}/api/health answered 200");
            ExitCode::SUCCESS
        }
        Ok(status) => {
            eprintln!("highchair: unhealthy: http://{target}/api/health answered {status}");
            ExitCode::from(EXIT_FAILURE)
        }
        Err(err) => {
            eprintln!("highchair: unhealthy: http://{target}/api/health: {err}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Where to reach a server listening on `listen` from the same machine: an unspecified address
/// (0.0.0.0, ::) is reached on loopback.
fn local_address(listen: SocketAddr) -> SocketAddr {
    let ip = match listen.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, listen.port())
}

/// The status code of `GET /api/health`, everything bounded by `TIMEOUT`.
fn status_of(target: SocketAddr) -> std::io::Result<u16> {
    let mut stream = TcpStream::connect_timeout(&target, TIMEOUT)?;
    stream.set_read_timeout(Some(TIMEOUT))?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    stream
        .write_all(b"GET /api/health HTTP/1.0\r\nHost: localhost\r\nConnection: close\r\n\r\n")?;
    // The status line is in the first bytes; a server never sends less than 12 of them.
    let mut head = [0u8; 64];
    let mut read = 0;
    while read < head.len() {
        match stream.read(&mut head[read..])? {
            0 => break,
            n => read += n,
        }
    }
    parse_status(&head[..read])
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "not an HTTP answer"))
}

/// `HTTP/1.x NNN ...` -> NNN.
fn parse_status(head: &[u8]) -> Option<u16> {
    let line = std::str::from_utf8(head.split(|b| *b == b'\r').next()?).ok()?;
    let mut parts = line.split(' ');
    if !parts.next()?.starts_with("HTTP/1.") {
        return None;
    }
    let code = parts.next()?;
    (code.len() == 3).then_some(())?;
    code.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unspecified_listen_address_is_reached_on_loopback() {
        assert_eq!(
            local_address("0.0.0.0:8080".parse().unwrap()).to_string(),
            "127.0.0.1:8080"
        );
        assert_eq!(
            local_address("[::]:9000".parse().unwrap()).to_string(),
            "[::1]:9000"
        );
        assert_eq!(
            local_address("192.168.1.5:80".parse().unwrap()).to_string(),
            "192.168.1.5:80"
        );
    }

    #[test]
    fn the_status_code_is_read_from_the_status_line() {
        assert_eq!(
            parse_status(b"HTTP/1.1 200 OK\r\ncontent-length: 2"),
            Some(200)
        );
        assert_eq!(
            parse_status(b"HTTP/1.0 503 Service Unavailable\r\n"),
            Some(503)
        );
        assert_eq!(parse_status(b"SSH-2.0-OpenSSH\r\n"), None);
        assert_eq!(parse_status(b"HTTP/1.1 20"), None);
        assert_eq!(parse_status(b""), None);
    }
}
