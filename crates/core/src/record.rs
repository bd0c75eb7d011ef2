//! Game records: header tags, then one line per turn. A record replays exactly and
//! is rejected with a clear error (and its line number) where it is wrong.
//!
//! ```text
//! [Rules "chaupar"]
//! [Players "4"]
//! [Seed "42"]
//! [First "red"]
//!
//! 1. R 5,1,2 R6-14
//! 2. B 6,6,1 B7-20
//! ```
//!
//! ```
//! use chaupar_core::{record, Game, Rules, Preset, legal_plays};
//! let mut game = Game::new(Rules::preset(Preset::Chausar), 4, 7).unwrap();
//! for _ in 0..5 {
//!     let t = game.throw().unwrap();
//!     let plays = legal_plays(game.position(), t).unwrap();
//!     game.play(&plays[0].steps).unwrap();
//! }
//! let text = record::write(&game, &[]);
//! let again = record::replay(&text).unwrap();
//! assert_eq!(again.position(), game.position());
//! ```

use core::fmt;

use crate::dice::{Throw, ThrowError};
use crate::game::{Game, GameError};
use crate::notation::{parse_play, play_text, NotationError};
use crate::position::Outcome;
use crate::rules::{Rules, RulesError};
use crate::{Colour, UnknownColour};

/// A record that cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line (from 1) where the problem is; 0 for the record as a whole.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// A header line that is not `[Name "value"]`.
    TagForm,
    /// A tag's value without its double quotes.
    TagQuotes,
    /// A tag name that is not letters, digits and `_`.
    TagName(String),
    /// The Players tag is not 2, 3 or 4.
    Players(String),
    /// The Seed tag is not a whole number.
    Seed(String),
    /// The First tag is not a colour.
    First(UnknownColour),
    /// No Rules tag.
    NoRules,
    /// The Rules and Options tags do not make rules.
    Rules(RulesError),
    /// The ThrowOff tag disagrees with the seed.
    ThrowOff {
        /// The tag's text.
        written: String,
        /// What the seed throws.
        thrown: String,
    },
    /// The First tag disagrees with the throw-off of the seed.
    FirstDiffers {
        /// The tag's colour.
        written: Colour,
        /// Who the throw-off makes first.
        thrown: Colour,
    },
    /// The Result tag disagrees with the game.
    Result {
        /// The tag's text.
        written: String,
        /// How the game ends.
        actual: String,
    },
    /// A turn line with the wrong number.
    TurnNumber {
        /// The number due.
        expected: usize,
        /// What the line starts with.
        found: String,
    },
    /// A turn line without the colour that threw.
    NoColour,
    /// A turn line whose colour is not a colour letter.
    ColourLetter(String),
    /// A turn line after the end of the game.
    Over,
    /// A turn line for the wrong colour.
    NotTheirTurn {
        /// The colour written.
        threw: Colour,
        /// The colour to move.
        to_move: Colour,
    },
    /// A turn line without the throw.
    NoThrow,
    /// A throw that cannot be read.
    Throw(ThrowError),
    /// A throw other than the seed's.
    SeedThrows {
        /// What the seed throws.
        thrown: Throw,
        /// What the line says.
        written: Throw,
    },
    /// A turn line without the play.
    NoPlay,
    /// A play that cannot be read or is not legal.
    Play(NotationError),
    /// The game refuses the setup, a throw or a play.
    Game(GameError),
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RecordErrorKind::*;
        match self {
            TagForm => f.write_str("a tag is written [Name \"value\"]"),
            TagQuotes => f.write_str("a tag's value is in double quotes"),
            TagName(name) => write!(f, "bad tag name {name:?}"),
            Players(value) => write!(f, "Players must be 2, 3 or 4, not {value:?}"),
            Seed(value) => write!(f, "Seed must be a whole number, not {value:?}"),
            First(e) => write!(f, "{e}"),
            NoRules => f.write_str("the record has no [Rules \"...\"] tag"),
            Rules(e) => write!(f, "{e}"),
            ThrowOff { written, thrown } => write!(
                f,
                "ThrowOff says {written:?}, but this seed throws {thrown:?}"
            ),
            FirstDiffers { written, thrown } => write!(
                f,
                "First says {written}, but the throw-off with this seed gives {thrown}"
            ),
            Result { written, actual } => {
                write!(f, "Result says {written:?} but the game ends {actual:?}")
            }
            TurnNumber { expected, found } => {
                write!(f, "expected turn number \"{expected}.\", found {found:?}")
            }
            NoColour => f.write_str("missing the colour that threw"),
            ColourLetter(who) => write!(f, "{who:?} is not a colour letter Y, R, B or G"),
            Over => f.write_str("the game is already over"),
            NotTheirTurn { threw, to_move } => write!(
                f,
                "{} threw, but it is {}'s turn",
                threw.title(),
                to_move.title()
            ),
            NoThrow => f.write_str("missing the throw"),
            Throw(e) => write!(f, "{e}"),
            SeedThrows { thrown, written } => {
                write!(f, "the seed throws {thrown} here, not {written}")
            }
            NoPlay => f.write_str("missing the play (write - when nothing could move)"),
            Play(e) => write!(f, "{e}"),
            Game(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "line {}: {}", self.line, self.kind)
        }
    }
}

