//! The games in play: a bounded cache of games loaded from storage (the
//! storage is the authority: several servers may share it), and the one way a
//! game changes: [`change`] makes the change on a copy off the async workers,
//! appends it to storage if the game is still at the version it was made on
//! (else catches up and decides again), keeps it and pushes it to the game's
//! WebSockets.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{broadcast, Mutex};

use crate::bots::Bot;
use crate::db::{Appended, Db};
use crate::error::ApiError;
use crate::event::Event;
use crate::live::Core;
use crate::view::GameView;
use crate::Options;

/// How many pushes a slow WebSocket may fall behind before it is sent the
/// current state instead of the ones it missed.
const PUSH_BACKLOG: usize = 64;

/// The application's state, shared by every request.
pub(crate) struct AppState {
    /// The storage.
    pub db: Db,
    /// This server's name in the leases of computer seats: `local` on SQLite
    /// (one server per file), a random one on PostgreSQL.
    pub holder: String,
    /// The server's settings.
    pub opts: Options,
    /// The rate limiters and the engine's semaphore.
    pub guards: Arc<crate::limits::Guards>,
    /// The games loaded, by id, and when each was last asked for.
    games: std::sync::Mutex<HashMap<String, Cached>>,
}

/// A game in the cache.
struct Cached {
    slot: Slot,
    used: Instant,
}

/// The application's state as the handlers hold it.
pub(crate) type Shared = Arc<AppState>;

/// One game in play, locked while it changes.
pub(crate) type Slot = Arc<Mutex<Entry>>;

/// A game in play and what runs it.
pub(crate) struct Entry {
    /// The game as stored.
    pub core: Core,
    /// The computer players, made on their first turn and kept (with their
    /// random state) for the next ones.
    pub bots: HashMap<chaupar_core::Colour, Box<dyn Bot>>,
    /// Whether a computer driver runs for this game.
    pub driving: bool,
    /// Deleted while a request waited for it: nothing may store it again.
    pub deleted: bool,
    /// How many WebSockets hold each seat (after `auth`): who is connected.
    pub presence: std::collections::BTreeMap<chaupar_core::Colour, usize>,
    /// When each speaker (a seat, or `-` for the spectators) last chatted: the
    /// times of the last minute, for the rate limit.
    pub chatted: HashMap<String, std::collections::VecDeque<std::time::Instant>>,
    /// Live updates for the game's WebSockets: sent by [`change`] (after the
    /// change is stored, under the entry's lock) and by deletion.
    tx: broadcast::Sender<Push>,
}

/// A message for the WebSockets of one game.
#[derive(Clone, Debug)]
pub(crate) enum Push {
    /// `{"type": "state", "game": ...}`, already serialised.
    State(Arc<String>),
    /// The game was deleted.
    Deleted,
    /// `{"type": "presence", "connected": [...]}`, already serialised.
    Presence(Arc<String>),
    /// `{"type": "chat", "line": {...}}`, already serialised, and whether
    /// spectators are sent it too.
    Chat(Arc<String>, bool),
}

/// `{"type": "state", "game": ...}`: the message with a game's state.
#[derive(Serialize)]
#[serde(tag = "type", rename = "state")]
struct StateMessage<'a> {
    game: &'a GameView,
}

/// The WebSocket message with a game's state.
pub(crate) fn state_message(view: &GameView) -> Arc<String> {
    Arc::new(serde_json::to_string(&StateMessage { game: view }).unwrap_or_default())
}

impl Entry {
    fn new(core: Core) -> Entry {
        Entry {
            core,
            bots: HashMap::new(),
            driving: false,
            deleted: false,
            presence: Default::default(),
            chatted: HashMap::new(),
            tx: broadcast::channel(PUSH_BACKLOG).0,
        }
    }

    /// Listens to the game's changes, with the game as it is now: every later
    /// change will be received.
    pub fn subscribe(&self) -> (broadcast::Receiver<Push>, Core) {
        (self.tx.subscribe(), self.core.clone())
    }

    /// `{"type": "presence", "connected": [...]}`: the seats some WebSocket holds.
    pub fn presence_message(&self) -> String {
        let connected: Vec<_> = (self.presence.iter())
            .filter(|(_, n)| **n > 0)
            .map(|(c, _)| *c)
            .collect();
        serde_json::json!({"type": "presence", "connected": connected}).to_string()
    }

