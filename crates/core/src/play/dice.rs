//! The fast search of plays where each die moves on its own (`throw=dice`): the
//! reference search's plays, in its order and with its steps, for less work.
//!
//! It walks the same tree as [`Generator::generate_reference`]: at every node
//! the same steps in the same order (units by progress, then their kinds, then
//! the distances largest first, a super-piece declared before a block), and the
//! first path to every play is the one kept. What it does not do again:
//!
//! - The dice left are a mask over the throw's three dice, and what each mask
//!   offers (its distinct dice, its equal pair) is listed once per listing.
//! - Each unit's step for each distance is remembered in a table indexed by
//!   the unit and the distance, valid while the obstacle table is the same
//!   (the start's table apart from those made deeper, so that the start's
//!   steps are still there when a capture's or a block's subtree is done).
//! - A *quiet* step (it lands where no enemy stands and neither makes nor
//!   leaves a block) changes only the actor's pieces and the dice: the node
//!   it leads to is made by moving the pieces, not by applying the step in full.
//! - The second order of two independent steps is not searched (see
//!   [`commute`]): the node it reaches is one an earlier branch searched.
//!   After a quiet step, a step independent of it whose unit stands further
//!   back was listed before it by the parent: one comparison skips it. Other
//!   second orders are marked as the search goes down, except under the
//!   start's table, where a node is kept by the mover's pieces and the dice
//!   left and the set of nodes met recognises them for less.
//! - A node with one die left (most nodes) takes its steps as it finds
//!   them, each ending a play ([`Generator::last_die`]).
//! - A block declared by a step that would be quiet without it, with one
//!   die left, changes nothing a step depends on but the block's square:
//!   the child takes its parent's remembered steps with the block put in
//!   their way ([`Table::with_block`]) instead of a table of its own.
//!
//! `tests/fast_paths.rs` checks it against the reference search, play for play
//! and step for step, under many options.

use core::ops::Range;

use crate::board::{self, HOME, START};
use crate::position::sort4;
use crate::rules::{Blockade, Split, Stacking};
use crate::step::{Declare, Step};
use crate::Colour;

use super::apply::{apply_among, bytes_equal, equal_bytes, replace_first};
use super::generator::{Ends, Generator, NO_STEP};
use super::node::Node;
use super::obstacles::Obstacles;
use super::steps::{destination, passed, Unit};
use super::FRESH;

/// A step in one word for quick comparison inside one search: its fields in
/// the low seven bytes (colour, from, to, pieces, by, dice, declaration), and
/// in the top byte whether it is quiet ([`QUIET`]).
type Word = u64;

/// The flag of a [`Word`] whose step is quiet: it lands where no enemy stands
/// (alone, or beside the partner's pieces), so it captures nothing, and it
/// neither declares nor leaves a block (declaring a super-piece is quiet).
/// It changes nothing but the actor's pieces and the dice.
const QUIET: u8 = 1;

/// The flag of a [`Word`] declaring a block whose step would be quiet
/// without the declaration (see [`declared`]).
const PLAIN: u8 = 1 << 3;

/// The fields of a [`Word`], without the flag.
const FIELDS: Word = (1 << 56) - 1;

/// The byte of a [`Word`]'s declaration.
const NO_DECLARATION: u8 = 0;
const SUPER: u8 = 1;
const BLOCK: u8 = 2;

/// A [`Word`] without a declaration with the declaration `declare`
/// ([`SUPER`] or [`BLOCK`]): declaring a super-piece only moves the
/// pieces, so the step stays as quiet as it was; a block never is quiet
/// (it is kept apart from the pieces, `Position::blocks`), and is
/// [`PLAIN`] where the step was.
#[inline]
fn declared(w: Word, declare: u8) -> Word {
    let mut b = w.to_le_bytes();
    b[6] = declare;
    if declare == BLOCK && b[7] & QUIET != 0 {
        b[7] = b[7] & !QUIET | PLAIN;
    }
    Word::from_le_bytes(b)
}

/// Whether two [`Word`]s of one node are independent: either order applies both
/// and reaches the same node, and each stays legal after the other. They are
/// when both are quiet and they move different pieces and neither lands where
/// the other starts or ends. The search skips the second order, whose node the
/// first already reached: the plays and their order are those of the plain
/// search.
#[inline]
fn commute(a: Word, b: Word) -> bool {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let (from_a, to_a, from_b, to_b) = (a[1], a[2], b[1], b[2]);
    a[7] & b[7] & QUIET != 0 && from_a != from_b && to_a != to_b && from_a != to_b && to_a != from_b
}

/// Whether the quiet step `w` of a node reached by the quiet step from
/// `last_from` to `last_to` was listed by the parent before that step and is
/// independent of it (see [`commute`]): its unit stands further back (a
/// node lists its units by progress), and neither lands where the other
/// starts or ends. The parent's search of that order met first what `w`
/// reaches now.
#[inline(always)]
fn listed_before(w: Word, last_from: u8, last_to: u8) -> bool {
    let [_, from, to, ..] = w.to_le_bytes();
    // Each test evaluated (`&`, not `&&`): one branch on the answer.
    (from < last_from) & (to != last_from) & (from != last_to) & (to != last_to)
}

