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
            GameError::Throw(e) => write!(f, "{e}"),
            GameError::NotThrown => write!(f, "the dice have not been thrown yet"),
            GameError::Illegal { index, why } => {
                write!(f, "step {} is not allowed: {why}", index + 1)
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A game: its rules, dice and history.
#[derive(Clone, Debug)]
pub struct Game {
    seed: Option<u64>,
    dice: Option<Dice>,
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
        let mut contenders: Vec<Colour> = pos.colours().iter().collect();
        let mut throw_off = Vec::new();
        for _ in 0..64 {
            if contenders.len() == 1 {
                break;
            }
            let throws: Vec<(Colour, Throw)> = contenders
                .iter()
                .map(|c| (*c, dice.throw(rules.faces)))
                .collect();
            let best = throws.iter().map(|(_, t)| t.total()).max().unwrap_or(0);
            contenders = throws
                .iter()
                .filter(|(_, t)| t.total() == best)
                .map(|(c, _)| *c)
                .collect();
            throw_off.extend(throws);
        }
        let first = contenders.first().copied().unwrap_or(Colour::Yellow);
        let start = pos.with_first(first).map_err(GameError::Setup)?;
        Ok(Game {
            seed: Some(seed),
            dice: Some(dice),
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
        let dice = self.dice.as_mut().ok_or(GameError::NoDice)?;
        let t = dice.throw(faces);
        self.pending = Some(t);
        Ok(t)
    }

    /// Gives the throw of a game without seeded dice.
    pub fn set_throw(&mut self, throw: Throw) -> Result<(), GameError> {
        if self.dice.is_some() {
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
