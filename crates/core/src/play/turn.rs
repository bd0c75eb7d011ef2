//! [`Turn`]: a turn played step by step, as an interface does (which steps may
//! follow, why a step may not, whether the turn may end, undo, the plays that
//! complete it), and [`apply_play`], which checks a whole play through it.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::board::{HOME, START};
use crate::dice::Throw;
use crate::position::{sort4, Position};
use crate::rules::{Finished, Stacking};
use crate::step::{Illegal, Step};
use crate::Colour;

use super::apply::{apply, ended};
use super::generator::Generator;
use super::node::{broken, overdue, Node, Part, Usage};
use super::obstacles::obstacles;
use super::steps::{
    check_move, for_each_distance, for_each_step, for_each_unit, has_any_step, needs_declaration,
};
use super::{Play, PlayError, FRESH, MOVED};

/// A turn played step by step, as an interface does: which steps may follow, why a
/// step may not, whether the turn may end. It agrees with [`legal_plays`].
#[derive(Clone, Debug)]
pub struct Turn {
    start: Position,
    throw: Throw,
    node: Node,
    history: Vec<(Step, Node)>,
    best: Usage,
    mover: Colour,
    start_overdue: [u8; 2],
    may_decline: bool,
}

impl Turn {
    /// Starts a turn of `pos` with `throw`.
    pub fn new(pos: &Position, throw: Throw) -> Result<Turn, PlayError> {
        let node = Node::start(pos, throw)?;
        let mut g = Generator::new();
        g.generate(pos, throw)?;
        let best = g.best.unwrap_or((0, 0, 0));
        Ok(Turn {
            start: *pos,
            throw,
            node,
            history: Vec::new(),
            best,
            mover: pos.to_move.unwrap_or(node.actor),
            start_overdue: overdue(pos),
            may_decline: node.part == Part::ForFinished
                && pos.rules.finished == Finished::PartnerMay,
        })
    }

    /// The position the turn started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The throw.
    pub fn throw(&self) -> Throw {
        self.throw
    }

    /// The steps taken so far.
    pub fn steps(&self) -> Vec<Step> {
        self.history.iter().map(|(s, _)| *s).collect()
    }

    /// The colour whose pieces move now.
    pub fn actor(&self) -> Colour {
        self.node.actor
    }

    /// Whether the actor is using points passed by the thrower.
    pub fn passed(&self) -> bool {
        self.node.part != Part::Own
    }

    /// The dice not yet used (per-die use), largest first.
    pub fn dice_left(&self) -> Vec<u8> {
        self.node.dice.iter().copied().filter(|d| *d != 0).collect()
    }

    /// Points not yet used (split total).
    pub fn points_left(&self) -> u8 {
        self.node.pips
    }

    /// The position as it stands within the turn (pieces moved so far).
    pub fn current(&self) -> Position {
        let mut p = self.node.pos;
        for c in 0..4 {
            for x in p.pieces[c].iter_mut() {
                *x &= !MOVED;
            }
            sort4(&mut p.pieces[c]);
        }
        for a in p.ages.iter_mut().flatten() {
            *a &= !FRESH;
        }
        p
    }

    fn qualifies(&self, node: &Node, memo: &mut FxHashMap<Node, bool>) -> bool {
        self.reaches_best(node, memo, true)
    }

    /// Whether some way of finishing the turn from `node` uses the throw as well as
    /// the best play does (and, with `blocks`, breaks as many overdue blocks).
    fn reaches_best(&self, node: &Node, memo: &mut FxHashMap<Node, bool>, blocks: bool) -> bool {
        if let Some(v) = memo.get(node) {
            return *v;
        }
        let mut steps = Vec::new();
        for_each_step(node, |s| steps.push(s));
        let ok = if steps.is_empty() {
            match node.pass() {
                Some(p) => self.reaches_best(&p, memo, blocks),
                None => {
                    let broken = if blocks {
                        broken(&self.start_overdue, node, self.mover)
                    } else {
                        self.best.2
                    };
                    (node.used_dice, node.used_pips, broken) == self.best
                }
            }
        } else {
            steps
                .iter()
                .any(|s| self.reaches_best(&apply(node, s), memo, blocks))
        };
        memo.insert(*node, ok);
        ok
    }