/// Whether the step `w` of `node`, not quiet, taken after the quiet step
/// from `last_from` to `last_to` (the step that reached `node`), reaches
/// what their parent reached first: `w` was listed before that step by the
/// parent, neither lands where the other starts or ends ([`listed_before`]),
/// and `w` changes nothing the other depends on. Then the parent searched
/// `w` first, and below it the other step was the same step to the same
/// node. So it is for
///
/// - a block declared by a step that would be quiet without it ([`PLAIN`]),
///   where the other step does not pass the block's square;
/// - a step that declares nothing and leaves no block, not quiet only for
///   landing on enemies: a capture changes nothing the other step depends on
///   (captured pieces leave the board for the Charkoni, a block is never
///   captured, and the colour's way round the loop changes with its first
///   capture only for a step that goes round the loop's end: the other did
///   not, or the colour has captured before).
///
/// (Out of line: it is asked only of steps that are not quiet.)
#[inline(never)]
fn met_before<const K: u8>(node: &Node, w: Word, last_from: u8, last_to: u8) -> bool {
    let [_, from, q, _, _, _, declare, flags] = w.to_le_bytes();
    if !listed_before(w, last_from, last_to) {
        return false;
    }
    let (pos, a) = (&node.pos, node.actor);
    if declare == BLOCK {
        // Along the way from `last_from` to `last_to` (round the loop's end
        // where `last_to` is less: then every square but those between is
        // counted as passed, more than the way holds).
        let passes = if last_from < last_to {
            (last_from < q) & (q < last_to)
        } else {
            (q > last_from) | (q < last_to)
        };
        flags & PLAIN != 0 && !passes
    } else {
        declare == NO_DECLARATION
            && (pos.captured.has(a) || last_from < last_to)
            && !(stacks::<K>(DECLARE) && pos.is_block(a, from))
    }
}

/// Room for the steps of the nodes on one path of the search: a node lists
/// at most 24 (at most 4 units, each with at most 3 dice, each twice where
/// it may declare; a group's pair is one step), and at most 3 nodes on a
/// path list any (one for each number of dice left: a node that passes the
/// dice to the partner lists none itself).
const WORDS: usize = 256;

/// The steps of the nodes on the search's path, each node's after its
/// parent's: a fixed stack, indexed without a bound to check (an index is
/// taken modulo its size, which the bound above never reaches).
pub(super) struct WordStack {
    words: [Word; WORDS],
    len: usize,
}

impl Default for WordStack {
    fn default() -> Self {
        WordStack {
            words: [0; WORDS],
            len: 0,
        }
    }
}

impl WordStack {
    /// Puts a step on top.
    #[inline(always)]
    fn push(&mut self, w: Word) {
        debug_assert!(self.len < WORDS, "more steps on a path than a search makes");
        self.words[self.len % WORDS] = w;
        self.len += 1;
    }

    /// The step at `i`.
    #[inline(always)]
    fn get(&self, i: usize) -> Word {
        self.words[i % WORDS]
    }

    /// How many steps there are.
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    /// Keeps the first `len` steps.
    #[inline(always)]
    pub(super) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

/// The step a [`Word`] stands for.
#[inline]
fn step_of(w: Word) -> Step {
    let [colour, from, to, pieces, by, dice, declare, _] = w.to_le_bytes();
    Step {
        colour: Colour::from_index(colour as usize),
        from,
        to,
        pieces,
        by,
        dice,
        declare: DECLARATIONS[usize::from(declare & 3)],
    }
}

/// The declaration of a [`Word`]'s byte (of its low two bits: the byte is
/// [`NO_DECLARATION`], [`SUPER`] or [`BLOCK`]), looked up rather than
/// matched: the byte is then the step's as it is.
const DECLARATIONS: [Option<Declare>; 4] = [None, Some(Declare::Super), Some(Declare::Block), None];

/// The steps from the start of the turn to the node searched: at most
/// three, as each takes a die (a pass to the partner takes none).
#[derive(Clone, Copy)]
pub(super) struct DicePath {
    steps: [Step; 4],
    len: usize,
}

impl Default for DicePath {
    fn default() -> Self {
        DicePath {
            steps: [NO_STEP; 4],
            len: 0,
        }
    }
}

impl DicePath {
    /// Goes one step further.
    #[inline]
    fn push(&mut self, step: Step) {
        let n = self.len.min(3);
        self.steps[n] = step;
        self.len = n + 1;
    }

    /// The last step, if there is one.
    #[inline]
    fn last(&self) -> Option<&Step> {
        self.len.checked_sub(1).and_then(|i| self.steps.get(i))
    }

    /// Comes back one step.
    #[inline]
    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }

    /// Writes the path's steps into `out`, with `last` after them if there
    /// is one; how many.
    #[inline]
    pub(super) fn write(&self, out: &mut [Step; 4], last: Option<Step>) -> usize {
        *out = self.steps;
        match last {
            Some(s) => {
                let n = self.len.min(3);
                out[n] = s;
                n + 1
            }
            None => self.len,
        }
    }
}

/// What the dice left offer, for one mask of the throw's dice.
#[derive(Clone, Copy, Default)]
struct Offer {
    /// The dice left as [`Node::dice`] holds them: largest first, 0 for used.
    dice: [u8; 3],
    /// The distinct dice left, largest first, with their distance slots.
    singles: [(u8, u8); 3],
    /// How many of `singles` there are.
    count: u8,
    /// The sum of an equal pair among the dice left (0 if there is none).
    pair: u8,
    /// Per distance slot, the mask left once that distance is used.
    after: [u8; SLOTS],
}

/// Remembered checks: per unit kind and distance, the obstacle table's
/// generation when it was checked and the unit's step (0: it may not).
const KINDS: usize = 8;
/// Distance slots: the throw's three distinct dice and its equal pair.
const SLOTS: usize = 4;
/// The slot of an equal pair's sum.
const PAIR_SLOT: u8 = 3;
/// Units start at progress 0–83.
const BANK_LEN: usize = 84 * KINDS * SLOTS;
/// Banks of remembered checks: one for the obstacle table of the listing's
/// start, one for those made below it (after a capture, a block made or
/// left, a pass), so that the start's checks outlive its children's. (Four,
/// one a depth, listed no faster and made every `Turn` slower to start: a
/// generator's memory is made anew for each.)
const BANKS: usize = 2;
const MEMO_LEN: usize = BANK_LEN * BANKS;

