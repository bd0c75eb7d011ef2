//! Static evaluation: the chance that a side wins, from features a player would
//! name, combined by a logistic model whose weights were learned by self-play
//! (see [`crate::train`]).
//!
//! A *side* is a team in a team game and a colour when everyone plays for himself.
//! Every feature is "my side minus the opponents' average", so that in a two-sided
//! game the two sides' chances add up to one.

use std::sync::OnceLock;

use chaupar_core::board::{self, HOME, LOOP_END, LOOP_LEN};
use chaupar_core::rules::{
    Blockade, Capture, Faces, Order, Preset, Safe, Stacking, ThrowUse, Tohd,
};
use chaupar_core::{dice, Colour, Position, Team, Winner};
use serde::{Deserialize, Serialize};

/// One side of a game: a team, or a colour playing for himself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// A partnership in a team game.
    Team(Team),
    /// A colour in a solo game.
    Colour(Colour),
}

impl Side {
    /// The side `colour` plays for in this position.
    pub fn of(pos: &Position, colour: Colour) -> Side {
        if pos.has_teams() {
            Side::Team(colour.team())
        } else {
            Side::Colour(colour)
        }
    }

    /// Whether `colour` plays for this side.
    pub fn has(self, colour: Colour) -> bool {
        match self {
            Side::Team(t) => colour.team() == t,
            Side::Colour(c) => c == colour,
        }
    }

    /// Whether this side is among the winners.
    pub fn won(self, w: Winner) -> bool {
        match (self, w) {
            (Side::Team(t), Winner::Team(u)) => t == u,
            (Side::Colour(c), w) => w.includes(c),
            (Side::Team(t), Winner::Colour(c)) => c.team() == t,
        }
    }

    /// A short name: `yellow+black` or a colour.
    pub fn name(self) -> &'static str {
        match self {
            Side::Team(t) => t.name(),
            Side::Colour(c) => c.name(),
        }
    }
}

/// Every side playing in the position.
pub fn sides(pos: &Position) -> Vec<Side> {
    let (all, n) = side_array(pos);
    all[..n].to_vec()
}

/// How many sides play (2 in a team game).
pub fn side_count(pos: &Position) -> usize {
    side_array(pos).1
}

/// The sides without allocating: an array and how many of it are used.
fn side_array(pos: &Position) -> ([Side; 4], usize) {
    let mut all = [Side::Team(Team::YellowBlack); 4];
    if pos.has_teams() {
        all[1] = Side::Team(Team::RedGreen);
        return (all, 2);
    }
    let mut n = 0;
    for c in pos.colours().iter().take(4) {
        all[n] = Side::Colour(c);
        n += 1;
    }
    (all, n)
}

/// Number of features.
pub const NF: usize = 13;

/// The feature names, in order (as in the weight files).
pub const FEATURE_NAMES: [&str; NF] = [
    "to_move",
    "pips",
    "slowest_pips",
    "waiting",
    "home",
    "risk_progress",
    "risk_pieces",
    "stacked",
    "blocks",
    "no_capture",
    "order_stuck",
    "loop_left",
    "tempo_risk",
];

/// Learned weights of the logistic model for one rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// The preset the weights were trained for.
    pub preset: String,
    /// Feature names (must equal [`FEATURE_NAMES`]).
    pub features: Vec<String>,
    /// One weight per feature.
    pub weights: Vec<f64>,
    /// The command that produced the file.
    #[serde(default)]
    pub command: String,
    /// Games of self-play used.
    #[serde(default)]
    pub games: u64,
}

impl Weights {
    /// Hand-set starting weights (before training).
    pub fn initial(preset: Preset) -> Weights {
        Weights {
            preset: preset.name().into(),
            features: FEATURE_NAMES.iter().map(|s| s.to_string()).collect(),
            weights: vec![
                0.1, -2.0, -1.0, -0.1, 0.1, -1.5, -0.1, 0.02, 0.05, -0.3, -0.05, -0.5, 0.3,
            ],
            command: "hand-set".into(),
            games: 0,
        }
    }

