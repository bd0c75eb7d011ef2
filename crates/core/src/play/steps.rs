//! The step rules, written once: where a piece goes (tohd, team order, the exact
//! count home), the path it passes, what landing does, the units that may move,
//! the distances the dice or points offer, and so which steps exist.

use crate::board::{self, HOME, LOOP_END, LOOP_LEN, START};
use crate::position::Position;
use crate::rules::{Blockade, Capture, Order, Safe, Split, Stacking, ThrowUse, Tohd};
use crate::step::{Declare, Illegal, Step};
use crate::Colour;

use super::node::{all_home, Node};
use super::obstacles::{blockade_size, obstacles, Obstacles};
use super::MOVED;

/// The progress a piece of `c` at `p` reaches moving `d`, or why it cannot.
pub(crate) fn advance(pos: &Position, c: Colour, p: u8, d: u8) -> Result<u8, Illegal> {
    if p >= HOME {
        return Err(Illegal::AtHome);
    }
    if p == START {
        return Ok(d);
    }
    let captured = pos.captured.has(c);
    let rules = &pos.rules;
    if rules.tohd == Tohd::Circle && !captured && p <= LOOP_END {
        let mut q = p + d;
        if q > LOOP_END {
            q -= LOOP_LEN;
        }
        return Ok(q);
    }
    let q = p + d;
    if q > HOME {
        return Err(Illegal::Overshoot { need: HOME - p });
    }
    if q == HOME && rules.tohd != Tohd::Off && !captured {
        return Err(Illegal::NoCapture { colour: c });
    }
    if pos.teams && rules.order != Order::Off {
        if let Some(first) = c.waits_for() {
            if !all_home(pos, first) {
                let column = rules.order == Order::Column;
                if q == HOME || (column && q > LOOP_END) {
                    return Err(Illegal::TeamOrder {
                        colour: c,
                        first,
                        column,
                    });
                }
            }
        }
    }
    Ok(q)
}

/// The progress `k` squares along the path from `p` (for path checks).
#[inline]
fn path_at(pos: &Position, c: Colour, p: u8, k: u8) -> u8 {
    if p == START {
        return k;
    }
    let t = p + k;
    if t > LOOP_END && pos.rules.tohd == Tohd::Circle && !pos.captured.has(c) && p <= LOOP_END {
        t - LOOP_LEN
    } else {
        t
    }
}

/// What a landing on `q` does: (captures anything, own pieces already at `q`).
pub(super) fn landing(
    pos: &Position,
    a: Colour,
    q: u8,
    size: u8,
    others: u128,
) -> Result<(bool, u8), Illegal> {
    if q == HOME {
        return Ok((false, 0));
    }
    let rules = &pos.rules;
    let ai = a.index();
    let s = board::sq(ai, q);
    let own = pos.pieces[ai].iter().filter(|p| **p & !MOVED == q).count() as u8;
    if rules.stacking == Stacking::Declare && pos.is_block(a, q) {
        return Err(Illegal::OwnBlock);
    }
    if (others >> s) & 1 == 0 {
        // Nobody else stands there.
        return Ok((false, own));
    }
    let mut enemy = false;
    for c in pos.present.iter() {
        if c == a {
            continue;
        }
        let ci = c.index();
        let [x, y] = board::progress_on_raw(ci, s);
        if x == 0 {
            continue;
        }
        for prog in [x, y] {
            if prog == 0 {
                continue;
            }
            let n = pos.pieces[ci]
                .iter()
                .filter(|p| **p & !MOVED == prog)
                .count() as u8;
            if n == 0 {
                continue;
            }
            let is_block = pos.is_block(c, prog);
            if is_block && rules.blockade == Blockade::Block {
                return Err(Illegal::BlockThere);
            }
            if !pos.enemies(a, c) {
                continue;
            }
            enemy = true;
            if rules.safe == Safe::Castles && (board::CASTLES >> s) & 1 == 1 {
                return Err(Illegal::SafeSquare { colour: c });
            }
            if is_block {
                return Err(Illegal::BlockImmune { colour: c });
            }
            if rules.capture == Capture::Size && n > size {
                return Err(Illegal::BiggerEnemy {
                    colour: c,
                    size: n,
                    mover: size,
                });
            }
        }
    }
    if enemy && rules.capture == Capture::All && rules.blockade == Blockade::PastHalf {
        let b = blockade_size(pos, a, s);
        if b > size {
            return Err(Illegal::BlockadeThere { size: b });
        }
    }
    Ok((enemy, own))
}