/// What a listing of `throw=dice` plays keeps between nodes (and between
/// listings, its memory).
#[derive(Default)]
pub(super) struct DiceSearch {
    /// The throw's dice, largest first.
    throw: [u8; 3],
    /// Per mask of the throw's dice (bit i: die i is left), what it offers.
    offers: [Offer; 8],
    /// Per remembered check, the generation it holds for and the step's
    /// word without a declaration (0: not allowed): all it holds but a
    /// declaration is the same for every node under one obstacle table (see
    /// `ObstacleCache`). Side by side, so that the four distances of a unit
    /// share one line of the processor's cache.
    memo: Vec<(u32, Word)>,
    /// The offers of every throw met so far, with its dice (a game meets
    /// the 20 distinct throws of its faces: a short list).
    known: Vec<([u8; 3], [Offer; 8])>,
}

impl DiceSearch {
    /// Prepares for a listing with these dice (largest first). `forget` drops
    /// every remembered check (the generations start again).
    pub(super) fn start(&mut self, dice: [u8; 3], forget: bool) {
        if self.memo.is_empty() {
            self.memo = vec![(u32::MAX, 0); MEMO_LEN];
        } else if forget {
            self.memo.iter_mut().for_each(|s| s.0 = u32::MAX);
        }
        if dice == self.throw {
            return;
        }
        self.throw = dice;
        if let Some((_, offers)) = self.known.iter().find(|(t, _)| *t == dice) {
            self.offers = *offers;
            return;
        }
        let mut distinct = [0u8; 3];
        let mut n = 0;
        for &d in &dice {
            if d != 0 && !distinct[..n].contains(&d) {
                distinct[n] = d;
                n += 1;
            }
        }
        let slot_of = |d: u8| distinct.iter().position(|x| *x == d).unwrap_or(0) as u8;
        // The mask left after using `count` dice of `per` pips from `mask`: the
        // first such dice go, so equal masks mean equal dice left.
        let without = |mut mask: usize, per: u8, count: u8| {
            for _ in 0..count {
                if let Some(i) = (0..3).find(|&i| mask & (1 << i) != 0 && dice[i] == per) {
                    mask &= !(1 << i);
                }
            }
            mask as u8
        };
        for mask in 0..8usize {
            let mut o = Offer::default();
            let mut k = 0;
            for (i, &d) in dice.iter().enumerate() {
                if mask & (1 << i) != 0 && d != 0 {
                    o.dice[k] = d;
                    k += 1;
                }
            }
            let d = o.dice;
            for i in 0..3 {
                if d[i] != 0 && (i == 0 || d[i] != d[i - 1]) {
                    o.singles[o.count as usize] = (d[i], slot_of(d[i]));
                    o.count += 1;
                }
            }
            o.pair = if d[0] != 0 && d[0] == d[1] {
                2 * d[0]
            } else if d[1] != 0 && d[1] == d[2] {
                2 * d[1]
            } else {
                0
            };
            for (slot, &v) in distinct[..n].iter().enumerate() {
                o.after[slot] = without(mask, v, 1);
            }
            if o.pair != 0 {
                o.after[PAIR_SLOT as usize] = without(mask, o.pair / 2, 2);
            }
            self.offers[mask] = o;
        }
        self.known.push((dice, self.offers));
    }

    /// The mask of the throw's dice that `dice` (as a node holds them) leaves.
    pub(super) fn mask_of(&self, dice: [u8; 3]) -> u8 {
        let mut mask = 0u8;
        for &d in dice.iter().filter(|d| **d != 0) {
            for (i, &t) in self.throw.iter().enumerate() {
                if t == d && mask & (1 << i) == 0 {
                    mask |= 1 << i;
                    break;
                }
            }
        }
        mask
    }

    /// The step of a unit with the distance of a slot (`dice` dice), without
    /// a declaration, as a word (0: it may not), remembered under the
    /// generation of `here`'s obstacle table (as its `base` has it).
    #[inline(always)]
    fn remembered(&mut self, here: &Here, unit: &Unit, by: u8, dice: u8, slot: u8) -> Word {
        let kind = (unit.size as usize - 1) * 2 + unit.group_pair as usize;
        let i = here.table.bank + (unit.from as usize * KINDS + kind) * SLOTS + slot as usize;
        if let Some(&(stamp, w)) = self.memo.get(i) {
            if stamp == here.table.generation {
                return w;
            }
        }
        let w = match destination(here.table.base, here.table.obstacles, unit, by) {
            Some(to) if to != 0 => here.word(unit, to, by, dice, slot),
            _ => 0,
        };
        if let Some(slot) = self.memo.get_mut(i) {
            *slot = (here.table.generation, w);
        }
        w
    }

    /// [`DiceSearch::remembered`] as `here`'s table has it, with its block
    /// where `B` says it may have one (see [`Table::with_block`]; the
    /// search's own nodes never do, and do not ask).
    #[inline(always)]
    fn check<const B: bool>(
        &mut self,
        here: &Here,
        unit: &Unit,
        by: u8,
        dice: u8,
        slot: u8,
    ) -> Word {
        let w = self.remembered(here, unit, by, dice, slot);
        match here.table.block {
            q if B && q != 0 => with_block(w, unit.from, q, here.table.block_stops),
            _ => w,
        }
    }
}

/// An obstacle table as the search uses it. A quiet step's child uses its
/// parent's.
#[derive(Clone, Copy)]
struct Table<'a> {
    /// Its generation (see `ObstacleCache`).
    generation: u32,
    obstacles: &'a Obstacles,
    /// The squares where the actor's enemies stand: the obstacles' `others`
    /// without the partner's (landing beside a partner changes nothing).
    foes: u128,
    /// Where its bank of remembered steps starts.
    bank: usize,
    /// Whether the nodes that use it differ from the listing's start only in
    /// the mover's pieces and the dice left (it is the start's table, kept
    /// through quiet steps): they are remembered by those alone (see
    /// [`NodeKeys`]).
    start: bool,
    /// A node of the table as its generation holds it: its steps are the
    /// ones remembered (see [`Table::with_block`]).
    base: &'a Node,
    /// A block of the actor's that `obstacles` does not hold, declared by a
    /// step that was quiet without it (its progress; 0: none, as a block
    /// never stands in the Charkoni): see [`Table::with_block`].
    block: u8,
    /// Whether that block stops the steps that would pass it
    /// (`blockade=block`; landing on it no step may).
    block_stops: bool,
}

