//! A game in progress: rules, seeded dice, the throw-off, and every turn played.
//!
//! ```
//! use chaupar_core::{Game, Rules, Preset};
//! let mut game = Game::new(Rules::preset(Preset::Chaupar), 4, 42).unwrap();
//! let throw = game.throw().unwrap();
//! let plays = chaupar_core::legal_plays(game.position(), throw).unwrap();
//! game.play(&plays[0].steps).unwrap();
//! assert_eq!(game.turns().len(), 1);
//! // The same seed gives the same game.
//! let mut again = Game::new(Rules::preset(Preset::Chaupar), 4, 42).unwrap();
//! assert_eq!(again.throw().unwrap(), throw);
//! ```

use core::fmt;

use crate::dice::{Dice, Throw, ThrowError};
use crate::fair::{mac, ClientSeed, ClientSeeds, DiceCommit, DiceSecret};
use crate::play::{apply_play, PlayError};
use crate::position::Position;
use crate::rules::Rules;
use crate::setup::SetupError;
use crate::step::{Illegal, Step};
use crate::Colour;

/// One turn of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRecord {
    /// Who threw.
    pub colour: Colour,
    /// The throw.
    pub throw: Throw,
    /// The play made with it.
    pub steps: Vec<Step>,
    /// The position after the play.
    pub after: Position,
}

/// What went wrong in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The starting position cannot be made.
    Setup(SetupError),
    /// The game is over.
    Over,
    /// This game has no seeded dice; throws must be given.
    NoDice,
    /// A throw was given to a game whose dice are seeded.
    Seeded,
    /// Committed dice were asked of a game that already throws by itself.
    HasDice,
    /// The throw is not one of these dice.
    Throw(ThrowError),
    /// No throw has been made for this turn.
    NotThrown,
    /// A step of the play is not allowed.
    Illegal {
        /// Which step (from 0).
        index: usize,
        /// Why.
        why: Illegal,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Setup(e) => write!(f, "{e}"),
            GameError::Over => write!(f, "the game is over"),
            GameError::NoDice => write!(f, "this game has no seeded dice; give the throw"),
            GameError::Seeded => write!(f, "this game's dice are seeded; it throws by itself"),
            GameError::HasDice => write!(f, "this game already throws its own dice"),
            GameError::Throw(e) => write!(f, "{e}"),
            GameError::NotThrown => write!(f, "the dice have not been thrown yet"),
            GameError::Illegal { index, why } => {
                write!(f, "step {} is not allowed: {why}", index + 1)
            }
        }
    }
}

impl std::error::Error for GameError {}

/// Committed dice (see [`crate::fair`]): the commitment, the client seeds, the
/// secret when it is known, and the throw number they took over at.
#[derive(Clone, Debug)]
pub(crate) struct Committed {
    pub(crate) commit: DiceCommit,
    pub(crate) secret: Option<DiceSecret>,
    pub(crate) seeds: ClientSeeds,
    pub(crate) from: u64,
}

/// Plays a throw-off among `colours` with throws from `next`: every contender
/// throws once in seat order, the highest total wins, the tied throw again.
fn throw_off_with(
    colours: &[Colour],
    mut next: impl FnMut() -> Throw,
) -> (Colour, Vec<(Colour, Throw)>) {
    let mut contenders = colours.to_vec();
    let mut throw_off = Vec::new();
    for _ in 0..64 {
        if contenders.len() == 1 {
            break;
        }
        let throws: Vec<(Colour, Throw)> = contenders.iter().map(|c| (*c, next())).collect();
        let best = throws.iter().map(|(_, t)| t.total()).max().unwrap_or(0);
        contenders = throws
            .iter()
            .filter(|(_, t)| t.total() == best)
            .map(|(c, _)| *c)
            .collect();
        throw_off.extend(throws);
    }
    let first = contenders.first().copied().unwrap_or(Colour::Yellow);
    (first, throw_off)
}

/// Who a written throw-off makes first, if it is a throw-off among `colours`
/// played out in full (every contender in seat order, until one is left).
pub(crate) fn throw_off_winner(colours: &[Colour], written: &[(Colour, Throw)]) -> Option<Colour> {
    let mut contenders = colours.to_vec();
    let mut i = 0;
    while contenders.len() > 1 {
        let round = written.get(i..i + contenders.len())?;
        if round.iter().zip(&contenders).any(|((c, _), k)| c != k) {
            return None;
        }
        i += contenders.len();
        let best = round.iter().map(|(_, t)| t.total()).max()?;
        contenders = round
            .iter()
            .filter(|(_, t)| t.total() == best)
            .map(|(c, _)| *c)
            .collect();
    }
    (i == written.len()).then_some(*contenders.first()?)
}

