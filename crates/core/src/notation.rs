//! Text forms: a position in one line (like FEN), a step and a play (like SAN).
//!
//! Position text has six fields separated by spaces:
//! `rules players to-move pieces captured blocks`, for example
//! `chaupar 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -`.
//! See `docs/notation.md` for the whole grammar.
//!
//! ```
//! use chaupar_core::{Position, Rules, Preset, notation};
//! let pos = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
//! let text = notation::position_text(&pos);
//! assert_eq!(text, "chaupar 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -");
//! assert_eq!(notation::parse_position(&text).unwrap(), pos);
//! ```

use core::fmt;

use crate::dice::Throw;
use crate::play::{capture_marks, Play, PlayError, Turn};
use crate::position::{Block, Position};
use crate::rules::{Rules, RulesError, Stacking, ThrowUse};
use crate::setup::{Setup, SetupError};
use crate::step::{Declare, Illegal, Step};
use crate::Colour;

/// Text that is not a valid position, step or play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text does not follow the grammar.
    Syntax(String),
    /// The rules field is wrong.
    Rules(RulesError),
    /// The position described is not a valid one.
    Setup(SetupError),
    /// A step is not allowed.
    Illegal {
        /// Which step (from 1).
        step: usize,
        /// Its text.
        text: String,
        /// Why not.
        why: Illegal,
    },
    /// No plays can be made.
    Play(PlayError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax(s) => f.write_str(s),
            NotationError::Rules(e) => write!(f, "{e}"),
            NotationError::Setup(e) => write!(f, "{e}"),
            NotationError::Illegal { step, text, why } => {
                write!(f, "step {step} ({text}) is not allowed: {why}")
            }
            NotationError::Play(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NotationError {}

impl From<RulesError> for NotationError {
    fn from(e: RulesError) -> Self {
        NotationError::Rules(e)
    }
}

impl From<SetupError> for NotationError {
    fn from(e: SetupError) -> Self {
        NotationError::Setup(e)
    }
}

fn syntax(s: impl Into<String>) -> NotationError {
    NotationError::Syntax(s.into())
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", position_text(self))
    }
}

/// The one-line text form of a position.
pub fn position_text(pos: &Position) -> String {
    let to_move = match pos.to_move() {
        Some(c) => format!(
            "{}{}",
            c.letter().to_ascii_lowercase(),
            if pos.extra_throw() { "+" } else { "" }
        ),
        None => "-".into(),
    };
    let pieces: Vec<String> = pos
        .colours()
        .iter()
        .map(|c| {
            let list: Vec<String> = pos.pieces(c).iter().map(|p| p.to_string()).collect();
            format!("{}{}", c.letter(), list.join(","))
        })
        .collect();
    let captured: String = pos.captured().iter().map(|c| c.letter()).collect();
    let blocks: Vec<String> = pos
        .blocks()
        .map(|b| format!("{}{}:{}", b.colour.letter(), b.progress, b.age))
        .collect();
    format!(
        "{} {} {} {} {} {}",
        pos.rules().compact(),
        pos.players(),
        to_move,
        pieces.join("/"),
        if captured.is_empty() {
            "-".into()
        } else {
            captured
        },
        if blocks.is_empty() {
            "-".into()
        } else {
            blocks.join(",")
        }
    )
}

fn colour_letter(s: &str, what: &str) -> Result<(Colour, String), NotationError> {
    let mut chars = s.chars();
    let c = chars
        .next()
        .ok_or_else(|| syntax(format!("empty {what}")))?;
    let colour = Colour::from_letter(c)
        .filter(|_| c.is_ascii_uppercase())
        .ok_or_else(|| syntax(format!("{what} {s:?} must start with Y, R, B or G")))?;
    Ok((colour, chars.collect()))
}

fn number(s: &str, what: &str) -> Result<u8, NotationError> {
    if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(format!("{what}: {s:?} is not a number")));
    }
    s.parse()
        .map_err(|_| syntax(format!("{what}: {s:?} is too big")))
}

