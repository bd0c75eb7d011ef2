//! # chaupar-ai
//!
//! Computer players for Chaupar: a static evaluation ([`eval`]) whose weights were
//! learned by self-play ([`train`]), an expectiminimax search ([`search`]), plain
//! Monte-Carlo tree search ([`uct`]), the bots built on them ([`Bot`],
//! [`bot_by_name`], [`level`]), hints ([`hint`]), game review ([`review`]) and
//! the self-play simulator ([`sim`]). See `docs/ai.md`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::Arc;
use std::time::Duration;

use chaupar_core::{Play, Position, Throw, Turn};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub mod eval;
pub mod review;
pub mod search;
pub mod sim;
pub mod train;
pub mod uct;

use eval::{win_chance, Side, Weights};
use search::{SearchConfig, Searcher};

/// A computer player.
pub trait Bot: Send {
    /// Short name, e.g. "greedy" or "expert".
    fn name(&self) -> String;
    /// Index into `plays` (exactly the output of chaupar_core::legal_plays(pos, throw), never empty).
    fn choose(&mut self, pos: &Position, throw: Throw, plays: &[Play]) -> usize;
}

/// A small seeded random source shared by the bots.
#[derive(Clone, Debug)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// A generator seeded from a number.
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniform index below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.0.next_u64() % n as u64) as usize
    }

    /// A uniform number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A normal deviate with mean 0 and this standard deviation.
    pub fn normal(&mut self, sd: f64) -> f64 {
        let u1 = self.unit().max(1e-300);
        let u2 = self.unit();
        sd * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A raw 64-bit number.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// Mixes a seed with a stream number (SplitMix64), for independent derived seeds.
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed
        ^ stream
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays uniformly at random among the distinct plays.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    /// A random player with this seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, _pos: &Position, _throw: Throw, plays: &[Play]) -> usize {
        self.rng.below(plays.len())
    }
}

/// Plays the best play by static evaluation, optionally with Gaussian noise
/// added to every evaluation (weaker levels).
pub struct GreedyBot {
    rng: Rng,
    noise: f64,
    name: String,
    weights: Option<Arc<Weights>>,
}

impl GreedyBot {
    /// The greedy player (no noise).
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot::with_noise(seed, 0.0, "greedy")
    }

    /// A greedy player whose evaluations get noise of this standard deviation.
    pub fn with_noise(seed: u64, noise: f64, name: &str) -> GreedyBot {
        GreedyBot {
            rng: Rng::new(seed),
            noise,
            name: name.into(),
            weights: None,
        }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, pos: &Position, _throw: Throw, plays: &[Play]) -> usize {
        let Some(m) = pos.to_move() else { return 0 };
        let side = Side::of(pos, m);
        let weights = match &self.weights {
            Some(w) => w,
            None => Weights::embedded(pos.rules().preset),
        };
        let mut best = 0;
        let mut best_v = f64::NEG_INFINITY;
        for (i, p) in plays.iter().enumerate() {
            let mut v = eval::win_chance_with(&p.position, side, weights);
            if self.noise > 0.0 {
                v += self.rng.normal(self.noise);
            }
            if v > best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }
}

/// The expert: expectiminimax search (see [`search`]) with an optional noise.
pub struct ExpertBot {
    searcher: Searcher,
    rng: Rng,
    noise: f64,
    name: String,
    weights: Option<Arc<Weights>>,
}

impl ExpertBot {
    /// The full-strength expert with the default budget.
    pub fn new(seed: u64) -> ExpertBot {
        ExpertBot::with_config(seed, SearchConfig::default(), 0.0, "expert")
    }

    /// An expert with these settings and evaluation noise.
    pub fn with_config(seed: u64, config: SearchConfig, noise: f64, name: &str) -> ExpertBot {
        ExpertBot {
            searcher: Searcher::new(config),
            rng: Rng::new(seed),
            noise,
            name: name.into(),
            weights: None,
        }
    }