impl std::error::Error for RecordError {}

fn err(line: usize, kind: RecordErrorKind) -> RecordError {
    RecordError { line, kind }
}

/// The result text of a game: a winner's name, `dead`, or `*` while it goes on.
pub fn result_text(game: &Game) -> String {
    match game.position().outcome() {
        Outcome::Won(w) => w.name().to_string(),
        Outcome::Dead => "dead".into(),
        Outcome::Ongoing => "*".into(),
    }
}

/// The throw-off as text: `Y:6,5,2 R:1,1,2 ...` in the order thrown.
pub fn throw_off_text(game: &Game) -> String {
    game.throw_off()
        .iter()
        .map(|(c, t)| format!("{}:{t}", c.letter()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes a game's record, with extra tags (such as player names) after the rules.
pub fn write(game: &Game, extra: &[(&str, &str)]) -> String {
    let rules = game.rules();
    let mut out = String::new();
    out.push_str(&format!("[Rules \"{}\"]\n", rules.preset.name()));
    let changed = rules.changed();
    if !changed.is_empty() {
        let opts: Vec<String> = changed.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!("[Options \"{}\"]\n", opts.join(",")));
    }
    out.push_str(&format!("[Players \"{}\"]\n", game.start().players()));
    if let Some(seed) = game.seed() {
        out.push_str(&format!("[Seed \"{seed}\"]\n"));
    }
    if let Some(first) = game.start().to_move() {
        out.push_str(&format!("[First \"{}\"]\n", first.name()));
    }
    if !game.throw_off().is_empty() {
        out.push_str(&format!("[ThrowOff \"{}\"]\n", throw_off_text(game)));
    }
    for (k, v) in extra {
        let v = v.replace(['"', '\n', ']'], "");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    }
    out.push_str(&format!("[Result \"{}\"]\n\n", result_text(game)));
    let mut pos = *game.start();
    for (i, t) in game.turns().iter().enumerate() {
        out.push_str(&format!(
            "{}. {} {} {}\n",
            i + 1,
            t.colour.letter(),
            t.throw,
            play_text(&pos, t.throw, &t.steps)
        ));
        pos = t.after;
    }
    out
}

/// The header tags of a record, in order.
pub fn tags(text: &str) -> Result<Vec<(String, String)>, RecordError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if !line.starts_with('[') {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            break;
        }
        out.push(tag(i + 1, line)?);
    }
    Ok(out)
}

fn tag(n: usize, line: &str) -> Result<(String, String), RecordError> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| err(n, RecordErrorKind::TagForm))?;
    let (name, value) = inner
        .split_once(' ')
        .ok_or_else(|| err(n, RecordErrorKind::TagForm))?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| err(n, RecordErrorKind::TagQuotes))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(err(n, RecordErrorKind::TagName(name.to_string())));
    }
    Ok((name.to_string(), value.to_string()))
}

