//! Each-die plays (`throw=dice`) listed by *plans*: which dice each piece takes
//! and in which order, instead of a search over every step. First where pieces
//! stand together as groups (`stacking=group`: the `chausar` preset).
//!
//! Why a plan fixes its plays: with groups, whether a single piece may take a
//! die does not depend on where the mover's other pieces stand (they neither
//! block it nor change where it may land), and a capture by a single piece
//! changes nothing another single's step depends on (a single never takes a
//! blockade, so the obstacles stay; a square whose enemies were taken may
//! still be landed on). So a play of single steps is legal exactly when each
//! piece's own order of dice is legal from the start of the turn, and it ends
//! with every piece at the end of its order and every enemy on a square some
//! step lands on taken. Every interleaving of the pieces' orders is the same
//! play. (Where a colour must capture before finishing and has not, a capture
//! does change where its pieces go: such turns are left to the search, as are
//! turns with passed points.)
//!
//! The reference search lists a play where it first reaches it, which is at its
//! least sequence of steps in the order steps are tried at a node (by progress,
//! then unit kind, then distance largest first); so each play keeps its least
//! sequence over every plan and interleaving that reaches it, and the plays are
//! sorted by it. Steps of a whole group with an equal pair (two dice, so at most
//! one a turn) are few: those plays are searched with the full rules.
//!
//! The same holds for single pieces where pieces of one colour would declare,
//! join or make blocks (`stacking=super` or `declare`: the `classic` preset) in
//! the *calm* turns: the mover has no block and no stack, no piece can land
//! where another of its pieces stands or may land, and, where unused dice pass
//! to the partner, some piece can take every order (so no play stops early).
//! Other turns are left to the search.
//!
//! `tests/fast_paths.rs` and `tests/play_order.rs` check the plays, their steps
//! and their order against the reference search.

use crate::board::{self, HOME, LOOP_END, LOOP_LEN, START};
use crate::position::{pieces_of, sort4, with_lane, Position};
use crate::rules::{Stacking, ThrowUse, Tohd, Unused};
use crate::step::Step;

use super::apply::{apply_among, bytes_equal, end_key, end_key_of};
use super::generator::{Generator, NO_STEP};
use super::keys::EndKeys;
use super::node::{Node, Part, Usage};
use super::obstacles::{obstacles, Obstacles};
use super::steps::{destination, SingleSteps, Unit};

/// No such order, entity or slot.
const NONE: u8 = u8::MAX;

/// Distinct orders of a throw's dice: 3 singles, 6 pairs, 6 triples at most.
const MAX_ORDERS: usize = 15;

/// An order in which one piece takes some of the throw's dice.
#[derive(Clone, Copy, Default)]
struct Order {
    /// The dice, first first.
    dice: [u8; 3],
    /// How many.
    len: u8,
    /// The order of all but the last die (`NONE` for one die).
    parent: u8,
    /// An earlier order whose last step starts where this one's does and
    /// takes the same die (the first two dice the other way round), or
    /// `NONE`.
    twin: u8,
}

/// A piece from one progress taking one order, from the start of the turn,
/// where every step is legal (see `Plans::all_legal`). Where its earlier
/// steps end is where its order's parent's path ends.
#[derive(Clone, Copy, Default)]
struct Path {
    /// Where the last step ends.
    end: u8,
    /// How many steps (dice).
    len: u8,
    /// Each step's piece (the progress index), order and place in it, a
    /// byte a step, the first lowest (a plan's recipe: see `Plans::steps_of`).
    recipe: u32,
    /// The order key of its steps alone ([`step_key`] of each step, the
    /// first highest, 12 bits each).
    seq: u64,
    /// The squares where a step lands on enemies (they are taken).
    takes: u128,
}

/// A play found: its least sequence of steps, and where it ends.
#[derive(Clone, Copy)]
struct Found {
    /// The sequence's order key ([`step_key`] of each step, the first highest).
    seq: u64,
    /// How to make its steps (see [`Plans::steps_of`]), or with [`EXPLICIT`]
    /// the index of its steps in [`Plans::explicit`].
    recipe: u32,
    len: u8,
    /// The mover's pieces at its end (four progress bytes, sorted), where
    /// only they differ from the listing's start (`whole` is [`MOVING`]).
    pieces: u32,
    /// Otherwise the index in [`Plans::wholes`] of its end key: the pieces
    /// (a [`pieces_word`]), no blocks, who has captured and whether this
    /// turn did (see [`end_key`]).
    whole: u32,
}

/// The `whole` of a [`Found`] play that moves only the mover's pieces.
const MOVING: u32 = u32::MAX;

/// Where the plays of a listing by plans start: the listing's node's
/// position, its actor and whether its turn has captured.
#[derive(Clone, Copy)]
pub(super) struct PlanStart {
    pos: Position,
    actor: crate::Colour,
    captured_any: bool,
}

impl PlanStart {
    /// The colour whose plays they are.
    pub(super) fn actor(&self) -> crate::Colour {
        self.actor
    }

    /// The listing's node's position.
    pub(super) fn position(&self) -> &Position {
        &self.pos
    }
}

/// The flag of a [`Found`] play's recipe that holds an index of
/// [`Plans::explicit`].
const EXPLICIT: u32 = 1 << 31;

/// The orders of one throw's dice.
#[derive(Clone, Copy, Default)]
struct Orders {
    orders: [Order; MAX_ORDERS],
    count: usize,
    /// Per order and mask of dice left, the dice it takes (the first of equal
    /// ones; 0 when those dice do not hold it).
    fit: [[u8; 8]; 16],
    /// Per mask of dice left, the orders they hold (bit i: order i).
    fitting: [u16; 8],
    /// Per mask of dice left, the orders of exactly those dice.
    exact: [u16; 8],
    /// Per mask of the throw's dice (the first of equal ones), the orders
    /// of those dice (listed, as every order is, in falling lexicographic
    /// order of their dice: see [`Plans::least_orders`]).
    groups: [u16; 8],
    /// The orders each after its parent (in which their paths are made).
    build: [u8; MAX_ORDERS],
}