/// A game: its rules, dice and history.
#[derive(Clone, Debug)]
pub struct Game {
    seed: Option<u64>,
    dice: Option<Dice>,
    fair: Option<Committed>,
    throw_off: Vec<(Colour, Throw)>,
    start: Position,
    position: Position,
    turns: Vec<TurnRecord>,
    pending: Option<Throw>,
}

impl Game {
    /// A new game whose dice are seeded from `seed`; who throws first is decided by
    /// a throw-off with the same dice (highest total; the tied throw again).
    pub fn new(rules: Rules, players: u8, seed: u64) -> Result<Game, GameError> {
        let pos = Position::new(rules, players).map_err(GameError::Setup)?;
        let mut dice = Dice::from_seed(seed);
        let colours: Vec<Colour> = pos.colours().iter().collect();
        let (first, throw_off) = throw_off_with(&colours, || dice.throw(rules.faces));
        let start = pos.with_first(first).map_err(GameError::Setup)?;
        Ok(Game {
            seed: Some(seed),
            dice: Some(dice),
            fair: None,
            throw_off,
            start,
            position: start,
            turns: Vec::new(),
            pending: None,
        })
    }

    /// A new game with committed dice (see [`crate::fair`]): throw `n` of the
    /// game (the throw-off first) is read from `secret`, the seeds and `n`.
    pub fn committed(
        rules: Rules,
        players: u8,
        secret: DiceSecret,
        seeds: ClientSeeds,
    ) -> Result<Game, GameError> {
        let pos = Position::new(rules, players).map_err(GameError::Setup)?;
        let colours: Vec<Colour> = pos.colours().iter().collect();
        let mut n = 0u64;
        let (first, throw_off) = throw_off_with(&colours, || {
            let t = Throw::from_bits(rules.faces, u32::from(mac(&secret, &seeds, n)[0]));
            n += 1;
            t
        });
        let start = pos.with_first(first).map_err(GameError::Setup)?;
        Ok(Game {
            seed: None,
            dice: None,
            fair: Some(Committed {
                commit: secret.commitment(),
                secret: Some(secret),
                seeds,
                from: 0,
            }),
            throw_off,
            start,
            position: start,
            turns: Vec::new(),
            pending: None,
        })
    }

    /// A game without seeded dice (throws are given with [`Game::set_throw`]),
    /// `first` throwing first.
    pub fn unseeded(rules: Rules, players: u8, first: Colour) -> Result<Game, GameError> {
        let start = Position::new(rules, players)
            .and_then(|p| p.with_first(first))
            .map_err(GameError::Setup)?;
        Ok(Game {
            seed: None,
            dice: None,
            fair: None,
            throw_off: Vec::new(),
            start,
            position: start,
            turns: Vec::new(),
            pending: None,
        })
    }

    /// A game continuing from any position, with seeded dice.
    pub fn from_position(position: Position, seed: u64) -> Game {
        Game {
            seed: Some(seed),
            dice: Some(Dice::from_seed(seed)),
            fair: None,
            throw_off: Vec::new(),
            start: position,
            position,
            turns: Vec::new(),
            pending: None,
        }
    }

    /// The seed, if the dice are seeded.
    pub fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The dice commitment, if the dice are committed (or were, in a record).
    pub fn commitment(&self) -> Option<DiceCommit> {
        self.fair.as_ref().map(|f| f.commit)
    }

    /// The client seeds mixed into committed dice (none for other dice).
    pub fn client_seeds(&self) -> Option<&ClientSeeds> {
        self.fair.as_ref().map(|f| &f.seeds)
    }

    /// The secret of committed dice, when it is known. Secret while the game
    /// runs: only a finished game's record shows it.
    pub fn dice_secret(&self) -> Option<&DiceSecret> {
        self.fair.as_ref().and_then(|f| f.secret.as_ref())
    }

    /// The throw number committed dice took over at (0 but for an imported game
    /// continued with fresh dice).
    pub fn dice_from(&self) -> u64 {
        self.fair.as_ref().map_or(0, |f| f.from)
    }

    /// How many throws were made: the throw-off, each turn's, and the pending one.
    pub fn throws_made(&self) -> u64 {
        (self.throw_off.len() + self.turns.len() + usize::from(self.pending.is_some())) as u64
    }

    /// Every throw made, in order: the throw-off, each turn's, the pending one.
    pub fn all_throws(&self) -> Vec<Throw> {
        let mut out: Vec<Throw> = self.throw_off.iter().map(|(_, t)| *t).collect();
        out.extend(self.turns.iter().map(|t| t.throw));
        out.extend(self.pending);
        out
    }

