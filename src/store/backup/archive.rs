//! The archive format (version `FORMAT`): an uncompressed tar whose members are
//!
//! - `highchair-backup.json` first: format version, app version, creation time;
//! - `records/<kind>.jsonl.gz`: one line per record, `{"v":<record version>,"r":<record>}`
//!   (families: `{"id","revision","deleted"}`), gzip-compressed;
//! - `media/<family>/<photo>/<size>`: each stored photo size as it is (already compressed);
//! - `manifest.json` last: counts per kind, every member's size and SHA-256, and one SHA-256
//!   over that list (the whole archive's content). An archive cut short has no manifest.
//!
//! Member names are fixed patterns: anything else (absolute paths, `..`, links, devices,
//! unknown names) makes the archive invalid, and nothing is ever unpacked by its name.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use super::kinds::Kind;
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::media::Variant;

/// The format this build writes. Older formats are read and migrated; newer ones refused.
/// 2 adds `records/family_settings` (a release that reads 1 would call that member unsafe
/// instead of saying the archive is newer); a format 1 archive restores with the defaults.
/// 3: recipes may be imported, with a source address and a picture (a release that reads 2
/// would drop both, or refuse an imported recipe, instead of saying the archive is newer).
pub const FORMAT: u32 = 3;
pub const APP: &str = "highchair";
pub const HEADER: &str = "highchair-backup.json";
pub const MANIFEST: &str = "manifest.json";
/// The largest member accepted: photos are stored at most a few MiB; records compress well.
pub const MAX_MEMBER: u64 = 4 << 30;
/// The largest photo size accepted (uploads are at most 100 MiB and stored re-encoded).
pub const MAX_MEDIA: u64 = 128 << 20;
/// The largest header or manifest (a manifest names every member: ~150 bytes each).
pub const MAX_META: u64 = 256 << 20;
/// The largest record line (a record is a few KiB; a long grocery list some hundreds).
pub const MAX_LINE: usize = 16 << 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: u32,
    pub app: String,
    pub app_version: String,
    pub created_at: DateTime<Utc>,
}

impl Header {
    pub fn new(created_at: DateTime<Utc>) -> Header {
        Header {
            format: FORMAT,
            app: APP.into(),
            app_version: env!("CARGO_PKG_VERSION").into(),
            created_at,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub app_version: String,
    pub created_at: DateTime<Utc>,
    /// Records per kind, and `media_files`.
    pub counts: BTreeMap<String, u64>,
    /// Every member before the manifest, in archive order.
    pub members: Vec<Member>,
    /// SHA-256 over `members` (see `content_digest`).
    pub sha256: String,
}

/// One SHA-256 for the whole archive: over each member's path, size and SHA-256, in order.
pub fn content_digest(members: &[Member]) -> String {
    let mut h = Sha256::new();
    for m in members {
        h.update(format!("{}\0{}\0{}\n", m.path, m.size, m.sha256).as_bytes());
    }
    hex::encode(h.finalize())
}

/// What a member name stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Name {
    Header,
    Records(Kind),
    Media(FamilyId, MediaId, Variant),
    Manifest,
}

pub fn records_path(kind: Kind) -> String {
    format!("records/{}.jsonl.gz", kind.name())
}

pub fn media_path(family: FamilyId, id: MediaId, variant: Variant) -> String {
    format!("media/{family}/{id}/{}", variant.name())
}

/// Reads a member name; `None` for anything that is not exactly one of the patterns.
pub fn parse_name(path: &str) -> Option<Name> {
    match path {
        HEADER => return Some(Name::Header),
        MANIFEST => return Some(Name::Manifest),
        _ => {}
    }
    if let Some(rest) = path.strip_prefix("records/") {
        let kind = rest.strip_suffix(".jsonl.gz")?;
        return Kind::from_name(kind).map(Name::Records);
    }
    let mut parts = path.strip_prefix("media/")?.split('/');
    let (family, id, variant) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let variant = Variant::ALL.into_iter().find(|v| v.name() == variant)?;
    // Only the canonical spelling, so one photo has one name.
    let family = family
        .parse::<FamilyId>()
        .ok()
        .filter(|f| f.to_string() == family)?;
    let id = id.parse::<MediaId>().ok().filter(|i| i.to_string() == id)?;
    Some(Name::Media(family, id, variant))
}

/// A record line: `{"v":<version>,"r":<the stored JSON, byte for byte>}`.
pub fn record_line(stored: &[u8]) -> Result<Vec<u8>, String> {
    let (version, body) = stored.split_first().ok_or("an empty record")?;
    if body.contains(&b'\n') {
        return Err("a stored record spans lines".into());
    }
    let mut line = format!("{{\"v\":{version},\"r\":").into_bytes();
    line.extend_from_slice(body);
    line.extend_from_slice(b"}\n");
    Ok(line)
}

#[derive(Deserialize)]
struct Line<'a> {
    v: u8,
    #[serde(borrow)]
    r: &'a RawValue,
}

