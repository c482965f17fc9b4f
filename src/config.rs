//! Settings: defaults < TOML file < `HIGHCHAIR_<SECTION>_<KEY>` environment < command-line flags.
//!
//! Everything is validated once, here; the rest of the program trusts a `Settings` value.
//! Errors name the key (and the line, for the TOML file) so a self-hoster can fix them quickly.

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

/// Prefix of every environment variable that overrides a setting.
pub const ENV_PREFIX: &str = "HIGHCHAIR_";
/// Environment variable naming the config file (the `--config` flag wins over it).
pub const ENV_CONFIG_FILE: &str = "HIGHCHAIR_CONFIG";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub server: ServerSettings,
    pub storage: StorageSettings,
    pub auth: AuthSettings,
    pub recipes: RecipeSettings,
    pub money: MoneySettings,
    pub limits: LimitSettings,
    pub backup: BackupSettings,
    pub log: LogSettings,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerSettings {
    /// Address and port the HTTP server listens on.
    pub listen: SocketAddr,
    /// The address families use to reach the server, e.g. `https://meals.example.org`.
    /// Used for links the server prints and for the same-origin check. Empty: derived from requests.
    pub public_url: String,
    /// Reverse proxies (IPs or CIDR ranges) whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Vec<String>,
    /// Shown on the contact page as a second way to reach the admin. Empty: not shown.
    pub contact_email: String,
    /// Host names the server answers to besides IP addresses, `localhost`, `*.local` and the
    /// host of `public_url` (`*.example.org` allows its subdomains). Others get 400, so a
    /// DNS-rebinding page cannot reach the server under its own name.
    pub allowed_hosts: Vec<String>,
    /// The language (en, fr, de, es) for a browser that asks for none of them, API clients
    /// that ask for none, and the CLI. Parents choose their own on the profile page.
    pub language: crate::i18n::Lang,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([0, 0, 0, 0], 8080)),
            public_url: String::new(),
            trusted_proxies: Vec::new(),
            contact_email: String::new(),
            allowed_hosts: Vec::new(),
            language: crate::i18n::Lang::En,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StorageSettings {
    pub data_dir: PathBuf,
    /// sled page cache in MiB (sled's own default of 1 GiB is far too much for a Raspberry Pi).
    pub cache_mb: u32,
}

