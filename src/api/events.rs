//! `GET /api/events`: the family's change feed as Server-Sent Events. `id:` is the family
//! revision; `Last-Event-ID` resumes; `resync` when the gap cannot be replayed. The stream
//! ends when its session ends (logout, password reset, account deleted) or expires.

use std::collections::VecDeque;
use std::time::Duration;

use futures_util::stream::{self, BoxStream, StreamExt};
use poem::IntoResponse;
use poem::web::Data;
use poem::web::sse::Event;
use poem_openapi::param::Header;
use poem_openapi::payload::{EventStream, Payload};
use poem_openapi::registry::{MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use tokio::sync::broadcast::error::RecvError;

use super::session::CurrentUser;
use super::{ApiError, ApiTags};
use crate::app::App;
use crate::domain::change::{FamilyChange, Kind};
use crate::events::{Start, StreamSlot, Subscription};
use crate::service::{sessions, share};

/// A comment line this often keeps proxies from closing an idle stream.
const KEEP_ALIVE: Duration = Duration::from_secs(25);
/// How often an idle stream checks that its session is still valid.
const SESSION_CHECK: Duration = Duration::from_secs(30);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum EventKind {
    Child,
    Meal,
    Media,
    Profile,
    /// The family's members or invite links.
    Family,
    /// A saved recipe.
    Recipe,
    /// A grocery list or one of its items.
    #[oai(rename = "grocery_list")]
    GroceryList,
    /// A week of the meal plan; `id` is the week ("2026-W48").
    #[oai(rename = "meal_plan")]
    MealPlan,
    /// A co-parent of the family (invited, PIN reset, link extended, removed).
    #[oai(rename = "co_parent")]
    CoParent,
    /// The family's settings (`id` is the family).
    #[oai(rename = "family_settings")]
    FamilySettings,
    /// Reload everything of the family: changes were missed.
    Resync,
    /// First event of a stream: the revision it starts at.
    Ready,
    /// Last event of a stream that a newer stream of the same session replaced: do not
    /// reconnect until the tab is used again.
    Superseded,
}

/// One event. `event:` is `change` for record kinds, otherwise the kind itself.
#[derive(Debug, Clone, Object)]
pub struct FeedEvent {
    pub kind: EventKind,
    /// The record that changed (created, updated or deleted), or the week of a meal plan;
    /// null for ready, resync and superseded.
    #[oai(nullable)]
    pub id: Option<String>,
    pub revision: u64,
}

impl From<FamilyChange> for FeedEvent {
    fn from(c: FamilyChange) -> Self {
        FeedEvent {
            kind: match c.kind {
                Kind::Child => EventKind::Child,
                Kind::Meal => EventKind::Meal,
                Kind::Media => EventKind::Media,
                Kind::Profile => EventKind::Profile,
                Kind::Family => EventKind::Family,
                Kind::Recipe => EventKind::Recipe,
                Kind::GroceryList => EventKind::GroceryList,
                Kind::MealPlan => EventKind::MealPlan,
                Kind::CoParent => EventKind::CoParent,
                Kind::FamilySettings => EventKind::FamilySettings,
            },
            id: Some(c.id.to_string()),
            revision: c.revision,
        }
    }
}

fn kind_name(kind: EventKind) -> &'static str {
    match kind {
        EventKind::Child => "child",
        EventKind::Meal => "meal",
        EventKind::Media => "media",
        EventKind::Profile => "profile",
        EventKind::Family => "family",
        EventKind::Recipe => "recipe",
        EventKind::GroceryList => "grocery_list",
        EventKind::MealPlan => "meal_plan",
        EventKind::CoParent => "co_parent",
        EventKind::FamilySettings => "family_settings",
        EventKind::Resync => "resync",
        EventKind::Ready => "ready",
        EventKind::Superseded => "superseded",
    }
}

fn to_event(e: FeedEvent) -> Event {
    let name = match e.kind {
        EventKind::Resync | EventKind::Ready | EventKind::Superseded => kind_name(e.kind),
        _ => "change",
    };
    let data = serde_json::json!({
        "kind": kind_name(e.kind),
        "id": e.id,
        "revision": e.revision,
    });
    Event::message(data.to_string())
        .event_type(name)
        .id(e.revision.to_string())
}