/// What listing by plans keeps from one listing to the next.
#[derive(Default)]
pub(super) struct Plans {
    /// The orders of every throw met so far, with its dice (largest first).
    made: Vec<([u8; 3], Orders)>,
    /// The orders of this listing's throw.
    orders: [Order; MAX_ORDERS],
    count: usize,
    fit: [[u8; 8]; 16],
    fitting: [u16; 8],
    exact: [u16; 8],
    groups: [u16; 8],
    build: [u8; MAX_ORDERS],
    /// Per distinct progress `d` of the mover's pieces, the path of every
    /// order `o`, at [`path_index`].
    paths: Table64<Path>,
    /// Per path that takes enemies ([`path_index`]), the root's first
    /// word without the mover's pieces, those enemies taken.
    taken: Table64<u128>,
    /// The distinct progress values of the mover's pieces not home.
    starts: [u8; 4],
    /// Per distinct progress, the legal orders searched (bit i: order i).
    legal: [u16; 4],
    /// Per distinct progress, every legal order.
    all_legal: [u16; 4],
    /// The plays found, and their end keys with their index.
    found: Vec<Found>,
    /// The steps of the plays found by the full rules (a group's pair).
    explicit: Vec<[Step; 3]>,
    /// The end keys of the plays found that change more than the mover's
    /// pieces (see [`Found`]).
    wholes: Vec<(u128, u128, u64)>,
    /// The plays' order keys with their index (low 20 bits), to sort.
    order: Vec<u64>,
    keys: EndKeys,
    /// The best use of the throw found.
    best: Option<Usage>,
    /// The end key of the listing's node (no piece moved).
    root: (u128, u128, u64),
    /// Its first word without the mover's pieces, and where they go in it.
    root_others: u128,
    lane_shift: u32,
}

/// A table of 64 entries, one per path ([`path_index`]), indexed by
/// the low six bits (no index checks a bound).
#[derive(Clone, Copy)]
struct Table64<T>([T; 64]);

impl<T: Copy + Default> Default for Table64<T> {
    fn default() -> Table64<T> {
        Table64([T::default(); 64])
    }
}

impl<T> core::ops::Index<usize> for Table64<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.0[i & 63]
    }
}

impl<T> core::ops::IndexMut<usize> for Table64<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & 63]
    }
}

/// Where the path of order `o` from the distinct progress `d` is kept in
/// [`Plans::paths`].
#[inline]
fn path_index(d: usize, o: usize) -> usize {
    (d << 4 | o) & 63
}

