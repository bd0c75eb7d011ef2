//! Tutor mode: `POST /api/games/{id}/tutor` judges the steps a person has taken
//! in the turn, as one whole play, against the best play of the throw, before
//! the turn is ended. Read-only: it changes nothing in the game.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use chaupar_core::notation::play_text;
use chaupar_core::{Colour, Step};
use serde::{Deserialize, Serialize};

use super::{actions, parse_json};
use crate::bots;
use crate::error::ApiError;
use crate::limits::engine;
use crate::seats;
use crate::state::Shared;

/// The tutor's threshold unless the game's maker chooses one: a play that
/// loses more than 5% win chance against the best is warned of.
pub(crate) const THRESHOLD: f64 = 0.05;

/// The tutor setting of a new game from `"tutor"` and `"tutor_threshold"`:
/// `422` for a threshold outside (0, 1] or one given without the tutor.
pub(crate) fn threshold_of(tutor: bool, threshold: Option<f64>) -> Result<Option<f64>, ApiError> {
    match (tutor, threshold) {
        (false, None) => Ok(None),
        (false, Some(_)) => Err(ApiError::unprocessable(
            "tutor_threshold goes with \"tutor\": true",
        )),
        (true, None) => Ok(Some(THRESHOLD)),
        (true, Some(t)) if t.is_finite() && t > 0.0 && t <= 1.0 => Ok(Some(t)),
        (true, Some(t)) => Err(ApiError::unprocessable(format!(
            "tutor_threshold is a loss in win chance above 0 and at most 1, not {t}"
        ))),
    }
}

/// The request: `{"seat": "yellow"}`, with the seat's token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ask {
    seat: String,
}

/// One play as the tutor names it.
#[derive(Serialize)]
pub(crate) struct Judged {
    /// The play in notation.
    play: String,
    /// Its steps, in order.
    steps: Vec<Step>,
    /// The mover's chance of winning (0–1) after it.
    win: f64,
    /// Whether `win` is exact (the play leads to a column race).
    exact: bool,
}

/// `{"loss", "warn", "threshold", "plays", "best", "yours"}`, each play
/// `{"play", "steps", "win", "exact"}`.
#[derive(Serialize)]
pub(crate) struct Judgement {
    /// The best play's win chance minus the person's.
    loss: f64,
    /// Whether the loss is more than the game's threshold.
    warn: bool,
    /// The game's threshold.
    threshold: f64,
    /// How many distinct plays the throw allows.
    plays: usize,
    /// The best play.
    best: Judged,
    /// The person's play: the turn's steps so far.
    yours: Judged,
}

/// `POST /api/games/{id}/tutor`: authorized as the actions are (`401`, `403`),
/// `409` in a game without the tutor, before the throw, when it is not the
/// seat's turn, or when the turn may not end yet; engine work behind the
/// semaphore (`503` when busy). Changes nothing.
pub(crate) async fn tutor(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Judgement>, ApiError> {
    let token = seats::bearer(&headers)?;
    let ask: Ask = parse_json(&body)?;
    let c: Colour = (ask.seat.parse()).map_err(|e| ApiError::bad(format!("seat: {e}")))?;
    let (turn, threshold) = state
        .read(&id, |core| {
            actions::may_act(core, token.as_deref(), c)?;
            actions::check_seat(core, c)?;
            let threshold = core.seating.tutor.ok_or_else(|| {
                ApiError::conflict("this game has no tutor: create it with \"tutor\": true")
            })?;
            Ok::<_, ApiError>((actions::turn(core)?.clone(), threshold))
        })
        .await??;
    let mine = turn.finish().map_err(|e| {
        ApiError::conflict(format!(
            "the turn may not end yet ({e}): the tutor judges whole plays"
        ))
    })?;
    let (start, throw) = (*turn.start(), turn.throw());
    let ranked = engine(&state.guards, move |stop: &AtomicBool| {
        if stop.load(Ordering::Relaxed) {
            return Vec::new();
        }
        bots::tutor(&turn)
            .into_iter()
            .map(|r| {
                let text = play_text(&start, throw, &r.play.steps);
                (r, text)
            })
            .collect::<Vec<_>>()
    })
    .await?;
    let (best, best_text) = ranked
        .first()
        .ok_or_else(|| ApiError::internal("the tutor found no play"))?;
    let (yours_win, yours_exact) = ranked
        .iter()
        .find(|(r, _)| r.play.position == mine.position)
        .map(|(r, _)| (r.win, r.exact))
        .ok_or_else(|| {
            ApiError::internal("the tutor did not find the play among the legal ones")
        })?;
    let loss = (best.win - yours_win).max(0.0);
    let yours_text = play_text(&start, throw, &mine.steps);
    Ok(Json(Judgement {
        loss,
        warn: loss > threshold,
        threshold,
        plays: ranked.len(),
        best: Judged {
            play: best_text.clone(),
            steps: best.play.steps.clone(),
            win: best.win,
            exact: best.exact,
        },
        yours: Judged {
            play: yours_text,
            steps: mine.steps,
            win: yours_win,
            exact: yours_exact,
        },
    }))
}
