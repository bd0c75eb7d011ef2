//! Expectiminimax search over the two sides with chance nodes over the 20
//! distinct throws, move filtering between plies and Star1-style pruning.
//!
//! The expert looks one throw ahead of every candidate play (a "1-ply" search in
//! GNU Backgammon's terms, two plies counting the reply): for each candidate it
//! averages, over the 20 distinct throws weighted by their chances, the value of
//! the best reply of whoever throws next (the static evaluation chooses the
//! reply). Candidates are the best few plays by static evaluation (move
//! filtering). Because every value lies in 0..1, a candidate whose partial
//! average plus the most the remaining throws could add cannot beat the best so
//! far is abandoned (Star1 pruning). A time budget and a node budget bound the work;
//! the static order guarantees that whatever was searched is the most promising.
//! Extra throws and passed points need nothing special: the position after a
//! play says who throws next, and that colour's side picks the reply.

use std::time::{Duration, Instant};

use chaupar_core::dice::distinct_throws;
use chaupar_core::{Generator, Play, Position, Throw};

use crate::eval::{win_chance_with, Side, Weights};

/// How hard the expert searches.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Candidates examined one throw deep (move filtering at the root).
    pub candidates: usize,
    /// Extra candidates admitted when their static value is within this of the best.
    pub margin: f64,
    /// Wall-clock budget per decision.
    pub budget: Duration,
    /// Positions generated at most per decision (a deterministic budget).
    pub max_nodes: usize,
    /// Look a second throw deep (3 plies) for the best few candidates when time allows.
    pub deep: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            candidates: 8,
            margin: 0.02,
            budget: Duration::from_millis(250),
            max_nodes: 400,
            deep: 0,
        }
    }
}

/// A search context reusing its play generator.
pub struct Searcher {
    gen: Generator,
    /// The settings.
    pub config: SearchConfig,
    /// Play generations done by the last decision.
    pub nodes: usize,
}

/// Value of `pos` for `side` when `mover_side` picks greedily among `plays`.
fn best_reply_value(gen: &Generator, side: Side, weights: &Weights, mover: Side) -> f64 {
    let mut best_for_mover = f64::NEG_INFINITY;
    let mut value = 0.0;
    for i in 0..gen.len() {
        let p = gen.position(i);
        let vm = win_chance_with(p, mover, weights);
        if vm > best_for_mover {
            best_for_mover = vm;
            value = if mover == side {
                vm
            } else {
                two_sided_other(p, side, mover, vm, weights)
            };
        }
    }
    value
}

/// The value for `side` of a position whose value for `mover` is `vm`.
fn two_sided_other(p: &Position, side: Side, _mover: Side, vm: f64, weights: &Weights) -> f64 {
    if crate::eval::sides(p).len() == 2 {
        1.0 - vm
    } else {
        win_chance_with(p, side, weights)
    }
}

impl Searcher {
    /// A searcher with these settings.
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher {
            gen: Generator::new(),
            config,
            nodes: 0,
        }
    }

    /// The expected value for `side` of `pos` before the next throw, searching
    /// `depth` throws deep (1 = the next thrower replies greedily).
    /// Returns `None` when pruned: it cannot exceed `alpha`.
    pub fn chance_value(
        &mut self,
        pos: &Position,
        side: Side,
        weights: &Weights,
        alpha: f64,
    ) -> Option<f64> {
        let Some(m) = pos.to_move() else {
            return Some(win_chance_with(pos, side, weights));
        };
        let mover = Side::of(pos, m);
        let mut acc = 0.0;
        let mut left = 1.0;
        for (t, n) in throws(pos) {
            let pr = n as f64 / 64.0;
            if self.gen.generate(pos, t).is_err() {
                return Some(win_chance_with(pos, side, weights));
            }
            self.nodes += 1;
            let v = best_reply_value(&self.gen, side, weights, mover);
            acc += pr * v;
            left -= pr;
            // Star1: even if every remaining throw were a certain win, no better.
            if acc + left <= alpha {
                return None;
            }
        }
        Some(acc)
    }

    /// Values every play (indices into `plays`) for the mover's side: the static
    /// values of all, and the searched values of those examined. Returns
    /// (static, searched) where searched is `None` for unexamined plays.
    pub fn analyse(
        &mut self,
        pos: &Position,
        plays: &[Play],
        weights: &Weights,
        noise: Option<&mut dyn FnMut() -> f64>,
    ) -> (Vec<f64>, Vec<Option<f64>>) {
        let start = Instant::now();
        self.nodes = 0;
        let side = match pos.to_move() {
            Some(m) => Side::of(pos, m),
            None => return (vec![0.5; plays.len()], vec![None; plays.len()]),
        };
        let mut stat: Vec<f64> = plays
            .iter()
            .map(|p| win_chance_with(&p.position, side, weights))
            .collect();
        if let Some(noise) = noise {
            for v in stat.iter_mut() {
                *v = (*v + noise()).clamp(0.0, 1.0);
            }
        }
        let mut order: Vec<usize> = (0..plays.len()).collect();
        order.sort_by(|a, b| stat[*b].total_cmp(&stat[*a]));
        let mut searched = vec![None; plays.len()];
        if plays.len() <= 1 {
            return (stat, searched);
        }
        let best_static = stat[order[0]];
        let limit = order
            .iter()
            .take_while(|&&i| stat[i] >= best_static - self.config.margin)
            .count()
            .max(self.config.candidates)
            .min(plays.len())
            .min(self.config.candidates * 2);
        let mut best = f64::NEG_INFINITY;
        for (k, &i) in order.iter().take(limit).enumerate() {
            if k >= 2
                && (start.elapsed() >= self.config.budget || self.nodes >= self.config.max_nodes)
            {
                break;
            }
            let p = &plays[i].position;
            if p.to_move().is_none() {
                let v = win_chance_with(p, side, weights);
                searched[i] = Some(v);
                best = best.max(v);
                continue;
            }
            if let Some(v) = self.chance_value(p, side, weights, best) {
                searched[i] = Some(v);
                if v > best {
                    best = v;
                }
            } else {
                // Pruned: worth at most `best`; record the bound.
                searched[i] = Some(best.min(stat[i]));
            }
        }
        (stat, searched)
    }

    /// The index of the play the search prefers.
    pub fn choose(
        &mut self,
        pos: &Position,
        plays: &[Play],
        weights: &Weights,
        noise: Option<&mut dyn FnMut() -> f64>,
    ) -> usize {
        let (stat, searched) = self.analyse(pos, plays, weights, noise);
        let mut best = 0;
        let mut best_v = f64::NEG_INFINITY;
        let any = searched.iter().any(Option::is_some);
        for i in 0..plays.len() {
            let v = if any {
                match searched[i] {
                    Some(v) => v,
                    None => continue,
                }
            } else {
                stat[i]
            };
            if v > best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }
}

/// The 20 distinct throws of the position's dice with their counts of 64.
pub fn throws(pos: &Position) -> Vec<(Throw, u8)> {
    distinct_throws(pos.rules().faces)
}
