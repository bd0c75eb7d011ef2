//! [`Generator`]: every distinct legal play of a position and a throw, by a
//! depth-first search over steps (the reference search), or by the split-total
//! fast path where it applies. It keeps its buffers from one call to the next.

use std::cell::OnceCell;

use crate::board::{self, HOME};
use crate::dice::Throw;
use crate::position::Position;
use crate::rules::{Finished, Stacking};
use crate::step::{Declare, Step};
use crate::Colour;

use super::apply::{apply_among, finish, mark_dead};
use super::keys::KeySet;
use super::node::{broken, overdue, Node, Part, Usage};
use super::obstacles::ObstacleCache;
use super::split_total::total_fast;
use super::steps::{for_each_step_remembered, for_each_step_with, StepMemo};
use super::{Play, PlayError};

/// A step in one word for quick comparison inside one search: its fields in
/// the low seven bytes, and in the top byte whether it can be independent of
/// another step ([`SOLO`]).
#[inline]
fn packed(node: &Node, others: u128, s: &Step) -> u64 {
    let declare = match s.declare {
        None => 0u8,
        Some(Declare::Super) => 1,
        Some(Declare::Block) => 2,
    };
    // It lands where no other colour stands (it captures nothing and changes
    // nothing another step may capture) and it neither declares nor leaves a block.
    let alone = s.to == HOME || (others >> board::sq(node.actor.index(), s.to)) & 1 == 0;
    let blocks = node.pos.rules.stacking == Stacking::Declare
        && (s.declare.is_some() || node.pos.is_block(node.actor, s.from));
    let solo = if alone && !blocks { SOLO } else { 0 };
    u64::from_le_bytes([
        s.colour as u8,
        s.from,
        s.to,
        s.pieces,
        s.by,
        s.dice,
        declare,
        solo,
    ])
}

/// The flag of a [`packed`] step that can be independent of another.
const SOLO: u8 = 1;

/// The fields of a [`packed`] step, without the flag.
const FIELDS: u64 = (1 << 56) - 1;

/// Whether two [`packed`] steps of one node are independent: either order applies
/// both and reaches the same node, and each stays legal after the other. They are
/// when both can be ([`SOLO`]) and they move different pieces and neither lands
/// where the other starts or ends. The search uses it to skip the second order,
/// whose node the first already reached: the plays and their order are those of
/// the plain search.
#[inline]
fn commute(a: u64, b: u64) -> bool {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let (from_a, to_a, from_b, to_b) = (a[1], a[2], b[1], b[2]);
    a[7] & b[7] & SOLO != 0 && from_a != from_b && to_a != to_b && from_a != to_b && to_a != from_b
}

/// Lists legal plays, reusing its memory from one call to the next.
#[derive(Default)]
pub struct Generator {
    /// The nodes searched this turn, by key.
    seen: KeySet,
    /// The obstacles last computed.
    obstacles: ObstacleCache,
    /// The checks of steps made in this listing, by obstacle table.
    memo: StepMemo,
    /// The steps of the nodes on the search path, each node's after its parent's.
    children: Vec<Step>,
    /// Per node on the search path, the steps that would only reach nodes an
    /// earlier branch has searched (see [`commute`]), each node's after its parent's.
    earlier: Vec<u64>,
    /// The [`packed`] words of `children`, when the search skips repeated orders.
    words: Vec<u64>,
    /// Whether the search skips those steps (not in the reference search).
    prune: bool,
    /// The keys of the positions the plays found lead to.
    found: KeySet,
    /// The steps from the start of the turn to the node searched.
    pub(super) path: Vec<Step>,
    steps: Vec<Step>,
    /// Per play: where its steps start in `steps`, how many, the position after it
    /// (before the dead-game check).
    pub(super) plays: Vec<(usize, usize, Position)>,
    /// Per play: the position after it with a dead game marked, made when first
    /// asked for (most callers of a random play read one position of many).
    ended: Vec<OnceCell<Position>>,
    /// The best use of the throw found so far.
    pub(super) best: Option<Usage>,
    start_overdue: [u8; 2],
    mover: Option<Colour>,
}

impl Generator {
    /// A generator with empty buffers.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Generates the distinct legal plays of `pos` with `throw`; read them with
    /// [`Generator::len`], [`Generator::steps`] and [`Generator::position`].
    pub fn generate(&mut self, pos: &Position, throw: Throw) -> Result<usize, PlayError> {
        self.generate_with(pos, throw, true)
    }

    /// The same listing by the plain search over every order of steps, which the
    /// faster paths are tested against.
    #[doc(hidden)]
    pub fn generate_reference(&mut self, pos: &Position, throw: Throw) -> Result<usize, PlayError> {
        self.generate_with(pos, throw, false)
    }

