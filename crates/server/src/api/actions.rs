//! A person's actions on a game, the same over HTTP (`POST
//! /api/games/{id}/{action}`) and over the game's WebSocket (`{"action": ...}`):
//! throw, step, undo and end change the game; check says whether a step would
//! be allowed.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{post, MethodRouter};
use axum::Json;
use chaupar_core::{Colour, Step, Turn};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

use super::parse_json;
use crate::driver::kick;
use crate::error::ApiError;
use crate::event::Event;
use crate::i18n;
use crate::limits::engine;
use crate::live::{Core, Seat};
use crate::metrics::timed;
use crate::seats;
use crate::state::{blocking, change, Answer, Shared};
use crate::stuck::why_stuck;
use crate::view::GameView;

/// What a person may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// Change the game.
    Change(Change),
    /// Ask whether a step would be allowed.
    Check,
}

/// A person's change of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// Throw the dice.
    Throw,
    /// Take a step.
    Step,
    /// Take back the last step.
    Undo,
    /// End the turn.
    End,
}

/// The actions' names, for messages.
pub(crate) const ACTIONS: &str = "throw, step, undo, end or check";

impl Action {
    /// Every action and its name: its path over HTTP (`/api/games/{id}/{name}`)
    /// and its `"action"` over the WebSocket.
    pub const ALL: [(&'static str, Action); 5] = [
        ("throw", Action::Change(Change::Throw)),
        ("step", Action::Change(Change::Step)),
        ("undo", Action::Change(Change::Undo)),
        ("end", Action::Change(Change::End)),
        ("check", Action::Check),
    ];

    /// The action of this name.
    pub fn named(name: &str) -> Option<Action> {
        Action::ALL
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| a)
    }
}

/// The request of an action: who acts, and the step for `step` and `check`; or,
/// for `check`, a move as the player clicked it: the piece of `colour` (by default
/// the colour moving now) at progress `from`, to progress `to`; or a piece clicked
/// that no step moves: the piece of `colour` at progress `piece`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Act {
    seat: String,
    #[serde(default)]
    step: Option<Step>,
    #[serde(default)]
    colour: Option<Colour>,
    #[serde(default)]
    from: Option<u8>,
    #[serde(default)]
    to: Option<u8>,
    #[serde(default)]
    piece: Option<u8>,
    /// The client's id for this action (1 to 64 letters, digits, `-` or `_`): a
    /// retry with the same id is answered as the first was, not applied twice.
    #[serde(default)]
    action_id: Option<String>,
}

/// What `check` asks about.
enum Question {
    /// Whether this exact step is allowed.
    Step(Step),
    /// Why the piece of a colour at `from` may not go to `to` (any unit, any use
    /// of the dice left): `Turn::why_not_move`.
    Move {
        colour: Option<Colour>,
        from: u8,
        to: u8,
    },
    /// Why no step moves the piece of a colour at progress `at`:
    /// `stuck::why_stuck`.
    Piece { colour: Option<Colour>, at: u8 },
}

impl Act {
    /// The seat acted for, as given.
    pub(crate) fn seat(&self) -> &str {
        &self.seat
    }

    /// The question of a `check`: a step, a move from one square to another, or
    /// a piece; `400` for any other mix of fields.
    fn question(&self) -> Result<Question, ApiError> {
        match (self.step, self.from, self.to, self.piece) {
            (Some(step), None, None, None) if self.colour.is_none() => Ok(Question::Step(step)),
            (None, Some(from), Some(to), None) => Ok(Question::Move {
                colour: self.colour,
                from,
                to,
            }),
            (None, None, None, Some(at)) => Ok(Question::Piece {
                colour: self.colour,
                at,
            }),
            _ => Err(ApiError::bad(
                "check takes {\"seat\", \"from\", \"to\"} or {\"seat\", \"piece\"} (each optionally with \"colour\"), or {\"seat\", \"step\": {...}}",
            )),
        }
    }

    /// The action's id, checked: 1 to 64 ASCII letters, digits, `-` or `_`.
    pub(crate) fn action_id(&self) -> Result<Option<&str>, ApiError> {
        match self.action_id.as_deref() {
            None => Ok(None),
            Some(id)
                if (1..=64).contains(&id.len())
                    && id
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
            {
                Ok(Some(id))
            }
            Some(_) => Err(ApiError::bad(
                "action_id is 1 to 64 letters, digits, - or _",
            )),
        }
    }

    /// Refuses the fields of a `check` on an action that changes the game.
    fn only_step(&self) -> Result<(), ApiError> {
        if self.colour.is_some() || self.from.is_some() || self.to.is_some() || self.piece.is_some()
        {
            return Err(ApiError::bad(
                "colour, from, to and piece go only with check; a step is {\"seat\", \"step\": {...}}",
            ));
        }
        Ok(())
    }
}