impl<'a> Table<'a> {
    /// The table of `node`'s own obstacles (copied out of the cache, with
    /// their `generation`), `depth` steps into the listing: its remembered
    /// steps go to the start's bank at the start and to the other below it
    /// (a start that passes needs its own no more).
    #[inline(always)]
    fn own(
        node: &'a Node,
        generation: u32,
        obstacles: &'a Obstacles,
        depth: usize,
        start: bool,
    ) -> Table<'a> {
        Table {
            generation,
            obstacles,
            foes: foes(node, obstacles.others),
            bank: depth.min(BANKS - 1) * BANK_LEN,
            start,
            base: node,
            block: 0,
            block_stops: false,
        }
    }

    /// The table of the child of one of this table's nodes where a single
    /// of the actor's landed on another and declared a block at `q`, a
    /// step quiet but for the declaration ([`PLAIN`]): nothing else that a
    /// step depends on changed (no enemy moved, no block was left, no
    /// capture), so the child's steps are this table's remembered ones
    /// with the block put in their way ([`with_block`]), and the child
    /// makes no table of its own, nor checks its steps afresh.
    #[inline(always)]
    fn with_block(self, q: u8) -> Table<'a> {
        Table {
            start: false,
            block: q,
            block_stops: self.base.pos.rules.blockade == Blockade::Block,
            ..self
        }
    }
}

/// The step `w` of a unit at `from` as a [`Table::with_block`] at `q` has
/// it, from the step without the block: a piece of the block leaves it
/// (so the step is no longer quiet), no step may land on it, and where
/// blocks stop the way (`stops`) none may pass it.
#[inline(always)]
fn with_block(w: Word, from: u8, q: u8, stops: bool) -> Word {
    if from == q {
        return w & !(Word::from(QUIET) << 56);
    }
    let [_, _, to, _, by, ..] = w.to_le_bytes();
    // Where a step went round the loop's end, it lands short of where it
    // started.
    let passes = (passed(from, by, to < from) >> q) & 1 != 0;
    if (passes & stops) | (to == q) {
        0
    } else {
        w
    }
}

/// What the steps of one node share.
struct Here<'a> {
    node: &'a Node,
    table: Table<'a>,
    /// The actor's colour as a step's first byte.
    colour: u8,
    /// The actor's pieces.
    pieces: [u8; 4],
    /// Whether landing on a single of one's own declares (`stacking=declare`).
    declares: bool,
}

impl Here<'_> {
    /// The word of a unit's step to `to` by `by` (`slot`) with `dice` dice,
    /// without a declaration (see [`declared`]).
    #[inline(always)]
    fn word(&self, unit: &Unit, to: u8, by: u8, dice: u8, slot: u8) -> Word {
        let a = self.node.actor;
        let alone = to == HOME || (self.table.foes >> board::sq(a.index(), to)) & 1 == 0;
        let blocks = self.declares && self.table.base.pos.is_block(a, unit.from);
        let quiet = if alone && !blocks { QUIET } else { 0 };
        u64::from_le_bytes([
            self.colour,
            unit.from,
            to,
            unit.size,
            by,
            dice,
            NO_DECLARATION,
            quiet | slot << 1,
        ])
    }
}

impl DiceSearch {
    /// Adds the steps of `unit` with the dice `offer` holds to `out`.
    #[inline(always)]
    fn unit_steps(&mut self, here: &Here, offer: &Offer, unit: Unit, out: &mut WordStack) {
        let mut push = |w: Word| out.push(w);
        if unit.group_pair {
            if offer.pair != 0 {
                let w = self.check::<false>(here, &unit, offer.pair, 2, PAIR_SLOT);
                if w != 0 {
                    // A group never lands on a single to declare.
                    push(w);
                }
            }
            return;
        }
        for &(by, slot) in &offer.singles[..offer.count as usize] {
            let w = self.check::<false>(here, &unit, by, 1, slot);
            if w == 0 {
                continue;
            }
            let to = w.to_le_bytes()[2];
            if here.declares && lands_on_single(here.pieces, unit.size, to) {
                push(declared(w, SUPER));
                push(declared(w, BLOCK));
            } else {
                push(w);
            }
        }
    }
}

/// The squares among `others` (where pieces of other colours stand) that hold
/// enemies of the node's actor: all but the partner's.
#[inline]
fn foes(node: &Node, others: u128) -> u128 {
    let pos = &node.pos;
    let partner = node.actor.partner();
    if !pos.teams || others == 0 || !pos.present.has(partner) {
        return others;
    }
    let pi = partner.index();
    let theirs = pos.pieces[pi]
        .iter()
        .fold(0u128, |m, &p| m | board::square_bit(pi, p));
    // Partners never share a square with enemies.
    others & !theirs
}

/// How many of `pieces` stand at `p`, without a branch on where they stand
/// (which the processor cannot foresee).
#[inline(always)]
fn count_at(pieces: [u8; 4], p: u8) -> usize {
    // One bit a byte, summed into the top byte.
    (((equal_bytes(u32::from_le_bytes(pieces), p) >> 7).wrapping_mul(0x0101_0101)) >> 24) as usize
}

/// Whether a step of `size` pieces to `to` is a single landing on a single
/// of its own (`stacking=declare`: the player declares a super-piece or a
/// block), among the actor's `pieces`. Each test evaluated, one branch on
/// the answer (which the processor cannot foresee).
#[inline(always)]
fn lands_on_single(pieces: [u8; 4], size: u8, to: u8) -> bool {
    let there = bytes_equal(u32::from_le_bytes(pieces), to);
    (size == 1) & (to != HOME) & (there != 0) & (there & there.wrapping_sub(1) == 0)
}

