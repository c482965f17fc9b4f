//! The writer thread: the one connection that writes, off the async workers.
//!
//! Writes queue on a channel. The thread takes every write waiting (up to [`GROUP`]) into one
//! `BEGIN IMMEDIATE` transaction, runs each in its own savepoint (a write that fails or panics
//! is rolled back alone) and commits once: with `synchronous=FULL` that is one WAL fsync for the
//! whole group, so eight parents saving at once cost about one disk flush, not eight. Each write
//! is answered after the commit, in commit order, and only then: an answer means on disk.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tokio::sync::{mpsc, oneshot};

/// Writes committed together at most (bounds the time the first of them waits).
const GROUP: usize = 64;
/// Writes waiting for the thread at most; beyond it, writers wait to queue.
const QUEUE: usize = 1024;
/// The longest a group waits for writers that were part of the last one.
const LINGER: Duration = Duration::from_micros(400);

/// Why a write was not committed, whatever it changed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WriteFailed {
    /// The group's transaction could not start or commit (disk full, I/O error): nothing of
    /// it is in the database.
    #[error("the database did not commit the write: {0}")]
    Commit(String),
    /// The change panicked; it was rolled back.
    #[error("the write failed unexpectedly")]
    Panicked,
    /// The database is closing.
    #[error("the database is closed")]
    Closed,
}

/// One queued write, type-erased for the channel.
trait Ticket: Send {
    /// Runs the change; true when it is to be kept.
    fn run(&mut self, conn: &Connection) -> bool;
    /// Answers the writer once the group's commit is known.
    fn answer(self: Box<Self>, committed: Result<(), WriteFailed>);
}

struct Pending<T, E, F, A> {
    change: Option<F>,
    after: Option<A>,
    outcome: Option<Result<T, E>>,
    reply: oneshot::Sender<Result<T, E>>,
}

impl<T, E, F, A> Ticket for Pending<T, E, F, A>
where
    T: Send,
    E: From<WriteFailed> + Send,
    F: FnOnce(&Connection) -> Result<T, E> + Send,
    A: FnOnce(&T) + Send,
{
    fn run(&mut self, conn: &Connection) -> bool {
        let Some(change) = self.change.take() else {
            return false;
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| change(conn)))
            .unwrap_or_else(|_| Err(E::from(WriteFailed::Panicked)));
        let keep = outcome.is_ok();
        self.outcome = Some(outcome);
        keep
    }

    fn answer(self: Box<Self>, committed: Result<(), WriteFailed>) {
        let Pending {
            after,
            outcome,
            reply,
            ..
        } = *self;
        let outcome = match (outcome, committed) {
            (Some(Ok(value)), Ok(())) => {
                if let Some(after) = after {
                    // A panic here must not stop the thread that every write goes through.
                    let _ = catch_unwind(AssertUnwindSafe(|| after(&value)));
                }
                Ok(value)
            }
            (Some(Err(e)), _) => Err(e),
            (_, Err(failed)) => Err(E::from(failed)),
            (None, Ok(())) => Err(E::from(WriteFailed::Commit("the write did not run".into()))),
        };
        let _ = reply.send(outcome);
    }
}

/// Commits and writes so far (groups are writes per commit).
#[derive(Debug, Default)]
pub struct Counts {
    pub commits: std::sync::atomic::AtomicU64,
    pub writes: std::sync::atomic::AtomicU64,
    /// +1 after every group's commit (or rollback), before any of its writers hears back: an
    /// answer read while it stayed the same is still what the database holds.
    pub(super) generation: std::sync::atomic::AtomicU64,
}

pub(super) struct Writer {
    queue: Option<mpsc::Sender<Box<dyn Ticket>>>,
    thread: Option<JoinHandle<()>>,
    counts: std::sync::Arc<Counts>,
}

impl Writer {
    pub(super) fn start(conn: Connection) -> Writer {
        let (queue, waiting) = mpsc::channel(QUEUE);
        let counts = std::sync::Arc::new(Counts::default());
        let counting = counts.clone();
        let thread = std::thread::Builder::new()
            .name("highchair-writer".into())
            .spawn(move || serve(conn, waiting, &counting))
            .expect("the writer thread starts");
        Writer {
            queue: Some(queue),
            thread: Some(thread),
            counts,
        }
    }

    pub(super) fn counts(&self) -> &Counts {
        &self.counts
    }

    /// Queues `change` and waits for its answer; `after` runs on the writer thread once it is
    /// committed, in commit order, before the answer is sent.
    pub(super) async fn write_then<T, E, F, A>(&self, change: F, after: A) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<WriteFailed> + Send + 'static,
        F: FnOnce(&Connection) -> Result<T, E> + Send + 'static,
        A: FnOnce(&T) + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let ticket = Box::new(Pending {
            change: Some(change),
            after: Some(after),
            outcome: None,
            reply,
        });
        let queue = self.queue.as_ref().ok_or(WriteFailed::Closed)?;
        if queue.send(ticket).await.is_err() {
            return Err(E::from(WriteFailed::Closed));
        }
        answer.await.unwrap_or(Err(E::from(WriteFailed::Closed)))
    }
}

