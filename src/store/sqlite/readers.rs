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
}

impl Readers {
    pub(super) fn new(connections: Vec<Connection>) -> Readers {
        Readers {
            permits: Arc::new(Semaphore::new(connections.len())),
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
}