/// Sorts a short list that is nearly in order (a listing's plays) in place.
fn insertion_sort(v: &mut [u64]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

/// A word of [`pieces_word`] from each colour's pieces as a `u32`.
#[inline]
fn lanes_word(lanes: [u32; 4]) -> u128 {
    (lanes[0] as u128)
        | (lanes[1] as u128) << 32
        | (lanes[2] as u128) << 64
        | (lanes[3] as u128) << 96
}

/// Each colour's pieces as a `u32` from a word of [`pieces_word`].
#[inline]
fn word_lanes(word: u128) -> [u32; 4] {
    [
        word as u32,
        (word >> 32) as u32,
        (word >> 64) as u32,
        (word >> 96) as u32,
    ]
}

/// The pieces' word with the enemies of `a` on the squares `takes` taken:
/// per enemy colour, its pieces on each such square found by comparing the
/// bytes of its word with the square's progress values (as a capture does).
#[inline]
fn taken(word: u128, pos: &Position, a: crate::Colour, takes: u128) -> u128 {
    let mut lanes = word_lanes(word);
    for c in crate::Colour::ALL {
        if !pos.present.has(c) || !pos.enemies(a, c) {
            continue;
        }
        let ci = c.index();
        let lane = lanes[ci];
        let mut here = 0u32;
        let mut squares = takes;
        while squares != 0 {
            let s = squares.trailing_zeros() as u8;
            squares &= squares - 1;
            let [x, y] = board::progress_on_raw(ci, s);
            here |= bytes_equal(lane, x) | bytes_equal(lane, y);
        }
        if here != 0 {
            // Those pieces go back to the Charkoni (START is 0).
            let mut p = (lane & !((here >> 7) * 0xff)).to_le_bytes();
            sort4(&mut p);
            lanes[ci] = u32::from_le_bytes(p);
        }
    }
    lanes_word(lanes)
}

/// A step's place in the order a node tries its steps: by progress, then
/// the unit's kind (a single before a group), then distance, largest first.
#[inline]
fn step_key(s: &Step) -> u64 {
    let rank = (s.dice == 2) as u64;
    // Distances are at most 12 (an equal pair of sixes).
    (s.from as u64) << 5 | rank << 4 | (15 - s.by.min(15)) as u64
}

/// [`step_key`] of a single's step from `from` by `by`.
#[inline]
fn single_key(from: u8, by: u8) -> u64 {
    (from as u64) << 5 | (15 - by.min(15)) as u64
}

/// The order key of a sequence of steps: the first step's key highest.
#[inline]
fn seq_key(steps: &[Step]) -> u64 {
    let mut k = 0;
    for (i, s) in steps.iter().enumerate() {
        k |= step_key(s) << (24 - 12 * i);
    }
    k
}

impl Plans {
    /// Takes the orders of a throw's dice (largest first), made once per throw.
    fn prepare(&mut self, throw: [u8; 3]) {
        // A game meets the 20 distinct throws of its faces: a short list.
        let index = match self.made.iter().position(|(t, _)| *t == throw) {
            Some(i) => i,
            None => {
                self.made.push((throw, Orders::of(throw)));
                self.made.len() - 1
            }
        };
        let o = &self.made[index].1;
        self.orders = o.orders;
        self.count = o.count;
        self.fit = o.fit;
        self.fitting = o.fitting;
        self.exact = o.exact;
        self.groups = o.groups;
        self.build = o.build;
    }
}

impl Plans {
    /// Whether a turn of single pieces (super-pieces or blocks: `stacking`
    /// other than groups) is calm, so that its plays are those of its plans: no
    /// step of any piece lands where another piece of the mover stands or will
    /// stand (which would declare, join or break a unit), and, where unused
    /// dice pass to the partner (`passes`), no play can stop with dice left.
    fn calm(&self, progress: &[u8], at: &[u8], passes: bool) -> bool {
        // A piece for which every order is legal can always take one more of
        // the dice left, wherever the plan has put it: no play stops with dice
        // left while it is on the board.
        let all = (1u16 << self.count) - 1;
        if passes && !self.all_legal[..progress.len()].contains(&all) {
            return false;
        }
        let mut reach = [0u128; 4];
        for (d, r) in reach.iter_mut().enumerate().take(progress.len()) {
            let mut bits = self.all_legal[d];
            while bits != 0 {
                let o = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // (Where its earlier steps end, its parent's path ends:
                // a legal order too.)
                let q = self.paths[path_index(d, o)].end;
                if q != HOME {
                    *r |= 1u128 << q;
                }
            }
        }
        apart_by(progress, at, &reach)
    }

    /// Of the legal orders of progress `d`, one per play: the least of the
    /// orders with the same dice taking the same enemies.
    /// (`takers`: the legal orders that take enemies.)
    fn least_orders(&self, d: usize, legal: u16, takers: u16) -> u16 {
        // Orders of the same dice take the same dice from the whole throw.
        if takers == 0 {
            // Mostly nothing is taken: then the dice alone make the group,
            // and its least order is its first legal one. (Orders of the same
            // dice from one square go the same way until their dice differ,
            // where the larger die has the lesser key: the least sequence is
            // the lexicographically largest order, and `Orders::of` lists
            // those first.)
            return self.groups.iter().fold(0, |m, &g| {
                let x = legal & g;
                m | (x & x.wrapping_neg())
            });
        }
        let mut groups = [(0u8, 0u128, 0u64, 0u8); MAX_ORDERS];
        let mut count = 0;
        let mut bits = legal;
        while bits != 0 {
            let o = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let dice = self.fit[o][7];
            let path = &self.paths[path_index(d, o)];
            let seq = path.seq;
            match groups[..count]
                .iter_mut()
                .find(|g| g.0 == dice && g.1 == path.takes)
            {
                Some(g) => {
                    if seq < g.2 {
                        g.2 = seq;
                        g.3 = o as u8;
                    }
                }
                None => {
                    groups[count] = (dice, path.takes, seq, o as u8);
                    count += 1;
                }
            }
        }
        groups[..count].iter().fold(0, |m, g| m | 1 << g.3)
    }
}

impl Orders {
    /// The orders of a throw's dice (largest first).
    fn of(throw: [u8; 3]) -> Orders {
        let mut this = Orders::default();
        // Orders of die indices in the order of their first steps (largest
        // die first, as the throw's dice are), each listed first before the
        // orders it begins (so that its parent is found) and then moved
        // after them (below): the plans come out nearly in the order of
        // their least steps, which they are sorted by. Equal dice give
        // equal orders.
        let mut seqs = [([0usize; 3], 0usize); MAX_ORDERS];
        let mut count = 0;
        for i in 0..3 {
            seqs[count] = ([i, 0, 0], 1);
            count += 1;
            for j in (0..3).filter(|&j| j != i) {
                seqs[count] = ([i, j, 0], 2);
                count += 1;
                for k in (0..3).filter(|&k| k != i && k != j) {
                    seqs[count] = ([i, j, k], 3);
                    count += 1;
                }
            }
        }
        let id_of = |s: &[usize], this: &mut Orders| -> u8 {
            let mut dice = [0u8; 3];
            for (k, &i) in s.iter().enumerate() {
                dice[k] = throw[i];
            }
            let len = s.len() as u8;
            if let Some(i) = this.orders[..this.count]
                .iter()
                .position(|o| o.len == len && o.dice == dice)
            {
                return i as u8;
            }
            let parent = if len == 1 {
                NONE
            } else {
                this.orders[..this.count]
                    .iter()
                    .position(|o| {
                        o.len == len - 1 && o.dice[..len as usize - 1] == dice[..len as usize - 1]
                    })
                    .map_or(NONE, |i| i as u8)
            };
            let twin = if len == 3 && dice[0] != dice[1] {
                this.orders[..this.count]
                    .iter()
                    .position(|o| o.len == 3 && o.dice == [dice[1], dice[0], dice[2]])
                    .map_or(NONE, |i| i as u8)
            } else {
                NONE
            };
            this.orders[this.count] = Order {
                dice,
                len,
                parent,
                twin,
            };
            this.count += 1;
            (this.count - 1) as u8
        };
        for (s, n) in seqs[..count].iter().map(|&(s, n)| (s, n)) {
            id_of(&s[..n], &mut this);
        }
        // Each order after the orders it begins (a piece's longer orders
        // first): nearer the order of the plays when the pieces stand apart.
        let pre = this.orders;
        let n = this.count;
        let mut post = [0usize; MAX_ORDERS];
        let mut m = 0;
        let children = |o: usize| (0..n).filter(move |&c| pre[c].parent as usize == o);
        for r in (0..n).filter(|&r| pre[r].parent == NONE) {
            for c in children(r) {
                for g in children(c) {
                    post[m] = g;
                    m += 1;
                }
                post[m] = c;
                m += 1;
            }
            post[m] = r;
            m += 1;
        }
        let mut new = [NONE; MAX_ORDERS];
        for (k, &o) in post[..m].iter().enumerate() {
            new[o] = k as u8;
        }
        let remap = |x: u8| if x == NONE { NONE } else { new[x as usize] };
        for (k, &o) in post[..m].iter().enumerate() {
            let mut order = pre[o];
            order.parent = remap(order.parent);
            order.twin = remap(order.twin);
            this.orders[k] = order;
        }
        for (k, b) in this.build[..n].iter_mut().enumerate() {
            *b = new[k];
        }
        for o in 0..this.count {
            let order = this.orders[o];
            for left in 0..8usize {
                let mut used = 0usize;
                let fits = order.dice[..order.len as usize].iter().all(|&d| {
                    match (0..3).find(|&i| (left & !used) & (1 << i) != 0 && throw[i] == d) {
                        Some(i) => {
                            used |= 1 << i;
                            true
                        }
                        None => false,
                    }
                });
                this.fit[o][left] = if fits { used as u8 } else { 0 };
                if left == 7 && fits {
                    this.groups[used] |= 1 << o;
                }
                if fits {
                    this.fitting[left] |= 1 << o;
                    if used == left {
                        this.exact[left] |= 1 << o;
                    }
                }
            }
        }
        this
    }
}

impl Generator {
    /// Lists the plays of `node` by plans when they cover its rules (see the
    /// module documentation); false, having changed nothing, when they do not.
    pub(super) fn list_plans(&mut self, node: &Node) -> bool {
        let pos = &node.pos;
        let rules = &pos.rules;
        if rules.throw != ThrowUse::Dice || node.dice.contains(&0) {
            return false;
        }
        let a = node.actor;
        let ai = a.index();
        let groups = rules.stacking == Stacking::Group;
        // Whether dice the mover cannot use would pass to the partner.
        let passes = rules.unused == Unused::Partner && node.part == Part::Own && pos.teams;
        if groups && (pos.blocks != [[0; 2]; 4] || passes) {
            return false;
        }
        if !groups {
            // Super-pieces and blocks: only a mover of single pieces, none of
            // them a block (see `calm`).
            let own = pos.pieces[ai];
            if pos.blocks[ai] != [0, 0]
                || (1..4).any(|i| own[i] == own[i - 1] && own[i] != START && own[i] != HOME)
            {
                return false;
            }
        }
        // The mover's pieces not home (sorted, so those at one progress are
        // neighbours), each with the index of its progress.
        let pieces = pos.pieces[ai];
        let mut at = [0u8; 4];
        let mut progress = [0u8; 4];
        let mut entities = 0;
        let mut distinct = 0;
        for &p in &pieces {
            if p == HOME {
                break;
            }
            if distinct == 0 || progress[distinct - 1] != p {
                progress[distinct] = p;
                distinct += 1;
            }
            at[entities] = (distinct - 1) as u8;
            entities += 1;
        }
        let sensitive = rules.tohd != Tohd::Off && !pos.captured.has(a);
        if !groups
            && !apart(
                &progress[..distinct],
                &at[..entities],
                node.dice,
                rules.tohd == Tohd::Circle && !pos.captured.has(a),
            )
        {
            // Some piece may land on another: not calm (see `Plans::calm`).
            return false;
        }
        let obs = obstacles(pos, a);
        // The enemies' squares as the mover's progress values (a step lands
        // on a progress value, looked up in one word).
        let mut enemies = 0u128;
        for e in pos.present.iter().filter(|e| pos.enemies(a, *e)) {
            for &p in &pos.pieces[e.index()] {
                if p != START && p != HOME {
                    enemies |= board::progress_bits(ai, board::sq(e.index(), p));
                }
            }
        }
        let plans = &mut self.plans;
        plans.prepare(node.dice);
        plans.root = end_key_of(pos, a, node.captured_any);
        plans.lane_shift = 32 * ai as u32;
        plans.root_others = with_lane(plans.root.0, ai, 0);
        let singles = SingleSteps::of(node);
        plans.starts = progress;
        // Every order's path from every progress.
        for (d, &from) in progress[..distinct].iter().enumerate() {
            let mut legal = 0u16;
            let mut takers = 0u16;
            for &o in &plans.build[..plans.count] {
                let o = o as usize;
                let order = plans.orders[o];
                let n = order.len as usize;
                // From its parent's path; an order whose parent is illegal
                // is illegal.
                let (start, parent) = if order.parent == NONE {
                    (from, Path::default())
                } else if legal & 1 << order.parent != 0 {
                    let p = plans.paths[path_index(d, order.parent as usize)];
                    (p.end, p)
                } else {
                    continue;
                };
                let twin = order.twin as usize;
                let to = if twin < MAX_ORDERS && legal & 1 << plans.orders[twin].parent != 0 {
                    // Where the twin's last step went: the same step (a
                    // single's step is legal or not wherever it came from).
                    (legal & 1 << twin != 0).then(|| plans.paths[path_index(d, twin)].end)
                } else {
                    singles.destination(node, &obs, start, order.dice[n - 1])
                };
                let Some(q) = to else {
                    continue;
                };
                let mut takes = parent.takes;
                if (enemies >> q) & 1 == 1 {
                    if sensitive {
                        // A capture would change where the mover's pieces go.
                        return false;
                    }
                    takes |= 1u128 << board::sq(ai, q);
                    plans.taken[path_index(d, o)] = taken(plans.root_others, pos, a, takes);
                    takers |= 1 << o;
                } else if takes != 0 {
                    plans.taken[path_index(d, o)] =
                        plans.taken[path_index(d, order.parent as usize)];
                    takers |= 1 << o;
                }
                plans.paths[path_index(d, o)] = Path {
                    end: q,
                    len: n as u8,
                    recipe: parent.recipe
                        | ((d as u32) << 6 | (o as u32) << 2 | (n as u32 - 1)) << (8 * (n - 1)),
                    seq: parent.seq | single_key(start, order.dice[n - 1]) << (24 - 12 * (n - 1)),
                    takes,
                };
                legal |= 1 << o;
            }
            plans.legal[d] = legal;
            plans.all_legal[d] = legal;
            if at[..entities].iter().filter(|&&x| x as usize == d).count() == 1 {
                // A piece alone at its progress: of the orders of the same
                // dice that take the same enemies (the same play), only the
                // least can be the least interleaving with other pieces' steps
                // (theirs start elsewhere, so they never tie with its steps).
                plans.legal[d] = plans.least_orders(d, legal, takers);
            }
        }
        if !groups && !plans.calm(&progress[..distinct], &at[..entities], passes) {
            return false;
        }
        plans.found.clear();
        plans.explicit.clear();
        plans.wholes.clear();
        plans.best = None;
        plans.keys.begin(plans.root, ai);
        let dice = node.dice;
        let n_dice = dice.iter().filter(|d| **d != 0).count();
        let full = (1u8 << n_dice) - 1;
        self.plans_using(node, full, &at[..entities]);
        if groups {
            self.group_plays(node, &obs);
        }
        if !matches!(self.plans.best, Some(b) if b.0 as usize >= n_dice + node.used_dice as usize) {
            // Fewer dice: the most that some plan can use, then the most pips.
            let mut masks = [0u8; 7];
            let mut count = 0;
            for m in 0..full {
                masks[count] = m;
                count += 1;
            }
            let usage_of = |m: u8| {
                let pips: u8 = (0..3).filter(|i| m & (1 << i) != 0).map(|i| dice[i]).sum();
                (m.count_ones() as u8, pips)
            };
            masks[..count].sort_unstable_by_key(|&m| core::cmp::Reverse(usage_of(m)));
            for &m in &masks[..count] {
                if let Some((used, pips, _)) = self.plans.best {
                    let (n, p) = usage_of(m);
                    if (node.used_dice + n, node.used_pips + p) < (used, pips) {
                        break;
                    }
                }
                self.plans_using(node, m, &at[..entities]);
            }
        }
        // The plays in the order the reference search finds them.
        let found = core::mem::take(&mut self.plans.found);
        let mut order = core::mem::take(&mut self.plans.order);
        order.clear();
        order.extend(
            found
                .iter()
                .enumerate()
                .map(|(i, f)| f.seq << 20 | i as u64),
        );
        // Nearly in order already (plans of the lowest piece come first).
        insertion_sort(&mut order);
        self.best = self.plans.best;
        let declinable = node.part == Part::ForFinished;
        if !declinable {
            // The plays are read from `found` in `order` when asked for (see
            // `Plans::end_of`): most callers of a random play read one.
            self.plans.found = found;
            self.plans.order = order;
            self.by_plans = Some(PlanStart {
                pos: node.pos,
                actor: node.actor,
                captured_any: node.captured_any,
            });
            return true;
        }
        // A finished player's throw that the partner may decline (seldom):
        // the plays are listed, each end key kept so that declining is
        // listed only where no play ends as it does (see `decline`).
        for &o in &order {
            let f = &found[(o & 0xf_ffff) as usize];
            match self.plans.wholes.get(f.whole as usize) {
                None => {
                    let p = &self.plans;
                    let word = p.root_others | (f.pieces as u128) << p.lane_shift;
                    self.found.insert((word, p.root.1, p.root.2));
                    self.push_plan(node, node.captured_any, f.recipe, f.len as usize, |pos| {
                        pos.pieces[ai] = f.pieces.to_le_bytes();
                    });
                }
                Some(&key) => {
                    self.found.insert(key);
                    let captured_any = key.2 & 1 << 8 != 0;
                    self.push_plan(node, captured_any, f.recipe, f.len as usize, |pos| {
                        pos.pieces = pieces_of(key.0);
                        pos.captured = crate::Colours(key.2 as u8);
                    });
                }
            }
        }
        self.plans.found = found;
        self.plans.order = order;
        true
    }

    /// Every plan using exactly the dice of `mask`: each piece (`at`: the
    /// progress index of each) takes one of its legal orders of some of those
    /// dice, or none.
    fn plans_using(&mut self, node: &Node, mask: u8, at: &[u8]) {
        let n = mask.count_ones() as u8;
        let pips: u8 = (0..3)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| node.dice[i])
            .sum();
        let count = at.len().min(4);
        let mut walk = Walk {
            node,
            count,
            at: [0; 4],
            legal: [0; 4],
            alike: [false; 4],
            usage: (node.used_dice + n, node.used_pips + pips, 0),
            admitted: false,
        };
        for e in 0..count {
            walk.at[e] = at[e];
            walk.legal[e] = self.plans.legal[at[e] as usize & 3];
            walk.alike[e] = e + 1 < count && at[e + 1] == at[e];
        }
        let chosen = Chosen {
            pieces: u32::from_le_bytes(node.pos.pieces[node.actor.index()]),
            takes: 0,
            paths: 0,
            moving: 0,
        };
        self.plans.walk(&mut walk, chosen, 0, mask, u8::MAX);
    }
}

