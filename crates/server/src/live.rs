//! A game being played: the engine's game, the turn being built, the seats.

use std::collections::BTreeMap;

use chaupar_core::json::position_value;
use chaupar_core::notation::play_text;
use chaupar_core::play::Turn;
use chaupar_core::{record, Colour, Declare, Game, Outcome, Position, Step};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::db::Stored;

/// Who plays a colour.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Seat {
    /// A person at this screen.
    Person,
    /// The computer at a level 1–5.
    Computer {
        /// 1 (weakest) to 5.
        level: u8,
    },
}

/// A step as the API sends and takes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepJson {
    pub colour: String,
    pub from: u8,
    pub to: u8,
    pub pieces: u8,
    pub by: u8,
    pub dice: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declare: Option<String>,
}

impl StepJson {
    /// The engine's step, if the fields make one.
    pub fn to_step(&self) -> Result<Step, String> {
        let colour: Colour = self.colour.parse().map_err(|e| format!("{e}"))?;
        let declare = match self.declare.as_deref() {
            None => None,
            Some("super") => Some(Declare::Super),
            Some("block") => Some(Declare::Block),
            Some(x) => return Err(format!("declare must be \"super\" or \"block\", not {x:?}")),
        };
        Ok(Step {
            colour,
            from: self.from,
            to: self.to,
            pieces: self.pieces,
            by: self.by,
            dice: self.dice,
            declare,
        })
    }
}

/// The half-built turn as stored.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Partial {
    pub thrown: bool,
    pub steps: Vec<StepJson>,
}

/// Everything about a game that is stored; cloned, changed, stored, then kept.
#[derive(Clone)]
pub struct Core {
    pub id: String,
    pub created: i64,
    pub game: Game,
    pub turn: Option<Turn>,
    pub seats: BTreeMap<Colour, Seat>,
    pub delay_ms: u64,
    pub version: u64,
}

pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn seats_json(seats: &BTreeMap<Colour, Seat>) -> Value {
    let mut m = serde_json::Map::new();
    for (c, s) in seats {
        m.insert(
            c.name().into(),
            serde_json::to_value(s).unwrap_or(Value::Null),
        );
    }
    Value::Object(m)
}

/// Parses seats given per colour and checks them against the colours that play.
pub fn parse_seats(v: &Value, pos: &Position) -> Result<BTreeMap<Colour, Seat>, String> {
    let obj = v
        .as_object()
        .ok_or("seats must be an object: {\"yellow\": {\"kind\": \"person\"}, ...}")?;
    let mut out = BTreeMap::new();
    for (k, s) in obj {
        let c: Colour = k.parse().map_err(|e| format!("seats: {e}"))?;
        if !pos.colours().has(c) {
            return Err(format!("seats: {} does not play in this game", c.title()));
        }
        let seat: Seat =
            serde_json::from_value(s.clone()).map_err(|e| format!("seats.{k}: {e}"))?;
        if let Seat::Computer { level } = seat {
            if !(1..=5).contains(&level) {
                return Err(format!("seats.{k}: level must be 1 to 5, not {level}"));
            }
        }
        out.insert(c, seat);
    }
    for c in pos.colours().iter() {
        out.entry(c).or_insert(Seat::Person);
    }
    if pos.players() == 2 && pos.has_teams() {
        for c in [Colour::Yellow, Colour::Red] {
            if out.get(&c) != out.get(&c.partner()) {
                return Err(format!(
                    "seats: with two players each plays a team, so {} and {} must have the same seat",
                    c.title(),
                    c.partner().title()
                ));
            }
        }
    }
    Ok(out)
}

