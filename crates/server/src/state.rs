//! The games in play: one slot per game (loaded from storage on first use), and
//! the one way a game changes: [`change`] makes the change on a copy off the async
//! workers, stores it, keeps it and pushes it to the game's WebSockets.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use sqlx::AnyPool;
use tokio::sync::{broadcast, Mutex};

use crate::bots::Bot;
use crate::error::ApiError;
use crate::live::Core;
use crate::view::GameView;
use crate::{db, Options};

/// How many pushes a slow WebSocket may fall behind before it is sent the
/// current state instead of the ones it missed.
const PUSH_BACKLOG: usize = 64;

/// The application's state, shared by every request.
pub(crate) struct AppState {
    /// The storage.
    pub db: AnyPool,
    /// The server's settings.
    pub opts: Options,
    /// The rate limiters and the engine's semaphore.
    pub guards: Arc<crate::limits::Guards>,
    /// The games loaded, by id.
    games: Mutex<HashMap<String, Slot>>,
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

    /// Adds a chat line: stored, kept, and pushed to the game's WebSockets.
    pub async fn chat(
        &mut self,
        db: &AnyPool,
        line: crate::live::ChatLine,
    ) -> Result<(), ApiError> {
        self.live()?;
        let mut next = self.core.clone();
        next.chat.push(line.clone());
        let over = next.chat.len().saturating_sub(crate::live::CHAT_KEPT);
        next.chat.drain(..over);
        db::save(db, &next.stored()).await?;
        self.core = next;
        let text = serde_json::json!({"type": "chat", "line": line}).to_string();
        let public = self.core.seating.spectator_chat;
        let _ = self.tx.send(Push::Chat(Arc::new(text), public));
        Ok(())
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

impl AppState {
    /// Opens the storage (creating it if need be).
    pub async fn open(db_url: &str, opts: Options) -> Result<Shared, sqlx::Error> {
        Ok(Arc::new(AppState {
            db: db::open(db_url).await?,
            guards: Arc::new(crate::limits::Guards::new(&opts.limits)),
            opts,
            games: Mutex::new(HashMap::new()),
        }))
    }

    /// How many games are in memory now (`chaupar_games_in_memory` of
    /// `/metrics`).
    pub(crate) async fn loaded(&self) -> usize {
        self.games.lock().await.len()
    }

    /// The game `id`, loaded from storage if it is not in play; `404` if there is
    /// none. The map stays locked while a game is loaded, so that a game is never
    /// loaded twice (nor brought back by a load racing its deletion).
    pub async fn slot(&self, id: &str) -> Result<Slot, ApiError> {
        let mut games = self.games.lock().await;
        if let Some(s) = games.get(id) {
            return Ok(s.clone());
        }
        let stored = db::load(&self.db, id).await?.ok_or_else(|| no_game(id))?;
        let core = blocking(move || Core::from_stored(&stored))
            .await?
            .map_err(|e| ApiError::internal(format!("stored game {id} cannot be replayed: {e}")))?;
        let s = Arc::new(Mutex::new(Entry::new(core)));
        games.insert(id.to_string(), s.clone());
        Ok(s)
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
        db::save(&self.db, &core.stored()).await?;
        let view = GameView::of(&core);
        let id = core.id.clone();
        self.games
            .lock()
            .await
            .insert(id, Arc::new(Mutex::new(Entry::new(core))));
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
        db::delete(&self.db, id).await?;
        e.deleted = true;
        // No receiver is not an error: nobody is watching.
        let _ = e.tx.send(Push::Deleted);
        self.games.lock().await.remove(id);
        Ok(())
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

/// Changes a game: runs `f` on a copy off the async workers, stores the copy,
/// then keeps it and pushes its state to the game's WebSockets. On any error
/// nothing changes. Every change of a game goes through here.
pub(crate) async fn change<F>(
    db: &AnyPool,
    entry: &mut Entry,
    answer: Answer,
    f: F,
) -> Result<Option<GameView>, ApiError>
where
    F: FnOnce(&mut Core) -> Result<(), ApiError> + Send + 'static,
{
    entry.live()?;
    let mut next = entry.core.clone();
    next.version += 1;
    let watched = entry.tx.receiver_count() > 0;
    let (next, view) = blocking(move || {
        let (turns, to_move) = (next.game.turns().len(), next.game.position().to_move());
        f(&mut next)?;
        // A new turn (or a seat handed over) starts the clock of `turn_seconds`.
        if (next.game.turns().len(), next.game.position().to_move()) != (turns, to_move) {
            next.seating.turn_since = crate::live::now();
        }
        let view = (watched || answer == Answer::View).then(|| GameView::of(&next));
        Ok::<_, ApiError>((next, view))
    })
    .await??;
    db::save(db, &next.stored()).await?;
    entry.core = next;
    if let (true, Some(view)) = (watched, &view) {
        // No receiver is not an error: everyone may have gone meanwhile.
        let _ = entry.tx.send(Push::State(state_message(view)));
    }
    Ok(view)
}
