//! A position as read, before it is checked ([`Setup`], as in `shakmaty`), and
//! the checks that turn it into a [`Position`] or say why not ([`SetupError`]).
//! It sits above the play module: a position nobody can move from is dead.

use core::fmt;

use crate::board::{self, HOME, START};
use crate::play::is_dead;
use crate::position::{Block, Outcome, Position, Winner, MAX_AGE};
use crate::rules::{Finished, Rules, RulesError, Stacking, Start};
use crate::{Colour, Colours};

/// A description of a position that has not been checked yet: the form read from
/// JSON or text. [`Setup::into_position`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The rules.
    pub rules: Rules,
    /// Number of players: 2, 3 or 4 as the rules allow.
    pub players: u8,
    /// Who throws next; `None` when the game is over.
    pub to_move: Option<Colour>,
    /// Each colour's pieces as progress numbers; `None` for a colour that does not play.
    pub pieces: [Option<Vec<u8>>; 4],
    /// Colours that have captured at least once.
    pub captured: Vec<Colour>,
    /// Blocks (only with `stacking=declare`).
    pub blocks: Vec<Block>,
    /// Whether `to_move` is throwing again after a capture.
    pub extra_throw: bool,
}

/// Why a setup is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The rules or players are not allowed.
    Rules(RulesError),
    /// A colour that plays has no pieces listed.
    NoPieces {
        /// The colour.
        colour: Colour,
        /// The number of players.
        players: u8,
    },
    /// A colour that does not play has pieces listed.
    NotPlaying {
        /// The colour.
        colour: Colour,
        /// The number of players.
        players: u8,
    },
    /// A colour does not have exactly four pieces.
    PieceCount(Colour, usize),
    /// A progress number outside 0–84.
    Progress(Colour, u8),
    /// Pieces of both teams on one square.
    BothTeams(board::Square),
    /// Blocks are listed but the rules have no blocks.
    BlocksNeedDeclare {
        /// The rules' stacking.
        stacking: Stacking,
    },
    /// A block of a colour that does not play.
    BlockNotPlaying(Colour),
    /// A block that is not exactly two pieces on a board square.
    BlockPieces {
        /// Its colour.
        colour: Colour,
        /// Where it is listed.
        progress: u8,
        /// How many pieces of its colour stand there.
        found: usize,
    },
    /// A block older than [`MAX_AGE`] turns.
    BlockAge(u8),
    /// The same block listed twice.
    BlockTwice {
        /// Its colour.
        colour: Colour,
        /// Where it stands.
        progress: u8,
    },
    /// Someone is to move, but the game is already won.
    AlreadyWon(Winner),
    /// Nobody is to move, but the game is not over.
    NotOver,
    /// The colour to move does not play.
    ToMoveNotPlaying(Colour),
    /// The colour to move has all pieces home and is skipped (`finished=skip`).
    ToMoveSkipped(Colour),
    /// The colour chosen to throw first does not play.
    FirstNotPlaying(Colour),
    /// The capture list names a colour that does not play.
    Captured(Colour),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Rules(e) => write!(f, "{e}"),
            SetupError::NoPieces { colour, players } => write!(
                f,
                "{} plays in a {players}-player game but has no pieces listed",
                colour.title()
            ),
            SetupError::NotPlaying { colour, players } => write!(
                f,
                "{} does not play in a {players}-player game with these rules",
                colour.title()
            ),
            SetupError::PieceCount(c, n) => {
                write!(
                    f,
                    "{} has {n} pieces; every colour that plays has exactly 4",
                    c.title()
                )
            }
            SetupError::Progress(c, p) => write!(
                f,
                "{} piece at progress {p}: progress runs from 0 (Charkoni) to 84 (home)",
                c.title()
            ),
            SetupError::BothTeams(sq) => {
                let (r, c) = sq.rc();
                write!(
                    f,
                    "the square at row {r}, column {c} holds pieces of both teams"
                )
            }
            SetupError::BlocksNeedDeclare { stacking } => write!(
                f,
                "blocks are listed but these rules have stacking={} (blocks need stacking=declare)",
                stacking.name()
            ),
            SetupError::BlockNotPlaying(c) => write!(f, "block of {c}, which does not play"),
            SetupError::BlockPieces {
                colour,
                progress,
                found,
            } => write!(
                f,
                "block of {colour} at {progress}: a block is exactly two pieces on a board square (found {found})"
            ),
            SetupError::BlockAge(age) => write!(f, "block age {age} is above {MAX_AGE}"),
            SetupError::BlockTwice { colour, progress } => {
                write!(f, "block of {colour} at {progress} listed twice")
            }
            SetupError::AlreadyWon(w) => {
                write!(f, "the game is already won by {w}, so nobody is to move")
            }
            SetupError::NotOver => f.write_str("nobody is to move, but the game is not over"),
            SetupError::ToMoveNotPlaying(c) => write!(f, "{c} is to move but does not play"),
            SetupError::ToMoveSkipped(c) => write!(
                f,
                "{c} has all pieces home and is skipped under finished=skip"
            ),
            SetupError::FirstNotPlaying(c) => write!(f, "{c} does not play"),
            SetupError::Captured(c) => write!(f, "captured lists {c}, which does not play"),
        }
    }
}

impl std::error::Error for SetupError {}

impl From<RulesError> for SetupError {
    fn from(e: RulesError) -> Self {
        SetupError::Rules(e)
    }
}

impl Setup {
    /// The starting setup of a game with these rules and players, Yellow to throw.
    pub fn start(rules: Rules, players: u8) -> Result<Setup, SetupError> {
        let (present, _) = rules.seats(players)?;
        let start: Vec<u8> = match rules.start {
            Start::Posts => vec![6, 7, 23, 24],
            Start::Charkoni => vec![START; 4],
        };
        let pieces = Colour::ALL.map(|c| present.has(c).then(|| start.clone()));
        Ok(Setup {
            rules,
            players,
            to_move: Some(Colour::Yellow),
            pieces,
            captured: vec![],
            blocks: vec![],
            extra_throw: false,
        })
    }

