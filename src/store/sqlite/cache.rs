//! Answers kept in memory for as long as nothing was committed since they were read. Every
//! signed-in request looks up its session and account; with SQLite that lookup was a trip to a
//! reader thread (a hand-off, a read transaction, file locks), and a cached meal list answered
//! 11,500 requests a second with it, 18,400-22,800 without (docs/benchmarks.md). Writes are rare next to reads, and all of them go through the one
//! writer, whose generation changes after each commit: an entry read at an older generation is
//! never answered, so a logout, a password change or a deleted account is seen by the very next
//! request, as without the cache.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard, PoisonError};

pub(super) struct CommitCache<K, V> {
    entries: Mutex<HashMap<K, (u64, V)>>,
    capacity: usize,
}

impl<K: Eq + Hash, V: Clone> CommitCache<K, V> {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    /// The value kept for `key` if it was read at `generation` (the writer's, read now).
    pub(super) fn get(&self, key: &K, generation: u64) -> Option<V> {
        match self.lock().get(key) {
            Some((read_at, value)) if *read_at == generation => Some(value.clone()),
            _ => None,
        }
    }

    /// Keeps `value`, read from the database after the writer's generation was `generation`.
    /// Full, it first drops what older generations left, then everything: bounded whatever
    /// the number of sessions.
    pub(super) fn put(&self, key: K, generation: u64, value: V) {
        let mut entries = self.lock();
        if entries.len() >= self.capacity && !entries.contains_key(&key) {
            entries.retain(|_, (read_at, _)| *read_at == generation);
            if entries.len() >= self.capacity {
                entries.clear();
            }
        }
        entries.insert(key, (generation, value));
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<K, (u64, V)>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_answers_only_at_the_generation_it_was_read_at() {
        let cache = CommitCache::new(4);
        cache.put("a", 7, 1);
        assert_eq!(cache.get(&"a", 7), Some(1));
        assert_eq!(cache.get(&"a", 8), None, "a commit since: read again");
        assert_eq!(cache.get(&"b", 7), None);
        cache.put("a", 8, 2);
        assert_eq!(cache.get(&"a", 8), Some(2));
    }

    #[test]
    fn a_full_cache_drops_old_generations_first_and_stays_bounded() {
        let cache = CommitCache::new(3);
        cache.put(1, 1, ());
        cache.put(2, 2, ());
        cache.put(3, 2, ());
        cache.put(4, 2, ());
        assert_eq!(
            cache.get(&1, 1),
            None,
            "the old generation's entry made room"
        );
        assert_eq!(cache.get(&2, 2), Some(()));
        assert_eq!(cache.get(&4, 2), Some(()));
        cache.put(5, 2, ());
        assert!(cache.lock().len() <= 3);
        assert_eq!(cache.get(&5, 2), Some(()));
    }
}