    /// Counts a WebSocket more (`up`) or less holding `colour`, and tells every
    /// WebSocket of the game who is connected now.
    pub fn connect(&mut self, colour: chaupar_core::Colour, up: bool) {
        let n = self.presence.entry(colour).or_insert(0);
        *n = if up { *n + 1 } else { n.saturating_sub(1) };
        if *n == 0 {
            self.presence.remove(&colour);
        }
        let _ = self
            .tx
            .send(Push::Presence(Arc::new(self.presence_message())));
    }

    /// An error unless the game is still there: a request that waited for the
    /// lock while the game was deleted must not store it again.
    pub fn live(&self) -> Result<(), ApiError> {
        match self.deleted {
            true => Err(no_game(&self.core.id)),
            false => Ok(()),
        }
    }
}

fn no_game(id: &str) -> ApiError {
    ApiError::not_found(format!("no game {id:?}"))
}

/// Runs engine work (legal steps, replays, reviews, hints) on the blocking
/// threads, so that the async workers keep serving.
pub(crate) async fn blocking<T, F>(f: F) -> Result<T, ApiError>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(e.to_string()))
}

/// How long a game nobody watches stays in the cache after its last request.
const IDLE: Duration = Duration::from_secs(300);

impl AppState {
    /// Opens the storage (creating it if need be).
    pub async fn open(db_url: &str, opts: Options) -> Result<Shared, sqlx::Error> {
        let db = crate::db::open(db_url, opts.sqlite_full_sync).await?;
        let holder = match db.postgres {
            true => format!("{:016x}", crate::live::server_u64()),
            false => "local".to_string(),
        };
        Ok(Arc::new(AppState {
            db,
            holder,
            guards: Arc::new(crate::limits::Guards::new(&opts.limits)),
            opts,
            games: std::sync::Mutex::new(HashMap::new()),
        }))
    }

