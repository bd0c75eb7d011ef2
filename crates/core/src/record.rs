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

use crate::dice::Throw;
use crate::game::{Game, GameError};
use crate::notation::{parse_play, play_text};
use crate::position::Outcome;
use crate::rules::Rules;
use crate::Colour;

/// A record that cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line (from 1) where the problem is; 0 for the record as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for RecordError {}

fn err(line: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        message: message.into(),
    }
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
        .ok_or_else(|| err(n, "a tag is written [Name \"value\"]"))?;
    let (name, value) = inner
        .split_once(' ')
        .ok_or_else(|| err(n, "a tag is written [Name \"value\"]"))?;
    let value = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| err(n, "a tag's value is in double quotes"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(err(n, format!("bad tag name {name:?}")));
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
                    _ => return Err(err(n, format!("Players must be 2, 3 or 4, not {value:?}"))),
                }
            }
            "Seed" => {
                seed =
                    Some(value.parse::<u64>().map_err(|_| {
                        err(n, format!("Seed must be a whole number, not {value:?}"))
                    })?)
            }
            "First" => first = Some(value.parse::<Colour>().map_err(|e| err(n, e.to_string()))?),
            "Result" => result = Some((n, value)),
            "ThrowOff" => throw_off = Some((n, value)),
            _ => {}
        }
    }
    let rules_name = rules_name.ok_or_else(|| err(0, "the record has no [Rules \"...\"] tag"))?;
    let compact = if options.is_empty() {
        rules_name
    } else {
        format!("{rules_name}[{options}]")
    };
    let rules = Rules::parse_compact(&compact).map_err(|e| err(0, e.to_string()))?;
    let mut game = match seed {
        Some(s) => {
            let g = Game::new(rules, players, s).map_err(|e| err(0, e.to_string()))?;
            if let Some((n, text)) = &throw_off {
                if *text != throw_off_text(&g) {
                    return Err(err(
                        *n,
                        format!(
                            "ThrowOff says {text:?}, but this seed throws {:?}",
                            throw_off_text(&g)
                        ),
                    ));
                }
            }
            if let (Some(f), Some(actual)) = (first, g.start().to_move()) {
                if f != actual {
                    return Err(err(
                        0,
                        format!("First says {f}, but the throw-off with this seed gives {actual}"),
                    ));
                }
            }
            g
        }
        None => Game::unseeded(rules, players, first.unwrap_or(Colour::Yellow))
            .map_err(|e| err(0, e.to_string()))?,
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
                format!("Result says {r:?} but the game ends {actual:?}"),
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
            format!("expected turn number \"{expected}.\", found {num:?}"),
        ));
    }
    let who = words
        .next()
        .ok_or_else(|| err(n, "missing the colour that threw"))?;
    let colour = match who.chars().collect::<Vec<_>>()[..] {
        [c] => Colour::from_letter(c).filter(|_| c.is_ascii_uppercase()),
        _ => None,
    }
    .ok_or_else(|| err(n, format!("{who:?} is not a colour letter Y, R, B or G")))?;
    let to_move = game
        .position()
        .to_move()
        .ok_or_else(|| err(n, "the game is already over"))?;
    if colour != to_move {
        return Err(err(
            n,
            format!(
                "{} threw, but it is {}'s turn",
                colour.title(),
                to_move.title()
            ),
        ));
    }
    let throw: Throw = words
        .next()
        .ok_or_else(|| err(n, "missing the throw"))?
        .parse()
        .map_err(|e: crate::dice::ThrowError| err(n, e.to_string()))?;
    let actual = if game.seed().is_some() {
        game.throw().map_err(|e| err(n, e.to_string()))?
    } else {
        game.set_throw(throw).map_err(|e| err(n, e.to_string()))?;
        throw
    };
    if actual != throw {
        return Err(err(
            n,
            format!("the seed throws {actual} here, not {throw}"),
        ));
    }
    let play_words: Vec<&str> = words.collect();
    if play_words.is_empty() {
        return Err(err(n, "missing the play (write - when nothing could move)"));
    }
    let play = parse_play(game.position(), throw, &play_words.join(" "))
        .map_err(|e| err(n, e.to_string()))?;
    game.play(&play.steps)
        .map_err(|e: GameError| err(n, e.to_string()))?;
    Ok(())
}
