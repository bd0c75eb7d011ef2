//! The search node: a position in the middle of a turn and its parts (the dice or
//! points left, whose pieces move, which part of the turn it is, what has been
//! used), the marks the search leaves on pieces and blocks while a turn is played,
//! and how well a finished play uses the throw.

use crate::board::HOME;
use crate::dice::Throw;
use crate::position::{Outcome, Position};
use crate::rules::{ThrowUse, Unused};
use crate::Colour;

use super::steps::has_any_step;
use super::PlayError;

/// Inside a turn, bit 7 of a piece's progress marks a piece that has taken its
/// part of a split total. [`super::finish_in`] clears it; no position outside the
/// search carries it.
pub(crate) const MOVED: u8 = 0x80;
/// Whether every piece of `c` is home, turn marks or not (what
/// [`Position::finished`] says of a position at rest).
#[inline]
pub(super) fn all_home(pos: &Position, c: Colour) -> bool {
    const HOMES: u32 = u32::from_le_bytes([HOME; 4]);
    const UNMARKED: u32 = u32::from_le_bytes([!MOVED; 4]);
    pos.present.has(c) && u32::from_le_bytes(pos.pieces[c.index()]) & UNMARKED == HOMES
}

/// Inside a turn, bit 7 of a block's age marks a block formed this turn (it does
/// not age at the end of it). [`super::finish_in`] clears it.
pub(crate) const FRESH: u8 = 0x80;

/// Which part of a turn is being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Part {
    /// The thrower moves his own pieces.
    Own,
    /// The partner uses dice the thrower could not use.
    Passed,
    /// The partner uses the whole throw of a finished thrower.
    ForFinished,
}

/// A position in the middle of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) pos: Position,
    /// Remaining dice, largest first, 0 for used (per-die use).
    pub(crate) dice: [u8; 3],
    /// Remaining points (split total).
    pub(crate) pips: u8,
    pub(crate) actor: Colour,
    pub(crate) part: Part,
    pub(crate) captured_any: bool,
    pub(crate) used_dice: u8,
    pub(crate) used_pips: u8,
}

impl core::hash::Hash for Node {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let (pieces, blocks, small) = self.key();
        state.write_u128(pieces);
        state.write_u128(blocks);
        state.write_u64(small);
    }
}

/// A node's [`Node::key`]: equal exactly when the nodes of one turn are.
pub(crate) type NodeKey = (u128, u128, u64);

impl Node {
    /// What changes inside one turn, in three words: the pieces, the blocks, and
    /// the dice, points, actor, part and marks with who has captured. Within one
    /// search (one position and throw) two nodes are equal exactly when their keys
    /// are: who throws next and the outcome do not change before the turn ends.
    #[inline]
    pub(crate) fn key(&self) -> NodeKey {
        let (pieces, blocks, _) = self.pos.key();
        let small = u64::from_le_bytes([
            self.dice[0],
            self.dice[1],
            self.dice[2],
            self.pips,
            self.actor as u8 | (self.part as u8) << 2 | (self.captured_any as u8) << 4,
            self.used_dice,
            self.used_pips,
            self.pos.captured.0,
        ]);
        (pieces, blocks, small)
    }
}

/// How well a finished play uses the throw: dice, then pips, then overdue blocks broken.
pub(crate) type Usage = (u8, u8, u8);

impl Node {
    pub(crate) fn start(pos: &Position, throw: Throw) -> Result<Node, PlayError> {
        Ok(Node::begin(pos, throw)?.settle())
    }

    /// The node at the start of the turn before [`Node::settle`] (for a caller
    /// that finds the thrower's obstacles anyway and settles with them).
    #[inline]
    pub(crate) fn begin(pos: &Position, throw: Throw) -> Result<Node, PlayError> {
        let mut node = Node::at_rest(pos);
        node.begin_again(throw)?;
        Ok(node)
    }

