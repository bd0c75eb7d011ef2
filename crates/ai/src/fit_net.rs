//! Fitting the network of [`crate::net`] to rollout targets, a less noisy
//! teacher than one game's result: positions are drawn from greedy self-play
//! games (every `every`-th turn: the position the greedy play leads to and
//! those of `siblings` other plays of the same throw drawn at random, so that
//! the network sees the plays it must tell apart, rolled out with the same dice),
//! each position's target is the share of
//! `rollouts` greedy games played on from it (with the linear model, fresh dice
//! each) that the first side wins (or, with a `horizon`, the mean of the linear
//! model's value where each rollout stops after that many rounds, as the
//! expert's rollouts stop), and the network is fitted to the targets by
//! stochastic gradient descent on cross-entropy over `epochs` passes in a seeded
//! shuffled order. Everything is seeded, so the network depends only on the seed.

use chaupar_core::dice::Dice;
use chaupar_core::{Game, Generator, Position};

use crate::derive_seed;
use crate::eval::{sides, Side, Weights};
use crate::evaluator::Evaluator;
use crate::net::Net;
use crate::sim::dice_after_throw_off;
use crate::train::{in_batches, TrainConfig};
use crate::train_net::learn_logit;
use crate::Rng;

/// How positions are drawn and labelled for [`fit_net`].
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// The games the positions come from (`games`, `seed`, `rules`, `players`,
    /// `max_turns`) and the step size (`alpha`).
    pub train: TrainConfig,
    /// A position is taken every this many turns of a game.
    pub every: usize,
    /// Greedy games played on from each position for its target.
    pub rollouts: usize,
    /// Other plays' positions taken with each greedy one.
    pub siblings: usize,
    /// Passes over the positions.
    pub epochs: usize,
    /// Rounds (each player's turn once) after which a rollout stops and the
    /// position it reached is valued by the linear model; 0 plays on to the end.
    pub horizon: usize,
}

/// The positions of one greedy game to label, with the turn they come from:
/// every `every`-th turn, the greedy play's and `siblings` other plays' (drawn
/// with `rng`).
fn game_positions(cfg: &FitConfig, w: &Weights, seed: u64) -> Vec<(usize, Position)> {
    let t = &cfg.train;
    let Ok(game) = Game::new(t.rules, t.players, seed) else {
        return Vec::new();
    };
    let mut gen = Generator::new();
    let mut dice = dice_after_throw_off(&game);
    let mut rng = Rng::new(seed ^ 0x51B);
    let mut pos = *game.position();
    let mut out = Vec::new();
    for turn in 0..t.max_turns {
        let Some(m) = pos.to_move() else { break };
        let Ok(n) = gen.generate(&pos, dice.throw(t.rules.faces)) else {
            break;
        };
        let pick = if n > 1 {
            w.greedy_choice(&gen, Side::of(&pos, m))
        } else {
            0
        };
        if turn % cfg.every.max(1) == 0 {
            out.push((turn, *gen.position(pick)));
            for _ in 0..cfg.siblings.min(n - 1) {
                // Another play than the greedy one, uniformly.
                let k = (pick + 1 + rng.below(n - 1)) % n;
                out.push((turn, *gen.position(k)));
            }
        }
        pos = *gen.position(pick);
    }
    out.retain(|(_, p)| p.to_move().is_some());
    out
}

/// The result for `side` of a greedy game played on from `pos` with dice seeded
/// by `seed` (0.5 for a dead game or one still going after `max_turns`). With
/// `horizon` turns (0: none) a game still going after them is valued by `w`.
fn rollout(
    pos: &Position,
    side: Side,
    w: &Weights,
    (max_turns, horizon): (usize, usize),
    seed: u64,
) -> f64 {
    let mut gen = Generator::new();
    let mut dice = Dice::from_seed(seed);
    let mut pos = *pos;
    let turns = if horizon == 0 {
        max_turns
    } else {
        horizon.min(max_turns)
    };
    for _ in 0..turns {
        let Some(m) = pos.to_move() else { break };
        let Ok(n) = gen.generate(&pos, dice.throw(pos.rules().faces)) else {
            break;
        };
        let pick = if n > 1 {
            w.greedy_choice(&gen, Side::of(&pos, m))
        } else {
            0
        };
        pos = *gen.position(pick);
    }
    match pos.winner() {
        Some(win) if side.won(win) => 1.0,
        Some(_) => 0.0,
        None if horizon > 0 && turns < max_turns && pos.to_move().is_some() => {
            w.win_chance(&pos, side)
        }
        None => 0.5,
    }
}

/// A labelled position: the first side's rollout result, and the throw it came
/// from (positions of one throw's plays share a `group` and their dice).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Labelled {
    /// The position.
    pub position: Position,
    /// The share of its rollouts the first side won.
    pub target: f64,
    /// Which throw of which game it comes from (the seed of its rollouts).
    pub group: u64,
}

/// The labelled positions of [`fit_net`], the plays of one throw next to each
/// other. `progress` is called with the games whose positions are labelled.
pub fn rollout_targets(cfg: &FitConfig, progress: impl FnMut(usize)) -> Vec<Labelled> {
    let t = &cfg.train;
    let w = Weights::embedded(t.rules.preset);
    let mut out = Vec::new();
    in_batches(
        t,
        &mut (),
        |_, seed| Some(label_game(cfg, w, seed)),
        |_, labelled, _| out.extend(labelled),
        progress,
    );
    out
}

