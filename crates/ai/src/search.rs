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

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use chaupar_core::dice::{distinct_throws, outcomes};
use chaupar_core::rules::Faces;
use chaupar_core::{Generator, Play, Position, Preset, Throw};

use crate::eval::{Side, Weights};
use crate::evaluator::{first_best, Evaluator};

/// The seed of a position's rollouts: 64-bit FNV-1a over the bytes of its
/// position text (docs/notation.md), so the same position rolls out the same
/// throws on every build and every Rust release (docs/ai.md, "Truncated rollouts").
///
/// ```
/// # use chaupar_ai::search::rollout_seed;
/// let pos = chaupar_core::notation::parse_position(
///     "chaupar 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -").unwrap();
/// assert_eq!(rollout_seed(&pos), rollout_seed(&pos.clone()));
/// ```
pub fn rollout_seed(pos: &Position) -> u64 {
    fnv1a(chaupar_core::notation::position_text(pos).as_bytes())
}

/// 64-bit FNV-1a: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Work units per millisecond of budget. A unit is an estimated microsecond of
/// work on the machine the numbers in docs/ai.md were measured on (release
/// build): the search counts 2 units per play generation plus, per play
/// generated and evaluated, the evaluation's [`Evaluator::play_units`] (1 for
/// the linear model, 2 for the network); UCT counts 2 per generation plus 1 per 5 plays
/// (it generates but does not evaluate). Counting work instead of time keeps
/// simulations reproducible under any load.
pub const NODES_PER_MS: usize = 1000;

/// Rollouts each candidate needs for the rollout stage to count.
const MIN_ROLLOUTS: usize = 8;

/// Standard errors by which the leader must be ahead to drop a candidate from
/// the rollouts.
const ELIMINATE: f64 = 3.0;

/// Rounds of the rollouts in games of two players (16 turns; 8 turns in
/// games of four): chosen in two-player `chausar` (docs/ai.md, "Expert
/// against greedy").
pub const DUEL_ROUNDS: usize = 8;

/// How far below the best a pruned play is recorded.
const PRUNED: f64 = 1e-6;

/// The default work budget of a decision in play (about 100 ms; the
/// wall-clock budget is 150 ms): the expert's median decision stays under
/// 100 ms on one core in every preset (docs/ai.md, "Time per expert decision").
pub const DEFAULT_NODES: usize = 100 * NODES_PER_MS;

/// The work budget of analysis, where a judgement matters more than a quick
/// reply: the tutor's verdict on a play, puzzles' rankings (twice a decision's).
pub const ANALYSIS_NODES: usize = 200 * NODES_PER_MS;

/// How hard the expert searches.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Candidates examined one throw deep (move filtering at the root).
    pub candidates: usize,
    /// Extra candidates admitted when their static value is within this of the best.
    pub margin: f64,
    /// Wall-clock budget per decision.
    pub budget: Duration,
    /// Work units at most per decision (a deterministic budget, see [`NODES_PER_MS`]).
    pub max_nodes: usize,
    /// Candidates searched two throws deep (the next thrower's best `replies`
    /// plays each valued one throw deeper) when the budget allows; 0 for none.
    pub deep: usize,
    /// Replies kept per throw in the deeper search (move filtering).
    pub replies: usize,
    /// Star1 pruning (off for hints and reviews, which show every value).
    pub prune: bool,
    /// Candidates valued by truncated rollouts after the one-throw search
    /// (replacing the two-throw stage); 0 for none.
    pub rollouts: usize,
    /// Rounds of turns (every player once) a rollout plays before it is
    /// valued statically, in games of three or four players.
    pub rollout_rounds: usize,
    /// The same in games of two players, whose round is two turns: there
    /// the rollouts must play more rounds to see as far (docs/ai.md,
    /// "Truncated rollouts").
    pub duel_rounds: usize,
    /// Rollouts per candidate at most.
    pub rollout_max: usize,
    /// Which model chooses the rollouts' plays (their ends are valued by the
    /// evaluation searched with either way).
    pub rollout_plays: RolloutPlays,
}

/// Which model chooses the plays of the expert's rollouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RolloutPlays {
    /// The evaluation searched with (with the network, two work units a play).
    Searched,
    /// The linear model (one unit a play, so twice the rollouts in the same
    /// work as the network's).
    Linear,
    /// What was measured best in each game (docs/ai.md, "Rollouts played by
    /// the linear model"): the linear model in two-player games (the
    /// network's expert 84.0% against greedy, from 81.6%), in `classic`
    /// (89.6%, from 84.4%) and in `chaupar`; the evaluation searched with
    /// in four-player `chausar` (90.6% with the network's plays, 86.5% with
    /// the linear model's).
    Tuned,
}