/// A walk over the plans of one use of the dice.
struct Walk<'a> {
    node: &'a Node,
    /// How many pieces (not home) may move.
    count: usize,
    /// Per piece: its progress index, the legal orders searched from its
    /// progress, and whether the next piece is alike (at one progress).
    at: [u8; 4],
    legal: [u16; 4],
    alike: [bool; 4],
    usage: Usage,
    /// Whether this use of the dice has been compared with the best.
    admitted: bool,
}

/// The orders chosen so far in a [`Walk`].
#[derive(Clone, Copy)]
struct Chosen {
    /// The mover's pieces with those orders taken, a byte each.
    pieces: u32,
    /// The squares whose enemies they take.
    takes: u128,
    /// Their paths ([`path_index`]), a byte each, the first lowest.
    paths: u32,
    /// How many.
    moving: u32,
}

impl Plans {
    /// Chooses an order (or none) for piece `e` and the pieces after it, with
    /// the dice `left` and the orders chosen `c`. Pieces at one progress are
    /// alike: their choices go in falling order (`limit`: the choice of the
    /// piece before, if alike).
    fn walk(&mut self, w: &mut Walk, c: Chosen, e: usize, left: u8, limit: u8) {
        if left == 0 {
            self.consider(w, &c);
            return;
        }
        let left = left & 7;
        let mut e = e;
        let mut limit = limit;
        // Pieces with no order of the dice left take none.
        let fitting = self.fitting[left as usize];
        while e < w.count && w.legal[e & 3] & fitting == 0 {
            limit = if w.alike[e & 3] { 0 } else { u8::MAX };
            e += 1;
        }
        if e >= w.count {
            return;
        }
        let here = w.at[e & 3] as usize;
        let last = e + 1 == w.count;
        let alike = w.alike[e & 3];
        // The last piece must take every die left.
        let fits = if last {
            self.exact[left as usize]
        } else {
            fitting
        };
        let mut legal = w.legal[e & 3] & fits;
        let shift = 8 * e as u32;
        while legal != 0 {
            let o = legal.trailing_zeros() as usize;
            legal &= legal - 1;
            let choice = o as u8 + 1;
            if choice > limit {
                break;
            }
            let used = self.fit[o & 15][left as usize];
            let index = path_index(here, o);
            let path = &self.paths[index];
            let next = Chosen {
                pieces: c.pieces & !(0xff << shift) | (path.end as u32) << shift,
                takes: c.takes | path.takes,
                paths: c.paths | (index as u32) << (8 * c.moving),
                moving: c.moving + 1,
            };
            let rest = left & !used;
            if rest == 0 {
                // (Not through another call of `walk`.)
                self.consider(w, &next);
            } else {
                self.walk(w, next, e + 1, rest, if alike { choice } else { u8::MAX });
            }
        }
        // Choice 0, last (the plays come nearer their final order): this
        // piece takes no die.
        if !last {
            self.walk(w, c, e + 1, left, if alike { 0 } else { u8::MAX });
        }
    }

