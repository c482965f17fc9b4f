//! Answers of list endpoints, kept by family revision (an HTTP matter: the rendered JSON and
//! its gzip copy; the server makes one and hands it to requests as poem data): a list cannot change without its
//! family's revision moving on, so an answer stored under (family, revision, query) stays right
//! until the next write, and is then simply never asked for again.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

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

/// A kept answer, and its gzip copy once a client that takes gzip asked for it (a browser
/// always does): 20 grocery lists are 170 KB of JSON and about 15 KB compressed, which a
/// co-parent on a phone behind a tunnel feels, and compressing once per revision instead of on
/// every request keeps it cheap on a Pi.
pub struct Page {
    pub json: Arc<[u8]>,
    gzip: OnceLock<Arc<[u8]>>,
    /// When it was last asked for, in milliseconds since the cache was made.
    used: AtomicU64,
}

impl Page {
    fn new(json: Vec<u8>) -> Self {
        Page {
            json: json.into(),
            gzip: OnceLock::new(),
            used: AtomicU64::new(0),
        }
    }

    /// The JSON gzip-compressed, made on first use.
    pub fn gzip(&self) -> Arc<[u8]> {
        self.gzip
            .get_or_init(|| {
                let mut out = flate2::write::GzEncoder::new(
                    Vec::with_capacity(self.json.len() / 4),
                    flate2::Compression::default(),
                );
                // Writing to a Vec cannot fail.
                out.write_all(&self.json)
                    .and_then(|()| out.finish())
                    .unwrap_or_default()
                    .into()
            })
            .clone()
    }

    /// Bytes held: the JSON, and the compressed copy counted as a fifth of it (what JSON lists
    /// compress to, or better) so the budget holds before the copy is made.
    fn weight(&self) -> usize {
        self.json.len() + self.json.len() / 5
    }
}

pub struct PageCache {
    entries: Mutex<Entries>,
    born: Instant,
}

impl Default for PageCache {
    fn default() -> Self {
        PageCache {
            entries: Mutex::default(),
            born: Instant::now(),
        }
    }
}

#[derive(Default)]
struct Entries {
    pages: HashMap<Key, Arc<Page>>,
    bytes: usize,
}

