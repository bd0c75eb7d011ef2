//! The self-play simulator: whole games between two bots, on all cores, with
//! seats swapped between the two games of each pair and each game's seed derived
//! from the run's seed and the game's index (so the result does not depend on
//! the number of threads).

use std::time::Duration;

use chaupar_core::{Colour, Dice, Game, Generator, Position, Rules};
use rayon::prelude::*;
use serde::Serialize;

use crate::eval::sides;
use crate::{derive_seed, Bot, BotSpec, Limits};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// The rules.
    pub rules: Rules,
    /// 2 or 4 players (3 with solo seating).
    pub players: u8,
    /// Number of games.
    pub games: usize,
    /// Bot of team a.
    pub team_a: String,
    /// Bot of team b.
    pub team_b: String,
    /// Seed of the run.
    pub seed: u64,
    /// Threads (0 = all cores).
    pub jobs: usize,
    /// Time budget per decision of the searching bots.
    pub budget: Duration,
    /// Turns after which a game is stopped undecided.
    pub max_turns: usize,
    /// Show a progress bar on standard error.
    pub progress: bool,
}

/// One simulated game.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct GameResult {
    /// The game's index.
    pub index: usize,
    /// The game's seed.
    pub seed: u64,
    /// Whether team a sat on the first side (Yellow's) in this game.
    pub a_first: bool,
    /// 'a', 'b', or None (stopped by the turn limit or dead).
    pub winner: Option<char>,
    /// Turns played.
    pub turns: usize,
    /// Plays that captured.
    pub captures: usize,
    /// Super-pieces (stacks of two or more) formed.
    pub stacks: usize,
    /// Blocks formed.
    pub blocks: usize,
    /// Points passed to a partner.
    pub passed: usize,
    /// Stopped by the turn limit.
    pub stopped: bool,
}

/// Totals of a run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimSummary {
    /// The rules, compact.
    pub rules: String,
    /// Players.
    pub players: u8,
    /// Games played.
    pub games: usize,
    /// Bot of team a.
    pub team_a: String,
    /// Bot of team b.
    pub team_b: String,
    /// Seed.
    pub seed: u64,
    /// Wins of team a.
    pub team_a_wins: usize,
    /// Wins of team b.
    pub team_b_wins: usize,
    /// Team a's share of all games (undecided count as half).
    pub team_a_score: f64,
    /// 95% confidence interval of team a's score.
    pub team_a_ci: (f64, f64),
    /// Mean turns per game.
    pub mean_turns: f64,
    /// Median turns per game.
    pub median_turns: f64,
    /// Mean captures per game.
    pub mean_captures: f64,
    /// Mean super-pieces formed per game.
    pub mean_stacks: f64,
    /// Mean blocks formed per game.
    pub mean_blocks: f64,
    /// Mean points passed per game.
    pub mean_passed: f64,
    /// Games stopped by the turn limit (or dead).
    pub stopped: usize,
    /// Median wall-clock milliseconds per decision of team a (decisions with a choice).
    pub team_a_decision_ms: f64,
    /// The same for team b.
    pub team_b_decision_ms: f64,
    /// Per game results.
    #[serde(skip)]
    pub results: Vec<GameResult>,
}

fn stack_count(pos: &Position) -> usize {
    pos.colours()
        .iter()
        .map(|c| {
            pos.stacks(c)
                .filter(|(p, n)| *p != 0 && *p != 84 && *n >= 2)
                .count()
        })
        .sum()
}

/// Seconds each colour (by seat) took per decision with more than one choice.
pub type DecisionTimes = [Vec<f64>; 4];

/// Plays one game with a bot per colour (indexed by seat) and returns it, its
/// statistics and the decision times.
pub fn play_game(
    rules: Rules,
    players: u8,
    seed: u64,
    bots: &mut [Box<dyn Bot>; 4],
    max_turns: usize,
) -> Result<(Game, GameResult, DecisionTimes), String> {
    let mut game = Game::new(rules, players, seed).map_err(|e| e.to_string())?;
    let mut gen = Generator::new();
    let (_, r, times) = play_out(&mut game, &mut gen, bots, max_turns, true)?;
    Ok((game, r, times))
}

