//! The Chaupar server: a JSON API over the rules engine, games stored in SQLite or
//! PostgreSQL, computer players, and the web client embedded in the binary.
//!
//! Start it with [`serve`] on a bound listener (tests bind `127.0.0.1:0`), or build
//! the [`router`] yourself. The API is documented in `docs/api.md`.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chaupar_core::board::{self, Square};
use chaupar_core::notation::play_text;
use chaupar_core::play::Turn;
use chaupar_core::rules::OPTIONS;
use chaupar_core::{record, Colour, Game, Preset, Rules};
use serde::Deserialize;
use serde_json::{json, Value};
use sqlx::AnyPool;
use tokio::net::TcpListener;
use tokio::sync::{broadcast, Mutex};

mod assets;
pub mod bots;
pub mod db;
pub mod i18n;
pub mod live;
pub mod markdown;
mod ws;

use live::{step_value, Core, Seat};

/// Server settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Pause before each computer throw and play, in milliseconds, for games that
    /// do not choose their own.
    pub delay_ms: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options { delay_ms: 900 }
    }
}

struct Entry {
    core: Core,
    bots: HashMap<Colour, Box<dyn bots::Bot>>,
    driving: bool,
    deleted: bool,
    /// Live updates for the game's WebSockets: sent by [`commit`] (after the
    /// change is stored, under the entry's lock) and by deletion.
    tx: broadcast::Sender<Push>,
}

impl Entry {
    fn new(core: Core) -> Entry {
        Entry {
            core,
            bots: HashMap::new(),
            driving: false,
            deleted: false,
            tx: broadcast::channel(PUSH_BACKLOG).0,
        }
    }
}

/// How many pushes a slow WebSocket may fall behind before it is sent the
/// current state instead of the ones it missed.
const PUSH_BACKLOG: usize = 64;

/// A message for the WebSockets of one game.
#[derive(Clone, Debug)]
enum Push {
    /// `{"type": "state", "game": ...}`, already serialised.
    State(Arc<String>),
    /// The game was deleted.
    Deleted,
}

fn state_message(core: &Core) -> Arc<String> {
    Arc::new(json!({"type": "state", "game": core.view()}).to_string())
}

type Slot = Arc<Mutex<Entry>>;

struct AppState {
    db: AnyPool,
    opts: Options,
    games: Mutex<HashMap<String, Slot>>,
}

type Shared = Arc<AppState>;

/// An API error: a status and a message, answered as `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError(StatusCode, String, Option<String>);

impl ApiError {
    fn bad(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, msg.into(), None)
    }
    fn conflict(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::CONFLICT, msg.into(), None)
    }
    fn unprocessable(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::UNPROCESSABLE_ENTITY, msg.into(), None)
    }
    fn not_found(msg: impl Into<String>) -> ApiError {
        ApiError(StatusCode::NOT_FOUND, msg.into(), None)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        tracing::error!("database: {e}");
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("database: {e}"),
            None,
        )
    }
}

impl ApiError {
    /// A step the rules do not allow: 422 with the reason in English and Russian.
    fn illegal(why: &chaupar_core::Illegal) -> ApiError {
        ApiError(
            StatusCode::UNPROCESSABLE_ENTITY,
            why.to_string(),
            Some(i18n::why_ru(why)),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match self.2 {
            Some(ru) => json!({ "error": self.1, "error_ru": ru }),
            None => json!({ "error": self.1 }),
        };
        (self.0, Json(body)).into_response()
    }
}

type ApiResult = Result<Json<Value>, ApiError>;

fn parse_body<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("bad request JSON: {e}")))
}

fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

