//! Computer players and hints, from chaupar-ai.

use chaupar_core::{Play, Turn};

pub use chaupar_ai::Bot;

/// One ranked play of a hint.
pub struct Ranked {
    /// The play.
    pub play: Play,
    /// Chance of winning (0–1) after it.
    pub win: f64,
    /// Whether `win` is exact (the play leads to a column race).
    pub exact: bool,
}

impl From<chaupar_ai::RankedPlay> for Ranked {
    fn from(r: chaupar_ai::RankedPlay) -> Ranked {
        Ranked {
            play: r.play,
            win: r.win,
            exact: r.exact,
        }
    }
}

/// The bot of a level (1–5, others clamped) with the default budgets
/// ([`chaupar_ai::Limits::default`]), built as the simulator builds it.
pub fn level(level: u8, seed: u64) -> Box<dyn Bot> {
    chaupar_ai::BotSpec::level(level).build(seed, chaupar_ai::Limits::default())
}

/// Ranked plays that complete the turn as begun (the steps taken so far
/// first), best first.
pub fn hint(turn: &Turn) -> Vec<Ranked> {
    chaupar_ai::hint_turn(turn)
        .into_iter()
        .map(Ranked::from)
        .collect()
}

/// Work per turn of a game review at most, in milliseconds of search.
pub const REVIEW_MAX_MS: u64 = 50;

/// Reviews a whole game (see `chaupar_ai::review`) with `ms` milliseconds of
/// search work per turn (0: static evaluation only). Deterministic: the budget
/// is counted in work, not time. Stops early (with the turns reviewed so far)
/// once `stop` says so.
pub fn review(
    game: &chaupar_core::Game,
    ms: u64,
    stop: &dyn Fn() -> bool,
) -> chaupar_ai::review::Review {
    let config = if ms == 0 {
        chaupar_ai::search::SearchConfig {
            candidates: 0,
            ..Default::default()
        }
    } else {
        chaupar_ai::search::SearchConfig::work(ms as usize * chaupar_ai::search::NODES_PER_MS)
    };
    chaupar_ai::review::review_until(game, &config, stop)
}

/// Work for the tutor's judgement of a play, in search work units: analysis
/// work, counted in work, not time, so the same play is judged alike.
pub const TUTOR_NODES: usize = chaupar_ai::search::ANALYSIS_NODES;

/// Every whole play of the turn's throw from its start, ranked best first as a
/// hint ranks them, with a deterministic work budget ([`TUTOR_NODES`]): what
/// the tutor judges a play against.
pub fn tutor(turn: &Turn) -> Vec<Ranked> {
    let (pos, throw) = (turn.start(), turn.throw());
    let plays = chaupar_core::legal_plays(pos, throw).unwrap_or_default();
    chaupar_ai::rank_plays(
        pos,
        plays,
        &chaupar_ai::search::SearchConfig::work(TUTOR_NODES),
    )
    .into_iter()
    .map(Ranked::from)
    .collect()
}
