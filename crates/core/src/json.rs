//! The JSON form of positions and plays used by `chaupar moves --json` and the
//! server. See `docs/notation.md` for the schema.
//!
//! ```
//! use chaupar_core::json;
//! let pos = json::parse_position(r#"{"rules": "chaupar", "to_move": "yellow",
//!   "pieces": {"yellow": [6, 7, 23, 24], "red": [6, 7, 23, 24],
//!              "black": [6, 7, 23, 24], "green": [6, 7, 23, 24]}}"#).unwrap();
//! assert_eq!(pos.pieces(chaupar_core::Colour::Red), &[6, 7, 23, 24]);
//! ```

use core::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::dice::Throw;
use crate::play::Play;
use crate::position::{Block, Outcome, Position};
use crate::rules::{Preset, Rules, RulesError};
use crate::setup::{Setup, SetupError};
use crate::step::{Declare, Step};
use crate::Colour;

/// A JSON position or play that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JsonError {
    /// Not JSON of the expected shape.
    Syntax(String),
    /// Bad rules or options.
    Rules(RulesError),
    /// Not a valid position.
    Setup(SetupError),
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonError::Syntax(s) => write!(f, "bad position JSON: {s}"),
            JsonError::Rules(e) => write!(f, "{e}"),
            JsonError::Setup(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for JsonError {}

/// The pieces object: one list per colour that plays.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PiecesJson {
    /// Yellow's pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yellow: Option<Vec<u8>>,
    /// Red's pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red: Option<Vec<u8>>,
    /// Black's pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<Vec<u8>>,
    /// Green's pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub green: Option<Vec<u8>>,
}

/// One block.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BlockJson {
    /// Its owner.
    pub colour: String,
    /// Where it stands.
    pub progress: u8,
    /// Owner turns it has stood through.
    #[serde(default)]
    pub age: u8,
}

fn four() -> u8 {
    4
}

/// A position as JSON (the `chaupar moves` contract).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PositionJson {
    /// Preset name.
    pub rules: String,
    /// Options that differ from the preset.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// Number of players.
    #[serde(default = "four")]
    pub players: u8,
    /// The colour that throws next, or null when the game is over.
    pub to_move: Option<String>,
    /// Each playing colour's pieces.
    pub pieces: PiecesJson,
    /// Colours that have captured.
    #[serde(default)]
    pub captured: Vec<String>,
    /// Blocks (classic).
    #[serde(default)]
    pub blocks: Vec<BlockJson>,
    /// Whether `to_move` throws again after a capture.
    #[serde(default)]
    pub extra_throw: bool,
    /// The winner, once the game is won: a team such as `yellow+black`, or a colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// True when no colour can ever move again (no winner).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dead: bool,
}

fn colour(s: &str) -> Result<Colour, JsonError> {
    s.parse::<Colour>()
        .map_err(|e| JsonError::Syntax(e.to_string()))
}

