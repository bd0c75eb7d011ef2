//! Computer players and hints, from chaupar-ai.

use chaupar_core::{Play, Turn};

pub use chaupar_ai::Bot;

/// One ranked play of a hint.
pub struct Ranked {
    /// The play.
    pub play: Play,
    /// Chance of winning (0–1) after it.
    pub win: f64,
}

/// The bot of a level (1–5).
pub fn level(level: u8, seed: u64) -> Box<dyn Bot> {
    chaupar_ai::level(level, seed)
}

/// Ranked plays that complete the turn as begun (the steps taken so far
/// first), best first.
pub fn hint(turn: &Turn) -> Vec<Ranked> {
    chaupar_ai::hint_turn(turn)
        .into_iter()
        .map(|r| Ranked {
            play: r.play,
            win: r.win,
        })
        .collect()
}
