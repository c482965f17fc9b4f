//! The change feed: after a write commits, its changes go to the subscribers of that family
//! (`GET /api/events`). A family's channel, and the short history kept for resuming, exist only
//! while somebody listens. Sessions ending are announced too, so their streams can close.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::{Notify, broadcast};

use crate::domain::change::{Change, FamilyChange};
use crate::domain::ids::{FamilyId, UserId};

/// Changes kept per listened-to family for `Last-Event-ID` resumes.
const HISTORY: usize = 256;
/// Changes a slow subscriber may fall behind before it is told to resync.
const BACKLOG: usize = 256;
/// Open streams one session may hold (a few tabs). A further one closes the oldest: a closed
/// tab's stream is only noticed at its next write, and a reload must never be refused.
pub const STREAMS_PER_SESSION: usize = 4;

struct Channel {
    sender: broadcast::Sender<FamilyChange>,
    recent: VecDeque<FamilyChange>,
}

/// A session, or all sessions of a user, ended; `user` is none for a co-parent's share
/// session.
#[derive(Debug, Clone, Copy)]
pub struct SessionEnd {
    pub user: Option<UserId>,
    pub session: Option<[u8; 32]>,
}

impl SessionEnd {
    pub fn ends(&self, user: UserId, session: &[u8; 32]) -> bool {
        self.user == Some(user) && self.session.is_none_or(|s| &s == session)
    }

    /// Whether this ends the co-parent's share session `session`.
    pub fn ends_share(&self, session: &[u8; 32]) -> bool {
        self.user.is_none() && self.session.as_ref() == Some(session)
    }
}

pub struct Feed {
    families: Mutex<HashMap<FamilyId, Channel>>,
    ended: broadcast::Sender<SessionEnd>,
    /// Per session, its open streams, oldest first.
    streams: Mutex<HashMap<[u8; 32], VecDeque<OpenStream>>>,
    next_stream: std::sync::atomic::AtomicU64,
}

impl Default for Feed {
    fn default() -> Self {
        Feed {
            families: Mutex::new(HashMap::new()),
            ended: broadcast::Sender::new(64),
            streams: Mutex::new(HashMap::new()),
            next_stream: std::sync::atomic::AtomicU64::new(0),
        }
    }
}

/// Where a new subscriber starts.
#[derive(Debug, PartialEq)]
pub enum Start {
    /// Nothing to catch up on (no `Last-Event-ID`, or it is the current revision).
    Live,
    /// These changes happened since the revision the client last saw.
    Replay(Vec<FamilyChange>),
    /// The gap cannot be replayed: the client must reload everything.
    Resync,
}

/// A live subscription; dropping it lets the family's channel go when nobody else listens.
pub struct Subscription {
    pub start: Start,
    /// Always `Some` while the subscription lives (taken on drop, under the feed's lock).
    changes: Option<broadcast::Receiver<FamilyChange>>,
    ended: broadcast::Receiver<SessionEnd>,
    feed: Arc<Feed>,
    family: FamilyId,
}

impl Subscription {
    pub fn family(&self) -> FamilyId {
        self.family
    }

    /// The next change of the family.
    pub async fn recv(&mut self) -> Result<FamilyChange, broadcast::error::RecvError> {
        self.receivers().0.recv().await
    }

    /// The family's changes and the session ends, to wait on both.
    pub fn receivers(
        &mut self,
    ) -> (
        &mut broadcast::Receiver<FamilyChange>,
        &mut broadcast::Receiver<SessionEnd>,
    ) {
        let changes = self
            .changes
            .get_or_insert_with(|| broadcast::Sender::new(1).subscribe());
        (changes, &mut self.ended)
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut families = self.feed.lock_families();
        // Our receiver goes first, under the lock, so the count below is exact even when two
        // subscriptions end at once.
        drop(self.changes.take());
        if families
            .get(&self.family)
            .is_some_and(|c| c.sender.receiver_count() == 0)
        {
            families.remove(&self.family);
        }
    }
}

