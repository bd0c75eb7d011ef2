//! The changes of a game as data: what one stored action row holds. Every
//! change of a game is an [`Event`], applied by [`Core::apply`] the same way
//! when it is made and when a game is loaded (or caught up with another
//! server's changes) from its stored actions.

use chaupar_core::{Colour, Step};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::live::{ChatLine, Core, Seat, CHAT_KEPT};

/// One change of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A person throws the dice.
    Throw {
        /// Who throws.
        seat: Colour,
    },
    /// A person takes a step of the turn under way.
    Step {
        /// Who steps.
        seat: Colour,
        /// The step.
        step: Step,
    },
    /// A person takes back the last step.
    Undo {
        /// Who takes it back.
        seat: Colour,
    },
    /// A person ends the turn.
    End {
        /// Who ends it.
        seat: Colour,
    },
    /// The server throws for a computer seat or for a person whose time ran
    /// out.
    ServerThrow {
        /// For whom.
        seat: Colour,
    },
    /// The server plays a whole play for a computer seat, or for a person
    /// whose time ran out (`timed_out`).
    Play {
        /// For whom.
        seat: Colour,
        /// The play's steps.
        steps: Vec<Step>,
        /// Whether a person's time ran out.
        #[serde(default)]
        timed_out: bool,
    },
    /// The owner gives a seat to the computer or frees it for a person (with
    /// the hash of a new invite code).
    Seat {
        /// Which seat.
        seat: Colour,
        /// Who plays it now.
        to: Seat,
        /// SHA-256 of the new invite code, for a person.
        #[serde(default)]
        invite: Option<String>,
    },
    /// Someone takes a free seat.
    Join {
        /// Which seat.
        seat: Colour,
        /// SHA-256 of the seat's new token.
        token: String,
        /// The name shown.
        name: String,
        /// The client seed mixed into the dice from the next throw on.
        #[serde(default)]
        client_seed: Option<String>,
    },
    /// A chat line.
    Chat {
        /// The line.
        line: ChatLine,
    },
}

impl Event {
    /// The event as stored.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// An event as stored.
    pub fn from_json(text: &str) -> Result<Event, String> {
        serde_json::from_str(text).map_err(|e| format!("stored action {text:?}: {e}"))
    }
}

impl Core {
    /// Applies a change made at `at_ms` (milliseconds since 1970): checks it
    /// against the game (the seat must be to move for a throw, step or play),
    /// makes it, and counts one version more. On an error the game may be
    /// half changed: apply to a copy.
    pub fn apply(&mut self, event: &Event, at_ms: i64) -> Result<(), ApiError> {
        let before = (self.game.turns().len(), self.game.position().to_move());
        match event {
            Event::Throw { seat } | Event::ServerThrow { seat } => {
                self.to_move(*seat)?;
                self.throw().map_err(ApiError::conflict)?;
            }
            Event::Step { seat, step } => {
                self.to_move(*seat)?;
                self.turn_mut()?
                    .step(*step)
                    .map_err(|why| ApiError::illegal(&why))?;
            }
            Event::Undo { seat } => {
                self.to_move(*seat)?;
                self.turn_mut()?
                    .undo()
                    .ok_or_else(|| ApiError::conflict("no step to take back"))?;
            }
            Event::End { seat } => {
                self.to_move(*seat)?;
                let play = (self.turn.as_ref())
                    .ok_or_else(|| ApiError::conflict("throw the dice first"))?
                    .finish()
                    .map_err(|why| ApiError::illegal(&why))?;
                self.play_whole(&play.steps)
                    .map_err(ApiError::unprocessable)?;
            }
            Event::Play {
                seat,
                steps,
                timed_out,
            } => {
                self.to_move(*seat)?;
                let turn = self.game.turns().len();
                self.play_whole(steps).map_err(ApiError::conflict)?;
                if *timed_out {
                    self.seating.timed_out.push(turn + 1);
                }
            }
            Event::Seat { seat, to, invite } => {
                self.seats.insert(*seat, *to);
                self.seating.tokens.remove(seat);
                self.seating.names.remove(seat);
                self.seating.invites.remove(seat);
                if let Some(h) = invite {
                    self.seating.invites.insert(*seat, h.clone());
                }
            }
            Event::Join {
                seat,
                token,
                name,
                client_seed,
            } => {
                self.seating.tokens.insert(*seat, token.clone());
                self.seating.invites.remove(seat);
                self.seating.names.insert(*seat, name.clone());
                if let Some(text) = client_seed {
                    let seed = text
                        .parse()
                        .map_err(|e| ApiError::bad(format!("client_seed: {e}")))?;
                    self.add_client_seed(*seat, seed);
                }
            }
            Event::Chat { line } => {
                self.chat.push(line.clone());
                let over = self.chat.len().saturating_sub(CHAT_KEPT);
                self.chat.drain(..over);
            }
        }
        // A new turn (or a seat handed over) starts the clock of `turn_seconds`.
        if (self.game.turns().len(), self.game.position().to_move()) != before {
            self.seating.turn_since = at_ms.div_euclid(1000);
        }
        self.version += 1;
        Ok(())
    }

    /// An error unless `seat` is to move.
    fn to_move(&self, seat: Colour) -> Result<(), ApiError> {
        match self.game.position().to_move() {
            None => Err(ApiError::conflict("the game is over")),
            Some(c) if c == seat => Ok(()),
            Some(c) => Err(ApiError::conflict(format!(
                "it is {}'s turn, not {}'s",
                c.title(),
                seat.title()
            ))),
        }
    }

    fn turn_mut(&mut self) -> Result<&mut chaupar_core::Turn, ApiError> {
        self.turn
            .as_mut()
            .ok_or_else(|| ApiError::conflict("throw the dice first"))
    }
}
