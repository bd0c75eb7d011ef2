//! [`Generator`]: every distinct legal play of a position and a throw, by a
//! depth-first search over steps (the reference search), or by the split-total
//! fast path where it applies. It keeps its buffers from one call to the next.

use std::cell::OnceCell;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::board::{self, HOME};
use crate::dice::Throw;
use crate::position::Position;
use crate::rules::{Finished, Stacking};
use crate::step::{Declare, Step};
use crate::Colour;

use super::apply::{apply_among, finish, mark_dead};
use super::node::{broken, overdue, Node, NodeKey, Part, Usage};
use super::obstacles::ObstacleCache;
use super::split_total::total_fast;
use super::steps::for_each_step_with;
use super::{Play, PlayError};

/// Whether two steps of `node` are independent: either order applies both and
/// reaches the same node, and each stays legal after the other. They are when
/// they move different pieces and neither lands where the other starts or ends,
/// neither lands where another colour stands (no capture, no change to what the
/// other may capture), and neither declares or leaves a block. The search uses
/// it to skip the second order, whose node the first already reached: the plays
/// and their order are those of the plain search.
fn commute(node: &Node, others: u128, a: &Step, b: &Step) -> bool {
    let pos = &node.pos;
    let ai = node.actor.index();
    let lands_alone = |s: &Step| s.to == HOME || (others >> board::sq(ai, s.to)) & 1 == 0;
    a.from != b.from
        && a.to != b.to
        && a.from != b.to
        && a.to != b.from
        && lands_alone(a)
        && lands_alone(b)
        && (pos.rules.stacking != Stacking::Declare
            || (a.declare.is_none()
                && b.declare.is_none()
                && !pos.is_block(node.actor, a.from)
                && !pos.is_block(node.actor, b.from)))
}

/// A step in one word, for quick comparison inside one search (the colour is
/// the actor's).
#[inline]
fn packed(s: &Step) -> u64 {
    let declare = match s.declare {
        None => 0u8,
        Some(Declare::Super) => 1,
        Some(Declare::Block) => 2,
    };
    u64::from_le_bytes([
        s.colour as u8,
        s.from,
        s.to,
        s.pieces,
        s.by,
        s.dice,
        declare,
        0,
    ])
}

/// The step of [`packed`].
#[inline]
fn unpacked(w: u64) -> Step {
    let b = w.to_le_bytes();
    Step {
        colour: Colour::ALL[(b[0] & 3) as usize],
        from: b[1],
        to: b[2],
        pieces: b[3],
        by: b[4],
        dice: b[5],
        declare: match b[6] {
            0 => None,
            1 => Some(Declare::Super),
            _ => Some(Declare::Block),
        },
    }
}

/// Lists legal plays, reusing its memory from one call to the next.
#[derive(Default)]
pub struct Generator {
    /// The nodes searched this turn, by key.
    seen: FxHashSet<NodeKey>,
    /// The obstacles last computed.
    obstacles: ObstacleCache,
    /// The steps of the nodes on the search path, each node's after its parent's.
    children: Vec<Step>,
    /// Per node on the search path, the steps that would only reach nodes an
    /// earlier branch has searched (see [`commute`]), each node's after its parent's.
    earlier: Vec<u64>,
    /// Whether the search skips those steps (not in the reference search).
    prune: bool,
    /// The plays found, by the key of the position they lead to.
    index: FxHashMap<(u128, u128, u64), usize>,
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
        self.index.clear();
        self.path.clear();
        self.children.clear();
        self.earlier.clear();
        self.prune = fast;
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
            if let std::collections::hash_map::Entry::Vacant(e) = self.index.entry(declined.key()) {
                e.insert(self.plays.len());
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
        let obs = self.obstacles.get(node);
        let others = obs.others;
        let first = self.children.len();
        let children = &mut self.children;
        for_each_step_with(node, obs, |s| children.push(s));
        let last = self.children.len();
        if first == last {
            match node.pass() {
                Some(passed) => self.search(&passed, 0..0),
                None => self.leaf(node),
            }
            return;
        }
        for j in first..last {
            let s = self.children[j];
            if self.prune && self.earlier[earlier.clone()].contains(&packed(&s)) {
                // This order of two independent steps reaches a node that the
                // other order, searched earlier, reached first.
                continue;
            }
            let child = apply_among(node, &s, others);
            if !child.left() {
                // A play that used everything: `leaf` recognises it if another
                // order reached it first, so it need not be remembered here.
                self.path.push(s);
                self.leaf(&child);
                self.path.pop();
            } else if self.seen.insert(child.key()) {
                let start = self.earlier.len();
                if self.prune {
                    for i in first..j {
                        let e = self.children[i];
                        if commute(node, others, &e, &s) {
                            self.earlier.push(packed(&e));
                        }
                    }
                    for i in earlier.clone() {
                        let e = unpacked(self.earlier[i]);
                        if commute(node, others, &e, &s) {
                            self.earlier.push(packed(&e));
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
        self.children.truncate(first);
    }

    /// Records the play ending at `node` if it uses the throw as well as the best.
    pub(super) fn leaf(&mut self, node: &Node) {
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
                self.index.clear();
                self.steps.clear();
                self.plays.clear();
            }
        }
        let pos = finish(node);
        match self.index.entry(pos.key()) {
            std::collections::hash_map::Entry::Occupied(_) => return,
            std::collections::hash_map::Entry::Vacant(e) => e.insert(self.plays.len()),
        };
        let start = self.steps.len();
        self.steps.extend_from_slice(&self.path);
        self.plays.push((start, self.path.len(), pos));
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
