//! The split-total fast path (`throw=total` with automatic super-pieces, the
//! `chaupar` preset): instead of trying every order of every part, enumerate how
//! the total is shared among the units (each takes one part or none), check each
//! sharing once, and try other orders only where steps can interact.
//! `tests/fast_paths.rs` checks it against the reference search.

use crate::board::{self, HOME, LOOP_END, START};
use crate::position::{pieces_of, pieces_word, sort4, with_lane};
use crate::rules::{Blockade, Split, Stacking, ThrowUse, Tohd, Unused};
use crate::step::{Illegal, Step};

use super::apply::{apply, capture_among, end_tail};
use super::generator::{Generator, NO_STEP};
use super::node::{Node, Part};
use super::obstacles::obstacles;
use super::steps::{advance, check_move, destination, for_each_unit, Unit};
use super::MOVED;

/// Whether the split-total fast path covers these rules: automatic super-pieces,
/// no splitting, no blockades, no passed points.
pub(super) fn total_fast(node: &Node) -> bool {
    let r = &node.pos.rules;
    r.throw == ThrowUse::Total
        && r.stacking == Stacking::Super
        && r.split == Split::Never
        && r.blockade == Blockade::None
        && (r.unused == Unused::Lost || node.part != Part::Own || !node.pos.teams)
}

/// What one unit moving one part does, seen from the start of the turn: four
/// bytes (a sharing copies the cells of its parts, and the table is read
/// across for every sharing), the yes-or-no facts as bits of `flags`.
#[derive(Clone, Copy, Default)]
struct Cell {
    /// Destination with the capture flag as it is now (0 if none).
    to: u8,
    /// The board square of `to` (`u8::MAX` home or nowhere).
    square: u8,
    /// The unit whose start is `to` (`u8::MAX` if none).
    onto: u8,
    /// [`MAYBE`], [`CAPTURES`], [`SENSITIVE`], [`LEGAL_NOW`], [`NEEDS_HELP`],
    /// [`SIMPLE`] and [`DIRECT`].
    flags: u8,
}

/// Legal now, or possibly after another step of the play.
const MAYBE: u8 = 1;
/// Lands where enemies stand.
const CAPTURES: u8 = 2;
/// A capture earlier in the play would change where or whether it goes.
const SENSITIVE: u8 = 4;
/// Legal as the position stands.
const LEGAL_NOW: u8 = 8;
/// Illegal only because a bigger enemy stack stands there.
const NEEDS_HELP: u8 = 16;
/// Legal now, captures nothing and lands on no unit's start: it goes in any
/// order with any other such part.
const SIMPLE: u8 = 32;
/// Legal now, lands on no unit's start and goes where it goes whether or
/// not the mover has captured: with others like it, every order is the
/// same play, whatever each captures.
const DIRECT: u8 = 64;

