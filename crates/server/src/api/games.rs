//! Games: list, create, import, view, delete, and the record.

use std::collections::BTreeMap;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
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
use crate::live::{self, Core, Seat};
use crate::state::{blocking, Shared};
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
        // More filters (e.g. "open", seats anyone may take) go here.
        Some(other) => {
            return Err(ApiError::bad(format!(
                "unknown filter {other:?}: use playing or finished"
            )))
        }
    })
}

/// `GET /api/games[?page=N&per=M&filter=F]`: page N (from 1) of M games (50
/// unless asked, 200 at most), `playing` or `finished` ones only if asked.
pub(crate) async fn list(
    State(state): State<Shared>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<List>, ApiError> {
    let usage = "expected page=N (from 1), per=M (1 to 200) and filter=playing|finished";
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
    let (rows, total) = db::page(&state.db, status, per as i64, offset).await?;
    let games = rows
        .into_iter()
        .map(|g| Listed {
            summary: serde_json::from_str(&g.summary).unwrap_or(Value::Null),
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
}

/// The longest pause a game may choose before each computer action.
const MAX_DELAY_MS: u64 = 60_000;

pub(crate) async fn create(
    State(state): State<Shared>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
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
    start(&state, game, seats, req.delay_ms).await
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
) -> Result<Json<GameView>, ApiError> {
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
    start(&state, game, seats, req.delay_ms).await
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
) -> Result<Json<GameView>, ApiError> {
    let core = Core::new(game, seats, delay_ms.unwrap_or(state.opts.delay_ms));
    let id = core.id.clone();
    let view = state.insert(core).await?;
    tracing::info!(game = %id, "new game");
    kick(state.clone(), id);
    Ok(Json(view))
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
) -> Result<Json<Deleted>, ApiError> {
    state.delete(&id).await?;
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
