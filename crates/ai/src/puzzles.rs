//! Puzzles: positions from expert self-play where one play is clearly better
//! than every other.
//!
//! [`find_puzzles`] plays games between expert bots (seeded, so a seed always
//! gives the same games), and at each decision with at least
//! [`MIN_CHOICES`] distinct plays ranks them as the hints do
//! ([`crate::rank_plays`]) on a fixed number of work units (no clock, so the
//! ranking reproduces on any machine). A decision is kept when the best play's
//! win chance exceeds every other's by at least [`MIN_MARGIN`]; at most
//! [`PER_GAME`] are kept from one game, at least [`GAP`] turns apart, so that the
//! set spreads over many games; a game is left once it has given them, or after
//! [`RANKS_PER_GAME`] rankings or [`MAX_TURNS`] turns, so that no game costs much. See `docs/ai.md`, "Puzzles".

use std::collections::HashSet;
use std::time::Duration;

use chaupar_core::{notation, Colour, Game, Generator, Position, Rules, Throw};
use serde::{Deserialize, Serialize};

use crate::search::{SearchConfig, NODES_PER_MS};
use crate::{derive_seed, Bot, BotSpec, Limits};

/// The least lead of the best play's win chance over the second best's.
pub const MIN_MARGIN: f64 = 0.10;
/// The least number of distinct plays a puzzle's throw allows.
pub const MIN_CHOICES: usize = 3;
/// Puzzles taken from one game at most.
pub const PER_GAME: usize = 3;
/// Turns at least between two puzzles of one game.
pub const GAP: usize = 8;
/// Plays of the ranking a puzzle keeps (best first).
pub const RANKING: usize = 5;
/// Work units per decision of the bots that play the games (20 ms of work).
pub const PLAY_NODES: usize = 20 * NODES_PER_MS;
/// Turns after which a self-play game is left.
pub const MAX_TURNS: usize = 400;
/// Decisions ranked in one game at most (bounds the work a game costs).
pub const RANKS_PER_GAME: usize = 60;

/// One play of a puzzle's ranking.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankedText {
    /// The play in notation (docs/notation.md).
    pub play: String,
    /// Estimated chance (0..1) that the mover's side wins after it.
    pub win: f64,
}

/// A position, a throw, and the play that is clearly best.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The position in text (docs/notation.md).
    pub position: String,
    /// The throw, three dice.
    pub throw: [u8; 3],
    /// The best play in notation.
    pub best: String,
    /// The best play's win chance minus the second best's (at least [`MIN_MARGIN`]).
    pub margin: f64,
    /// The best plays (at most [`RANKING`]), best first, as the hints rank them.
    pub ranking: Vec<RankedText>,
    /// The rules, compact (a preset's name when unchanged).
    pub rules: String,
    /// Who plays: the colour to move.
    pub colour: String,
}

/// What to look for.
#[derive(Clone, Debug)]
pub struct PuzzleConfig {
    /// The rules.
    pub rules: Rules,
    /// Puzzles wanted.
    pub count: usize,
    /// The seed of the games.
    pub seed: u64,
    /// Work units for ranking the plays of one decision.
    pub budget: usize,
    /// Games played at most.
    pub max_games: usize,
}

impl PuzzleConfig {
    /// Looks for `count` puzzles with the default budget (analysis work,
    /// [`crate::search::ANALYSIS_NODES`]) in at most `4 * count + 10` games.
    pub fn new(rules: Rules, count: usize, seed: u64) -> PuzzleConfig {
        PuzzleConfig {
            rules,
            count,
            seed,
            budget: crate::search::ANALYSIS_NODES,
            max_games: 4 * count + 10,
        }
    }
}

/// The expert bots of one game, one a colour: the expert with the linear
/// model, which only plays the games puzzles are found in (a puzzle's answer
/// is judged by [`crate::rank_plays`], with the network), in half the time of
/// the network's expert.
fn experts(seed: u64) -> Result<[Box<dyn Bot>; 4], String> {
    let bots: Vec<Box<dyn Bot>> = Colour::ALL
        .iter()
        .map(|c| {
            BotSpec::ExpertLinear.build(
                derive_seed(seed, 100 + c.index() as u64),
                Limits {
                    time: Duration::from_secs(3600),
                    nodes: PLAY_NODES,
                },
            )
        })
        .collect();
    bots.try_into()
        .map_err(|_| "internal: four bots".to_string())
}