    /// Whether the game throws its own dice (seeded, or committed with the
    /// secret known); otherwise throws are given with [`Game::set_throw`].
    pub fn throws_itself(&self) -> bool {
        self.dice.is_some()
            || self
                .fair
                .as_ref()
                .is_some_and(|f| f.secret.is_some() && f.from <= self.throws_made())
    }

    /// Adds a client seed for `colour`, counting from the next throw. Answers
    /// whether it was added: only committed dice whose secret is known take
    /// seeds, and a seat's first seed stays for the whole game (a later one
    /// would make the earlier throws unverifiable).
    pub fn add_client_seed(&mut self, colour: Colour, seed: ClientSeed) -> bool {
        let from = self.throws_made();
        match &mut self.fair {
            Some(f) if f.secret.is_some() && f.seeds.get(colour).is_none() => {
                f.seeds.set(colour, seed, from);
                true
            }
            _ => false,
        }
    }

    /// Gives a game without dice of its own fresh committed dice from the next
    /// throw on (an imported game continued): the old commitment, if any, and
    /// its seeds are replaced.
    pub fn recommit(&mut self, secret: DiceSecret) -> Result<(), GameError> {
        if self.throws_itself() {
            return Err(GameError::HasDice);
        }
        self.fair = Some(Committed {
            commit: secret.commitment(),
            secret: Some(secret),
            seeds: ClientSeeds::default(),
            from: self.throws_made(),
        });
        Ok(())
    }

    /// Sets the committed dice and written throw-off of a replayed record.
    pub(crate) fn set_committed(&mut self, fair: Committed, throw_off: Vec<(Colour, Throw)>) {
        self.fair = Some(fair);
        self.throw_off = throw_off;
    }

    /// The throw-off that decided who throws first.
    pub fn throw_off(&self) -> &[(Colour, Throw)] {
        &self.throw_off
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        self.position.rules()
    }

    /// The turns played.
    pub fn turns(&self) -> &[TurnRecord] {
        &self.turns
    }

    /// The throw waiting to be played, if the dice have been thrown.
    pub fn pending(&self) -> Option<Throw> {
        self.pending
    }

    /// Throws the dice for the colour to move (or returns the throw already made).
    pub fn throw(&mut self) -> Result<Throw, GameError> {
        if self.position.to_move().is_none() {
            return Err(GameError::Over);
        }
        if let Some(t) = self.pending {
            return Ok(t);
        }
        let faces = self.position.rules().faces;
        let n = self.throws_made();
        let itself = self.throws_itself();
        let t = match (&mut self.dice, &self.fair) {
            (Some(dice), _) => dice.throw(faces),
            (None, Some(f)) if itself => match &f.secret {
                Some(secret) => Throw::from_bits(faces, u32::from(mac(secret, &f.seeds, n)[0])),
                None => return Err(GameError::NoDice),
            },
            _ => return Err(GameError::NoDice),
        };
        self.pending = Some(t);
        Ok(t)
    }

    /// Gives the throw of a game without seeded dice.
    pub fn set_throw(&mut self, throw: Throw) -> Result<(), GameError> {
        if self.throws_itself() {
            return Err(GameError::Seeded);
        }
        if self.position.to_move().is_none() {
            return Err(GameError::Over);
        }
        Throw::new(throw.dice(), self.position.rules().faces).map_err(GameError::Throw)?;
        self.pending = Some(throw);
        Ok(())
    }

    /// Plays the pending throw with these steps; on error nothing changes.
    pub fn play(&mut self, steps: &[Step]) -> Result<&Position, GameError> {
        let throw = self.pending.ok_or(GameError::NotThrown)?;
        let colour = self.position.to_move().ok_or(GameError::Over)?;
        let after = apply_play(&self.position, throw, steps)
            .map_err(|(index, why)| GameError::Illegal { index, why })?;
        self.turns.push(TurnRecord {
            colour,
            throw,
            steps: steps.to_vec(),
            after,
        });
        self.position = after;
        self.pending = None;
        Ok(&self.position)
    }

    /// Legal plays for the pending throw.
    pub fn legal_plays(&self) -> Result<Vec<crate::Play>, GameError> {
        let throw = self.pending.ok_or(GameError::NotThrown)?;
        crate::legal_plays(&self.position, throw).map_err(|e| match e {
            PlayError::GameOver => GameError::Over,
            PlayError::Throw(t) => GameError::Throw(t),
        })
    }
}
