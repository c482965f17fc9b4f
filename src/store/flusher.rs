//! Group commit: writers that finish at about the same time share one flush to disk.
//!
//! A writer takes a ticket after its transaction committed and waits until a flush that started
//! after its ticket has finished. One waiter at a time runs the flush (the leader); a flush
//! covers every ticket taken before it started, so eight writers arriving together usually
//! cost one or two `fsync`s instead of eight.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use tokio::sync::watch;

use super::StoreError;

pub(crate) struct Flusher {
    db: sled::Db,
    /// The last ticket handed out.
    requested: AtomicU64,
    /// The highest ticket known to be on disk.
    done: watch::Sender<u64>,
    leading: AtomicBool,
}

impl Flusher {
    pub(crate) fn new(db: sled::Db) -> Self {
        Flusher {
            db,
            requested: AtomicU64::new(0),
            done: watch::Sender::new(0),
            leading: AtomicBool::new(false),
        }
    }

    /// Returns once everything written before the call is on disk.
    pub(crate) async fn flush(&self) -> Result<(), StoreError> {
        let ticket = self.requested.fetch_add(1, Ordering::SeqCst) + 1;
        let mut done = self.done.subscribe();
        loop {
            if *done.borrow_and_update() >= ticket {
                return Ok(());
            }
            if self
                .leading
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                // Every ticket up to here was taken after its write: this flush covers them.
                let upto = self.requested.load(Ordering::SeqCst);
                let lead = Lead(self);
                let result = self.db.flush_async().await;
                if result.is_ok() {
                    // Covered tickets first, so the woken waiters do not flush again for nothing.
                    self.done.send_if_modified(|d| {
                        let moved = upto > *d;
                        *d = (*d).max(upto);
                        moved
                    });
                }
                // Step down and wake the others (one of them retries after a failure).
                drop(lead);
                result?;
                continue;
            }
            if done.changed().await.is_err() {
                return Ok(());
            }
        }
    }
}

/// Leadership of one flush. Dropping it steps down and wakes the waiters, also when the leader's
/// request is cancelled mid-flush (a client that hangs up), so no waiter is left behind.
struct Lead<'a>(&'a Flusher);

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        self.0.leading.store(false, Ordering::SeqCst);
        self.0.done.send_modify(|_| {});
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_writers_all_return_after_a_flush_that_covers_them() {
        let db = sled::Config::new().temporary(true).open().unwrap();
        let flusher = Arc::new(Flusher::new(db.clone()));
        let mut tasks = Vec::new();
        for i in 0..32u32 {
            let (db, flusher) = (db.clone(), flusher.clone());
            tasks.push(tokio::spawn(async move {
                db.insert(i.to_be_bytes(), &[1u8][..]).unwrap();
                flusher.flush().await.unwrap();
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(*flusher.done.borrow(), 32, "every ticket was covered");
        assert!(!flusher.leading.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn a_leader_cancelled_mid_flush_does_not_block_the_next_writer() {
        let db = sled::Config::new().temporary(true).open().unwrap();
        let flusher = Flusher::new(db.clone());
        db.insert(b"a", b"1").unwrap();
        // Start a flush and drop it at its first await: the leader's request was cancelled.
        {
            let fut = flusher.flush();
            tokio::pin!(fut);
            let _ = futures_util::poll!(fut.as_mut());
        }
        assert!(!flusher.leading.load(Ordering::SeqCst), "stepped down");
        tokio::time::timeout(std::time::Duration::from_secs(5), flusher.flush())
            .await
            .expect("the next flush is not blocked")
            .unwrap();
    }
}