    /// Reads weights from JSON, checking the feature list.
    pub fn from_json(text: &str) -> Result<Weights, String> {
        let w: Weights = serde_json::from_str(text).map_err(|e| format!("bad weights: {e}"))?;
        if w.weights.len() != NF || w.features.iter().map(String::as_str).ne(FEATURE_NAMES) {
            return Err(format!(
                "weights file lists features {:?}; this program needs {:?}",
                w.features, FEATURE_NAMES
            ));
        }
        Ok(w)
    }

    /// The embedded trained weights of a preset.
    pub fn embedded(preset: Preset) -> &'static Weights {
        static W: OnceLock<[Weights; 3]> = OnceLock::new();
        let all = W.get_or_init(|| {
            let load = |text: &str, p: Preset| {
                Weights::from_json(text).unwrap_or_else(|_| Weights::initial(p))
            };
            [
                load(include_str!("../weights/chaupar.json"), Preset::Chaupar),
                load(include_str!("../weights/chausar.json"), Preset::Chausar),
                load(include_str!("../weights/classic.json"), Preset::Classic),
            ]
        });
        match preset {
            Preset::Chaupar => &all[0],
            Preset::Chausar => &all[1],
            Preset::Classic => &all[2],
        }
    }

    /// The JSON text of the weights.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The dice faces and uses of the throw the tables below are made for, in order.
const DICE_KINDS: [(Faces, bool); 4] = [
    (Faces::F1256, true),
    (Faces::F1256, false),
    (Faces::F1346, true),
    (Faces::F1346, false),
];

/// The index of the faces and use of the throw in [`DICE_KINDS`].
fn dice_kind(faces: Faces, total: bool) -> usize {
    match (faces, total) {
        (Faces::F1256, true) => 0,
        (Faces::F1256, false) => 1,
        (Faces::F1346, true) => 2,
        (Faces::F1346, false) => 3,
    }
}

/// For each of the 64 ordered outcomes, the distances (bit d) one unit can go with it.
fn reach_table(faces: Faces, total: bool) -> &'static [u32; 64] {
    static T: OnceLock<[[u32; 64]; 4]> = OnceLock::new();
    let all = T.get_or_init(|| {
        let mut out = [[0u32; 64]; 4];
        for (k, (faces, total)) in DICE_KINDS.into_iter().enumerate() {
            for (i, t) in dice::outcomes(faces).iter().enumerate() {
                let [a, b, c] = t.dice();
                let mut m = 0u32;
                if total {
                    // Any part of the total goes to one unit.
                    for d in 1..=(a + b + c) {
                        m |= 1 << d;
                    }
                } else {
                    // Single dice, and dice taken one after another.
                    for d in [a, b, c, a + b, a + c, b + c, a + b + c] {
                        m |= 1 << d;
                    }
                }
                out[k][i] = m;
            }
        }
        out
    });
    &all[dice_kind(faces, total)]
}

/// The exact chance (of the 64 outcomes) that one throw gives a unit a distance in `mask`.
pub fn hit_chance(faces: Faces, total: bool, mask: u32) -> f64 {
    if mask == 0 {
        return 0.0;
    }
    let by_distance = throws_reaching(faces, total);
    let mut throws = 0u64;
    let mut m = mask;
    while m != 0 {
        throws |= by_distance[m.trailing_zeros() as usize];
        m &= m - 1;
    }
    throws.count_ones() as f64 / 64.0
}

/// For each distance (0–31), the outcomes (bit i for outcome i of
/// [`dice::outcomes`]) that give one unit that distance: [`reach_table`] the
/// other way round.
fn throws_reaching(faces: Faces, total: bool) -> &'static [u64; 32] {
    static T: OnceLock<[[u64; 32]; 4]> = OnceLock::new();
    let all = T.get_or_init(|| {
        let mut out = [[0u64; 32]; 4];
        for (k, (faces, total)) in DICE_KINDS.into_iter().enumerate() {
            for (i, r) in reach_table(faces, total).iter().enumerate() {
                for (d, slot) in out[k].iter_mut().enumerate() {
                    if r >> d & 1 == 1 {
                        *slot |= 1 << i;
                    }
                }
            }
        }
        out
    });
    &all[dice_kind(faces, total)]
}

