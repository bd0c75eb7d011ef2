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
use crate::fair::{ClientSeed, ClientSeeds, DiceCommit, DiceSecret, FairError};
use crate::game::{throw_off_winner, Committed, Game, GameError};
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
    /// A throw other than the one the seed or the dice secret gives.
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
    /// A DiceCommit or DiceSecret tag that cannot be read, or a secret that
    /// does not open the commitment.
    Dice(FairError),
    /// A ClientSeed tag that is not `colour from seed`.
    ClientSeed(String),
    /// A DiceFrom tag that is not a whole number.
    DiceFrom(String),
    /// A ThrowOff tag that is not a throw-off played out in full.
    ThrowOffForm(String),
    /// Dice tags without the DiceCommit they belong to.
    NoCommit,
    /// Both a Seed and a DiceCommit.
    SeedAndCommit,
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
                write!(f, "the dice throw {thrown} here, not {written}")
            }
            NoPlay => f.write_str("missing the play (write - when nothing could move)"),
            Play(e) => write!(f, "{e}"),
            Game(e) => write!(f, "{e}"),
            Dice(e) => write!(f, "{e}"),
            ClientSeed(value) => write!(
                f,
                "ClientSeed is \"colour from seed\" like \"yellow 0 abc\", not {value:?}"
            ),
            DiceFrom(value) => write!(f, "DiceFrom must be a whole number, not {value:?}"),
            ThrowOffForm(value) => write!(
                f,
                "ThrowOff {value:?} is not a throw-off (each contender in seat order, until one is left)"
            ),
            NoCommit => f.write_str("DiceSecret, DiceFrom or ClientSeed without a DiceCommit"),
            SeedAndCommit => f.write_str("a record has a Seed or a DiceCommit, not both"),
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
/// Committed dice are written as `[DiceCommit]` (with `[DiceFrom]` and each
/// `[ClientSeed]`); their secret only once the game is over (`[DiceSecret]`).
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
    if let Some(commit) = game.commitment() {
        out.push_str(&format!("[DiceCommit \"{commit}\"]\n"));
        if game.dice_from() > 0 {
            out.push_str(&format!("[DiceFrom \"{}\"]\n", game.dice_from()));
        }
        for (c, seed, from) in game.client_seeds().into_iter().flat_map(ClientSeeds::iter) {
            out.push_str(&format!("[ClientSeed \"{} {from} {seed}\"]\n", c.name()));
        }
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
    if game.position().to_move().is_none() {
        if let Some(secret) = game.dice_secret() {
            out.push_str(&format!("[DiceSecret \"{secret}\"]\n"));
        }
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

/// Where the secret of committed dice comes from when a record is replayed.
#[derive(Clone, Copy)]
enum SecretFrom<'a> {
    /// The record's `[DiceSecret]`, if it has one.
    Record,
    /// Given (the stored record of a running game, whose secret is kept apart).
    Given(&'a DiceSecret),
}

/// Replays a record, checking every throw against the seed or the revealed dice
/// secret (when there is one) and every play against the rules. A record with
/// only a `[DiceCommit]` replays with the throws written in it.
pub fn replay(text: &str) -> Result<Game, RecordError> {
    replay_with(text, SecretFrom::Record)
}

/// Replays the record of a running game with committed dice, given the secret
/// kept apart from it: every throw is checked against the secret, and the game
/// goes on throwing with it.
pub fn replay_with_secret(text: &str, secret: &DiceSecret) -> Result<Game, RecordError> {
    replay_with(text, SecretFrom::Given(secret))
}

fn parse_client_seed(value: &str) -> Option<(Colour, u64, ClientSeed)> {
    let mut words = value.split(' ');
    let c = words.next()?.parse::<Colour>().ok()?;
    let from = words.next()?.parse::<u64>().ok()?;
    let seed = words.next()?.parse::<ClientSeed>().ok()?;
    words.next().is_none().then_some((c, from, seed))
}

fn parse_throw_off(value: &str) -> Option<Vec<(Colour, Throw)>> {
    value
        .split_whitespace()
        .map(|w| {
            let (letter, throw) = w.split_once(':')?;
            let mut chars = letter.chars();
            let c = chars.next().filter(char::is_ascii_uppercase)?;
            if chars.next().is_some() {
                return None;
            }
            Some((Colour::from_letter(c)?, throw.parse().ok()?))
        })
        .collect()
}

fn replay_with(text: &str, from_secret: SecretFrom<'_>) -> Result<Game, RecordError> {
    let mut rules_name = None;
    let mut options = String::new();
    let mut players = 4u8;
    let mut seed = None;
    let mut first = None;
    let mut result = None;
    let mut throw_off = None;
    let mut commit: Option<DiceCommit> = None;
    let mut secret_tag: Option<(usize, DiceSecret)> = None;
    let mut dice_from = None;
    let mut seeds = ClientSeeds::default();
    let mut has_seeds = false;
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
        let dice_err = |e| err(n, RecordErrorKind::Dice(e));
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
            "DiceCommit" => commit = Some(value.parse().map_err(dice_err)?),
            "DiceSecret" => secret_tag = Some((n, value.parse().map_err(dice_err)?)),
            "DiceFrom" => {
                dice_from = Some(
                    value
                        .parse::<u64>()
                        .map_err(|_| err(n, RecordErrorKind::DiceFrom(value.clone())))?,
                )
            }
            "ClientSeed" => {
                let (c, from, s) = parse_client_seed(&value)
                    .filter(|(c, _, _)| seeds.get(*c).is_none())
                    .ok_or_else(|| err(n, RecordErrorKind::ClientSeed(value.clone())))?;
                seeds.set(c, s, from);
                has_seeds = true;
            }
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
    if seed.is_some() && commit.is_some() {
        return Err(err(0, RecordErrorKind::SeedAndCommit));
    }
    if commit.is_none() && (secret_tag.is_some() || dice_from.is_some() || has_seeds) {
        return Err(err(0, RecordErrorKind::NoCommit));
    }
    let (secret_line, secret) = match from_secret {
        SecretFrom::Record => (secret_tag.map_or(0, |(n, _)| n), secret_tag.map(|(_, s)| s)),
        SecretFrom::Given(s) => (0, Some(*s)),
    };
    if let (Some(c), Some(s)) = (commit, secret) {
        if !c.opens_to(&s) {
            return Err(err(
                secret_line,
                RecordErrorKind::Dice(FairError::Commitment),
            ));
        }
    }
    let game_err = |e| err(0, RecordErrorKind::Game(e));
    let generated = match (seed, commit, secret) {
        (Some(s), _, _) => Some(Game::new(rules, players, s).map_err(game_err)?),
        (None, Some(_), Some(secret)) if dice_from.unwrap_or(0) == 0 => {
            Some(Game::committed(rules, players, secret, seeds.clone()).map_err(game_err)?)
        }
        _ => None,
    };
    let mut game = match generated {
        Some(g) => {
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
        None => {
            let mut written = Vec::new();
            if let (Some(_), Some((n, text))) = (commit, &throw_off) {
                let colours: Vec<Colour> = crate::Position::new(rules, players)
                    .map_err(|e| err(0, RecordErrorKind::Game(GameError::Setup(e))))?
                    .colours()
                    .iter()
                    .collect();
                let form = || err(*n, RecordErrorKind::ThrowOffForm(text.clone()));
                written = parse_throw_off(text).ok_or_else(form)?;
                let winner = throw_off_winner(&colours, &written).ok_or_else(form)?;
                match first {
                    Some(f) if f != winner => {
                        return Err(err(
                            0,
                            RecordErrorKind::FirstDiffers {
                                written: f,
                                thrown: winner,
                            },
                        ))
                    }
                    _ => first = Some(winner),
                }
            }
            let mut g = Game::unseeded(rules, players, first.unwrap_or(Colour::Yellow))
                .map_err(game_err)?;
            if let Some(commit) = commit {
                let fair = Committed {
                    commit,
                    secret,
                    seeds,
                    from: dice_from.unwrap_or(0),
                };
                g.set_committed(fair, written);
            }
            g
        }
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

/// Why the dice of a record cannot be verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// The record itself is wrong (a tag, a throw that cannot be read, a play).
    Record(RecordError),
    /// A practice game: its dice come from a `[Seed]` a client chose.
    Practice,
    /// No `[DiceCommit]`: the dice were not committed.
    NoCommit,
    /// No `[DiceSecret]`: the game is not over (or the secret was left out).
    NoSecret,
    /// The secret does not open the commitment, or a throw does not match.
    Fair(FairError),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Record(e) => write!(f, "{e}"),
            VerifyError::Practice => f.write_str(
                "a practice game: its dice come from a [Seed] a client chose, there is nothing to verify",
            ),
            VerifyError::NoCommit => f.write_str("the record has no [DiceCommit]: its dice were not committed"),
            VerifyError::NoSecret => f.write_str(
                "the record has no [DiceSecret]: the secret is revealed only when the game is over",
            ),
            VerifyError::Fair(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// Verifies a finished game's committed dice (`chaupar verify`): that its
/// `[DiceSecret]` opens its `[DiceCommit]` and that every throw written (the
/// throw-off first, then each turn's) is the one the secret and the client seeds
/// give; then replays the record to check the plays. Answers how many throws
/// were verified.
pub fn verify(text: &str) -> Result<usize, VerifyError> {
    let rec = |e| VerifyError::Record(e);
    let all_tags = tags(text).map_err(rec)?;
    let get = |name: &str| all_tags.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    if get("Seed").is_some() {
        return Err(VerifyError::Practice);
    }
    let commit: DiceCommit = get("DiceCommit")
        .ok_or(VerifyError::NoCommit)?
        .parse()
        .map_err(VerifyError::Fair)?;
    let secret: DiceSecret = get("DiceSecret")
        .ok_or(VerifyError::NoSecret)?
        .parse()
        .map_err(VerifyError::Fair)?;
    if !commit.opens_to(&secret) {
        return Err(VerifyError::Fair(FairError::Commitment));
    }
    // The header alone (less the secret and the result) gives the seeds, the
    // faces and the throw-off as written, and checks their form.
    let header: String = text
        .lines()
        .take_while(|l| {
            let l = l.trim();
            l.is_empty() || l.starts_with('#') || l.starts_with('[')
        })
        .filter(|l| {
            let l = l.trim_start();
            !l.starts_with("[DiceSecret ") && !l.starts_with("[Result ")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let head = replay_with(&header, SecretFrom::Record).map_err(rec)?;
    let mut throws: Vec<Throw> = head.throw_off().iter().map(|(_, t)| *t).collect();
    // Each turn line's throw as written, so that a wrong throw is named as such
    // even where it makes the play illegal.
    let body = text.lines().enumerate().skip_while(|(_, l)| {
        let l = l.trim();
        l.is_empty() || l.starts_with('#') || l.starts_with('[')
    });
    for (i, line) in body {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let t = line
            .split_whitespace()
            .nth(2)
            .ok_or_else(|| rec(err(i + 1, RecordErrorKind::NoThrow)))?
            .parse::<Throw>()
            .map_err(|e| rec(err(i + 1, RecordErrorKind::Throw(e))))?;
        throws.push(t);
    }
    let seeds = head.client_seeds().cloned().unwrap_or_default();
    let from = head.dice_from();
    let skip = (from as usize).min(throws.len());
    let faces = head.rules().faces;
    let n = crate::fair::verify_from(&commit, &secret, &seeds, faces, from, &throws[skip..])
        .map_err(VerifyError::Fair)?;
    replay(text).map_err(rec)?;
    Ok(n)
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
    let actual = if game.throws_itself() {
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

#[cfg(test)]
mod tests;