    /// A node holding `pos` between turns, before a throw: nothing left to
    /// use ([`Node::begin_again`] begins its turn).
    #[inline]
    pub(crate) fn at_rest(pos: &Position) -> Node {
        Node {
            pos: *pos,
            dice: [0; 3],
            pips: 0,
            actor: pos.to_move.unwrap_or(Colour::Yellow),
            part: Part::Own,
            captured_any: false,
            used_dice: 0,
            used_pips: 0,
        }
    }

    /// [`Node::begin`] in place: a turn of the node's position (at rest,
    /// between turns) with `throw`, the position itself left where it is (a
    /// playout goes from turn to turn without copying it). On an error the
    /// node is unchanged.
    #[inline]
    pub(crate) fn begin_again(&mut self, throw: Throw) -> Result<(), PlayError> {
        let pos = &self.pos;
        let mover = pos.to_move.ok_or(PlayError::GameOver)?;
        if pos.outcome != Outcome::Ongoing {
            return Err(PlayError::GameOver);
        }
        Throw::new(throw.dice(), pos.rules.faces).map_err(PlayError::Throw)?;
        let (actor, part) = if pos.finished(mover) && pos.teams {
            (mover.partner(), Part::ForFinished)
        } else {
            (mover, Part::Own)
        };
        let total = pos.rules.throw == ThrowUse::Total;
        self.dice = if total { [0; 3] } else { throw.sorted() };
        self.pips = if total { throw.total() } else { 0 };
        self.actor = actor;
        self.part = part;
        self.captured_any = false;
        self.used_dice = 0;
        self.used_pips = 0;
        Ok(())
    }

    pub(super) fn total_mode(&self) -> bool {
        self.pos.rules.throw == ThrowUse::Total
    }

    pub(crate) fn left(&self) -> bool {
        self.pips > 0 || self.dice[0] > 0
    }

    /// Hands the rest of the throw to the partner when the thrower is stuck and the
    /// rules pass unused points.
    pub(crate) fn settle(self) -> Node {
        self.settle_by(has_any_step)
    }

    /// [`Node::settle`], asking `can_move` whether the actor has a step
    /// (only where the dice would pass: a caller that keeps the actor's
    /// obstacles answers with them).
    pub(crate) fn settle_by(self, can_move: impl FnOnce(&Node) -> bool) -> Node {
        if self.may_pass() && !can_move(&self) {
            self.passed()
        } else {
            self
        }
    }

    /// Whether dice left over would pass to the partner if the thrower were stuck.
    pub(crate) fn may_pass(&self) -> bool {
        self.part == Part::Own
            && self.pos.rules.unused == Unused::Partner
            && self.pos.teams
            && self.left()
            && self.pos.present.has(self.actor.partner())
    }

    /// The node with the partner acting on the dice left (see [`Node::pass`]).
    pub(crate) fn passed(mut self) -> Node {
        self.actor = self.actor.partner();
        self.part = Part::Passed;
        self
    }

    /// For a node where the actor has no step: the partner's part, if dice pass.
    pub(crate) fn pass(&self) -> Option<Node> {
        self.may_pass().then(|| self.passed())
    }
}

/// The thrower's blocks that have stood their limit at the start of the turn.
pub(super) fn overdue(pos: &Position) -> [u8; 2] {
    let mut out = [0; 2];
    if let Some(m) = pos.to_move {
        for (i, slot) in out.iter_mut().enumerate() {
            let b = pos.blocks[m.index()][i];
            if b != 0 && pos.ages[m.index()][i] & !FRESH >= pos.rules.block_turns {
                *slot = b;
            }
        }
    }
    out
}

/// How many of the overdue blocks `node` has broken.
pub(super) fn broken(start_overdue: &[u8; 2], node: &Node, mover: Colour) -> u8 {
    let mut n = 0;
    for &b in start_overdue {
        if b == 0 {
            continue;
        }
        let still = (0..2).any(|i| {
            node.pos.blocks[mover.index()][i] == b && node.pos.ages[mover.index()][i] & FRESH == 0
        });
        if !still {
            n += 1;
        }
    }
    n
}
