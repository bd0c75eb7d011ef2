//! Legal plays: every distinct complete play for a position and a throw, and the
//! same thing step by step for an interface ([`Turn`]).
//!
//! A play is the sequence of steps of one turn (the partner's steps with passed
//! points included). The reference listing is a depth-first search over steps that
//! remembers the intermediate positions it has seen, keeps only the plays that use
//! as much of the throw as the rules demand (and break overdue blocks where they
//! can), and keeps one play per distinct resulting position, in the order it
//! first reaches them. Faster listings give the same plays in the same order with
//! the same steps: by plans where they fix the plays, by sharings of a split
//! total, or by the same search with less work per node.
//!
//! One job a file:
//!
//! - `node`: the search node (a position in the middle of a turn) and its parts:
//!   dice left, who moves, the turn marks, how well a play uses the throw.
//! - `obstacles`: blocks and blockades standing in a colour's way.
//! - `steps`: the step rules: where a piece goes, paths, landing, the units that
//!   may move, the distances on offer, which steps exist.
//! - `apply`: applying a step and ending a turn.
//! - `alive`: a play's position read without the whole dead-game check where
//!   the turn cannot have changed its answer.
//! - `generator`: [`Generator`]: which listing serves a turn, the reference
//!   search over steps, the plays found.
//! - `dice`: the fast search where each die moves on its own.
//! - `plans`: each-die plays listed by which dice each piece takes, where that
//!   fixes them (groups; calm turns of single pieces).
//! - `keys`: the sets of keys a listing remembers, emptied in constant time.
//! - `split_total`: the fast path for split totals with automatic super-pieces.
//! - `turn`: [`Turn`], a turn step by step, and [`apply_play`].
//! - `explain`: [`Turn::why_not_move`], why a clicked piece cannot go to a square.
//!
//! ```
//! use chaupar_core::{Position, Rules, Preset, dice::Throw, play::legal_plays};
//! let rules = Rules::preset(Preset::Chaupar);
//! let pos = Position::new(rules, 4).unwrap();
//! let plays = legal_plays(&pos, Throw::new([1, 2, 6], rules.faces).unwrap()).unwrap();
//! assert!(plays.iter().all(|p| p.steps.iter().map(|s| s.by as u32).sum::<u32>() == 9));
//! ```

use core::fmt;

use crate::position::Position;
use crate::step::Step;

mod alive;
mod apply;
mod dice;
mod explain;
mod generator;
mod keys;
mod node;
mod obstacles;
mod plans;
mod split_total;
mod steps;
#[cfg(test)]
mod tests;
mod turn;

pub(crate) use apply::{capture_marks, finish_in, mark_dead, step_among};
pub use generator::{legal_plays, Generator};
pub(crate) use node::{Node, FRESH, MOVED};
pub(crate) use obstacles::{obstacles, Obstacles, Standing};
pub(crate) use steps::{
    destination_here, distance_count, for_each_step_fast, for_each_unit, has_any_step_with,
    is_dead, needs_declaration, nth_distance, Unit,
};
pub use turn::{apply_play, Turn};

/// Why plays cannot be listed at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over.
    GameOver,
    /// The throw is not one of these dice.
    Throw(crate::dice::ThrowError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => write!(f, "the game is over: nobody throws"),
            PlayError::Throw(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

/// A complete play and the position it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The steps in the order they are applied (empty when nothing can move).
    pub steps: Vec<Step>,
    /// The position after the play, with the next colour to throw.
    pub position: Position,
}
