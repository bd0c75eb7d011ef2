//! Plain Monte-Carlo tree search (UCT) as general game playing systems play it:
//! UCB1 selection with exploration constant sqrt(2), the dice as a chance player
//! sampled at random, one node added per iteration, uniformly random playouts to
//! the end of the game, and the most visited play chosen. It knows nothing about
//! Chaupar beyond the rules: the baseline the expert is measured against.

use std::time::{Duration, Instant};

use chaupar_core::{Dice, Generator, Play, Position, Throw};
use rustc_hash::FxHashMap;

use crate::eval::Side;
use crate::{Bot, Limits, Rng};

/// UCB1's exploration constant.
pub const EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// Turns after which a playout is scored as a draw (half a point).
pub const PLAYOUT_LIMIT: usize = 2000;

struct Decision {
    side: Option<Side>,
    children: Vec<Child>,
    visits: u32,
}

struct Child {
    position: Position,
    visits: u32,
    /// Total reward for the side that chose this child.
    reward: f64,
    /// Positions after each throw (chance node), keyed by the sorted throw.
    next: FxHashMap<[u8; 3], Decision>,
}

/// The UCT player.
pub struct UctBot {
    rng: Rng,
    dice: Dice,
    gen: Generator,
    budget: Duration,
    max_iterations: usize,
    max_nodes: usize,
    nodes: usize,
}

impl UctBot {
    /// UCT with the default budget of 250 ms per decision.
    pub fn new(seed: u64) -> UctBot {
        UctBot::with_budget(seed, Duration::from_millis(250))
    }

    /// UCT with this time budget per decision (and the matching node budget).
    pub fn with_budget(seed: u64, budget: Duration) -> UctBot {
        UctBot::with_limits(seed, Limits::time(budget))
    }

    /// UCT with these limits per decision (play generations count every
    /// expansion and every turn of every playout).
    pub fn with_limits(seed: u64, limits: Limits) -> UctBot {
        UctBot {
            rng: Rng::new(seed),
            dice: Dice::from_seed(seed ^ 0x5EED),
            gen: Generator::new(),
            budget: limits.time,
            max_iterations: usize::MAX,
            max_nodes: limits.nodes,
            nodes: 0,
        }
    }

    /// UCT limited to a number of iterations instead of time (reproducible).
    pub fn with_iterations(seed: u64, iterations: usize) -> UctBot {
        let mut b = UctBot::with_limits(
            seed,
            Limits {
                time: Duration::from_secs(3600),
                nodes: usize::MAX,
            },
        );
        b.max_iterations = iterations.max(1);
        b
    }

    fn decision(&mut self, pos: &Position, throw: Throw) -> Decision {
        let side = pos.to_move().map(|m| Side::of(pos, m));
        let mut children = Vec::new();
        if self.gen.generate(pos, throw).is_ok() {
            self.nodes += 2 + self.gen.len() / 5;
            for i in 0..self.gen.len() {
                children.push(Child {
                    position: *self.gen.position(i),
                    visits: 0,
                    reward: 0.0,
                    next: FxHashMap::default(),
                });
            }
        }
        Decision {
            side,
            children,
            visits: 0,
        }
    }

    /// Random playout: returns the winner's sides as a reward function.
    fn playout(&mut self, start: &Position) -> Option<chaupar_core::Winner> {
        let mut pos = *start;
        for _ in 0..PLAYOUT_LIMIT {
            if pos.to_move().is_none() {
                return pos.winner();
            }
            let t = self.dice.throw(pos.rules().faces);
            match self.gen.generate(&pos, t) {
                Ok(n) if n > 0 => {
                    self.nodes += 2 + n / 5;
                    let i = self.rng.below(n);
                    pos = *self.gen.position(i);
                }
                _ => return None,
            }
        }
        None
    }

    /// One iteration from a decision node; returns the winner of the simulated game.
    fn iterate(&mut self, node: &mut Decision) -> Option<chaupar_core::Winner> {
        if node.children.is_empty() {
            return None;
        }
        node.visits += 1;
        let ln = (node.visits as f64).ln();
        let mut pick = 0;
        let mut best = f64::NEG_INFINITY;
        for (i, c) in node.children.iter().enumerate() {
            let u = if c.visits == 0 {
                f64::INFINITY
            } else {
                c.reward / c.visits as f64 + EXPLORATION * (ln / c.visits as f64).sqrt()
            };
            if u > best {
                best = u;
                pick = i;
            }
        }
        let pos = node.children[pick].position;
        let first_visit = node.children[pick].visits == 0;
        let winner = if pos.to_move().is_none() {
            pos.winner()
        } else if first_visit {
            self.playout(&pos)
        } else {
            let t = self.dice.throw(pos.rules().faces);
            let mut key = t.dice();
            key.sort_unstable();
            let mut sub = match node.children[pick].next.remove(&key) {
                Some(d) => d,
                None => self.decision(&pos, t),
            };
            let w = self.iterate(&mut sub);
            node.children[pick].next.insert(key, sub);
            w
        };
        let c = &mut node.children[pick];
        c.visits += 1;
        c.reward += match (winner, node.side) {
            (Some(w), Some(s)) => {
                if s.won(w) {
                    1.0
                } else {
                    0.0
                }
            }
            _ => 0.5,
        };
        winner
    }
}

impl Bot for UctBot {
    fn name(&self) -> String {
        "uct".into()
    }
    fn choose(&mut self, pos: &Position, _throw: Throw, plays: &[Play]) -> usize {
        if plays.len() <= 1 {
            return 0;
        }
        let start = Instant::now();
        let mut root = Decision {
            side: pos.to_move().map(|m| Side::of(pos, m)),
            children: plays
                .iter()
                .map(|p| Child {
                    position: p.position,
                    visits: 0,
                    reward: 0.0,
                    next: FxHashMap::default(),
                })
                .collect(),
            visits: 0,
        };
        let mut it = 0;
        self.nodes = 0;
        while it < self.max_iterations
            && (it == 0 || (start.elapsed() < self.budget && self.nodes < self.max_nodes))
        {
            self.iterate(&mut root);
            // Every iteration costs at least one unit, so that iterations which meet
            // only finished games (no playout, no play generation) still end.
            self.nodes += 1;
            it += 1;
        }
        let mut best = 0;
        let mut key = (0u32, f64::NEG_INFINITY);
        for (i, c) in root.children.iter().enumerate() {
            let mean = if c.visits > 0 {
                c.reward / c.visits as f64
            } else {
                f64::NEG_INFINITY
            };
            if (c.visits, mean) > key {
                key = (c.visits, mean);
                best = i;
            }
        }
        best
    }
}