    /// Sets the time budget per decision.
    pub fn set_budget(&mut self, budget: Duration) {
        self.searcher.config.budget = budget;
    }

    /// Sets both budgets per decision (time and play generations).
    pub fn set_limits(&mut self, limits: Limits) {
        self.searcher.config.budget = limits.time;
        self.searcher.config.max_nodes = limits.nodes;
    }
}

impl Bot for ExpertBot {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, pos: &Position, _throw: Throw, plays: &[Play]) -> usize {
        if plays.len() <= 1 {
            return 0;
        }
        let weights = match &self.weights {
            Some(w) => w,
            None => Weights::embedded(pos.rules().preset),
        };
        if self.noise > 0.0 {
            let sd = self.noise;
            let rng = &mut self.rng;
            let mut f = move || rng.normal(sd);
            self.searcher.choose(pos, plays, weights, Some(&mut f))
        } else {
            self.searcher.choose(pos, plays, weights, None)
        }
    }
}

/// "random", "greedy", "uct", "expert", or "level1".."level5"; seed makes it reproducible.
pub fn bot_by_name(name: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    let n = name.trim().to_ascii_lowercase();
    Ok(match n.as_str() {
        "random" => Box::new(RandomBot::new(seed)),
        "greedy" => Box::new(GreedyBot::new(seed)),
        "uct" => Box::new(uct::UctBot::new(seed)),
        "expert" => Box::new(ExpertBot::new(seed)),
        _ => match n.strip_prefix("level").and_then(|d| d.parse::<u8>().ok()) {
            Some(l @ 1..=5) => level(l, seed),
            _ => {
                return Err(format!(
                    "unknown bot {name:?} (expected random, greedy, uct, expert or level1..level5)"
                ))
            }
        },
    })
}

/// The work a searching bot may do per decision: whichever runs out first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time.
    pub time: Duration,
    /// Play generations (each with the evaluation of its plays, or one turn of a
    /// random playout for UCT): a budget that does not depend on the machine.
    pub nodes: usize,
}

impl Limits {
    /// A time budget, with the node budget it corresponds to
    /// ([`search::NODES_PER_MS`] per millisecond) as a second limit.
    pub fn time(budget: Duration) -> Limits {
        Limits {
            time: budget,
            nodes: (budget.as_millis() as usize)
                .saturating_mul(search::NODES_PER_MS)
                .max(1),
        }
    }

    /// Only a node budget worth `ms` milliseconds (reproducible on any machine
    /// and under any load): what the simulator uses.
    pub fn nodes_for_ms(ms: u64) -> Limits {
        Limits {
            time: Duration::from_secs(3600),
            nodes: (ms as usize).saturating_mul(search::NODES_PER_MS).max(1),
        }
    }
}

/// A bot by name with a time budget per decision for the searching bots
/// (`expert`, `uct`, levels 4 and 5).
///
/// For experiments, `greedy@FILE` and `expert@FILE` use the weights in FILE
/// instead of the embedded ones.
pub fn bot_with_budget(name: &str, seed: u64, budget: Duration) -> Result<Box<dyn Bot>, String> {
    bot_with_limits(name, seed, Limits::time(budget))
}

