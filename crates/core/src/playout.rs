//! A fast playout policy for search: each turn throws the dice and takes one random
//! legal step at a time until no step is left, without listing whole plays.
//!
//! Every step is legal on its own, and a turn only ends when nothing more can move,
//! so the throw is used as far as this order of steps allows. Unlike
//! [`crate::legal_plays`] it does not compare orders: in rare positions a playout
//! turn uses less of the throw than the best order would, and it never declines a
//! finished partner's throw. It is meant for Monte Carlo playouts, not for play.
//!
//! ```
//! use chaupar_core::{playout, Position, Preset, Rules};
//! use rand_chacha::rand_core::SeedableRng;
//! let start = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let end = playout::random_playout(&start, &mut rng, 5000);
//! assert!(end.position.winner().is_some() || end.turns == 5000);
//! ```

use rand_core::RngCore;

use crate::board::{HOME, START};
use crate::dice::Throw;
use crate::play::{
    destination_here, distance_count, finish_in, for_each_step_fast, for_each_unit,
    has_any_step_with, mark_dead, needs_declaration, nth_distance, obstacles, step_among, Node,
    Obstacles, Standing, Unit, MOVED,
};
use crate::position::Position;
use crate::rules::{Split, Stacking, ThrowUse};
use crate::step::Declare;
use crate::step::Step;

/// The end of a playout.
#[derive(Clone, Copy, Debug)]
pub struct Playout {
    /// The last position reached.
    pub position: Position,
    /// Turns played.
    pub turns: u32,
}

/// A random generator whose place in its stream can be noted and gone back
/// to. A playout turn whose thrower may pass the throw to the partner asks
/// whether the thrower is stuck only when its first draws find no step, and
/// takes those draws back if it is: the partner then draws what it would
/// have drawn had the question come first, without the question's cost at
/// every turn (or a copy of the generator's state at every turn, which cost
/// nearly as much).
pub trait Rewind: RngCore {
    /// A place in the stream.
    type Mark: Copy;
    /// Where the generator stands now.
    fn mark(&self) -> Self::Mark;
    /// Goes back (or on) to `mark`: the next draws are those that followed it.
    fn rewind(&mut self, mark: Self::Mark);
}

macro_rules! rewind_by_word_pos {
    ($($rng:ty),*) => {$(
        impl Rewind for $rng {
            type Mark = u128;
            #[inline]
            fn mark(&self) -> u128 {
                self.get_word_pos()
            }
            fn rewind(&mut self, mark: u128) {
                self.set_word_pos(mark);
            }
        }
    )*};
}

rewind_by_word_pos!(
    rand_chacha::ChaCha8Rng,
    rand_chacha::ChaCha12Rng,
    rand_chacha::ChaCha20Rng
);

/// Throws three dice of the position's faces from `rng`.
pub fn throw(pos: &Position, rng: &mut impl RngCore) -> Throw {
    Throw::from_bits(pos.rules().faces, rng.next_u32())
}

/// Plays one turn of `pos` with `throw` by random steps; the position after it.
pub fn random_turn(pos: &Position, throw: Throw, rng: &mut impl Rewind) -> Position {
    let scratch = &mut [None; 96];
    let Ok(mut node) = Node::begin(pos, throw) else {
        return *pos;
    };
    let standing = &mut Standing::default();
    match Kind::of(pos.rules()) {
        Kind::Kept => turn_in::<Units>(&mut node, rng, scratch, standing),
        Kind::Groups => turn_in::<Groups>(&mut node, rng, scratch, standing),
        Kind::Stacks => turn_in::<Stacks>(&mut node, rng, scratch, standing),
        Kind::Plain => turn_in::<Plain>(&mut node, rng, scratch, standing),
    }
    node.pos
}

/// `x % d` (0 for `d` 0), by a multiplication where `d` is below 256, as
/// the counts drawn from here are: `x` times the inverse of `d` rounded up
/// is `x / d` in the top bits and the remainder in the fraction, which
/// times `d` gives it exactly for every 32-bit `x` (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019). The same draws
/// as `%`, for a fifth of the time of a division.
#[inline(always)]
fn remainder(x: u32, d: u32) -> u32 {
    match INVERSES.get(d as usize) {
        Some(&inverse) if d != 0 => {
            let fraction = inverse.wrapping_mul(x as u64);
            ((fraction as u128 * d as u128) >> 64) as u32
        }
        _ => x.checked_rem(d).unwrap_or(0),
    }
}