/// The labelled positions of game `seed`.
fn label_game(cfg: &FitConfig, w: &Weights, seed: u64) -> Vec<Labelled> {
    let limits = (
        cfg.train.max_turns,
        cfg.horizon * cfg.train.players as usize,
    );
    game_positions(cfg, w, seed)
        .into_iter()
        .map(|(turn, pos)| {
            let side = sides(&pos)[0];
            // The plays of one throw are rolled out with the same dice (common
            // random numbers): their differences are what a greedy player needs,
            // and they come out far less noisy. The seed names the throw too.
            let base = derive_seed(seed, 1 + turn as u64);
            let won: f64 = (0..cfg.rollouts)
                .map(|r| rollout(&pos, side, w, limits, derive_seed(base, r as u64)))
                .sum();
            Labelled {
                position: pos,
                target: won / cfg.rollouts.max(1) as f64,
                group: base,
            }
        })
        .collect()
}

/// Fits `net` to `data`: `epochs` passes of stochastic gradient descent with
/// step `alpha` over the throws in a seeded order. Within a throw each play's
/// value moves towards its target's difference from the throw's mean (what a
/// greedy player compares, with the noise its plays share taken out), and a
/// quarter as much towards the target itself (cross-entropy).
pub fn fit_net(net: &mut Net, data: &[Labelled], epochs: usize, alpha: f64, seed: u64) {
    let mut groups: Vec<core::ops::Range<usize>> = Vec::new();
    for (i, l) in data.iter().enumerate() {
        match groups.last_mut() {
            Some(r) if data[r.start].group == l.group => r.end = i + 1,
            _ => groups.push(i..i + 1),
        }
    }
    let mut rng = Rng::new(seed);
    for _ in 0..epochs {
        // A seeded Fisher-Yates shuffle.
        for i in (1..groups.len()).rev() {
            groups.swap(i, rng.below(i + 1));
        }
        for r in &groups {
            let plays = &data[r.clone()];
            let side = sides(&plays[0].position)[0];
            let values: Vec<f64> = plays
                .iter()
                .map(|l| net.win_chance(&l.position, side))
                .collect();
            let n = plays.len() as f64;
            let mean_t = plays.iter().map(|l| l.target).sum::<f64>() / n;
            let mean_v = values.iter().sum::<f64>() / n;
            for (l, v) in plays.iter().zip(&values) {
                let relative = (l.target - mean_t) - (v - mean_v);
                let absolute = l.target - v;
                learn_logit(net, &l.position, side, alpha * (relative + 0.25 * absolute));
            }
        }
    }
}

/// The mean cross-entropy of `net` on `data` (lower is better).
pub fn loss(net: &Net, data: &[Labelled]) -> f64 {
    let total: f64 = data
        .iter()
        .map(|l| {
            let v = net
                .win_chance(&l.position, sides(&l.position)[0])
                .clamp(1e-9, 1.0 - 1e-9);
            -(l.target * v.ln() + (1.0 - l.target) * (1.0 - v).ln())
        })
        .sum();
    total / data.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaupar_core::rules::Preset;
    use chaupar_core::Rules;

    #[test]
    fn targets_are_shares_of_rollouts_and_fitting_lowers_the_loss() {
        let preset = Preset::Chaupar;
        let cfg = FitConfig {
            train: TrainConfig {
                rules: Rules::preset(preset),
                players: 4,
                games: 2,
                seed: 5,
                alpha: 0.05,
                lambda: 0.0,
                epsilon: 0.0,
                batch: 2,
                max_turns: 400,
            },
            every: 10,
            rollouts: 4,
            siblings: 1,
            epochs: 1,
            horizon: 0,
        };
        let data = rollout_targets(&cfg, |_| {});
        assert!(data.len() >= 4, "{} positions", data.len());
        assert!(data
            .iter()
            .all(|l| [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0].contains(&l.target)));
        assert!(
            data.windows(2).any(|w| w[0].group == w[1].group),
            "siblings share a group"
        );
        assert_eq!(data, rollout_targets(&cfg, |_| {}), "seeded");
        let mut net = Net::new(preset, Weights::embedded(preset), 16, 3);
        let before = loss(&net, &data);
        fit_net(&mut net, &data, 30, 0.05, 1);
        assert!(loss(&net, &data) < before);

        // Rollouts cut after two rounds: the same positions, each target the
        // mean of the linear model's values (or results) where they stop.
        let cut = FitConfig {
            horizon: 2,
            ..cfg.clone()
        };
        let short = rollout_targets(&cut, |_| {});
        assert_eq!(
            short.iter().map(|l| l.position).collect::<Vec<_>>(),
            data.iter().map(|l| l.position).collect::<Vec<_>>()
        );
        assert!(short.iter().all(|l| (0.0..=1.0).contains(&l.target)));
        assert!(
            short
                .iter()
                .any(|l| l.target * 8.0 != (l.target * 8.0).round()),
            "valued by the model, not by results"
        );
        assert_eq!(short, rollout_targets(&cut, |_| {}), "seeded");
        // A horizon past every game's end is no horizon.
        let long = FitConfig {
            horizon: 1000,
            ..cfg.clone()
        };
        assert_eq!(rollout_targets(&long, |_| {}), data);
    }

    #[test]
    fn a_cut_rollout_is_the_linear_value_where_it_stops() {
        let preset = Preset::Chaupar;
        let w = Weights::embedded(preset);
        let start = Position::new(Rules::preset(preset), 4).unwrap();
        let side = sides(&start)[0];
        // No turn played: the start's own value.
        let v = rollout(&start, side, w, (400, 0), 9);
        assert!([0.0, 0.5, 1.0].contains(&v), "played to the end: {v}");
        let one = rollout(&start, side, w, (400, 1), 9);
        assert!(one > 0.0 && one < 1.0, "{one}");
        assert_eq!(rollout(&start, side, w, (400, 1), 9), one, "seeded");
        // Stopped by max_turns before the horizon: undecided.
        assert_eq!(rollout(&start, side, w, (3, 8), 9), 0.5);
    }
}