/// Per-colour raw features (before taking sides).
#[derive(Clone, Copy, Default, Debug)]
struct ColourFeatures {
    pips: f64,
    waiting: f64,
    home: f64,
    risk_progress: f64,
    risk_pieces: f64,
    stacked: f64,
    blocks: f64,
    no_capture: f64,
    order_stuck: f64,
    loop_left: f64,
}

/// The stacks of one colour, `(progress, pieces)` as [`Position::stacks`] lists
/// them, worked out once per evaluation.
#[derive(Clone, Copy, Default)]
struct StackList {
    items: [(u8, u8); 4],
    len: usize,
}

impl StackList {
    fn of(pos: &Position, c: Colour) -> StackList {
        let mut list = StackList::default();
        for (p, n) in pos.stacks(c) {
            if list.len < 4 {
                list.items[list.len] = (p, n);
                list.len += 1;
            }
        }
        list
    }

    fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.items[..self.len].iter().copied()
    }
}

/// Per colour, the progress values q < [`HOME`] of its units able to capture a
/// unit of each size (index 1–4): what [`attackers`] looks up, worked out once
/// per evaluation from the stacks. Progress q is bit `127 - q`, so that one
/// shift reads off the distances behind a square ([`behind`]).
#[derive(Clone, Copy, Default)]
struct Threats {
    by_size: [[u128; 5]; 4],
    /// Whether the colour's units still go round the loop (tohd `circle`, no
    /// capture yet): they also reach squares early on the loop from its end.
    circle: [bool; 4],
}

impl Threats {
    fn of(pos: &Position, stacks: &[StackList; 4]) -> Threats {
        let rules = pos.rules();
        let mut t = Threats::default();
        for e in pos.colours().iter() {
            let ei = e.index();
            t.circle[ei] = rules.tohd == Tohd::Circle && !pos.has_captured(e);
            // Units that take any size, and the others by their own size.
            let mut any = 0u128;
            let mut sized = [0u128; 5];
            for (q, n) in stacks[ei].iter() {
                if q >= HOME {
                    continue;
                }
                let unit = match rules.stacking {
                    Stacking::Group => 1,
                    _ => n,
                };
                // A unit smaller than the one it would land on cannot take it
                // where captures go by size, nor when it is a declared block.
                if rules.capture == Capture::Size
                    || (rules.stacking == Stacking::Declare && pos.is_block(e, q))
                {
                    sized[unit.min(4) as usize] |= 1 << (127 - q);
                } else {
                    any |= 1 << (127 - q);
                }
            }
            let mut at_least = any;
            for size in (1..=4).rev() {
                at_least |= sized[size];
                t.by_size[ei][size] = at_least;
            }
        }
        t
    }
}

/// The loop's progress values, 1 to [`LOOP_END`], as [`Threats`] holds them.
const LOOP: u128 = ((1u128 << LOOP_END) - 1) << (127 - LOOP_END);

/// The distances `d` in 1..=18 (bit d) for which `set` ([`Threats`]' bits)
/// holds progress `t - d`: bit `127 - t + d`.
#[inline]
fn behind(set: u128, t: u8) -> u32 {
    (set >> (127 - t)) as u32 & 0x7_fffe
}

/// Distances (bits) at which enemy units stand behind the square of `c` at
/// progress `p`, able to capture a unit of `size` there (on each enemy's own
/// track, or from the end of its loop round to the start while it goes round).
fn attackers(pos: &Position, threats: &Threats, c: Colour, p: u8, size: u8) -> (u32, bool) {
    let Some(sq) = board::square(c, p) else {
        return (0, false);
    };
    let mut mask = 0u32;
    for e in pos.colours().iter() {
        if !pos.enemies(c, e) {
            continue;
        }
        let set = threats.by_size[e.index()][size.clamp(1, 4) as usize];
        if set == 0 {
            continue;
        }
        // The square is at most two places of the enemy's track.
        for t in board::progress_on(e, sq).take(2) {
            mask |= behind(set, t);
            // Going round, from q on the loop t + 68 - q squares away: at most
            // 18 only for t up to LOOP_END + 18 - 68.
            if threats.circle[e.index()] && t >= 8 && t + LOOP_LEN <= LOOP_END + 18 {
                mask |= behind(set & LOOP, t + LOOP_LEN);
            }
        }
    }
    (mask, mask != 0)
}