    /// The steps that may be taken next.
    pub fn legal_steps(&self) -> Vec<Step> {
        let mut steps = Vec::new();
        for_each_step(&self.node, |s| steps.push(s));
        let mut memo = FxHashMap::default();
        steps.retain(|s| self.qualifies(&apply(&self.node, s), &mut memo));
        steps
    }

    /// Whether the turn may end now.
    pub fn can_end(&self) -> bool {
        self.ends_at(&self.node, self.history.is_empty())
    }

    /// Whether the turn may end at `node`: nothing left to move, or a partner
    /// declining passed points before any step (`fresh`).
    fn ends_at(&self, node: &Node, fresh: bool) -> bool {
        (self.may_decline && fresh) || !has_any_step(node)
    }

    /// Why `step` may not be taken now, or `None` if it may.
    pub fn why_not(&self, step: &Step) -> Option<Illegal> {
        self.check(step).err()
    }

    fn check(&self, step: &Step) -> Result<Node, Illegal> {
        let node = &self.node;
        let pos = &node.pos;
        if pos.to_move.is_none() {
            return Err(Illegal::GameOver);
        }
        if !has_any_step(node) {
            return Err(Illegal::TurnOver);
        }
        if step.colour != node.actor {
            if node.part == Part::Passed && step.colour == self.mover {
                // The thrower is stuck: say why his own step fails.
                let mut own = *node;
                own.actor = self.mover;
                own.part = Part::Own;
                self.check_unit(&own, step)?;
            }
            return Err(Illegal::NotYourPart {
                colour: step.colour,
                actor: node.actor,
            });
        }
        self.check_unit(node, step)?;
        let child = apply(node, step);
        let mut memo = FxHashMap::default();
        if !self.qualifies(&child, &mut memo) {
            // Would it do if only dice and pips counted?
            if self.best.2 > 0 && self.reaches_best(&child, &mut FxHashMap::default(), false) {
                let b = self
                    .start_overdue
                    .iter()
                    .copied()
                    .find(|b| *b != 0)
                    .unwrap_or(0);
                return Err(Illegal::MustBreakBlock { progress: b });
            }
            return Err(Illegal::MustUseMore);
        }
        Ok(child)
    }

    /// Checks that the step is a move the node's actor may make, before the
    /// maximum-use rule.
    fn check_unit(&self, node: &Node, step: &Step) -> Result<(), Illegal> {
        let pos = &node.pos;
        let a = step.colour;
        let pieces = &pos.pieces[a.index()];
        if step.from == HOME {
            return Err(Illegal::AtHome);
        }
        let there = pieces.iter().filter(|p| **p & !MOVED == step.from).count() as u8;
        let unmoved = pieces.iter().filter(|p| **p == step.from).count() as u8;
        if there == 0 {
            return Err(Illegal::NoPiece {
                colour: a,
                progress: step.from,
            });
        }
        if unmoved == 0 {
            return Err(Illegal::AlreadyMoved);
        }
        // Is (from, pieces) one of the units?
        let mut unit = None;
        let mut sizes = Vec::new();
        for_each_unit(node, |u| {
            if u.from == step.from {
                sizes.push(u);
                if u.size == step.pieces && (u.group_pair == (step.dice == 2)) {
                    unit = Some(u);
                }
            }
        });
        let unit = match unit {
            Some(u) => u,
            None => {
                if step.from == START && step.pieces > 1 {
                    return Err(Illegal::OneAtATime);
                }
                if step.pieces == 0 || step.pieces > there {
                    return Err(Illegal::BadSize {
                        pieces: step.pieces,
                        there,
                    });
                }
                if pos.rules.stacking == Stacking::Group {
                    return Err(Illegal::GroupNeedsPair);
                }
                if pos.is_block(a, step.from) {
                    return Err(Illegal::BlockMovesApart);
                }
                return Err(Illegal::StackMovesWhole { size: there });
            }
        };
        // Is the distance on offer?
        let mut offered = false;
        for_each_distance(node, &unit, |by, dice| {
            offered |= by == step.by && dice == step.dice
        });
        if !offered {
            return Err(if node.total_mode() {
                Illegal::PartTooBig {
                    by: step.by,
                    left: node.pips,
                }
            } else if step.dice == 2 {
                Illegal::NoPair { by: step.by }
            } else {
                Illegal::NoSuchDie { by: step.by }
            });
        }
        let obs = obstacles(pos, a);
        let (to, _, own) = check_move(node, &obs, &unit, step.by)?;
        if to != step.to {
            return Err(Illegal::WrongDestination { to });
        }
        let needs = needs_declaration(pos, unit.size, own, to);
        if needs != step.declare.is_some() {
            return Err(Illegal::Declare { needed: needs });
        }
        Ok(())
    }

