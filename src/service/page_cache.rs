//! Answers of list endpoints, kept by family revision: a list cannot change without its
//! family's revision moving on, so an answer stored under (family, revision, query) stays right
//! until the next write, and is then simply never asked for again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::domain::ids::FamilyId;

/// Entries kept before the cache starts over (a few screens of a few families).
const CAPACITY: usize = 512;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    family: FamilyId,
    revision: u64,
    /// The list and its parameters, e.g. `meals?childId=..&cursor=..&limit=50`.
    query: String,
}

#[derive(Default)]
pub struct PageCache {
    entries: Mutex<HashMap<Key, Arc<[u8]>>>,
}

impl PageCache {
    /// The cached answer, or `make`'s, which is then kept.
    pub fn get_or_make<E>(
        &self,
        family: FamilyId,
        revision: u64,
        query: &str,
        make: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Arc<[u8]>, E> {
        let key = Key {
            family,
            revision,
            query: query.to_string(),
        };
        if let Some(hit) = self.lock().get(&key) {
            return Ok(hit.clone());
        }
        let made: Arc<[u8]> = make()?.into();
        let mut entries = self.lock();
        // Older revisions of this family are dead; drop them when the family moves on.
        entries.retain(|k, _| k.family != family || k.revision >= revision);
        if entries.len() >= CAPACITY {
            entries.clear();
        }
        entries.insert(key, made.clone());
        Ok(made)
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Arc<[u8]>>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_kept_per_revision_and_old_ones_dropped() {
        let cache = PageCache::default();
        let family = FamilyId::new();
        let mut made = 0;
        let mut get = |revision, query: &str| {
            cache
                .get_or_make(family, revision, query, || {
                    made += 1;
                    Ok::<_, ()>(format!("{revision}{query}").into_bytes())
                })
                .unwrap()
        };
        assert_eq!(&*get(1, "a"), b"1a");
        assert_eq!(&*get(1, "a"), b"1a");
        assert_eq!(&*get(1, "b"), b"1b");
        assert_eq!(&*get(2, "a"), b"2a");
        assert_eq!(made, 3);
        assert_eq!(cache.len(), 1, "revision 1 entries dropped");
        let other = FamilyId::new();
        cache
            .get_or_make(other, 1, "a", || Ok::<_, ()>(b"x".to_vec()))
            .unwrap();
        assert_eq!(cache.len(), 2);
    }
}