fn colour_features(
    pos: &Position,
    stacks: &[StackList; 4],
    threats: &Threats,
    c: Colour,
) -> ColourFeatures {
    let rules = pos.rules();
    let total = rules.throw == ThrowUse::Total;
    let mut f = ColourFeatures::default();
    let pieces = pos.pieces(c);
    for &p in pieces {
        f.pips += (HOME - p) as f64;
        if p == 0 {
            f.waiting += 1.0;
        }
        if p == HOME {
            f.home += 1.0;
        }
    }
    let circle_needed = rules.tohd != Tohd::Off && !pos.has_captured(c);
    if circle_needed && !pos.finished(c) {
        f.no_capture = 1.0;
        // Pieces that will have to go round the loop again.
        if rules.tohd == Tohd::Circle {
            f.loop_left = pieces
                .iter()
                .filter(|p| **p >= 40 && **p <= LOOP_END)
                .count() as f64;
        }
    }
    if pos.has_teams() && rules.order != Order::Off {
        if let Some(first) = c.waits_for() {
            if !pos.finished(first) {
                f.order_stuck = pieces
                    .iter()
                    .filter(|p| **p > LOOP_END - 8 && **p < HOME)
                    .count() as f64;
            }
        }
    }
    for (p, n) in stacks[c.index()].iter() {
        if p == 0 || p >= HOME {
            continue;
        }
        if n >= 2 {
            f.stacked += n as f64;
        }
        let is_block = pos.is_block(c, p);
        if is_block {
            f.blocks += 1.0;
        }
        if rules.blockade == Blockade::PastHalf && n >= 2 && p >= board::HALF && p != LOOP_END {
            f.blocks += 1.0;
            continue;
        }
        if is_block && rules.blockade == Blockade::Block {
            continue;
        }
        if !(8..=LOOP_END).contains(&p) {
            continue;
        }
        if let Some(sq) = board::square(c, p) {
            if rules.safe == Safe::Castles && sq.is_castle() {
                continue;
            }
        }
        let size = if rules.stacking == Stacking::Group {
            1
        } else {
            n
        };
        let (mask, any) = attackers(pos, threats, c, p, size);
        if any {
            let ph = hit_chance(rules.faces, total, mask);
            f.risk_progress += ph * n as f64 * p as f64 / 84.0;
            f.risk_pieces += ph * n as f64;
        }
    }
    f
}

/// The feature vector of `side` in `pos`: my side minus the opponents' average.
pub fn features(pos: &Position, side: Side) -> [f64; NF] {
    let (all, n) = side_array(pos);
    let vectors = side_vectors(pos, &all[..n]);
    let k = all[..n].iter().position(|s| *s == side);
    side_features(&vectors[..n], k)
}

/// The feature vectors of every side of `pos` (in the order of [`sides`]) and
/// how many sides there are; each is [`features`] of that side.
pub fn features_of_sides(pos: &Position) -> ([Side; 4], [[f64; NF]; 4], usize) {
    let (all, n) = side_array(pos);
    let vectors = side_vectors(pos, &all[..n]);
    let mut out = [[0.0; NF]; 4];
    for (k, o) in out.iter_mut().enumerate().take(n) {
        *o = side_features(&vectors[..n], Some(k));
    }
    (all, out, n)
}