/// Reads the one-line text form of a position.
pub fn parse_position(text: &str) -> Result<Position, NotationError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 6 {
        return Err(syntax(format!(
            "a position has 6 fields (rules players to-move pieces captured blocks); found {}",
            fields.len()
        )));
    }
    let rules = Rules::parse_compact(fields[0])?;
    let players = match fields[1] {
        "2" => 2,
        "3" => 3,
        "4" => 4,
        other => return Err(syntax(format!("players must be 2, 3 or 4, not {other:?}"))),
    };
    let (to_move, extra_throw) = match fields[2] {
        "-" => (None, false),
        s => {
            let (body, extra) = match s.strip_suffix('+') {
                Some(b) => (b, true),
                None => (s, false),
            };
            let mut cs = body.chars();
            let c = match (cs.next(), cs.next()) {
                (Some(c), None) if c.is_ascii_lowercase() => Colour::from_letter(c),
                _ => None,
            }
            .ok_or_else(|| {
                syntax(format!(
                    "to-move must be y, r, b, g (with + for an extra throw) or -, not {s:?}"
                ))
            })?;
            (Some(c), extra)
        }
    };
    let mut pieces: [Option<Vec<u8>>; 4] = [None, None, None, None];
    for part in fields[3].split('/') {
        let (c, rest) = colour_letter(part, "piece list")?;
        if pieces[c.index()].is_some() {
            return Err(syntax(format!("{} listed twice", c.title())));
        }
        let list = rest
            .split(',')
            .map(|n| number(n, "piece progress"))
            .collect::<Result<Vec<u8>, _>>()?;
        pieces[c.index()] = Some(list);
    }
    let mut captured = Vec::new();
    if fields[4] != "-" {
        for ch in fields[4].chars() {
            let c = Colour::from_letter(ch)
                .filter(|_| ch.is_ascii_uppercase())
                .ok_or_else(|| syntax(format!("captured: {ch:?} is not Y, R, B or G")))?;
            if captured.contains(&c) {
                return Err(syntax(format!("captured lists {} twice", c.title())));
            }
            captured.push(c);
        }
    }
    let mut blocks = Vec::new();
    if fields[5] != "-" {
        for b in fields[5].split(',') {
            let (colour, rest) = colour_letter(b, "block")?;
            let (p, age) = rest
                .split_once(':')
                .ok_or_else(|| syntax(format!("a block is written like Y45:2, not {b:?}")))?;
            blocks.push(Block {
                colour,
                progress: number(p, "block progress")?,
                age: number(age, "block age")?,
            });
        }
    }
    Ok(Setup {
        rules,
        players,
        to_move,
        pieces,
        captured,
        blocks,
        extra_throw,
    }
    .into_position()?)
}

/// A step as written, read from its text alone (the syntax): `Y6-15`, `2Y45x55`,
/// `Y12-20=B`. [`StepText::to_step`] then resolves it against the rules, and
/// [`parse_play`] checks it against the turn, as `shakmaty` reads a SAN before
/// it finds the move in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepText {
    /// How many pieces move together.
    pub pieces: u8,
    /// Whose pieces move.
    pub colour: Colour,
    /// Progress before the step.
    pub from: u8,
    /// Progress after the step.
    pub to: u8,
    /// Whether it is marked `x`, as a capture.
    pub captures: bool,
    /// The declaration written after `=`.
    pub declare: Option<Declare>,
}

impl StepText {
    /// Reads a step's text.
    pub fn parse(text: &str) -> Result<StepText, NotationError> {
        let bad = || {
            syntax(format!(
                "a step is written like Y6-15, 2Y45x55 or Y12-20=B; could not read {text:?}"
            ))
        };
        let digits_end = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
        let pieces = if digits_end == 0 {
            1
        } else {
            number(&text[..digits_end], "pieces")?
        };
        let (colour, rest) = colour_letter(&text[digits_end..], "step")?;
        let (body, declare) = if let Some(b) = rest.strip_suffix("=S") {
            (b, Some(Declare::Super))
        } else if let Some(b) = rest.strip_suffix("=B") {
            (b, Some(Declare::Block))
        } else {
            (rest.as_str(), None)
        };
        let sep = body.find(['-', 'x']).ok_or_else(bad)?;
        Ok(StepText {
            pieces,
            colour,
            from: number(&body[..sep], "from")?,
            to: number(&body[sep + 1..], "to")?,
            captures: body[sep..].starts_with('x'),
            declare,
        })
    }

