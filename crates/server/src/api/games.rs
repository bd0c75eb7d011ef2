//! Games: list, create, import, view, delete, and the record.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chaupar_core::fair::{ClientSeed, ClientSeeds};
use chaupar_core::{record, Colour, Game};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::parse_json;
use crate::db;
use crate::driver::kick;
use crate::error::ApiError;
use crate::event::Event;
use crate::live::{self, Core, Seat};
use crate::seats::{self, Seating, Secrets};
use crate::state::{blocking, change, Answer, Shared};
use crate::view::GameView;

/// One game in the list.
#[derive(Serialize)]
pub(crate) struct Listed {
    id: String,
    created: i64,
    updated: i64,
    status: String,
    /// The stored [`crate::view::Summary`] (null if it cannot be read).
    summary: Value,
}

/// `{"games": [...], "page", "per", "total"}`: one page of the games, most
/// recently changed first.
#[derive(Serialize)]
pub(crate) struct List {
    games: Vec<Listed>,
    page: u64,
    per: u64,
    total: i64,
}

/// Games a page of the list has unless the query says.
pub(crate) const PER_PAGE: u64 = 50;
/// Games a page of the list may have at most.
pub(crate) const MAX_PER_PAGE: u64 = 200;

/// The query of the list: `?page=N&per=M&filter=F`, each optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    page: Option<u64>,
    per: Option<u64>,
    filter: Option<String>,
}

/// The stored status of the games a filter keeps (`None`: every game).
fn filter_status(filter: Option<&str>) -> Result<Option<&'static str>, ApiError> {
    Ok(match filter {
        None | Some("") | Some("all") => None,
        Some("playing") => Some("playing"),
        Some("finished") => Some("over"),
        // Open games are playing ones; which of them are open is read from their
        // summaries (`is_open`).
        Some("open") => Some("playing"),
        Some(other) => {
            return Err(ApiError::bad(format!(
                "unknown filter {other:?}: use playing, finished or open"
            )))
        }
    })
}

/// Whether a listed game is open: playing, open, with a free seat, and not a
/// practice game.
fn is_open(status: &str, summary: &Value) -> bool {
    status == "playing"
        && summary["open"] == true
        && summary["free"].as_array().is_some_and(|f| !f.is_empty())
        && summary["practice"] != true
}