/// Whether no two of the sorted `pieces` stand on one square (the
/// Charkoni and home are not squares): each unit is then one piece, with no
/// stack, group or block among them.
#[inline(always)]
fn all_single(pieces: [u8; 4]) -> bool {
    // Byte i of `next` is piece i + 1: a byte of `x ^ next` is 0 where a
    // piece stands where the next does (the top byte compares with nothing).
    let x = u32::from_le_bytes(pieces);
    let next = x >> 8 | 0xff00_0000;
    let shared = equal_bytes(x ^ next, 0) & !equal_bytes(x, START) & !equal_bytes(x, HOME);
    shared == 0
}

/// The actor's pieces after a quiet step: `size` of those at `from` go to
/// `to` (see [`replace_first`]).
#[inline]
fn moved(pieces: [u8; 4], from: u8, to: u8, size: u8) -> [u8; 4] {
    let mut out = replace_first(pieces, from, to, size);
    sort4(&mut out);
    out
}

/// Whether the step `w` of `node` takes a piece off a block its actor made
/// this turn, where stacks split (`stacking=declare`, `split=top`): then it
/// reaches what the same piece split off the super-piece declared instead
/// reached (the super-piece is listed before the block, so searched first;
/// the two differ only on the block's square, which the step leaves and
/// does not pass), and the search need not take it.
#[inline(always)]
fn off_a_new_block<const K: u8>(node: &Node, w: Word) -> bool {
    if !declared_and_split::<K>() {
        return false;
    }
    let from = w.to_le_bytes()[1];
    let ai = node.actor.index();
    let (blocks, ages) = (node.pos.blocks[ai], node.pos.ages[ai]);
    (blocks[0] == from && ages[0] & FRESH != 0) | (blocks[1] == from && ages[1] & FRESH != 0)
}

/// The stacking rule and splitting, as the constant `K` of the search's
/// functions: each rule set gets its own copy of the search, which does
/// not read them at every unit (3.5% fewer instructions in `classic`).
/// `K & 3` is the stacking rule: [`GROUP`], [`SUPERS`] or [`DECLARE`].
const GROUP: u8 = 0;
/// Stacking: super-pieces.
const SUPERS: u8 = 1;
/// Stacking: declared super-pieces and blocks.
const DECLARE: u8 = 2;
/// The flag of `K` for stacks that split (`split=top`).
const SPLIT: u8 = 4;

/// The constant `K` of the search's functions for `node`'s rules.
fn kind_of(node: &Node) -> u8 {
    let r = &node.pos.rules;
    let s = match r.stacking {
        Stacking::Group => GROUP,
        Stacking::Super => SUPERS,
        Stacking::Declare => DECLARE,
    };
    s | if r.split == Split::Top { SPLIT } else { 0 }
}

/// Whether `K` declares super-pieces and blocks and its stacks split
/// (`stacking=declare`, `split=top`): where a step off a block made this
/// turn reaches what the super-piece declared instead reached.
#[inline(always)]
const fn declared_and_split<const K: u8>() -> bool {
    stacks::<K>(DECLARE) && K & SPLIT != 0
}

/// Whether `K` stacks as `s`.
#[inline(always)]
const fn stacks<const K: u8>(s: u8) -> bool {
    K & 3 == s
}

impl Generator {
    /// Lists the steps of `node` (whose dice left are `mask`) into `out`, in the
    /// order of the reference search; how many.
    fn dice_steps<const K: u8>(&mut self, here: &Here, mask: u8) -> usize {
        let out = &mut self.dice_words;
        let offer = self.dice.offers[mask as usize];
        let pos = &here.node.pos;
        let a = here.node.actor;
        let pieces = here.pieces;
        let split = K & SPLIT != 0;
        let unit = |from, size, group_pair| Unit {
            from,
            size,
            group_pair,
        };
        let first = out.len();
        if all_single(pieces) {
            // Every unit is one piece (see `last_die`).
            let mut before = HOME;
            for p in pieces {
                if p == HOME {
                    break;
                }
                if p != before {
                    self.dice.unit_steps(here, &offer, unit(p, 1, false), out);
                }
                before = p;
            }
            return out.len() - first;
        }
        let mut i = 0;
        while i < 4 {
            let p = pieces[i];
            if p == HOME {
                // Pieces are sorted: the rest are home too.
                break;
            }
            // (Sorted: every piece at `p` is in this run.)
            let run = count_at(pieces, p);
            let size = run as u8;
            let d = &mut self.dice;
            if p == START {
                d.unit_steps(here, &offer, unit(p, 1, false), out);
            } else if stacks::<K>(GROUP) {
                d.unit_steps(here, &offer, unit(p, 1, false), out);
                if size >= 2 {
                    d.unit_steps(here, &offer, unit(p, size, true), out);
                }
            } else if stacks::<K>(DECLARE) && pos.is_block(a, p) {
                d.unit_steps(here, &offer, unit(p, 1, false), out);
            } else {
                d.unit_steps(here, &offer, unit(p, size, false), out);
                if split {
                    for k in 1..size {
                        d.unit_steps(here, &offer, unit(p, k, false), out);
                    }
                }
            }
            i += run;
        }
        out.len() - first
    }

    /// Searches every play from `node`, whose dice left are `mask`. `earlier`
    /// is the range of `self.earlier` holding the steps that lead from `node`
    /// only to nodes already searched.
    pub(super) fn search_dice(&mut self, node: &Node, mask: u8, earlier: Range<usize>) {
        match kind_of(node) {
            0 => self.search_dice_with::<0>(node, mask, earlier, None, true),
            1 => self.search_dice_with::<1>(node, mask, earlier, None, true),
            2 => self.search_dice_with::<2>(node, mask, earlier, None, true),
            4 => self.search_dice_with::<4>(node, mask, earlier, None, true),
            5 => self.search_dice_with::<5>(node, mask, earlier, None, true),
            _ => self.search_dice_with::<6>(node, mask, earlier, None, true),
        }
    }