    /// The play of a plan: its steps in their least interleaving, and where it
    /// ends.
    // (Out of line: the walk calls it from two places.)
    #[inline(never)]
    fn consider(&mut self, w: &mut Walk, c: &Chosen) {
        if !w.admitted {
            w.admitted = true;
            match self.best {
                Some(b) if w.usage < b => {
                    // Never better: mark every later plan of this use as worse.
                    w.usage = (0, 0, 0);
                    w.admitted = false;
                    return;
                }
                Some(b) if w.usage == b => {}
                _ => {
                    self.best = Some(w.usage);
                    self.found.clear();
                    self.keys.clear();
                }
            }
        }
        let node = w.node;
        let a = node.actor;
        let ai = a.index();
        let mut pieces = c.pieces.to_le_bytes();
        sort4(&mut pieces);
        let takes = c.takes;
        // The least interleaving: always the least next step of any piece,
        // the first piece's on a tie. Its order key and recipe are made from
        // each piece's own (see `Path`): 12 bits and a byte a step.
        let m = c.moving;
        let path = |j: u32| {
            let p = &self.paths[(c.paths >> (8 * j)) as usize & 63];
            (p, p.len)
        };
        let (seq, recipe, total): (u64, u32, usize) = match m {
            0 => (0, 0, 0),
            1 => {
                let (p, n) = path(0);
                (p.seq, p.recipe, n as usize)
            }
            // Three pieces of one step each: their steps by key.
            3 => {
                let (p, q, r) = (path(0).0, path(1).0, path(2).0);
                let k = [p.seq >> 24, q.seq >> 24, r.seq >> 24];
                let b = [p.recipe, q.recipe, r.recipe];
                let mut o = [0usize, 1, 2];
                if k[o[1]] < k[o[0]] {
                    o.swap(0, 1);
                }
                if k[o[2]] < k[o[1]] {
                    o.swap(1, 2);
                }
                if k[o[1]] < k[o[0]] {
                    o.swap(0, 1);
                }
                (
                    k[o[0]] << 24 | k[o[1]] << 12 | k[o[2]],
                    b[o[0]] | b[o[1]] << 8 | b[o[2]] << 16,
                    3,
                )
            }
            // Two pieces: the steps of one of them (a single step when both
            // have one, the second's) go among the other's where their key
            // falls, after equal keys of the first piece (as the least next
            // step of any piece is taken, the first piece's on a tie).
            _ => {
                let ((p, lp), (q, lq)) = (path(0), path(1));
                let (seq, recipe, n, k, b, second) = if lq == 1 {
                    (p.seq, p.recipe, lp, q.seq >> 24, q.recipe, true)
                } else {
                    (q.seq, q.recipe, lq, p.seq >> 24, p.recipe, false)
                };
                let before = |x: u64| if second { x <= k } else { x < k };
                // (A piece's own keys may fall where it goes round the loop
                // again: its second step can come after the single's though
                // its first does not.)
                let at = if before(seq >> 24) {
                    1 + (n == 2 && before(seq >> 12 & 0xfff)) as u32
                } else {
                    0
                };
                // The keys before `at` stay, the rest go one place later.
                let kept = !0u64 << (36 - 12 * at);
                let seq = seq & kept | k << (24 - 12 * at) | (seq & !kept) >> 12;
                let low = (1u32 << (8 * at)) - 1;
                let recipe = recipe & low | b << (8 * at) | (recipe & !low) << 8;
                (seq, recipe, (lp + lq) as usize)
            }
        };
        let pieces = u32::from_le_bytes(pieces);
        let index = self.found.len() as u32;
        let (entry, whole) = if takes == 0 {
            // Only the mover's pieces differ from the root.
            (self.keys.entry_moving(pieces, index), MOVING)
        } else {
            // The root's word with the mover's lane replaced (by shifts: a
            // lane written into an array and the word read back would wait).
            // The other colours' pieces as the plan's captures leave them:
            // as its one path that takes leaves them, if only one does.
            let (mut takers, mut taker) = (0, 0);
            for j in 0..m.min(3) {
                let i = (c.paths >> (8 * j)) as usize & 63;
                if self.paths[i].takes != 0 {
                    takers += 1;
                    taker = i;
                }
            }
            let others = if takers == 1 {
                self.taken[taker]
            } else {
                taken(self.root_others, &node.pos, a, takes)
            };
            let word = others | (pieces as u128) << self.lane_shift;
            let key = (word, self.root.1, self.root.2 | 1 << ai | 1 << 8);
            match self.keys.entry(key, index) {
                None => {
                    self.wholes.push(key);
                    (None, self.wholes.len() as u32 - 1)
                }
                seen => (seen, MOVING),
            }
        };
        let better = match entry {
            None => None,
            Some(i) if seq < self.found[i as usize].seq => Some(i as usize),
            Some(_) => return,
        };
        match better {
            Some(i) => {
                let f = &mut self.found[i];
                f.seq = seq;
                f.recipe = recipe;
                f.len = total as u8;
            }
            None => {
                self.found.push(Found {
                    seq,
                    recipe,
                    len: total as u8,
                    pieces,
                    whole,
                });
            }
        }
    }