/// Per `d` below 256, `2^64 / d` rounded up (modulo `2^64`: 0 for 1).
const INVERSES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut d = 1;
    while d < 256 {
        table[d] = (u64::MAX / d as u64).wrapping_add(1);
        d += 1;
    }
    table
};

/// Which way of drawing steps serves a rule set (see [`Sampler`]).
#[derive(Clone, Copy)]
enum Kind {
    /// Split totals with automatic super-pieces and no splitting: the units
    /// are kept between steps ([`Units`]).
    Kept,
    /// Each die on its own with groups (chausar): the units follow from the
    /// squares ([`sample_group_step`]).
    Groups,
    /// Each die on its own with super-pieces or blocks (classic): the units
    /// follow from the pieces ([`sample_stack_step`]).
    Stacks,
    /// Anything else: [`sample_step`].
    Plain,
}

impl Kind {
    fn of(rules: &crate::Rules) -> Kind {
        match (rules.throw, rules.stacking) {
            (ThrowUse::Total, Stacking::Super) if rules.split == Split::Never => Kind::Kept,
            (ThrowUse::Dice, Stacking::Group) => Kind::Groups,
            (ThrowUse::Dice, Stacking::Super | Stacking::Declare) => Kind::Stacks,
            _ => Kind::Plain,
        }
    }
}

/// A step drawn by a playout: a [`Step`]'s fields, unaligned. (A `Step` is
/// aligned as one word for the listings' copies; a step drawn in one of
/// several places and then taken would be packed into that word and read
/// back field by field, where these bytes stay apart.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Drawn {
    colour: crate::Colour,
    from: u8,
    to: u8,
    pieces: u8,
    by: u8,
    dice: u8,
    declare: Option<Declare>,
}

impl Drawn {
    /// The step drawn.
    #[inline(always)]
    fn step(self) -> Step {
        Step {
            colour: self.colour,
            from: self.from,
            to: self.to,
            pieces: self.pieces,
            by: self.by,
            dice: self.dice,
            declare: self.declare,
        }
    }

    /// A step as drawn.
    #[inline(always)]
    fn of(s: &Step) -> Drawn {
        Drawn {
            colour: s.colour,
            from: s.from,
            to: s.to,
            pieces: s.pieces,
            by: s.by,
            dice: s.dice,
            declare: s.declare,
        }
    }
}

/// A way of drawing a random step of a turn, made for the turn. Each way
/// is its own instance of [`turn_in`], chosen once a playout, so
/// that the turn's loop holds only its own.
trait Sampler: Default {
    /// Up to eight random draws of a unit and a distance; the first legal
    /// one (the draws of [`sample_step`]).
    fn sample(&mut self, node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn>;
    /// Takes `step`, just applied to make `node`, into account.
    #[inline]
    fn stepped(&mut self, _node: &Node, _step: &Step) {}
    /// Whether the obstacles are found with the squares of colours that
    /// did not move kept from turn to turn ([`Standing`]): fewer
    /// instructions where blockades past half way are looked for
    /// (chausar: 4.6% fewer for a playout), more where the obstacles are
    /// cheap to find anyway (1 to 3% more in chaupar and classic).
    const KEEPS_SQUARES: bool = false;
}

/// The obstacles in the way of the node's actor, found by the way `S` keeps.
#[inline(always)]
fn obstacles_for<S: Sampler>(node: &Node, standing: &mut Standing) -> Obstacles {
    if S::KEEPS_SQUARES {
        standing.obstacles(&node.pos, node.actor)
    } else {
        obstacles(&node.pos, node.actor)
    }
}

/// [`sample_step`] as a [`Sampler`].
#[derive(Default)]
struct Plain;

impl Sampler for Plain {
    #[inline]
    fn sample(&mut self, node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn> {
        sample_step(node, obs, rng)
    }
}

/// [`sample_group_step`] as a [`Sampler`].
#[derive(Default)]
struct Groups;

impl Sampler for Groups {
    const KEEPS_SQUARES: bool = true;