impl RolloutPlays {
    /// Whether the rollouts from `pos` choose their plays by the linear model.
    pub fn linear(self, pos: &Position) -> bool {
        match self {
            RolloutPlays::Searched => false,
            RolloutPlays::Linear => true,
            RolloutPlays::Tuned => {
                pos.colours().len() == 2 || pos.rules().preset != Preset::Chausar
            }
        }
    }
}

impl SearchConfig {
    /// The default search with a work budget of `nodes` units (see
    /// [`NODES_PER_MS`]) instead of the clock: the same decision however
    /// loaded the machine is. The clock then only guards against a machine
    /// stopped for a minute.
    pub fn work(nodes: usize) -> SearchConfig {
        SearchConfig {
            budget: Duration::from_secs(60),
            max_nodes: nodes,
            ..SearchConfig::default()
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            candidates: 12,
            margin: 0.02,
            budget: Duration::from_millis(150),
            max_nodes: DEFAULT_NODES,
            deep: 4,
            replies: 3,
            prune: true,
            rollouts: 4,
            rollout_rounds: 2,
            duel_rounds: DUEL_ROUNDS,
            rollout_max: 2000,
            rollout_plays: RolloutPlays::Tuned,
        }
    }
}

/// A search context reusing its play generator.
pub struct Searcher {
    gen: Generator,
    /// The settings.
    pub config: SearchConfig,
    /// Work units (see [`NODES_PER_MS`]) spent by the last decision.
    pub nodes: usize,
    deadline: Option<Instant>,
}

/// The value for `side` of the play the next thrower (of side `mover`) picks
/// greedily among those `gen` generated.
fn best_reply_value<E: Evaluator>(gen: &Generator, side: Side, ev: &E, mover: Side) -> f64 {
    let positions = (0..gen.len()).map(|i| gen.position(i));
    match ev.best_position(mover, positions) {
        None => 0.0,
        Some((_, vm)) if mover == side => vm,
        Some((i, vm)) => two_sided_other(gen.position(i), side, vm, ev),
    }
}

/// The value for `side` of a position whose value for the other side is `vm`.
fn two_sided_other<E: Evaluator>(p: &Position, side: Side, vm: f64, ev: &E) -> f64 {
    if crate::eval::side_count(p) == 2 {
        1.0 - vm
    } else {
        ev.win_chance(p, side)
    }
}

impl Searcher {
    /// A searcher with these settings.
    pub fn new(config: SearchConfig) -> Searcher {
        Searcher {
            gen: Generator::new(),
            config,
            nodes: 0,
            deadline: None,
        }
    }

    /// The expected value for `side` of `pos` before the next throw: the next
    /// thrower replies greedily (by static value for his side).
    /// Returns `None` when pruned: it cannot exceed `alpha`.
    pub fn chance_value<E: Evaluator>(
        &mut self,
        pos: &Position,
        side: Side,
        ev: &E,
        alpha: f64,
    ) -> Option<f64> {
        self.chance_node(pos, side, ev, alpha, false, |s, mover| {
            Some(best_reply_value(&s.gen, side, ev, mover))
        })
    }

    /// A chance node over the 20 distinct throws of `pos`: for each throw the
    /// plays are generated into `self.gen` and `reply` values them for `side`
    /// (given the mover's side). Star1: the node is abandoned (`None`) as soon as
    /// even certain wins on every remaining throw could not lift it above
    /// `alpha`. With `budgeted`, also `None` when the budget runs out.
    fn chance_node<E: Evaluator>(
        &mut self,
        pos: &Position,
        side: Side,
        ev: &E,
        alpha: f64,
        budgeted: bool,
        mut reply: impl FnMut(&mut Searcher, Side) -> Option<f64>,
    ) -> Option<f64> {
        let Some(m) = pos.to_move() else {
            return Some(ev.win_chance(pos, side));
        };
        let mover = Side::of(pos, m);
        let mut acc = 0.0;
        let mut left = 1.0;
        for &(t, n) in throws(pos.rules().faces) {
            if budgeted && self.out_of_budget() {
                return None;
            }
            let pr = n as f64 / 64.0;
            if self.gen.generate(pos, t).is_err() {
                return Some(ev.win_chance(pos, side));
            }
            self.nodes += 2 + self.gen.len() * ev.play_units();
            acc += pr * reply(self, mover)?;
            left -= pr;
            if acc + left <= alpha {
                return None;
            }
        }
        Some(acc)
    }