impl Cell {
    /// Whether the cell has `flag` ([`MAYBE`], [`CAPTURES`] and the others).
    #[inline(always)]
    fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// The per-unit part table of the split-total path.
struct TableView {
    cells: [[Cell; 19]; 4],
    /// Per unit and part, its step (to where the cell says).
    steps: [[Step; 19]; 4],
    /// Per unit, the bytes of its pieces in the mover's pieces as a word.
    lanes: [u32; 4],
    /// Squares where pieces of other colours stand at the start of the play.
    others: u128,
    /// Per unit and part that lands where enemies stand: every colour's
    /// pieces (a [`pieces_word`]) after that landing alone captured, and
    /// whether it did (None where not found).
    taken: [[Option<(u128, bool)>; 19]; 4],
}

impl TableView {
    fn ok(&self, i: usize, d: u8) -> bool {
        self.cells[i][d as usize].has(MAYBE)
    }
    fn cell(&self, i: usize, d: u8) -> &Cell {
        &self.cells[i][d as usize]
    }
    /// The mover's pieces as a word, `lane`, after unit `i` takes part `d`
    /// (none for 0): see [`TableView::moved`].
    #[inline(always)]
    fn take(&self, i: usize, d: u8, lane: u32) -> u32 {
        if d == 0 {
            lane
        } else {
            self.moved(i, d, lane)
        }
    }
    /// The mover's pieces as a word, `lane`, after unit `i` moves by part
    /// `d` (not 0): the unit's bytes are set to where it lands.
    #[inline(always)]
    fn moved(&self, i: usize, d: u8, lane: u32) -> u32 {
        let to = self.cells[i][d as usize].to as u32;
        (lane & !self.lanes[i]) | ((to * 0x0101_0101) & self.lanes[i])
    }
    /// Writes the steps of the units `moving` taking their parts of
    /// `parts`, in that order, into `out`; how many.
    #[inline(always)]
    fn write_steps(&self, out: &mut [Step; 4], parts: &[u8; 4], moving: &[usize]) -> usize {
        for (s, &i) in out.iter_mut().zip(moving) {
            *s = self.steps[i][parts[i] as usize];
        }
        moving.len().min(4)
    }
}

/// Whether a sharing is a *leapfrog* of one the walk tried before, which
/// reached the same play: unit `A` lands on the start of a later unit `B`
/// that moves on (by `e`), and every other part goes where it goes in any
/// order. Then `A` taking its part and `e` lands where `B` lands (when that
/// part is legal now and goes there) and `B` staying ends the same (the
/// units are as big, so a capture there takes the same pieces), and the
/// walk, which tries the parts of earlier units falling, tried that sharing
/// first and kept its play. With a capture no part may be sensitive to it
/// (every part `direct`: then that sharing went straight to
/// `apply_independent`); without, every other part is simple (it went to
/// `simple_sharing`). Most such sharings (ninety in a hundred in random
/// `chaupar` games) found nothing new, after the order of their parts was
/// worked out and their play was keyed.
#[inline]
fn leapfrog(
    node: &Node,
    units: &[Unit],
    table: &TableView,
    parts: &[u8; 4],
    cells: &[Cell],
    moving: &[usize],
) -> bool {
    let mut lands = None;
    let (mut simple, mut direct, mut captures) = (true, true, false);
    for (slot, c) in cells.iter().enumerate() {
        if c.onto != u8::MAX {
            if lands.is_some() {
                return false;
            }
            lands = Some(slot);
        } else {
            simple &= c.has(SIMPLE);
            direct &= c.has(DIRECT);
            captures |= c.has(CAPTURES);
        }
    }
    let Some(slot) = lands else {
        return false;
    };
    let (c, a) = (&cells[slot], moving[slot]);
    let b = c.onto as usize;
    if c.has(CAPTURES)
        || b >= units.len()
        || b <= a
        || parts[b] == 0
        || units[a].from == START
        || units[a].size != units[b].size
        || node.pos.blocks != [[0; 2]; 4]
    {
        return false;
    }
    let sum = (parts[a] + parts[b]) as usize;
    if sum >= 19 {
        return false;
    }
    let twin = &table.cells[a][sum];
    if twin.to != table.cells[b][parts[b] as usize].to {
        return false;
    }
    if captures || twin.has(CAPTURES) {
        direct && !c.has(SENSITIVE) && twin.has(DIRECT)
    } else {
        simple && twin.has(SIMPLE)
    }
}

fn permute(v: &mut [usize], k: usize, f: &mut impl FnMut(&[usize])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permute(v, k + 1, f);
        v.swap(k, i);
    }
}