/// Builds the application: opens (and if need be creates) the database, and
/// resumes the computer players of the games in it.
pub async fn router(db_url: &str, opts: Options) -> Result<Router, sqlx::Error> {
    let db = db::open(db_url).await?;
    let state = Arc::new(AppState {
        db,
        opts,
        games: Mutex::new(HashMap::new()),
    });
    for g in db::list(&state.db).await? {
        if g.status == "playing" {
            kick(state.clone(), g.id.clone());
        }
    }
    Ok(Router::new()
        .route("/api/meta", get(api_meta))
        .route("/api/board", get(api_board))
        .route("/api/rules", get(api_rules))
        .route("/api/games", get(api_list).post(api_create))
        .route("/api/import", post(api_import))
        .route("/api/games/:id", get(api_game).delete(api_delete))
        .route("/api/games/:id/throw", post(api_throw))
        .route("/api/games/:id/step", post(api_step))
        .route("/api/games/:id/undo", post(api_undo))
        .route("/api/games/:id/end", post(api_end))
        .route("/api/games/:id/check", post(api_check))
        .route("/api/games/:id/hint", get(api_hint))
        .route("/api/games/:id/record", get(api_record))
        .route("/api/games/:id/replay", get(api_replay))
        .route("/api/games/:id/review", get(api_review))
        .route("/api/games/:id/ws", get(ws::api_ws))
        .fallback(assets::serve)
        .with_state(state))
}

/// Serves the application on a bound listener until the process ends.
pub async fn serve(listener: TcpListener, db_url: &str, opts: Options) -> std::io::Result<()> {
    let app = router(db_url, opts)
        .await
        .map_err(|e| std::io::Error::other(format!("database {db_url}: {e}")))?;
    axum::serve(listener, app).await
}

// ---------- static facts ----------

async fn api_meta() -> Json<Value> {
    let presets: Vec<Value> = Preset::ALL
        .iter()
        .map(|p| {
            let r = Rules::preset(*p);
            let values: serde_json::Map<String, Value> = OPTIONS
                .iter()
                .map(|o| (o.name.to_string(), json!(r.get(o.name).unwrap_or_default())))
                .collect();
            let players: Vec<u8> = [2u8, 3, 4]
                .into_iter()
                .filter(|n| r.seats(*n).is_ok())
                .collect();
            json!({"name": p.name(), "source": p.source(), "values": values, "players": players})
        })
        .collect();
    let options: Vec<Value> = OPTIONS
        .iter()
        .map(|o| json!({"name": o.name, "values": o.values, "about": o.about}))
        .collect();
    // Each colour's letter (the notation's) and partner, and which colours play
    // for each seating and number of players, so the page derives none of them.
    let colours: Vec<Value> = Colour::ALL
        .iter()
        .map(|c| json!({"name": c.name(), "letter": c.letter().to_string(), "partner": c.partner().name()}))
        .collect();
    let mut seating = serde_json::Map::new();
    for value in OPTIONS
        .iter()
        .find(|o| o.name == "seating")
        .map(|o| o.values)
        .unwrap_or_default()
    {
        let mut rules = Rules::preset(Preset::Chaupar);
        if rules.set("seating", value).is_err() {
            continue;
        }
        let mut by_players = serde_json::Map::new();
        for n in [2u8, 3, 4] {
            if let Ok((cs, teams)) = rules.seats(n) {
                let names: Vec<&str> = cs.iter().map(|c| c.name()).collect();
                by_players.insert(n.to_string(), json!({"colours": names, "teams": teams}));
            }
        }
        seating.insert(value.to_string(), Value::Object(by_players));
    }
    Json(json!({
        "presets": presets,
        "options": options,
        "levels": [1, 2, 3, 4, 5],
        "colours": colours,
        "seating": seating,
    }))
}

async fn api_board() -> Json<Value> {
    let mut tracks = serde_json::Map::new();
    for c in Colour::ALL {
        let cells: Vec<Value> = (0..=board::HOME)
            .map(|p| match board::square(c, p) {
                Some(s) => json!(s.rc()),
                None => Value::Null,
            })
            .collect();
        tracks.insert(c.name().into(), Value::Array(cells));
    }
    let squares: Vec<Value> = Square::all().map(|s| json!(s.rc())).collect();
    let castles: Vec<Value> = Square::all()
        .filter(|s| s.is_castle())
        .map(|s| json!(s.rc()))
        .collect();
    Json(json!({
        "size": 19,
        "home": board::HOME,
        "half": board::HALF,
        "squares": squares,
        "castles": castles,
        "charkoni": [8, 10],
        "tracks": tracks,
    }))
}

async fn api_rules() -> Json<Value> {
    let md = include_str!(concat!(env!("OUT_DIR"), "/rules.md"));
    Json(json!({"markdown": md, "html": markdown::to_html(md)}))
}