    /// One truncated rollout from `pos`: every player takes his greedy play
    /// (best static value for his side) for `turns` turns with throws drawn from
    /// `seed`, then the position is valued statically for `side`.
    fn rollout<E: Evaluator>(
        &mut self,
        pos: &Position,
        side: Side,
        ev: &E,
        turns: usize,
        seed: u64,
    ) -> f64 {
        let mut rng = crate::Rng::new(seed);
        let all = outcomes(pos.rules().faces);
        let linear = self
            .config
            .rollout_plays
            .linear(pos)
            .then(|| Weights::embedded(pos.rules().preset));
        let mut p = *pos;
        for _ in 0..turns {
            let Some(m) = p.to_move() else { break };
            let throw = all[rng.below(64)];
            if self.gen.generate(&p, throw).is_err() {
                break;
            }
            let side = Side::of(&p, m);
            let (choice, units) = match linear {
                Some(w) => (w.greedy_choice(&self.gen, side), w.play_units()),
                None => (ev.greedy_choice(&self.gen, side), ev.play_units()),
            };
            self.nodes += 2 + self.gen.len() * units;
            p = *self.gen.position(choice);
        }
        ev.win_chance(&p, side)
    }

    /// Values the best `config.rollouts` candidates (by `searched`) by the mean
    /// of truncated rollouts, the same throws for every candidate in each round
    /// (common random numbers: the candidates are compared under the same luck).
    /// Runs while the budget lasts; kept only if every candidate got at least a
    /// few rollouts.
    fn rollout_stage<E: Evaluator>(
        &mut self,
        pos: &Position,
        plays: &[Play],
        side: Side,
        ev: &E,
        searched: &mut [Option<f64>],
    ) {
        let top = best_searched(searched, self.config.rollouts, |i| {
            plays[i].position.to_move().is_some()
        });
        if top.len() < 2 {
            return;
        }
        let rollout_rounds = match pos.colours().len() {
            2 => self.config.duel_rounds,
            _ => self.config.rollout_rounds,
        };
        let turns = rollout_rounds.max(1) * pos.colours().len();
        let base = rollout_seed(pos);
        // values[j][r]: candidate j's rollout r. Candidates still in the race
        // share every round, so their differences are paired.
        let mut values: Vec<Vec<f64>> = vec![Vec::new(); top.len()];
        let mut alive = vec![true; top.len()];
        let mut rounds = 0;
        while rounds < self.config.rollout_max && !self.out_of_budget() {
            let seed = crate::derive_seed(base, rounds as u64);
            for (j, &i) in top.iter().enumerate() {
                if alive[j] {
                    let p = plays[i].position;
                    let v = self.rollout(&p, side, ev, turns, seed);
                    values[j].push(v);
                }
            }
            rounds += 1;
            if self.config.prune && rounds >= 2 * MIN_ROLLOUTS && rounds % MIN_ROLLOUTS == 0 {
                // Successive elimination: drop a candidate once the leader is
                // ahead of it by more than `ELIMINATE` standard errors of the
                // paired difference; stop when one is left.
                let Some(lead) = (0..top.len())
                    .filter(|j| alive[*j])
                    .max_by(|a, b| mean(&values[*a]).total_cmp(&mean(&values[*b])))
                else {
                    break;
                };
                for j in 0..top.len() {
                    if j == lead || !alive[j] {
                        continue;
                    }
                    let d: Vec<f64> = values[lead]
                        .iter()
                        .zip(&values[j])
                        .map(|(a, b)| a - b)
                        .collect();
                    let n = d.len() as f64;
                    let md = d.iter().sum::<f64>() / n;
                    let var = d.iter().map(|x| (x - md) * (x - md)).sum::<f64>() / (n - 1.0);
                    if md > 0.0 && md * md * n > ELIMINATE * ELIMINATE * var {
                        alive[j] = false;
                    }
                }
                if alive.iter().filter(|a| **a).count() <= 1 {
                    break;
                }
            }
        }
        if rounds < MIN_ROLLOUTS {
            return;
        }
        let means: Vec<f64> = values.iter().map(|v| mean(v)).collect();
        let best_alive = (0..top.len())
            .filter(|j| alive[*j])
            .map(|j| means[j])
            .fold(f64::NEG_INFINITY, f64::max);
        let rolled: Vec<(usize, f64)> = top
            .iter()
            .enumerate()
            .map(|(j, &i)| {
                // An eliminated candidate stays below the best one still in the race.
                let v = if alive[j] {
                    means[j]
                } else {
                    means[j].min(best_alive - PRUNED)
                };
                (i, v)
            })
            .collect();
        replace_values(searched, &rolled);
    }

