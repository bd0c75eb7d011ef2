//! A small neural evaluation ([`Net`]): the linear model of [`crate::eval`]
//! plus a learned correction from one hidden layer, trained by self-play
//! ([`crate::train_net`]).
//!
//! **Inputs** (seen from one side, [`INPUTS`] of them): the four colours in turn
//! order starting from the side's first colour (in a team game slots 0 and 2 are
//! the side's, 1 and 3 the opponents'), each as the number of its pieces in the
//! Charkoni, in seventeen bands of five progress values along the way (a piece
//! shared between the two bands nearest its progress, in proportion), and home,
//! whether it throws next and whether it has captured; then the side's thirteen
//! features of [`crate::eval::features`].
//!
//! **Value**: z(side) = w · features(side) + g(side) − the opponents' average g,
//! where g(s) = v · relu(W x(s) + b) is the hidden layer's score of side s's view;
//! the win chance is the logistic of z. The correction is antisymmetric like the
//! features, so in a two-sided game the two sides' chances add up to one, and a
//! network whose v is zero is exactly the linear model (training starts there).

use std::sync::OnceLock;

use chaupar_core::board::{HOME, START};
use chaupar_core::rules::Preset;
use chaupar_core::{Colour, Position};
use serde::{Deserialize, Serialize};

use crate::eval::{features_of_sides, Side, Weights, NF};
use crate::evaluator::Evaluator;
use crate::Rng;

/// Inputs per colour slot: Charkoni, 17 bands, home, throws next, has captured.
const SLOT: usize = 21;

/// Inputs of the hidden layer: four colour slots and the side's features.
pub const INPUTS: usize = 4 * SLOT + NF;

/// Units of the hidden layer of a new network.
pub const HIDDEN: usize = 64;

/// Most units a hidden layer may have.
pub const MAX_HIDDEN: usize = 256;

/// Most inputs that are not zero in one view: 10 per slot (two bands a piece,
/// the Charkoni, home, two flags) and the features.
const MAX_ACTIVE: usize = 4 * 10 + NF;

/// The network's parameters. See the module documentation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Net {
    /// The preset it was trained for.
    pub preset: String,
    /// Units of the hidden layer.
    pub hidden: usize,
    /// The linear part: one weight per feature (as [`Weights::weights`]).
    pub linear: Vec<f32>,
    /// W, input-major: `w1[i * hidden + h]` joins input i to unit h.
    pub w1: Vec<f32>,
    /// b, one per hidden unit.
    pub b1: Vec<f32>,
    /// v, one per hidden unit.
    pub w2: Vec<f32>,
    /// The command that produced the file.
    #[serde(default)]
    pub command: String,
    /// Games of self-play used.
    #[serde(default)]
    pub games: u64,
}

/// An embedded network, read from its text on first use.
fn read_once(cell: &'static OnceLock<Option<Net>>, text: &str) -> Option<&'static Net> {
    cell.get_or_init(|| Net::from_json(text).ok()).as_ref()
}

/// One side's view as the inputs that are not zero: (input, value).
#[derive(Clone, Copy)]
pub(crate) struct View {
    pub(crate) active: [(u16, f32); MAX_ACTIVE],
    pub(crate) len: usize,
}

impl View {
    /// The inputs that are not zero.
    pub(crate) fn inputs(&self) -> &[(u16, f32)] {
        &self.active[..self.len]
    }
}

/// The colours of `pos` seen from `side`: turn order from the side's first colour.
fn slots(side: Side) -> [Colour; 4] {
    let first = match side {
        Side::Team(t) => t.colours()[0],
        Side::Colour(c) => c,
    };
    let mut out = [first; 4];
    for i in 1..4 {
        out[i] = out[i - 1].next();
    }
    out
}

/// Where a piece on the way counts: (first band input, its share there, its
/// share in the next band); the last band takes a piece whole (share 0 next).
#[derive(Clone, Copy)]
struct BandShare {
    band: u8,
    here: f32,
    next: f32,
}

/// [`BandShare`] of every progress value on the way (1 to `HOME` - 1), computed
/// once: `(p - 1) / 5` split between the two bands nearest it.
fn band_shares() -> &'static [BandShare; HOME as usize] {
    static SHARES: OnceLock<[BandShare; HOME as usize]> = OnceLock::new();
    SHARES.get_or_init(|| {
        let mut out = [BandShare {
            band: 0,
            here: 0.0,
            next: 0.0,
        }; HOME as usize];
        for (p, share) in out.iter_mut().enumerate().skip(1) {
            let x = (p as f32 - 1.0) / 5.0;
            let band = x as usize;
            *share = if band >= 16 {
                BandShare {
                    band: 17,
                    here: 1.0,
                    next: 0.0,
                }
            } else {
                let frac = x - band as f32;
                BandShare {
                    band: 1 + band as u8,
                    here: 1.0 - frac,
                    next: frac,
                }
            };
        }
        out
    })
}