    /// How many games are in memory.
    pub(crate) fn loaded(&self) -> usize {
        self.cache().len()
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cached>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game `id` if it is in memory (without counting it as used).
    pub(crate) fn slots_of(&self, id: &str) -> Option<Slot> {
        self.cache().get(id).map(|c| c.slot.clone())
    }

    /// The game `id` as loaded, if it is.
    fn cached(&self, id: &str) -> Option<Slot> {
        let mut games = self.cache();
        let c = games.get_mut(id)?;
        c.used = Instant::now();
        Some(c.slot.clone())
    }

    /// The game `id`, loaded from storage if it is not in memory; `404` if there
    /// is none. On PostgreSQL (which other servers may change) a game in memory
    /// is first brought up to the stored version.
    pub async fn slot(&self, id: &str) -> Result<Slot, ApiError> {
        if let Some(s) = self.cached(id) {
            if self.db.postgres {
                let mut e = s.lock().await;
                refresh(self, &mut e).await?;
            }
            return Ok(s);
        }
        let stored = crate::db::games::load(&self.db, id)
            .await?
            .ok_or_else(|| no_game(id))?;
        let actions = crate::db::actions::after(&self.db, id, stored.base_version, None).await?;
        let core = blocking(move || Core::load(&stored, &actions))
            .await?
            .map_err(|e| ApiError::internal(format!("stored game {id} cannot be replayed: {e}")))?;
        let mut games = self.cache();
        // Loaded meanwhile by another request: keep that one.
        let c = games.entry(id.to_string()).or_insert_with(|| Cached {
            slot: Arc::new(Mutex::new(Entry::new(core))),
            used: Instant::now(),
        });
        c.used = Instant::now();
        Ok(c.slot.clone())
    }

    /// What `f` takes from the game `id` as it is now (a copy, so that the
    /// engine's work on it runs without the game's lock).
    pub async fn read<T>(&self, id: &str, f: impl FnOnce(&Core) -> T) -> Result<T, ApiError> {
        let s = self.slot(id).await?;
        let e = s.lock().await;
        Ok(f(&e.core))
    }

    /// Stores a new game and puts it in play; answers its view.
    pub async fn insert(&self, core: Core) -> Result<GameView, ApiError> {
        crate::db::games::insert(&self.db, &core.stored()).await?;
        let view = GameView::of(&core);
        let id = core.id.clone();
        let slot = Arc::new(Mutex::new(Entry::new(core)));
        let used = Instant::now();
        self.cache().insert(id, Cached { slot, used });
        Ok(view)
    }

    /// Deletes a game from storage and from play, and tells its WebSockets, if
    /// `allow` lets it (checked under the game's lock).
    pub async fn delete(
        &self,
        id: &str,
        allow: impl FnOnce(&Core) -> Result<(), ApiError>,
    ) -> Result<(), ApiError> {
        let s = self.slot(id).await?;
        let mut e = s.lock().await;
        e.live()?;
        allow(&e.core)?;
        crate::db::games::delete(&self.db, id).await?;
        self.forget(id, &mut e);
        Ok(())
    }

    /// Marks a deleted game as such, tells its WebSockets and drops it from
    /// the cache.
    pub(crate) fn forget(&self, id: &str, e: &mut Entry) {
        e.deleted = true;
        // No receiver is not an error: nobody is watching.
        let _ = e.tx.send(Push::Deleted);
        self.cache().remove(id);
    }

    /// The games in memory.
    pub(crate) fn slots(&self) -> Vec<(String, Slot)> {
        let games = self.cache();
        games
            .iter()
            .map(|(id, c)| (id.clone(), c.slot.clone()))
            .collect()
    }

    /// Drops from the cache the games nobody uses: those no WebSocket watches,
    /// no computer driver runs and no request holds, once they are over or
    /// idle for [`IDLE`]; and, while the cache holds more than `max` games, the
    /// least recently used of those, idle or not.
    pub(crate) fn evict(&self, max: usize) {
        let mut games = self.cache();
        let unused = |c: &Cached| {
            Arc::strong_count(&c.slot) == 1
                && c.slot
                    .try_lock()
                    .is_ok_and(|e| e.tx.receiver_count() == 0 && !e.driving)
        };
        let over = |c: &Cached| c.slot.try_lock().is_ok_and(|e| e.core.over());
        games.retain(|_, c| !(unused(c) && (over(c) || c.used.elapsed() > IDLE)));
        if games.len() > max {
            let mut idle: Vec<(Instant, String)> = (games.iter())
                .filter(|(_, c)| unused(c))
                .map(|(id, c)| (c.used, id.clone()))
                .collect();
            idle.sort();
            let extra = games.len() - max;
            for (_, id) in idle.into_iter().take(extra) {
                games.remove(&id);
            }
        }
    }
}

/// Whether [`change`] answers the new state (it does anyway when a WebSocket
/// watches the game).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Answer the new view.
    View,
    /// Nothing to answer (the computer driver).
    Nothing,
}

/// What [`change`] did.
pub(crate) struct Outcome {
    /// The game's view after the change, when asked for (or watched).
    pub view: Option<GameView>,
    /// Whether the change was stored before, under the same `action_id`: not
    /// made again, and `view` is the answer it had then.
    pub repeated: bool,
}

/// How often [`change`] decides again when other changes come first.
const TRIES: usize = 8;

/// Changes a game: `decide` says what change to make of the game as it is
/// (and checks who may make it); the change is made on a copy off the async
/// workers, appended to storage if the game is still at the version it was
/// made on, then kept and pushed to the game's WebSockets. When the game has
/// moved on meanwhile (another server, another request), it catches up and
/// decides again. An `action_id` stored before is answered as it was then (if
/// the change is the same) and not made twice. On any error nothing changes.
/// Every change of a game goes through here.
pub(crate) async fn change<D>(
    state: &AppState,
    entry: &mut Entry,
    answer: Answer,
    action_id: Option<&str>,
    decide: D,
) -> Result<Outcome, ApiError>
where
    D: Fn(&Core) -> Result<Event, ApiError>,
{
    for _ in 0..TRIES {
        entry.live()?;
        let event = decide(&entry.core)?;
        let mut next = entry.core.clone();
        let watched = entry.tx.receiver_count() > 0;
        let at = crate::db::now_ms();
        let made = event.clone();
        let applied = blocking(move || {
            next.apply(&made, at)?;
            let view = (watched || answer == Answer::View).then(|| GameView::of(&next));
            Ok::<_, ApiError>((next, view))
        })
        .await?;
        let (next, view) = match applied {
            Ok(done) => done,
            Err(err) => {
                return match action_id {
                    Some(aid) => match repeated(state, &entry.core.id, aid, &event).await? {
                        Some(view) => Ok(view),
                        None => Err(err),
                    },
                    None => Err(err),
                }
            }
        };
        let id = entry.core.id.clone();
        let stored = crate::db::actions::append(
            &state.db,
            &id,
            &next.head(),
            at,
            &event.to_json(),
            action_id,
        )
        .await?;
        match stored {
            Appended::Stored => {
                entry.core = next;
                entry.push(&event, view.as_ref());
                return Ok(Outcome {
                    view,
                    repeated: false,
                });
            }
            Appended::Stale => {
                if let Some(aid) = action_id {
                    if let Some(view) = repeated(state, &id, aid, &event).await? {
                        return Ok(view);
                    }
                }
                catch_up(state, entry).await?;
            }
        }
    }
    Err(ApiError::new(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        "the game is changing too fast here: try again",
    ))
}

