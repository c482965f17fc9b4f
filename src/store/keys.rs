//! Key encoding. Family-owned records are keyed `owner_id ++ record_id` (32 bytes): listing is a
//! prefix scan, and another family's record is unreachable by construction.

/// `owner ++ record`.
pub fn owned(owner: &[u8; 16], record: &[u8; 16]) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..16].copy_from_slice(owner);
    key[16..].copy_from_slice(record);
    key
}

/// The record id half of an owned key.
pub fn record_part(key: &[u8]) -> Option<[u8; 16]> {
    key.get(16..32)?.try_into().ok()
}

/// A timestamp as 8 bytes that sort like the time (milliseconds, sign bit flipped).
pub fn time(t: chrono::DateTime<chrono::Utc>) -> [u8; 8] {
    ((t.timestamp_millis() as u64) ^ (1 << 63)).to_be_bytes()
}

/// `parts` joined into one key.
pub fn join(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// The 32-byte second half of a `prefix(16) ++ hash(32)` key.
pub fn record_part_32(key: &[u8]) -> Option<[u8; 32]> {
    key.get(16..48)?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_keys_group_by_owner() {
        let a = [1u8; 16];
        let b = [2u8; 16];
        let key = owned(&a, &b);
        assert!(key.starts_with(&a));
        assert_eq!(record_part(&key), Some(b));
        assert_eq!(record_part(&key[..20]), None);
    }

    #[test]
    fn time_keys_sort_like_times() {
        use chrono::{TimeZone, Utc};
        let times = [
            Utc.with_ymd_and_hms(1960, 1, 1, 0, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(1970, 1, 1, 0, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(2025, 5, 20, 12, 0, 0).unwrap(),
            Utc.with_ymd_and_hms(2025, 5, 20, 12, 0, 1).unwrap(),
        ];
        let keys: Vec<_> = times.iter().map(|t| time(*t)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}
