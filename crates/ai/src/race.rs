//! Exact race endings (issue 13): once every piece still out is in its own
//! colour's middle column past the tip (progress 77 to 83), no side can meet
//! another again, and each side's chance depends only on how fast its own pieces
//! get home. A *column race*.
//!
//! For each side the [`RaceSolver`] computes, by dynamic programming over the
//! distinct throws with the engine's own legal plays (so every preset's rules
//! apply: exact entry, team order, super-pieces and groups, blocks and their ages,
//! points passed to the partner, a finished player's throw), the distribution of
//! when the side's finishing play comes, playing each throw for the fastest finish
//! in expectation (as gnubg's one-sided bear-off databases do). The sides move
//! independently, so their distributions together give every side's chance of
//! finishing first exactly, when each side plays for its fastest finish.
//!
//! Time is counted in half-rounds (two seats): a colour's partner throws two
//! seats after it, the colour itself four seats after.
//!
//! ```
//! use chaupar_ai::race::{is_column_race, RaceSolver};
//! use chaupar_ai::eval::Side;
//! use chaupar_core::{Colour, Position, Preset, Rules, Setup, Team};
//! let mut s = Setup::start(Rules::preset(Preset::Chaupar), 4).unwrap();
//! // Yellow and Black have one piece each left at 83, Red and Green two at 77.
//! let (yb, rg) = (vec![83, 84, 84, 84], vec![77, 77, 84, 84]);
//! s.pieces = [Some(yb.clone()), Some(rg.clone()), Some(yb), Some(rg)];
//! s.captured = Colour::ALL.to_vec();
//! s.to_move = Some(Colour::Black);
//! let pos = s.into_position().unwrap();
//! assert!(is_column_race(&pos));
//! let chance = RaceSolver::new().win_chance(&pos, Side::Team(Team::YellowBlack)).unwrap();
//! // Black and then Yellow take a part of 1 from any total; Green may not
//! // enter before Red.
//! assert!(chance > 0.9999);
//! ```

use std::sync::{Mutex, OnceLock};

use chaupar_core::board::HOME;
use chaupar_core::rules::{Finished, Tohd};
use chaupar_core::{Colour, Generator, Position, Rules};
use rustc_hash::FxHashMap;

use crate::eval::{sides, Side};
use crate::evaluator::Evaluator;
use crate::search::throws;

/// Half-rounds a finishing distribution covers; the last one holds all later ones.
pub const HORIZON: usize = 64;

/// The first progress in a colour's middle column past its tip (76, a square
/// every colour passes): from here to home nobody else ever comes.
pub const COLUMN: u8 = 77;

/// The most states a side's race may have (an upper bound counted before any
/// work, see [`state_bound`]) for a solver to take it on unless told otherwise
/// ([`RaceSolver::with_limit`]): at about 15,000 states a second, at most a
/// few tenths of a second the first time a search meets such a race.
pub const MAX_STATES: u64 = 4_000;

/// Where the other sides' pieces stand in a side's state: in their own columns,
/// on four squares, never moved (only the side's own throws are played).
const STILL: [u8; 4] = [80, 81, 82, 83];

/// The most states the shared solver behind [`ExactRaces`] keeps; beyond it
/// starts afresh.
const MAX_KEPT: usize = 400_000;

/// Whether `colour` is out of everyone's way for the rest of the game: each of
/// its pieces home or in its middle column past the tip, and, where capture
/// before finishing applies, the colour has captured (so it may go home).
pub fn settled(pos: &Position, colour: Colour) -> bool {
    let may_finish = pos.rules().tohd == Tohd::Off || pos.has_captured(colour);
    pos.pieces(colour)
        .iter()
        .all(|&p| p == HOME || (p >= COLUMN && may_finish))
}

/// Whether `pos` is a column race: the game goes on and every colour is
/// [`settled`].
pub fn is_column_race(pos: &Position) -> bool {
    pos.to_move().is_some() && pos.colours().iter().all(|c| settled(pos, c))
}

/// When a side's finishing play comes, counted from one of its throws.
#[derive(Clone, Debug, PartialEq)]
pub struct Finish {
    /// `at[k]`: the chance that the finishing play comes `k` half-rounds after
    /// this throw (0: with this throw); the last entry holds every later one.
    pub at: [f32; HORIZON],
}

impl Finish {
    /// The expected number of half-rounds to the finishing play.
    pub fn mean(&self) -> f64 {
        self.at
            .iter()
            .enumerate()
            .map(|(k, p)| k as f64 * *p as f64)
            .sum()
    }
}