    fn generate_with(
        &mut self,
        pos: &Position,
        throw: Throw,
        fast: bool,
    ) -> Result<usize, PlayError> {
        let node = Node::start(pos, throw)?;
        self.seen.clear();
        self.found.clear();
        self.path.clear();
        self.children.clear();
        self.earlier.clear();
        self.words.clear();
        self.prune = fast;
        if self.obstacles.reset() {
            self.memo = StepMemo::default();
        }
        self.steps.clear();
        self.plays.clear();
        self.best = None;
        self.start_overdue = overdue(pos);
        self.mover = pos.to_move;
        if fast && total_fast(&node) {
            self.search_total(&node);
        } else {
            self.search(&node, 0..0);
        }
        if node.part == Part::ForFinished && pos.rules.finished == Finished::PartnerMay {
            // The partner may decline a finished player's throw.
            let declined = finish(&node);
            if self.found.insert(declined.key()) {
                self.plays.push((self.steps.len(), 0, declined));
            }
        }
        self.ended.clear();
        self.ended.resize_with(self.plays.len(), OnceCell::new);
        Ok(self.plays.len())
    }

    /// Searches every play from `node`. `earlier` is the range of `self.earlier`
    /// holding the steps that lead from `node` only to nodes already searched.
    fn search(&mut self, node: &Node, earlier: core::ops::Range<usize>) {
        if !node.left() {
            // Nothing left to use or to pass: the play ends here.
            self.leaf(node);
            return;
        }
        let (generation, obs) = self.obstacles.table(node);
        let others = obs.others;
        let first = self.children.len();
        let children = &mut self.children;
        if self.prune {
            for_each_step_remembered(node, obs, &mut self.memo, generation, |s| children.push(s));
        } else {
            for_each_step_with(node, obs, |s| children.push(s));
        }
        let last = self.children.len();
        if first == last {
            match node.pass() {
                Some(passed) => self.search(&passed, 0..0),
                None => self.leaf(node),
            }
            return;
        }
        if self.prune {
            for j in first..last {
                let w = packed(node, others, &self.children[j]);
                self.words.push(w);
            }
        }
        for j in first..last {
            let s = self.children[j];
            let w = if self.prune { self.words[j] } else { 0 };
            if self.prune
                && self.earlier[earlier.clone()]
                    .iter()
                    .any(|e| e & FIELDS == w & FIELDS)
            {
                // This order of two independent steps reaches a node that the
                // other order, searched earlier, reached first.
                continue;
            }
            let child = apply_among(node, &s, others);
            if !child.left() {
                // A play that used everything: `leaf` recognises it if another
                // order reached it first, so it need not be remembered here.
                self.leaf_after(&child, &[s]);
            } else if self.seen.insert(child.key()) {
                let start = self.earlier.len();
                if self.prune {
                    for i in first..j {
                        let e = self.words[i];
                        if commute(e, w) {
                            self.earlier.push(e);
                        }
                    }
                    for i in earlier.clone() {
                        let e = self.earlier[i];
                        if commute(e, w) {
                            self.earlier.push(e);
                        }
                    }
                }
                let end = self.earlier.len();
                self.path.push(s);
                self.search(&child, start..end);
                self.path.pop();
                self.earlier.truncate(start);
            }
        }
        if self.prune {
            self.words.truncate(first);
        }
        self.children.truncate(first);
    }

    /// Records the play ending at `node` if it uses the throw as well as the best.
    pub(super) fn leaf(&mut self, node: &Node) {
        self.leaf_after(node, &[]);
    }

    /// [`Generator::leaf`] for a play whose last steps, `last`, are not on the
    /// path (they are copied only if the play is new).
    pub(super) fn leaf_after(&mut self, node: &Node, last: &[Step]) {
        let mover = self.mover.unwrap_or(node.actor);
        let usage = (
            node.used_dice,
            node.used_pips,
            broken(&self.start_overdue, node, mover),
        );
        match self.best {
            Some(b) if usage < b => return,
            Some(b) if usage == b => {}
            _ => {
                self.best = Some(usage);
                self.found.clear();
                self.steps.clear();
                self.plays.clear();
            }
        }
        let pos = finish(node);
        if !self.found.insert(pos.key()) {
            return;
        }
        let start = self.steps.len();
        self.steps.extend_from_slice(&self.path);
        self.steps.extend_from_slice(last);
        self.plays.push((start, self.path.len() + last.len(), pos));
    }

    /// Number of plays found by the last [`Generator::generate`].
    pub fn len(&self) -> usize {
        self.plays.len()
    }

    /// Whether the last generation found no play (never: an empty play is a play).
    pub fn is_empty(&self) -> bool {
        self.plays.is_empty()
    }

    /// The steps of play `i`.
    pub fn steps(&self, i: usize) -> &[Step] {
        let (s, n, _) = self.plays[i];
        &self.steps[s..s + n]
    }

    /// The position after play `i`.
    pub fn position(&self, i: usize) -> &Position {
        self.ended[i].get_or_init(|| {
            let mut position = self.plays[i].2;
            mark_dead(&mut position);
            position
        })
    }

    /// The plays as owned values.
    pub fn plays(&self) -> Vec<Play> {
        (0..self.len())
            .map(|i| Play {
                steps: self.steps(i).to_vec(),
                position: *self.position(i),
            })
            .collect()
    }
}

/// Every distinct legal play of `pos` with `throw`, one per resulting position.
pub fn legal_plays(pos: &Position, throw: Throw) -> Result<Vec<Play>, PlayError> {
    let mut g = Generator::new();
    g.generate(pos, throw)?;
    Ok(g.plays())
}