impl Core {
    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.game.position().to_move().is_none()
    }

    /// The seat to act now.
    pub fn seat_to_move(&self) -> Option<(Colour, Seat)> {
        let c = self.game.position().to_move()?;
        Some((c, *self.seats.get(&c).unwrap_or(&Seat::Person)))
    }

    /// The stored form.
    pub fn stored(&self) -> Stored {
        let partial = Partial {
            thrown: self.turn.is_some(),
            steps: self
                .turn
                .as_ref()
                .map(|t| t.steps().iter().map(step_json).collect())
                .unwrap_or_default(),
        };
        Stored {
            id: self.id.clone(),
            created: self.created,
            updated: now(),
            record: record::write(&self.game, &[]),
            partial: serde_json::to_string(&partial).unwrap_or_default(),
            seats: seats_json(&self.seats).to_string(),
            delay_ms: self.delay_ms as i64,
            status: if self.over() { "over" } else { "playing" }.into(),
            summary: self.summary().to_string(),
        }
    }

    /// What the list of games shows.
    pub fn summary(&self) -> Value {
        let pos = self.game.position();
        json!({
            "rules": self.game.rules().compact(),
            "preset": self.game.rules().preset.name(),
            "players": pos.players(),
            "turns": self.game.turns().len(),
            "to_move": pos.to_move().map(|c| c.name()),
            "winner": pos.winner().map(|w| w.name()),
            "seats": seats_json(&self.seats),
        })
    }

    /// Rebuilds a game from its stored form.
    pub fn from_stored(s: &Stored) -> Result<Core, String> {
        let mut game = record::replay(&s.record).map_err(|e| e.to_string())?;
        let partial: Partial = serde_json::from_str(&s.partial).map_err(|e| e.to_string())?;
        let seats_v: Value = serde_json::from_str(&s.seats).map_err(|e| e.to_string())?;
        let seats = parse_seats(&seats_v, game.position())?;
        let mut turn = None;
        if partial.thrown && game.position().to_move().is_some() {
            let throw = game.throw().map_err(|e| e.to_string())?;
            let mut t = Turn::new(game.position(), throw).map_err(|e| e.to_string())?;
            for sj in &partial.steps {
                t.step(sj.to_step()?).map_err(|e| e.to_string())?;
            }
            turn = Some(t);
        }
        Ok(Core {
            id: s.id.clone(),
            created: s.created,
            game,
            turn,
            seats,
            delay_ms: s.delay_ms.max(0) as u64,
            version: 1,
        })
    }

    /// Throws the dice for the colour to move.
    pub fn throw(&mut self) -> Result<(), String> {
        if self.turn.is_some() {
            return Err("the dice have already been thrown this turn".into());
        }
        let throw = self.game.throw().map_err(|e| e.to_string())?;
        let t = Turn::new(self.game.position(), throw).map_err(|e| e.to_string())?;
        self.turn = Some(t);
        Ok(())
    }

    /// Plays a whole play for the pending throw (computer seats).
    pub fn play_whole(&mut self, steps: &[Step]) -> Result<(), String> {
        self.game.play(steps).map_err(|e| e.to_string())?;
        self.turn = None;
        Ok(())
    }

    /// The full state the page draws.
    pub fn view(&self) -> Value {
        let game = &self.game;
        let pos = game.position();
        let current = self.turn.as_ref().map(|t| t.current()).unwrap_or(*pos);
        let mut moves = Vec::new();
        let mut before = *game.start();
        for (i, t) in game.turns().iter().enumerate() {
            moves.push(json!({
                "n": i + 1,
                "colour": t.colour.name(),
                "throw": t.throw.dice(),
                "notation": play_text(&before, t.throw, &t.steps),
            }));
            before = t.after;
        }
        let turn = self.turn.as_ref().map(|t| {
            let legal: Vec<Value> = t.legal_steps().iter().map(step_value).collect();
            json!({
                "colour": pos.to_move().map(|c| c.name()),
                "throw": t.throw().dice(),
                "total": t.throw().total(),
                "actor": t.actor().name(),
                "passed": t.passed(),
                "steps": t.steps().iter().map(step_value).collect::<Vec<_>>(),
                "notation": play_text(t.start(), t.throw(), &t.steps()),
                "dice_left": t.dice_left(),
                "points_left": t.points_left(),
                "can_end": t.can_end(),
                "legal": legal,
            })
        });
        let last = game.turns().last().map(|t| {
            json!({
                "colour": t.colour.name(),
                "throw": t.throw.dice(),
                "steps": t.steps.iter().map(step_value).collect::<Vec<_>>(),
            })
        });
        let captured: serde_json::Map<String, Value> = pos
            .colours()
            .iter()
            .map(|c| (c.name().to_string(), Value::Bool(pos.has_captured(c))))
            .collect();
        let outcome = match pos.outcome() {
            Outcome::Ongoing => "playing",
            Outcome::Won(_) => "won",
            Outcome::Dead => "dead",
        };
        let to_move = pos.to_move();
        // Each colour's partner, in team games only.
        let partners: serde_json::Map<String, Value> = if pos.has_teams() {
            pos.colours()
                .iter()
                .map(|c| (c.name().to_string(), json!(c.partner().name())))
                .collect()
        } else {
            serde_json::Map::new()
        };
        json!({
            "id": self.id,
            "version": self.version,
            "created": self.created,
            "rules": game.rules().compact(),
            "preset": game.rules().preset.name(),
            "options": chaupar_core::json::options_json(game.rules()),
            "block_turns": game.rules().block_turns,
            "safe_castles": game.rules().get("safe").map(|s| s == "castles").unwrap_or(false),
            "players": pos.players(),
            "teams": pos.has_teams(),
            "colours": pos.colours().iter().map(|c| c.name()).collect::<Vec<_>>(),
            "partners": partners,
            "throw_mode": game.rules().get("throw").unwrap_or_default(),
            "seats": seats_json(&self.seats),
            "delay_ms": self.delay_ms,
            "position": position_value(&current),
            "to_move": to_move.map(|c| c.name()),
            "to_move_kind": self.seat_to_move().map(|(_, s)| match s { Seat::Person => "person", Seat::Computer { .. } => "computer" }),
            "extra_throw": pos.extra_throw(),
            "turn": turn,
            "moves": moves,
            "last": last,
            "captured": captured,
            "outcome": outcome,
            "winner": pos.winner().map(|w| w.name()),
        })
    }
}

/// The JSON form of a step: the engine's `step_value` plus `dice`, so that it
/// names the step exactly and can be sent back.
pub fn step_json(s: &Step) -> StepJson {
    StepJson {
        colour: s.colour.name().into(),
        from: s.from,
        to: s.to,
        pieces: s.pieces,
        by: s.by,
        dice: s.dice,
        declare: s.declare.map(|d| {
            match d {
                Declare::Super => "super",
                Declare::Block => "block",
            }
            .to_string()
        }),
    }
}

/// The JSON value of a step (see [`step_json`]).
pub fn step_value(s: &Step) -> Value {
    serde_json::to_value(step_json(s)).unwrap_or(Value::Null)
}