/// Adds pieces at these progress values to `counts`: the Charkoni (0), 17
/// bands along the way, home (18). A piece on the way counts in the two bands
/// nearest its progress, in proportion, so that a step across a band's edge
/// changes the inputs smoothly, not by a jump.
fn band_counts(pieces: &[u8], counts: &mut [f32; 19]) {
    let shares = band_shares();
    for &p in pieces {
        match p {
            START => counts[0] += 1.0,
            HOME.. => counts[18] += 1.0,
            p => {
                let s = shares[p as usize];
                let b = s.band as usize;
                counts[b] += s.here;
                if b < 17 {
                    counts[b + 1] += s.next;
                }
            }
        }
    }
}

/// Calls `add` with each input of side `side`'s view of `pos` (features `f`)
/// that is not zero, in the order of the inputs.
#[inline]
fn for_each_input(pos: &Position, side: Side, f: &[f64; NF], mut add: impl FnMut(usize, f32)) {
    let present = pos.colours();
    for (j, c) in slots(side).into_iter().enumerate() {
        if !present.has(c) {
            continue;
        }
        let base = j * SLOT;
        let mut counts = [0f32; 19];
        band_counts(pos.pieces(c), &mut counts);
        for (k, n) in counts.iter().enumerate() {
            if *n != 0.0 {
                add(base + k, n * 0.5);
            }
        }
        if pos.to_move() == Some(c) {
            add(base + 19, 1.0);
        }
        if pos.has_captured(c) {
            add(base + 20, 1.0);
        }
    }
    for (i, x) in f.iter().enumerate() {
        let x = *x as f32;
        if x != 0.0 {
            add(4 * SLOT + i, x);
        }
    }
}

/// Side `side`'s view of `pos`, with its features `f`.
pub(crate) fn view(pos: &Position, side: Side, f: &[f64; NF]) -> View {
    let mut v = View {
        active: [(0, 0.0); MAX_ACTIVE],
        len: 0,
    };
    v.len = fill_inputs(pos, side, f, &mut v.active);
    v
}

