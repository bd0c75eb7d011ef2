//! Computer players and hints, from chaupar-ai.

use chaupar_core::{Play, Position, Throw};

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

/// Ranked plays for a position and throw, best first.
pub fn hint(pos: &Position, throw: Throw) -> Vec<Ranked> {
    chaupar_ai::hint(pos, throw)
        .into_iter()
        .map(|r| Ranked {
            play: r.play,
            win: r.win,
        })
        .collect()
}