/// A stream's number and the signal that tells it to close.
type OpenStream = (u64, Arc<Notify>);

/// One of a session's stream slots; dropping it frees the slot.
pub struct StreamSlot {
    feed: Arc<Feed>,
    session: [u8; 32],
    number: u64,
    /// Notified when a newer stream of the session took this slot.
    pub closed: Arc<Notify>,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut streams = self.feed.streams.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(open) = streams.get_mut(&self.session) {
            open.retain(|(n, _)| *n != self.number);
            if open.is_empty() {
                streams.remove(&self.session);
            }
        }
    }
}

impl Feed {
    fn lock_families(&self) -> std::sync::MutexGuard<'_, HashMap<FamilyId, Channel>> {
        self.families.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Announces the changes of one committed transaction (the store's hook calls this).
    pub fn publish(&self, changes: &[Change]) {
        let mut families = self.lock_families();
        for change in changes {
            match change {
                Change::Family(c) => {
                    let Some(channel) = families.get_mut(&c.family) else {
                        continue;
                    };
                    if channel.recent.len() == HISTORY {
                        channel.recent.pop_front();
                    }
                    channel.recent.push_back(*c);
                    let _ = channel.sender.send(*c);
                }
                Change::SessionsEnded { user, session } => {
                    let _ = self.ended.send(SessionEnd {
                        user: Some(*user),
                        session: *session,
                    });
                }
                Change::ShareSessionEnded { session } => {
                    let _ = self.ended.send(SessionEnd {
                        user: None,
                        session: Some(*session),
                    });
                }
                Change::JobQueued => {}
            }
        }
    }

    /// Subscribes to a family. `current` reads the family's revision; it is called after the
    /// subscription exists, so no change falls between the two. `last_seen` is the client's
    /// `Last-Event-ID`.
    pub fn subscribe<E>(
        self: &Arc<Self>,
        family: FamilyId,
        last_seen: Option<u64>,
        current: impl FnOnce() -> Result<u64, E>,
    ) -> Result<Subscription, E> {
        let (changes, recent) = {
            let mut families = self.lock_families();
            let channel = families.entry(family).or_insert_with(|| Channel {
                sender: broadcast::Sender::new(BACKLOG),
                recent: VecDeque::new(),
            });
            (channel.sender.subscribe(), channel.recent.clone())
        };
        let ended = self.ended.subscribe();
        let subscription = |start| Subscription {
            start,
            changes: Some(changes),
            ended,
            feed: self.clone(),
            family,
        };
        // Built before reading the revision, so a failed read still ends the subscription
        // (and lets the channel go).
        let pending = subscription(Start::Live);
        let now = current()?;
        let mut sub = pending;
        if let Some(seen) = last_seen {
            sub.start = replay(seen, now, &recent);
        }
        Ok(sub)
    }

    /// Takes a stream slot of the session, closing its oldest stream when all are taken.
    pub fn open_stream(self: &Arc<Self>, session: [u8; 32]) -> StreamSlot {
        let mut streams = self.streams.lock().unwrap_or_else(|p| p.into_inner());
        let open = streams.entry(session).or_default();
        while open.len() >= STREAMS_PER_SESSION {
            if let Some((_, oldest)) = open.pop_front() {
                oldest.notify_one();
            }
        }
        let number = self
            .next_stream
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let closed = Arc::new(Notify::new());
        open.push_back((number, closed.clone()));
        StreamSlot {
            feed: self.clone(),
            session,
            number,
            closed,
        }
    }

    /// Streams open for a session now.
    pub fn streams_of(&self, session: &[u8; 32]) -> usize {
        self.streams
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(session)
            .map_or(0, VecDeque::len)
    }

    /// Families with a listener now (for tests and health).
    pub fn listened(&self) -> usize {
        self.lock_families().len()
    }
}

/// What a client that saw revision `seen` needs when the family is at `now`.
fn replay(seen: u64, now: u64, recent: &VecDeque<FamilyChange>) -> Start {
    if seen == now {
        return Start::Live;
    }
    if seen > now {
        return Start::Resync;
    }
    let missed: Vec<FamilyChange> = recent
        .iter()
        .filter(|c| c.revision > seen && c.revision <= now)
        .copied()
        .collect();
    // Revisions are consecutive per family: the history must hold every one after `seen`.
    let covered = missed.first().is_some_and(|c| c.revision == seen + 1)
        && missed.last().is_some_and(|c| c.revision == now);
    if covered {
        Start::Replay(missed)
    } else {
        Start::Resync
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::change::Kind;

    fn change(family: FamilyId, revision: u64) -> Change {
        Change::Family(FamilyChange {
            family,
            kind: Kind::Meal,
            id: uuid::Uuid::now_v7().into(),
            revision,
        })
    }

    #[tokio::test]
    async fn subscribers_get_their_family_only_and_channels_go_with_them() {
        let feed = Arc::new(Feed::default());
        let (mine, other) = (FamilyId::new(), FamilyId::new());
        feed.publish(&[change(mine, 1)]);
        let mut sub = feed.subscribe(mine, None, || Ok::<_, ()>(1)).unwrap();
        assert_eq!(sub.start, Start::Live);
        feed.publish(&[change(other, 1), change(mine, 2)]);
        let got = sub.recv().await.unwrap();
        assert_eq!((got.family, got.revision), (mine, 2));
        assert!(
            sub.receivers().0.try_recv().is_err(),
            "nothing of the other family"
        );
        let second = feed.subscribe(mine, None, || Ok::<_, ()>(2)).unwrap();
        assert_eq!(feed.listened(), 1);
        drop(sub);
        assert_eq!(feed.listened(), 1, "kept while someone listens");
        drop(second);
        assert_eq!(feed.listened(), 0, "nothing kept when nobody listens");
        assert!(
            feed.subscribe(mine, None, || Err::<u64, _>("store down"))
                .is_err()
        );
        assert_eq!(feed.listened(), 0, "a failed subscription leaves nothing");
    }

    #[test]
    fn resume_replays_a_covered_gap_and_resyncs_otherwise() {
        let family = FamilyId::new();
        let recent: VecDeque<FamilyChange> = (3..=6)
            .map(|r| match change(family, r) {
                Change::Family(c) => c,
                _ => unreachable!(),
            })
            .collect();
        match replay(4, 6, &recent) {
            Start::Replay(c) => {
                assert_eq!(c.iter().map(|c| c.revision).collect::<Vec<_>>(), [5, 6])
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(replay(6, 6, &recent), Start::Live);
        assert_eq!(replay(1, 6, &recent), Start::Resync, "3 is the oldest kept");
        assert_eq!(replay(9, 6, &recent), Start::Resync, "from the future");
        assert_eq!(
            replay(2, 6, &recent),
            Start::Replay(recent.iter().copied().collect())
        );
    }

    #[tokio::test]
    async fn a_session_has_a_few_streams_and_a_new_one_closes_the_oldest() {
        let feed = Arc::new(Feed::default());
        let slots: Vec<_> = (0..STREAMS_PER_SESSION)
            .map(|_| feed.open_stream([1; 32]))
            .collect();
        let newest = feed.open_stream([1; 32]);
        assert_eq!(feed.streams_of(&[1; 32]), STREAMS_PER_SESSION);
        tokio::time::timeout(
            std::time::Duration::from_secs(1),
            slots[0].closed.notified(),
        )
        .await
        .expect("the oldest is told to close");
        let _other = feed.open_stream([2; 32]);
        drop(slots);
        drop(newest);
        assert_eq!(feed.streams_of(&[1; 32]), 0);
    }
}