impl Default for StorageSettings {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("./data"),
            cache_mb: 32,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuthSettings {
    pub allow_signup: bool,
    pub allow_guests: bool,
    pub session_days: u32,
}

impl Default for AuthSettings {
    fn default() -> Self {
        Self {
            allow_signup: true,
            allow_guests: true,
            session_days: 30,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GeneratorKind {
    Builtin,
    Ollama,
}

impl fmt::Display for GeneratorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GeneratorKind::Builtin => "builtin",
            GeneratorKind::Ollama => "ollama",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RecipeSettings {
    pub generator: GeneratorKind,
    pub ollama_url: String,
    pub ollama_model: String,
    pub timeout_secs: u64,
    /// Whether a recipe may be imported from an address on the home network (a link must not
    /// make the server a probe of the router).
    pub import_allow_private: bool,
}

impl Default for RecipeSettings {
    fn default() -> Self {
        Self {
            generator: GeneratorKind::Builtin,
            ollama_url: "http://127.0.0.1:11434".into(),
            ollama_model: "llama3.2:3b".into(),
            timeout_secs: 600,
            import_allow_private: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MoneySettings {
    /// ISO 4217 code used to show prices (GBP shows as £).
    pub currency: String,
    /// Estimated price of one grocery item, in `currency`.
    pub grocery_item_estimate: f64,
}

impl Default for MoneySettings {
    fn default() -> Self {
        Self {
            currency: "GBP".into(),
            grocery_item_estimate: 2.50,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LimitSettings {
    /// Largest request body, in KiB, for everything except uploads.
    pub body_kb: u32,
    /// Largest photo upload, in MiB.
    pub upload_mb: u32,
    /// A request's head (line and headers) must arrive within this many seconds of its first byte.
    pub header_timeout_secs: u32,
    /// A request body (or a response the client is reading) may stall this long, then the
    /// connection is closed.
    pub body_timeout_secs: u32,
    /// A kept-alive connection with no request in progress is closed after this many seconds.
    pub idle_timeout_secs: u32,
    /// Open connections in all (further ones are refused with 503). Lowered at start when the
    /// process may not open that many files.
    pub max_connections: u32,
    /// Open connections from one client IP (trusted proxies count only toward the total).
    pub max_connections_per_ip: u32,
    /// Photo storage per family, in MiB.
    pub family_storage_mb: u32,
    /// Photo storage per guest, in MiB.
    pub guest_storage_mb: u32,
    /// Photo uploads per family per hour.
    pub uploads_per_hour: u32,
    /// Photo uploads per guest per hour.
    pub guest_uploads_per_hour: u32,
    /// Co-parent PIN attempts (and PIN set-ups) one client address may make per hour, over
    /// every link.
    pub pin_attempts_per_ip_per_hour: u32,
    /// Co-parent PIN attempts the whole server takes per hour (bounds the hashing work and
    /// guesses spread over many addresses; parents are never held by it).
    pub pin_attempts_per_hour: u32,
    /// Co-parent PINs hashed per hour for one family's links (sign-ins, right or wrong, and
    /// PINs chosen): a family's own links cannot spend more, nor anything of another family's.
    pub pin_attempts_per_family_per_hour: u32,
    /// Uploads are refused (507) while the data directory's disk has less free space, in MiB.
    pub min_free_disk_mb: u64,
    /// Memory all photos being processed at once may take, in MiB. Uploads queue for it; a
    /// photo that needs more on its own is refused (413).
    pub image_memory_mb: u32,
}

impl Default for LimitSettings {
    fn default() -> Self {
        Self {
            body_kb: 256,
            upload_mb: 15,
            header_timeout_secs: 10,
            body_timeout_secs: 30,
            idle_timeout_secs: 60,
            max_connections: 1000,
            max_connections_per_ip: 64,
            family_storage_mb: 4096,
            guest_storage_mb: 25,
            uploads_per_hour: 120,
            guest_uploads_per_hour: 20,
            pin_attempts_per_ip_per_hour: 20,
            pin_attempts_per_hour: 120,
            pin_attempts_per_family_per_hour: 30,
            min_free_disk_mb: 1024,
            image_memory_mb: 128,
        }
    }
}

impl LimitSettings {
    pub fn body_bytes(&self) -> u64 {
        u64::from(self.body_kb) * 1024
    }

    pub fn upload_bytes(&self) -> u64 {
        u64::from(self.upload_mb) * 1024 * 1024
    }

    /// The photo storage quota of a family (or a guest), in bytes.
    pub fn storage_quota_bytes(&self, guest: bool) -> u64 {
        let mb = if guest {
            self.guest_storage_mb
        } else {
            self.family_storage_mb
        };
        u64::from(mb) * 1024 * 1024
    }

    pub fn min_free_disk_bytes(&self) -> u64 {
        self.min_free_disk_mb.saturating_mul(1024 * 1024)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl LogLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BackupSettings {
    /// Where automatic backups go. Empty: `<data_dir>/backups`.
    pub dir: PathBuf,
    /// Hours between automatic backups; 0 turns them off.
    pub interval_hours: u32,
    /// Automatic backups kept; older ones are removed, oldest first.
    pub keep: u32,
}

impl Default for BackupSettings {
    fn default() -> Self {
        Self {
            dir: PathBuf::new(),
            interval_hours: 24,
            keep: 7,
        }
    }
}

impl Settings {
    /// Where automatic backups go.
    pub fn backup_dir(&self) -> PathBuf {
        if self.backup.dir.as_os_str().is_empty() {
            self.storage.data_dir.join("backups")
        } else {
            self.backup.dir.clone()
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LogSettings {
    pub level: LogLevel,
}

impl Default for LogSettings {
    fn default() -> Self {
        Self {
            level: LogLevel::Info,
        }
    }
}

/// Where a bad value came from, so the message can point at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    File { path: PathBuf, line: Option<usize> },
    Env(String),
    Flag(&'static str),
    Default,
}

/// A configuration problem. The program exits with code 2 and never starts the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// `section.key` (or the section alone, or empty for a syntax error).
    pub key: String,
    pub origin: Origin,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.origin {
            Origin::File { path, line } => {
                write!(f, "{}", path.display())?;
                if let Some(line) = line {
                    write!(f, ", line {line}")?;
                }
                if self.key.is_empty() {
                    write!(f, ": {}", self.message)
                } else {
                    write!(f, ": `{}`: {}", self.key, self.message)
                }
            }
            Origin::Env(var) => write!(f, "environment variable {var}: {}", self.message),
            Origin::Flag(flag) => write!(f, "{flag}: {}", self.message),
            Origin::Default => write!(f, "`{}`: {}", self.key, self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Values given on the command line; they win over everything else.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub listen: Option<String>,
    pub data_dir: Option<PathBuf>,
}

/// Everything `load` needs, gathered by the caller so tests can pass their own environment.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub file: Option<PathBuf>,
    pub env: Vec<(String, String)>,
    pub overrides: Overrides,
}

impl Sources {
    /// The real process environment plus the given file and flags.
    pub fn from_process(file: Option<PathBuf>, overrides: Overrides) -> Self {
        let env: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| k.starts_with(ENV_PREFIX))
            .collect();
        let file = file.or_else(|| {
            env.iter()
                .find(|(k, _)| k == ENV_CONFIG_FILE)
                .map(|(_, v)| PathBuf::from(v))
        });
        Self {
            file,
            env,
            overrides,
        }
    }
}

impl Settings {
    /// Builds the effective settings from all sources and validates them.
    pub fn load(sources: &Sources) -> Result<Settings, ConfigError> {
        let mut origins: Vec<(String, Origin)> = Vec::new();
        let mut file_text: Option<(PathBuf, String)> = None;

        let mut settings = match &sources.file {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
                    key: String::new(),
                    origin: Origin::File {
                        path: path.clone(),
                        line: None,
                    },
                    message: format!("cannot read the configuration file: {e}"),
                })?;
                let settings = parse_toml(path, &text)?;
                file_text = Some((path.clone(), text));
                settings
            }
            None => Settings::default(),
        };

        apply_env(&mut settings, &sources.env, &mut origins)?;

        if let Some(listen) = &sources.overrides.listen {
            settings.server.listen = listen.parse().map_err(|_| ConfigError {
                key: "server.listen".into(),
                origin: Origin::Flag("--listen"),
                message: format!("`{listen}` is not an address and port such as 0.0.0.0:8080"),
            })?;
        }
        if let Some(dir) = &sources.overrides.data_dir {
            settings.storage.data_dir = dir.clone();
            origins.push(("storage.data_dir".into(), Origin::Flag("--data-dir")));
        }

        if let Err((key, message)) = settings.validate() {
            let origin = origins
                .iter()
                .rev()
                .find(|(k, _)| *k == key)
                .map(|(_, o)| o.clone())
                .or_else(|| {
                    file_text.as_ref().map(|(path, text)| Origin::File {
                        path: path.clone(),
                        line: line_of_key(text, &key),
                    })
                })
                .unwrap_or(Origin::Default);
            return Err(ConfigError {
                key,
                origin,
                message,
            });
        }
        Ok(settings)
    }

    /// Checks value ranges and formats. Returns the offending `section.key` and why.
    pub fn validate(&self) -> Result<(), (String, String)> {
        fn fail<T>(key: &str, message: impl Into<String>) -> Result<T, (String, String)> {
            Err((key.to_string(), message.into()))
        }

        if !self.server.public_url.is_empty() {
            if let Err(msg) = check_http_url(&self.server.public_url) {
                return fail("server.public_url", msg);
            }
            if self.server.public_url.ends_with('/') {
                return fail(
                    "server.public_url",
                    "must not end with `/` (write https://meals.example.org)",
                );
            }
        }
        for proxy in &self.server.trusted_proxies {
            if parse_proxy(proxy).is_none() {
                return fail(
                    "server.trusted_proxies",
                    format!("`{proxy}` is not an IP address or CIDR range such as 10.0.0.0/8"),
                );
            }
        }
        for host in &self.server.allowed_hosts {
            let name = host.strip_prefix("*.").unwrap_or(host);
            let valid = !name.is_empty()
                && name.len() <= 253
                && name.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && label
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                });
            if !valid {
                return fail(
                    "server.allowed_hosts",
                    format!("`{host}` is not a host name such as meals.example.org or *.ts.net"),
                );
            }
        }
        if !self.server.contact_email.is_empty()
            && crate::domain::email::Email::parse(&self.server.contact_email).is_none()
        {
            return fail("server.contact_email", "is not a valid e-mail address");
        }
        if self.storage.data_dir.as_os_str().is_empty() {
            return fail("storage.data_dir", "must not be empty");
        }
        if !(4..=4096).contains(&self.storage.cache_mb) {
            return fail("storage.cache_mb", "must be between 4 and 4096 (MiB)");
        }
        if self.backup.interval_hours > 24 * 365 {
            return fail(
                "backup.interval_hours",
                "must be between 0 (off) and 8760 (hours)",
            );
        }
        if !(1..=1000).contains(&self.backup.keep) {
            return fail("backup.keep", "must be between 1 and 1000");
        }
        if !(1..=365).contains(&self.auth.session_days) {
            return fail("auth.session_days", "must be between 1 and 365");
        }
        if let Err(msg) = check_http_url(&self.recipes.ollama_url) {
            return fail("recipes.ollama_url", msg);
        }
        if self.recipes.ollama_model.trim().is_empty() {
            return fail("recipes.ollama_model", "must not be empty");
        }
        if !(1..=86_400).contains(&self.recipes.timeout_secs) {
            return fail(
                "recipes.timeout_secs",
                "must be between 1 and 86400 (seconds)",
            );
        }
        let currency = &self.money.currency;
        if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_uppercase()) {
            return fail(
                "money.currency",
                format!("`{currency}` is not a three-letter currency code such as GBP"),
            );
        }
        let estimate = self.money.grocery_item_estimate;
        if !estimate.is_finite() || !(0.0..=10_000.0).contains(&estimate) {
            return fail(
                "money.grocery_item_estimate",
                "must be a number between 0 and 10000",
            );
        }
        if !(1..=16_384).contains(&self.limits.body_kb) {
            return fail("limits.body_kb", "must be between 1 and 16384 (KiB)");
        }
        if !(1..=100).contains(&self.limits.upload_mb) {
            return fail("limits.upload_mb", "must be between 1 and 100 (MiB)");
        }
        for (key, value) in [
            (
                "limits.header_timeout_secs",
                self.limits.header_timeout_secs,
            ),
            ("limits.body_timeout_secs", self.limits.body_timeout_secs),
            ("limits.idle_timeout_secs", self.limits.idle_timeout_secs),
        ] {
            if !(1..=3600).contains(&value) {
                return fail(key, "must be between 1 and 3600 (seconds)");
            }
        }
        if !(16..=1_000_000).contains(&self.limits.max_connections) {
            return fail("limits.max_connections", "must be between 16 and 1000000");
        }
        for (key, value) in [
            ("limits.family_storage_mb", self.limits.family_storage_mb),
            ("limits.guest_storage_mb", self.limits.guest_storage_mb),
        ] {
            if !(1..=16_777_216).contains(&value) {
                return fail(key, "must be between 1 and 16777216 (MiB)");
            }
        }
        for (key, value) in [
            ("limits.uploads_per_hour", self.limits.uploads_per_hour),
            (
                "limits.guest_uploads_per_hour",
                self.limits.guest_uploads_per_hour,
            ),
            (
                "limits.pin_attempts_per_ip_per_hour",
                self.limits.pin_attempts_per_ip_per_hour,
            ),
            (
                "limits.pin_attempts_per_hour",
                self.limits.pin_attempts_per_hour,
            ),
            (
                "limits.pin_attempts_per_family_per_hour",
                self.limits.pin_attempts_per_family_per_hour,
            ),
        ] {
            if !(1..=100_000).contains(&value) {
                return fail(key, "must be between 1 and 100000");
            }
        }
        if !(16..=65_536).contains(&self.limits.image_memory_mb) {
            return fail(
                "limits.image_memory_mb",
                "must be between 16 and 65536 (MiB)",
            );
        }
        if self.limits.min_free_disk_mb > 16_777_216 {
            return fail("limits.min_free_disk_mb", "must be at most 16777216 (MiB)");
        }
        if !(1..=self.limits.max_connections).contains(&self.limits.max_connections_per_ip) {
            return fail(
                "limits.max_connections_per_ip",
                "must be between 1 and limits.max_connections",
            );
        }
        Ok(())
    }

    /// The validated proxy list as networks (a bare IP becomes a /32 or /128).
    pub fn trusted_proxy_nets(&self) -> Vec<IpNet> {
        self.server
            .trusted_proxies
            .iter()
            .filter_map(|p| parse_proxy(p))
            .collect()
    }

    /// The address people use to reach this server, for links the server prints:
    /// `public_url`, or `http://<listen>` with an unspecified address shown as `localhost`.
    pub fn base_url(&self) -> String {
        if !self.server.public_url.is_empty() {
            return self.server.public_url.clone();
        }
        let listen = self.server.listen;
        if listen.ip().is_unspecified() {
            format!("http://localhost:{}", listen.port())
        } else {
            format!("http://{listen}")
        }
    }

    /// The settings as TOML, for `highchair config check`.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_else(|e| format!("# cannot print settings: {e}\n"))
    }
}

fn parse_proxy(text: &str) -> Option<IpNet> {
    let text = text.trim();
    text.parse::<IpNet>()
        .ok()
        .or_else(|| text.parse::<IpAddr>().ok().map(IpNet::from))
}

/// `http://host[:port][/path]` or `https://...`, with a non-empty host.
fn check_http_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .ok_or_else(|| format!("`{url}` must start with http:// or https://"))?;
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() || host.contains(char::is_whitespace) || host.contains('@') {
        return Err(format!("`{url}` has no valid host"));
    }
    Ok(())
}

fn parse_toml(path: &Path, text: &str) -> Result<Settings, ConfigError> {
    toml::from_str::<Settings>(text).map_err(|err| {
        let line = err.span().map(|span| line_number(text, span.start));
        let key = err
            .span()
            .map(|span| key_at(text, span.start))
            .unwrap_or_default();
        ConfigError {
            key,
            origin: Origin::File {
                path: path.to_path_buf(),
                line,
            },
            message: err.message().trim().to_string(),
        }
    })
}

fn line_number(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The `section.key` written on the line holding `offset` (for error messages).
fn key_at(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or_default().trim();
    let section = current_section(&text[..line_start]);
    if let Some(header) = line.strip_prefix('[') {
        return header.trim_end_matches(']').trim().to_string();
    }
    let key = line.split('=').next().unwrap_or_default().trim();
    match (section.is_empty(), key.is_empty()) {
        (_, true) => section,
        (true, false) => key.to_string(),
        (false, false) => format!("{section}.{key}"),
    }
}

/// The last `[section]` header in `before`.
fn current_section(before: &str) -> String {
    before
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && !l.starts_with("[["))
        .map(|l| {
            l.trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .unwrap_or_default()
}

/// The line where `section.key` is written in a TOML text, if it can be found.
fn line_of_key(text: &str, dotted: &str) -> Option<usize> {
    let (section, key) = dotted.split_once('.')?;
    let mut current = String::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            current = line
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string();
            continue;
        }
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim();
        if (current == section && name == key) || name == dotted {
            return Some(index + 1);
        }
    }
    None
}

/// Applies `HIGHCHAIR_<SECTION>_<KEY>` variables. The value is read with the type the setting has.
fn apply_env(
    settings: &mut Settings,
    env: &[(String, String)],
    origins: &mut Vec<(String, Origin)>,
) -> Result<(), ConfigError> {
    let mut vars: Vec<&(String, String)> = env
        .iter()
        .filter(|(k, _)| k.starts_with(ENV_PREFIX) && k != ENV_CONFIG_FILE)
        .collect();
    if vars.is_empty() {
        return Ok(());
    }
    vars.sort();

    let mut tree = toml::Value::try_from(&*settings).map_err(|e| ConfigError {
        key: String::new(),
        origin: Origin::Default,
        message: e.to_string(),
    })?;

    for (var, raw) in vars {
        let fail = |message: String| ConfigError {
            key: String::new(),
            origin: Origin::Env(var.clone()),
            message,
        };
        let name = var[ENV_PREFIX.len()..].to_ascii_lowercase();
        let Some((section, key)) = name.split_once('_') else {
            return Err(fail(
                "is not a setting (expected HIGHCHAIR_<SECTION>_<KEY>, e.g. HIGHCHAIR_SERVER_LISTEN)"
                    .into(),
            ));
        };
        let slot = tree
            .get_mut(section)
            .and_then(|s| s.as_table_mut())
            .ok_or_else(|| fail(format!("unknown section `{section}`")))?
            .get_mut(key)
            .ok_or_else(|| fail(format!("unknown setting `{section}.{key}`")))?;
        *slot = env_value(slot, raw).map_err(|m| fail(format!("`{section}.{key}` {m}")))?;
        // Typed checks (addresses, enums) happen on deserialisation; do it per variable so the
        // error names the variable that caused it.
        *settings = tree.clone().try_into().map_err(|e: toml::de::Error| {
            fail(format!("`{section}.{key}`: {}", e.message().trim()))
        })?;
        origins.push((format!("{section}.{key}"), Origin::Env(var.clone())));
    }
    Ok(())
}

/// Reads an environment string as the same TOML type as the current value.
fn env_value(current: &toml::Value, raw: &str) -> Result<toml::Value, String> {
    use toml::Value;
    let raw = raw.trim();
    match current {
        Value::String(_) => Ok(Value::String(raw.to_string())),
        Value::Integer(_) => raw
            .parse::<i64>()
            .map(Value::Integer)
            .map_err(|_| format!("must be a whole number, not `{raw}`")),
        Value::Float(_) => raw
            .parse::<f64>()
            .map(Value::Float)
            .map_err(|_| format!("must be a number, not `{raw}`")),
        Value::Boolean(_) => match raw.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Ok(Value::Boolean(true)),
            "false" | "0" | "no" | "off" => Ok(Value::Boolean(false)),
            _ => Err(format!("must be true or false, not `{raw}`")),
        },
        Value::Array(_) => Ok(Value::Array(
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )),
        _ => Err("cannot be set from the environment".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn file_sources(text: &str) -> (tempfile::TempDir, Sources) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("highchair.toml");
        std::fs::write(&path, text).unwrap();
        (
            dir,
            Sources {
                file: Some(path),
                ..Sources::default()
            },
        )
    }

    #[test]
    fn defaults_are_valid_and_match_the_documented_values() {
        let s = Settings::load(&Sources::default()).unwrap();
        assert_eq!(s.server.listen.to_string(), "0.0.0.0:8080");
        assert_eq!(s.storage.data_dir, PathBuf::from("./data"));
        assert_eq!(s.storage.cache_mb, 32);
        assert!(s.auth.allow_signup && s.auth.allow_guests);
        assert_eq!(s.auth.session_days, 30);
        assert_eq!(s.recipes.generator, GeneratorKind::Builtin);
        assert_eq!(s.recipes.ollama_model, "llama3.2:3b");
        assert_eq!(s.recipes.timeout_secs, 600);
        assert_eq!(s.money.currency, "GBP");
        assert_eq!(s.money.grocery_item_estimate, 2.5);
        assert_eq!((s.limits.body_kb, s.limits.upload_mb), (256, 15));
        assert_eq!(s.log.level, LogLevel::Info);
    }

    #[test]
    fn documented_example_file_parses_to_the_defaults() {
        let text = include_str!("../config/highchair.toml");
        let (_dir, sources) = file_sources(text);
        assert_eq!(Settings::load(&sources).unwrap(), Settings::default());
    }

    #[test]
    fn precedence_is_defaults_file_env_flags() {
        let (_dir, mut sources) = file_sources(
            "[server]\nlisten = \"127.0.0.1:9000\"\n[storage]\ndata_dir = \"/from/file\"\ncache_mb = 8\n",
        );
        let s = Settings::load(&sources).unwrap();
        assert_eq!(s.server.listen.to_string(), "127.0.0.1:9000");
        assert_eq!(s.storage.cache_mb, 8);

        sources.env = env(&[
            ("HIGHCHAIR_SERVER_LISTEN", "127.0.0.1:9001"),
            ("HIGHCHAIR_STORAGE_DATA_DIR", "/from/env"),
            ("HIGHCHAIR_AUTH_ALLOW_GUESTS", "false"),
            ("HIGHCHAIR_RECIPES_IMPORT_ALLOW_PRIVATE", "true"),
            (
                "HIGHCHAIR_SERVER_TRUSTED_PROXIES",
                "10.0.0.0/8, 192.168.1.1",
            ),
        ]);
        let s = Settings::load(&sources).unwrap();
        assert_eq!(s.server.listen.to_string(), "127.0.0.1:9001");
        assert_eq!(s.storage.data_dir, PathBuf::from("/from/env"));
        assert_eq!(s.storage.cache_mb, 8, "file value kept where env is silent");
        assert!(!s.auth.allow_guests);
        assert!(s.recipes.import_allow_private);
        assert_eq!(s.trusted_proxy_nets().len(), 2);

        sources.overrides = Overrides {
            listen: Some("127.0.0.1:9002".into()),
            data_dir: Some("/from/flag".into()),
        };
        let s = Settings::load(&sources).unwrap();
        assert_eq!(s.server.listen.to_string(), "127.0.0.1:9002");
        assert_eq!(s.storage.data_dir, PathBuf::from("/from/flag"));
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let (_dir, sources) = file_sources("[server]\nlisten = \"0.0.0.0:1\"\nlisen = 3\n");
        let err = Settings::load(&sources).unwrap_err();
        assert_eq!(err.key, "server.lisen");
        assert!(
            matches!(err.origin, Origin::File { line: Some(3), .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("unknown field"), "{err}");
    }

    #[test]
    fn unknown_section_is_an_error() {
        let (_dir, sources) = file_sources("[serverr]\nlisten = 1\n");
        let err = Settings::load(&sources).unwrap_err();
        assert_eq!(err.key, "serverr");
        assert!(matches!(err.origin, Origin::File { line: Some(1), .. }));
    }

    #[test]
    fn wrong_type_names_key_and_line() {
        let (_dir, sources) = file_sources("\n[storage]\ncache_mb = \"lots\"\n");
        let err = Settings::load(&sources).unwrap_err();
        assert_eq!(err.key, "storage.cache_mb");
        assert!(matches!(err.origin, Origin::File { line: Some(3), .. }));
    }

    #[test]
    fn bad_value_names_key_and_line() {
        let (_dir, sources) = file_sources("[limits]\nbody_kb = 10\nupload_mb = 0\n");
        let err = Settings::load(&sources).unwrap_err();
        assert_eq!(err.key, "limits.upload_mb");
        assert!(
            matches!(err.origin, Origin::File { line: Some(3), .. }),
            "{err:?}"
        );

        let (_dir, sources) = file_sources("[recipes]\ngenerator = \"gpt\"\n");
        let err = Settings::load(&sources).unwrap_err();
        assert_eq!(err.key, "recipes.generator");
        assert!(err.message.contains("builtin"), "{err}");
    }

    #[test]
    fn syntax_error_reports_line() {
        let (_dir, sources) = file_sources("[server]\nlisten = \n");
        let err = Settings::load(&sources).unwrap_err();
        assert!(
            matches!(err.origin, Origin::File { line: Some(2), .. }),
            "{err:?}"
        );
    }

    #[test]
    fn env_errors_name_the_variable() {
        for (var, value) in [
            ("HIGHCHAIR_SERVER_LISTEN", "not-an-address"),
            ("HIGHCHAIR_STORAGE_CACHE_MB", "many"),
            ("HIGHCHAIR_SERVER_NOPE", "1"),
            ("HIGHCHAIR_NOPE_LISTEN", "1"),
            ("HIGHCHAIR_AUTH_ALLOW_SIGNUP", "maybe"),
            ("HIGHCHAIR_LIMITS_BODY_KB", "0"),
        ] {
            let sources = Sources {
                env: env(&[(var, value)]),
                ..Sources::default()
            };
            let err = Settings::load(&sources).unwrap_err();
            assert!(
                err.to_string().contains(var) || err.key == "limits.body_kb",
                "{var}: {err}"
            );
        }
    }

    #[test]
    fn flag_errors_name_the_flag() {
        let sources = Sources {
            overrides: Overrides {
                listen: Some("nope".into()),
                ..Overrides::default()
            },
            ..Sources::default()
        };
        assert!(
            Settings::load(&sources)
                .unwrap_err()
                .to_string()
                .starts_with("--listen")
        );
    }

    #[test]
    fn value_checks() {
        let mut s = Settings::default();
        s.server.public_url = "ftp://x".into();
        assert_eq!(s.validate().unwrap_err().0, "server.public_url");
        s.server.public_url = "https://meals.example.org".into();
        assert!(s.validate().is_ok());
        s.server.trusted_proxies = vec!["10.0.0.0/33".into()];
        assert_eq!(s.validate().unwrap_err().0, "server.trusted_proxies");
        s.server.trusted_proxies = vec!["::1".into(), "172.16.0.0/12".into()];
        assert!(s.validate().is_ok());
        s.money.currency = "gbp".into();
        assert_eq!(s.validate().unwrap_err().0, "money.currency");
        s.money.currency = "EUR".into();
        s.money.grocery_item_estimate = f64::NAN;
        assert_eq!(s.validate().unwrap_err().0, "money.grocery_item_estimate");
    }

    #[test]
    fn effective_settings_print_as_toml_that_loads_back() {
        let mut s = Settings::default();
        s.server.trusted_proxies = vec!["10.0.0.1".into()];
        let (_dir, sources) = file_sources(&s.to_toml());
        assert_eq!(Settings::load(&sources).unwrap(), s);
    }
}
