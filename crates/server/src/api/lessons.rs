//! The lessons (`crate::lessons`) over HTTP: the list, a try of some steps
//! (the turn after them, or the engine's refusal, and when the play is ended
//! whether it solves the task), why a clicked move is refused, and a correct
//! answer. Engine work runs behind
//! the engine's semaphore, as hints and reviews do.

use std::sync::atomic::AtomicBool;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::Json;
use chaupar_core::json::position_value;
use chaupar_core::notation::play_text;
use chaupar_core::{Colour, Step, Turn};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::parse_json;
use crate::error::ApiError;
use crate::i18n;
use crate::lessons::{self, Lesson, Words};
use crate::limits::engine;
use crate::state::Shared;
use crate::stuck::why_stuck;
use crate::view::TurnView;

/// The most steps a try may hold (no turn has more).
pub(crate) const MAX_STEPS: usize = 32;

/// `{"lessons": [...]}`.
#[derive(Serialize)]
pub(crate) struct LessonList {
    lessons: Vec<LessonView>,
}

/// One lesson as the page is sent it.
#[derive(Serialize)]
struct LessonView {
    id: &'static str,
    preset: &'static str,
    title: &'static Words,
    text: &'static Words,
    task: &'static Words,
    hint: &'static Words,
    /// The position JSON of `docs/notation.md`.
    position: Value,
    throw: [u8; 3],
}

/// The lessons' data, or `500` if it cannot be read (tests/lessons.rs checks it).
fn all() -> Result<&'static [Lesson], ApiError> {
    lessons::all().map_err(ApiError::internal)
}

/// The lesson `id`, or `404`.
fn lesson(id: &str) -> Result<&'static Lesson, ApiError> {
    all()?;
    lessons::find(id).ok_or_else(|| ApiError::not_found(format!("no lesson {id:?}")))
}

/// `GET /api/lessons`.
pub(crate) async fn list() -> Result<Json<LessonList>, ApiError> {
    let lessons = all()?
        .iter()
        .map(|l| {
            Ok(LessonView {
                id: &l.id,
                preset: &l.preset,
                title: &l.title,
                text: &l.text,
                task: &l.task,
                hint: &l.hint,
                position: position_value(&l.start().map_err(ApiError::internal)?),
                throw: l.throw,
            })
        })
        .collect::<Result<_, ApiError>>()?;
    Ok(Json(LessonList { lessons }))
}

/// The body of a try: the steps taken, and whether the person ends the turn.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Try {
    steps: Vec<Step>,
    #[serde(default)]
    end: bool,
}

/// The answer to a try: the turn after the steps and the position; once ended,
/// whether the task is done and, if not, why.
#[derive(Serialize)]
pub(crate) struct Tried {
    turn: TurnView,
    position: Value,
    done: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why_ru: Option<String>,
}

/// `POST /api/lessons/{id}/try` with `{"steps": [...], "end"?: bool}`.
pub(crate) async fn try_steps(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Tried>, ApiError> {
    let lesson = lesson(&id)?;
    let t: Try = parse_json(&body)?;
    if t.steps.len() > MAX_STEPS {
        return Err(ApiError::bad(format!(
            "a try holds at most {MAX_STEPS} steps, not {}",
            t.steps.len()
        )));
    }
    let tried = engine(&state.guards, move |_: &AtomicBool| play(lesson, &t)).await??;
    Ok(Json(tried))
}

/// Takes the steps of a try (engine work).
fn play(lesson: &Lesson, t: &Try) -> Result<Tried, ApiError> {
    let start = lesson.start().map_err(ApiError::internal)?;
    let throw = lesson.throw_of(&start).map_err(ApiError::internal)?;
    let mut turn = Turn::new(&start, throw).map_err(|e| ApiError::internal(e.to_string()))?;
    for step in &t.steps {
        turn.step(*step).map_err(|why| ApiError::illegal(&why))?;
    }
    let view = TurnView::of(&turn);
    if !t.end {
        return Ok(Tried {
            turn: view,
            position: position_value(&turn.current()),
            done: false,
            solved: None,
            why: None,
            why_ru: None,
        });
    }
    let play = turn.finish().map_err(|why| ApiError::illegal(&why))?;
    let verdict = lesson.judge(&start, &play.position);
    Ok(Tried {
        turn: view,
        position: position_value(&play.position),
        done: true,
        solved: Some(verdict.is_ok()),
        why: verdict.as_ref().err().map(|w| w.en.clone()),
        why_ru: verdict.err().map(|w| w.ru),
    })
}

/// The body of a check: the steps taken, and the move clicked (a piece of
/// `colour`, by default the one moving now, from `from` to `to`), or the piece
/// clicked (`piece`: its progress) that no step moves.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckMove {
    steps: Vec<Step>,
    #[serde(default)]
    colour: Option<Colour>,
    #[serde(default)]
    from: Option<u8>,
    #[serde(default)]
    to: Option<u8>,
    #[serde(default)]
    piece: Option<u8>,
}