// ---------- games ----------

async fn slot(state: &Shared, id: &str) -> Result<Slot, ApiError> {
    let mut games = state.games.lock().await;
    if let Some(s) = games.get(id) {
        return Ok(s.clone());
    }
    let stored = db::load(&state.db, id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no game {id:?}")))?;
    let core = Core::from_stored(&stored).map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("stored game {id} cannot be replayed: {e}"),
            None,
        )
    })?;
    let s = Arc::new(Mutex::new(Entry::new(core)));
    games.insert(id.to_string(), s.clone());
    Ok(s)
}

/// Stores a changed game, then keeps it and pushes it to the game's WebSockets;
/// on a storage error nothing changes. Every change of a game goes through here.
async fn commit(state: &Shared, entry: &mut Entry, mut next: Core) -> Result<(), ApiError> {
    next.version = entry.core.version + 1;
    db::save(&state.db, &next.stored()).await?;
    entry.core = next;
    if entry.tx.receiver_count() > 0 {
        // No receiver is not an error: nobody is watching.
        let _ = entry.tx.send(Push::State(state_message(&entry.core)));
    }
    Ok(())
}

async fn api_list(State(state): State<Shared>) -> ApiResult {
    let games: Vec<Value> = db::list(&state.db)
        .await?
        .into_iter()
        .map(|g| {
            json!({
                "id": g.id,
                "created": g.created,
                "updated": g.updated,
                "status": g.status,
                "summary": serde_json::from_str::<Value>(&g.summary).unwrap_or(Value::Null),
            })
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    preset: String,
    #[serde(default)]
    options: serde_json::Map<String, Value>,
    #[serde(default)]
    players: Option<u8>,
    #[serde(default)]
    seats: Option<Value>,
    #[serde(default)]
    delay_ms: Option<u64>,
    #[serde(default)]
    seed: Option<u64>,
}

async fn store_new(state: &Shared, core: Core) -> ApiResult {
    db::save(&state.db, &core.stored()).await?;
    let id = core.id.clone();
    let view = core.view();
    state
        .games
        .lock()
        .await
        .insert(id.clone(), Arc::new(Mutex::new(Entry::new(core))));
    tracing::info!(game = %id, "new game");
    kick(state.clone(), id);
    Ok(Json(view))
}

async fn api_create(State(state): State<Shared>, body: Bytes) -> ApiResult {
    let req: NewGame = parse_body(&body)?;
    let rules = chaupar_core::json::rules_from(&req.preset, &req.options)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let players = req.players.unwrap_or(4);
    let seed = req.seed.unwrap_or_else(random_u64);
    let game =
        Game::new(rules, players, seed).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let seats = live::parse_seats(&req.seats.unwrap_or(json!({})), game.position())
        .map_err(ApiError::unprocessable)?;
    if req.delay_ms.is_some_and(|d| d > 60_000) {
        return Err(ApiError::unprocessable("delay_ms must be at most 60000"));
    }
    let core = new_core(game, seats, req.delay_ms.unwrap_or(state.opts.delay_ms));
    store_new(&state, core).await
}

/// A game just made or imported, with a fresh id and no turn under way.
fn new_core(
    game: chaupar_core::Game,
    seats: std::collections::BTreeMap<chaupar_core::Colour, live::Seat>,
    delay_ms: u64,
) -> Core {
    Core {
        id: format!("{:012x}", random_u64() & 0xffff_ffff_ffff),
        created: live::now(),
        game,
        turn: None,
        seats,
        delay_ms,
        version: 1,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Import {
    record: String,
    #[serde(default)]
    seats: Option<Value>,
    #[serde(default)]
    delay_ms: Option<u64>,
}

async fn api_import(State(state): State<Shared>, body: Bytes) -> ApiResult {
    let req: Import = parse_body(&body)?;
    let game = record::replay(&req.record).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let seats = live::parse_seats(&req.seats.unwrap_or(json!({})), game.position())
        .map_err(ApiError::unprocessable)?;
    let core = new_core(game, seats, req.delay_ms.unwrap_or(state.opts.delay_ms));
    store_new(&state, core).await
}

async fn api_game(State(state): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let s = slot(&state, &id).await?;
    let e = s.lock().await;
    Ok(Json(e.core.view()))
}

async fn api_delete(State(state): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let s = slot(&state, &id).await?;
    let mut e = s.lock().await;
    db::delete(&state.db, &id).await?;
    e.deleted = true;
    let _ = e.tx.send(Push::Deleted);
    state.games.lock().await.remove(&id);
    Ok(Json(json!({"deleted": id})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    seat: String,
    #[serde(default)]
    step: Option<live::StepJson>,
}

/// Checks that `seat` is a person whose turn it is.
fn check_seat(core: &Core, seat: &str) -> Result<(), ApiError> {
    let c: Colour = seat
        .parse()
        .map_err(|e| ApiError::bad(format!("seat: {e}")))?;
    let (to_move, kind) = core
        .seat_to_move()
        .ok_or_else(|| ApiError::conflict("the game is over"))?;
    if c != to_move {
        return Err(ApiError::conflict(format!(
            "it is {}'s turn, not {}'s",
            to_move.title(),
            c.title()
        )));
    }
    if let Seat::Computer { .. } = kind {
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            format!("{} is played by the computer", c.title()),
            None,
        ));
    }
    Ok(())
}

/// Applies a person's action to a game: checks the seat, changes a copy, stores
/// it (which pushes it to the game's WebSockets), and wakes the computer seats.
/// Answers the new state when `view` is asked for.
async fn apply(
    state: &Shared,
    id: &str,
    req: &Act,
    f: Action,
    view: bool,
) -> Result<Option<Value>, ApiError> {
    let s = slot(state, id).await?;
    let mut e = s.lock().await;
    if e.deleted {
        // Deleted while this request waited for the lock: storing it would bring it back.
        return Err(ApiError::not_found(format!("no game {id:?}")));
    }
    check_seat(&e.core, &req.seat)?;
    let mut next = e.core.clone();
    f(&mut next, req)?;
    commit(state, &mut e, next).await?;
    let answer = view.then(|| e.core.view());
    drop(e);
    kick(state.clone(), id.to_string());
    Ok(answer)
}

/// A person's action on a copy of the game.
type Action = fn(&mut Core, &Act) -> Result<(), ApiError>;

async fn act(state: Shared, id: String, body: Bytes, f: Action) -> ApiResult {
    let req: Act = parse_body(&body)?;
    let view = apply(&state, &id, &req, f, true).await?;
    Ok(Json(view.unwrap_or(Value::Null)))
}

fn do_throw(c: &mut Core, _: &Act) -> Result<(), ApiError> {
    c.throw().map_err(ApiError::conflict)
}

fn do_step(c: &mut Core, req: &Act) -> Result<(), ApiError> {
    let step = step_of(req)?;
    let t = c
        .turn
        .as_mut()
        .ok_or_else(|| ApiError::conflict("throw the dice first"))?;
    t.step(step).map_err(|why| ApiError::illegal(&why))
}

fn do_undo(c: &mut Core, _: &Act) -> Result<(), ApiError> {
    let t = c
        .turn
        .as_mut()
        .ok_or_else(|| ApiError::conflict("throw the dice first"))?;
    t.undo()
        .map(|_| ())
        .ok_or_else(|| ApiError::conflict("no step to take back"))
}

fn do_end(c: &mut Core, _: &Act) -> Result<(), ApiError> {
    let t = c
        .turn
        .as_ref()
        .ok_or_else(|| ApiError::conflict("throw the dice first"))?;
    let play = t.finish().map_err(|why| ApiError::illegal(&why))?;
    c.play_whole(&play.steps).map_err(ApiError::unprocessable)
}

async fn api_throw(State(state): State<Shared>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    act(state, id, body, do_throw).await
}

fn step_of(req: &Act) -> Result<chaupar_core::Step, ApiError> {
    req.step
        .as_ref()
        .ok_or_else(|| ApiError::bad("give the step: {\"seat\": ..., \"step\": {...}}"))?
        .to_step()
        .map_err(ApiError::bad)
}

async fn api_step(State(state): State<Shared>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    act(state, id, body, do_step).await
}

/// Whether a step would be allowed, and why not, without taking it.
async fn check(state: &Shared, id: &str, req: &Act) -> Result<Value, ApiError> {
    let s = slot(state, id).await?;
    let e = s.lock().await;
    check_seat(&e.core, &req.seat)?;
    let step = step_of(req)?;
    let t = e
        .core
        .turn
        .as_ref()
        .ok_or_else(|| ApiError::conflict("throw the dice first"))?;
    Ok(match t.why_not(&step) {
        None => json!({"allowed": true}),
        Some(why) => {
            json!({"allowed": false, "why": why.to_string(), "why_ru": i18n::why_ru(&why)})
        }
    })
}

/// Says whether a step would be allowed, and why not, without taking it.
async fn api_check(State(state): State<Shared>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let req: Act = parse_body(&body)?;
    Ok(Json(check(&state, &id, &req).await?))
}

async fn api_undo(State(state): State<Shared>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    act(state, id, body, do_undo).await
}

async fn api_end(State(state): State<Shared>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    act(state, id, body, do_end).await
}

async fn api_hint(State(state): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let s = slot(&state, &id).await?;
    let turn = {
        let e = s.lock().await;
        e.core
            .turn
            .clone()
            .ok_or_else(|| ApiError::conflict("throw the dice first"))?
    };
    let (pos, throw) = (*turn.start(), turn.throw());
    let ranked = tokio::task::spawn_blocking(move || bots::hint(&turn))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string(), None))?;
    let plays: Vec<Value> = ranked
        .iter()
        .take(10)
        .map(|r| {
            json!({
                "notation": play_text(&pos, throw, &r.play.steps),
                "steps": r.play.steps.iter().map(step_value).collect::<Vec<_>>(),
                "win": r.win,
            })
        })
        .collect();
    Ok(Json(json!({ "plays": plays })))
}

async fn api_record(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let s = slot(&state, &id).await?;
    let e = s.lock().await;
    let mut tags: Vec<(String, String)> = Vec::new();
    for (c, seat) in &e.core.seats {
        let who = match seat {
            Seat::Person => "person".to_string(),
            Seat::Computer { level } => format!("computer level {level}"),
        };
        tags.push((c.title().to_string(), who));
    }
    let extra: Vec<(&str, &str)> = tags.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let text = record::write(&e.core.game, &extra);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"chaupar-{id}.txt\""),
            ),
        ],
        text,
    )
        .into_response())
}