    /// Keeps a play (its key `key`, order key `seq`): new, or reached again by a
    /// lesser sequence.
    #[inline]
    fn add(&mut self, key: (u128, u128, u64), seq: u64, steps: &[Step]) {
        let mut all = [NO_STEP; 3];
        all[..steps.len()].copy_from_slice(steps);
        let recipe = EXPLICIT | self.explicit.len() as u32;
        match self.keys.entry(key, self.found.len() as u32) {
            None => {
                self.explicit.push(all);
                self.wholes.push(key);
                self.found.push(Found {
                    seq,
                    recipe,
                    len: steps.len() as u8,
                    pieces: 0,
                    whole: self.wholes.len() as u32 - 1,
                });
            }
            Some(i) => {
                let f = &mut self.found[i as usize];
                if seq < f.seq {
                    self.explicit.push(all);
                    f.seq = seq;
                    f.recipe = recipe;
                    f.len = steps.len() as u8;
                }
            }
        }
    }

    /// How many plays the last listing by plans found (see
    /// [`Generator::list_plans`]).
    pub(super) fn len(&self) -> usize {
        self.order.len()
    }

    /// The record of play `i` of the last listing by plans (in the order
    /// of the plays).
    fn play(&self, i: usize) -> &Found {
        &self.found[(self.order[i] & 0xf_ffff) as usize]
    }

