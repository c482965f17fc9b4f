//! The read connections: a fixed pool, each query on a blocking thread so no SQLite call runs
//! on the async workers. A query holds its connection (and its permit) until it returns, even
//! when the request that asked for it has gone away.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Mutex};

use rusqlite::Connection;
use tokio::sync::Semaphore;

pub(super) struct Readers {
    idle: Arc<Mutex<Vec<Connection>>>,
    permits: Arc<Semaphore>,
    size: u32,
}

impl Readers {
    pub(super) fn new(connections: Vec<Connection>) -> Readers {
        Readers {
            permits: Arc::new(Semaphore::new(connections.len())),
            size: connections.len() as u32,
            idle: Arc::new(Mutex::new(connections)),
        }
    }

    pub(super) async fn read<T, F>(&self, query: F) -> Result<T, rusqlite::Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed");
        let idle = self.idle.clone();
        let answer = tokio::task::spawn_blocking(move || {
            let conn = lock(&idle)
                .pop()
                .expect("a permit stands for an idle connection");
            let answer = catch_unwind(AssertUnwindSafe(|| query(&conn)));
            give_back(&idle, conn);
            drop(permit);
            answer
        })
        .await
        .expect("the read task hands back its connection before it ends");
        // A panicking query is the caller's bug: it panics there, the pool stays whole.
        answer.unwrap_or_else(|panic| resume_unwind(panic))
    }
}

impl Readers {
    /// `read` on the calling thread (waits for an idle connection).
    pub(super) fn read_blocking<T>(
        &self,
        query: impl FnOnce(&Connection) -> Result<T, rusqlite::Error>,
    ) -> Result<T, rusqlite::Error> {
        loop {
            if let Ok(permit) = self.permits.try_acquire() {
                let conn = lock(&self.idle)
                    .pop()
                    .expect("a permit stands for an idle connection");
                let answer = catch_unwind(AssertUnwindSafe(|| query(&conn)));
                give_back(&self.idle, conn);
                drop(permit);
                return answer.unwrap_or_else(|panic| resume_unwind(panic));
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }
}

impl Readers {
    /// Frees the page caches of the read connections when none is in use (a quiet server):
    /// each keeps up to its share of `cache_mb` of pages read once (a five-year food history
    /// fills it), which the file's own page cache in the kernel holds anyway. Busy, it does
    /// nothing and says so: the caches are in use.
    pub(super) fn release_memory(&self) -> bool {
        let Ok(_all) = self.permits.try_acquire_many(self.size) else {
            return false;
        };
        for conn in lock(&self.idle).iter() {
            // Prepared statements too: made again on the next busy spell, they are a few KB
            // each, and each keeps a page of the heap that is otherwise free.
            conn.flush_prepared_statement_cache();
            let _ = conn.release_memory();
        }
        true
    }
}

/// Returns a connection to the pool, out of any transaction a query left open (a panic
/// between BEGIN and COMMIT), so it never serves an old snapshot or holds back checkpoints.
fn give_back(idle: &Mutex<Vec<Connection>>, conn: Connection) {
    if !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    lock(idle).push(conn);
}

fn lock(idle: &Mutex<Vec<Connection>>) -> std::sync::MutexGuard<'_, Vec<Connection>> {
    idle.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn many_reads_share_the_pool_and_a_panicking_one_does_not_shrink_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.db");
        let setup = super::super::connect(&path, 1024, false).unwrap();
        assert_eq!(super::super::use_wal(&setup).unwrap(), "wal");
        setup
            .execute_batch("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (42);")
            .unwrap();
        let conns = (0..2)
            .map(|_| super::super::connect(&path, 1024, true).unwrap())
            .collect();
        let readers = Arc::new(Readers::new(conns));

        let panicked = {
            let readers = readers.clone();
            tokio::spawn(async move {
                readers
                    .read(|_| -> Result<(), rusqlite::Error> { panic!("a bug in a query") })
                    .await
            })
            .await
        };
        assert!(panicked.unwrap_err().is_panic());

        let reads: Vec<_> = (0..50)
            .map(|_| {
                let readers = readers.clone();
                tokio::spawn(async move {
                    readers
                        .read(|conn| conn.query_row("SELECT n FROM t", [], |r| r.get::<_, i64>(0)))
                        .await
                })
            })
            .collect();
        for read in reads {
            assert_eq!(read.await.unwrap().unwrap(), 42);
        }
        assert_eq!(lock(&readers.idle).len(), 2);
    }

    /// Bytes of page cache a connection holds (`SQLITE_DBSTATUS_CACHE_USED`).
    #[allow(unsafe_code)]
    fn cache_used(conn: &Connection) -> i32 {
        let (mut now, mut high) = (0, 0);
        // SAFETY: the handle is the live connection's; sqlite3_db_status only reads counters.
        let rc = unsafe {
            rusqlite::ffi::sqlite3_db_status(
                conn.handle(),
                rusqlite::ffi::SQLITE_DBSTATUS_CACHE_USED,
                &mut now,
                &mut high,
                0,
            )
        };
        assert_eq!(rc, rusqlite::ffi::SQLITE_OK);
        now
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_quiet_pool_gives_its_page_caches_back_and_a_busy_one_keeps_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.db");
        let setup = super::super::connect(&path, 1024, false).unwrap();
        assert_eq!(super::super::use_wal(&setup).unwrap(), "wal");
        setup
            .execute_batch(
                "CREATE TABLE t (n INTEGER, pad TEXT);
                 WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000)
                 INSERT INTO t SELECT n, printf('%200d', n) FROM s;",
            )
            .unwrap();
        let conns = (0..2)
            .map(|_| super::super::connect(&path, 8 * 1024, true).unwrap())
            .collect();
        let readers = Arc::new(Readers::new(conns));
        let scan = |conn: &Connection| {
            conn.query_row("SELECT sum(length(pad)) FROM t", [], |r| r.get::<_, i64>(0))
        };
        assert_eq!(readers.read(scan).await.unwrap(), 200 * 20000);
        let full = readers.read(|conn| Ok(cache_used(conn))).await.unwrap();
        assert!(full > 1 << 20, "the scan filled the cache: {full} bytes");

        // One connection busy: nothing is released.
        let (held, release) = std::sync::mpsc::channel::<()>();
        let busy = {
            let readers = readers.clone();
            tokio::spawn(async move { readers.read(move |_| Ok(release.recv().ok())).await })
        };
        while readers.permits.available_permits() > 1 {
            tokio::task::yield_now().await;
        }
        assert!(!readers.release_memory());
        drop(held);
        busy.await.unwrap().unwrap();

        assert!(readers.release_memory());
        let used: Vec<i32> = lock(&readers.idle).iter().map(cache_used).collect();
        assert!(
            used.iter().all(|&u| u < 64 * 1024),
            "caches after release: {used:?}"
        );
        assert_eq!(
            readers.read(scan).await.unwrap(),
            200 * 20000,
            "still answers"
        );
    }
}
