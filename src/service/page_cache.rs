//! Answers of list endpoints, kept by family revision: a list cannot change without its
//! family's revision moving on, so an answer stored under (family, revision, query) stays right
//! until the next write, and is then simply never asked for again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{AppResult, Services};
use crate::domain::ids::FamilyId;

/// Entries kept before the cache starts over (a few screens of a few families).
const CAPACITY: usize = 512;

/// Bytes kept before the cache starts over: one answer can be hundreds of KB (20 grocery lists
/// of 50 items are 170 KB), and the server must stay small on a Pi.
const BUDGET: usize = 16 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    family: FamilyId,
    revision: u64,
    /// The list and its parameters, e.g. `meals?childId=..&cursor=..&limit=50`.
    query: String,
}

/// The family's revision now: what a kept answer and its ETag are made of.
pub fn revision(app: &Services, family: FamilyId) -> AppResult<u64> {
    Ok(app.store.revision(family)?)
}

/// The answer to `query` at `revision`, rendered once and then kept.
pub fn answer<E>(
    app: &Services,
    family: FamilyId,
    revision: u64,
    query: &str,
    render: impl FnOnce() -> Result<Vec<u8>, E>,
) -> Result<Arc<[u8]>, E> {
    app.pages.get_or_make(family, revision, query, render)
}

#[derive(Default)]
pub struct PageCache {
    entries: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    pages: HashMap<Key, Arc<[u8]>>,
    bytes: usize,
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
        if let Some(hit) = self.lock().pages.get(&key) {
            return Ok(hit.clone());
        }
        let made: Arc<[u8]> = make()?.into();
        let mut entries = self.lock();
        let Entries { pages, bytes } = &mut *entries;
        // Older revisions of this family are dead; drop them when the family moves on.
        pages.retain(|k, page| {
            let live = k.family != family || k.revision >= revision;
            if !live {
                *bytes -= page.len();
            }
            live
        });
        if pages.len() >= CAPACITY || *bytes + made.len() > BUDGET {
            pages.clear();
            *bytes = 0;
        }
        // One answer bigger than the whole budget is served, not kept.
        if made.len() <= BUDGET {
            let old = pages.insert(key, made.clone()).map_or(0, |old| old.len());
            *bytes = *bytes - old + made.len();
        }
        Ok(made)
    }

    pub fn len(&self) -> usize {
        self.lock().pages.len()
    }

    /// Bytes of the answers kept.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
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
        assert_eq!(cache.bytes(), 3);
    }

    #[test]
    fn the_cache_starts_over_when_its_bytes_run_out() {
        let cache = PageCache::default();
        let big = BUDGET / 3 + 1;
        for (i, family) in [FamilyId::new(), FamilyId::new(), FamilyId::new()]
            .into_iter()
            .enumerate()
        {
            cache
                .get_or_make(family, 1, "a", || Ok::<_, ()>(vec![0; big]))
                .unwrap();
            // The third would pass the budget: the cache starts over with it alone.
            assert_eq!(cache.len(), if i < 2 { i + 1 } else { 1 });
            assert!(cache.bytes() <= BUDGET);
        }
        // Too big to keep at all: served, not kept.
        let huge = cache
            .get_or_make(FamilyId::new(), 1, "a", || Ok::<_, ()>(vec![0; BUDGET + 1]))
            .unwrap();
        assert_eq!(huge.len(), BUDGET + 1);
        assert!(cache.bytes() <= BUDGET);
    }
}
