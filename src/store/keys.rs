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
}
