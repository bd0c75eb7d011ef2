//! Hints: every play ranked by the search's estimate of the mover's win
//! chance, with its loss against the best (also in the middle of a turn), and
//! the static estimate of a side's chance for interfaces.

use chaupar_core::{Play, Position, Throw, Turn};

use crate::eval::{win_chance, Side};
use crate::model::Model;
use crate::race::{race_win_chance, ExactRaces};
use crate::search::{SearchConfig, Searcher};

/// One play with its estimated value, as [`hint`] ranks them.
#[derive(Clone, Debug, PartialEq)]
pub struct RankedPlay {
    /// Index into `legal_plays(pos, throw)`.
    pub index: usize,
    /// The play.
    pub play: Play,
    /// Estimated chance (0..1) that the mover's team (or colour) wins after it.
    pub win: f64,
    /// The best play's win chance minus this one's (0 for the best).
    pub loss: f64,
    /// Whether `win` is exact: the play leads to a column race
    /// ([`crate::race`]), valued from its finishing distributions.
    pub exact: bool,
}

/// Every distinct play ranked best first by estimated win chance of the mover's team (0..1), with loss against the best.
pub fn hint(pos: &Position, throw: Throw) -> Vec<RankedPlay> {
    hint_with(pos, throw, &SearchConfig::default())
}

/// The plays that complete a turn already begun (see [`Turn::completions`]),
/// ranked as [`hint`] ranks them: a hint in the middle of a turn. Each play
/// lists every step of the turn, the ones taken first.
pub fn hint_turn(turn: &Turn) -> Vec<RankedPlay> {
    rank_plays(turn.start(), turn.completions(), &SearchConfig::default())
}

/// [`hint`] with explicit search settings.
///
/// The best plays by static evaluation are searched one throw deep and the best
/// four of those valued by rollouts (see [`crate::search`]); the others keep their
/// static value, shifted by the mean difference the search found, and never
/// above the lowest searched value (they were ranked below those statically). An illegal throw or a finished game gives an empty list.
pub fn hint_with(pos: &Position, throw: Throw, config: &SearchConfig) -> Vec<RankedPlay> {
    let Ok(plays) = chaupar_core::legal_plays(pos, throw) else {
        return Vec::new();
    };
    rank_plays(pos, plays, config)
}

/// Ranks already generated plays (see [`hint_with`]).
pub fn rank_plays(pos: &Position, plays: Vec<Play>, config: &SearchConfig) -> Vec<RankedPlay> {
    if plays.is_empty() {
        return Vec::new();
    }
    // The expert's evaluation: the preset's network (the linear model in
    // games no network was trained on), so that a hint agrees with `expert`.
    let weights = ExactRaces(Model::Net(None).resolve(pos));
    let mut s = Searcher::new(SearchConfig {
        prune: false,
        ..config.clone()
    });
    let (stat, searched) = s.analyse(pos, &plays, &weights, None);
    // A play into a column race has its exact value.
    let exact: Vec<Option<f64>> = plays
        .iter()
        .map(|p| {
            let side = Side::of(pos, pos.to_move()?);
            race_win_chance(&p.position, side)
        })
        .collect();
    let pairs: Vec<(f64, f64)> = stat
        .iter()
        .zip(&searched)
        .filter_map(|(a, b)| b.map(|b| (*a, b)))
        .collect();
    let shift = if pairs.is_empty() {
        0.0
    } else {
        pairs.iter().map(|(a, b)| b - a).sum::<f64>() / pairs.len() as f64
    };
    let floor = pairs.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let wins: Vec<f64> = (0..plays.len())
        .map(|i| match (exact[i], searched[i]) {
            (Some(v), _) => v.clamp(0.0, 1.0),
            (None, Some(v)) => v.clamp(0.0, 1.0),
            (None, None) => (stat[i] + shift).min(floor).clamp(0.0, 1.0),
        })
        .collect();
    let mut out: Vec<RankedPlay> = plays
        .into_iter()
        .enumerate()
        .map(|(i, play)| RankedPlay {
            index: i,
            play,
            win: wins[i],
            loss: 0.0,
            exact: exact[i].is_some(),
        })
        .collect();
    out.sort_by(|a, b| b.win.total_cmp(&a.win).then(a.index.cmp(&b.index)));
    let best = out[0].win;
    for r in out.iter_mut() {
        r.loss = (best - r.win).max(0.0);
    }
    out
}

/// The static estimate of the chance that the side of `colour` wins from `pos`
/// (a convenience for interfaces).
pub fn estimate(pos: &Position, colour: chaupar_core::Colour) -> f64 {
    win_chance(pos, Side::of(pos, colour))
}