async fn api_replay(State(state): State<Shared>, Path(id): Path<String>) -> ApiResult {
    let s = slot(&state, &id).await?;
    let game = s.lock().await.core.game.clone();
    let mut frames = vec![json!({
        "label": "start",
        "position": chaupar_core::json::position_value(game.start()),
    })];
    let mut pos = *game.start();
    for (i, t) in game.turns().iter().enumerate() {
        let mut turn = Turn::new(&pos, t.throw).map_err(|e| ApiError::conflict(e.to_string()))?;
        let text = play_text(&pos, t.throw, &t.steps);
        frames.push(json!({
            "label": format!("{}. {} {}", i + 1, t.colour.letter(), t.throw),
            "turn": i + 1, "colour": t.colour.name(), "throw": t.throw.dice(), "notation": text,
            "step": 0, "position": chaupar_core::json::position_value(&pos),
        }));
        for (k, st) in t.steps.iter().enumerate() {
            turn.step(*st)
                .map_err(|e| ApiError::conflict(e.to_string()))?;
            let p = if k + 1 == t.steps.len() {
                t.after
            } else {
                turn.current()
            };
            frames.push(json!({
                "label": format!("{}. {} {}", i + 1, t.colour.letter(), text),
                "turn": i + 1, "colour": t.colour.name(), "throw": t.throw.dice(), "notation": text,
                "step": k + 1, "position": chaupar_core::json::position_value(&p),
            }));
        }
        pos = t.after;
    }
    Ok(Json(
        json!({"id": id, "rules": game.rules().compact(), "frames": frames}),
    ))
}

