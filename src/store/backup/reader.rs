//! Reads an archive from start to end, checking everything: member names and types, sizes,
//! every record, every photo, the manifest's checksums and counts. What it reads goes to a
//! `Sink` (nothing, for `verify`; a new store, for `restore`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Read};

use flate2::read::GzDecoder;

use super::archive::{
    self, FORMAT, FamilyLine, Hashing, Header, MAX_LINE, MAX_MEDIA, MAX_MEMBER, MAX_META, Manifest,
    Member, Name,
};
use super::kinds::{Kind, Loaded};
use super::{ArchiveError, Summary};
use crate::domain::ids::{FamilyId, MediaId};
use crate::store::media::Variant;

/// Where the records and photos of an archive go.
pub(crate) trait Sink {
    fn family(&mut self, line: &FamilyLine) -> Result<(), String>;
    fn record(&mut self, kind: Kind, stored: &[u8], loaded: &Loaded) -> Result<(), String>;
    fn media(
        &mut self,
        family: FamilyId,
        id: MediaId,
        variant: Variant,
        bytes: &[u8],
    ) -> Result<(), String>;
}

/// Reads nothing into anything: `verify`.
pub(crate) struct Discard;

impl Sink for Discard {
    fn family(&mut self, _: &FamilyLine) -> Result<(), String> {
        Ok(())
    }
    fn record(&mut self, _: Kind, _: &[u8], _: &Loaded) -> Result<(), String> {
        Ok(())
    }
    fn media(&mut self, _: FamilyId, _: MediaId, _: Variant, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

/// What the walk has seen so far, for the checks at the end.
#[derive(Default)]
struct Seen {
    header: Option<Header>,
    members: Vec<Member>,
    paths: HashSet<String>,
    counts: BTreeMap<String, u64>,
    /// Photo records: (family, id) -> sizes found.
    media: HashMap<(FamilyId, MediaId), Vec<Variant>>,
    /// Photo files before their record was seen (records come first in our archives, but the
    /// order is not relied on).
    files: HashSet<(FamilyId, MediaId, Variant)>,
    /// Photos named by records: (family, id, which record).
    used: Vec<(FamilyId, MediaId, &'static str)>,
    /// Every record's kind and key, and the records each one needs (a meal's child).
    keys: HashSet<(Kind, Vec<u8>)>,
    needs: Vec<(Kind, Vec<u8>, &'static str)>,
}

fn read_error(e: std::io::Error) -> ArchiveError {
    use std::io::ErrorKind;
    // tar reports a cut-off block, and a damaged header, in words only (kind `Other`).
    if e.kind() == ErrorKind::UnexpectedEof || e.to_string().contains("failed to read entire block")
    {
        ArchiveError::Truncated
    } else if matches!(e.kind(), ErrorKind::Other | ErrorKind::InvalidData) {
        ArchiveError::Invalid(e.to_string())
    } else {
        ArchiveError::Unreadable(e.to_string())
    }
}

/// Walks the whole archive into `sink`; every check passes or nothing is returned.
pub(crate) fn walk(input: impl Read, sink: &mut dyn Sink) -> Result<Summary, ArchiveError> {
    let mut tar = tar::Archive::new(input);
    let mut seen = Seen::default();
    let mut manifest: Option<Manifest> = None;
    for entry in tar.entries().map_err(read_error)? {
        let entry = entry.map_err(|e| match read_error(e) {
            // Not even a tar header before ours: some other file.
            ArchiveError::Invalid(_) if seen.header.is_none() => ArchiveError::NotABackup,
            other => other,
        })?;
        let path = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        if manifest.is_some() {
            return Err(ArchiveError::Invalid(format!(
                "`{path}` comes after the manifest, which must be the last member"
            )));
        }
        let kind = entry.header().entry_type();
        if kind != tar::EntryType::Regular {
            return Err(ArchiveError::NotAFile(path));
        }
        let Some(name) = archive::parse_name(&path) else {
            return Err(ArchiveError::Unsafe(path));
        };
        if seen.header.is_none() && name != Name::Header {
            return Err(ArchiveError::NotABackup);
        }
        if !seen.paths.insert(path.clone()) {
            return Err(ArchiveError::Invalid(format!("`{path}` appears twice")));
        }
        let size = entry.header().size().map_err(read_error)?;
        let limit = match name {
            Name::Header | Name::Manifest => MAX_META,
            Name::Media(..) => MAX_MEDIA,
            Name::Records(_) => MAX_MEMBER,
        };
        if size > limit {
            return Err(ArchiveError::TooLarge { path, size, limit });
        }
        let mut member = Hashing::new(entry);
        match &name {
            Name::Header => {
                let header: Header = serde_json::from_slice(&read_all(&mut member, size)?)
                    .map_err(|_| ArchiveError::NotABackup)?;
                if header.app != archive::APP {
                    return Err(ArchiveError::NotABackup);
                }
                if header.format > FORMAT {
                    return Err(ArchiveError::NewerFormat(header.format));
                }
                if header.format == 0 {
                    return Err(ArchiveError::Invalid(
                        "format version 0 does not exist".into(),
                    ));
                }
                seen.header = Some(header);
            }
            Name::Manifest => {
                manifest = Some(
                    serde_json::from_slice(&read_all(&mut member, size)?).map_err(|e| {
                        ArchiveError::Invalid(format!("the manifest is unreadable: {e}"))
                    })?,
                );
                continue;
            }
            Name::Records(kind) => {
                let count = records(*kind, &mut member, sink, &mut seen)?;
                seen.counts.insert(kind.name().to_string(), count);
            }
            Name::Media(family, id, variant) => {
                let bytes = read_all(&mut member, size)?;
                seen.files.insert((*family, *id, *variant));
                sink.media(*family, *id, *variant, &bytes)
                    .map_err(ArchiveError::Invalid)?;
            }
        }
        // Whatever the member holds beyond what was read counts too.
        std::io::copy(&mut member, &mut std::io::sink()).map_err(read_error)?;
        if member.read != size {
            return Err(ArchiveError::Truncated);
        }
        seen.members.push(Member {
            path,
            size,
            sha256: member.hex(),
        });
    }
    let Some(manifest) = manifest else {
        return Err(if seen.header.is_none() {
            ArchiveError::NotABackup
        } else {
            ArchiveError::Truncated
        });
    };
    check(seen, manifest)
}

fn read_all(member: &mut impl Read, size: u64) -> Result<Vec<u8>, ArchiveError> {
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0).min(1 << 20));
    member
        .take(size)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 != size {
        return Err(ArchiveError::Truncated);
    }
    Ok(bytes)
}

/// Reads one kind's record lines.
fn records(
    kind: Kind,
    member: &mut impl Read,
    sink: &mut dyn Sink,
    seen: &mut Seen,
) -> Result<u64, ArchiveError> {
    let bad = |n: u64, why: String| {
        ArchiveError::Invalid(format!("{} record {n} is unreadable: {why}", kind.name()))
    };
    let mut lines = BufReader::new(GzDecoder::new(member));
    let mut line = Vec::new();
    let mut count = 0u64;
    loop {
        line.clear();
        let n = (&mut lines)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| {
                ArchiveError::Invalid(format!("{} records are damaged: {e}", kind.name()))
            })?;
        if n == 0 {
            return Ok(count);
        }
        count += 1;
        if line.pop() != Some(b'\n') {
            return Err(bad(count, "too long, or cut off".into()));
        }
        if kind == Kind::Families {
            let family: FamilyLine =
                serde_json::from_slice(&line).map_err(|e| bad(count, e.to_string()))?;
            sink.family(&family).map_err(ArchiveError::Invalid)?;
            continue;
        }
        let stored = archive::parse_record_line(&line).map_err(|e| bad(count, e))?;
        let loaded = kind.read(&stored).map_err(|e| bad(count, e))?;
        if let Some(key) = loaded.media {
            seen.media.insert(key, Vec::new());
        }
        if let Some(family) = loaded.family {
            for photo in &loaded.photos {
                seen.used.push((family, *photo, kind.name()));
            }
        }
        seen.keys.insert((kind, loaded.key.clone()));
        for (needed, key) in &loaded.requires {
            seen.needs.push((*needed, key.clone(), kind.name()));
        }
        sink.record(kind, &stored, &loaded)
            .map_err(ArchiveError::Invalid)?;
    }
}

/// The checks that need the whole archive: the manifest against what was read, and photos
/// against the records that name them.
fn check(mut seen: Seen, manifest: Manifest) -> Result<Summary, ArchiveError> {
    if manifest.members.len() != seen.members.len() {
        return Err(ArchiveError::Invalid(format!(
            "the manifest lists {} members, the archive has {}",
            manifest.members.len(),
            seen.members.len()
        )));
    }
    for (listed, found) in manifest.members.iter().zip(&seen.members) {
        if listed != found {
            return Err(ArchiveError::Checksum(found.path.clone()));
        }
    }
    if archive::content_digest(&seen.members) != manifest.sha256 {
        return Err(ArchiveError::Checksum(archive::MANIFEST.into()));
    }
    for kind in Kind::ALL {
        let found = seen.counts.get(kind.name()).copied();
        if found.is_none() && (manifest.counts.get(kind.name()).copied().unwrap_or(0) > 0) {
            return Err(ArchiveError::Invalid(format!(
                "the {} records are missing",
                kind.name()
            )));
        }
        if found.is_some_and(|n| manifest.counts.get(kind.name()) != Some(&n)) {
            return Err(ArchiveError::Invalid(format!(
                "the manifest counts a different number of {} records",
                kind.name()
            )));
        }
    }
    for (family, id, variant) in &seen.files {
        match seen.media.get_mut(&(*family, *id)) {
            Some(sizes) => sizes.push(*variant),
            None => {
                return Err(ArchiveError::Invalid(format!(
                    "photo file {} has no photo record",
                    archive::media_path(*family, *id, *variant)
                )));
            }
        }
    }
    for ((_, id), sizes) in &seen.media {
        for needed in [Variant::Full, Variant::Thumb] {
            if !sizes.contains(&needed) {
                return Err(ArchiveError::Invalid(format!(
                    "photo {id} is missing its {needed:?} size"
                )));
            }
        }
    }
    for (family, id, by) in &seen.used {
        if !seen.media.contains_key(&(*family, *id)) {
            return Err(ArchiveError::Invalid(format!(
                "photo {id}, used by the {by} records, is missing"
            )));
        }
    }
    // One moment: nothing refers to a record the archive does not have.
    for (needed, key, by) in &seen.needs {
        if !seen.keys.contains(&(*needed, key.clone())) {
            return Err(ArchiveError::Invalid(format!(
                "one of the {by} records refers to a {} record the archive does not have",
                needed.name()
            )));
        }
    }
    let mut counts = seen.counts;
    counts.insert("media_files".into(), seen.files.len() as u64);
    if manifest.counts.get("media_files") != counts.get("media_files") {
        return Err(ArchiveError::Invalid(
            "the manifest counts a different number of photo files".into(),
        ));
    }
    let header = seen.header.ok_or(ArchiveError::NotABackup)?;
    Ok(Summary {
        created_at: header.created_at,
        counts,
        sha256: manifest.sha256,
    })
}
