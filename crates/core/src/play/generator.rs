//! [`Generator`]: every distinct legal play of a position and a throw, by a
//! depth-first search over steps (the reference search), or by the fastest
//! listing that covers the turn (plans, split-total sharings, the lean search
//! of `dice`), all giving the same plays in the same order. It keeps its
//! buffers from one call to the next.

use std::cell::{OnceCell, RefCell};

use crate::board::{self, HOME};
use crate::dice::Throw;
use crate::position::{pieces_word, with_lane, Position};
use crate::rules::{Finished, Stacking};
use crate::step::{Declare, Step};
use crate::Colour;

use super::alive::Alive;
use super::apply::{apply_among, end_key, finish_in, mark_dead};
use super::dice::{DicePath, DiceSearch};
use super::keys::{EndKeys, NodeKeys};
use super::node::{broken, overdue, Node, Part, Usage};
use super::obstacles::ObstacleCache;
use super::plans::{PlanStart, Plans};
use super::split_total::total_fast;
use super::steps::{for_each_step_remembered, for_each_step_with, has_any_step_with, StepMemo};
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

/// A play found: where its steps start in [`Generator`]'s list and how many,
/// and what its end position is made from (see [`super::apply::finish_in`]).
#[derive(Clone, Copy)]
pub(super) struct Listed {
    /// Where the steps start in the list, or with [`SHORT`] in `len`, the
    /// index of the play's steps in the short plays' list.
    start: u32,
    len: u32,
    actor: Colour,
    captured_any: bool,
    /// The node's position, with the turn's marks.
    pos: Position,
}

/// A filler for the unused steps of a short play.
pub(super) const NO_STEP: Step = Step {
    colour: Colour::Yellow,
    from: 0,
    to: 0,
    pieces: 0,
    by: 0,
    dice: 0,
    declare: None,
};

/// The flag in a [`Listed`] play's `len` saying that its steps are a short
/// play's (see [`Generator::push_short`]).
const SHORT: u32 = 1 << 31;

/// The flag in a [`Listed`] play's `len` saying that its steps are a plan's,
/// made when first asked for (see [`Generator::push_plan`]).
const PLAN: u32 = 1 << 30;

/// What the quiet steps of a node leave as it is, for the plays they end: the
/// blocks and the tail of the plays' end keys (see [`end_key`]), and how many
/// overdue blocks are broken.
#[derive(Clone, Copy, Default)]
pub(super) struct Ends {
    blocks: u128,
    tail: u64,
    broken: u8,
}