impl Generator {
    /// Split totals with automatic super-pieces: instead of trying every order of
    /// every part, enumerate how the total is shared among the units (each takes one
    /// part or none) and try other orders only where steps can interact.
    pub(super) fn search_total(&mut self, node: &Node) {
        let a = node.actor;
        let pos = &node.pos;
        let obs = obstacles(pos, a);
        // The units: distinct unmoved stacks, each piece in the Charkoni on its own.
        let mut units: [Unit; 4] = [Unit {
            from: 0,
            size: 0,
            group_pair: false,
        }; 4];
        let mut m = 0;
        for_each_unit(node, |u| {
            if m < 4 {
                units[m] = u;
                m += 1;
            }
        });
        for u in units[..m].iter_mut() {
            if u.from == START {
                // Every piece in the Charkoni is a unit of its own.
                u.size = 1;
            }
        }
        let charkoni = pos.pieces[a.index()]
            .iter()
            .filter(|p| **p == START)
            .count();
        // Extra units for the other Charkoni pieces.
        for _ in 1..charkoni {
            if m < 4 {
                units[m] = Unit {
                    from: START,
                    size: 1,
                    group_pair: false,
                };
                m += 1;
            }
        }
        let units = &units[..m];
        let total = node.pips;
        // Whether the flag for having captured may change during the play.
        let flag_may_change = pos.rules.tohd != Tohd::Off && !pos.captured.has(a);
        let mut flagged = *node;
        flagged.pos.captured = flagged.pos.captured.with(a);
        // Per unit and part: may it be legal, destination now, whether it lands on
        // enemies, and whether a capture earlier in the play would change it.
        let mut table = TableView {
            cells: [[Cell::default(); 19]; 4],
            steps: [[NO_STEP; 19]; 4],
            lanes: [0; 4],
            others: obs.others,
            taken: [[None; 19]; 4],
        };
        let own = pos.pieces[a.index()];
        let mut charkoni_slots = (0..4).filter(|&j| own[j] == START);
        for (i, u) in units.iter().enumerate() {
            // The indices of the unit's pieces among the mover's (bit j: piece j).
            let slots: u8 = if u.from == START {
                charkoni_slots.next().map_or(0, |j| 1 << j)
            } else {
                (0..4)
                    .filter(|&j| own[j] == u.from)
                    .fold(0, |m, j| m | 1 << j)
            };
            table.lanes[i] = (0..4)
                .filter(|j| slots & (1 << j) != 0)
                .fold(0, |m, j| m | 0xff << (8 * j));
        }
        // Squares where enemies of the mover stand.
        let mut enemies = 0u128;
        for e in pos.present.iter().filter(|e| pos.enemies(a, *e)) {
            for &p in &pos.pieces[e.index()] {
                if p != START && p != HOME {
                    enemies |= 1u128 << board::sq(e.index(), p);
                }
            }
        }
        let enemy_at = |q: Option<u8>| {
            q.is_some_and(|q| q != HOME && (enemies >> board::sq(a.index(), q)) & 1 == 1)
        };
        // Per unit and part, whether it may be legal only with help (a bigger
        // enemy stack where it lands, to be taken first by another unit).
        let mut only_help = [0u32; 4];
        for (i, u) in units.iter().enumerate() {
            if i > 0 && u.from == START && units[i - 1].from == START {
                // Pieces in the Charkoni are alike.
                table.cells[i] = table.cells[i - 1];
                table.steps[i] = table.steps[i - 1];
                table.taken[i] = table.taken[i - 1];
                only_help[i] = only_help[i - 1];
                continue;
            }
            for d in 1..=total.min(18) {
                let now = destination(node, &obs, u, d);
                let to_now = now.or_else(|| advance(pos, a, u.from, d).ok());
                // Illegal only because a bigger enemy stack stands there (a
                // bigger own unit may take it first).
                let needs_help = now.is_none()
                    && enemy_at(to_now)
                    && matches!(
                        check_move(node, &obs, u, d),
                        Err(Illegal::BiggerEnemy { .. })
                    );
                // Having captured changes only where a unit goes past the
                // loop's end (round again or up its column) and whether it
                // may enter home: elsewhere it goes where it goes now.
                let (later, to_later) = if flag_may_change
                    && u.from != START
                    && u.from as u32 + d as u32 > LOOP_END as u32
                {
                    let later = destination(&flagged, &obs, u, d);
                    (
                        later,
                        later.or_else(|| advance(&flagged.pos, a, u.from, d).ok()),
                    )
                } else {
                    (now, to_now)
                };
                let to = to_now.unwrap_or(0);
                let onto = units
                    .iter()
                    .position(|v| to_now.is_some() && v.from == to)
                    .map_or(u8::MAX, |j| j as u8);
                let captures = enemy_at(to_now) || enemy_at(to_later);
                let sensitive = to_now != to_later || now.is_some() != later.is_some();
                if captures && to_now.is_some() {
                    // What this landing alone takes, made once for every
                    // sharing where it is the only capture.
                    let mut n = *node;
                    let did = capture_among(&mut n, a, to, obs.others);
                    table.taken[i][d as usize] = Some((pieces_word(&n.pos.pieces), did));
                }
                if now.is_none() && later.is_none() && needs_help {
                    only_help[i] |= 1 << d;
                }
                table.steps[i][d as usize] = u.part_step(a, to, d);
                let legal_now = now.is_some();
                let flag = |yes: bool, bit: u8| if yes { bit } else { 0 };
                table.cells[i][d as usize] = Cell {
                    square: if to_now.is_none() || to == HOME {
                        u8::MAX
                    } else {
                        board::sq(a.index(), to)
                    },
                    onto,
                    to,
                    // Landing may also become legal when a bigger own unit captures first.
                    flags: flag(legal_now || later.is_some() || needs_help, MAYBE)
                        | flag(captures, CAPTURES)
                        | flag(sensitive, SENSITIVE)
                        | flag(legal_now, LEGAL_NOW)
                        | flag(needs_help, NEEDS_HELP)
                        | flag(legal_now && !captures && onto == u8::MAX, SIMPLE)
                        | flag(legal_now && onto == u8::MAX && !sensitive, DIRECT),
                };
            }
        }
        // A part that needs help and that no other unit can give (no part of
        // another, legal now, lands on that square) is never legal: the walk
        // leaves it out (every sharing with it was refused, after its checks).
        for (i, &help) in only_help.iter().enumerate().take(units.len()) {
            let mut parts = help;
            while parts != 0 {
                let d = parts.trailing_zeros() as usize;
                parts &= parts - 1;
                let square = table.cells[i][d].square;
                let helpable = (0..units.len()).any(|j| {
                    j != i
                        && table.cells[j][1..=(total as usize - d).min(18)]
                            .iter()
                            .any(|c| c.has(LEGAL_NOW) && c.square == square)
                });
                if !helpable {
                    table.cells[i][d].flags &= !MAYBE;
                }
            }
        }
        for want in (0..=total).rev() {
            let before = self.plays.len();
            self.assign(node, units, &table, want, flag_may_change);
            if self.plays.len() > before || self.best.is_some() {
                return;
            }
        }
    }

