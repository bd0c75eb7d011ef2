//! Puzzles (`docs/api.md`, "Puzzles"): the sets shipped in `data/puzzles/`
//! (found by `chaupar puzzles`), posed without their answers; the steps a
//! person tries, checked by the engine; and the answer, judged against the
//! expert's ranking.

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::Json;
use chaupar_ai::puzzles::{Puzzle, RankedText};
use chaupar_core::json::position_value;
use chaupar_core::notation::{parse_play, parse_position, play_text};
use chaupar_core::{Play, Position, Step, Throw, Turn};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::api::parse_json;
use crate::error::ApiError;
use crate::limits::engine;
use crate::state::Shared;
use crate::view::TurnView;

/// The shipped sets: a preset's name and its puzzles' JSON (`{"puzzles": [...]}`).
const SETS: [(&str, &str); 3] = [
    ("chaupar", include_str!("../../data/puzzles/chaupar.json")),
    ("chausar", include_str!("../../data/puzzles/chausar.json")),
    ("classic", include_str!("../../data/puzzles/classic.json")),
];

/// A shipped puzzle, read once: the puzzle, its position and its throw.
pub(crate) struct Shipped {
    /// The puzzle as shipped.
    pub puzzle: Puzzle,
    /// Its position.
    pub position: Position,
    /// Its throw.
    pub throw: Throw,
}

#[derive(Deserialize)]
struct SetFile {
    puzzles: Vec<Puzzle>,
}

/// Reads one shipped set.
pub(crate) fn read_set(text: &str) -> Result<Vec<Shipped>, String> {
    let file: SetFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
    file.puzzles
        .into_iter()
        .enumerate()
        .map(|(i, puzzle)| {
            let position = parse_position(&puzzle.position)
                .map_err(|e| format!("puzzle {i}: position: {e}"))?;
            let throw = Throw::new(puzzle.throw, position.rules().faces)
                .map_err(|e| format!("puzzle {i}: throw: {e}"))?;
            Ok(Shipped {
                puzzle,
                position,
                throw,
            })
        })
        .collect()
}

/// Every shipped set by preset name (read at the first request).
pub(crate) fn sets() -> &'static [(&'static str, Vec<Shipped>)] {
    static SETS_READ: OnceLock<Vec<(&'static str, Vec<Shipped>)>> = OnceLock::new();
    SETS_READ.get_or_init(|| {
        SETS.iter()
            .map(|(name, text)| (*name, read_set(text).unwrap_or_default()))
            .collect()
    })
}

/// The set of a preset: `404` when there is none.
fn set(rules: &str) -> Result<&'static [Shipped], ApiError> {
    sets()
        .iter()
        .find(|(name, _)| *name == rules)
        .map(|(_, set)| set.as_slice())
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no puzzles for {rules:?}: there are sets for chaupar, chausar and classic"
            ))
        })
}

/// Puzzle `n` of a set: `400` when `n` is not a number, `404` when there is no such puzzle.
fn puzzle(rules: &str, n: &str) -> Result<(usize, &'static Shipped), ApiError> {
    let set = set(rules)?;
    let i: usize = n.parse().map_err(|_| {
        ApiError::bad(format!(
            "a puzzle's number is a whole number from 0, not {n:?}"
        ))
    })?;
    let p = set.get(i).ok_or_else(|| {
        ApiError::not_found(format!(
            "no puzzle {i} for {rules}: there are {} (0 to {})",
            set.len(),
            set.len().saturating_sub(1)
        ))
    })?;
    Ok((i, p))
}

/// A puzzle as posed: without its answer.
#[derive(Serialize)]
pub(crate) struct Posed {
    n: usize,
    rules: String,
    colour: String,
    throw: [u8; 3],
    /// The position in text (docs/notation.md).
    position_text: String,
    /// The position as JSON (docs/notation.md).
    position: Value,
    /// Whether castles are safe squares (for the board).
    safe_castles: bool,
    /// How many of its owner's turns a block may stand through (for the board).
    block_turns: u8,
}

fn posed(n: usize, s: &Shipped) -> Posed {
    let rules = s.position.rules();
    Posed {
        n,
        rules: s.puzzle.rules.clone(),
        colour: s.puzzle.colour.clone(),
        throw: s.puzzle.throw,
        position_text: s.puzzle.position.clone(),
        position: position_value(&s.position),
        safe_castles: rules.get("safe").is_ok_and(|v| v == "castles"),
        block_turns: rules.block_turns,
    }
}

/// The query of the list: `?rules=PRESET`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    rules: Option<String>,
}

/// `{"rules", "puzzles": [...]}`.
#[derive(Serialize)]
pub(crate) struct List {
    rules: String,
    puzzles: Vec<Posed>,
}

/// `GET /api/puzzles[?rules=PRESET]`: a preset's puzzles (chaupar's by default), without answers.
pub(crate) async fn list(
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<List>, ApiError> {
    let Query(q) = query.map_err(|e| {
        ApiError::bad(format!(
            "{} (expected rules=PRESET: chaupar, chausar or classic)",
            e.body_text()
        ))
    })?;
    let rules = q.rules.unwrap_or_else(|| "chaupar".into());
    let puzzles = set(&rules)?
        .iter()
        .enumerate()
        .map(|(i, s)| posed(i, s))
        .collect();
    Ok(Json(List { rules, puzzles }))
}

/// `{"puzzle", "turn"}`: a puzzle posed, and the turn with its legal steps.
#[derive(Serialize)]
pub(crate) struct Tried {
    puzzle: Posed,
    /// The position after the steps taken (JSON).
    position: Value,
    turn: TurnView,
}

/// The body of a try: the steps taken so far.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TryBody {
    #[serde(default)]
    steps: Vec<Step>,
}