/// The dice of a new seeded game as they stand after its throw-off: they throw
/// what [`Game::throw`] would throw next, turn after turn, for loops that
/// play the listed plays without recording them in the game.
pub(crate) fn dice_after_throw_off(game: &Game) -> Dice {
    let mut dice = Dice::from_seed(game.seed().unwrap_or(0));
    for _ in game.throw_off() {
        dice.throw(game.rules().faces);
    }
    dice
}

/// Plays a new game `game` out with a bot per colour, listing the plays with
/// `gen`, and returns the final position, the statistics and the decision
/// times. When `record` is false the turns are not kept in `game` (and not
/// checked again by it: every play is one the generator listed), the
/// simulator's way; the dice are the game's own either way, so the game
/// played is the same.
fn play_out(
    game: &mut Game,
    gen: &mut Generator,
    bots: &mut [Box<dyn Bot>; 4],
    max_turns: usize,
    record: bool,
) -> Result<(Position, GameResult, DecisionTimes), String> {
    let mut times: DecisionTimes = Default::default();
    let mut r = GameResult {
        seed: game.seed().unwrap_or(0),
        ..GameResult::default()
    };
    let faces = game.rules().faces;
    // The game's dice, for the turns it does not record.
    let mut dice = dice_after_throw_off(game);
    let mut pos = *game.position();
    let mut stacks_before = stack_count(&pos);
    let mut blocks_before = pos.blocks().count();
    while let Some(mover) = pos.to_move() {
        if r.turns >= max_turns {
            r.stopped = true;
            break;
        }
        let throw = if record {
            game.throw().map_err(|e| e.to_string())?
        } else {
            dice.throw(faces)
        };
        let n = gen.generate(&pos, throw).map_err(|e| e.to_string())?;
        // Only a decision with a choice is timed.
        let clock = (n > 1).then(std::time::Instant::now);
        let i = bots[mover.index()]
            .choose_listed(&pos, throw, gen)
            .min(n - 1);
        if let Some(clock) = clock {
            times[mover.index()].push(clock.elapsed().as_secs_f64());
        }
        if record {
            game.play(gen.steps(i)).map_err(|e| e.to_string())?;
        }
        let after = *gen.position(i);
        r.turns += 1;
        // A play's steps are the mover's and, with passed points, his
        // partner's, whose enemies are the mover's: the pieces lost are
        // the mover's enemies'.
        let lost: usize = pos
            .colours()
            .iter()
            .filter(|c| pos.enemies(mover, *c))
            .map(|c| {
                let b = pos.pieces(c).iter().filter(|p| **p == 0).count();
                let a = after.pieces(c).iter().filter(|p| **p == 0).count();
                a.saturating_sub(b)
            })
            .sum();
        if lost > 0 {
            r.captures += 1;
        }
        let stacks_after = stack_count(&after);
        r.stacks += stacks_after.saturating_sub(stacks_before);
        stacks_before = stacks_after;
        let blocks_after = after.blocks().count();
        r.blocks += blocks_after.saturating_sub(blocks_before);
        blocks_before = blocks_after;
        // Points passed move the partner's pieces: the steps (made when
        // first read, for a listing by plans) are read only then.
        let partner = mover.partner();
        if after.pieces(partner) != pos.pieces(partner) {
            r.passed += gen
                .steps(i)
                .iter()
                .filter(|s| s.colour != mover)
                .map(|s| s.by as usize)
                .sum::<usize>();
        }
        pos = after;
    }
    Ok((pos, r, times))
}

/// The side team a plays in game `index`: the first side (Yellow's) in even games,
/// the other in odd games.
pub fn a_is_first(index: usize) -> bool {
    index & 1 == 0
}

/// A simulated game with the decision times (seconds) of team a and team b.
pub type Simulated = (GameResult, Vec<f64>, Vec<f64>);