    /// [`Generator::search_dice`] with the [`Table`] of the node's parent when
    /// the step from it was quiet (they are the same); without one,
    /// `is_start` says whether the node is the listing's start. `K`: the
    /// stacking rule (see [`GROUP`]).
    fn search_dice_with<const K: u8>(
        &mut self,
        node: &Node,
        mask: u8,
        earlier: Range<usize>,
        table: Option<Table>,
        is_start: bool,
    ) {
        if mask == 0 {
            // Nothing left to use or to pass: the play ends here.
            self.dice_leaf(node, None);
            return;
        }
        // Whether the node was reached by a quiet step (its parent's table
        // is kept).
        let by_quiet = table.is_some();
        // A new table is copied out of the cache, so that the search may go
        // on using it; the parent's is used where it is.
        let copied;
        let table = match table {
            Some(kept) => kept,
            None => {
                let (generation, table) = self.obstacles.table(node);
                copied = *table;
                Table::own(node, generation, &copied, self.dice_path.len, is_start)
            }
        };
        let (obs, start) = (table.obstacles, table.start);
        let ai = node.actor.index();
        let here = Here {
            node,
            table,
            colour: node.actor as u8,
            pieces: node.pos.pieces[ai],
            declares: stacks::<K>(DECLARE),
        };
        // This node's steps, on the stack of the steps of the nodes on the path.
        let first = self.dice_words.len();
        let count = self.dice_steps::<K>(&here, mask);
        if count == 0 {
            self.stuck::<K>(node, mask);
            return;
        }
        let offers = &self.dice.offers;
        let after = offers[mask as usize].after;
        // Where the last step came from and went, if it was quiet; else
        // (0, 0), before which no unit is listed (`listed_before` is
        // false): no branch on which it is.
        let (last_from, last_to) = match self.dice_path.last() {
            Some(s) if by_quiet => (s.from, s.to),
            _ => (0, 0),
        };
        // What a quiet step leaves as it is, for the plays it ends.
        let mut ends: Option<Ends> = None;
        for j in 0..count {
            let w = self.dice_words.get(first + j);
            if self.earlier[earlier.clone()]
                .iter()
                .any(|e| e & FIELDS == w & FIELDS)
            {
                // This order of two independent steps reaches a node that the
                // other order, searched earlier, reached first.
                continue;
            }
            let [_, from, to, size, by, dice, _, flags] = w.to_le_bytes();
            let left = after[(flags >> 1 & 3) as usize];
            if flags & QUIET != 0 {
                if listed_before(w, last_from, last_to) {
                    continue;
                }
                let pieces = moved(here.pieces, from, to, size);
                if left == 0 {
                    let ends = if start {
                        self.start_ends
                    } else {
                        *ends.get_or_insert_with(|| self.ends(node))
                    };
                    self.quiet_leaf(node, &ends, pieces, step_of(w), start);
                    continue;
                }
                // Only the actor's pieces and the dice change (a node met
                // before by the pieces and dice alone is not searched again).
                let dice_left = self.dice.offers[left as usize].dice;
                let mut child = *node;
                child.pos.pieces[ai] = pieces;
                child.dice = dice_left;
                child.used_dice += dice;
                child.used_pips += by;
                if dice_left[1] == 0 {
                    // One die left: every step ends a play, and a second
                    // order of two steps ends where the first did (`found`
                    // recognises it), so no step need be marked as one.
                    let new = if start {
                        self.seen
                            .insert_moving(u32::from_le_bytes(pieces), dice_left)
                    } else {
                        self.seen.insert(child.key())
                    };
                    if new {
                        self.dice_path.push(step_of(w));
                        self.last_die::<K, false>(&child, left, table, w);
                        self.dice_path.pop();
                    }
                } else if start || self.seen.insert(child.key()) {
                    // (Two dice left under the start's table: the node is a
                    // child of the start, as a throw has three dice, and the
                    // start's steps reach different nodes; it is new, and no
                    // other path meets it, so it is not remembered.)
                    self.descend::<K>(
                        first..first + j,
                        w,
                        earlier.clone(),
                        &child,
                        left,
                        Some(table),
                    );
                }
                continue;
            }
            if listed_before(w, last_from, last_to) && met_before::<K>(node, w, last_from, last_to)
            {
                continue;
            }
            if left == 0 {
                // A play that used everything: `dice_leaf` recognises it if
                // another order reached it first, so it need not be remembered here.
                self.full_leaf::<K>(node, w, obs.others);
            } else if !self.block_finds_nothing::<K>(&here, first..first + count, w, left) {
                self.full_child::<K>(node, w, table, first..first + j, earlier.clone(), left);
            }
        }
        self.dice_words.truncate(first);
    }