/// Writes the inputs of [`view`] into `out` and returns how many there are.
#[inline]
fn fill_inputs(
    pos: &Position,
    side: Side,
    f: &[f64; NF],
    out: &mut [(u16, f32); MAX_ACTIVE],
) -> usize {
    let mut n = 0;
    for_each_input(pos, side, f, |i, x| {
        if n < MAX_ACTIVE {
            out[n] = (i as u16, x);
            n += 1;
        }
    });
    n
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl Net {
    /// A new network for `preset`: the linear part from `weights`, the hidden
    /// layer drawn small from `seed`, its output weights zero (so it evaluates
    /// exactly as the linear model until trained).
    pub fn new(preset: Preset, weights: &Weights, hidden: usize, seed: u64) -> Net {
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        let mut rng = Rng::new(seed);
        // Small enough that the untrained hidden layer barely moves the value.
        let scale = 0.1;
        Net {
            preset: preset.name().into(),
            hidden,
            linear: weights.weights.iter().map(|w| *w as f32).collect(),
            w1: (0..INPUTS * hidden)
                .map(|_| rng.normal(scale) as f32)
                .collect(),
            b1: vec![0.05; hidden],
            w2: vec![0.0; hidden],
            command: "initial".into(),
            games: 0,
        }
    }

    /// Reads a network from JSON, checking its sizes.
    pub fn from_json(text: &str) -> Result<Net, String> {
        let n: Net = serde_json::from_str(text).map_err(|e| format!("bad network: {e}"))?;
        if n.hidden == 0
            || n.hidden > MAX_HIDDEN
            || n.linear.len() != NF
            || n.w1.len() != INPUTS * n.hidden
            || n.b1.len() != n.hidden
            || n.w2.len() != n.hidden
        {
            return Err(format!(
                "network sizes do not fit: {} features, {} hidden units, {} input weights \
                 (this program needs {NF} features, 1 to {MAX_HIDDEN} hidden units and \
                 {INPUTS} inputs per hidden unit)",
                n.linear.len(),
                n.hidden,
                n.w1.len()
            ));
        }
        Ok(n)
    }

    /// The JSON text of the network.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The embedded trained network of a preset's four-colour team game, if one
    /// was trained (the file holds the command that made it).
    pub fn embedded(preset: Preset) -> Option<&'static Net> {
        static CHAUPAR: OnceLock<Option<Net>> = OnceLock::new();
        static CHAUSAR: OnceLock<Option<Net>> = OnceLock::new();
        static CLASSIC: OnceLock<Option<Net>> = OnceLock::new();
        match preset {
            Preset::Chaupar => read_once(&CHAUPAR, include_str!("../weights/net-chaupar.json")),
            Preset::Chausar => read_once(&CHAUSAR, include_str!("../weights/net-chausar.json")),
            Preset::Classic => read_once(&CLASSIC, include_str!("../weights/net-classic.json")),
        }
    }

    /// The embedded network for games shaped as `pos` is: its preset's
    /// ([`Net::embedded`]) when four colours play in two teams, `chausar`'s
    /// two-player network when Yellow and Black play each for himself; none
    /// for other games (three players), which are played with the linear
    /// model: a network learned from another shape of game plays them worse
    /// (docs/ai.md).
    pub fn embedded_for(pos: &Position) -> Option<&'static Net> {
        static CHAUSAR2: OnceLock<Option<Net>> = OnceLock::new();
        let preset = pos.rules().preset;
        match (pos.has_teams(), pos.colours().len()) {
            (true, 4) => Net::embedded(preset),
            (false, 2) if preset == Preset::Chausar => {
                read_once(&CHAUSAR2, include_str!("../weights/net-chausar2.json"))
            }
            _ => None,
        }
    }

    /// The hidden layer's pre-activations for a view's inputs.
    pub(crate) fn hidden_sums(&self, inputs: &[(u16, f32)], out: &mut [f32]) {
        let h = self.hidden;
        if let (Ok(out), true) = (<&mut [f32; HIDDEN]>::try_from(&mut *out), h == HIDDEN) {
            // The usual width: the sums stay in registers while every input is
            // added (each sum in the same order as one input at a time).
            let mut acc = [0.0f32; HIDDEN];
            acc.copy_from_slice(&self.b1);
            for &(i, x) in inputs {
                let at = i as usize * HIDDEN;
                if let Ok(row) = <&[f32; HIDDEN]>::try_from(&self.w1[at..at + HIDDEN]) {
                    for (a, w) in acc.iter_mut().zip(row) {
                        *a += x * w;
                    }
                }
            }
            *out = acc;
            return;
        }
        out.copy_from_slice(&self.b1);
        for &(i, x) in inputs {
            let row = &self.w1[i as usize * h..(i as usize + 1) * h];
            for (o, w) in out.iter_mut().zip(row) {
                *o += x * w;
            }
        }
    }

    /// g of side `side` in `pos` (features `f`): v · relu(W x + b).
    fn score_of(&self, pos: &Position, side: Side, f: &[f64; NF], scratch: &mut [f32]) -> f64 {
        let mut inputs = [(0u16, 0f32); MAX_ACTIVE];
        let n = fill_inputs(pos, side, f, &mut inputs);
        self.hidden_sums(&inputs[..n], scratch);
        scratch
            .iter()
            .zip(&self.w2)
            .map(|(a, w)| a.max(0.0) * w)
            .sum::<f32>() as f64
    }

    /// z of `side` in `pos` (the logit of its win chance).
    pub fn logit(&self, pos: &Position, side: Side) -> f64 {
        let (sides, feats, n) = features_of_sides(pos);
        let Some(k) = sides[..n].iter().position(|s| *s == side) else {
            return 0.0;
        };
        let mut scratch = [0.0f32; MAX_HIDDEN];
        let scratch = &mut scratch[..self.hidden];
        let mut z: f64 = feats[k]
            .iter()
            .zip(&self.linear)
            .map(|(x, w)| x * *w as f64)
            .sum();
        let mut others = 0.0;
        for j in 0..n {
            let g = self.score_of(pos, sides[j], &feats[j], scratch);
            if j == k {
                z += g;
            } else {
                others += g;
            }
        }
        if n > 1 {
            z -= others / (n - 1) as f64;
        }
        z
    }
}