    /// Tries every sharing of `want` points among the units (each takes a part
    /// its table allows, or none), in falling order of the first unit's part, then
    /// the second's, and so on; interchangeable Charkoni pieces take parts in
    /// falling order.
    fn assign(
        &mut self,
        node: &Node,
        units: &[Unit],
        table: &TableView,
        want: u8,
        flag_may_change: bool,
    ) {
        let m = units.len();
        let mut parts = [0u8; 4];
        if m == 0 {
            if want == 0 {
                self.empty_sharing(node, table, flag_may_change);
            }
            return;
        }
        // Per unit, the parts it may take, falling, ending with none (0).
        let mut allowed = [[0u8; 20]; 4];
        let mut count = [0usize; 4];
        for (i, list) in allowed.iter_mut().enumerate().take(m) {
            for d in (1..=want.min(18)).rev() {
                if table.ok(i, d) {
                    list[count[i]] = d;
                    count[i] += 1;
                }
            }
            count[i] += 1;
        }
        // Per unit and number of points `c`, the index in `allowed` of its
        // first part of at most `c` (parts fall, so the walk starts there).
        let mut first_at_most = [[0u8; 20]; 4];
        for (i, firsts) in first_at_most.iter_mut().enumerate().take(m) {
            let mut j = count[i] - 1;
            for (c, first) in firsts
                .iter_mut()
                .enumerate()
                .take(want.min(19) as usize + 1)
            {
                // Once a part larger than `c` is passed, it stays passed.
                while j > 0 && allowed[i][j - 1] as usize <= c {
                    j -= 1;
                }
                *first = j as u8;
            }
        }
        // Per unit, whether it is a Charkoni piece after another (alike, so
        // it takes at most the part the one before took).
        let mut alike = [false; 4];
        for i in 1..m {
            alike[i] = units[i].from == START && units[i - 1].from == START;
        }
        // The largest part unit `i` may take with `left` points left.
        let cap = |i: usize, left: u8, parts: &[u8; 4]| {
            if alike[i] {
                parts[i - 1].min(left)
            } else {
                left
            }
        };
        // A depth-first walk over the units without recursion: `next[i]` is the
        // index in `allowed[i]` to try next, `left[i]` the points left for units
        // `i..`; `lane[i]` the mover's pieces with the parts of units `..i`
        // taken, and `simple[i]` whether all those parts are simple (see
        // [`Generator::simple_sharing`]). The last two units are walked
        // together in one loop (the last takes what is left): most sharings
        // are tried there, and going down and back up for each cost more than
        // the sharing's own check.
        let mut next = [0usize; 4];
        let mut left = [0u8; 4];
        let mut lane = [0u32; 5];
        let mut simple = [true; 5];
        left[0] = want;
        lane[0] = u32::from_le_bytes(node.pos.pieces[node.actor.index()]);
        let blocks = node.pos.blocks != [[0; 2]; 4];
        let mut i = 0;
        loop {
            if i + 1 == m {
                // The last unit takes what is left, if it may.
                let l = left[i];
                if l <= cap(i, l, &parts) && (l == 0 || table.ok(i, l)) {
                    parts[i] = l;
                    if simple[i] && (l == 0 || table.cells[i][l as usize].has(SIMPLE)) && !blocks {
                        let lane = table.take(i, l, lane[i]);
                        self.simple_sharing(node, units, table, &parts, lane, want);
                    } else {
                        self.try_interacting(node, units, table, &parts, flag_may_change);
                    }
                }
            } else if i + 2 == m {
                // The last two units at once: each part of this one, and the
                // last takes what is left, if it may (the order of the walk).
                let c = cap(i, left[i], &parts);
                let last = i + 1;
                let from = next[i].max(first_at_most[i][c.min(19) as usize] as usize);
                for &d in allowed[i].get(from..count[i]).unwrap_or(&[]) {
                    let l = left[i] - d;
                    if (alike[last] && l > d) || (l != 0 && !table.ok(last, l)) {
                        continue;
                    }
                    parts[i] = d;
                    parts[last] = l;
                    let simple_d = simple[i] && (d == 0 || table.cells[i][d as usize].has(SIMPLE));
                    if simple_d && (l == 0 || table.cells[last][l as usize].has(SIMPLE)) && !blocks
                    {
                        let lane_d = table.take(i, d, lane[i]);
                        self.simple_sharing(
                            node,
                            units,
                            table,
                            &parts,
                            table.take(last, l, lane_d),
                            want,
                        );
                    } else {
                        self.try_interacting(node, units, table, &parts, flag_may_change);
                    }
                }
                parts[last] = 0;
            } else {
                let c = cap(i, left[i], &parts);
                next[i] = next[i].max(first_at_most[i][c.min(19) as usize] as usize);
                if next[i] < count[i] {
                    // Go on to the next unit with this part.
                    let d = allowed[i][next[i]];
                    parts[i] = d;
                    left[i + 1] = left[i] - d;
                    lane[i + 1] = table.take(i, d, lane[i]);
                    simple[i + 1] = simple[i] && (d == 0 || table.cells[i][d as usize].has(SIMPLE));
                    i += 1;
                    next[i] = 0;
                    continue;
                }
            }
            // This unit has tried every part: back to the one before, to its next.
            parts[i] = 0;
            if i == 0 {
                return;
            }
            i -= 1;
            next[i] += 1;
        }
    }