/// What a check asks about: a move, or a piece.
#[derive(Clone, Copy)]
enum Clicked {
    /// From one progress to another.
    Move(u8, u8),
    /// A piece at that progress, wherever it might go.
    Piece(u8),
}

impl CheckMove {
    /// The move or the piece asked about; `400` for any other mix of fields.
    fn clicked(&self) -> Result<Clicked, ApiError> {
        match (self.from, self.to, self.piece) {
            (Some(from), Some(to), None) => Ok(Clicked::Move(from, to)),
            (None, None, Some(piece)) => Ok(Clicked::Piece(piece)),
            _ => Err(ApiError::bad(
                "a check gives \"from\" and \"to\" (a move), or \"piece\" alone",
            )),
        }
    }
}

/// `{"allowed": true}` or `{"allowed": false, "why", "why_ru", "rule"?}`, as a
/// game's check.
#[derive(Serialize)]
pub(crate) struct Checked {
    allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why_ru: Option<String>,
    /// The rule behind the refusal (`Illegal::rule`), when one explains it.
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
}

/// `POST /api/lessons/{id}/check` with `{"steps", "colour"?, "from", "to"}`: why
/// the engine refuses that move after those steps (`Turn::why_not_move`); with
/// `{"steps", "colour"?, "piece"}` instead, why no step moves that piece
/// (`stuck::why_stuck`).
pub(crate) async fn check(
    State(state): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Checked>, ApiError> {
    let lesson = lesson(&id)?;
    let c: CheckMove = parse_json(&body)?;
    let clicked = c.clicked()?;
    if c.steps.len() > MAX_STEPS {
        return Err(ApiError::bad(format!(
            "a check holds at most {MAX_STEPS} steps, not {}",
            c.steps.len()
        )));
    }
    let why = engine(&state.guards, move |_: &AtomicBool| {
        let start = lesson.start().map_err(ApiError::internal)?;
        let throw = lesson.throw_of(&start).map_err(ApiError::internal)?;
        let mut turn = Turn::new(&start, throw).map_err(|e| ApiError::internal(e.to_string()))?;
        for step in &c.steps {
            turn.step(*step).map_err(|why| ApiError::illegal(&why))?;
        }
        let colour = c.colour.unwrap_or(turn.actor());
        Ok::<_, ApiError>(match clicked {
            Clicked::Move(from, to) => turn.why_not_move(colour, from, to),
            Clicked::Piece(at) => why_stuck(&turn, colour, at),
        })
    })
    .await??;
    Ok(Json(Checked {
        allowed: why.is_none(),
        why_ru: why.as_ref().map(i18n::why_ru),
        rule: why.as_ref().and_then(|w| w.rule()),
        why: why.map(|w| w.to_string()),
    }))
}

/// `{"notation", "steps"}`: a play that solves the lesson.
#[derive(Serialize)]
pub(crate) struct Answer {
    notation: String,
    steps: Vec<Step>,
}

/// `GET /api/lessons/{id}/answer`: the first legal play, in the engine's
/// order, that meets the goal.
pub(crate) async fn answer(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Answer>, ApiError> {
    let lesson = lesson(&id)?;
    let answer = engine(&state.guards, move |_: &AtomicBool| {
        let start = lesson.start()?;
        let throw = lesson.throw_of(&start)?;
        let play = (lesson.answer()?).ok_or_else(|| format!("lesson {}: no answer", lesson.id))?;
        Ok::<_, String>(Answer {
            notation: play_text(&start, throw, &play.steps),
            steps: play.steps,
        })
    })
    .await?
    .map_err(ApiError::internal)?;
    Ok(Json(answer))
}