/// Whether `colour` throws in its turn: it plays and is not skipped for being
/// finished.
fn throws_in_turn(pos: &Position, colour: Colour) -> bool {
    pos.colours().has(colour) && !(pos.finished(colour) && pos.rules().finished == Finished::Skip)
}

/// The first colour of `side` to throw in `pos`, looking round the table from
/// `skip` seats after `from`, and how many seats after `from` it sits.
fn thrower(pos: &Position, side: Side, from: Colour, skip: usize) -> Option<(Colour, usize)> {
    (skip..skip + 4)
        .map(|d| (Colour::from_index(from.index() + d), d))
        .find(|(c, _)| side.has(*c) && throws_in_turn(pos, *c))
}

/// `pos` seen by `side` alone, with `to_move` to throw: the other sides' pieces
/// replaced by the same four pieces in their own columns (which they never
/// move, as only `side`'s throws are played), block ages capped where they
/// stop mattering, no extra throw. Two positions of one side's race are the
/// same state exactly when their forms are equal.
fn side_state(pos: &Position, side: Side, to_move: Colour) -> Option<Position> {
    let rules = *pos.rules();
    let mut s = pos.to_setup();
    for c in Colour::ALL {
        if !side.has(c) && s.pieces[c.index()].is_some() {
            s.pieces[c.index()] = Some(STILL.to_vec());
            if !s.captured.contains(&c) {
                s.captured.push(c);
            }
        }
    }
    s.blocks.retain(|b| side.has(b.colour));
    for b in &mut s.blocks {
        b.age = b.age.min(rules.block_turns);
    }
    s.to_move = Some(to_move);
    s.extra_throw = false;
    s.into_position().ok()
}

/// The state after a play from a state of `side`'s race (the other sides are
/// already replaced): only who throws changes, unless a block grew older than
/// matters.
fn next_state(pos: &Position, side: Side, to_move: Colour) -> Option<Position> {
    let cap = pos.rules().block_turns;
    if pos.extra_throw() || pos.blocks().any(|b| b.age > cap) {
        return side_state(pos, side, to_move);
    }
    // `with_first` only sets who throws next.
    pos.with_first(to_move).ok()
}

/// Whether two states of one side's race have the same pieces and blocks (they
/// may differ in who throws and in block ages).
fn same_pieces(a: &Position, b: &Position) -> bool {
    Colour::ALL.iter().all(|c| a.pieces(*c) == b.pieces(*c))
        && a.blocks()
            .map(|x| (x.colour, x.progress))
            .eq(b.blocks().map(|x| (x.colour, x.progress)))
}

/// An upper bound on the states of `side`'s race from `pos`, counted from its
/// pieces alone: for each colour, the ways its pieces not home can stand at or
/// behind their farthest distance from home (times the ages a block among them
/// may have), times the colours that may throw.
pub fn state_bound(pos: &Position, side: Side) -> u64 {
    let declare = pos.rules().stacking == chaupar_core::rules::Stacking::Declare;
    let mut bound = 1u64;
    let mut throwers = 0u64;
    for c in pos.colours().iter().filter(|c| side.has(*c)) {
        let out: Vec<u8> = pos
            .pieces(c)
            .iter()
            .filter(|p| **p != HOME)
            .map(|p| HOME.saturating_sub(*p))
            .collect();
        let n = out.len() as u64;
        let far = out.iter().copied().max().unwrap_or(0) as u64;
        // Multisets of n distances from {home, 1, ..., far}: C(far + n, n).
        let mut ways = 1u64;
        for i in 1..=n {
            ways = ways * (far + i) / i;
        }
        if declare && n >= 2 {
            // A block among them, of any age that matters.
            ways = ways.saturating_mul(pos.rules().block_turns as u64 + 1);
        }
        bound = bound.saturating_mul(ways);
        throwers += 1;
    }
    bound.saturating_mul(throwers)
}

/// Where a throw takes a state of a side's race.
#[derive(Clone, Copy)]
enum Next {
    /// The side finishes with this throw.
    Done,
    /// A state already solved, so many half-rounds later.
    Solved(Position, usize),
    /// A state of the group being solved (same pieces), by index.
    Member(usize, usize),
}

