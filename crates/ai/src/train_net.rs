//! Training the network of [`crate::net`] by self-play TD(lambda) with the
//! settings of [`TrainConfig`] (its step size decays as 1 / (1 + games /
//! 20,000) here), as
//! TD-Gammon was trained: every seat plays greedily with the current network
//! (the dice give the exploration), and after each game the network moves each
//! position's value towards its lambda-return (the values of the positions after
//! it, decaying by lambda, ending in the game's result: 1, 0, or 0.5 for a dead
//! game). Values are from the first side's point of view. Games are played in
//! batches in parallel with frozen parameters and learned from in game order, so
//! the result depends only on the seed, not on the number of threads.

use chaupar_core::{Game, Generator, Position};

use crate::eval::{features_of_sides, sides, Side};
use crate::evaluator::Evaluator;
use crate::net::{view, Net, MAX_HIDDEN};
use crate::sim::dice_after_throw_off;
use crate::train::{in_batches, TrainConfig};
use crate::Rng;

/// One game of greedy self-play: the positions before each turn and the first
/// side's result.
fn self_play(cfg: &TrainConfig, net: &Net, seed: u64) -> Option<(Vec<Position>, f64, Side)> {
    let game = Game::new(cfg.rules, cfg.players, seed).ok()?;
    let first = sides(game.start())[0];
    let mut gen = Generator::new();
    let mut states = vec![*game.start()];
    let mut dice = dice_after_throw_off(&game);
    let mut rng = Rng::new(seed ^ 0xE9);
    let mut pos: Position = *game.position();
    for _ in 0..cfg.max_turns {
        let Some(m) = pos.to_move() else { break };
        let side = Side::of(&pos, m);
        let n = gen.generate(&pos, dice.throw(cfg.rules.faces)).ok()?;
        let pick = if n <= 1 {
            0
        } else if cfg.epsilon > 0.0 && rng.unit() < cfg.epsilon {
            rng.below(n)
        } else {
            net.greedy_choice(&gen, side)
        };
        pos = *gen.position(pick);
        if pos.to_move().is_none() {
            let result = match pos.winner() {
                Some(w) if first.won(w) => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            return Some((states, result, first));
        }
        states.push(pos);
    }
    None
}

/// Moves the network's value of `side` in `pos` by `step` times its gradient
/// (the logit's gradient times V(1 - V)): one step of TD or of squared error.
fn learn(net: &mut Net, pos: &Position, side: Side, step: f64) {
    let v = net.win_chance(pos, side);
    learn_logit(net, pos, side, step * v * (1.0 - v));
}

/// Moves the network's logit of `side` in `pos` by `step` times its gradient:
/// one step of cross-entropy when `step` is the rate times (target - V).
pub(crate) fn learn_logit(net: &mut Net, pos: &Position, side: Side, step: f64) {
    let (all, feats, n) = features_of_sides(pos);
    let Some(k) = all[..n].iter().position(|s| *s == side) else {
        return;
    };
    let scale = step as f32;
    if scale == 0.0 {
        return;
    }
    let h = net.hidden;
    // Every side's view and hidden sums, before anything changes.
    let mut sums = [[0.0f32; MAX_HIDDEN]; 4];
    let views: Vec<_> = (0..n).map(|j| view(pos, all[j], &feats[j])).collect();
    for j in 0..n {
        net.hidden_sums(views[j].inputs(), &mut sums[j][..h]);
    }
    let mut w2 = [0.0f32; MAX_HIDDEN];
    w2[..h].copy_from_slice(&net.w2);
    for (w, x) in net.linear.iter_mut().zip(&feats[k]) {
        *w += scale * *x as f32;
    }
    for j in 0..n {
        // The side's own score counts once, each opponent's minus their share.
        let c = if j == k { 1.0 } else { -1.0 / (n - 1) as f32 };
        let coef = scale * c;
        for u in 0..h {
            let a = sums[j][u];
            if a <= 0.0 {
                continue;
            }
            let d = coef * w2[u];
            net.w2[u] += coef * a;
            net.b1[u] += d;
            for &(i, x) in views[j].inputs() {
                net.w1[i as usize * h + u] += d * x;
            }
        }
    }
}

/// Trains `start` by self-play and returns it; `progress` is called after every
/// batch with the number of games done.
pub fn train_net(cfg: &TrainConfig, start: Net, progress: impl FnMut(usize)) -> Net {
    let mut net = start;
    let before = net.games;
    in_batches(
        cfg,
        &mut net,
        |frozen, seed| self_play(cfg, frozen, seed),
        |net, (states, result, first), done| {
            let alpha = cfg.alpha / (1.0 + (before + done as u64) as f64 / 20_000.0);
            // Lambda-returns from the values before this game's changes.
            let values: Vec<f64> = states.iter().map(|p| net.win_chance(p, first)).collect();
            let mut target = result;
            let mut targets = vec![0.0; states.len()];
            for t in (0..states.len()).rev() {
                targets[t] = target;
                target = (1.0 - cfg.lambda) * values[t] + cfg.lambda * target;
            }
            for (t, pos) in states.iter().enumerate() {
                learn(net, pos, first, alpha * (targets[t] - values[t]));
            }
        },
        progress,
    );
    net.games = before + cfg.games as u64;
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;
    use chaupar_core::rules::Preset;
    use chaupar_core::Rules;

    #[test]
    fn learning_moves_a_value_towards_its_target() {
        let preset = Preset::Chaupar;
        let rules = Rules::preset(preset);
        let mut net = Net::new(preset, Weights::embedded(preset), 16, 4);
        let pos = Position::new(rules, 4).unwrap();
        let side = sides(&pos)[0];
        let before = net.win_chance(&pos, side);
        for _ in 0..5 {
            learn(&mut net, &pos, side, 0.5);
        }
        assert!(net.win_chance(&pos, side) > before);
        let other = sides(&pos)[1];
        let sum = net.win_chance(&pos, side) + net.win_chance(&pos, other);
        assert!((sum - 1.0).abs() < 1e-6);
    }

    #[test]
    fn training_depends_only_on_the_seed() {
        let preset = Preset::Chaupar;
        let cfg = TrainConfig {
            rules: Rules::preset(preset),
            players: 4,
            games: 6,
            seed: 7,
            alpha: 0.05,
            lambda: 0.7,
            epsilon: 0.0,
            batch: 3,
            max_turns: 400,
        };
        let start = Net::new(preset, Weights::embedded(preset), 8, 1);
        let a = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| train_net(&cfg, start.clone(), |_| {}));
        let b = train_net(&cfg, start.clone(), |_| {});
        assert_eq!(a, b);
        assert_ne!(a.w2, start.w2);
        assert_eq!(a.games, 6);
    }
}