/// The puzzle of a decision, if its best play is clearly the best.
pub fn puzzle_at(pos: &Position, throw: Throw, budget: usize) -> Option<Puzzle> {
    let plays = chaupar_core::legal_plays(pos, throw).ok()?;
    if plays.len() < MIN_CHOICES {
        return None;
    }
    let config = SearchConfig {
        budget: Duration::from_secs(3600),
        max_nodes: budget.max(1),
        ..SearchConfig::default()
    };
    let ranked = crate::rank_plays(pos, plays, &config);
    let margin = ranked[0].win - ranked[1].win;
    if margin < MIN_MARGIN {
        return None;
    }
    let text = |steps: &[chaupar_core::Step]| notation::play_text(pos, throw, steps);
    Some(Puzzle {
        position: notation::position_text(pos),
        throw: throw.dice(),
        best: text(&ranked[0].play.steps),
        margin,
        ranking: ranked
            .iter()
            .take(RANKING)
            .map(|r| RankedText {
                play: text(&r.play.steps),
                win: r.win,
            })
            .collect(),
        rules: pos.rules().compact(),
        colour: pos.to_move()?.name().to_string(),
    })
}

/// Finds puzzles (see the module documentation); `progress` hears the games
/// played and the puzzles found after each game. The same configuration
/// always gives the same puzzles.
pub fn find_puzzles(
    cfg: &PuzzleConfig,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Puzzle>, String> {
    let mut found: Vec<Puzzle> = Vec::new();
    let mut seen = HashSet::new();
    for g in 0..cfg.max_games {
        if found.len() >= cfg.count {
            break;
        }
        let seed = derive_seed(cfg.seed, g as u64);
        let want = PER_GAME.min(cfg.count - found.len());
        for p in game_puzzles(cfg, seed, want)? {
            if seen.insert((p.position.clone(), p.throw)) {
                found.push(p);
            }
        }
        progress(g + 1, found.len());
    }
    found.truncate(cfg.count);
    Ok(found)
}

/// Plays one game between experts and takes up to `want` puzzles from it,
/// [`GAP`] turns apart; the game stops once they are found, after
/// [`MAX_TURNS`] turns, or after [`RANKS_PER_GAME`] rankings.
fn game_puzzles(cfg: &PuzzleConfig, seed: u64, want: usize) -> Result<Vec<Puzzle>, String> {
    let mut bots = experts(seed)?;
    let mut game = Game::new(cfg.rules, 4, seed).map_err(|e| e.to_string())?;
    let mut gen = Generator::new();
    let mut out = Vec::new();
    let (mut next, mut ranked) = (0, 0);
    for k in 0..MAX_TURNS {
        let Some(mover) = game.position().to_move() else {
            break;
        };
        if out.len() >= want || ranked >= RANKS_PER_GAME {
            break;
        }
        let before = *game.position();
        let throw = game.throw().map_err(|e| e.to_string())?;
        gen.generate(&before, throw).map_err(|e| e.to_string())?;
        if k >= next && gen.len() >= MIN_CHOICES {
            ranked += 1;
            if let Some(p) = puzzle_at(&before, throw, cfg.budget) {
                out.push(p);
                next = k + GAP;
            }
        }
        let plays = gen.plays();
        let i = bots[mover.index()]
            .choose(&before, throw, &plays)
            .min(plays.len() - 1);
        game.play(&plays[i].steps).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaupar_core::Preset;

    #[test]
    fn the_same_seed_finds_the_same_puzzles_and_each_is_clearly_best() {
        let cfg = PuzzleConfig {
            budget: 5 * NODES_PER_MS,
            max_games: 2,
            ..PuzzleConfig::new(Rules::preset(Preset::Chaupar), 2, 7)
        };
        let a = find_puzzles(&cfg, &mut |_, _| {}).unwrap();
        let b = find_puzzles(&cfg, &mut |_, _| {}).unwrap();
        assert!(!a.is_empty(), "two games give at least one puzzle");
        assert_eq!(a, b);
        for p in &a {
            assert!(p.margin >= MIN_MARGIN);
            assert_eq!(p.ranking[0].play, p.best);
            assert_eq!(p.margin, p.ranking[0].win - p.ranking[1].win);
        }
    }
}