    /// Checks the setup and makes it a position.
    pub fn into_position(self) -> Result<Position, SetupError> {
        let rules = self.rules;
        rules.validate()?;
        let (present, teams) = rules.seats(self.players)?;
        let mut pieces = [[0u8; 4]; 4];
        for c in Colour::ALL {
            match (&self.pieces[c.index()], present.has(c)) {
                (Some(list), true) => {
                    if list.len() != 4 {
                        return Err(SetupError::PieceCount(c, list.len()));
                    }
                    for (i, p) in list.iter().enumerate() {
                        if *p > HOME {
                            return Err(SetupError::Progress(c, *p));
                        }
                        pieces[c.index()][i] = *p;
                    }
                    pieces[c.index()].sort_unstable();
                }
                (None, true) => {
                    return Err(SetupError::NoPieces {
                        colour: c,
                        players: self.players,
                    })
                }
                (Some(_), false) => {
                    return Err(SetupError::NotPlaying {
                        colour: c,
                        players: self.players,
                    })
                }
                (None, false) => {}
            }
        }
        let mut captured = Colours::NONE;
        for c in &self.captured {
            if !present.has(*c) {
                return Err(SetupError::Captured(*c));
            }
            captured = captured.with(*c);
        }
        let mut blocks = [[0u8; 2]; 4];
        let mut ages = [[0u8; 2]; 4];
        if !self.blocks.is_empty() && rules.stacking != Stacking::Declare {
            return Err(SetupError::BlocksNeedDeclare {
                stacking: rules.stacking,
            });
        }
        for b in &self.blocks {
            let c = b.colour;
            if !present.has(c) {
                return Err(SetupError::BlockNotPlaying(c));
            }
            let n = pieces[c.index()]
                .iter()
                .filter(|p| **p == b.progress)
                .count();
            if !(1..HOME).contains(&b.progress) || n != 2 {
                return Err(SetupError::BlockPieces {
                    colour: c,
                    progress: b.progress,
                    found: n,
                });
            }
            if b.age > MAX_AGE {
                return Err(SetupError::BlockAge(b.age));
            }
            let slot = &mut blocks[c.index()];
            if slot.contains(&b.progress) {
                return Err(SetupError::BlockTwice {
                    colour: c,
                    progress: b.progress,
                });
            }
            let i = if slot[0] == 0 { 0 } else { 1 };
            slot[i] = b.progress;
            ages[c.index()][i] = b.age;
        }
        let mut pos = Position {
            rules,
            players: self.players,
            present,
            teams,
            pieces,
            blocks,
            ages,
            captured,
            to_move: self.to_move,
            extra_throw: self.extra_throw,
            outcome: Outcome::Ongoing,
        };
        pos.sort_blocks();
        // No square holds both teams.
        for sq in board::Square::all() {
            let mut seen: Option<Colour> = None;
            for c in present.iter() {
                if pos.count_on_square(c, sq.index()) > 0 {
                    if let Some(o) = seen {
                        if pos.enemies(o, c) {
                            return Err(SetupError::BothTeams(sq));
                        }
                    } else {
                        seen = Some(c);
                    }
                }
            }
        }
        pos.outcome = pos.judge_outcome();
        match (pos.outcome, pos.to_move) {
            (Outcome::Won(w), Some(_)) => return Err(SetupError::AlreadyWon(w)),
            (Outcome::Ongoing, None) => {
                if is_dead(&pos) {
                    pos.outcome = Outcome::Dead;
                } else {
                    return Err(SetupError::NotOver);
                }
            }
            (_, Some(c)) if !present.has(c) => return Err(SetupError::ToMoveNotPlaying(c)),
            (_, Some(c)) if pos.finished(c) && rules.finished == Finished::Skip => {
                return Err(SetupError::ToMoveSkipped(c))
            }
            (Outcome::Won(_), None) => pos.extra_throw = false,
            _ => {}
        }
        if pos.to_move.is_some() && is_dead(&pos) {
            pos.outcome = Outcome::Dead;
            pos.to_move = None;
        }
        Ok(pos)
    }
}

impl Position {
    /// The starting position of a game: Yellow throws first unless a throw-off says
    /// otherwise (see [`Position::with_first`]).
    pub fn new(rules: Rules, players: u8) -> Result<Position, SetupError> {
        Setup::start(rules, players)?.into_position()
    }

    /// The same starting position with `first` to throw.
    pub fn with_first(mut self, first: Colour) -> Result<Position, SetupError> {
        if !self.present.has(first) {
            return Err(SetupError::FirstNotPlaying(first));
        }
        self.to_move = Some(first);
        Ok(self)
    }

    /// Back to the unchecked form.
    pub fn to_setup(&self) -> Setup {
        Setup {
            rules: self.rules,
            players: self.players,
            to_move: self.to_move,
            pieces: Colour::ALL
                .map(|c| self.present.has(c).then(|| self.pieces[c.index()].to_vec())),
            captured: self.captured.iter().collect(),
            blocks: self.blocks().collect(),
            extra_throw: self.extra_throw,
        }
    }

    /// How many pieces of `colour` stand on the board square `square`.
    fn count_on_square(&self, colour: Colour, square: u8) -> usize {
        let [a, b] = board::progress_on_raw(colour.index(), square);
        self.pieces[colour.index()]
            .iter()
            .filter(|p| {
                let p = **p;
                p != 0 && (p == a || p == b)
            })
            .count()
    }
}
