//! Brings a recipe page from the web, without letting a link turn the server into a probe of
//! the home network it runs on: http and https only; every address a name resolves to is
//! checked (no loopback, private, link-local, unique-local, shared, multicast or reserved
//! address, unless the admin allows private ones), and the connection goes to the addresses
//! checked, never to a second lookup; each of at most 5 redirects is checked the same way; at
//! most 5 MB, within 15 s, asked for as a browser asks.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use reqwest::header::{ACCEPT, ACCEPT_LANGUAGE, LOCATION};
use reqwest::redirect::Policy;
use reqwest::{StatusCode, Url};

/// What a fetch may do.
#[derive(Debug, Clone)]
pub struct Limits {
    pub max_bytes: usize,
    pub timeout: Duration,
    pub max_redirects: usize,
    /// `[recipes] import_allow_private`: addresses on the home network may be fetched.
    pub allow_private: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 5 << 20,
            timeout: Duration::from_secs(15),
            max_redirects: 5,
            allow_private: false,
        }
    }
}

/// Why a page could not be brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// Not an http or https address.
    BadAddress,
    /// The address is on a local or private network.
    NotAllowed,
    /// No answer, no such name, or an error status.
    Unreachable,
    /// The site refused (401, 403, 429 or 503: often a bot wall).
    Blocked,
    TooLarge,
    TooManyRedirects,
    TimedOut,
}

/// A page as fetched: where it ended up, and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub url: String,
    pub html: String,
}

/// Browsers' own words, so sites that answer browsers answer this too.
const USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) \
                          Chrome/124.0 Safari/537.36 Highchair-recipe-import";
const ACCEPT_HTML: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

const ACCEPT_IMAGE: &str = "image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8";

/// A web page, as text.
pub async fn fetch(url: &str, limits: &Limits) -> Result<Page, FetchError> {
    let (url, body) = fetch_bytes(url, ACCEPT_HTML, limits).await?;
    Ok(Page {
        url,
        html: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// A picture's bytes, as the page named it (the image pipeline decides whether it is one).
pub async fn fetch_image(url: &str, limits: &Limits) -> Result<Vec<u8>, FetchError> {
    Ok(fetch_bytes(url, ACCEPT_IMAGE, limits).await?.1)
}

/// Where the address led, and what it answered.
async fn fetch_bytes(
    url: &str,
    accept: &str,
    limits: &Limits,
) -> Result<(String, Vec<u8>), FetchError> {
    tokio::time::timeout(limits.timeout, follow(url, accept, limits))
        .await
        .unwrap_or(Err(FetchError::TimedOut))
}

async fn follow(url: &str, accept: &str, limits: &Limits) -> Result<(String, Vec<u8>), FetchError> {
    let mut current = Url::parse(url.trim()).map_err(|_| FetchError::BadAddress)?;
    for _ in 0..=limits.max_redirects {
        if !matches!(current.scheme(), "http" | "https") {
            return Err(FetchError::BadAddress);
        }
        // "[::1]" is written with brackets in an address, without them everywhere else.
        let host = current
            .host_str()
            .ok_or(FetchError::BadAddress)?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let port = current
            .port_or_known_default()
            .ok_or(FetchError::BadAddress)?;
        let addrs = addresses(&host, port).await?;
        if !limits.allow_private && addrs.iter().any(|a| !is_public(a.ip())) {
            return Err(FetchError::NotAllowed);
        }
        let client = reqwest::Client::builder()
            .redirect(Policy::none())
            .no_proxy()
            .user_agent(USER_AGENT)
            .timeout(limits.timeout)
            .resolve_to_addrs(&host, &addrs)
            .build()
            .map_err(|_| FetchError::Unreachable)?;
        let mut response = client
            .get(current.clone())
            .header(ACCEPT, accept)
            .header(ACCEPT_LANGUAGE, "en-GB,en;q=0.9")
            .send()
            .await
            .map_err(|e| {
                if e.is_timeout() {
                    FetchError::TimedOut
                } else {
                    FetchError::Unreachable
                }
            })?;
        let status = response.status();
        if status.is_redirection() {
            let next = response
                .headers()
                .get(LOCATION)
                .and_then(|l| l.to_str().ok())
                .and_then(|l| current.join(l).ok())
                .ok_or(FetchError::Unreachable)?;
            current = next;
            continue;
        }
        if matches!(
            status,
            StatusCode::UNAUTHORIZED
                | StatusCode::FORBIDDEN
                | StatusCode::TOO_MANY_REQUESTS
                | StatusCode::SERVICE_UNAVAILABLE
        ) {
            return Err(FetchError::Blocked);
        }
        if !status.is_success() {
            return Err(FetchError::Unreachable);
        }
        if response
            .content_length()
            .is_some_and(|n| n > limits.max_bytes as u64)
        {
            return Err(FetchError::TooLarge);
        }
        let mut body: Vec<u8> = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|_| FetchError::Unreachable)?
        {
            if body.len() + chunk.len() > limits.max_bytes {
                return Err(FetchError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        return Ok((current.to_string(), body));
    }
    Err(FetchError::TooManyRedirects)
}

/// An address a page names, read against the page's own (`base`) when it is relative; only
/// http and https addresses.
pub fn resolve(base: Option<&str>, href: &str) -> Option<String> {
    let href = href.trim();
    let url = match base.and_then(|b| Url::parse(b).ok()) {
        Some(base) => base.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// The addresses to connect to: the literal one, or every one the name resolves to.
async fn addresses(host: &str, port: u16) -> Result<Vec<SocketAddr>, FetchError> {
    let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::net::lookup_host((host, port))
            .await
            .map_err(|_| FetchError::Unreachable)?
            .collect(),
    };
    if addrs.is_empty() {
        return Err(FetchError::Unreachable);
    }
    Ok(addrs)
}

/// Whether an address is on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    const NOT_PUBLIC: &[&str] = &[
        // IPv4: "this" network, private, shared (CGNAT), loopback, link-local, IETF protocol
        // assignments, documentation, benchmarking, multicast and reserved.
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/3",
        // IPv6: unspecified, loopback, IPv4-compatible (deprecated; "::127.0.0.1"),
        // IPv4-mapped (checked as IPv4 below), NAT64 well-known and local, discard, Teredo and
        // 6to4 (both carry an IPv4 address), documentation, unique-local, link-local,
        // multicast.
        "::/96",
        "::1/128",
        "64:ff9b::/96",
        "64:ff9b:1::/48",
        "100::/64",
        "2001::/32",
        "2002::/16",
        "2001:db8::/32",
        "fc00::/7",
        "fe80::/10",
        "ff00::/8",
    ];
    if let IpAddr::V6(v6) = ip
        && let Some(v4) = v6.to_ipv4_mapped()
    {
        return is_public(IpAddr::V4(v4));
    }
    !NOT_PUBLIC
        .iter()
        .filter_map(|n| n.parse::<ipnet::IpNet>().ok())
        .any(|net| net.contains(&ip))
}

#[cfg(test)]
mod tests;