/// Simulates one game of the run; also returns the decision times of team a
/// and team b.
pub fn sim_game(cfg: &SimConfig, index: usize) -> Result<Simulated, String> {
    sim_game_of(cfg, &teams(cfg)?, index, &mut Generator::new())
}

/// The bots of team a and team b.
fn teams(cfg: &SimConfig) -> Result<[BotSpec; 2], String> {
    Ok([cfg.team_a.parse()?, cfg.team_b.parse()?])
}

/// [`sim_game`] with the teams' bots already read, listing plays with `gen`.
fn sim_game_of(
    cfg: &SimConfig,
    teams: &[BotSpec; 2],
    index: usize,
    gen: &mut Generator,
) -> Result<Simulated, String> {
    let pair = (index / 2) as u64;
    let seed = derive_seed(cfg.seed, pair);
    let start = Position::new(cfg.rules, cfg.players).map_err(|e| e.to_string())?;
    let all = sides(&start);
    let first = all[0];
    let a_first = a_is_first(index);
    let mut bots: Vec<Box<dyn Bot>> = Vec::with_capacity(4);
    for c in Colour::ALL {
        let on_first = first.has(c);
        let spec = &teams[usize::from(on_first != a_first)];
        bots.push(spec.build(
            derive_seed(seed, 100 + c.index() as u64),
            Limits::nodes_for_ms(cfg.budget.as_millis() as u64),
        ));
    }
    let mut bots: [Box<dyn Bot>; 4] = bots
        .try_into()
        .map_err(|_| "internal: four bots".to_string())?;
    let mut game = Game::new(cfg.rules, cfg.players, seed).map_err(|e| e.to_string())?;
    let (end, mut r, times) = play_out(&mut game, gen, &mut bots, cfg.max_turns, false)?;
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for c in Colour::ALL {
        if first.has(c) == a_first {
            ta.extend_from_slice(&times[c.index()]);
        } else {
            tb.extend_from_slice(&times[c.index()]);
        }
    }
    r.index = index;
    r.a_first = a_first;
    r.winner = end.winner().map(|w| {
        let first_won = first.won(w);
        if first_won == a_first {
            'a'
        } else {
            'b'
        }
    });
    Ok((r, ta, tb))
}