impl PageCache {
    /// The cached answer, or `make`'s, which is then kept.
    pub async fn get_or_make<E>(
        &self,
        family: FamilyId,
        revision: u64,
        query: &str,
        make: impl AsyncFnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Arc<Page>, E> {
        let key = Key {
            family,
            revision,
            query: query.to_string(),
        };
        if let Some(hit) = self.lock().pages.get(&key).cloned() {
            hit.used.store(self.now(), Ordering::Relaxed);
            return Ok(hit);
        }
        let made = Arc::new(Page::new(make().await?));
        made.used.store(self.now(), Ordering::Relaxed);
        let mut entries = self.lock();
        let Entries { pages, bytes } = &mut *entries;
        // Older revisions of this family are dead; drop them when the family moves on.
        pages.retain(|k, page| {
            let live = k.family != family || k.revision >= revision;
            if !live {
                *bytes -= page.weight();
            }
            live
        });
        if pages.len() >= CAPACITY || *bytes + made.weight() > BUDGET {
            pages.clear();
            *bytes = 0;
        }
        // One answer bigger than the whole budget is served, not kept.
        if made.weight() <= BUDGET {
            let old = pages
                .insert(key, made.clone())
                .map_or(0, |old| old.weight());
            *bytes = *bytes - old + made.weight();
        }
        Ok(made)
    }

    /// Drops the answers nobody asked for in the last `unused_for`: a quiet server should not
    /// hold the pages of a busy spell (a parent paging back through years of meals fills the
    /// budget), and one render costs a few milliseconds when it is asked for again.
    pub fn forget_unused(&self, unused_for: Duration) {
        let before = self.now().saturating_sub(unused_for.as_millis() as u64);
        let mut entries = self.lock();
        let Entries { pages, bytes } = &mut *entries;
        pages.retain(|_, page| {
            let keep = page.used.load(Ordering::Relaxed) >= before;
            if !keep {
                *bytes -= page.weight();
            }
            keep
        });
        pages.shrink_to_fit();
    }

    fn now(&self) -> u64 {
        self.born.elapsed().as_millis() as u64
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

    #[tokio::test]
    async fn answers_are_kept_per_revision_and_old_ones_dropped() {
        let cache = PageCache::default();
        let family = FamilyId::new();
        let made = std::sync::atomic::AtomicUsize::new(0);
        let get = async |revision: u64, query: &str| {
            cache
                .get_or_make(family, revision, query, async || {
                    made.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    Ok::<_, ()>(format!("{revision}{query}").into_bytes())
                })
                .await
                .unwrap()
                .json
                .clone()
        };
        assert_eq!(&*get(1, "a").await, b"1a");
        assert_eq!(&*get(1, "a").await, b"1a");
        assert_eq!(&*get(1, "b").await, b"1b");
        assert_eq!(&*get(2, "a").await, b"2a");
        assert_eq!(made.load(std::sync::atomic::Ordering::SeqCst), 3);
        assert_eq!(cache.len(), 1, "revision 1 entries dropped");
        let other = FamilyId::new();
        cache
            .get_or_make(other, 1, "a", async || Ok::<_, ()>(b"x".to_vec()))
            .await
            .unwrap();
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.bytes(), 3, "2a and x: too short to weigh more");
    }

    #[test]
    fn the_gzip_copy_is_the_same_json_made_once() {
        let json = br#"{"items":[{"name":"Bananas","checked":false}]}"#.repeat(200);
        let page = Page::new(json.clone());
        let gzip = page.gzip();
        assert!(gzip.len() < json.len() / 10, "{} bytes", gzip.len());
        assert!(Arc::ptr_eq(&gzip, &page.gzip()), "made once");
        let mut back = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gzip[..]), &mut back)
            .unwrap();
        assert_eq!(back, json);
    }

    #[tokio::test]
    async fn answers_nobody_asked_for_lately_are_forgotten() {
        let cache = PageCache::default();
        let family = FamilyId::new();
        let get = async |query: &str| {
            cache
                .get_or_make(family, 1, query, async || Ok::<_, ()>(vec![7; 1000]))
                .await
                .unwrap()
        };
        get("old").await;
        get("asked again").await;
        tokio::time::sleep(Duration::from_millis(60)).await;
        get("asked again").await;
        get("new").await;
        cache.forget_unused(Duration::from_millis(30));
        assert_eq!(cache.len(), 2, "the old answer went");
        assert_eq!(cache.bytes(), 2 * 1200);
        tokio::time::sleep(Duration::from_millis(5)).await;
        cache.forget_unused(Duration::from_millis(1));
        assert!(cache.is_empty());
        assert_eq!(cache.bytes(), 0);
    }

    #[tokio::test]
    async fn the_cache_starts_over_when_its_bytes_run_out() {
        let cache = PageCache::default();
        let big = BUDGET / 3 + 1;
        for (i, family) in [FamilyId::new(), FamilyId::new(), FamilyId::new()]
            .into_iter()
            .enumerate()
        {
            cache
                .get_or_make(family, 1, "a", async || Ok::<_, ()>(vec![0; big]))
                .await
                .unwrap();
            // The third would pass the budget: the cache starts over with it alone.
            assert_eq!(cache.len(), if i < 2 { i + 1 } else { 1 });
            assert!(cache.bytes() <= BUDGET);
        }
        // Too big to keep at all: served, not kept.
        let huge = cache
            .get_or_make(FamilyId::new(), 1, "a", async || {
                Ok::<_, ()>(vec![0; BUDGET])
            })
            .await
            .unwrap();
        assert_eq!(huge.json.len(), BUDGET);
        assert!(cache.bytes() <= BUDGET);
    }
}