/// The stored answer to an action stored before under `action_id`, if there
/// is one: `409` if it was another change.
async fn repeated(
    state: &AppState,
    id: &str,
    action_id: &str,
    event: &Event,
) -> Result<Option<Outcome>, ApiError> {
    let Some(stored) = crate::db::actions::find(&state.db, id, action_id).await? else {
        return Ok(None);
    };
    if Event::from_json(&stored.action).as_ref() != Ok(event) {
        return Err(ApiError::conflict(format!(
            "action_id {action_id:?} was used for another action"
        )));
    }
    let head = crate::db::games::load(&state.db, id)
        .await?
        .ok_or_else(|| no_game(id))?;
    let actions =
        crate::db::actions::after(&state.db, id, head.base_version, Some(stored.seq)).await?;
    let view = blocking(move || Core::load(&head, &actions).map(|core| GameView::of(&core)))
        .await?
        .map_err(ApiError::internal)?;
    Ok(Some(Outcome {
        view: Some(view),
        repeated: true,
    }))
}

/// Brings a game in memory up to its stored version, if another server (or
/// another copy of it) has moved it on.
pub(crate) async fn refresh(state: &AppState, entry: &mut Entry) -> Result<(), ApiError> {
    if entry.deleted {
        return Ok(());
    }
    match crate::db::games::version(&state.db, &entry.core.id).await? {
        Some(v) if v as u64 > entry.core.version => catch_up(state, entry).await,
        Some(_) => Ok(()),
        None => {
            let id = entry.core.id.clone();
            state.forget(&id, entry);
            Ok(())
        }
    }
}

/// Applies the actions stored after the game's version in memory, one by one,
/// pushing each to the game's WebSockets: so every socket, on every server,
/// is sent every change once and in order. A game no longer stored is marked
/// deleted.
pub(crate) async fn catch_up(state: &AppState, entry: &mut Entry) -> Result<(), ApiError> {
    let id = entry.core.id.clone();
    let actions =
        crate::db::actions::after(&state.db, &id, entry.core.version as i64, None).await?;
    if actions.is_empty() {
        if crate::db::games::version(&state.db, &id).await?.is_none() {
            state.forget(&id, entry);
            return Err(no_game(&id));
        }
        return Ok(());
    }
    let mut core = entry.core.clone();
    let watched = entry.tx.receiver_count() > 0;
    let (core_now, pushes) = blocking(move || {
        let mut pushes = Vec::new();
        for a in &actions {
            let event = core.apply_stored(a)?;
            let view =
                (watched && !matches!(event, Event::Chat { .. })).then(|| GameView::of(&core));
            pushes.push((event, view));
        }
        Ok::<_, String>((core, pushes))
    })
    .await?
    .map_err(|e| ApiError::internal(format!("stored game {id} cannot be replayed: {e}")))?;
    entry.core = core_now;
    for (event, view) in pushes {
        entry.push(&event, view.as_ref());
    }
    Ok(())
}

impl Entry {
    /// Tells the game's WebSockets of a change (no receiver is not an error:
    /// everyone may have gone).
    fn push(&self, event: &Event, view: Option<&GameView>) {
        match (event, view) {
            (Event::Chat { line }, _) => {
                let text = serde_json::json!({"type": "chat", "line": line}).to_string();
                let public = self.core.seating.spectator_chat;
                let _ = self.tx.send(Push::Chat(Arc::new(text), public));
            }
            (_, Some(view)) => {
                let _ = self.tx.send(Push::State(state_message(view)));
            }
            (_, None) => {}
        }
    }
}