    /// [`Generator::search_dice_with`] of a node with one die left reached
    /// by the quiet step `last` (its parent's `table` is kept), or by a step
    /// that is not quiet (`last` 0: no step is listed before it; `table` the
    /// node's own): every step ends a play, so the steps are taken as they
    /// are found, in the search's order, without being listed first, and
    /// none is marked as a second order (the order of units recognises most
    /// of those, the plays found the rest).
    #[inline(always)]
    fn last_die<const K: u8, const B: bool>(
        &mut self,
        node: &Node,
        mask: u8,
        table: Table,
        last: Word,
    ) {
        let offer = self.dice.offers[mask as usize];
        let (by, slot) = offer.singles[0];
        let ai = node.actor.index();
        let here = Here {
            node,
            table,
            colour: node.actor as u8,
            pieces: node.pos.pieces[ai],
            declares: stacks::<K>(DECLARE),
        };
        let pieces = here.pieces;
        let pos = &node.pos;
        let split = K & SPLIT != 0;
        // What the quiet steps leave as it is, for the plays they end.
        let ends = if table.start {
            self.start_ends
        } else {
            self.ends(node)
        };
        let mut any = false;
        if all_single(pieces) {
            // No two pieces share a square (but in the Charkoni, where they
            // leave one at a time): every unit is one piece, whatever the rules.
            // (Each unit's steps are written out again below for the other
            // movers: through one helper of the two, 0.7% more instructions
            // in `classic` and 1.007 of the time over 41 pairs.)
            let mut before = HOME;
            for p in pieces {
                if p == HOME {
                    break;
                }
                if p == before {
                    continue;
                }
                before = p;
                let unit = Unit {
                    from: p,
                    size: 1,
                    group_pair: false,
                };
                let w = self.dice.check::<B>(&here, &unit, by, 1, slot);
                if w == 0 {
                    continue;
                }
                any = true;
                let to = w.to_le_bytes()[2];
                if here.declares && lands_on_single(pieces, 1, to) {
                    self.last_step::<K>(node, &here, &ends, declared(w, SUPER), last);
                    self.last_step::<K>(node, &here, &ends, declared(w, BLOCK), last);
                } else {
                    self.last_step::<K>(node, &here, &ends, w, last);
                }
            }
            if !any {
                self.stuck::<K>(node, mask);
            }
            return;
        }
        let mut i = 0;
        while i < 4 {
            let p = pieces[i];
            if p == HOME {
                break;
            }
            // (Sorted: every piece at `p` is in this run.)
            let run = count_at(pieces, p);
            let size = run as u8;
            // The sizes that move from `p`, in the search's order (a group's
            // equal pair needs two dice): those of `dice_steps`, written out
            // again (through one helper of the two, or one walk over the units
            // with the steps as a closure, 2% to 5% more instructions in
            // `classic`; `fast_paths` holds both to the reference order).
            let (first, more) = if p == START
                || stacks::<K>(GROUP)
                || (stacks::<K>(DECLARE) && pos.is_block(node.actor, p))
            {
                (1, 1)
            } else if split {
                (size, size)
            } else {
                (size, 1)
            };
            for k in 0..more {
                let size = if k == 0 { first } else { k };
                let unit = Unit {
                    from: p,
                    size,
                    group_pair: false,
                };
                let w = self.dice.check::<B>(&here, &unit, by, 1, slot);
                if w == 0 {
                    continue;
                }
                any = true;
                let to = w.to_le_bytes()[2];
                if here.declares && lands_on_single(pieces, size, to) {
                    self.last_step::<K>(node, &here, &ends, declared(w, SUPER), last);
                    self.last_step::<K>(node, &here, &ends, declared(w, BLOCK), last);
                } else {
                    self.last_step::<K>(node, &here, &ends, w, last);
                }
            }
            i += run;
        }
        if !any {
            self.stuck::<K>(node, mask);
        }
    }

    /// Whether the child that the step `w` of a node reaches, declaring a
    /// block with dice left, would only find plays found before, so that it
    /// need not be searched. `steps`: the node's steps (a range of
    /// `dice_words`). Where stacks split, it is so when:
    ///
    /// - the single `w` moves stood alone and lands on a single of its own;
    /// - that single has a step with a die left: in the child it leaves the
    ///   new block, and the super-piece declared instead (a step listed just
    ///   before, searched first) split its top piece the same way to the
    ///   same end ([`off_a_new_block`]); so the child is never stuck (no
    ///   pass, no short play);
    /// - no unit listed after the mover has a step with a die left: its
    ///   first step could begin plays first met here;
    /// - every step with a die left of a unit listed before the mover is
    ///   quiet and lands neither where the mover stood nor on the new block:
    ///   taken first, it leaves the mover's step as it was and the mover's
    ///   step leaves it as it was, and the node's search of it (listed
    ///   earlier) met first every play the child begins with it.
    ///
    /// The child's steps can only be fewer than the node's: the new block
    /// stops others, and none lands where the mover stood but on its own.
    /// (The rules and the declaration asked where it is called, of every
    /// step that is not quiet; the rest, asked of few steps, out of line.)
    #[inline(always)]
    fn block_finds_nothing<const K: u8>(
        &self,
        here: &Here,
        steps: Range<usize>,
        w: Word,
        left: u8,
    ) -> bool {
        declared_and_split::<K>()
            && w.to_le_bytes()[6] == BLOCK
            && self.lone_block_finds_nothing(here, steps, w, left)
    }

    /// [`Generator::block_finds_nothing`] of a step declaring a block,
    /// where stacks split.
    #[inline(never)]
    fn lone_block_finds_nothing(
        &self,
        here: &Here,
        steps: Range<usize>,
        w: Word,
        left: u8,
    ) -> bool {
        let [_, mover, q, size, ..] = w.to_le_bytes();
        if size != 1 {
            return false;
        }
        if count_at(here.pieces, mover) != 1 {
            return false;
        }
        // The dice left (one or two; 0 for none).
        let [d0, d1, _] = self.dice.offers[left as usize].dice;
        let mut leaves_block = false;
        for i in steps {
            let [_, from, to, _, by, dice, _, flags] = self.dice_words.get(i).to_le_bytes();
            if (by != d0 && by != d1) || dice != 1 || from == mover {
                continue;
            }
            if from == q {
                leaves_block = true;
            } else if from > mover || flags & QUIET == 0 || to == mover || to == q {
                return false;
            }
        }
        leaves_block
    }

    /// The play that the last step `w` ends, from a node of
    /// [`Generator::last_die`].
    #[inline(always)]
    fn last_step<const K: u8>(
        &mut self,
        node: &Node,
        here: &Here,
        ends: &Ends,
        w: Word,
        last: Word,
    ) {
        let [_, from, to, size, ..] = w.to_le_bytes();
        if (w >> 56) as u8 & QUIET != 0 {
            let [_, last_from, last_to, ..] = last.to_le_bytes();
            if listed_before(w, last_from, last_to) {
                return;
            }
            let pieces = moved(here.pieces, from, to, size);
            self.quiet_leaf(node, ends, pieces, step_of(w), here.table.start);
        } else {
            let [_, last_from, last_to, ..] = last.to_le_bytes();
            if !met_before::<K>(node, w, last_from, last_to) {
                self.full_leaf::<K>(node, w, here.table.obstacles.others);
            }
        }
    }