/// The answer to `check`: `{"allowed": true}` or `{"allowed": false, "why",
/// "why_ru", "rule"?}`.
#[derive(Serialize)]
pub(crate) struct Check {
    allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why_ru: Option<String>,
    /// The rule behind the refusal (the start of its heading's id in the
    /// rules text), when one explains it.
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
}

/// What an action did.
pub(crate) enum Done {
    /// The game changed (and was pushed to its WebSockets): its new state when
    /// it was asked for; and whether the action was a retry of one stored
    /// before, answered with the state it made then (nothing was pushed).
    Changed(Option<Box<GameView>>, bool),
    /// The answer to `check`.
    Checked(Check),
}

/// The route of an action over HTTP: answers the new state, or the check.
pub(crate) fn route(action: Action) -> MethodRouter<Shared> {
    post(
        move |State(state): State<Shared>,
              Path(id): Path<String>,
              headers: HeaderMap,
              body: Bytes| async move {
            let token = seats::bearer(&headers)?;
            let act: Act = parse_json(&body)?;
            Ok::<Response, ApiError>(
                match timed(
                    action,
                    perform(&state, &id, action, act, token.as_deref(), Answer::View),
                )
                .await?
                {
                    Done::Changed(view, _) => Json(view).into_response(),
                    Done::Checked(check) => Json(check).into_response(),
                },
            )
        },
    )
}

/// Carries out a person's action: checks the seat's token ([`seats::authorize`]:
/// `401` without one, `403` with another seat's), then checks the step or
/// changes the game through [`change`], which checks the turn and the rules,
/// answers a retried `action_id` as it was answered the first time, stores the
/// change only on the version it was made on, and pushes it to the game's
/// WebSockets; then wakes the computer seats. One path for HTTP and WebSocket.
pub(crate) async fn perform(
    state: &Shared,
    id: &str,
    action: Action,
    act: Act,
    token: Option<&str>,
    answer: Answer,
) -> Result<Done, ApiError> {
    let c: Colour = (act.seat.parse()).map_err(|e| ApiError::bad(format!("seat: {e}")))?;
    let action_id = act.action_id()?.map(str::to_string);
    let s = state.slot(id).await?;
    let mut e = s.lock().await;
    e.live()?;
    let what = match action {
        Action::Change(what) => what,
        Action::Check => {
            may_act(&e.core, token, c)?;
            check_seat(&e.core, c)?;
            let question = act.question()?;
            let turn = turn(&e.core)?.clone();
            drop(e);
            let why = match question {
                Question::Step(step) => blocking(move || turn.why_not(&step)).await?,
                Question::Move { colour, from, to } => {
                    blocking(move || turn.why_not_move(colour.unwrap_or(turn.actor()), from, to))
                        .await?
                }
                // Every distance the throw left is asked: engine work, bounded.
                Question::Piece { colour, at } => {
                    engine(&state.guards, move |_: &AtomicBool| {
                        why_stuck(&turn, colour.unwrap_or(turn.actor()), at)
                    })
                    .await?
                }
            };
            return Ok(Done::Checked(Check {
                allowed: why.is_none(),
                why_ru: why.as_ref().map(i18n::why_ru),
                rule: why.as_ref().and_then(|w| w.rule()),
                why: why.map(|w| w.to_string()),
            }));
        }
    };
    may_act(&e.core, token, c)?;
    act.only_step()?;
    let event = match what {
        Change::Throw => Event::Throw { seat: c },
        Change::Step => Event::Step {
            seat: c,
            step: step_of(&act)?,
        },
        Change::Undo => Event::Undo { seat: c },
        Change::End => Event::End { seat: c },
    };
    // Checked again on the game as it is when the change is made.
    let done = change(state, &mut e, answer, action_id.as_deref(), |core| {
        may_act(core, token, c)?;
        Ok(event.clone())
    })
    .await?;
    drop(e);
    if !done.repeated {
        kick(state.clone(), id.to_string());
    }
    Ok(Done::Changed(done.view.map(Box::new), done.repeated))
}

/// Checks that the game takes actions and that `token` holds `c`'s seat, a
/// person's.
pub(super) fn may_act(core: &Core, token: Option<&str>, c: Colour) -> Result<(), ApiError> {
    if core.archive() {
        return Err(ApiError::conflict(
            "this game is an archive: watch and replay only",
        ));
    }
    if let Some(Seat::Computer { .. }) = core.seats.get(&c) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("{} is played by the computer", c.title()),
        ));
    }
    seats::authorize(core, token, c)
}

/// Checks that `c` is a person whose turn it is.
pub(super) fn check_seat(core: &Core, c: Colour) -> Result<(), ApiError> {
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
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("{} is played by the computer", c.title()),
        ));
    }
    Ok(())
}

fn step_of(act: &Act) -> Result<Step, ApiError> {
    act.step
        .ok_or_else(|| ApiError::bad("give the step: {\"seat\": ..., \"step\": {...}}"))
}

pub(super) fn turn(core: &Core) -> Result<&Turn, ApiError> {
    core.turn
        .as_ref()
        .ok_or_else(|| ApiError::conflict("throw the dice first"))
}