fn option_value(v: &Value) -> Result<String, JsonError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Array(a) => a
            .iter()
            .map(|x| {
                x.as_u64().map(|n| n.to_string()).ok_or_else(|| {
                    JsonError::Syntax(format!("option list holds {x}, not a number"))
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.join(",")),
        other => Err(JsonError::Syntax(format!(
            "option value {other} must be a string, a number or a list of numbers"
        ))),
    }
}

/// The rules from a preset name and an options object.
pub fn rules_from(name: &str, options: &Map<String, Value>) -> Result<Rules, JsonError> {
    let preset: Preset = name.parse().map_err(JsonError::Rules)?;
    let mut rules = Rules::preset(preset);
    for (k, v) in options {
        rules.set(k, &option_value(v)?).map_err(JsonError::Rules)?;
    }
    rules.validate().map_err(JsonError::Rules)?;
    Ok(rules)
}

/// The options object for rules: only what differs from the preset.
pub fn options_json(rules: &Rules) -> Map<String, Value> {
    rules
        .changed()
        .into_iter()
        .map(|(k, v)| {
            let val = match k {
                "faces" => Value::Array(
                    rules
                        .faces
                        .values()
                        .iter()
                        .map(|f| Value::from(*f))
                        .collect(),
                ),
                "block_turns" => Value::from(rules.block_turns),
                _ => Value::String(v),
            };
            (k.to_string(), val)
        })
        .collect()
}

impl PositionJson {
    /// Checks the JSON and makes it a position.
    pub fn to_position(&self) -> Result<Position, JsonError> {
        let rules = rules_from(&self.rules, &self.options)?;
        let to_move = self.to_move.as_deref().map(colour).transpose()?;
        let p = &self.pieces;
        let setup = Setup {
            rules,
            players: self.players,
            to_move,
            pieces: [
                p.yellow.clone(),
                p.red.clone(),
                p.black.clone(),
                p.green.clone(),
            ],
            captured: self
                .captured
                .iter()
                .map(|c| colour(c))
                .collect::<Result<_, _>>()?,
            blocks: self
                .blocks
                .iter()
                .map(|b| {
                    Ok(Block {
                        colour: colour(&b.colour)?,
                        progress: b.progress,
                        age: b.age,
                    })
                })
                .collect::<Result<_, JsonError>>()?,
            extra_throw: self.extra_throw,
        };
        let pos = setup.into_position().map_err(JsonError::Setup)?;
        if self.dead != (pos.outcome() == Outcome::Dead) {
            return Err(JsonError::Syntax(if self.dead {
                "dead is true, but some colour can still move".into()
            } else {
                "the position is dead (no colour can ever move), so dead must be true".into()
            }));
        }
        if let Some(w) = &self.winner {
            if pos.winner().map(|x| x.name()) != Some(w.as_str()) {
                return Err(JsonError::Syntax(format!(
                    "winner says {w:?} but the pieces say {}",
                    pos.winner().map(|x| x.name()).unwrap_or("nobody has won")
                )));
            }
        }
        Ok(pos)
    }

    /// The JSON form of a position, piece lists ascending.
    pub fn from_position(pos: &Position) -> PositionJson {
        let list = |c: Colour| pos.colours().has(c).then(|| pos.pieces(c).to_vec());
        PositionJson {
            rules: pos.rules().preset.name().to_string(),
            options: options_json(pos.rules()),
            players: pos.players(),
            to_move: pos.to_move().map(|c| c.name().to_string()),
            pieces: PiecesJson {
                yellow: list(Colour::Yellow),
                red: list(Colour::Red),
                black: list(Colour::Black),
                green: list(Colour::Green),
            },
            captured: pos
                .captured()
                .iter()
                .map(|c| c.name().to_string())
                .collect(),
            blocks: pos
                .blocks()
                .map(|b| BlockJson {
                    colour: b.colour.name().to_string(),
                    progress: b.progress,
                    age: b.age,
                })
                .collect(),
            extra_throw: pos.extra_throw(),
            winner: pos.winner().map(|w| w.name().to_string()),
            dead: pos.outcome() == Outcome::Dead,
        }
    }
}

/// Reads a JSON position.
pub fn parse_position(text: &str) -> Result<Position, JsonError> {
    let j: PositionJson =
        serde_json::from_str(text).map_err(|e| JsonError::Syntax(e.to_string()))?;
    j.to_position()
}

/// The JSON value of a position.
pub fn position_value(pos: &Position) -> Value {
    serde_json::to_value(PositionJson::from_position(pos)).unwrap_or(Value::Null)
}

/// The JSON value of a step.
pub fn step_value(step: &Step) -> Value {
    let mut m = Map::new();
    m.insert("colour".into(), step.colour.name().into());
    m.insert("from".into(), step.from.into());
    m.insert("to".into(), step.to.into());
    m.insert("pieces".into(), step.pieces.into());
    m.insert("by".into(), step.by.into());
    m.insert("dice".into(), step.dice.into());
    if let Some(d) = step.declare {
        m.insert(
            "declare".into(),
            match d {
                Declare::Super => "super",
                Declare::Block => "block",
            }
            .into(),
        );
    }
    Value::Object(m)
}

/// The JSON value of a play: `{"notation", "steps", "position"}`.
pub fn play_value(start: &Position, throw: Throw, play: &Play) -> Value {
    let mut m = Map::new();
    m.insert(
        "notation".into(),
        crate::notation::play_text(start, throw, &play.steps).into(),
    );
    m.insert("steps".into(), play.steps.iter().map(step_value).collect());
    m.insert("position".into(), position_value(&play.position));
    Value::Object(m)
}