    /// The one sharing when no unit can move: nothing moves.
    #[cold]
    fn empty_sharing(&mut self, node: &Node, table: &TableView, flag_may_change: bool) {
        let parts = [0; 4];
        if node.pos.blocks != [[0; 2]; 4] {
            self.try_interacting(node, &[], table, &parts, flag_may_change);
        } else {
            let lane = u32::from_le_bytes(node.pos.pieces[node.actor.index()]);
            self.simple_sharing(node, &[], table, &parts, lane, 0);
        }
    }

    /// A sharing with a part that is not simple (it captures, lands on a
    /// unit's start or is not legal now), or in a position with blocks.
    fn try_interacting(
        &mut self,
        node: &Node,
        units: &[Unit],
        table: &TableView,
        parts: &[u8; 4],
        flag_may_change: bool,
    ) {
        // The moving units and their cells, by slot (in unit order).
        let mut moving = [0usize; 4];
        let mut cells = [Cell::default(); 4];
        let mut slot_of = [usize::MAX; 4];
        let mut k = 0;
        let mut direct = true;
        for (i, &d) in parts.iter().enumerate().take(units.len()) {
            if d > 0 {
                moving[k] = i;
                // Read from the table, not back from the copy just stored
                // (which waits for the store).
                let cell = &table.cells[i][d as usize];
                direct &= cell.has(DIRECT);
                cells[k] = *cell;
                slot_of[i] = k;
                k += 1;
            }
        }
        if direct {
            // What the checks below would find (not all simple; the order
            // cannot matter, as no part is sensitive; all legal now, none
            // landing on a unit's start), without them.
            self.apply_independent(node, table, parts, &moving[..k]);
            return;
        }
        let cells = &cells[..k];
        if leapfrog(node, units, table, parts, cells, &moving[..k]) {
            return;
        }
        // Per slot (bit), the parts that are simple, legal now, capture,
        // would go elsewhere after a capture, and land on the start of
        // another unit that moves.
        let (mut simple, mut now, mut caps, mut sens, mut onto) = (0u8, 0u8, 0u8, 0u8, 0u8);
        for (a, c) in cells.iter().enumerate() {
            let bit = 1 << a;
            let j = c.onto as usize;
            simple |= bit * c.has(SIMPLE) as u8;
            now |= bit * c.has(LEGAL_NOW) as u8;
            caps |= bit * c.has(CAPTURES) as u8;
            sens |= bit * c.has(SENSITIVE) as u8;
            onto |= bit * (j != moving[a] && j < units.len() && parts[j] > 0) as u8;
        }
        let all = (1u8 << k) - 1;
        // Parts that are legal now, capture nothing and land on no unit's start
        // play in any order; the checks below would keep the order given.
        if simple == all {
            self.apply_independent(node, table, parts, &moving[..k]);
            return;
        }
        // A capture sets the flag for having captured, which may change where (or
        // whether) another unit goes: then the order matters, so try every order
        // (when one part captures and another, not the same, is sensitive: some
        // part captures, some is sensitive, and they are not one and the same).
        let order_matters = caps != 0 && sens != 0 && (caps | sens).count_ones() >= 2;
        if flag_may_change && order_matters {
            let mut order = moving;
            permute(&mut order[..k], 0, &mut |ord| {
                self.try_order(node, units, parts, ord)
            });
            return;
        }
        if now == all && onto == 0 {
            // Every part legal now and none landing on another's start: every
            // order works, and the first unit ready is always the first left
            // (what the general case below would find).
            self.apply_independent(node, table, parts, &moving[..k]);
            return;
        }
        // Otherwise every workable order gives the same play. It is workable when no
        // unit lands on the start of a unit that moves after it (a unit that lands on
        // another's start must come later; a cycle of them has no order), and a unit
        // landing on a bigger enemy stack is preceded by one big enough to take it.
        // (Slots are compared, squares `u8::MAX` being home or nowhere.)
        let takes_first = |a: usize, b: usize| {
            b != a
                && cells[b].has(LEGAL_NOW)
                && cells[a].square != u8::MAX
                && cells[b].square == cells[a].square
        };
        for (a, cell) in cells.iter().enumerate() {
            let helped = cell.has(NEEDS_HELP) && (0..k).any(|b| takes_first(a, b));
            if !(cell.has(LEGAL_NOW) || helped) {
                return;
            }
        }
        // Cycle check on "lands on the start of" among moving units.
        let mut next = [usize::MAX; 4];
        for a in 0..k {
            let j = cells[a].onto as usize;
            if j != moving[a] && j < units.len() && parts[j] > 0 {
                next[a] = slot_of[j];
            }
        }
        for a in 0..k {
            let mut x = a;
            for _ in 0..=k {
                x = next[x];
                if x == usize::MAX {
                    break;
                }
                if x == a {
                    return;
                }
            }
        }
        // Write the steps in an order that can be played one after another: each
        // time the first unit ready (what it lands on has moved, and it is legal
        // now or a unit that moved takes what stands there).
        let mut order = [0usize; 4];
        let mut placed = 0u8;
        for slot in order.iter_mut().take(k) {
            let ready = (0..k).find(|&a| {
                placed & (1 << a) == 0
                    && (next[a] == usize::MAX || placed & (1 << next[a]) != 0)
                    && (cells[a].has(LEGAL_NOW)
                        || (0..k).any(|b| placed & (1 << b) != 0 && takes_first(a, b)))
            });
            match ready {
                Some(a) => {
                    placed |= 1 << a;
                    *slot = moving[a];
                }
                None => return,
            }
        }
        self.apply_independent(node, table, parts, &order[..k]);
    }