impl Evaluator for Net {
    /// Finished games give exactly 0 or 1 (a dead game 0.5).
    fn win_chance(&self, pos: &Position, side: Side) -> f64 {
        if let Some(w) = pos.winner() {
            return if side.won(w) { 1.0 } else { 0.0 };
        }
        if pos.to_move().is_none() {
            return 0.5;
        }
        sigmoid(self.logit(pos, side))
    }

    /// One unit for generating the play and the linear part, and one per 64
    /// hidden units: with 64, a play costs twice the linear model's (measured
    /// by `cargo run --release -p chaupar-ai --example calibrate -- --fit`: 1.85
    /// times in `chaupar`, 2.0 in `classic`).
    fn play_units(&self) -> usize {
        1 + self.hidden.div_ceil(64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{sides, win_chance_with};
    use chaupar_core::{legal_plays, Rules};
    use rand_chacha::rand_core::SeedableRng;

    fn some_positions(preset: Preset, players: u8) -> Vec<Position> {
        let rules = Rules::preset(preset);
        let mut pos = Position::new(rules, players).unwrap();
        let mut out = vec![pos];
        let mut rng = Rng::new(3);
        for _ in 0..60 {
            if pos.to_move().is_none() {
                break;
            }
            let t = chaupar_core::playout::throw(
                &pos,
                &mut rand_chacha::ChaCha8Rng::seed_from_u64(rng.next_u64()),
            );
            let plays = legal_plays(&pos, t).unwrap();
            pos = plays[rng.below(plays.len())].position;
            out.push(pos);
        }
        out
    }

    #[test]
    fn the_checked_in_network_reads_and_is_embedded_where_trained() {
        let net = Net::embedded(Preset::Chaupar).expect("chaupar's network");
        assert_eq!(net.preset, "chaupar");
        assert!(net
            .command
            .contains("--out crates/ai/weights/net-chaupar.json"));
        assert!(net.w2.iter().any(|w| *w != 0.0), "trained");
        let classic = Net::embedded(Preset::Classic).expect("classic's network");
        assert_eq!(classic.preset, "classic");
        let chausar = Net::embedded(Preset::Chausar).expect("chausar's network");
        assert_eq!(chausar.preset, "chausar");
        assert!(chausar
            .command
            .contains("--out crates/ai/weights/net-chausar.json"));
    }

    #[test]
    fn each_network_plays_the_shape_of_game_it_learned_from() {
        for preset in [Preset::Chaupar, Preset::Chausar, Preset::Classic] {
            let four = Position::new(Rules::preset(preset), 4).unwrap();
            assert!(std::ptr::eq(
                Net::embedded_for(&four).unwrap(),
                Net::embedded(preset).unwrap()
            ));
        }
        // Two players each for himself (Yellow against Black): a network of
        // its own, trained on such games.
        let two = Position::new(Rules::preset(Preset::Chausar), 2).unwrap();
        assert!(!two.has_teams());
        let net = Net::embedded_for(&two).expect("two-player chausar's network");
        assert!(net.command.contains("--players 2 "));
        assert!(net
            .command
            .contains("--out crates/ai/weights/net-chausar2.json"));
        // Three each for himself: the linear model.
        let mut solo = Rules::preset(Preset::Chausar);
        solo.set("seating", "solo").unwrap();
        let three = Position::new(solo, 3).unwrap();
        assert!(Net::embedded_for(&three).is_none());
    }

    #[test]
    fn a_new_network_evaluates_as_the_linear_model() {
        for preset in [Preset::Chaupar, Preset::Chausar, Preset::Classic] {
            let w = Weights::embedded(preset);
            let net = Net::new(preset, w, 16, 1);
            for pos in some_positions(preset, 4) {
                for side in sides(&pos) {
                    let (a, b) = (net.win_chance(&pos, side), win_chance_with(&pos, side, w));
                    assert!((a - b).abs() < 1e-5, "{a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn the_two_sides_chances_add_up_to_one() {
        let preset = Preset::Chausar;
        let mut net = Net::new(preset, Weights::embedded(preset), 8, 2);
        let mut rng = Rng::new(9);
        net.w2.iter_mut().for_each(|w| *w = rng.normal(1.0) as f32);
        for players in [4, 2] {
            for pos in some_positions(preset, players) {
                let s = sides(&pos);
                assert_eq!(s.len(), 2);
                let total = net.win_chance(&pos, s[0]) + net.win_chance(&pos, s[1]);
                assert!((total - 1.0).abs() < 1e-6, "{total}");
            }
        }
    }

    /// How many pieces a side's view of `pos` counts.
    fn pieces_seen(pos: &Position, side: Side) -> f32 {
        view(pos, side, &[0.0; NF])
            .inputs()
            .iter()
            .filter(|(i, _)| (*i as usize) < 4 * SLOT && (*i as usize) % SLOT < 19)
            .map(|(_, x)| x * 2.0)
            .sum()
    }

    #[test]
    fn a_piece_counts_once_wherever_it_stands() {
        let pos = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
        assert!((pieces_seen(&pos, sides(&pos)[0]) - 16.0).abs() < 1e-5);
        for p in 0..=HOME {
            let mut counts = [0f32; 19];
            band_counts(&[p], &mut counts);
            assert!((counts.iter().sum::<f32>() - 1.0).abs() < 1e-6, "{p}");
        }
    }

    #[test]
    fn views_name_each_piece_once_and_read_back_from_json() {
        let preset = Preset::Chaupar;
        let pos = some_positions(preset, 4)[30];
        for side in sides(&pos) {
            assert!((pieces_seen(&pos, side) - 16.0).abs() < 1e-5);
        }
        let net = Net::new(preset, Weights::embedded(preset), 4, 5);
        assert_eq!(Net::from_json(&net.to_json()).unwrap(), net);
        let mut bad = net.clone();
        bad.w2.pop();
        assert!(Net::from_json(&bad.to_json())
            .unwrap_err()
            .contains("do not fit"));
        assert!(Net::from_json("{").unwrap_err().starts_with("bad network"));
    }
}