/// A bot by name with explicit [`Limits`] for the searching bots.
pub fn bot_with_limits(name: &str, seed: u64, limits: Limits) -> Result<Box<dyn Bot>, String> {
    if let Some((base, file)) = name.split_once('@') {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        let w = Arc::new(Weights::from_json(&text)?);
        return Ok(match base {
            "greedy" => {
                let mut b = GreedyBot::with_noise(seed, 0.0, name);
                b.weights = Some(w);
                Box::new(b)
            }
            "expert" => {
                let mut b = ExpertBot::with_config(seed, SearchConfig::default(), 0.0, name);
                b.set_limits(limits);
                b.weights = Some(w);
                Box::new(b)
            }
            _ => {
                return Err(format!(
                    "only greedy@FILE and expert@FILE take a weights file, not {base:?}"
                ))
            }
        });
    }
    let n = name.trim().to_ascii_lowercase();
    Ok(match n.as_str() {
        "uct" => Box::new(uct::UctBot::with_limits(seed, limits)),
        "expert" | "level5" => {
            let mut b = ExpertBot::with_config(seed, SearchConfig::default(), 0.0, &n);
            b.set_limits(limits);
            Box::new(b)
        }
        n if n.starts_with("expertr") => {
            // Experiments: the expert with truncated rollouts, `expertrK_R`
            // (K candidates, R rounds).
            let rest = &n["expertr".len()..];
            let (k, r) = rest.split_once('_').unwrap_or((rest, "2"));
            let (Ok(rollouts), Ok(rollout_rounds)) = (k.parse(), r.parse()) else {
                return Err(format!(
                    "{name:?}: expected expertrK_R with K candidates and R rounds, like expertr4_2"
                ));
            };
            let cfg = SearchConfig {
                rollouts,
                rollout_rounds,
                ..SearchConfig::default()
            };
            let mut b = ExpertBot::with_config(seed, cfg, 0.0, n);
            b.set_limits(limits);
            Box::new(b)
        }
        "expert1" | "expert2" => {
            // For measurements: the search one throw deep only (`expert1`), or
            // with the two-throw stage instead of rollouts (`expert2`).
            let cfg = SearchConfig {
                deep: if n == "expert1" { 0 } else { 4 },
                rollouts: 0,
                ..SearchConfig::default()
            };
            let mut b = ExpertBot::with_config(seed, cfg, 0.0, &n);
            b.set_limits(limits);
            Box::new(b)
        }
        "level4" => {
            let mut b = ExpertBot::with_config(seed, level4_config(), 0.0, "level4");
            b.set_limits(Limits {
                nodes: limits.nodes.min(level4_config().max_nodes),
                ..limits
            });
            Box::new(b)
        }
        _ => bot_by_name(name, seed)?,
    })
}

/// Level 4: the expert's search on a twentieth of its work (10 ms: one throw
/// deep, rollouts as far as the budget goes), without noise.
fn level4_config() -> SearchConfig {
    SearchConfig {
        budget: Duration::from_millis(100),
        max_nodes: 10 * search::NODES_PER_MS,
        ..SearchConfig::default()
    }
}

/// Levels 1-5 for people (5 = strongest).
///
/// 1: greedy with large noise (about 0.08 in win chance); 2: greedy with noise
/// 0.03; 3: greedy; 4: the expert on 10 ms of work; 5: the expert.
/// Levels outside 1-5 are clamped.
pub fn level(level: u8, seed: u64) -> Box<dyn Bot> {
    match level.clamp(1, 5) {
        1 => Box::new(GreedyBot::with_noise(seed, 0.08, "level1")),
        2 => Box::new(GreedyBot::with_noise(seed, 0.03, "level2")),
        3 => Box::new(GreedyBot::with_noise(seed, 0.0, "level3")),
        4 => Box::new(ExpertBot::with_config(seed, level4_config(), 0.0, "level4")),
        _ => Box::new(ExpertBot::with_config(
            seed,
            SearchConfig::default(),
            0.0,
            "level5",
        )),
    }
}

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
/// four of those valued by rollouts (see [`search`]); the others keep their
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
    let weights = Weights::embedded(pos.rules().preset);
    let mut s = Searcher::new(SearchConfig {
        prune: false,
        ..config.clone()
    });
    let (stat, searched) = s.analyse(pos, &plays, weights, None);
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
        .map(|i| match searched[i] {
            Some(v) => v.clamp(0.0, 1.0),
            None => (stat[i] + shift).min(floor).clamp(0.0, 1.0),
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