/// The turn after `steps` from the puzzle's position: `422` with the reason
/// for the first step the rules refuse.
fn turn_after(s: &Shipped, steps: &[Step]) -> Result<Turn, ApiError> {
    let mut turn =
        Turn::new(&s.position, s.throw).map_err(|e| ApiError::internal(e.to_string()))?;
    for (i, st) in steps.iter().enumerate() {
        turn.step(*st).map_err(|why| {
            let e = ApiError::illegal(&why);
            ApiError {
                message: format!("step {}: {}", i + 1, e.message),
                ..e
            }
        })?;
    }
    Ok(turn)
}

/// `GET /api/puzzles/{rules}/{n}`: one puzzle posed, with its legal steps.
pub(crate) async fn one(
    State(state): State<Shared>,
    Path((rules, n)): Path<(String, String)>,
) -> Result<Json<Tried>, ApiError> {
    let (i, s) = puzzle(&rules, &n)?;
    tried(&state, i, s, Vec::new()).await
}

/// `POST /api/puzzles/{rules}/{n}/try` with `{"steps": [...]}`: the turn after
/// those steps (like a game's turn view), for the board.
pub(crate) async fn try_steps(
    State(state): State<Shared>,
    Path((rules, n)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Tried>, ApiError> {
    let (i, s) = puzzle(&rules, &n)?;
    let body: TryBody = parse_json(&body)?;
    tried(&state, i, s, body.steps).await
}

async fn tried(
    state: &Shared,
    i: usize,
    s: &'static Shipped,
    steps: Vec<Step>,
) -> Result<Json<Tried>, ApiError> {
    let (position, turn) = engine(&state.guards, move |_: &AtomicBool| {
        let turn = turn_after(s, &steps)?;
        Ok::<_, ApiError>((position_value(&turn.current()), TurnView::of(&turn)))
    })
    .await??;
    Ok(Json(Tried {
        puzzle: posed(i, s),
        position,
        turn,
    }))
}

/// The body of an answer: the play's steps, or its notation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnswerBody {
    steps: Option<Vec<Step>>,
    play: Option<String>,
}

/// The play answered and its win chance if the ranking shows it.
#[derive(Serialize)]
struct Yours {
    play: String,
    win: Option<f64>,
}

/// `{"correct", "best", "margin", "ranking", "yours"}`.
#[derive(Serialize)]
pub(crate) struct Answer {
    correct: bool,
    best: String,
    /// The best play's steps (for showing it on the board).
    best_steps: Vec<Step>,
    margin: f64,
    ranking: Vec<RankedText>,
    yours: Yours,
}

/// `POST /api/puzzles/{rules}/{n}/answer` with `{"steps": [...]}` or
/// `{"play": "<notation>"}`: whether it is the best play, and the expert's
/// ranking. `422` with the reason when the rules refuse the play.
pub(crate) async fn answer(
    State(state): State<Shared>,
    Path((rules, n)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Answer>, ApiError> {
    let (_, s) = puzzle(&rules, &n)?;
    let body: AnswerBody = parse_json(&body)?;
    let answer = engine(&state.guards, move |_: &AtomicBool| judge(s, body)).await??;
    Ok(Json(answer))
}

/// The play answered, checked by the engine.
fn answered(s: &Shipped, body: AnswerBody) -> Result<Play, ApiError> {
    match (body.steps, body.play) {
        (Some(steps), None) => turn_after(s, &steps)?.finish().map_err(|why| {
            let e = ApiError::illegal(&why);
            ApiError {
                message: format!("the play is not finished: {}", e.message),
                ..e
            }
        }),
        (None, Some(text)) => parse_play(&s.position, s.throw, &text)
            .map_err(|e| ApiError::unprocessable(format!("{text:?}: {e}"))),
        _ => Err(ApiError::bad(
            "give either {\"steps\": [...]} or {\"play\": \"<notation>\"}",
        )),
    }
}

fn judge(s: &Shipped, body: AnswerBody) -> Result<Answer, ApiError> {
    let play = answered(s, body)?;
    let p = &s.puzzle;
    let best = parse_play(&s.position, s.throw, &p.best)
        .map_err(|e| ApiError::internal(format!("shipped puzzle: {e}")))?;
    let text = play_text(&s.position, s.throw, &play.steps);
    // A play is known by where it leads (steps in another order are the same play).
    let same = |r: &RankedText| {
        parse_play(&s.position, s.throw, &r.play).is_ok_and(|q| q.position == play.position)
    };
    Ok(Answer {
        correct: play.position == best.position,
        best: p.best.clone(),
        best_steps: best.steps,
        margin: p.margin,
        ranking: p.ranking.clone(),
        yours: Yours {
            win: p.ranking.iter().find(|r| same(r)).map(|r| r.win),
            play: text,
        },
    })
}