/// `GET /api/games[?page=N&per=M&filter=F]`: page N (from 1) of M games (50
/// unless asked, 200 at most), `playing`, `finished` or `open` ones only if asked.
pub(crate) async fn list(
    State(state): State<Shared>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<List>, ApiError> {
    let usage = "expected page=N (from 1), per=M (1 to 200) and filter=playing|finished|open";
    let Query(q) = query.map_err(|e| ApiError::bad(format!("{} ({usage})", e.body_text())))?;
    let page = q.page.unwrap_or(1);
    let per = q.per.unwrap_or(PER_PAGE);
    if page == 0 || page > i64::MAX as u64 / MAX_PER_PAGE {
        return Err(ApiError::bad(format!("page must be from 1, not {page}")));
    }
    if per == 0 || per > MAX_PER_PAGE {
        return Err(ApiError::bad(format!(
            "per must be from 1 to {MAX_PER_PAGE}, not {per}"
        )));
    }
    let status = filter_status(q.filter.as_deref())?;
    let offset = ((page - 1) * per) as i64;
    let (rows, total) = if q.filter.as_deref() == Some("open") {
        // Which playing games are open is in their summaries: read them all
        // (without their records) and page here.
        let (all, _) = db::games::page(&state.db, status, i64::MAX, 0).await?;
        let open: Vec<db::Brief> = all
            .into_iter()
            .filter(|g| {
                is_open(
                    &g.status,
                    &serde_json::from_str(&g.summary).unwrap_or(Value::Null),
                )
            })
            .collect();
        let total = open.len() as i64;
        let rows = open
            .into_iter()
            .skip(offset as usize)
            .take(per as usize)
            .collect();
        (rows, total)
    } else {
        db::games::page(&state.db, status, per as i64, offset).await?
    };
    let games = rows
        .into_iter()
        .map(|g| (serde_json::from_str(&g.summary).unwrap_or(Value::Null), g))
        .map(|(summary, g)| Listed {
            summary,
            id: g.id,
            created: g.created,
            updated: g.updated,
            status: g.status,
        })
        .collect();
    Ok(Json(List {
        games,
        page,
        per,
        total,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewGame {
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
    #[serde(default)]
    client_seeds: Option<Value>,
    /// Person seats left free for others to take (by invite, or from the list
    /// when `open`).
    #[serde(default)]
    free: Vec<Colour>,
    /// Whether the free seats may be taken from the list, without an invite.
    #[serde(default)]
    open: bool,
    /// Display names of the seats the maker holds.
    #[serde(default)]
    names: BTreeMap<Colour, String>,
    /// Seconds a person has for a turn, after which the computer plays it.
    #[serde(default)]
    turn_seconds: Option<u64>,
    /// The computer level that plays a turn whose time ran out (default 2).
    #[serde(default)]
    auto_level: Option<u8>,
    /// Whether spectators may read and write the chat too.
    #[serde(default)]
    spectator_chat: bool,
    /// Tutor mode: `POST .../tutor` judges a person's play before it ends.
    #[serde(default)]
    tutor: bool,
    /// The loss in win chance beyond which the tutor warns (default 0.05).
    #[serde(default)]
    tutor_threshold: Option<f64>,
}

/// The shortest and longest `turn_seconds`.
const TURN_SECONDS: std::ops::RangeInclusive<u64> = 10..=86_400;

/// A new game's answer: its state, and the secrets only its maker gets.
#[derive(Serialize)]
pub(crate) struct Created {
    #[serde(flatten)]
    game: GameView,
    #[serde(flatten)]
    secrets: Secrets,
}

/// The longest pause a game may choose before each computer action.
const MAX_DELAY_MS: u64 = 60_000;

pub(crate) async fn create(
    State(state): State<Shared>,
    body: Bytes,
) -> Result<Json<Created>, ApiError> {
    let req: NewGame = parse_json(&body)?;
    let rules = chaupar_core::json::rules_from(&req.preset, &req.options)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let players = req.players.unwrap_or(4);
    let colours = chaupar_core::Position::new(rules, players)
        .map_err(|e| ApiError::unprocessable(e.to_string()))?
        .colours();
    let seeds = client_seeds_of(req.client_seeds.as_ref(), colours)?;
    // A seed the client chose makes a practice game (dice as before); every
    // other game throws committed dice from a secret drawn from the system.
    let game = match req.seed {
        Some(seed) => {
            if !seeds.is_empty() {
                return Err(ApiError::bad(
                    "client_seeds: a game with a chosen seed is a practice game, its dice take no client seeds",
                ));
            }
            Game::new(rules, players, seed)
        }
        None => {
            let secret = live::new_secret().map_err(ApiError::internal)?;
            Game::committed(rules, players, secret, seeds)
        }
    }
    .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let seats = seats_of(req.seats, &game)?;
    check_delay(req.delay_ms)?;
    if req.turn_seconds.is_some_and(|t| !TURN_SECONDS.contains(&t)) {
        return Err(ApiError::unprocessable(format!(
            "turn_seconds must be {} to {}",
            TURN_SECONDS.start(),
            TURN_SECONDS.end()
        )));
    }
    if req.auto_level.is_some_and(|l| !(1..=5).contains(&l)) {
        return Err(ApiError::unprocessable("auto_level must be 1 to 5"));
    }
    let tutor = super::tutor::threshold_of(req.tutor, req.tutor_threshold)?;
    let seating = Seated {
        tutor,
        free: req.free,
        open: req.open,
        names: req.names,
        turn_seconds: req.turn_seconds,
        auto_level: req.auto_level.unwrap_or(2),
        spectator_chat: req.spectator_chat,
    };
    start(&state, game, seats, req.delay_ms, seating).await
}

/// Refuses a pause longer than [`MAX_DELAY_MS`].
fn check_delay(delay_ms: Option<u64>) -> Result<(), ApiError> {
    if delay_ms.is_some_and(|d| d > MAX_DELAY_MS) {
        return Err(ApiError::unprocessable(format!(
            "delay_ms must be at most {MAX_DELAY_MS}"
        )));
    }
    Ok(())
}

/// The client seeds given at creation (`{"yellow": "..."}`), each counting from
/// the throw-off on: 400 for a colour not in the game or a bad seed.
fn client_seeds_of(
    v: Option<&Value>,
    colours: chaupar_core::Colours,
) -> Result<ClientSeeds, ApiError> {
    let mut seeds = ClientSeeds::default();
    let Some(v) = v else { return Ok(seeds) };
    let obj = v
        .as_object()
        .ok_or_else(|| ApiError::bad("client_seeds must be an object: {\"yellow\": \"...\"}"))?;
    for (k, s) in obj {
        let c: Colour = k
            .parse()
            .map_err(|e| ApiError::bad(format!("client_seeds: {e}")))?;
        if !colours.has(c) {
            return Err(ApiError::bad(format!(
                "client_seeds: {} does not play in this game",
                c.title()
            )));
        }
        let seed: ClientSeed = s
            .as_str()
            .ok_or_else(|| ApiError::bad(format!("client_seeds.{k} must be a string")))?
            .parse()
            .map_err(|e: chaupar_core::fair::FairError| {
                ApiError::bad(format!("client_seeds.{k}: {e}"))
            })?;
        seeds.set(c, seed, 0);
    }
    Ok(seeds)
}

/// Who takes the seats of a new game.
#[derive(Default)]
struct Seated {
    free: Vec<Colour>,
    open: bool,
    names: BTreeMap<Colour, String>,
    turn_seconds: Option<u64>,
    auto_level: u8,
    spectator_chat: bool,
    tutor: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Import {
    record: String,
    #[serde(default)]
    seats: Option<Value>,
    #[serde(default)]
    delay_ms: Option<u64>,
    /// Go on with fresh committed dice where the record has no seed or secret
    /// (otherwise such a record becomes an archive).
    #[serde(default, rename = "continue")]
    go_on: bool,
}

pub(crate) async fn import(
    State(state): State<Shared>,
    body: Bytes,
) -> Result<Json<Created>, ApiError> {
    let req: Import = parse_json(&body)?;
    check_delay(req.delay_ms)?;
    let text = req.record;
    let mut game = blocking(move || {
        let game = record::replay(&text)?;
        // A revealed secret of a game still under way is known to whoever has the
        // record: those dice are not used again (the game goes on as one without).
        if game.commitment().is_some() && game.throws_itself() && !over(&game) {
            let kept: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("[DiceSecret "))
                .map(|l| format!("{l}\n"))
                .collect();
            return record::replay(&kept);
        }
        Ok(game)
    })
    .await?
    .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let seats = seats_of(req.seats, &game)?;
    if req.go_on && !game.throws_itself() && !over(&game) {
        let secret = live::new_secret().map_err(ApiError::internal)?;
        game.recommit(secret)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    }
    start(&state, game, seats, req.delay_ms, Seated::default()).await
}

/// Whether a game is over.
fn over(game: &Game) -> bool {
    game.position().to_move().is_none()
}

/// The seats of a new game as asked (persons where none is given).
fn seats_of(seats: Option<Value>, game: &Game) -> Result<BTreeMap<Colour, Seat>, ApiError> {
    let seats = seats.unwrap_or_else(|| Value::Object(Default::default()));
    live::parse_seats(&seats, game.position()).map_err(ApiError::unprocessable)
}

/// Stores a new game, puts it in play and starts its computer players.
async fn start(
    state: &Shared,
    game: Game,
    seats: BTreeMap<Colour, Seat>,
    delay_ms: Option<u64>,
    seated: Seated,
) -> Result<Json<Created>, ApiError> {
    for c in seated.free.iter().chain(seated.names.keys()) {
        if seats.get(c) != Some(&Seat::Person) {
            return Err(ApiError::unprocessable(format!(
                "{} is not a person seat of this game",
                c.title()
            )));
        }
    }
    let mut names = BTreeMap::new();
    for (c, name) in &seated.names {
        if seated.free.contains(c) {
            return Err(ApiError::unprocessable(format!(
                "{} is left free: its name is given by whoever takes it",
                c.title()
            )));
        }
        names.insert(*c, seats::check_name(name)?);
    }
    let (mut seating, secrets) = Seating::new(&seats, &seated.free, seated.open);
    seating.names = names;
    seating.turn_seconds = seated.turn_seconds;
    seating.auto_level = seated.auto_level;
    seating.spectator_chat = seated.spectator_chat;
    seating.tutor = seated.tutor;
    seating.turn_since = live::now();
    let mut core = Core::new(game, seats, delay_ms.unwrap_or(state.opts.delay_ms));
    core.seating = seating;
    let id = core.id.clone();
    let game = state.insert(core).await?;
    tracing::info!(game = %id, "new game");
    kick(state.clone(), id);
    Ok(Json(Created { game, secrets }))
}

pub(crate) async fn game(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    let core = state.read(&id, Core::clone).await?;
    Ok(Json(blocking(move || GameView::of(&core)).await?))
}

/// `{"deleted": id}`.
#[derive(Serialize)]
pub(crate) struct Deleted {
    deleted: String,
}

pub(crate) async fn delete(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Deleted>, ApiError> {
    let token = seats::bearer(&headers)?;
    state
        .delete(&id, |core| seats::authorize_owner(core, token.as_deref()))
        .await?;
    Ok(Json(Deleted { deleted: id }))
}

/// The game's record as a text file, with who played each colour.
pub(crate) async fn record(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let text = state
        .read(&id, |core| {
            let tags: Vec<(&str, String)> = (core.seats.iter())
                .map(|(c, seat)| {
                    let who = match seat {
                        Seat::Person => "person".to_string(),
                        Seat::Computer { level } => format!("computer level {level}"),
                    };
                    (c.title(), who)
                })
                .collect();
            let tags: Vec<(&str, &str)> = tags.iter().map(|(c, who)| (*c, who.as_str())).collect();
            record::write(&core.game, &tags)
        })
        .await?;
    let headers = [
        (
            header::CONTENT_TYPE,
            "text/plain; charset=utf-8".to_string(),
        ),
        (
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"chaupar-{id}.txt\""),
        ),
    ];
    Ok((headers, text).into_response())
}

/// `POST /api/games/{id}/seats`: the owner changes who plays a seat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SeatChange {
    seat: Colour,
    to: Value,
}

/// The owner gives a seat to the computer (its token stops working) or frees it
/// for a person (a new invite code, answered in `invites`).
pub(crate) async fn change_seat(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Created>, ApiError> {
    let token = seats::bearer(&headers)?;
    let req: SeatChange = parse_json(&body)?;
    let s = state.slot(&id).await?;
    let mut e = s.lock().await;
    e.live()?;
    // A new invite code, kept only if the seat goes to a person.
    let mut secrets = Secrets::default();
    secrets.invites.insert(req.seat, seats::secret());
    let invite = secrets.invites.get(&req.seat).map(|c| seats::digest(c));
    let colour = req.seat;
    let decide = |core: &Core| {
        seats::authorize_owner(core, token.as_deref())?;
        let mut all =
            serde_json::to_value(&core.seats).map_err(|e| ApiError::internal(e.to_string()))?;
        all[colour.title().to_ascii_lowercase()] = req.to.clone();
        let new_seats =
            live::parse_seats(&all, core.game.position()).map_err(ApiError::unprocessable)?;
        if core.over() {
            return Err(ApiError::conflict("the game is over"));
        }
        let to = new_seats[&colour];
        Ok(Event::Seat {
            seat: colour,
            to,
            invite: (to == Seat::Person).then(|| invite.clone()).flatten(),
        })
    };
    let game = change(&state, &mut e, Answer::View, None, decide)
        .await?
        .view
        .ok_or_else(|| ApiError::internal("no view"))?;
    if !matches!(game.seats.get(&colour), Some(Seat::Person)) {
        secrets.invites.clear();
    }
    drop(e);
    kick(state.clone(), id);
    Ok(Json(Created { game, secrets }))
}

/// `POST /api/games/{id}/join`: takes a free seat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Join {
    seat: Colour,
    name: String,
    #[serde(default)]
    invite: Option<String>,
    #[serde(default)]
    client_seed: Option<String>,
}

/// Gives a free seat's token to whoever takes it first: with its invite code,
/// or without one in an open game.
pub(crate) async fn join(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Created>, ApiError> {
    let req: Join = parse_json(&body)?;
    let name = seats::check_name(&req.name)?;
    let seed = match &req.client_seed {
        Some(text) => Some(
            text.parse::<chaupar_core::fair::ClientSeed>()
                .map_err(|e| ApiError::bad(format!("client_seed: {e}")))?,
        ),
        None => None,
    };
    let s = state.slot(&id).await?;
    let mut e = s.lock().await;
    e.live()?;
    let colour = req.seat;
    let token = seats::secret();
    let hash = seats::digest(&token);
    let decide = |core: &Core| {
        if core.over() {
            return Err(ApiError::conflict("the game is over"));
        }
        if !core.seating.free(&core.seats).contains(&colour) {
            return Err(ApiError::conflict(format!(
                "{}'s seat is not free",
                colour.title()
            )));
        }
        let invited = match (&req.invite, core.seating.invites.get(&colour)) {
            (Some(code), Some(h)) => {
                subtle::ConstantTimeEq::ct_eq(seats::digest(code).as_bytes(), h.as_bytes()).into()
            }
            _ => false,
        };
        if !invited && !core.seating.open {
            return Err(ApiError::new(
                axum::http::StatusCode::FORBIDDEN,
                format!(
                    "{}'s seat is taken by invite only: open the invite link",
                    colour.title()
                ),
            ));
        }
        Ok(Event::Join {
            seat: colour,
            token: hash.clone(),
            name: name.clone(),
            client_seed: seed.as_ref().map(|s| s.to_string()),
        })
    };
    let game = change(&state, &mut e, Answer::View, None, decide)
        .await?
        .view
        .ok_or_else(|| ApiError::internal("no view"))?;
    drop(e);
    tracing::info!(game = %id, seat = colour.title(), "seat taken");
    let mut secrets = Secrets::default();
    secrets.seat_tokens.insert(colour, token);
    Ok(Json(Created { game, secrets }))
}

/// The longest chat message, in characters.
const MAX_CHAT: usize = 280;

/// How many messages a speaker (a seat, or all spectators together) may send in
/// [`CHAT_WINDOW`], and at least how far apart.
const CHAT_PER_WINDOW: usize = 10;
const CHAT_WINDOW: std::time::Duration = std::time::Duration::from_secs(60);
const CHAT_GAP: std::time::Duration = std::time::Duration::from_millis(500);

/// `POST /api/games/{id}/chat`: `{"seat", "text"}` with the seat's token, or
/// `{"name", "text"}` from a spectator when the owner allowed it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Say {
    #[serde(default)]
    seat: Option<Colour>,
    #[serde(default)]
    name: Option<String>,
    text: String,
}

/// `{"lines": [...]}`: the chat, oldest first.
#[derive(Serialize)]
pub(crate) struct Chat {
    lines: Vec<live::ChatLine>,
}

/// Who may read the chat: a seat's token, the owner's, or anyone when the
/// owner let spectators in.
fn may_read(core: &Core, token: Option<&str>) -> Result<(), ApiError> {
    if core.seating.spectator_chat {
        return Ok(());
    }
    let token = token.ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::UNAUTHORIZED,
            "the chat is the players': give a seat's token",
        )
    })?;
    match core.seating.seat_of(token).is_some() || core.seating.is_owner(token) {
        true => Ok(()),
        false => Err(ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "the chat is the players'",
        )),
    }
}

