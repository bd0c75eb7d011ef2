//! Learning the evaluation weights by self-play with TD(lambda).
//!
//! The model is logistic: V(s) = sigmoid(w · f(s)) where f are the features of
//! [`crate::eval::features`] taken from the first side's point of view (Yellow's
//! team, or Yellow). Games are played by the greedy player using the current
//! weights (as TD-Gammon did; the dice provide the exploration). After each game
//! the weights move along the eligibility traces:
//! delta_t = V(s_{t+1}) - V(s_t), e_t = lambda e_{t-1} + grad V(s_t),
//! w += alpha delta_t e_t, with the final target 1 or 0 for a win or loss.
//! Games are played in batches in parallel with frozen weights and applied in
//! game order, so the result depends only on the seed.

use chaupar_core::{Game, Generator, Position, Rules};
use rayon::prelude::*;

use crate::derive_seed;
use crate::eval::{chance_from, features, sides, Side, Weights, NF};
use crate::evaluator::Evaluator;
use crate::sim::dice_after_throw_off;
use crate::Rng;

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The rules.
    pub rules: Rules,
    /// Players (4, or 2).
    pub players: u8,
    /// Games of self-play.
    pub games: usize,
    /// Seed.
    pub seed: u64,
    /// Step size.
    pub alpha: f64,
    /// Trace decay.
    pub lambda: f64,
    /// Chance of a random play (exploration), per turn.
    pub epsilon: f64,
    /// Games played in parallel with the same weights.
    pub batch: usize,
    /// Turns after which a game is dropped.
    pub max_turns: usize,
}

/// One game's feature vectors (first side's view) and result.
fn self_play(cfg: &TrainConfig, weights: &Weights, seed: u64) -> Option<(Vec<[f64; NF]>, f64)> {
    let game = Game::new(cfg.rules, cfg.players, seed).ok()?;
    let first = sides(game.start())[0];
    let mut rng = Rng::new(seed ^ 0xE9);
    let mut gen = Generator::new();
    let mut states = vec![features(game.start(), first)];
    // The listed plays are played as they are, not recorded in the game (which
    // would list them all again to check each).
    let mut dice = dice_after_throw_off(&game);
    let mut pos: Position = *game.position();
    for _ in 0..cfg.max_turns {
        let Some(m) = pos.to_move() else { break };
        let side = Side::of(&pos, m);
        let throw = dice.throw(cfg.rules.faces);
        let n = gen.generate(&pos, throw).ok()?;
        let pick = if rng.unit() < cfg.epsilon {
            rng.below(n)
        } else {
            weights.greedy_choice(&gen, side)
        };
        pos = *gen.position(pick);
        let after = &pos;
        if after.to_move().is_none() {
            let result = match after.winner() {
                Some(w) if first.won(w) => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            return Some((states, result));
        }
        states.push(features(after, first));
    }
    None
}

/// Self-play in batches of `cfg.batch` games played in parallel by a frozen copy
/// of `model` (game `i` seeded by `derive_seed(cfg.seed, i)`), then learned from
/// in game order by `learn` (given the games done before the batch), so that the
/// result depends only on the seed; `progress` is called after every batch.
pub(crate) fn in_batches<M: Clone + Sync, G: Send>(
    cfg: &TrainConfig,
    model: &mut M,
    play: impl Fn(&M, u64) -> Option<G> + Sync,
    mut learn: impl FnMut(&mut M, G, usize),
    mut progress: impl FnMut(usize),
) {
    let batch = cfg.batch.max(1);
    let mut done = 0;
    while done < cfg.games {
        let n = batch.min(cfg.games - done);
        let frozen = model.clone();
        let games: Vec<Option<G>> = (0..n)
            .into_par_iter()
            .map(|i| play(&frozen, derive_seed(cfg.seed, (done + i) as u64)))
            .collect();
        for game in games.into_iter().flatten() {
            learn(model, game, done);
        }
        done += n;
        progress(done);
    }
}

/// Trains and returns the weights; `progress` is called after every batch with
/// the number of games done.
pub fn train(cfg: &TrainConfig, progress: impl FnMut(usize)) -> Weights {
    let mut w = Weights::initial(cfg.rules.preset);
    in_batches(
        cfg,
        &mut w,
        |frozen, seed| self_play(cfg, frozen, seed),
        |w, (states, result): (Vec<[f64; NF]>, f64), done| {
            // Decaying step size.
            let alpha = cfg.alpha / (1.0 + done as f64 / 2000.0);
            let mut trace = [0.0; NF];
            for t in 0..states.len() {
                let v = chance_from(&states[t], w);
                let next = if t + 1 < states.len() {
                    chance_from(&states[t + 1], w)
                } else {
                    result
                };
                let g = v * (1.0 - v);
                for (e, x) in trace.iter_mut().zip(&states[t]) {
                    *e = cfg.lambda * *e + g * x;
                }
                let delta = next - v;
                for (wi, e) in w.weights.iter_mut().zip(&trace) {
                    *wi += alpha * delta * e;
                }
            }
        },
        progress,
    );
    w.games = cfg.games as u64;
    w
}