/// `GET /api/games/:id/review[?budget=MS]`: each play's loss against the best,
/// verdicts, error rates and luck (`chaupar_ai::review`), MS (0..=50, default
/// 10) milliseconds of search work per turn.
async fn api_review(
    State(state): State<Shared>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> ApiResult {
    let mut ms = 10;
    for pair in query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
    {
        match pair.split_once('=') {
            Some(("budget", v)) => {
                ms = v
                    .parse::<u64>()
                    .ok()
                    .filter(|m| *m <= bots::REVIEW_MAX_MS)
                    .ok_or_else(|| {
                        ApiError::bad(format!(
                            "budget must be a whole number of milliseconds from 0 to {}, not {v:?}",
                            bots::REVIEW_MAX_MS
                        ))
                    })?;
            }
            _ => {
                return Err(ApiError::bad(format!(
                    "unknown query parameter {pair:?} (expected budget=MS)"
                )))
            }
        }
    }
    let s = slot(&state, &id).await?;
    let game = s.lock().await.core.game.clone();
    let review = tokio::task::spawn_blocking(move || bots::review(&game, ms))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string(), None))?;
    Ok(Json(json!({
        "id": id,
        "budget_ms": ms,
        "thresholds": {
            "doubtful": chaupar_ai::review::DOUBTFUL,
            "bad": chaupar_ai::review::BAD,
            "very_bad": chaupar_ai::review::VERY_BAD,
        },
        "turns": review.turns,
        "sides": review.sides,
    })))
}