/// Whether a unit of `size` may land on `q` (not home) where pieces of
/// other colours stand, as [`landing`] says. (Out of line: inside the
/// destination functions, the hot paths of every rule set paid for it.)
#[inline(never)]
fn may_land(pos: &Position, a: Colour, q: u8, size: u8, obstacles: &Obstacles) -> bool {
    let rules = &pos.rules;
    if rules.blockade == Blockade::PastHalf
        && rules.capture == Capture::All
        && rules.safe != Safe::Castles
        && rules.stacking != Stacking::Declare
        && pos.blocks == [[0; 2]; 4]
    {
        // Then only a blockade bigger than the unit stops it (see
        // `landing`), and those are in the obstacles.
        return (obstacles.mask[size.min(4) as usize] >> q) & 1 == 0;
    }
    landing(pos, a, q, size, obstacles.others).is_ok()
}

/// A movable unit: where it stands, how many pieces move, and whether it is a
/// whole group that may use an equal pair.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Unit {
    pub(crate) from: u8,
    pub(crate) size: u8,
    pub(crate) group_pair: bool,
}

impl Unit {
    /// The step moving this unit one part of a split total.
    pub(super) fn part_step(&self, colour: Colour, to: u8, by: u8) -> Step {
        Step {
            colour,
            from: self.from,
            to,
            pieces: self.size,
            by,
            dice: 0,
            declare: None,
        }
    }
}

/// The units the actor may move, calling `f` on each.
#[inline]
pub(crate) fn for_each_unit(node: &Node, mut f: impl FnMut(Unit)) {
    try_each_unit(node, |u| {
        f(u);
        false
    });
}