/// The one-sided race solver: finishing distributions of column-race states,
/// remembered once computed.
pub struct RaceSolver {
    memo: FxHashMap<Position, Finish>,
    /// Every side's chance in whole positions already asked about.
    chances: FxHashMap<Position, Vec<(Side, f64)>>,
    gen: Generator,
    limit: u64,
}

impl Default for RaceSolver {
    fn default() -> RaceSolver {
        RaceSolver::with_limit(MAX_STATES)
    }
}

impl RaceSolver {
    /// An empty solver that takes on races of up to [`MAX_STATES`] states a side.
    pub fn new() -> RaceSolver {
        RaceSolver::default()
    }

    /// An empty solver that takes on races of up to `limit` states a side (as
    /// bounded by [`state_bound`]).
    pub fn with_limit(limit: u64) -> RaceSolver {
        RaceSolver {
            memo: FxHashMap::default(),
            chances: FxHashMap::default(),
            gen: Generator::new(),
            limit,
        }
    }

    /// How many states it has solved.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// Whether it has solved nothing yet.
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// Forgets every solved state.
    pub fn clear(&mut self) {
        self.memo.clear();
        self.chances.clear();
    }

    /// When the side of the colour to move in `pos` (a column race) finishes,
    /// counted from this throw; `None` when `pos` is no column race or the side's
    /// race is larger than the solver's limit.
    pub fn finish(&mut self, pos: &Position) -> Option<Finish> {
        let m = pos.to_move()?;
        if !is_column_race(pos) {
            return None;
        }
        let side = Side::of(pos, m);
        if state_bound(pos, side) > self.limit {
            return None;
        }
        let state = side_state(pos, side, m)?;
        self.solve(&state)?;
        self.memo.get(&state).cloned()
    }

    /// Every side's chance of winning a column race, in the order of
    /// [`sides`]; `None` when `pos` is no column race or a side's race is larger
    /// than the solver's limit.
    pub fn win_chances(&mut self, pos: &Position) -> Option<Vec<(Side, f64)>> {
        if !is_column_race(pos) {
            return None;
        }
        if let Some(known) = self.chances.get(pos) {
            return Some(known.clone());
        }
        let mut each = Vec::new();
        for side in sides(pos) {
            // The colour to move counts: it throws now, 0 seats on.
            let (c, seats) = thrower(pos, side, pos.to_move()?, 0)?;
            if state_bound(pos, side) > self.limit {
                return None;
            }
            let state = side_state(pos, side, c)?;
            self.solve(&state)?;
            each.push((side, seats, self.memo.get(&state)?.clone()));
        }
        // Each side's finishing play comes at seat `seats + 2k` from now; sides
        // never share a seat, so exactly one finishes first.
        let later = |f: &Finish, seats: usize, t: usize| -> f64 {
            f.at.iter()
                .enumerate()
                .filter(|(j, _)| seats + 2 * j > t)
                .map(|(_, p)| *p as f64)
                .sum()
        };
        let chances: Vec<(Side, f64)> = each
            .iter()
            .enumerate()
            .map(|(x, (side, seats, f))| {
                let chance =
                    f.at.iter()
                        .enumerate()
                        .map(|(k, p)| {
                            let t = seats + 2 * k;
                            let others: f64 = each
                                .iter()
                                .enumerate()
                                .filter(|(y, _)| *y != x)
                                .map(|(_, (_, s, g))| later(g, *s, t))
                                .product();
                            *p as f64 * others
                        })
                        .sum::<f64>();
                // The distributions are kept in f32: their rounding can take a
                // certain win a hair past 1 (1.5e-8 found), which no chance is.
                (*side, chance.clamp(0.0, 1.0))
            })
            .collect();
        self.chances.insert(*pos, chances.clone());
        Some(chances)
    }

    /// `side`'s chance of winning a column race (see [`RaceSolver::win_chances`]).
    pub fn win_chance(&mut self, pos: &Position, side: Side) -> Option<f64> {
        self.win_chances(pos)?
            .into_iter()
            .find(|(s, _)| *s == side)
            .map(|(_, v)| v)
    }