    /// The recipe of play `i` of the last listing by plans and how many
    /// steps it has (see `steps_of`).
    pub(super) fn recipe_of(&self, i: usize) -> (u32, usize) {
        let f = self.play(i);
        (f.recipe, f.len as usize)
    }

    /// The position play `i` of the last listing by plans ends at (before
    /// the end of the turn), made from its start `start`, and whether the
    /// turn captured.
    pub(super) fn end_of(&self, i: usize, start: &PlanStart) -> (Position, bool) {
        let f = self.play(i);
        let mut pos = start.pos;
        match self.wholes.get(f.whole as usize) {
            None => {
                pos.pieces[start.actor.index()] = f.pieces.to_le_bytes();
                (pos, start.captured_any)
            }
            Some(&key) => {
                pos.pieces = pieces_of(key.0);
                pos.captured = crate::Colours(key.2 as u8);
                (pos, key.2 & 1 << 8 != 0)
            }
        }
    }

    /// The steps of a plan's play from its recipe (see `consider`): each
    /// step's piece (its progress index), order and place in the order.
    pub(super) fn steps_of(&self, recipe: u32, colour: crate::Colour) -> [Step; 4] {
        let mut steps = [NO_STEP; 4];
        if recipe & EXPLICIT != 0 {
            if let Some(e) = self.explicit.get((recipe & !EXPLICIT) as usize) {
                steps[..3].copy_from_slice(e);
            }
            return steps;
        }
        for (t, s) in steps.iter_mut().take(3).enumerate() {
            let b = (recipe >> (8 * t)) as u8;
            let (d, o, i) = ((b >> 6) as usize, (b >> 2 & 0xf) as usize, (b & 3) as usize);
            let Some(order) = self.orders.get(o) else {
                continue;
            };
            // The orders of its first i + 1 and first i dice: its own and its
            // parents'.
            let (mut upto, mut before) = (o, NONE as usize);
            for _ in i..(order.len as usize).saturating_sub(1) {
                upto = self.orders.get(upto).map_or(NONE, |x| x.parent) as usize;
            }
            if i > 0 {
                before = self.orders.get(upto).map_or(NONE, |x| x.parent) as usize;
            }
            let end = |x: usize| self.paths[path_index(d, x)].end;
            *s = Step {
                colour,
                from: if i == 0 {
                    self.starts.get(d).copied().unwrap_or(0)
                } else {
                    end(before)
                },
                to: end(upto),
                pieces: 1,
                by: order.dice[i.min(2)],
                dice: 1,
                declare: None,
            };
        }
        steps
    }
}

impl Generator {
    /// The plays with a step of a whole group by an equal pair, by the full
    /// rules: the group's step first and then a single with the die left, or
    /// a single first and then a group's step.
    fn group_plays(&mut self, node: &Node, obs: &Obstacles) {
        let d = node.dice;
        let (pair, rest) = if d[0] != 0 && d[0] == d[1] {
            (2 * d[0], d[2])
        } else if d[1] != 0 && d[1] == d[2] {
            (2 * d[1], d[0])
        } else {
            return;
        };
        let a = node.actor;
        let single = |from| Unit {
            from,
            size: 1,
            group_pair: false,
        };
        let step = |unit: &Unit, to, by, dice| Step {
            colour: a,
            from: unit.from,
            to,
            pieces: unit.size,
            by,
            dice,
            declare: None,
        };
        // [group, single] and [group] when no single can follow.
        for group in groups(&node.pos.pieces[a.index()]) {
            let Some(to) = destination(node, obs, &group, pair) else {
                continue;
            };
            let g = step(&group, to, pair, 2);
            let after = apply_among(node, &g, obs.others);
            let mut any = false;
            if rest != 0 {
                let obs1 = same_or_new(obs, &g, &after);
                for from in starts(&after.pos.pieces[a.index()]) {
                    let u = single(from);
                    if let Some(to) = destination(&after, &obs1, &u, rest) {
                        let s = step(&u, to, rest, 1);
                        let end = apply_among(&after, &s, obs1.others);
                        self.plans.add_node(&end, &[g, s]);
                        any = true;
                    }
                }
            }
            if !any {
                self.plans.add_node(&after, &[g]);
            }
        }
        // [single, group]: the single uses the die that is not in the pair.
        if rest == 0 {
            return;
        }
        let own = node.pos.pieces[a.index()];
        for from in starts(&own) {
            let u = single(from);
            let Some(to) = destination(node, obs, &u, rest) else {
                continue;
            };
            // A group after the step: one there before (not the single's
            // own, if it left it), or where it lands on its own pieces.
            let before = own.iter().filter(|&&p| p == from).count();
            let any_group = groups(&own).any(|g| g.from != from || before > 2)
                || (to != HOME && own.contains(&to));
            if !any_group {
                continue;
            }
            let s = step(&u, to, rest, 1);
            let after = apply_among(node, &s, obs.others);
            let obs1 = same_or_new(obs, &s, &after);
            for group in groups(&after.pos.pieces[a.index()]) {
                if let Some(to) = destination(&after, &obs1, &group, pair) {
                    let g = step(&group, to, pair, 2);
                    let end = apply_among(&after, &g, obs1.others);
                    self.plans.add_node(&end, &[s, g]);
                }
            }
        }
    }
}

impl Plans {
    /// Keeps the play of `steps` ending at `end` (searched by the full rules).
    fn add_node(&mut self, end: &Node, steps: &[Step]) {
        let usage = (end.used_dice, end.used_pips, 0);
        match self.best {
            Some(b) if usage < b => return,
            Some(b) if usage == b => {}
            _ => {
                self.best = Some(usage);
                self.found.clear();
                self.keys.clear();
            }
        }
        if end.pos.blocks != [[0; 2]; 4] {
            // Never with groups; the plays' keys hold no blocks.
            return;
        }
        self.add(end_key(end), seq_key(steps), steps);
    }
}