/// Each side's own sums of the colour features (before comparing sides).
fn side_vectors(pos: &Position, sides: &[Side]) -> [[f64; NF]; 4] {
    let stacks: [StackList; 4] = std::array::from_fn(|i| {
        let c = Colour::ALL[i];
        if pos.colours().has(c) {
            StackList::of(pos, c)
        } else {
            StackList::default()
        }
    });
    let threats = Threats::of(pos, &stacks);
    let per: [ColourFeatures; 4] = std::array::from_fn(|i| {
        let c = Colour::ALL[i];
        if pos.colours().has(c) {
            colour_features(pos, &stacks, &threats, c)
        } else {
            ColourFeatures::default()
        }
    });
    let mut vectors = [[0.0; NF]; 4];
    for (k, &s) in sides.iter().enumerate() {
        let v = &mut vectors[k];
        if let Some(m) = pos.to_move() {
            if s.has(m) {
                v[0] = 1.0;
            }
        }
        let mut slowest: f64 = 0.0;
        for c in pos.colours().iter().filter(|c| s.has(*c)) {
            let f = &per[c.index()];
            v[1] += f.pips / 100.0;
            slowest = slowest.max(f.pips / 100.0);
            v[3] += f.waiting;
            v[4] += f.home;
            v[5] += f.risk_progress;
            v[6] += f.risk_pieces;
            v[7] += f.stacked;
            v[8] += f.blocks;
            v[9] += f.no_capture;
            v[10] += f.order_stuck;
            v[11] += f.loop_left;
        }
        v[2] = slowest;
    }
    vectors
}