pub(crate) async fn chat(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Chat>, ApiError> {
    let token = seats::bearer(&headers)?;
    let lines = state
        .read(&id, |core| {
            may_read(core, token.as_deref())?;
            Ok::<_, ApiError>(core.chat.clone())
        })
        .await??;
    Ok(Json(Chat { lines }))
}

pub(crate) async fn say(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let token = seats::bearer(&headers)?;
    let req: Say = parse_json(&body)?;
    let text = req.text.trim().to_string();
    let n = text.chars().count();
    if n == 0 || n > MAX_CHAT {
        return Err(ApiError::bad(format!(
            "a message has 1 to {MAX_CHAT} characters, not {n}"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(ApiError::bad("a message may not have control characters"));
    }
    let s = state.slot(&id).await?;
    let mut e = s.lock().await;
    e.live()?;
    let (seat, name, key) = match req.seat {
        Some(c) => {
            if req.name.is_some() {
                return Err(ApiError::bad(
                    "a player's name is the seat's: give seat or name",
                ));
            }
            seats::authorize(&e.core, token.as_deref(), c)?;
            let name = (e.core.seating.names.get(&c).cloned()).unwrap_or_else(|| c.title().into());
            (Some(c), name, c.title().to_string())
        }
        None => {
            if !e.core.seating.spectator_chat {
                return Err(ApiError::new(
                    axum::http::StatusCode::FORBIDDEN,
                    "spectators may not chat in this game",
                ));
            }
            let name = req
                .name
                .as_deref()
                .ok_or_else(|| ApiError::bad("a spectator gives a name: {\"name\", \"text\"}"))?;
            (None, seats::check_name(name)?, "-".to_string())
        }
    };
    // The rate limit: at most CHAT_PER_WINDOW a minute, CHAT_GAP apart.
    let now = std::time::Instant::now();
    let times = e.chatted.entry(key).or_default();
    while times
        .front()
        .is_some_and(|t| now.duration_since(*t) >= CHAT_WINDOW)
    {
        times.pop_front();
    }
    let wait = match (times.back(), times.front()) {
        (Some(last), _) if now.duration_since(*last) < CHAT_GAP => {
            Some(CHAT_GAP - now.duration_since(*last))
        }
        (_, Some(first)) if times.len() >= CHAT_PER_WINDOW => {
            Some(CHAT_WINDOW - now.duration_since(*first))
        }
        _ => None,
    };
    if let Some(wait) = wait {
        let secs = wait.as_secs() + 1;
        let body = serde_json::json!({"error": format!("too many messages: wait {secs} s")});
        return Ok((
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, secs.to_string())],
            Json(body),
        )
            .into_response());
    }
    times.push_back(now);
    let line = live::ChatLine {
        at: live::now(),
        seat,
        name,
        text,
    };
    let event = Event::Chat { line: line.clone() };
    change(&state, &mut e, Answer::Nothing, None, |_| Ok(event.clone())).await?;
    Ok(Json(line).into_response())
}