    /// The text of a step, marked `x` if it `captures`.
    pub fn of(step: &Step, captures: bool) -> StepText {
        StepText {
            pieces: step.pieces,
            colour: step.colour,
            from: step.from,
            to: step.to,
            captures,
            declare: step.declare,
        }
    }

    /// The step this text means under `rules`, which decide how many dice it uses.
    pub fn to_step(&self, rules: &Rules) -> Step {
        let (from, to) = (self.from, self.to);
        let by = if to >= from {
            to - from
        } else {
            (to as u16 + crate::board::LOOP_LEN as u16 - from as u16).min(255) as u8
        };
        let dice = if rules.throw == ThrowUse::Total {
            0
        } else if rules.stacking == Stacking::Group && self.pieces >= 2 {
            2
        } else {
            1
        };
        Step {
            colour: self.colour,
            from,
            to,
            pieces: self.pieces,
            by,
            dice,
            declare: self.declare,
        }
    }
}

impl fmt::Display for StepText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pieces != 1 {
            write!(f, "{}", self.pieces)?;
        }
        write!(
            f,
            "{}{}{}{}",
            self.colour.letter(),
            self.from,
            if self.captures { 'x' } else { '-' },
            self.to
        )?;
        match self.declare {
            Some(Declare::Super) => f.write_str("=S"),
            Some(Declare::Block) => f.write_str("=B"),
            None => Ok(()),
        }
    }
}

impl core::str::FromStr for StepText {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        StepText::parse(s)
    }
}

/// The text of one step, `x` marking a capture: `Y6-15`, `2Y45x55`, `Y12-20=B`.
pub fn step_text(step: &Step, captures: bool) -> String {
    StepText::of(step, captures).to_string()
}

/// The text of a play: its steps separated by spaces, or `-` for an empty play.
pub fn play_text(pos: &Position, throw: Throw, steps: &[Step]) -> String {
    if steps.is_empty() {
        return "-".into();
    }
    let marks = capture_marks(pos, throw, steps);
    steps
        .iter()
        .zip(marks)
        .map(|(s, x)| step_text(s, x))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads one step's text for a position (the rules decide how many dice it uses).
pub fn parse_step(pos: &Position, text: &str) -> Result<Step, NotationError> {
    Ok(StepText::parse(text)?.to_step(pos.rules()))
}

/// Reads a play's text and checks it step by step against the position and throw.
pub fn parse_play(pos: &Position, throw: Throw, text: &str) -> Result<Play, NotationError> {
    let mut turn = Turn::new(pos, throw).map_err(NotationError::Play)?;
    let text = text.trim();
    let mut words = Vec::new();
    if text != "-" {
        for (i, word) in text.split_whitespace().enumerate() {
            // Syntax first, then the step against the turn.
            let written = StepText::parse(word)?;
            turn.step(written.to_step(pos.rules()))
                .map_err(|why| NotationError::Illegal {
                    step: i + 1,
                    text: word.to_string(),
                    why,
                })?;
            words.push((word, written));
        }
    }
    // The capture mark must tell the truth.
    let steps = turn.steps();
    for (i, ((word, written), captured)) in words
        .iter()
        .zip(capture_marks(pos, throw, &steps))
        .enumerate()
    {
        let marked = written.captures;
        if marked != captured {
            return Err(syntax(format!(
                "step {} ({word}) {}",
                i + 1,
                if marked {
                    "is marked x but captures nothing (write -)"
                } else {
                    "captures, so it is written with x"
                }
            )));
        }
    }
    turn.finish().map_err(|why| NotationError::Illegal {
        step: turn.steps().len() + 1,
        text: "(end of turn)".into(),
        why,
    })
}