/// The features of side `k` (none: a side not playing) from every side's sums:
/// its own minus the others' average, and the tempo times the total risk.
fn side_features(vectors: &[[f64; NF]], k: Option<usize>) -> [f64; NF] {
    let mut mine = [0.0; NF];
    let mut theirs = [0.0; NF];
    let mut n_theirs = 0.0;
    for (j, v) in vectors.iter().enumerate() {
        if Some(j) == k {
            mine = *v;
        } else {
            for i in 0..NF {
                theirs[i] += v[i];
            }
            n_theirs += 1.0;
        }
    }
    let mut out = [0.0; NF];
    for i in 0..NF {
        out[i] = mine[i]
            - if n_theirs > 0.0 {
                theirs[i] / n_theirs
            } else {
                0.0
            };
    }
    // Pieces at risk matter most to whoever throws next: the tempo times the
    // total risk on the board.
    let total_risk = mine[5]
        + if n_theirs > 0.0 {
            theirs[5] / n_theirs
        } else {
            0.0
        };
    out[12] = out[0] * total_risk;
    out
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The logistic win chance from features and weights.
pub fn chance_from(features: &[f64; NF], weights: &Weights) -> f64 {
    let z: f64 = features
        .iter()
        .zip(&weights.weights)
        .map(|(x, w)| x * w)
        .sum();
    sigmoid(z)
}

/// The estimated chance (0..1) that `side` wins from `pos`, with the embedded
/// weights of the position's preset. Finished games give exactly 0 or 1 (a dead
/// game 0.5).
pub fn win_chance(pos: &Position, side: Side) -> f64 {
    win_chance_with(pos, side, Weights::embedded(pos.rules().preset))
}

/// [`win_chance`] with explicit weights.
pub fn win_chance_with(pos: &Position, side: Side, weights: &Weights) -> f64 {
    if let Some(w) = pos.winner() {
        return if side.won(w) { 1.0 } else { 0.0 };
    }
    if pos.to_move().is_none() {
        return 0.5;
    }
    chance_from(&features(pos, side), weights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaupar_core::Rules;

    #[test]
    fn sides_are_complementary_at_the_start() {
        for p in Preset::ALL {
            let pos = Position::new(Rules::preset(p), 4).unwrap();
            let a = win_chance(&pos, Side::Team(Team::YellowBlack));
            let b = win_chance(&pos, Side::Team(Team::RedGreen));
            assert!((a + b - 1.0).abs() < 1e-9, "{a} {b}");
        }
    }

    #[test]
    fn hit_chances_are_exact() {
        // Distance 1 with single dice: any die showing 1: 1 - (3/4)^3.
        let p = hit_chance(Faces::F1256, false, 1 << 1);
        assert!((p - (1.0 - 27.0 / 64.0)).abs() < 1e-12);
        // Distance 3 with the total split: total >= 3 always.
        assert_eq!(hit_chance(Faces::F1256, true, 1 << 3), 1.0);
    }

    #[test]
    fn hit_chances_count_the_throws_that_reach_a_distance() {
        // The outcomes found by distance are those whose reach meets the mask.
        for faces in [Faces::F1256, Faces::F1346] {
            for total in [false, true] {
                let table = reach_table(faces, total);
                for mask in (0u32..1 << 19).step_by(7).map(|m| m & !1) {
                    let count = table.iter().filter(|r| *r & mask != 0).count();
                    assert_eq!(hit_chance(faces, total, mask), count as f64 / 64.0);
                }
            }
        }
    }

    /// [`attackers`] as first written, stack by stack (the distances at which
    /// enemy units stand behind the square, able to capture there): the table
    /// lookups must give the same distances.
    fn attackers_reference(
        pos: &Position,
        stacks: &[StackList; 4],
        c: Colour,
        p: u8,
        size: u8,
    ) -> (u32, bool) {
        let Some(sq) = board::square(c, p) else {
            return (0, false);
        };
        let rules = pos.rules();
        let mut mask = 0u32;
        for e in pos.colours().iter() {
            if !pos.enemies(c, e) {
                continue;
            }
            // The square is at most two places of the enemy's track.
            let mut targets = [0u8; 2];
            let mut nt = 0;
            for t in board::progress_on(e, sq).take(2) {
                targets[nt] = t;
                nt += 1;
            }
            let targets = &targets[..nt];
            if targets.is_empty() {
                continue;
            }
            let circle = rules.tohd == Tohd::Circle && !pos.has_captured(e);
            for (q, n) in stacks[e.index()].iter() {
                if q >= HOME {
                    continue;
                }
                let unit = match rules.stacking {
                    Stacking::Group => 1,
                    _ => n,
                };
                if rules.capture == Capture::Size && unit < size {
                    continue;
                }
                if rules.stacking == Stacking::Declare && pos.is_block(e, q) && unit < size {
                    continue;
                }
                for &t in targets {
                    // Straight ahead, or (going round again) past the end of the loop.
                    let d = (t as i32 - q as i32) as u32;
                    if d.wrapping_sub(1) < 18 {
                        mask |= 1 << d;
                    }
                    if circle && q != 0 && q <= LOOP_END && (8..=LOOP_END).contains(&t) && t < q {
                        let d = (t as i32 + 68 - q as i32) as u32;
                        if d.wrapping_sub(1) < 18 {
                            mask |= 1 << d;
                        }
                    }
                }
            }
        }
        (mask, mask != 0)
    }

    #[test]
    fn attackers_from_the_threat_table_equal_the_stack_by_stack_count() {
        use chaupar_core::dice::Dice;
        use chaupar_core::Generator;
        let mut g = Generator::new();
        let mut checked = 0;
        for preset in Preset::ALL {
            for (players, options) in [(4, ""), (2, ""), (4, "circle"), (2, "off")] {
                let mut rules = Rules::preset(preset);
                if !options.is_empty() {
                    rules = rules.with_options([("tohd", options)]).unwrap();
                }
                let mut dice = Dice::from_seed(7 + players as u64);
                let mut pos = Position::new(rules, players).unwrap();
                for turn in 0..400u32 {
                    if pos.to_move().is_none() {
                        break;
                    }
                    let stacks: [StackList; 4] =
                        std::array::from_fn(|i| StackList::of(&pos, Colour::ALL[i]));
                    let threats = Threats::of(&pos, &stacks);
                    for c in pos.colours().iter() {
                        for p in 1..HOME {
                            for size in 1..=4 {
                                assert_eq!(
                                    attackers(&pos, &threats, c, p, size),
                                    attackers_reference(&pos, &stacks, c, p, size),
                                    "{pos:?} {c:?} {p} {size}"
                                );
                                checked += 1;
                            }
                        }
                    }
                    let n = g.generate(&pos, dice.throw(rules.faces)).unwrap();
                    pos = *g.position((turn as usize * 7919) % n);
                }
            }
        }
        assert!(checked > 1_000_000, "{checked}");
    }
}