/// Lists legal plays, reusing its memory from one call to the next.
#[derive(Default)]
pub struct Generator {
    /// The nodes searched this turn, by key.
    pub(super) seen: NodeKeys,
    /// The obstacles last computed.
    pub(super) obstacles: ObstacleCache,
    /// The fast search of `throw=dice` plays: what it keeps.
    pub(super) dice: DiceSearch,
    /// The steps from the start of the turn to the node that search is at.
    pub(super) dice_path: DicePath,
    /// What the quiet steps of the start leave as it is (see `ends`), and
    /// of every node that differs from it only in the mover's pieces and
    /// the dice left.
    pub(super) start_ends: Ends,
    /// The steps of the nodes on that search's path, each node's after its
    /// parent's.
    pub(super) dice_words: super::dice::WordStack,
    /// The checks of steps made in this listing, by obstacle table.
    memo: StepMemo,
    /// The steps of the nodes on the search path, each node's after its parent's.
    children: Vec<Step>,
    /// Per node on the search path, the steps that would only reach nodes an
    /// earlier branch has searched (see [`commute`]), each node's after its parent's.
    pub(super) earlier: Vec<u64>,
    /// The [`packed`] words of `children`, when the search skips repeated orders.
    words: Vec<u64>,
    /// Whether the search skips those steps (not in the reference search).
    prune: bool,
    /// The keys of the positions the plays found lead to.
    pub(super) found: EndKeys,
    /// Listing by plans: what it keeps.
    pub(super) plans: Plans,
    /// The steps from the start of the turn to the node searched.
    pub(super) path: Vec<Step>,
    steps: Vec<Step>,
    /// The steps of the plays kept by [`Generator::push_short`].
    shorts: Vec<[Step; 4]>,
    /// The plays kept by [`Generator::push_plan`]: their steps, made when
    /// first asked for (most callers of a random play read one of many),
    /// and how to make them (see `Plans::steps_of`).
    planned: Vec<(OnceCell<[Step; 4]>, u32)>,
    /// Per play: its steps in `steps` and the node it ends at.
    pub(super) plays: Vec<Listed>,
    /// Where the plays start when they are a listing by plans, read from
    /// `plans` instead of `plays` (see `Generator::list_plans`).
    pub(super) by_plans: Option<PlanStart>,
    /// Per play of a listing by plans: its steps, made when first asked
    /// for; and the plays whose cells hold steps (only they are emptied
    /// for the next listing).
    plan_steps: Vec<OnceCell<[Step; 4]>>,
    plan_steps_read: RefCell<Vec<u32>>,
    /// Per play: the position after it (the turn ended, a dead game marked), made
    /// when first asked for (most callers of a random play read one of many).
    ended: Vec<OnceCell<Position>>,
    /// The plays whose cells in `ended` hold a position: only they are
    /// emptied for the next listing (most callers of a random play read one
    /// of a hundred).
    read: RefCell<Vec<u32>>,
    /// The position the listing starts from.
    start: Option<Position>,
    /// A step that keeps the game alive after most plays (see `alive`), found
    /// when a play's position is first read.
    alive: OnceCell<Option<Alive>>,
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
        let node = Node::begin(pos, throw)?;
        let wrapped = self.obstacles.reset();
        // The thrower's obstacles are the search's first table: found once
        // (`Node::settle` would find them for itself).
        let cache = &mut self.obstacles;
        let node = node.settle_by(|n| has_any_step_with(n, cache.table(n).1));
        self.start = Some(*pos);
        self.alive = OnceCell::new();
        self.seen.begin(node.key(), node.actor.index());
        self.found.begin(end_key(&node), node.actor.index());
        self.path.clear();
        self.children.clear();
        self.earlier.clear();
        self.words.clear();
        self.dice_words.truncate(0);
        self.prune = fast;
        if wrapped {
            self.memo = StepMemo::default();
        }
        self.steps.clear();
        self.shorts.clear();
        self.planned.clear();
        self.plays.clear();
        self.by_plans = None;
        self.best = None;
        self.start_overdue = overdue(pos);
        self.mover = pos.to_move;
        let by_total = fast && total_fast(&node);
        if by_total {
            self.search_total(&node);
        } else if fast && self.list_plans(&node) {
        } else if fast && !node.total_mode() {
            self.dice.start(node.dice, wrapped);
            self.dice_path = DicePath::default();
            self.start_ends = self.ends(&node);
            let mask = self.dice.mask_of(node.dice);
            self.search_dice(&node, mask, 0..0);
        } else {
            self.search(&node, 0..0);
        }
        if node.part == Part::ForFinished && pos.rules.finished == Finished::PartnerMay {
            self.decline(&node);
        }
        for &i in self.read.get_mut().iter() {
            if let Some(cell) = self.ended.get_mut(i as usize) {
                cell.take();
            }
        }
        self.read.get_mut().clear();
        for &i in self.plan_steps_read.get_mut().iter() {
            if let Some(cell) = self.plan_steps.get_mut(i as usize) {
                cell.take();
            }
        }
        self.plan_steps_read.get_mut().clear();
        let n = self.len();
        if self.ended.len() < n {
            self.ended.resize_with(n, OnceCell::new);
        }
        if self.by_plans.is_some() && self.plan_steps.len() < n {
            self.plan_steps.resize_with(n, OnceCell::new);
        }
        Ok(n)
    }

    /// Adds the play where the partner declines a finished player's throw
    /// (`node`, the listing's start), if no play ends where it does.
    #[cold]
    fn decline(&mut self, node: &Node) {
        if self.found.insert(end_key(node)) {
            self.plays.push(Listed {
                start: self.steps.len() as u32,
                len: 0,
                actor: node.actor,
                captured_any: node.captured_any,
                pos: node.pos,
            });
        }
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
        if self.new_leaf(node) {
            self.record(node.pos, node, last);
        }
    }

    /// Whether the play ending at `node` is kept: it uses the throw as well as
    /// the best, and no play found before ends where it does.
    #[inline(always)]
    pub(super) fn new_leaf(&mut self, node: &Node) -> bool {
        let usage = self.leaf_usage(node);
        self.admit(usage) && self.found.insert(end_key(node))
    }

    /// How the play ending at `node` uses the throw: dice, pips and the
    /// overdue blocks it breaks.
    #[inline(always)]
    pub(super) fn leaf_usage(&self, node: &Node) -> Usage {
        let mover = self.mover.unwrap_or(node.actor);
        (
            node.used_dice,
            node.used_pips,
            broken(&self.start_overdue, node, mover),
        )
    }

    /// Whether a play using the throw as `usage` says is kept: as well as the
    /// best so far; a better one forgets the plays found before it.
    #[inline]
    pub(super) fn admit(&mut self, usage: Usage) -> bool {
        match self.best {
            Some(b) if usage < b => false,
            Some(b) if usage == b => true,
            _ => {
                self.best = Some(usage);
                self.found.clear();
                self.steps.clear();
                self.shorts.clear();
                self.planned.clear();
                self.plays.clear();
                true
            }
        }
    }

    /// Keeps a new play: the path and `last`, ending at `pos` (the position of
    /// a node like `node`: the same actor and captures).
    #[inline]
    pub(super) fn record(&mut self, pos: Position, node: &Node, last: &[Step]) {
        let start = self.steps.len();
        self.steps.extend_from_slice(&self.path);
        self.steps.extend_from_slice(last);
        self.plays.push(Listed {
            start: start as u32,
            len: (self.path.len() + last.len()) as u32,
            actor: node.actor,
            captured_any: node.captured_any,
            pos,
        });
    }

    /// Keeps a play found without a search path, ending at `node`'s
    /// position (before the end of the turn) as `fill` changes it;
    /// `captured_any`: whether the turn captured. `fill` writes the play's
    /// steps (at most four, over `NO_STEP`s) and changes its position in
    /// place, and says how many steps: built on the stack first, they would
    /// be read back in wide words that wait for the narrow writes just made
    /// to land. The steps are kept in a list of fixed-size entries (a plain
    /// copy instead of a growing list's call to `memcpy`).
    #[inline(always)]
    pub(super) fn push_short(
        &mut self,
        node: &Node,
        captured_any: bool,
        fill: impl FnOnce(&mut [Step; 4], &mut Position) -> usize,
    ) {
        self.plays.push(Listed {
            start: self.shorts.len() as u32,
            len: SHORT,
            actor: node.actor,
            captured_any,
            pos: node.pos,
        });
        // (Zero bytes, written where they are kept.)
        self.shorts.push([NO_STEP; 4]);
        if let (Some(steps), Some(play)) = (self.shorts.last_mut(), self.plays.last_mut()) {
            let len = fill(steps, &mut play.pos).min(4);
            play.len = len as u32 | SHORT;
        }
    }

    /// Keeps a play of a plan (its steps made only when asked for, from
    /// `recipe`: see `Plans::steps_of`, with `len` steps), ending at
    /// `node`'s position (before the end of the turn) as `fill` changes it;
    /// `captured_any`: whether the turn captured.
    #[inline(always)]
    pub(super) fn push_plan(
        &mut self,
        node: &Node,
        captured_any: bool,
        recipe: u32,
        len: usize,
        fill: impl FnOnce(&mut Position),
    ) {
        self.plays.push(Listed {
            start: self.planned.len() as u32,
            len: PLAN | len.min(3) as u32,
            actor: node.actor,
            captured_any,
            pos: node.pos,
        });
        self.planned.push((OnceCell::new(), recipe));
        if let Some(play) = self.plays.last_mut() {
            fill(&mut play.pos);
        }
    }

    /// What a node's quiet steps (see `dice`) leave as it is, for the plays
    /// they end. (Out of line: the each-die search asks for it only below a
    /// capture or a block, and its code stays smaller without it.)
    #[inline(never)]
    pub(super) fn ends(&self, node: &Node) -> Ends {
        let (_, blocks, tail) = end_key(node);
        Ends {
            blocks,
            tail,
            broken: self.leaf_usage(node).2,
        }
    }

    /// [`Generator::leaf_after`] for a quiet `step` from `node` that ends the
    /// play, leaving the actor's pieces as `pieces` (`throw=dice`): the key of
    /// the play is made without making its node (none at all where `node`
    /// differs from the start only in the mover's pieces and the dice left,
    /// `start`: the play is kept by the mover's pieces, see [`EndKeys`]).
    #[inline]
    pub(super) fn quiet_leaf(
        &mut self,
        node: &Node,
        ends: &Ends,
        pieces: [u8; 4],
        step: Step,
        start: bool,
    ) {
        let usage = (
            node.used_dice + step.dice,
            node.used_pips + step.by,
            ends.broken,
        );
        if !self.admit(usage) {
            return;
        }
        let ai = node.actor.index();
        let new = if start {
            self.found.insert_moving(u32::from_le_bytes(pieces))
        } else {
            let all = with_lane(
                pieces_word(&node.pos.pieces),
                ai,
                u32::from_le_bytes(pieces),
            );
            self.found.insert((all, ends.blocks, ends.tail))
        };
        if !new {
            return;
        }
        let path = self.dice_path;
        self.push_short(node, node.captured_any, |steps, pos| {
            pos.pieces[ai] = pieces;
            path.write(steps, Some(step))
        });
    }

    /// [`Generator::leaf_after`] in the `throw=dice` search, whose path is
    /// `dice_path`, with one more step `last` if there is one.
    pub(super) fn dice_leaf(&mut self, node: &Node, last: Option<Step>) {
        if self.new_leaf(node) {
            let path = self.dice_path;
            self.push_short(node, node.captured_any, |steps, _| path.write(steps, last));
        }
    }

    /// Number of plays found by the last [`Generator::generate`].
    pub fn len(&self) -> usize {
        match self.by_plans {
            Some(_) => self.plans.len(),
            None => self.plays.len(),
        }
    }

    /// Whether the last generation found no play (never: an empty play is a play).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The steps of play `i`.
    pub fn steps(&self, i: usize) -> &[Step] {
        if let Some(start) = &self.by_plans {
            return self.plan_play_steps(i, start);
        }
        let p = &self.plays[i];
        if p.len & SHORT != 0 {
            return &self.shorts[p.start as usize][..(p.len & !SHORT) as usize];
        }
        if p.len & PLAN != 0 {
            let (cell, recipe) = &self.planned[p.start as usize];
            let steps = cell.get_or_init(|| self.plans.steps_of(*recipe, p.actor));
            return &steps[..(p.len & !PLAN) as usize];
        }
        &self.steps[p.start as usize..(p.start + p.len) as usize]
    }

    /// [`Generator::steps`] of play `i` of a listing by plans, which start
    /// at `start`.
    #[inline(never)]
    fn plan_play_steps<'a>(&'a self, i: usize, start: &PlanStart) -> &'a [Step] {
        let (recipe, len) = self.plans.recipe_of(i);
        let cell = &self.plan_steps[i];
        if cell.get().is_none() {
            self.plan_steps_read.borrow_mut().push(i as u32);
        }
        let steps = cell.get_or_init(|| self.plans.steps_of(recipe, start.actor()));
        &steps[..len.min(4)]
    }

    /// The position after play `i`.
    pub fn position(&self, i: usize) -> &Position {
        let cell = &self.ended[i];
        if let Some(position) = cell.get() {
            return position;
        }
        if let Some(start) = &self.by_plans {
            return self.plan_position(i, start);
        }
        // Most plays' positions are read once, so making one is the usual
        // path here (not the cold one of `get_or_init`).
        let p = &self.plays[i];
        let mut position = p.pos;
        finish_in(&mut position, p.actor, p.captured_any);
        let alive = self
            .alive
            .get_or_init(|| self.start.as_ref().and_then(Alive::at));
        if !alive.is_some_and(|a| a.holds(&position)) {
            mark_dead(&mut position);
        }
        // The cell was empty, so it takes the position and holds it (the
        // play's unfinished position is never what this returns).
        let _ = cell.set(position);
        self.read.borrow_mut().push(i as u32);
        cell.get().unwrap_or(&p.pos)
    }

    /// [`Generator::position`] of play `i` of a listing by plans, which
    /// start at `start`. (It ends as `position` does, written out again:
    /// through a helper of the two, the other plays' positions took 0.8%
    /// more instructions.)
    #[inline(never)]
    fn plan_position<'a>(&'a self, i: usize, start: &'a PlanStart) -> &'a Position {
        let cell = &self.ended[i];
        let (mut position, captured_any) = self.plans.end_of(i, start);
        finish_in(&mut position, start.actor(), captured_any);
        let alive = self
            .alive
            .get_or_init(|| self.start.as_ref().and_then(Alive::at));
        if !alive.is_some_and(|a| a.holds(&position)) {
            mark_dead(&mut position);
        }
        let _ = cell.set(position);
        self.read.borrow_mut().push(i as u32);
        cell.get().unwrap_or(start.position())
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