    /// Keeps the play of a sharing whose parts are all legal now, capture
    /// nothing and land on no unit's start: they play in any order (the order
    /// of the units is the plain search's), and only the mover's pieces change.
    /// `want`: the points the parts share (their sum, not added up again
    /// from the parts just written: a wide read of them would wait).
    #[inline(always)]
    fn simple_sharing(
        &mut self,
        node: &Node,
        units: &[Unit],
        table: &TableView,
        parts: &[u8; 4],
        lane: u32,
        want: u8,
    ) {
        let mut pieces = lane.to_le_bytes();
        sort4(&mut pieces);
        let usage = (node.used_dice, node.used_pips + want, 0);
        if self.best != Some(usage) && !self.admit(usage) {
            return;
        }
        if !self.found.insert_moving(u32::from_le_bytes(pieces)) {
            return;
        }
        self.push_short(node, node.captured_any, |steps, pos| {
            pos.pieces[node.actor.index()] = pieces;
            // (`TableView::write_steps` from the units that take a part,
            // filtered here as an iterator, costs 7% more instructions.)
            let mut k = 0;
            for (i, &d) in parts.iter().enumerate().take(units.len()) {
                if d > 0 {
                    // (At most four units: `& 3` only spares a bounds check.)
                    steps[k & 3] = table.steps[i][d as usize];
                    k += 1;
                }
            }
            k
        });
    }