impl Writer {
    /// Queues `change` without waiting for it (from code that cannot wait). `false` when the
    /// queue is full or closed: nothing was queued.
    pub(super) fn write_detached<F>(&self, change: F) -> bool
    where
        F: FnOnce(&Connection) -> Result<(), WriteFailed> + Send + 'static,
    {
        let (reply, _ignored) = oneshot::channel();
        let ticket = Box::new(Pending {
            change: Some(change),
            after: None::<fn(&())>,
            outcome: None,
            reply,
        });
        self.queue
            .as_ref()
            .is_some_and(|queue| queue.try_send(ticket).is_ok())
    }
}

impl Drop for Writer {
    /// Lets the thread finish the writes already queued, then waits for it; unless this is the
    /// writer thread itself (a write's hook held the last handle), which cannot wait for itself
    /// and simply ends once the queue is empty.
    fn drop(&mut self) {
        drop(self.queue.take());
        if let Some(thread) = self.thread.take()
            && thread.thread().id() != std::thread::current().id()
        {
            let _ = thread.join();
        }
    }
}

fn serve(conn: Connection, mut waiting: mpsc::Receiver<Box<dyn Ticket>>, counts: &Counts) {
    // How many writes the last group had: several means several writers are at work.
    let mut last = 1;
    while let Some(first) = waiting.blocking_recv() {
        let mut group = vec![first];
        take_queued(&mut waiting, &mut group);
        // Writers answered a moment ago are about to send their next write: a short wait
        // lets them join this commit instead of the next (one WAL append and one fsync for
        // all). A lone writer never waits.
        if last > 1 && group.len() < last {
            let until = Instant::now() + LINGER;
            while group.len() < last && Instant::now() < until {
                std::thread::sleep(LINGER / 8);
                take_queued(&mut waiting, &mut group);
            }
        }
        last = group.len();
        counts
            .commits
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        counts
            .writes
            .fetch_add(group.len() as u64, std::sync::atomic::Ordering::Relaxed);
        let committed = commit(&conn, &mut group);
        counts
            .generation
            .fetch_add(1, std::sync::atomic::Ordering::Release);
        if let Err(e) = &committed {
            tracing::error!(error = %e, writes = group.len(), "a group of writes was not committed");
        }
        for ticket in group {
            ticket.answer(committed.clone());
        }
    }
}

/// Adds what is queued now to the group, up to `GROUP`.
fn take_queued(waiting: &mut mpsc::Receiver<Box<dyn Ticket>>, group: &mut Vec<Box<dyn Ticket>>) {
    while group.len() < GROUP {
        match waiting.try_recv() {
            Ok(next) => group.push(next),
            Err(_) => break,
        }
    }
}