/// Runs the simulation.
pub fn simulate(cfg: &SimConfig) -> Result<SimSummary, String> {
    let teams = teams(cfg)?;
    let start = Position::new(cfg.rules, cfg.players).map_err(|e| e.to_string())?;
    if sides(&start).len() != 2 {
        return Err("the simulator needs two sides: 4 players, or 2 players".into());
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if cfg.jobs > 0 {
        builder = builder.num_threads(cfg.jobs);
    }
    let pool = builder.build().map_err(|e| e.to_string())?;
    let bar = if cfg.progress {
        let b = indicatif::ProgressBar::with_draw_target(
            Some(cfg.games as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})",
        ) {
            b.set_style(style);
        }
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let results: Vec<Result<Simulated, String>> = pool.install(|| {
        (0..cfg.games)
            .into_par_iter()
            .map_init(Generator::new, |gen, i| {
                let r = sim_game_of(cfg, &teams, i, gen);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let results: Vec<Simulated> = results.into_iter().collect::<Result<_, _>>()?;
    let mut ta = Vec::new();
    let mut tb = Vec::new();
    let mut games = Vec::with_capacity(results.len());
    for (g, a, b) in results {
        games.push(g);
        ta.extend(a);
        tb.extend(b);
    }
    let mut s = summarise(cfg, games);
    s.team_a_decision_ms = median(&mut ta) * 1000.0;
    s.team_b_decision_ms = median(&mut tb) * 1000.0;
    Ok(s)
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The 95% Wilson score interval of a proportion `p` over `n` trials (sound
/// near 0 and 1, unlike the normal approximation).
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Totals and a 95% confidence interval (Wilson) of the results.
pub fn summarise(cfg: &SimConfig, results: Vec<GameResult>) -> SimSummary {
    let n = results.len();
    let nf = n.max(1) as f64;
    let a = results.iter().filter(|r| r.winner == Some('a')).count();
    let b = results.iter().filter(|r| r.winner == Some('b')).count();
    let undecided = n - a - b;
    let score = (a as f64 + 0.5 * undecided as f64) / nf;
    let ci = wilson(score, nf);
    let mut turns: Vec<f64> = results.iter().map(|r| r.turns as f64).collect();
    let mean = |f: &dyn Fn(&GameResult) -> usize| results.iter().map(f).sum::<usize>() as f64 / nf;
    SimSummary {
        rules: cfg.rules.compact(),
        players: cfg.players,
        games: n,
        team_a: cfg.team_a.clone(),
        team_b: cfg.team_b.clone(),
        seed: cfg.seed,
        team_a_wins: a,
        team_b_wins: b,
        team_a_score: score,
        team_a_ci: ci,
        mean_turns: mean(&|r| r.turns),
        median_turns: median(&mut turns),
        mean_captures: mean(&|r| r.captures),
        mean_stacks: mean(&|r| r.stacks),
        mean_blocks: mean(&|r| r.blocks),
        mean_passed: mean(&|r| r.passed),
        stopped: results.iter().filter(|r| r.winner.is_none()).count(),
        team_a_decision_ms: 0.0,
        team_b_decision_ms: 0.0,
        results,
    }
}

impl SimSummary {
    /// The summary as a table for people.
    pub fn table(&self) -> String {
        let n = self.games.max(1) as f64;
        let mut s = String::new();
        s.push_str(&format!(
            "rules {}, {} players, {} games, seed {}\n",
            self.rules, self.players, self.games, self.seed
        ));
        s.push_str(&format!(
            "{:<10} {:<10} {:>6} {:>7}  {}\n",
            "team", "bot", "wins", "share", "95% CI of score (draws count half)"
        ));
        // Team b's interval is team a's mirrored: the scores add up to one.
        let rows = [
            (
                "a",
                &self.team_a,
                self.team_a_wins,
                self.team_a_ci,
                self.team_a_score,
            ),
            (
                "b",
                &self.team_b,
                self.team_b_wins,
                (1.0 - self.team_a_ci.1, 1.0 - self.team_a_ci.0),
                1.0 - self.team_a_score,
            ),
        ];
        for (team, bot, wins, (lo, hi), score) in rows {
            s.push_str(&format!(
                "{:<10} {:<10} {:>6} {:>6.1}%  {:.1}% .. {:.1}% (score {:.1}%)\n",
                team,
                bot,
                wins,
                100.0 * wins as f64 / n,
                100.0 * lo,
                100.0 * hi,
                100.0 * score
            ));
        }
        s.push_str(&format!(
            "turns: mean {:.1}, median {:.1}\nper game: captures {:.2}, super-pieces formed {:.2}, blocks {:.2}, points passed {:.2}\nstopped by the turn limit (or dead): {}\nmedian ms per decision with a choice: team a {:.2}, team b {:.2}\n",
            self.mean_turns,
            self.median_turns,
            self.mean_captures,
            self.mean_stacks,
            self.mean_blocks,
            self.mean_passed,
            self.stopped,
            self.team_a_decision_ms,
            self.team_b_decision_ms
        ));
        s
    }

    /// The summary as one JSON object.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "rules": self.rules,
            "players": self.players,
            "games": self.games,
            "team_a": self.team_a,
            "team_b": self.team_b,
            "seed": self.seed,
            "team_a_wins": self.team_a_wins,
            "team_b_wins": self.team_b_wins,
            "team_a_score": self.team_a_score,
            "team_a_ci95": [self.team_a_ci.0, self.team_a_ci.1],
            "mean_turns": self.mean_turns,
            "median_turns": self.median_turns,
            "mean_captures": self.mean_captures,
            "mean_super_pieces": self.mean_stacks,
            "mean_blocks": self.mean_blocks,
            "mean_points_passed": self.mean_passed,
            "stopped": self.stopped,
            "team_a_decision_ms_median": self.team_a_decision_ms,
            "team_b_decision_ms_median": self.team_b_decision_ms,
        })
    }
}