    fn out_of_budget(&self) -> bool {
        self.nodes >= self.config.max_nodes || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The value for `side` of `pos` two throws deep: for each throw the next
    /// thrower's best `replies` plays by static value are valued one throw deeper
    /// and he takes the best for his side. `None` when pruned below `alpha` or
    /// out of budget.
    pub fn chance_value2<E: Evaluator>(
        &mut self,
        pos: &Position,
        side: Side,
        ev: &E,
        alpha: f64,
    ) -> Option<f64> {
        let two = crate::eval::side_count(pos) == 2;
        let replies = self.config.replies.max(1);
        let mut cand: Vec<(f64, Position)> = Vec::new();
        let mut values: Vec<f64> = Vec::new();
        self.chance_node(pos, side, ev, alpha, true, |s, mover| {
            cand.clear();
            for i in 0..s.gen.len() {
                let p = *s.gen.position(i);
                cand.push((ev.win_chance(&p, mover), p));
            }
            cand.sort_by(|a, b| b.0.total_cmp(&a.0));
            cand.truncate(replies);
            values.clear();
            for &(_, p) in cand.iter() {
                values.push(s.chance_value(&p, side, ev, f64::NEG_INFINITY)?);
            }
            // The mover takes the best for his side; the value is for `side`.
            let for_mover = values.iter().map(|&vs| {
                if mover == side {
                    vs
                } else if two {
                    1.0 - vs
                } else {
                    -vs
                }
            });
            Some(first_best(for_mover).map_or(0.0, |(j, _)| values[j]))
        })
    }

    /// Values every play (indices into `plays`) for the mover's side: the static
    /// values of all, and the searched values of those examined. Returns
    /// (static, searched) where searched is `None` for unexamined plays.
    pub fn analyse<E: Evaluator>(
        &mut self,
        pos: &Position,
        plays: &[Play],
        ev: &E,
        noise: Option<&mut dyn FnMut() -> f64>,
    ) -> (Vec<f64>, Vec<Option<f64>>) {
        let start = Instant::now();
        self.deadline = Some(start + self.config.budget);
        self.nodes = 0;
        let side = match pos.to_move() {
            Some(m) => Side::of(pos, m),
            None => return (vec![0.5; plays.len()], vec![None; plays.len()]),
        };
        let mut stat: Vec<f64> = plays
            .iter()
            .map(|p| ev.win_chance(&p.position, side))
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
            if k >= 2 && self.out_of_budget() {
                break;
            }
            let p = &plays[i].position;
            if p.to_move().is_none() {
                let v = ev.win_chance(p, side);
                searched[i] = Some(v);
                best = best.max(v);
                continue;
            }
            let alpha = if self.config.prune {
                best
            } else {
                f64::NEG_INFINITY
            };
            if let Some(v) = self.chance_value(p, side, ev, alpha) {
                searched[i] = Some(v);
                if v > best {
                    best = v;
                }
            } else {
                // Pruned: worth at most `best` (strictly less matters: a tie
                // would let a pruned play be chosen); record just below it.
                searched[i] = Some(best.min(stat[i]) - PRUNED);
            }
        }
        if self.config.rollouts > 0 && !self.out_of_budget() {
            self.rollout_stage(pos, plays, side, ev, &mut searched);
        } else if self.config.deep > 0 && !self.out_of_budget() {
            // Two throws deep for the best few; kept only if all of them finish.
            let top = best_searched(&searched, self.config.deep, |_| true);
            if top.len() >= 2 {
                let mut deeper: Vec<(usize, f64)> = Vec::new();
                let mut best2 = f64::NEG_INFINITY;
                let mut complete = true; // at least two finished (they are in order)
                for &i in &top {
                    let p = plays[i].position;
                    if p.to_move().is_none() {
                        deeper.push((i, searched[i].unwrap_or(0.0)));
                        continue;
                    }
                    let alpha = if self.config.prune {
                        best2
                    } else {
                        f64::NEG_INFINITY
                    };
                    match self.chance_value2(&p, side, ev, alpha) {
                        Some(v) => {
                            best2 = best2.max(v);
                            deeper.push((i, v));
                        }
                        None if self.out_of_budget() => {
                            complete = deeper.len() >= 2;
                            break;
                        }
                        None => deeper.push((i, best2.min(searched[i].unwrap_or(0.0)) - PRUNED)),
                    }
                }
                if complete {
                    replace_values(&mut searched, &deeper);
                }
            }
        }
        self.deadline = None;
        (stat, searched)
    }

