//! The background tasks of a running server, started and stopped in one place. A task is a
//! loop that runs until shutdown; one that ends early (a panic in a purge, a bug in a loop) is
//! logged and started again after a pause, so a family's cascades, purges, backups and recipe
//! jobs never stop for the rest of the server's life because of one bad round.

use std::future::Future;
use std::time::Duration;

use tokio::task::JoinHandle;

/// How long a task that ended waits before it is started again.
const RESTART_AFTER: Duration = Duration::from_secs(5);

/// A task aborted when its handle is dropped: stopping the supervisor's loop for a task stops
/// the task itself, wherever it is.
pub(crate) struct AbortOnDrop<T>(pub(crate) JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The running tasks, by name.
#[derive(Default)]
pub struct Supervisor {
    tasks: Vec<(&'static str, JoinHandle<()>)>,
}

impl Supervisor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts `make()`'s future as the task `name`, and starts it again whenever it ends
    /// before `stop`.
    pub fn start<F, Fut>(&mut self, name: &'static str, make: F)
    where
        F: Fn() -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.start_with_pause(name, RESTART_AFTER, make);
    }

    fn start_with_pause<F, Fut>(&mut self, name: &'static str, pause: Duration, make: F)
    where
        F: Fn() -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let handle = tokio::spawn(async move {
            loop {
                let mut run = AbortOnDrop(tokio::spawn(make()));
                match (&mut run.0).await {
                    Ok(()) => {
                        tracing::error!(task = name, "a background task ended; restarting it")
                    }
                    Err(e) if e.is_panic() => {
                        tracing::error!(task = name, "a background task panicked; restarting it")
                    }
                    // Cancelled: only `stop` does that, and it aborts this loop too.
                    Err(_) => return,
                }
                tokio::time::sleep(pause).await;
            }
        });
        self.tasks.push((name, handle));
    }

    /// The names of the tasks started, in order.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.tasks.iter().map(|(name, _)| *name)
    }

    /// Stops every task (each where it is: they hold nothing a stop could lose, and the work
    /// they do is persisted or done again at start) and waits until all have ended.
    pub async fn stop(self) {
        for (_, task) in &self.tasks {
            task.abort();
        }
        for (_, task) in self.tasks {
            let _ = task.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[tokio::test]
    async fn a_task_that_panics_is_started_again_and_stop_ends_it() {
        let starts = Arc::new(AtomicUsize::new(0));
        let mut supervisor = Supervisor::new();
        let counted = starts.clone();
        supervisor.start_with_pause("flaky", Duration::from_millis(1), move || {
            let starts = counted.clone();
            async move {
                if starts.fetch_add(1, Ordering::SeqCst) < 2 {
                    panic!("one bad round");
                }
                std::future::pending::<()>().await;
            }
        });
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while starts.load(Ordering::SeqCst) < 3 {
            assert!(tokio::time::Instant::now() < deadline, "not restarted");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(supervisor.names().collect::<Vec<_>>(), ["flaky"]);
        supervisor.stop().await;
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(starts.load(Ordering::SeqCst), 3, "nothing runs after stop");
    }

    #[tokio::test]
    async fn stop_aborts_the_task_itself_not_only_its_watcher() {
        // A task holding this guard drops it when aborted.
        struct Flag(Arc<AtomicUsize>);
        impl Drop for Flag {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let dropped = Arc::new(AtomicUsize::new(0));
        let mut supervisor = Supervisor::new();
        let flag = dropped.clone();
        let (started_tx, started) = tokio::sync::oneshot::channel();
        let started_tx = std::sync::Mutex::new(Some(started_tx));
        supervisor.start("long", move || {
            let guard = Flag(flag.clone());
            let tx = started_tx.lock().unwrap().take();
            async move {
                let _guard = guard;
                if let Some(tx) = tx {
                    let _ = tx.send(());
                }
                std::future::pending::<()>().await;
            }
        });
        started.await.unwrap();
        supervisor.stop().await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while dropped.load(Ordering::SeqCst) == 0 {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the task still runs"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}