    /// Solves `state` (a side's state, see [`side_state`]) and everything it
    /// leads to. States with the same pieces (which throws that move nothing
    /// pass between) are solved together as a group.
    fn solve(&mut self, state: &Position) -> Option<()> {
        if self.memo.contains_key(state) {
            return Some(());
        }
        let side = Side::of(state, state.to_move()?);
        let mut group = vec![*state];
        // Per member and throw: its weight, the fastest play that moves (its
        // expected time, state, half-rounds) and the play that moves nothing;
        // both `None` when the side finishes.
        type Choice = (f64, Option<(f64, Position, usize)>, Option<Next>);
        let mut choices: Vec<Vec<Choice>> = Vec::new();
        let mut i = 0;
        while i < group.len() {
            let m = group[i];
            let mover = m.to_move()?;
            let mut out = Vec::with_capacity(20);
            for &(throw, n) in throws(m.rules().faces) {
                let p = n as f64 / 64.0;
                self.gen.generate(&m, throw).ok()?;
                let results: Vec<Position> =
                    (0..self.gen.len()).map(|j| *self.gen.position(j)).collect();
                if results
                    .iter()
                    .any(|r| r.winner().is_some_and(|w| side.won(w)))
                {
                    out.push((p, None, None));
                    continue;
                }
                // The fastest play that moves, and a play that moves nothing
                // (all there is, or declining a finished partner's throw).
                let mut best: Option<(f64, Position, usize)> = None;
                let mut stay: Option<Next> = None;
                for r in &results {
                    let (next, seats) = thrower(r, side, mover, 1)?;
                    let child = next_state(r, side, next)?;
                    let halves = seats / 2;
                    if same_pieces(&child, &m) {
                        if stay.is_none() {
                            stay = Some(if let Some(k) = group.iter().position(|g| *g == child) {
                                Next::Member(k, halves)
                            } else if self.memo.contains_key(&child) {
                                Next::Solved(child, halves)
                            } else {
                                group.push(child);
                                Next::Member(group.len() - 1, halves)
                            });
                        }
                        continue;
                    }
                    self.solve(&child)?;
                    let e = halves as f64 + self.memo.get(&child)?.mean();
                    if best.as_ref().is_none_or(|(b, _, _)| e < *b) {
                        best = Some((e, child, halves));
                    }
                }
                if best.is_none() && stay.is_none() {
                    return None;
                }
                out.push((p, best, stay));
            }
            choices.push(out);
            i += 1;
        }
        // Expected times within the group (moves out of it are known; moving
        // nothing stays in it), then each throw's fastest choice.
        let g = group.len();
        let mut e = vec![0.0f64; g];
        for _ in 0..100_000 {
            let mut change = 0.0f64;
            for x in 0..g {
                let mut acc = 0.0;
                for (p, best, stay) in &choices[x] {
                    acc += p * self.cost(best, stay, &e)?;
                }
                change = change.max((acc - e[x]).abs());
                e[x] = acc;
            }
            if change < 1e-12 {
                break;
            }
        }
        let mut moves: Vec<Vec<(f64, Next)>> = Vec::with_capacity(g);
        for member in &choices {
            let mut out = Vec::with_capacity(member.len());
            for (p, best, stay) in member {
                let next = match (best, stay) {
                    (Some((me, child, h)), Some(st)) => {
                        let sc = self.cost(&None, &Some(*st), &e)?;
                        if sc < me - 1e-12 {
                            *st
                        } else {
                            Next::Solved(*child, *h)
                        }
                    }
                    (Some((_, child, h)), None) => Next::Solved(*child, *h),
                    (None, Some(st)) => *st,
                    (None, None) => Next::Done,
                };
                out.push((*p, next));
            }
            moves.push(out);
        }
        // Every throw takes at least a half-round, so each entry needs only
        // earlier ones: fill them in time order for the whole group at once.
        // What leaves the group (finishing, or a solved state) first, one
        // lookup each; then what stays in it, in time order.
        let mut at = vec![[0f64; HORIZON]; g];
        for x in 0..g {
            for (p, next) in &moves[x] {
                match *next {
                    Next::Done => at[x][0] += p,
                    Next::Solved(c, h) => {
                        let f = &self.memo.get(&c)?.at;
                        for k in h..HORIZON - 1 {
                            at[x][k] += p * f[k - h] as f64;
                        }
                    }
                    Next::Member(..) => {}
                }
            }
        }
        for k in 0..HORIZON - 1 {
            for x in 0..g {
                for (p, next) in &moves[x] {
                    if let Next::Member(j, h) = *next {
                        if k >= h {
                            at[x][k] += p * at[j][k - h];
                        }
                    }
                }
            }
        }
        for (x, m) in group.into_iter().enumerate() {
            let head: f64 = at[x][..HORIZON - 1].iter().sum();
            at[x][HORIZON - 1] = (1.0 - head).max(0.0);
            self.memo.insert(
                m,
                Finish {
                    at: at[x].map(|v| v as f32),
                },
            );
        }
        Some(())
    }