/// Runs the group in one transaction, each write in its savepoint, and commits it.
fn commit(conn: &Connection, group: &mut [Box<dyn Ticket>]) -> Result<(), WriteFailed> {
    let failed = |e: rusqlite::Error| WriteFailed::Commit(e.to_string());
    conn.execute_batch("BEGIN IMMEDIATE").map_err(failed)?;
    let ran = group.iter_mut().try_for_each(|ticket| {
        conn.execute_batch("SAVEPOINT write")?;
        if ticket.run(conn) {
            conn.execute_batch("RELEASE write")
        } else {
            conn.execute_batch("ROLLBACK TO write; RELEASE write")
        }
    });
    match ran.and_then(|()| conn.execute_batch("COMMIT")) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(failed(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[derive(Debug, PartialEq)]
    enum TestError {
        Refused,
        Failed(WriteFailed),
    }

    impl From<WriteFailed> for TestError {
        fn from(e: WriteFailed) -> Self {
            TestError::Failed(e)
        }
    }

    fn open(dir: &std::path::Path) -> (Writer, Connection) {
        let path = dir.join("w.db");
        let conn = super::super::connect(&path, 1024, false).unwrap();
        assert_eq!(super::super::use_wal(&conn).unwrap(), "wal");
        // A lock held elsewhere fails a group after this, not after the real 5 s.
        conn.busy_timeout(std::time::Duration::from_millis(200))
            .unwrap();
        conn.execute_batch("CREATE TABLE t (n INTEGER PRIMARY KEY)")
            .unwrap();
        let check = super::super::connect(&path, 1024, true).unwrap();
        (Writer::start(conn), check)
    }

    fn stored(conn: &Connection) -> Vec<i64> {
        let mut stmt = conn.prepare("SELECT n FROM t ORDER BY n").unwrap();
        stmt.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    fn insert(n: i64) -> impl FnOnce(&Connection) -> Result<i64, TestError> + Send + 'static {
        move |conn| {
            conn.execute("INSERT INTO t (n) VALUES (?1)", [n])
                .map_err(|e| TestError::Failed(WriteFailed::Commit(e.to_string())))?;
            // Every seventh write breaks a rule after it wrote: undone alone.
            if n % 7 == 0 {
                return Err(TestError::Refused);
            }
            if n == 50 {
                panic!("a bug in one write");
            }
            Ok(n)
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_writes_commit_in_groups_and_a_failed_one_is_undone_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (writer, check) = open(dir.path());
        let writer = Arc::new(writer);
        let committed = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for n in 1..=100 {
            let writer = writer.clone();
            let committed = committed.clone();
            tasks.push(tokio::spawn(async move {
                writer
                    .write_then(insert(n), move |_| {
                        committed.fetch_add(1, Ordering::SeqCst);
                    })
                    .await
            }));
        }
        let mut answers = Vec::new();
        for task in tasks {
            answers.push(task.await.unwrap());
        }
        for (n, answer) in (1..=100).zip(&answers) {
            let expected = match n {
                _ if n % 7 == 0 => Err(TestError::Refused),
                50 => Err(TestError::Failed(WriteFailed::Panicked)),
                _ => Ok(n),
            };
            assert_eq!(answer, &expected, "write {n}");
        }
        let kept: Vec<i64> = (1..=100).filter(|n| n % 7 != 0 && *n != 50).collect();
        assert_eq!(stored(&check), kept);
        assert_eq!(committed.load(Ordering::SeqCst), kept.len());

        // The thread goes on after a panic.
        assert_eq!(writer.write_then(insert(101), |_| {}).await, Ok(101));
    }

    #[tokio::test]
    async fn a_group_that_cannot_commit_answers_every_write_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let (writer, check) = open(dir.path());
        // Another connection holds the write lock (as another process would), so the
        // writer's BEGIN IMMEDIATE waits out its busy timeout and fails.
        check.pragma_update(None, "query_only", "OFF").unwrap();
        check.execute_batch("BEGIN IMMEDIATE").unwrap();
        let answer = writer.write_then(insert(1), |_| {}).await;
        assert!(
            matches!(answer, Err(TestError::Failed(WriteFailed::Commit(_)))),
            "{answer:?}"
        );
        check.execute_batch("ROLLBACK").unwrap();
        assert_eq!(writer.write_then(insert(2), |_| {}).await, Ok(2));
        assert_eq!(stored(&check), [2]);
    }

    #[tokio::test]
    async fn writes_queued_before_the_close_are_committed() {
        let dir = tempfile::tempdir().unwrap();
        let (writer, check) = open(dir.path());
        let writer = Arc::new(writer);
        let pending: Vec<_> = (1..=20)
            .map(|n| {
                let writer = writer.clone();
                tokio::spawn(async move {
                    let change = move |conn: &Connection| {
                        conn.execute("INSERT INTO t (n) VALUES (?1)", [n])
                            .map_err(|e| WriteFailed::Commit(e.to_string()))
                    };
                    writer.write_then(change, |_| {}).await
                })
            })
            .collect();
        for task in pending {
            assert!(task.await.unwrap().is_ok());
        }
        drop(Arc::into_inner(writer).expect("only owner left"));
        assert_eq!(stored(&check).len(), 20);
    }

    #[tokio::test]
    async fn a_hook_holding_the_last_handle_lets_the_writer_end_on_its_own_thread() {
        let dir = tempfile::tempdir().unwrap();
        let (writer, check) = open(dir.path());
        let writer = Arc::new(writer);
        let (started, running) = std::sync::mpsc::channel();
        let (open_gate, gate) = std::sync::mpsc::channel::<()>();
        let (ended, hook_ran) = std::sync::mpsc::channel();
        let kept = Arc::clone(&writer);
        let caller = tokio::spawn({
            let writer = Arc::clone(&writer);
            async move {
                let change = move |conn: &Connection| {
                    let _ = started.send(());
                    let _ = gate.recv();
                    insert(1)(conn)
                };
                writer
                    .write_then(change, move |_| {
                        // The last handle goes on the writer thread: it must not wait for
                        // itself (that panics with EDEADLK and skips the rest of this hook).
                        drop(kept);
                        let _ = ended.send(());
                    })
                    .await
            }
        });
        // The caller goes away (a task stopped at shutdown), and so does every other handle.
        super::super::tests::abandon_once_running(caller, running).await;
        drop(writer);
        open_gate.send(()).unwrap();
        let hook = tokio::task::spawn_blocking(move || {
            hook_ran.recv_timeout(std::time::Duration::from_secs(10))
        })
        .await
        .unwrap();
        assert_eq!(hook, Ok(()));
        assert_eq!(stored(&check), [1]);
    }
}