    #[inline]
    fn sample(&mut self, node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn> {
        sample_group_step(node, obs, rng)
    }
}

/// [`sample_stack_step`] as a [`Sampler`].
#[derive(Default)]
struct Stacks;

impl Sampler for Stacks {
    #[inline]
    fn sample(&mut self, node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn> {
        sample_stack_step(node, obs, rng)
    }
}

/// Takes a playout's step: applies it, tells the sampler, and finds the
/// obstacles again if it changed them (they change only with the other
/// colours' pieces, a capture, or a block made or left: a super-piece
/// declared changes no block).
#[inline(always)]
fn take_step<S: Sampler>(
    node: &mut Node,
    drawn: Drawn,
    obs: &mut Obstacles,
    sampler: &mut S,
    standing: &mut Standing,
) {
    let step = &drawn.step();
    let blocks = node.pos.rules.stacking == Stacking::Declare
        && (step.declare == Some(Declare::Block) || node.pos.is_block(node.actor, step.from));
    let captured = step_among(node, step, obs.others);
    sampler.stepped(node, step);
    if captured || blocks {
        *obs = obstacles_for::<S>(node, standing);
    }
}

/// Plays the turn `node` begins ([`Node::begin`]) by random steps, in place:
/// `node.pos` is then the position after it. `scratch`: a buffer for the
/// steps of a node drawn from in full. (In place: a position copied out of
/// the node just after a step or the end of the turn wrote some of its
/// bytes is read in wide words that wait for those writes to land.)
#[inline]
fn turn_in<S: Sampler>(
    node: &mut Node,
    rng: &mut impl Rewind,
    scratch: &mut [Option<Step>; 96],
    standing: &mut Standing,
) {
    let mut moved = false;
    // The obstacles stay while steps capture nothing and make or break no
    // block; they are found again after any other step. (Not from a cache:
    // a new turn, a pass and such a step almost always change what they
    // depend on, so comparing would only add the cost of a key.)
    let mut obs = obstacles_for::<S>(node, standing);
    // What `Node::start` settles: a thrower with no step passes the throw to
    // the partner. Most throwers have a step, and the first draws usually
    // find one, which says so without looking at every unit; only when they
    // fail is the question asked, and if the thrower is stuck the draws are
    // taken back (the generator as it was), so that the partner draws what
    // it would have drawn had the question come first.
    let mut saved = node.may_pass().then(|| rng.mark());
    let mut sampler = S::default();
    while node.left() {
        // Most of the time a few random draws of (unit, distance) find a legal step
        // without listing them all; each draw is uniform over the pairs, so an
        // accepted one is uniform over the legal pairs.
        let sampled = sampler.sample(node, &obs, rng);
        if let Some(mark) = saved.take() {
            if sampled.is_none() && !has_any_step_with(node, &obs) {
                rng.rewind(mark);
                *node = node.passed();
                obs = obstacles_for::<S>(node, standing);
                continue;
            }
        }
        match sampled {
            // Taken where it is drawn (one step value from two ways would
            // be packed into a word and read back field by field).
            Some(s) => take_step(node, s, &mut obs, &mut sampler, standing),
            None => {
                let buf = &mut *scratch;
                let mut n = 0usize;
                let mut seen = 0u32;
                // Reservoir sampling keeps a uniform choice without storing every step.
                for_each_step_fast(node, &obs, |s| {
                    seen += 1;
                    if n < buf.len() {
                        buf[n] = Some(s);
                        n += 1;
                    } else if remainder(rng.next_u32(), seen) < buf.len() as u32 {
                        buf[(rng.next_u32() as usize) % buf.len()] = Some(s);
                    }
                });
                if n == 0 {
                    match node.pass() {
                        Some(p) => {
                            *node = p;
                            obs = obstacles_for::<S>(node, standing);
                            continue;
                        }
                        None => break,
                    }
                }
                let pick = remainder(rng.next_u32(), n as u32) as usize;
                match buf[pick] {
                    Some(s) => take_step(node, Drawn::of(&s), &mut obs, &mut sampler, standing),
                    None => continue,
                }
            }
        }
        moved = true;
    }
    finish_in(&mut node.pos, node.actor, node.captured_any);
    if !moved {
        mark_dead(&mut node.pos);
    }
}

/// Plays random turns from `start` until the game ends or `max_turns` are played.
pub fn random_playout(start: &Position, rng: &mut impl Rewind, max_turns: u32) -> Playout {
    match Kind::of(start.rules()) {
        Kind::Kept => playout_with::<Units>(start, rng, max_turns),
        Kind::Groups => playout_with::<Groups>(start, rng, max_turns),
        Kind::Stacks => playout_with::<Stacks>(start, rng, max_turns),
        Kind::Plain => playout_with::<Plain>(start, rng, max_turns),
    }
}

/// [`random_playout`] drawing steps with `S`.
fn playout_with<S: Sampler>(start: &Position, rng: &mut impl Rewind, max_turns: u32) -> Playout {
    // One node from turn to turn: its position is never copied.
    let mut node = Node::at_rest(start);
    let mut turns = 0;
    let mut scratch = [None; 96];
    let mut standing = Standing::default();
    while node.pos.to_move().is_some() && turns < max_turns {
        let t = throw(&node.pos, rng);
        // A throw that cannot be played (the game is over) leaves the
        // position as it is.
        if node.begin_again(t).is_ok() {
            turn_in::<S>(&mut node, rng, &mut scratch, &mut standing);
        }
        turns += 1;
    }
    Playout {
        position: node.pos,
        turns,
    }
}

/// The units a playout turn's actor may move, kept between its steps where
/// the throw is a total split among units that join automatically and never
/// split (`throw=total`, `stacking=super`, `split=never`): a step there takes
/// the unit it moves out of play for the turn, and the unit it lands on (the
/// pieces there now stand with moved ones); nothing else changes. They are
/// listed in [`for_each_unit`]'s order, so the draws are [`sample_step`]'s.
#[derive(Default)]
struct Units {
    list: [Unit; 12],
    count: usize,
    /// Whose units, if they are listed.
    of: Option<crate::Colour>,
}

impl Sampler for Units {
    /// [`sample_step`] with the units kept (listed first if they are not).
    #[inline]
    fn sample(&mut self, node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn> {
        if self.of != Some(node.actor) {
            self.count = 0;
            let (list, count) = (&mut self.list, &mut self.count);
            for_each_unit(node, |u| {
                if *count < list.len() {
                    list[*count] = u;
                    *count += 1;
                }
            });
            self.of = Some(node.actor);
        }
        // Every unit is offered every distance from 1 to the points left.
        let pips = node.pips as u32;
        let pairs = self.count as u32 * pips;
        if pairs == 0 {
            return None;
        }
        for _ in 0..8 {
            // The unit and distance of pair k, by subtraction (a division
            // costs more than the few units here).
            let mut k = remainder(rng.next_u32(), pairs);
            let mut j = 0;
            while k >= pips && j + 1 < self.count {
                k -= pips;
                j += 1;
            }
            let u = self.list[j];
            let by = k as u8 + 1;
            if let Some(to) = destination_here(node, obs, &u, by) {
                return Some(Drawn {
                    colour: node.actor,
                    from: u.from,
                    to,
                    pieces: u.size,
                    by,
                    dice: 0,
                    declare: None,
                });
            }
        }
        None
    }

    #[inline]
    fn stepped(&mut self, node: &Node, step: &Step) {
        if self.of != Some(step.colour) {
            return;
        }
        // The Charkoni's unit stays while an unmoved piece is left there.
        let charkoni = step.from == START && node.pos.pieces[step.colour.index()].contains(&START);
        let mut kept = 0;
        for i in 0..self.count {
            let u = self.list[i];
            if (u.from == step.from && !charkoni) || u.from == step.to {
                continue;
            }
            self.list[kept] = u;
            kept += 1;
        }
        self.count = kept;
    }
}

/// The distinct dice left (largest first, as [`nth_distance`] offers a
/// single piece its distances) and how many.
#[inline(always)]
fn distinct_dice(d: [u8; 3]) -> ([u8; 4], u32) {
    let mut distances = [0u8; 4];
    let mut single = 0u32;
    for i in 0..3 {
        if d[i] != 0 && (i == 0 || d[i] != d[i - 1]) {
            distances[single as usize] = d[i];
            single += 1;
        }
    }
    (distances, single)
}

/// [`sample_step`] where each die moves on its own and pieces stand together
/// as groups (`throw=dice`, `stacking=group`): the units are the squares of
/// the actor's pieces, each a single piece and, away from the Charkoni with
/// two or more, the whole group, so a draw is found from the pieces without
/// listing the units. The same draws as [`sample_step`].
#[inline]
fn sample_group_step(node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn> {
    let pieces = node.pos.pieces[node.actor.index()];
    // Each die moves on its own here (never a total): a single may go
    // each distinct die, a group the equal pair's sum if there is one.
    let d = node.dice;
    let (distances, single) = distinct_dice(d);
    let pair_die = if d[0] != 0 && d[0] == d[1] {
        d[0]
    } else if d[1] != 0 && d[1] == d[2] {
        d[1]
    } else {
        0
    };
    let pair = (pair_die != 0) as u32;
    // The draws of each square, on the first of its pieces (they are
    // sorted, those home and the moved last), without a branch on where
    // the pieces stand: a single, and the group where two or more stand
    // away from the Charkoni.
    let mut weights = [0u32; 4];
    let mut pairs = 0u32;
    for i in 0..4 {
        let at = pieces[i];
        let first = i == 0 || at != pieces[i - 1];
        let grouped = i + 1 < 4 && pieces[i + 1] == at && at != START;
        // Home (84) and moved (marked, 128 and over) pieces are not units.
        let w = if first && at < HOME {
            single + if grouped { pair } else { 0 }
        } else {
            0
        };
        weights[i] = w;
        pairs += w;
    }
    if pairs == 0 {
        return None;
    }
    for _ in 0..8 {
        let mut k = remainder(rng.next_u32(), pairs);
        // The piece whose square draw k falls on, without a branch on the
        // draw (a random draw's square is a branch no predictor knows): the
        // squares wholly before it are counted and their draws taken off.
        let (mut j, mut before, mut end) = (0, 0, 0);
        for &w in &weights {
            end += w;
            let past = (k >= end) as u32;
            j += past as usize;
            before += past * w;
        }
        k -= before;
        let at = pieces[j & 3];
        // A single first, then the group.
        let group = k >= single;
        let size = pieces.iter().map(|p| (*p == at) as u8).sum::<u8>();
        let u = Unit {
            from: at,
            size: if group { size } else { 1 },
            group_pair: group,
        };
        let (by, dice) = if group {
            (2 * pair_die, 2)
        } else {
            (distances[(k & 3) as usize], 1)
        };
        if let Some(to) = destination_here(node, obs, &u, by) {
            return Some(Drawn {
                colour: node.actor,
                from: u.from,
                to,
                pieces: u.size,
                by,
                dice,
                declare: None,
            });
        }
    }
    None
}

/// [`sample_step`] where each die moves on its own and pieces of a colour
/// on one square make a super-piece or a block (`throw=dice`,
/// `stacking=super` or `declare`): a square's units are the whole stack,
/// then (`split=top`) each smaller number of pieces off its top, and only
/// one piece from the Charkoni or a block, so each piece of a square but the
/// first stands for one of the smaller units. A draw is found from the
/// pieces without listing the units, with no branch on where they stand. The
/// same draws as [`sample_step`].
#[inline]
fn sample_stack_step(node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn> {
    let pos = &node.pos;
    let a = node.actor;
    let pieces = pos.pieces[a.index()];
    let d = node.dice;
    let (distances, single) = distinct_dice(d);
    let split = pos.rules.split == Split::Top;
    let declare = pos.rules.stacking == Stacking::Declare;
    // Per piece, whether it stands for a unit (every unit is offered each
    // distinct die).
    let mut weights = [0u32; 4];
    let mut units = 0u32;
    for i in 0..4 {
        let at = pieces[i];
        let first = i == 0 || at != pieces[i - 1];
        let whole = at == START || (declare && pos.is_block(a, at));
        // Home (84) and moved (marked, 128 and over) pieces are not units.
        let bearer = at < HOME && (first || (split && !whole));
        weights[i] = bearer as u32;
        units += bearer as u32;
    }
    let pairs = units * single;
    if pairs == 0 {
        return None;
    }
    for _ in 0..8 {
        let k = remainder(rng.next_u32(), pairs);
        // The unit's piece and the distance, without a branch on the draw.
        let n = quotient(k, single);
        let r = k - n * single;
        let (mut j, mut end) = (0, 0);
        for &w in &weights {
            end += w;
            j += (n >= end) as usize;
        }
        let at = pieces[j & 3];
        // The stack first, then the smaller units off its top.
        let rank: u8 = pieces[..j & 3].iter().map(|p| (*p == at) as u8).sum();
        let size = if rank == 0 {
            if at == START || (declare && pos.is_block(a, at)) {
                1
            } else {
                pieces.iter().map(|p| (*p == at) as u8).sum()
            }
        } else {
            rank
        };
        let u = Unit {
            from: at,
            size,
            group_pair: false,
        };
        let by = distances[(r & 3) as usize];
        if let Some(to) = destination_here(node, obs, &u, by) {
            return Some(declared(node, &u, to, by, 1, rng));
        }
    }
    None
}

/// `x / d` (0 for `d` 0), by the same multiplication as [`remainder`]
/// where `d` is below 256: the top bits of `x` times the inverse of `d`
/// rounded up.
#[inline(always)]
fn quotient(x: u32, d: u32) -> u32 {
    match INVERSES.get(d as usize) {
        Some(&inverse) if d > 1 => ((inverse as u128 * x as u128) >> 64) as u32,
        _ => x.checked_div(d).unwrap_or(0),
    }
}

/// Up to eight random draws of a unit and a distance; the first legal one.
fn sample_step(node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Drawn> {
    let mut units = [(
        Unit {
            from: 0,
            size: 0,
            group_pair: false,
        },
        0u8,
    ); 12];
    let mut nu = 0;
    let mut pairs = 0u32;
    // The distances on offer depend only on whether the unit is a group pair.
    let offered = |group_pair| {
        let u = Unit {
            from: 0,
            size: 1,
            group_pair,
        };
        distance_count(node, &u)
    };
    let (single, pair) = (offered(false), offered(true));
    for_each_unit(node, |u| {
        if nu < units.len() {
            let k = if u.group_pair { pair } else { single };
            if k > 0 {
                units[nu] = (u, k);
                nu += 1;
                pairs += k as u32;
            }
        }
    });
    if pairs == 0 {
        return None;
    }
    for _ in 0..8 {
        let mut k = remainder(rng.next_u32(), pairs);
        for (u, count) in &units[..nu] {
            if k >= *count as u32 {
                k -= *count as u32;
                continue;
            }
            let (by, dice) = nth_distance(node, u, k as u8)?;
            if let Some(to) = destination_here(node, obs, u, by) {
                return Some(declared(node, u, to, by, dice, rng));
            }
            break;
        }
    }
    None
}

/// The step of unit `u` to `to`, declared (at random) where it joins others.
#[inline(always)]
fn declared(node: &Node, u: &Unit, to: u8, by: u8, dice: u8, rng: &mut impl RngCore) -> Drawn {
    let own = if to == HOME {
        0
    } else {
        let pieces = &node.pos.pieces[node.actor.index()];
        pieces.iter().filter(|p| **p & !MOVED == to).count() as u8
    };
    let declare = needs_declaration(&node.pos, u.size, own, to).then(|| {
        if rng.next_u32() & 1 == 0 {
            Declare::Super
        } else {
            Declare::Block
        }
    });
    Drawn {
        colour: node.actor,
        from: u.from,
        to,
        pieces: u.size,
        by,
        dice,
        declare,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Preset, Rules};
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A generator gone back to a mark draws again what followed it, across
    /// the ends of its blocks of output too.
    #[test]
    fn rewound_generators_draw_again_what_followed_the_mark() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for skip in [0usize, 1, 7, 63, 64, 65, 200] {
            for _ in 0..skip {
                rng.next_u32();
            }
            let mark = rng.mark();
            let first: Vec<u32> = (0..70).map(|_| rng.next_u32()).collect();
            rng.rewind(mark);
            let again: Vec<u32> = (0..70).map(|_| rng.next_u32()).collect();
            assert_eq!(first, again, "after {skip} draws");
        }
    }

    /// The remainder by multiplication is `%`'s for every divisor up to
    /// past the table and numbers at both ends and in between.
    #[test]
    fn remainder_is_the_remainder() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for d in 0..300u32 {
            let mut xs = vec![
                0,
                1,
                d.wrapping_sub(1),
                d,
                d + 1,
                u32::MAX,
                u32::MAX - 1,
                u32::MAX - d,
            ];
            xs.extend((0..2000).map(|_| rng.next_u32()));
            for x in xs {
                assert_eq!(remainder(x, d), x.checked_rem(d).unwrap_or(0), "{x} % {d}");
            }
        }
    }

    /// The samplers that know their rules draw exactly the steps of the
    /// plain [`sample_step`] (the same step from the same random numbers,
    /// leaving the generator in the same state), step after step of random
    /// turns, under every way of using the throw and of stacking.
    #[test]
    fn samplers_that_know_their_rules_draw_the_plain_samplers_steps() {
        let mut checked = [0u32; 3];
        for preset in Preset::ALL {
            for throw in ["total", "dice"] {
                for stacking in ["super", "group", "declare"] {
                    for split in ["never", "top"] {
                        let Ok(rules) = Rules::preset(preset).with_options([
                            ("throw", throw),
                            ("stacking", stacking),
                            ("split", split),
                        ]) else {
                            continue;
                        };
                        let Ok(start) = Position::new(rules, 4) else {
                            continue;
                        };
                        for seed in 0..4 {
                            check_playout(&start, seed, &mut checked);
                        }
                    }
                }
            }
        }
        assert!(
            checked.iter().all(|&n| n > 2000),
            "every sampler checked: {checked:?}"
        );
    }

    /// Compares the samplers through a random game from `start`.
    fn check_playout(start: &Position, seed: u64, checked: &mut [u32; 3]) {
        let rules = *start.rules();
        let kind = Kind::of(&rules);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pos = *start;
        for _ in 0..5000 {
            if pos.to_move().is_none() {
                break;
            }
            let t = throw(&pos, &mut rng);
            // The turn's start as `turn_in` takes it up.
            let Ok(mut node) = Node::begin(&pos, t) else {
                break;
            };
            let mut obs = obstacles(&node.pos, node.actor);
            if let Some(p) = node.pass() {
                if !has_any_step_with(&node, &obs) {
                    node = p;
                    obs = obstacles(&node.pos, node.actor);
                }
            }
            let mut units = Units::default();
            while node.left() {
                let mut plain_rng = rng.clone();
                let plain = sample_step(&node, &obs, &mut plain_rng);
                let mut known_rng = rng.clone();
                let known = match kind {
                    Kind::Kept => {
                        checked[0] += 1;
                        units.sample(&node, &obs, &mut known_rng)
                    }
                    Kind::Groups => {
                        checked[1] += 1;
                        Groups.sample(&node, &obs, &mut known_rng)
                    }
                    Kind::Stacks => {
                        checked[2] += 1;
                        Stacks.sample(&node, &obs, &mut known_rng)
                    }
                    Kind::Plain => Plain.sample(&node, &obs, &mut known_rng),
                };
                assert_eq!(known, plain, "{rules:?} at {node:?}");
                assert_eq!(known_rng.next_u64(), plain_rng.next_u64(), "{rules:?}");
                rng = plain_rng;
                // Go on by any legal step, drawn or not.
                let mut steps = Vec::new();
                for_each_step_fast(&node, &obs, |s| steps.push(s));
                let Some(step) = plain.map(Drawn::step).or_else(|| {
                    steps
                        .get(rng.next_u32() as usize % steps.len().max(1))
                        .copied()
                }) else {
                    match node.pass() {
                        Some(p) => {
                            node = p;
                            obs = obstacles(&node.pos, node.actor);
                            continue;
                        }
                        None => break,
                    }
                };
                step_among(&mut node, &step, obs.others);
                units.stepped(&node, &step);
                obs = obstacles(&node.pos, node.actor);
            }
            finish_in(&mut node.pos, node.actor, node.captured_any);
            pos = node.pos;
        }
    }
}