#[derive(ApiResponse)]
pub enum EventsResponse {
    /// `text/event-stream`: each event's `data` is a `FeedEvent` as JSON.
    #[oai(status = 200)]
    Stream(FeedStream),
}

/// The stream, documented as one event looks (`api::sse`).
pub struct FeedStream(EventStream<BoxStream<'static, FeedEvent>>);

impl Payload for FeedStream {
    const CONTENT_TYPE: &'static str = "text/event-stream";

    fn schema_ref() -> MetaSchemaRef {
        let names = ["ready", "change", "resync", "superseded"];
        super::sse::event_schema(&names, "A FeedEvent as JSON.", true)
    }

    fn register(registry: &mut Registry) {
        FeedEvent::register(registry);
    }
}

impl IntoResponse for FeedStream {
    fn into_response(self) -> poem::Response {
        self.0.into_response()
    }
}

/// Who a stream is for.
enum Listener {
    /// A signed-in parent: every kind of the family.
    Parent {
        user: crate::domain::ids::UserId,
        session: [u8; 32],
    },
    /// A co-parent: only what the share routes show, while their session admits.
    Share(Box<share::Viewer>),
}

impl Listener {
    fn sees(&self, kind: Kind) -> bool {
        match self {
            Listener::Parent { .. } => true,
            Listener::Share(_) => matches!(
                kind,
                Kind::Child
                    | Kind::Meal
                    | Kind::Media
                    | Kind::GroceryList
                    | Kind::MealPlan
                    | Kind::FamilySettings
            ),
        }
    }
}

struct Live {
    app: App,
    sub: Subscription,
    queue: VecDeque<FeedEvent>,
    listener: Listener,
    check: tokio::time::Interval,
    slot: StreamSlot,
    superseded: bool,
}

fn resync(app: &App, family: crate::domain::ids::FamilyId) -> Option<FeedEvent> {
    let revision = app.revision(family);
    Some(FeedEvent {
        kind: EventKind::Resync,
        id: None,
        revision,
    })
}

/// Whether the stream's session is still valid. Read only: an open tab alone must not keep a
/// session (or an idle guest account) alive.
async fn still_signed_in(live: &Live) -> bool {
    match &live.listener {
        Listener::Parent { session, .. } => {
            sessions::is_live(&live.app, session).await.unwrap_or(false)
        }
        Listener::Share(viewer) => share::still_admits(&live.app, viewer).await,
    }
}

/// The next event, or `None` when the stream should end.
async fn next(mut live: Live) -> Option<(FeedEvent, Live)> {
    if live.superseded {
        return None;
    }
    loop {
        if let Some(e) = live.queue.pop_front() {
            return Some((e, live));
        }
        let woke = {
            let (changes, ended) = live.sub.receivers();
            tokio::select! {
                change = changes.recv() => Woke::Change(change),
                end = ended.recv() => Woke::SessionEnd(end),
                _ = live.slot.closed.notified() => Woke::Superseded,
                _ = live.check.tick() => Woke::Check,
            }
        };
        match woke {
            Woke::Change(Ok(c)) if live.listener.sees(c.kind) => return Some((c.into(), live)),
            Woke::Change(Ok(c)) => {
                // A co-parent's own record changed (a PIN reset, removed): is the stream's
                // session still good?
                if let Listener::Share(viewer) = &live.listener
                    && c.kind == Kind::CoParent
                    && c.id == viewer.co_parent.id.as_uuid().into()
                    && !still_signed_in(&live).await
                {
                    return None;
                }
            }
            Woke::Change(Err(RecvError::Lagged(_))) => {
                let e = resync(&live.app, live.sub.family())?;
                return Some((e, live));
            }
            Woke::Change(Err(RecvError::Closed)) => return None,
            Woke::SessionEnd(Ok(end)) if matches!(&live.listener, Listener::Parent { user, session } if end.ends(*user, session)) =>
            {
                return None;
            }
            Woke::SessionEnd(Ok(end)) if matches!(&live.listener, Listener::Share(viewer) if end.ends_share(&viewer.session)) =>
            {
                return None;
            }
            Woke::SessionEnd(Ok(_)) => {}
            Woke::SessionEnd(Err(RecvError::Closed)) => return None,
            Woke::SessionEnd(Err(RecvError::Lagged(_))) | Woke::Check => {
                if !still_signed_in(&live).await {
                    return None;
                }
            }
            Woke::Superseded => {
                let revision = live.app.revision(live.sub.family());
                live.superseded = true;
                let last = FeedEvent {
                    kind: EventKind::Superseded,
                    id: None,
                    revision,
                };
                return Some((last, live));
            }
        }
    }
}

/// What woke a waiting stream.
enum Woke {
    Change(Result<FamilyChange, RecvError>),
    SessionEnd(Result<crate::events::SessionEnd, RecvError>),
    Superseded,
    Check,
}

fn user_gone() -> ApiError {
    crate::domain::DomainError::not_signed_in(
        t!("Authentication required"),
        t!("You must be logged in to follow changes"),
    )
    .into()
}

#[derive(Default)]
pub struct EventsApi;

#[OpenApi(tag = "ApiTags::Events")]
impl EventsApi {
    /// The family's change feed (Server-Sent Events). Each `change` names a record kind and id
    /// and carries the family revision as its event id; reconnecting with `Last-Event-ID`
    /// replays what was missed, or sends `resync` when that is not possible.
    #[oai(path = "/events", method = "get", operation_id = "streamEvents")]
    async fn stream(
        &self,
        app: Data<&App>,
        user: CurrentUser,
        #[oai(name = "Last-Event-ID")] last_event_id: Header<Option<String>>,
    ) -> Result<EventsResponse, ApiError> {
        let me = user.require_to_view(t!("You must be logged in to follow changes"))?;
        let family = me.user.family_id;
        let listener = Listener::Parent {
            user: me.user.id,
            session: me.token_hash,
        };
        open(
            &app,
            family,
            me.token_hash,
            listener,
            last_event_id.0.as_deref(),
        )
        .await
    }
}

/// `GET /api/share/{token}/events`: the family's feed as a co-parent sees it.
pub(super) async fn share_stream(
    app: &App,
    viewer: share::Viewer,
    last_event_id: Option<&str>,
) -> Result<EventsResponse, ApiError> {
    let (family, session) = (viewer.family(), viewer.session);
    open(
        app,
        family,
        session,
        Listener::Share(Box::new(viewer)),
        last_event_id,
    )
    .await
}

async fn open(
    app: &App,
    family: crate::domain::ids::FamilyId,
    session: [u8; 32],
    listener: Listener,
    last_event_id: Option<&str>,
) -> Result<EventsResponse, ApiError> {
    let slot = app.feed().open_stream(session);
    let last_seen = last_event_id.and_then(|v| v.trim().parse::<u64>().ok());
    let Ok(sub) = app.feed().subscribe(family, last_seen, || {
        Ok::<_, std::convert::Infallible>(app.revision(family))
    });
    let mut live = Live {
        app: app.clone(),
        sub,
        queue: VecDeque::new(),
        listener,
        check: tokio::time::interval_at(tokio::time::Instant::now() + SESSION_CHECK, SESSION_CHECK),
        slot,
        superseded: false,
    };
    // A logout between the session check and the subscription would go unheard.
    if !still_signed_in(&live).await {
        return Err(match live.listener {
            Listener::Parent { .. } => user_gone(),
            Listener::Share(_) => crate::domain::co_parent::session_expired().into(),
        });
    }
    match &live.sub.start {
        Start::Live => live.queue.push_back(FeedEvent {
            kind: EventKind::Ready,
            id: None,
            revision: app.revision(family),
        }),
        Start::Replay(changes) => live.queue.extend(
            changes
                .iter()
                .filter(|c| live.listener.sees(c.kind))
                .map(|c| FeedEvent::from(*c)),
        ),
        Start::Resync => live.queue.extend(resync(app, family)),
    }
    let events = stream::unfold(live, next).boxed();
    Ok(EventsResponse::Stream(FeedStream(
        EventStream::new(events)
            .keep_alive(KEEP_ALIVE)
            .to_event(to_event),
    )))
}