    /// A node whose actor has no step: the partner's part if the dice pass,
    /// else the play ends here. Out of line (see [`Generator::full_leaf`]).
    #[inline(never)]
    fn stuck<const K: u8>(&mut self, node: &Node, mask: u8) {
        match node.pass() {
            Some(passed) => self.search_dice_with::<K>(&passed, mask, 0..0, None, false),
            None => self.dice_leaf(node, None),
        }
    }

    /// The play that a step that is not quiet ends: the step applied in
    /// full. Out of line, as are the search's other steps that are not
    /// quiet: the search's code stays small enough for the processor's
    /// cache of instructions.
    #[inline(never)]
    fn full_leaf<const K: u8>(&mut self, node: &Node, w: Word, others: u128) {
        if off_a_new_block::<K>(node, w) {
            return;
        }
        let step = step_of(w);
        let child = apply_among(node, &step, others);
        self.dice_leaf(&child, Some(step));
    }

    /// Searches from the child that the step `w` (not quiet) of `node`
    /// reaches, after its siblings `before`, if no other order reached it
    /// first. Out of line (see [`Generator::full_leaf`]).
    #[inline(never)]
    fn full_child<const K: u8>(
        &mut self,
        node: &Node,
        w: Word,
        table: Table,
        before: Range<usize>,
        earlier: Range<usize>,
        left: u8,
    ) {
        if off_a_new_block::<K>(node, w) {
            return;
        }
        let child = apply_among(node, &step_of(w), table.obstacles.others);
        if !self.seen.insert(child.key()) {
            return;
        }
        if self.dice.offers[left as usize].dice[1] == 0 {
            // One die left: its steps are taken as they are found, as after
            // a quiet step ([`Generator::last_die`]), on the child's own
            // table, made from this one where the step declared a block
            // and would be quiet without it (see [`Table::with_block`]); no
            // step is listed before the one that reached it (no step
            // commutes with a step that is not quiet: `(0, 0)`).
            let [_, _, q, _, _, _, declare, flags] = w.to_le_bytes();
            // (The search's own tables never hold a block of their own.)
            debug_assert_eq!(table.block, 0);
            self.dice_path.push(step_of(w));
            match declare == BLOCK && flags & PLAIN != 0 {
                true => self.last_die::<K, true>(&child, left, table.with_block(q), 0),
                false => {
                    let (generation, table) = self.obstacles.table(&child);
                    let copied = *table;
                    let table = Table::own(&child, generation, &copied, self.dice_path.len, false);
                    self.last_die::<K, true>(&child, left, table, 0);
                }
            }
            self.dice_path.pop();
        } else {
            self.descend::<K>(before, w, earlier, &child, left, None);
        }
    }

    /// Searches from `child`, reached by the step `w` after its siblings
    /// `before` (a range of `dice_words`), with the steps that commute with
    /// `w` marked as leading to nodes already searched. `table`, when `w`
    /// was quiet: the parent's [`Table`].
    #[inline(always)]
    fn descend<const K: u8>(
        &mut self,
        before: Range<usize>,
        w: Word,
        earlier: Range<usize>,
        child: &Node,
        left: u8,
        table: Option<Table>,
    ) {
        let first = self.earlier.len();
        // Only quiet steps commute. Under the start's table a node is kept
        // by the mover's pieces and the dice left (`seen`), which recognises
        // the node a second order reaches at less cost than marking it.
        if (w >> 56) as u8 & QUIET != 0 && !table.is_some_and(|t| t.start) {
            for i in before {
                let e = self.dice_words.get(i);
                if commute(e, w) {
                    self.earlier.push(e);
                }
            }
            for i in earlier {
                let e = self.earlier[i];
                if commute(e, w) {
                    self.earlier.push(e);
                }
            }
        }
        let end = self.earlier.len();
        self.dice_path.push(step_of(w));
        self.search_dice_with::<K>(child, left, first..end, table, false);
        self.dice_path.pop();
        self.earlier.truncate(first);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count_at` counts the pieces at a progress and `lands_on_single`
    /// says whether exactly one single stands where a single lands (not
    /// home), as the plain tests do, for every word of four bytes from a
    /// set of values that holds the Charkoni, home and ordinary progress.
    #[test]
    fn counting_without_a_branch_is_counting() {
        let values = [START, 1, 7, 42, 83, HOME];
        for a in values {
            for b in values {
                for c in values {
                    for d in values {
                        let pieces = [a, b, c, d];
                        for p in values {
                            let there = pieces.iter().filter(|x| **x == p).count();
                            assert_eq!(count_at(pieces, p), there, "{pieces:?} at {p}");
                            for size in 1..=4 {
                                assert_eq!(
                                    lands_on_single(pieces, size, p),
                                    size == 1 && p != HOME && p != START && there == 1,
                                    "{pieces:?}: {size} to {p}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// `all_single` says whether no two of a mover's sorted pieces share a
    /// square (the Charkoni and home hold many without a stack), as the plain
    /// test does, for every sorted word of four bytes from a set of values
    /// that holds the Charkoni, home and ordinary progress.
    #[test]
    fn lone_pieces_are_told_without_a_branch() {
        let values = [START, 1, 7, 42, 83, HOME];
        for a in values {
            for b in values.iter().filter(|b| **b >= a) {
                for c in values.iter().filter(|c| *c >= b) {
                    for d in values.iter().filter(|d| *d >= c) {
                        let pieces = [a, *b, *c, *d];
                        let shared = pieces
                            .windows(2)
                            .any(|w| w[0] == w[1] && w[0] != START && w[0] != HOME);
                        assert_eq!(all_single(pieces), !shared, "{pieces:?}");
                    }
                }
            }
        }
    }
}
