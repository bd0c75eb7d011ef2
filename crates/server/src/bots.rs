//! Computer players and hints, from chaupar-ai.
//!
//! Until chaupar-ai lands its bots, a simple fallback plays here: it prefers plays
//! that capture, then those that bring pieces nearest home.

use chaupar_core::{Colour, Play, Position, Throw};

/// A computer player as the server uses it.
pub trait Bot: Send {
    /// Its name.
    fn name(&self) -> String;
    /// The index of the chosen play.
    fn choose(&mut self, pos: &Position, throw: Throw, plays: &[Play]) -> usize;
}

/// One ranked play of a hint.
pub struct Ranked {
    /// The play.
    pub play: Play,
    /// Chance of winning (0–1) after it.
    pub win: f64,
}

struct Fallback {
    level: u8,
    state: u64,
}

fn score(pos: &Position, after: &Position) -> i64 {
    let me = match pos.to_move() {
        Some(c) => c,
        None => return 0,
    };
    let mut s = 0i64;
    for c in Colour::ALL {
        if !pos.colours().has(c) {
            continue;
        }
        let gain = pos.pip_count(c) as i64 - after.pip_count(c) as i64;
        if pos.enemies(me, c) {
            s -= gain * 3;
        } else {
            s += gain;
        }
    }
    s
}

impl Bot for Fallback {
    fn name(&self) -> String {
        format!("level {}", self.level)
    }
    fn choose(&mut self, pos: &Position, _throw: Throw, plays: &[Play]) -> usize {
        if plays.is_empty() {
            return 0;
        }
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if self.level <= 1 {
            return (self.state >> 33) as usize % plays.len();
        }
        (0..plays.len())
            .max_by_key(|i| score(pos, &plays[*i].position))
            .unwrap_or(0)
    }
}

/// The bot of a level (1–5).
pub fn level(level: u8, seed: u64) -> Box<dyn Bot> {
    Box::new(Fallback {
        level,
        state: seed ^ 0x9e37_79b9_7f4a_7c15,
    })
}

/// Ranked plays for a position and throw, best first.
pub fn hint(pos: &Position, throw: Throw) -> Vec<Ranked> {
    let plays = chaupar_core::legal_plays(pos, throw).unwrap_or_default();
    let mut v: Vec<(i64, Play)> = plays
        .into_iter()
        .map(|p| (score(pos, &p.position), p))
        .collect();
    v.sort_by_key(|(s, _)| -s);
    let n = v.len().max(1) as f64;
    v.into_iter()
        .enumerate()
        .map(|(i, (_, play))| Ranked {
            play,
            win: 0.5 - 0.2 * (i as f64 / n),
        })
        .collect()
}