    /// The index of the play the search prefers.
    pub fn choose<E: Evaluator>(
        &mut self,
        pos: &Position,
        plays: &[Play],
        ev: &E,
        noise: Option<&mut dyn FnMut() -> f64>,
    ) -> usize {
        let (stat, searched) = self.analyse(pos, plays, ev, noise);
        // The searched values when there are any (an unsearched play is never
        // chosen then), else the static ones.
        let any = searched.iter().any(Option::is_some);
        let values = (0..plays.len()).map(|i| {
            if any {
                searched[i].unwrap_or(f64::NEG_INFINITY)
            } else {
                stat[i]
            }
        });
        first_best(values).map_or(0, |(i, _)| i)
    }
}

/// The mean of some values (0 for none).
fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// The indices of the `n` best searched plays (for which `keep` holds), best first.
fn best_searched(searched: &[Option<f64>], n: usize, keep: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut top: Vec<usize> = (0..searched.len())
        .filter(|i| searched[*i].is_some() && keep(*i))
        .collect();
    top.sort_by(|a, b| {
        searched[*b]
            .unwrap_or(0.0)
            .total_cmp(&searched[*a].unwrap_or(0.0))
    });
    top.truncate(n);
    top
}

/// A deeper stage's values replace the shallower ones of its few plays; every
/// other searched play is kept below the worst of them, so the few stay on top.
fn replace_values(searched: &mut [Option<f64>], deeper: &[(usize, f64)]) {
    let floor = deeper.iter().map(|d| d.1).fold(f64::INFINITY, f64::min);
    for v in searched.iter_mut().flatten() {
        *v = v.min(floor - 1e-9);
    }
    for &(i, v) in deeper {
        searched[i] = Some(v);
    }
}

/// The 20 distinct throws of these dice with their counts of 64 (computed once).
pub fn throws(faces: Faces) -> &'static [(Throw, u8)] {
    static T: OnceLock<[Vec<(Throw, u8)>; 2]> = OnceLock::new();
    let all = T.get_or_init(|| [distinct_throws(Faces::F1256), distinct_throws(Faces::F1346)]);
    match faces {
        Faces::F1256 => &all[0],
        Faces::F1346 => &all[1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Weights;
    use chaupar_core::{legal_plays, Preset, Rules};

    /// The linear model charged `units` a play.
    struct Charged(&'static Weights, usize);

    impl Evaluator for Charged {
        fn win_chance(&self, pos: &Position, side: Side) -> f64 {
            self.0.win_chance(pos, side)
        }
        fn play_units(&self) -> usize {
            self.1
        }
    }

    #[test]
    fn the_work_counted_grows_with_what_an_evaluation_costs() {
        // The same search (same values, no budget to run out) with plays
        // charged 1, 2 and 3 units: the generations cost the same, the plays
        // twice and three times as much.
        let pos = Position::new(Rules::preset(Preset::Classic), 4).unwrap();
        let throw = Throw::new([6, 5, 2], Faces::F1256).unwrap();
        let plays = legal_plays(&pos, throw).unwrap();
        let w = Weights::embedded(Preset::Classic);
        let config = SearchConfig {
            budget: Duration::from_secs(3600),
            max_nodes: usize::MAX,
            rollouts: 0,
            deep: 0,
            prune: false,
            ..SearchConfig::default()
        };
        let nodes = |units| {
            let mut s = Searcher::new(config.clone());
            let values = s.analyse(&pos, &plays, &Charged(w, units), None);
            (s.nodes, values)
        };
        let (one, v1) = nodes(1);
        let (two, v2) = nodes(2);
        let (three, v3) = nodes(3);
        assert_eq!((&v1, &v1), (&v2, &v3));
        assert!(two > one);
        assert_eq!(three - one, 2 * (two - one));
        assert_eq!(
            crate::net::Net::embedded(Preset::Classic)
                .unwrap()
                .play_units(),
            2
        );
    }

    #[test]
    fn rollout_seeds_use_the_published_fnv1a_values() {
        // The reference values of 64-bit FNV-1a, so a verifier written from
        // docs/ai.md gets the same seeds.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x85944171f73967e8);
    }
}
