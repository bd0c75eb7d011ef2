//! Fitting the network of [`crate::net`] to rollout targets, a less noisy
//! teacher than one game's result: positions are drawn from greedy self-play
//! games (every `every`-th turn: the position the greedy play leads to and
//! those of `siblings` other plays of the same throw drawn at random, so that
//! the network sees the plays it must tell apart), each position's target is the share of
//! `rollouts` greedy games played on from it (with the linear model, fresh dice
//! each) that the first side wins, and the network is fitted to the targets by
//! stochastic gradient descent on cross-entropy over `epochs` passes in a seeded
//! shuffled order. Everything is seeded, so the network depends only on the seed.

use chaupar_core::dice::Dice;
use chaupar_core::{Game, Generator, Position};
use rayon::prelude::*;

use crate::derive_seed;
use crate::eval::{sides, Side, Weights};
use crate::evaluator::Evaluator;
use crate::net::Net;
use crate::sim::dice_after_throw_off;
use crate::train::TrainConfig;
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
}

/// The positions of one greedy game to label: every `every`-th turn, the
/// greedy play's and `siblings` other plays' (drawn with `rng`).
fn game_positions(cfg: &FitConfig, w: &Weights, seed: u64) -> Vec<Position> {
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
            out.push(*gen.position(pick));
            for _ in 0..cfg.siblings.min(n - 1) {
                // Another play than the greedy one, uniformly.
                let k = (pick + 1 + rng.below(n - 1)) % n;
                out.push(*gen.position(k));
            }
        }
        pos = *gen.position(pick);
    }
    out.retain(|p| p.to_move().is_some());
    out
}

/// The result for `side` of a greedy game played on from `pos` with dice seeded
/// by `seed` (0.5 for a dead game or one still going after `max_turns`).
fn rollout(pos: &Position, side: Side, w: &Weights, max_turns: usize, seed: u64) -> f64 {
    let mut gen = Generator::new();
    let mut dice = Dice::from_seed(seed);
    let mut pos = *pos;
    for _ in 0..max_turns {
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
        None => 0.5,
    }
}

/// The labelled positions of [`fit_net`]: each with the first side's rollout
/// result. `progress` is called with the games whose positions are labelled.
pub fn rollout_targets(cfg: &FitConfig, mut progress: impl FnMut(usize)) -> Vec<(Position, f64)> {
    let t = &cfg.train;
    let w = Weights::embedded(t.rules.preset);
    let mut out = Vec::new();
    let batch = t.batch.max(1);
    let mut done = 0;
    while done < t.games {
        let n = batch.min(t.games - done);
        let labelled: Vec<Vec<(Position, f64)>> = (done..done + n)
            .into_par_iter()
            .map(|g| {
                let seed = derive_seed(t.seed, g as u64);
                game_positions(cfg, w, seed)
                    .into_iter()
                    .enumerate()
                    .map(|(k, pos)| {
                        let side = sides(&pos)[0];
                        let base = derive_seed(seed, 1 + k as u64);
                        let won: f64 = (0..cfg.rollouts)
                            .map(|r| {
                                rollout(&pos, side, w, t.max_turns, derive_seed(base, r as u64))
                            })
                            .sum();
                        (pos, won / cfg.rollouts.max(1) as f64)
                    })
                    .collect()
            })
            .collect();
        out.extend(labelled.into_iter().flatten());
        done += n;
        progress(done);
    }
    out
}

/// Fits `net` to `data` (positions with the first side's target), `epochs`
/// passes of stochastic gradient descent on cross-entropy with step `alpha`.
pub fn fit_net(net: &mut Net, data: &[(Position, f64)], epochs: usize, alpha: f64, seed: u64) {
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut rng = Rng::new(seed);
    for _ in 0..epochs {
        // A seeded Fisher-Yates shuffle.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &i in &order {
            let (pos, target) = &data[i];
            let side = sides(pos)[0];
            let v = net.win_chance(pos, side);
            learn_logit(net, pos, side, alpha * (target - v));
        }
    }
}

/// The mean cross-entropy of `net` on `data` (lower is better).
pub fn loss(net: &Net, data: &[(Position, f64)]) -> f64 {
    let total: f64 = data
        .iter()
        .map(|(pos, t)| {
            let v = net.win_chance(pos, sides(pos)[0]).clamp(1e-9, 1.0 - 1e-9);
            -(t * v.ln() + (1.0 - t) * (1.0 - v).ln())
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
        };
        let data = rollout_targets(&cfg, |_| {});
        assert!(data.len() >= 4, "{} positions", data.len());
        assert!(data
            .iter()
            .all(|(_, t)| [0.0, 0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0].contains(t)));
        assert_eq!(data, rollout_targets(&cfg, |_| {}), "seeded");
        let mut net = Net::new(preset, Weights::embedded(preset), 16, 3);
        let before = loss(&net, &data);
        fit_net(&mut net, &data, 30, 0.05, 1);
        assert!(loss(&net, &data) < before);
    }
}