/// Replays a record, checking every throw against the seed (when there is one) and
/// every play against the rules.
pub fn replay(text: &str) -> Result<Game, RecordError> {
    let mut rules_name = None;
    let mut options = String::new();
    let mut players = 4u8;
    let mut seed = None;
    let mut first = None;
    let mut result = None;
    let mut throw_off = None;
    let mut body_start = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !line.starts_with('[') {
            body_start = Some(i);
            break;
        }
        let (name, value) = tag(n, line)?;
        match name.as_str() {
            "Rules" => rules_name = Some(value),
            "Options" => options = value,
            "Players" => {
                players = match value.as_str() {
                    "2" => 2,
                    "3" => 3,
                    "4" => 4,
                    _ => return Err(err(n, RecordErrorKind::Players(value))),
                }
            }
            "Seed" => {
                seed = Some(
                    value
                        .parse::<u64>()
                        .map_err(|_| err(n, RecordErrorKind::Seed(value.clone())))?,
                )
            }
            "First" => {
                first = Some(
                    value
                        .parse::<Colour>()
                        .map_err(|e| err(n, RecordErrorKind::First(e)))?,
                )
            }
            "Result" => result = Some((n, value)),
            "ThrowOff" => throw_off = Some((n, value)),
            _ => {}
        }
    }
    let rules_name = rules_name.ok_or_else(|| err(0, RecordErrorKind::NoRules))?;
    let compact = if options.is_empty() {
        rules_name
    } else {
        format!("{rules_name}[{options}]")
    };
    let rules = Rules::parse_compact(&compact).map_err(|e| err(0, RecordErrorKind::Rules(e)))?;
    let mut game = match seed {
        Some(s) => {
            let g = Game::new(rules, players, s).map_err(|e| err(0, RecordErrorKind::Game(e)))?;
            if let Some((n, text)) = &throw_off {
                if *text != throw_off_text(&g) {
                    return Err(err(
                        *n,
                        RecordErrorKind::ThrowOff {
                            written: text.clone(),
                            thrown: throw_off_text(&g),
                        },
                    ));
                }
            }
            if let (Some(f), Some(actual)) = (first, g.start().to_move()) {
                if f != actual {
                    return Err(err(
                        0,
                        RecordErrorKind::FirstDiffers {
                            written: f,
                            thrown: actual,
                        },
                    ));
                }
            }
            g
        }
        None => Game::unseeded(rules, players, first.unwrap_or(Colour::Yellow))
            .map_err(|e| err(0, RecordErrorKind::Game(e)))?,
    };
    if let Some(start) = body_start {
        for (i, raw) in text.lines().enumerate().skip(start) {
            let n = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            turn_line(&mut game, n, line)?;
        }
    }
    if let Some((n, r)) = result {
        let actual = result_text(&game);
        if r != "*" && r != actual {
            return Err(err(
                n,
                RecordErrorKind::Result {
                    written: r.clone(),
                    actual,
                },
            ));
        }
    }
    Ok(game)
}

fn turn_line(game: &mut Game, n: usize, line: &str) -> Result<(), RecordError> {
    let mut words = line.split_whitespace();
    let num = words.next().unwrap_or("");
    let expected = game.turns().len() + 1;
    if num != format!("{expected}.") {
        return Err(err(
            n,
            RecordErrorKind::TurnNumber {
                expected,
                found: num.to_string(),
            },
        ));
    }
    let who = words
        .next()
        .ok_or_else(|| err(n, RecordErrorKind::NoColour))?;
    let colour = match who.chars().collect::<Vec<_>>()[..] {
        [c] => Colour::from_letter(c).filter(|_| c.is_ascii_uppercase()),
        _ => None,
    }
    .ok_or_else(|| err(n, RecordErrorKind::ColourLetter(who.to_string())))?;
    let to_move = game
        .position()
        .to_move()
        .ok_or_else(|| err(n, RecordErrorKind::Over))?;
    if colour != to_move {
        return Err(err(
            n,
            RecordErrorKind::NotTheirTurn {
                threw: colour,
                to_move,
            },
        ));
    }
    let throw: Throw = words
        .next()
        .ok_or_else(|| err(n, RecordErrorKind::NoThrow))?
        .parse()
        .map_err(|e: ThrowError| err(n, RecordErrorKind::Throw(e)))?;
    let game_err = |e: GameError| err(n, RecordErrorKind::Game(e));
    let actual = if game.seed().is_some() {
        game.throw().map_err(game_err)?
    } else {
        game.set_throw(throw).map_err(game_err)?;
        throw
    };
    if actual != throw {
        return Err(err(
            n,
            RecordErrorKind::SeedThrows {
                thrown: actual,
                written: throw,
            },
        ));
    }
    let play_words: Vec<&str> = words.collect();
    if play_words.is_empty() {
        return Err(err(n, RecordErrorKind::NoPlay));
    }
    let play = parse_play(game.position(), throw, &play_words.join(" "))
        .map_err(|e| err(n, RecordErrorKind::Play(e)))?;
    game.play(&play.steps).map_err(game_err)?;
    Ok(())
}