/// Whether no piece can land where another stands or may land, judged from
/// every sum of the dice before any step is checked (a superset of where the
/// legal steps land): the cheap half of [`Plans::calm`]. `circles`: the mover
/// goes round the loop again instead of turning home.
fn apart(progress: &[u8], at: &[u8], dice: [u8; 3], circles: bool) -> bool {
    let [a, b, c] = dice;
    // Every sum as a bit, moved to each progress in one shift.
    let sums = [a, b, c, a + b, a + c, b + c, a + b + c]
        .iter()
        .fold(0u128, |m, &s| m | 1u128.checked_shl(s.into()).unwrap_or(0));
    // Progress values past the loop's end, and those on the board.
    const PAST_LOOP: u128 = !((1u128 << (LOOP_END + 1)) - 1);
    const BOARD: u128 = (1u128 << HOME) - 1;
    let mut reach = [0u128; 4];
    for (r, &p) in reach.iter_mut().zip(progress) {
        let mut q = sums.checked_shl(p.into()).unwrap_or(0);
        if circles && p != START && p <= LOOP_END {
            // Round the loop again instead of past its end.
            let past = q & PAST_LOOP;
            q = (q ^ past) | past >> LOOP_LEN;
        }
        *r = q & BOARD;
    }
    apart_by(progress, at, &reach)
}

/// Whether no piece can land where another stands or may land, given where
/// the pieces of each progress (`progress`, per piece `at`) may land
/// (`reach`, progress bits): pieces alike (several at one progress, in the
/// Charkoni) may land on each other whenever they may land at all.
fn apart_by(progress: &[u8], at: &[u8], reach: &[u128; 4]) -> bool {
    for d in 0..progress.len() {
        if reach[d] != 0 && at.iter().filter(|&&x| x as usize == d).count() > 1 {
            return false;
        }
        for e in 0..progress.len() {
            if d != e && reach[d] & (reach[e] | 1u128 << progress[e]) != 0 {
                return false;
            }
        }
    }
    true
}

/// The obstacles in the way of the mover after `step` from a node whose are
/// `obs`: the same when it landed where no other colour stands (with groups
/// there are no blocks to make or leave), made again when it may have captured.
fn same_or_new(obs: &Obstacles, step: &Step, after: &Node) -> Obstacles {
    let a = after.actor;
    if step.to == HOME || obs.others & board::square_bit(a.index(), step.to) == 0 {
        *obs
    } else {
        obstacles(&after.pos, a)
    }
}

/// The distinct progress values of a colour's pieces not home (sorted).
fn starts(pieces: &[u8; 4]) -> impl Iterator<Item = u8> + '_ {
    (0..4)
        .filter(move |&i| pieces[i] != HOME && (i == 0 || pieces[i - 1] != pieces[i]))
        .map(move |i| pieces[i])
}

/// The groups among a colour's pieces: two or more at one progress on the board.
fn groups(pieces: &[u8; 4]) -> impl Iterator<Item = Unit> + '_ {
    starts(pieces).filter_map(move |p| {
        let n = pieces.iter().filter(|x| **x == p).count() as u8;
        (p != START && n >= 2).then_some(Unit {
            from: p,
            size: n,
            group_pair: true,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set bits of a word, lowest first, as indices.
    #[derive(Clone, Copy)]
    struct Bits16(u16);

    impl Iterator for Bits16 {
        type Item = usize;
        #[inline]
        fn next(&mut self) -> Option<usize> {
            if self.0 == 0 {
                return None;
            }
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }

    /// `apart` finds where each progress may land with one shift of the
    /// dice's sums a progress: two pieces are apart exactly where neither
    /// reaches the other's square or a square the other reaches, by the
    /// plain sum of each subset of the dice (round the loop again where the
    /// mover circles), for every throw of either set of faces and every two
    /// progress values.
    #[test]
    fn reach_by_shifts_is_reach_by_sums() {
        let plain = |p: u8, [a, b, c]: [u8; 3], circles: bool| {
            let mut reach = 0u128;
            for s in [a, b, c, a + b, a + c, b + c, a + b + c] {
                let mut q = p + s;
                if circles && p != START && p <= LOOP_END && q > LOOP_END {
                    q -= LOOP_LEN;
                }
                if q < HOME {
                    reach |= 1u128 << q;
                }
            }
            reach
        };
        let mut throws = Vec::new();
        for faces in [[1u8, 2, 5, 6], [1, 3, 4, 6]] {
            for a in faces {
                for b in faces {
                    for c in faces {
                        throws.push([a, b, c]);
                    }
                }
            }
        }
        for dice in throws {
            for circles in [false, true] {
                for p in START..HOME {
                    for q in p + 1..HOME {
                        let (rp, rq) = (plain(p, dice, circles), plain(q, dice, circles));
                        let expected = rp & (rq | 1u128 << q) == 0 && rq & (rp | 1u128 << p) == 0;
                        assert_eq!(
                            apart(&[p, q], &[0, 1], dice, circles),
                            expected,
                            "{dice:?} from {p} and {q}, circles {circles}"
                        );
                    }
                }
            }
        }
    }

    /// `Plans::least_orders` takes the first legal order of each group of
    /// orders of the same dice as its least: for every throw of either set
    /// of faces, the groups cover every order once, and each lists its
    /// orders in falling lexicographic order of their dice.
    #[test]
    fn each_groups_orders_fall_lexicographically() {
        for faces in [[1u8, 2, 5, 6], [1, 3, 4, 6]] {
            for a in faces {
                for b in faces {
                    for c in faces {
                        let mut throw = [a, b, c];
                        throw.sort_unstable_by(|x, y| y.cmp(x));
                        let orders = Orders::of(throw);
                        let all = (1u32 << orders.count) - 1;
                        let mut covered = 0u32;
                        for &g in &orders.groups {
                            assert_eq!(covered & g as u32, 0, "{throw:?}: groups overlap");
                            covered |= g as u32;
                            let dice: Vec<&[u8]> = Bits16(g)
                                .map(|o| &orders.orders[o].dice[..orders.orders[o].len as usize])
                                .collect();
                            assert!(
                                dice.windows(2).all(|w| w[0] > w[1]),
                                "{throw:?}: {dice:?} not falling"
                            );
                        }
                        assert_eq!(covered, all, "{throw:?}: every order in a group");
                    }
                }
            }
        }
    }
}