/// The stored form (version byte, then the JSON as archived) of a record line.
pub fn parse_record_line(line: &[u8]) -> Result<Vec<u8>, String> {
    let parsed: Line<'_> = serde_json::from_slice(line).map_err(|e| e.to_string())?;
    let mut stored = vec![parsed.v];
    stored.extend_from_slice(parsed.r.get().as_bytes());
    Ok(stored)
}

/// A reader that hashes (and counts) what passes through it: a member's SHA-256 as it is
/// written or read.
pub(crate) struct Hashing<R> {
    pub inner: R,
    pub hash: Sha256,
    pub read: u64,
}

impl<R> Hashing<R> {
    pub fn new(inner: R) -> Self {
        Hashing {
            inner,
            hash: Sha256::new(),
            read: 0,
        }
    }

    pub fn hex(self) -> String {
        hex::encode(self.hash.finalize())
    }
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        self.read += n as u64;
        Ok(n)
    }
}

/// A family's revision and whether it was deleted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FamilyLine {
    pub id: FamilyId,
    pub revision: u64,
    pub deleted: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_exact_patterns() {
        let (f, m) = (FamilyId::new(), MediaId::new());
        assert_eq!(parse_name(HEADER), Some(Name::Header));
        assert_eq!(parse_name(MANIFEST), Some(Name::Manifest));
        assert_eq!(
            parse_name(&records_path(Kind::Meals)),
            Some(Name::Records(Kind::Meals))
        );
        let path = media_path(f, m, Variant::Thumb);
        assert_eq!(parse_name(&path), Some(Name::Media(f, m, Variant::Thumb)));
        for bad in [
            "/etc/passwd",
            "../manifest.json",
            "records/../../x",
            "records/sessions.jsonl.gz",
            "records/meals.jsonl",
            "./manifest.json",
            "media/x/y/full",
            &format!("{path}/more"),
            &path.to_uppercase(),
            &format!("media/{f}/{m}/original"),
            "",
        ] {
            assert_eq!(parse_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn record_lines_keep_the_stored_bytes() {
        let stored = b"\x02{\"name\":\"Emma \\n\",\"b\":[1,2]}";
        let line = record_line(stored).unwrap();
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(line.iter().filter(|b| **b == b'\n').count(), 1);
        assert_eq!(parse_record_line(line.trim_ascii_end()).unwrap(), stored);
        assert!(record_line(b"").is_err());
        assert!(record_line(b"\x01{\"a\":\n1}").is_err());
        assert!(parse_record_line(b"{\"v\":300,\"r\":{}}").is_err());
        assert!(parse_record_line(b"{\"r\":{}}").is_err());
    }

    #[test]
    fn the_content_digest_covers_every_member() {
        let m = |p: &str, s: u64, h: &str| Member {
            path: p.into(),
            size: s,
            sha256: h.into(),
        };
        let a = vec![m("a", 1, "00"), m("b", 2, "11")];
        let digest = content_digest(&a);
        assert_ne!(digest, content_digest(&[m("a", 1, "00"), m("b", 2, "12")]));
        assert_ne!(digest, content_digest(&[m("a", 1, "00"), m("b", 3, "11")]));
        assert_ne!(digest, content_digest(&[m("b", 2, "11"), m("a", 1, "00")]));
        assert_eq!(digest, content_digest(&a));
    }
}
