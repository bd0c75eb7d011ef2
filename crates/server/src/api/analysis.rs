//! The engine's work on a game, run off the async workers: a hint for the turn
//! under way, the replay frames, and the review.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::Json;
use chaupar_ai::review::{SideReview, TurnReview, BAD, DOUBTFUL, VERY_BAD};
use chaupar_core::json::position_value;
use chaupar_core::notation::play_text;
use chaupar_core::{Colour, Game, Position, Step, Turn};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bots;
use crate::error::ApiError;
use crate::limits::engine;
use crate::state::Shared;

/// How many plays a hint shows at most.
const HINT_PLAYS: usize = 10;

/// `{"plays": [...]}`: the best plays that complete the turn as begun.
#[derive(Serialize)]
pub(crate) struct Hint {
    plays: Vec<HintPlay>,
}

#[derive(Serialize)]
struct HintPlay {
    notation: String,
    steps: Vec<Step>,
    /// Chance of winning (0–1) after it.
    win: f64,
    /// Whether `win` is exact (the play leads to a column race).
    exact: bool,
}

/// The hint for the turn under way: only for the seat to move, with its token.
pub(crate) async fn hint(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Json<Hint>, ApiError> {
    let token = crate::seats::bearer(&headers)?;
    let turn = (state.read(&id, |core| {
        let colour = (core.game.position().to_move())
            .ok_or_else(|| ApiError::conflict("the game is over"))?;
        crate::seats::authorize(core, token.as_deref(), colour)?;
        Ok::<_, ApiError>(core.turn.clone())
    }))
    .await??;
    let turn = turn.ok_or_else(|| ApiError::conflict("throw the dice first"))?;
    let plays = engine(&state.guards, move |stop: &AtomicBool| {
        if stop.load(Ordering::Relaxed) {
            return Vec::new();
        }
        let (pos, throw) = (turn.start(), turn.throw());
        (bots::hint(&turn).into_iter().take(HINT_PLAYS))
            .map(|r| HintPlay {
                notation: play_text(pos, throw, &r.play.steps),
                steps: r.play.steps,
                win: r.win,
                exact: r.exact,
            })
            .collect()
    })
    .await?;
    Ok(Json(Hint { plays }))
}

/// `{"id", "rules", "frames"}`: the position at the start and after each step.
#[derive(Serialize)]
pub(crate) struct Replay {
    id: String,
    rules: String,
    frames: Vec<Frame>,
}

/// One position of a replay; all but the first name the turn and the step.
#[derive(Serialize)]
struct Frame {
    label: String,
    #[serde(flatten)]
    at: Option<FrameTurn>,
    position: Value,
}

#[derive(Serialize)]
struct FrameTurn {
    turn: usize,
    colour: Colour,
    throw: [u8; 3],
    notation: String,
    /// Steps taken in the turn (0: before its first).
    step: usize,
}

pub(crate) async fn replay(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Replay>, ApiError> {
    let game = state.read(&id, |core| core.game.clone()).await?;
    let rules = game.rules().compact();
    let frames = engine(&state.guards, move |stop: &AtomicBool| frames(&game, stop)).await??;
    Ok(Json(Replay { id, rules, frames }))
}

fn frames(game: &Game, stop: &AtomicBool) -> Result<Vec<Frame>, ApiError> {
    let mut frames = vec![Frame {
        label: "start".into(),
        at: None,
        position: position_value(game.start()),
    }];
    let mut pos = *game.start();
    for (i, t) in game.turns().iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            return Err(ApiError::internal("stopped: the client went away"));
        }
        let mut turn = Turn::new(&pos, t.throw).map_err(|e| ApiError::conflict(e.to_string()))?;
        let notation = play_text(&pos, t.throw, &t.steps);
        let frame = |step: usize, label: String, p: &Position| Frame {
            label,
            at: Some(FrameTurn {
                turn: i + 1,
                colour: t.colour,
                throw: t.throw.dice(),
                notation: notation.clone(),
                step,
            }),
            position: position_value(p),
        };
        let letter = t.colour.letter();
        frames.push(frame(0, format!("{}. {letter} {}", i + 1, t.throw), &pos));
        for (k, st) in t.steps.iter().enumerate() {
            turn.step(*st)
                .map_err(|e| ApiError::conflict(e.to_string()))?;
            let p = if k + 1 == t.steps.len() {
                t.after
            } else {
                turn.current()
            };
            frames.push(frame(k + 1, format!("{}. {letter} {notation}", i + 1), &p));
        }
        pos = t.after;
    }
    Ok(frames)
}

/// The query of a review: `?budget=MS`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewQuery {
    budget: Option<u64>,
}

/// Milliseconds of search work per turn of a review unless the query says.
pub(crate) const REVIEW_MS: u64 = 10;

/// `{"id", "budget_ms", "thresholds", "turns", "sides"}`.
#[derive(Serialize)]
pub(crate) struct Review {
    id: String,
    budget_ms: u64,
    thresholds: Thresholds,
    turns: Vec<TurnReview>,
    sides: Vec<SideReview>,
}

/// The losses from which a play is doubtful, bad, very bad.
#[derive(Serialize)]
struct Thresholds {
    doubtful: f64,
    bad: f64,
    very_bad: f64,
}

/// `GET /api/games/:id/review[?budget=MS]`: each play's loss against the best,
/// verdicts, error rates and luck (`chaupar_ai::review`), MS (0..=50, default
/// 10) milliseconds of search work per turn.
pub(crate) async fn review(
    State(state): State<Shared>,
    Path(id): Path<String>,
    query: Result<Query<ReviewQuery>, QueryRejection>,
) -> Result<Json<Review>, ApiError> {
    let max = bots::REVIEW_MAX_MS;
    let Query(query) = query.map_err(|e| {
        ApiError::bad(format!(
            "{} (expected budget=MS, MS a whole number of milliseconds from 0 to {max})",
            e.body_text()
        ))
    })?;
    let ms = query.budget.unwrap_or(REVIEW_MS);
    if ms > max {
        return Err(ApiError::bad(format!(
            "budget must be a whole number of milliseconds from 0 to {max}, not {ms}"
        )));
    }
    let game = state.read(&id, |core| core.game.clone()).await?;
    let review = engine(&state.guards, move |stop: &AtomicBool| {
        bots::review(&game, ms, &|| stop.load(Ordering::Relaxed))
    })
    .await?;
    Ok(Json(Review {
        id,
        budget_ms: ms,
        thresholds: Thresholds {
            doubtful: DOUBTFUL,
            bad: BAD,
            very_bad: VERY_BAD,
        },
        turns: review.turns,
        sides: review.sides,
    }))
}
