//! The HTTP API (`docs/api.md`), by topic: static facts ([`meta`]), games
//! ([`games`]), a person's actions, shared with the WebSocket ([`actions`]), and
//! the engine's work on a game: hint, replay, review ([`analysis`]); lessons
//! ([`lessons`]); puzzles ([`puzzles`]); and for
//! whoever runs the server, `/healthz` and `/metrics` ([`health`]).

use axum::handler::Handler;
use axum::routing::{get, post};
use axum::Router;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::limits::Guards;
use crate::state::Shared;
use crate::ws;

pub(crate) mod actions;
pub(crate) mod analysis;
pub(crate) mod games;
pub(crate) mod health;
pub(crate) mod lessons;
pub(crate) mod meta;
pub(crate) mod puzzles;
pub(crate) mod review_svg;
pub(crate) mod tutor;

use actions::Action;

/// Every route of the API (the page's files are the router's fallback).
/// New games and actions are rate-limited per client address (`limits`);
/// `/healthz` and `/metrics` are not.
pub(crate) fn routes(limits: &Guards) -> Router<Shared> {
    let by_action = Action::ALL
        .into_iter()
        .fold(Router::new(), |r, (name, action)| {
            let route = actions::route(action).layer(limits.actions());
            r.route(&format!("/api/games/:id/{name}"), route)
        });
    by_action
        .route("/healthz", get(health::healthz))
        .route("/metrics", get(health::metrics))
        .route("/api/meta", get(meta::meta))
        .route("/api/board", get(meta::board))
        .route("/api/rules", get(meta::rules))
        .route(
            "/api/games",
            get(games::list).post(games::create.layer(limits.new_games())),
        )
        .route("/api/import", post(games::import.layer(limits.new_games())))
        .route("/api/games/:id", get(games::game).delete(games::delete))
        .route("/api/games/:id/join", post(games::join))
        .route("/api/games/:id/seats", post(games::change_seat))
        .route("/api/games/:id/chat", get(games::chat).post(games::say))
        .route("/api/games/:id/hint", get(analysis::hint))
        .route("/api/games/:id/record", get(games::record))
        .route("/api/games/:id/replay", get(analysis::replay))
        .route("/api/games/:id/review", get(analysis::review))
        .route("/api/games/:id/ws", get(ws::api_ws))
        .route(
            "/api/games/:id/tutor",
            post(tutor::tutor.layer(limits.actions())),
        )
        .route("/api/games/:id/review.svg", get(review_svg::review_svg))
        .route("/api/lessons", get(lessons::list))
        .route("/api/lessons/:id/try", post(lessons::try_steps))
        .route("/api/lessons/:id/answer", get(lessons::answer))
        .route("/api/lessons/:id/check", post(lessons::check))
        .route("/api/puzzles", get(puzzles::list))
        .route("/api/puzzles/:rules/:n", get(puzzles::one))
        .route("/api/puzzles/:rules/:n/try", post(puzzles::try_steps))
        .route("/api/puzzles/:rules/:n/answer", post(puzzles::answer))
}

/// Reads a request's JSON: `400` with serde's words if it is not what is expected.
pub(crate) fn parse_json<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(bad_json)
}

/// `400`: the request's JSON is not what is expected.
pub(crate) fn bad_json(e: serde_json::Error) -> ApiError {
    ApiError::bad(format!("bad request JSON: {e}"))
}