    /// Takes a step; on error nothing changes.
    pub fn step(&mut self, step: Step) -> Result<(), Illegal> {
        let child = self.check(&step)?;
        self.history.push((step, self.node));
        self.node = child.settle();
        Ok(())
    }

    /// Takes back the last step.
    pub fn undo(&mut self) -> Option<Step> {
        let (s, n) = self.history.pop()?;
        self.node = n;
        Some(s)
    }

    /// Ends the turn and returns the play, or why it may not end yet.
    pub fn finish(&self) -> Result<Play, Illegal> {
        if !self.can_end() {
            return Err(Illegal::MustUseMore);
        }
        Ok(Play {
            steps: self.steps(),
            position: ended(&self.node),
        })
    }

    /// Every distinct complete play that begins with the steps taken so far
    /// (each listed once by its resulting position, with all its steps, the
    /// taken ones first). At the start of the turn these are the plays of
    /// [`legal_plays`]. What a hint ranks in the middle of a turn.
    pub fn completions(&self) -> Vec<Play> {
        let mut walk = Walk {
            memo: FxHashMap::default(),
            seen: FxHashSet::default(),
            results: FxHashSet::default(),
            path: self.steps(),
            out: Vec::new(),
        };
        self.walk(self.node, &mut walk);
        walk.out
    }

    fn walk(&self, node: Node, w: &mut Walk) {
        if !w.seen.insert(node) {
            return;
        }
        if self.ends_at(&node, w.path.is_empty()) {
            let position = ended(&node);
            if w.results.insert(position) {
                w.out.push(Play {
                    steps: w.path.clone(),
                    position,
                });
            }
        }
        let mut steps = Vec::new();
        for_each_step(&node, |s| steps.push(s));
        for s in steps {
            let child = apply(&node, &s);
            if self.qualifies(&child, &mut w.memo) {
                w.path.push(s);
                self.walk(child.settle(), w);
                w.path.pop();
            }
        }
    }
}

/// The state of [`Turn::completions`]' search.
struct Walk {
    memo: FxHashMap<Node, bool>,
    seen: FxHashSet<Node>,
    results: FxHashSet<Position>,
    path: Vec<Step>,
    out: Vec<Play>,
}

/// Applies a whole play given as steps to a position with a throw, checking every
/// step; the result is the position after the play.
pub fn apply_play(
    pos: &Position,
    throw: Throw,
    steps: &[Step],
) -> Result<Position, (usize, Illegal)> {
    let mut turn = Turn::new(pos, throw).map_err(|e| {
        (
            0,
            match e {
                PlayError::GameOver => Illegal::GameOver,
                PlayError::Throw(_) => Illegal::NoSuchDie { by: 0 },
            },
        )
    })?;
    for (i, s) in steps.iter().enumerate() {
        turn.step(*s).map_err(|e| (i, e))?;
    }
    turn.finish()
        .map(|p| p.position)
        .map_err(|e| (steps.len(), e))
}