    /// Applies steps that do not interact (see [`Generator::try_interacting`]) in one go.
    fn apply_independent(
        &mut self,
        node: &Node,
        table: &TableView,
        parts: &[u8; 4],
        moving: &[usize],
    ) {
        let a = node.actor;
        let ai = a.index();
        let mut sum = 0;
        let mut captures = false;
        // The pieces each part moves go where it ends; which of equal pieces
        // move does not matter, as the pieces are sorted after.
        let mut lane = u32::from_le_bytes(node.pos.pieces[ai]);
        for &i in moving {
            let by = parts[i];
            let cell = &table.cells[i][by as usize];
            lane = table.moved(i, by, lane);
            sum += by;
            captures |= cell.has(CAPTURES);
        }
        let mut pieces = lane.to_le_bytes();
        sort4(&mut pieces);
        // Without blocks (as ever with automatic super-pieces) no overdue
        // block is broken and the key has no blocks.
        let no_blocks = node.pos.blocks == [[0; 2]; 4];
        let usage = (node.used_dice, node.used_pips + sum, 0);
        if !captures && no_blocks {
            // Only the mover's pieces change: the play's key is the start's
            // with them.
            if self.admit(usage) && self.found.insert_moving(u32::from_le_bytes(pieces)) {
                self.push_short(node, node.captured_any, |steps, pos| {
                    pos.pieces[ai] = pieces;
                    table.write_steps(steps, parts, moving)
                });
            }
            return;
        }
        // The parts that capture, and what the first takes alone.
        let mut capturing = moving
            .iter()
            .filter(|&&i| table.cell(i, parts[i]).has(CAPTURES));
        let first = capturing
            .next()
            .and_then(|&i| table.taken[i][parts[i] as usize]);
        let alone = capturing.next().is_none();
        if let (true, true, Some((word, did))) = (alone, no_blocks, first) {
            // One part captures: what it takes was found with the table.
            let all = with_lane(word, ai, u32::from_le_bytes(pieces));
            let (captured, captured_any) = if did {
                (node.pos.captured.with(a), true)
            } else {
                (node.pos.captured, node.captured_any)
            };
            if self.admit(usage)
                && self
                    .found
                    .insert((all, 0, end_tail(captured, captured_any)))
            {
                self.push_short(node, captured_any, |steps, pos| {
                    pos.pieces = pieces_of(all);
                    pos.captured = captured;
                    table.write_steps(steps, parts, moving)
                });
            }
            return;
        }
        let mut n = *node;
        n.pos.pieces[ai] = pieces;
        for &i in moving {
            // Only a part that lands where enemies stand can capture.
            if table.cell(i, parts[i]).has(CAPTURES) {
                let to = table.steps[i][parts[i] as usize].to;
                let _ = capture_among(&mut n, a, to, table.others);
            }
        }
        n.pips -= sum;
        n.used_pips += sum;
        if self.new_leaf(&n) {
            self.push_short(&n, n.captured_any, |steps, _| {
                table.write_steps(steps, parts, moving)
            });
        }
    }

    fn try_order(&mut self, node: &Node, units: &[Unit], parts: &[u8; 4], order: &[usize]) {
        let mut n = *node;
        let start = self.path.len();
        for &i in order {
            let u = units[i];
            let by = parts[i];
            // The unit must still be there, unmoved and whole.
            let obs = obstacles(&n.pos, n.actor);
            let whole = n.pos.pieces[n.actor.index()]
                .iter()
                .filter(|p| **p & !MOVED == u.from)
                .count() as u8;
            let unmoved = n.pos.pieces[n.actor.index()]
                .iter()
                .filter(|p| **p == u.from)
                .count() as u8;
            if unmoved == 0 || (u.from != START && (unmoved != whole || whole != u.size)) {
                self.path.truncate(start);
                return;
            }
            match check_move(&n, &obs, &u, by) {
                Ok((to, _, _)) => {
                    let step = u.part_step(n.actor, to, by);
                    n = apply(&n, &step);
                    self.path.push(step);
                }
                Err(_) => {
                    self.path.truncate(start);
                    return;
                }
            }
        }
        if self.new_leaf(&n) {
            self.record(n.pos, &n, &[]);
        }
        self.path.truncate(start);
    }
}