/// [`for_each_unit`] until `f` answers true; whether it did.
#[inline]
pub(crate) fn try_each_unit(node: &Node, mut f: impl FnMut(Unit) -> bool) -> bool {
    let pos = &node.pos;
    let a = node.actor;
    let pieces = pos.pieces[a.index()];
    let rules = &pos.rules;
    let total = node.total_mode();
    let marked = u32::from_le_bytes(pieces) & 0x8080_8080 != 0;
    let split = rules.split == Split::Top;
    let mut i = 0;
    while i < 4 {
        let raw = pieces[i];
        // Pieces are kept sorted (by their marked value), so equal ones are
        // adjacent and marked ones last.
        if raw & MOVED != 0 || raw == HOME {
            break;
        }
        let mut unmoved = 1;
        while i + unmoved < 4 && pieces[i + unmoved] == raw {
            unmoved += 1;
        }
        i += unmoved;
        let unmoved = unmoved as u8;
        if raw == START {
            if f(Unit {
                from: raw,
                size: 1,
                group_pair: false,
            }) {
                return true;
            }
            continue;
        }
        // With the pieces that joined it this turn (split totals).
        let n = if marked {
            unmoved
                + pieces
                    .iter()
                    .filter(|p| **p & MOVED != 0 && **p & !MOVED == raw)
                    .count() as u8
        } else {
            unmoved
        };
        match rules.stacking {
            Stacking::Group => {
                if f(Unit {
                    from: raw,
                    size: 1,
                    group_pair: false,
                }) {
                    return true;
                }
                if !total
                    && n >= 2
                    && unmoved == n
                    && f(Unit {
                        from: raw,
                        size: n,
                        group_pair: true,
                    })
                {
                    return true;
                }
            }
            Stacking::Declare if pos.is_block(a, raw) => {
                if f(Unit {
                    from: raw,
                    size: 1,
                    group_pair: false,
                }) {
                    return true;
                }
            }
            Stacking::Super | Stacking::Declare => {
                if unmoved != n {
                    continue;
                }
                if f(Unit {
                    from: raw,
                    size: n,
                    group_pair: false,
                }) {
                    return true;
                }
                if split {
                    for k in 1..n {
                        if f(Unit {
                            from: raw,
                            size: k,
                            group_pair: false,
                        }) {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

/// The distances the node offers a unit: (distance, dice used).
pub(crate) fn for_each_distance(node: &Node, unit: &Unit, mut f: impl FnMut(u8, u8)) {
    if node.total_mode() {
        for d in 1..=node.pips {
            f(d, 0);
        }
        return;
    }
    let d = node.dice;
    if unit.group_pair {
        // An equal pair moves the whole group by the pair's sum.
        if d[0] != 0 && d[0] == d[1] {
            f(2 * d[0], 2);
        } else if d[1] != 0 && d[1] == d[2] {
            f(2 * d[1], 2);
        }
        return;
    }
    for i in 0..3 {
        if d[i] != 0 && (i == 0 || d[i] != d[i - 1]) {
            f(d[i], 1);
        }
    }
}

/// How many distances [`for_each_distance`] offers the unit.
#[inline]
pub(crate) fn distance_count(node: &Node, unit: &Unit) -> u8 {
    if node.total_mode() {
        return node.pips;
    }
    let d = node.dice;
    if unit.group_pair {
        return ((d[0] != 0 && d[0] == d[1]) || (d[1] != 0 && d[1] == d[2])) as u8;
    }
    (d[0] != 0) as u8 + (d[1] != 0 && d[1] != d[0]) as u8 + (d[2] != 0 && d[2] != d[1]) as u8
}

/// The `k`-th distance [`for_each_distance`] offers the unit, if there is one.
#[inline]
pub(crate) fn nth_distance(node: &Node, unit: &Unit, k: u8) -> Option<(u8, u8)> {
    if node.total_mode() {
        return (k < node.pips).then_some((k + 1, 0));
    }
    let d = node.dice;
    if unit.group_pair {
        let pair = if d[0] != 0 && d[0] == d[1] {
            d[0]
        } else if d[1] != 0 && d[1] == d[2] {
            d[1]
        } else {
            return None;
        };
        return (k == 0).then_some((2 * pair, 2));
    }
    let mut j = 0;
    for i in 0..3 {
        if d[i] != 0 && (i == 0 || d[i] != d[i - 1]) {
            if j == k {
                return Some((d[i], 1));
            }
            j += 1;
        }
    }
    None
}

/// Checks a unit moving `by` from the node and returns the destination, whether it
/// captures and how many own pieces already stand there.
pub(crate) fn check_move(
    node: &Node,
    obstacles: &Obstacles,
    unit: &Unit,
    by: u8,
) -> Result<(u8, bool, u8), Illegal> {
    let pos = &node.pos;
    let a = node.actor;
    let q = advance(pos, a, unit.from, by)?;
    if obstacles.any {
        let m = obstacles.mask[unit.size.min(4) as usize];
        for k in 1..by {
            let t = path_at(pos, a, unit.from, k);
            if (m >> t) & 1 == 1 {
                return Err(match pos.rules.blockade {
                    Blockade::Block => Illegal::BlockOnPath { at: t },
                    _ => Illegal::BlockadeOnPath {
                        at: t,
                        size: blockade_size(pos, a, board::sq(a.index(), t)),
                    },
                });
            }
        }
    }
    let (cap, own) = landing(pos, a, q, unit.size, obstacles.others)?;
    Ok((q, cap, own))
}

/// The bits of progress values `lo..=hi` (none when `lo > hi`).
#[inline]
fn span(lo: u8, hi: u8) -> u128 {
    if lo > hi {
        0
    } else {
        ((1u128 << (hi - lo + 1)) - 1) << lo
    }
}

/// Where a piece on the loop going round it again (`tohd=circle`) at `from`
/// lands moving `by`.
#[inline(always)]
fn round_again(from: u8, by: u8) -> u8 {
    let q = from + by;
    if q > LOOP_END {
        q - LOOP_LEN
    } else {
        q
    }
}

/// The squares a step from `from` by `by` passes, as progress values
/// (`circles`: the piece goes round the loop again): `from + 1` to
/// `from + by - 1`, none for a step of one, those past the loop's end
/// folded back to its start where the piece circles. Without a branch on
/// the step (which the processor cannot foresee): a step of one passes
/// nothing, and the start is progress 0.
#[inline(always)]
pub(super) fn passed(from: u8, by: u8, circles: bool) -> u128 {
    let n = u32::from(by.saturating_sub(1)).min(127);
    let line = ((1u128 << n) - 1).wrapping_shl(u32::from(from) + 1);
    let past = line >> (LOOP_END + 1);
    let folded = (line & span(0, LOOP_END)) | past << (LOOP_END + 1 - LOOP_LEN);
    if circles {
        folded
    } else {
        line
    }
}

/// Makes the function of [`destination`] under a name with attributes: the
/// one body, inlined where the compiler finds it worth it (`destination`,
/// for the listings) or always (`destination_here`, a playout's draws,
/// where it is most of the loop).
macro_rules! destination_fn {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        pub(crate) fn $name(node: &Node, obstacles: &Obstacles, unit: &Unit, by: u8) -> Option<u8> {
    let pos = &node.pos;
    let a = node.actor;
    let from = unit.from;
    let rules = &pos.rules;
    if from >= HOME {
        return None;
    }
    // Whether the unit goes round the loop again instead of turning home.
    // (Each test evaluated, `&` and `|` rather than `&&` and `||`: one
    // branch on the answer, which the processor cannot foresee, rather than
    // one a test.)
    let circles = (from != START)
        & (from <= LOOP_END)
        & (rules.tohd == Tohd::Circle)
        & !pos.captured.has(a);
    let q = if from == START {
        by
    } else if circles {
        round_again(from, by)
    } else {
        let q = from + by;
        if (q > HOME) | ((q == HOME) & (rules.tohd != Tohd::Off) & !pos.captured.has(a)) {
            return None;
        }
        // Where the colour would finish, whether its team's order holds it back.
        let finishes = (q == HOME) | ((rules.order == Order::Column) & (q > LOOP_END));
        if pos.teams & (rules.order != Order::Off) & finishes {
            if let Some(first) = a.waits_for() {
                if !all_home(pos, first) {
                    return None;
                }
            }
        }
        q
    };
    if obstacles.any && obstacles.mask[unit.size.min(4) as usize] & passed(from, by, circles) != 0 {
        return None;
    }
    if q == HOME {
        return Some(q);
    }
    if rules.stacking == Stacking::Declare && pos.is_block(a, q) {
        return None;
    }
    if (obstacles.others >> board::sq(a.index(), q)) & 1 == 0 {
        return Some(q);
    }
    may_land(pos, a, q, unit.size, obstacles).then_some(q)
}
    };
}

destination_fn!(
    /// Where a unit moving `by` from the node goes, if it may: what
    /// [`check_move`] finds, without saying why not, for the fast paths. The
    /// property test `destination_is_check_move` holds the two together.
    #[inline]
    destination
);

destination_fn!(
    /// [`destination`], always inlined.
    #[inline(always)]
    destination_here
);

/// What decides where a single piece of a node's actor may go, found once
/// for the many steps of a listing by plans: [`SingleSteps::destination`] is
/// [`destination`] of a unit of one piece, without looking up the rules at
/// every step (the property test `single_steps_are_destination` holds the
/// two together).
#[derive(Clone, Copy)]
pub(crate) struct SingleSteps {
    /// A piece on the loop goes round again instead of turning home
    /// (`tohd=circle`, no capture yet).
    circles: bool,
    /// The farthest progress a step off the loop may reach (short of home
    /// where home is shut, not past the loop where the team's order holds
    /// the colour back).
    limit: u8,
    /// The actor has blocks (`stacking=declare`): none may be landed on.
    blocks: bool,
}

impl SingleSteps {
    /// The rules of the node's actor's single steps.
    pub(crate) fn of(node: &Node) -> SingleSteps {
        let pos = &node.pos;
        let a = node.actor;
        let rules = &pos.rules;
        let captured = pos.captured.has(a);
        let mut limit = if rules.tohd != Tohd::Off && !captured {
            HOME - 1
        } else {
            HOME
        };
        if pos.teams && rules.order != Order::Off {
            if let Some(first) = a.waits_for() {
                if !all_home(pos, first) {
                    limit = if rules.order == Order::Column {
                        LOOP_END
                    } else {
                        HOME - 1
                    };
                }
            }
        }
        SingleSteps {
            circles: rules.tohd == Tohd::Circle && !captured,
            limit,
            blocks: rules.stacking == Stacking::Declare && pos.blocks[a.index()] != [0, 0],
        }
    }

    /// Where a single piece of the node's actor at `from` moving `by` goes,
    /// if it may ([`destination`] of a unit of one piece).
    #[inline]
    pub(crate) fn destination(
        &self,
        node: &Node,
        obstacles: &Obstacles,
        from: u8,
        by: u8,
    ) -> Option<u8> {
        if from >= HOME {
            return None;
        }
        let circles = self.circles && from != START && from <= LOOP_END;
        let q = if from == START {
            by
        } else if circles {
            round_again(from, by)
        } else {
            let q = from + by;
            if q > self.limit {
                return None;
            }
            q
        };
        if obstacles.any && obstacles.mask[1] & passed(from, by, circles) != 0 {
            return None;
        }
        if q == HOME {
            return Some(q);
        }
        let a = node.actor;
        if self.blocks && node.pos.is_block(a, q) {
            return None;
        }
        if (obstacles.others >> board::sq(a.index(), q)) & 1 == 0 {
            return Some(q);
        }
        may_land(&node.pos, a, q, 1, obstacles).then_some(q)
    }
}

/// Calls `f` with every step the node allows (before the maximum-use rule).
pub(crate) fn for_each_step(node: &Node, f: impl FnMut(Step)) {
    if !node.left() {
        return;
    }
    for_each_step_with(node, &obstacles(&node.pos, node.actor), f);
}

/// [`for_each_step`] with the obstacles already known.
pub(crate) fn for_each_step_with(node: &Node, obstacles: &Obstacles, mut f: impl FnMut(Step)) {
    if !node.left() {
        return;
    }
    for_each_unit(node, |unit| {
        for_each_distance(node, &unit, |by, dice| {
            if let Ok((to, _, own)) = check_move(node, obstacles, &unit, by) {
                emit(node, &unit, to, by, dice, own, &mut f);
            }
        });
    });
}

/// [`for_each_step_with`] checking steps with [`destination`]: the same steps
/// in the same order, for the fast paths.
pub(crate) fn for_each_step_fast(node: &Node, obstacles: &Obstacles, mut f: impl FnMut(Step)) {
    if !node.left() {
        return;
    }
    let pieces = node.pos.pieces[node.actor.index()];
    for_each_unit(node, |unit| {
        for_each_distance(node, &unit, |by, dice| {
            if let Some(to) = destination(node, obstacles, &unit, by) {
                let own = if to == HOME {
                    0
                } else {
                    pieces.iter().filter(|p| **p & !MOVED == to).count() as u8
                };
                emit(node, &unit, to, by, dice, own, &mut f);
            }
        });
    });
}

/// Calls `f` with the step of a unit going `by` to `to` (`own` pieces of its colour
/// already there), once for each declaration it must make.
#[inline]
fn emit(node: &Node, unit: &Unit, to: u8, by: u8, dice: u8, own: u8, f: &mut impl FnMut(Step)) {
    let step = Step {
        colour: node.actor,
        from: unit.from,
        to,
        pieces: unit.size,
        by,
        dice,
        declare: None,
    };
    if needs_declaration(&node.pos, unit.size, own, to) {
        f(Step {
            declare: Some(Declare::Super),
            ..step
        });
        f(Step {
            declare: Some(Declare::Block),
            ..step
        });
    } else {
        f(step);
    }
}

/// Remembered results of [`check_move`] within one listing: where a unit from
/// a progress, of a size (a group pair or not), goes with a distance, if it may,
/// under one obstacle table (`ObstacleCache`'s generation).
/// Those depend only on the actor's unit, the other colours' pieces, the blocks
/// and the captures so far, which one generation holds fixed; how many own pieces
/// stand where it lands is counted afresh.
#[derive(Default)]
pub(crate) struct StepMemo {
    /// A small table indexed by a hash of the unit and distance (a later check
    /// that falls on a taken slot replaces it): (generation, unit and distance,
    /// destination + 0x100, or 0 when the move is not allowed). Made on first use.
    slots: Vec<(u32, u32, u16)>,
}

/// Slots in a [`StepMemo`] (a listing checks a few dozen units and distances).
const MEMO_SLOTS: usize = 512;

impl StepMemo {
    /// [`check_move`]'s destination for a unit and distance (None if the move is
    /// not allowed), remembered under `generation`.
    #[inline]
    fn check(
        &mut self,
        node: &Node,
        obstacles: &Obstacles,
        generation: u32,
        unit: &Unit,
        by: u8,
    ) -> Option<u8> {
        if self.slots.is_empty() {
            self.slots = vec![(u32::MAX, 0, 0); MEMO_SLOTS];
        }
        let tag = u32::from_le_bytes([unit.from, by, unit.size, unit.group_pair as u8]);
        let i = (tag.wrapping_mul(0x9e37_79b1) >> 23) as usize % MEMO_SLOTS;
        let (stamp, seen, value) = self.slots[i];
        if stamp == generation && seen == tag {
            return (value != 0).then_some(value as u8);
        }
        let q = check_move(node, obstacles, unit, by)
            .ok()
            .map(|(q, _, _)| q);
        self.slots[i] = (generation, tag, q.map_or(0, |q| 0x100 | q as u16));
        q
    }
}

/// [`for_each_step_with`] remembering the checks in `memo` under `generation`.
pub(super) fn for_each_step_remembered(
    node: &Node,
    obstacles: &Obstacles,
    memo: &mut StepMemo,
    generation: u32,
    mut f: impl FnMut(Step),
) {
    if !node.left() {
        return;
    }
    let pieces = &node.pos.pieces[node.actor.index()];
    for_each_unit(node, |unit| {
        for_each_distance(node, &unit, |by, dice| {
            if let Some(to) = memo.check(node, obstacles, generation, &unit, by) {
                let own = if to == HOME {
                    0
                } else {
                    pieces.iter().filter(|p| **p & !MOVED == to).count() as u8
                };
                emit(node, &unit, to, by, dice, own, &mut f);
            }
        });
    });
}

/// Whether the node allows any step: the first legal unit and distance found ends
/// the checking.
pub(super) fn has_any_step(node: &Node) -> bool {
    node.left() && has_any_step_with(node, &obstacles(&node.pos, node.actor))
}

/// [`has_any_step`] with the actor's obstacles already known.
pub(crate) fn has_any_step_with(node: &Node, obs: &Obstacles) -> bool {
    if !node.left() {
        return false;
    }
    try_each_unit(node, |unit| {
        let mut any = false;
        for_each_distance(node, &unit, |by, _| {
            any = any || destination(node, obs, &unit, by).is_some();
        });
        any
    })
}

/// Whether some piece of `c` could move some distance these dice can give.
pub(crate) fn can_ever_move(pos: &Position, c: Colour) -> bool {
    if all_home(pos, c) {
        return false;
    }
    if steps_onto_free_square(pos, c) {
        return true;
    }
    let node = Node {
        actor: c,
        ..Node::at_rest(pos)
    };
    // Most often a unit can go one square (every set of faces has a 1): no
    // square lies between, so nothing on the way matters, and landing needs
    // only where the other colours stand. Only when no unit can is the whole
    // table of obstacles needed.
    let faces = pos.rules.faces.values();
    if faces.contains(&1) {
        let mut others = 0u128;
        for other in 0..4 {
            if other != c.index() && pos.present.0 & (1 << other) != 0 {
                for &p in &pos.pieces[other] {
                    others |= board::square_bit(other, p & !MOVED);
                }
            }
        }
        let near = Obstacles {
            mask: [0; 5],
            any: false,
            others,
        };
        let mut any = false;
        for_each_unit(&node, |u| {
            if !any && !u.group_pair && destination(&node, &near, &u, 1).is_some() {
                any = true;
            }
        });
        if any {
            return true;
        }
    }
    let mut dists = [(0u8, 0u8); 24];
    let mut nd = 0;
    if pos.rules.throw == ThrowUse::Total {
        for d in 1..=3 * faces[3] {
            dists[nd] = (d, 0);
            nd += 1;
        }
    } else {
        for f in faces {
            dists[nd] = (f, 1);
            dists[nd + 1] = (2 * f, 2);
            nd += 2;
        }
    }
    let dists = &dists[..nd];
    let obs = obstacles(pos, c);
    let mut any = false;
    for_each_unit(&node, |u| {
        if any {
            return;
        }
        for &(d, k) in dists {
            if (k == 2) != u.group_pair {
                continue;
            }
            if destination(&node, &obs, &u, d).is_some() {
                any = true;
                return;
            }
        }
    });
    any
}

/// Whether some unit of `c` may go one square onto a square where no other
/// colour stands (then nothing about it can forbid the step but where it
/// goes): the quick first look of [`can_ever_move`] at a position at rest.
pub(super) fn steps_onto_free_square(pos: &Position, c: Colour) -> bool {
    free_step(pos, c).is_some()
}

/// The square such a step of [`steps_onto_free_square`] lands on, as its bit
/// (0 for a step home), for the first unit of `c` that has one.
pub(super) fn free_step(pos: &Position, c: Colour) -> Option<u128> {
    let rules = &pos.rules;
    if !rules.faces.values().contains(&1) {
        return None;
    }
    let ci = c.index();
    let mut others = 0u128;
    for other in 0..4 {
        if other != ci && pos.present.0 & (1 << other) != 0 {
            for &p in &pos.pieces[other] {
                others |= board::square_bit(other, p & !MOVED);
            }
        }
    }
    let captured = pos.captured.has(c);
    let waits = pos.teams
        && rules.order != Order::Off
        && c.waits_for().is_some_and(|first| !all_home(pos, first));
    let pieces = pos.pieces[ci];
    for (i, &raw) in pieces.iter().enumerate() {
        let p = raw & !MOVED;
        if p == HOME || (i > 0 && pieces[i - 1] & !MOVED == p) {
            continue;
        }
        let q = if p == START {
            1
        } else if rules.tohd == Tohd::Circle && !captured && p <= LOOP_END {
            if p == LOOP_END {
                LOOP_END + 1 - LOOP_LEN
            } else {
                p + 1
            }
        } else {
            let q = p + 1;
            if q == HOME && rules.tohd != Tohd::Off && !captured {
                continue;
            }
            if waits && (q == HOME || (rules.order == Order::Column && q > LOOP_END)) {
                continue;
            }
            q
        };
        if q == HOME {
            return Some(0);
        }
        if rules.stacking == Stacking::Declare && pos.is_block(c, q) {
            continue;
        }
        let bit = board::square_bit(ci, q);
        if others & bit == 0 {
            return Some(bit);
        }
    }
    None
}

/// Whether a unit of `size` landing at `to` on `own` pieces of its colour must
/// declare a super-piece or a block: a single on a single, `stacking=declare`.
#[inline]
pub(crate) fn needs_declaration(pos: &Position, size: u8, own: u8, to: u8) -> bool {
    pos.rules.stacking == Stacking::Declare && size == 1 && own == 1 && to != HOME
}

/// Whether no colour can ever move again.
pub(crate) fn is_dead(pos: &Position) -> bool {
    if let Some(c) = pos.to_move {
        if can_ever_move(pos, c) {
            return false;
        }
    }
    !pos.present.iter().any(|c| can_ever_move(pos, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `passed` without a branch is the squares between, as spans: every
    /// start, distance and way round the loop.
    #[test]
    fn passed_is_the_squares_between() {
        for from in START..HOME {
            for by in 1..=24u8 {
                for circles in [false, true] {
                    let circles = circles && from != START && from <= LOOP_END;
                    let spans = if by == 1 {
                        0
                    } else if from == START {
                        span(1, by - 1)
                    } else if circles && from + by - 1 > LOOP_END {
                        span(from + 1, LOOP_END)
                            | span(LOOP_END + 1 - LOOP_LEN, from + by - 1 - LOOP_LEN)
                    } else {
                        span(from + 1, from + by - 1)
                    };
                    assert_eq!(
                        passed(from, by, circles),
                        spans,
                        "{from} by {by}, {circles}"
                    );
                }
            }
        }
    }
}