    /// The expected half-rounds to finish after one throw's choice: 0 when it
    /// finishes, else the faster of the best move and moving nothing (`e`:
    /// the expected times of the group's members so far).
    fn cost(
        &self,
        best: &Option<(f64, Position, usize)>,
        stay: &Option<Next>,
        e: &[f64],
    ) -> Option<f64> {
        let stay = match stay {
            None => None,
            Some(Next::Member(k, h)) => Some(*h as f64 + e[*k]),
            Some(Next::Solved(c, h)) => Some(*h as f64 + self.memo.get(c)?.mean()),
            Some(Next::Done) => Some(0.0),
        };
        Some(match (best.as_ref().map(|b| b.0), stay) {
            (None, None) => 0.0,
            (Some(a), None) | (None, Some(a)) => a,
            (Some(a), Some(b)) => a.min(b),
        })
    }
}

/// Every state of one side's column races with at most `out` pieces of each
/// of its colours still out (in the column, progress 77 to 83), each colour of
/// the side that throws to move: the side is Yellow and Black in a team game,
/// Yellow alone otherwise. The other sides stand in their columns.
pub fn side_states(rules: Rules, players: u8, out: usize) -> Result<Vec<Position>, String> {
    let start = Position::new(rules, players).map_err(|e| e.to_string())?;
    let side = Side::of(&start, Colour::Yellow);
    // Each colour's ways: `k` pieces out at ascending progress, the rest home.
    let mut ways: Vec<Vec<u8>> = Vec::new();
    fn fill(from: u8, left: usize, now: &mut Vec<u8>, all: &mut Vec<Vec<u8>>) {
        let mut v = now.clone();
        v.resize(4, HOME);
        all.push(v);
        if left == 0 {
            return;
        }
        for p in from..HOME {
            now.push(p);
            fill(p, left - 1, now, all);
            now.pop();
        }
    }
    fill(COLUMN, out.min(4), &mut Vec::new(), &mut ways);
    let mine: Vec<Colour> = start.colours().iter().filter(|c| side.has(*c)).collect();
    let mut states = Vec::new();
    let mut pick = vec![0usize; mine.len()];
    loop {
        let mut s = start.to_setup();
        for c in Colour::ALL {
            if s.pieces[c.index()].is_some() {
                s.pieces[c.index()] = Some(STILL.to_vec());
            }
        }
        for (c, w) in mine.iter().zip(&pick) {
            s.pieces[c.index()] = Some(ways[*w].clone());
        }
        s.captured = start.colours().iter().collect();
        for c in &mine {
            let mut t = s.clone();
            t.to_move = Some(*c);
            if let Ok(pos) = t.into_position() {
                if is_column_race(&pos) {
                    states.push(pos);
                }
            }
        }
        // The next combination of ways, like an odometer.
        let mut i = 0;
        while i < pick.len() {
            pick[i] += 1;
            if pick[i] < ways.len() {
                break;
            }
            pick[i] = 0;
            i += 1;
        }
        if i == pick.len() {
            return Ok(states);
        }
    }
}

/// The solver every [`ExactRaces`] evaluation shares (column races come back
/// in every game and every search, so what it solves once is kept).
fn shared() -> &'static Mutex<RaceSolver> {
    static SOLVER: OnceLock<Mutex<RaceSolver>> = OnceLock::new();
    SOLVER.get_or_init(|| Mutex::new(RaceSolver::new()))
}

/// `side`'s exact chance in a column race from the shared solver; `None` where
/// [`RaceSolver::win_chance`] has none.
pub fn race_win_chance(pos: &Position, side: Side) -> Option<f64> {
    if !is_column_race(pos) {
        return None;
    }
    let mut solver = shared().lock().unwrap_or_else(|e| e.into_inner());
    if solver.len() + solver.chances.len() > MAX_KEPT {
        solver.clear();
    }
    solver.win_chance(pos, side)
}

/// An evaluation that values column races exactly and everything else as
/// `inner` does.
#[derive(Clone, Copy, Debug)]
pub struct ExactRaces<E>(pub E);

impl<E: Evaluator> Evaluator for ExactRaces<E> {
    fn win_chance(&self, pos: &Position, side: Side) -> f64 {
        race_win_chance(pos, side).unwrap_or_else(|| self.0.win_chance(pos, side))
    }

    fn play_units(&self) -> usize {
        self.0.play_units()
    }
}