// ---------- computer players ----------

/// Starts the computer player of a game if a computer is to move and none runs.
fn kick(state: Shared, id: String) {
    tokio::spawn(async move {
        let Ok(s) = slot(&state, &id).await else {
            return;
        };
        {
            let mut e = s.lock().await;
            if e.driving {
                return;
            }
            e.driving = true;
        }
        let r = drive(&state, &s).await;
        if let Err(e) = r {
            s.lock().await.driving = false;
            tracing::error!(game = %id, "computer player stopped: {}", e.1);
        }
    });
}

async fn drive(state: &Shared, s: &Slot) -> Result<(), ApiError> {
    loop {
        // Stop (clearing the flag under the same lock) when no computer is to move,
        // so that a later kick always finds the flag clear.
        let delay = {
            let mut e = s.lock().await;
            if e.deleted || !matches!(e.core.seat_to_move(), Some((_, Seat::Computer { .. }))) {
                e.driving = false;
                return Ok(());
            }
            e.core.delay_ms
        };
        if delay > 0 {
            tokio::time::sleep(Duration::from_millis(delay)).await;
        }
        let mut e = s.lock().await;
        let Some((colour, Seat::Computer { level })) = e.core.seat_to_move() else {
            continue;
        };
        if e.deleted {
            continue;
        }
        if e.core.turn.is_none() {
            let mut next = e.core.clone();
            next.throw().map_err(ApiError::conflict)?;
            commit(state, &mut e, next).await?;
            continue;
        }
        let t = e.core.turn.clone().expect("thrown");
        let version = e.core.version;
        let seed = e.core.game.seed().unwrap_or(0) ^ (colour.index() as u64 + 1);
        let mut bot = e
            .bots
            .remove(&colour)
            .unwrap_or_else(|| bots::level(level, seed));
        drop(e);
        let pos = *t.start();
        let throw = t.throw();
        let (bot, steps) = tokio::task::spawn_blocking(move || {
            let plays = chaupar_core::legal_plays(&pos, throw).unwrap_or_default();
            if plays.is_empty() {
                return (bot, Vec::new());
            }
            let i = bot.choose(&pos, throw, &plays).min(plays.len() - 1);
            (bot, plays[i].steps.clone())
        })
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string(), None))?;
        let mut e = s.lock().await;
        e.bots.insert(colour, bot);
        if e.core.version != version || e.deleted {
            continue;
        }
        let mut next = e.core.clone();
        next.play_whole(&steps).map_err(ApiError::conflict)?;
        commit(state, &mut e, next).await?;
    }
}

/// The seats of a new game from a simple list: `person` or `1`..`5` per colour.
pub fn seats_from_list(colours: &[Colour], list: &[&str]) -> BTreeMap<Colour, Seat> {
    colours
        .iter()
        .zip(list)
        .map(|(c, s)| {
            let seat = match s.parse::<u8>() {
                Ok(level) => Seat::Computer { level },
                Err(_) => Seat::Person,
            };
            (*c, seat)
        })
        .collect()
}
