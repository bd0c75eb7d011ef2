//! Which bot a name stands for ([`BotSpec`], read with [`str::parse`]) and how
//! much work a searching bot may do per decision ([`Limits`]);
//! [`BotSpec::build`] makes the bot.
//!
//! ```
//! use chaupar_ai::{BotSpec, Limits};
//! let spec: BotSpec = "level4".parse().unwrap();
//! let bot = spec.build(7, Limits::default());
//! assert_eq!(bot.name(), "level4");
//! assert!("grandmaster".parse::<BotSpec>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::model::Model;
use crate::search::{self, RolloutPlays, SearchConfig};
use crate::uct::UctBot;
use crate::{Bot, ExpertBot, GreedyBot, RandomBot};

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

/// The expert's default budgets ([`SearchConfig::default`]): 150 ms of wall
/// time or [`search::DEFAULT_NODES`] work units. What the server's computer
/// players get.
impl Default for Limits {
    fn default() -> Limits {
        let c = SearchConfig::default();
        Limits {
            time: c.budget,
            nodes: c.max_nodes,
        }
    }
}

/// Level 4's work per decision at most: a tenth of the expert's default
/// (10 ms of work).
pub const LEVEL4_NODES: usize = 10 * search::NODES_PER_MS;

/// A bot, by what its name asks for: `random`, `greedy`, `uct`, `expert`,
/// `level1`..`level5`, and for experiments `expert1`, `expert2`, `expertrK_R`,
/// `greedy-linear`, `expert-linear`, `greedy-net`, `expert-net`, `greedy@FILE`
/// and `expert@FILE`. Names are read without regard to case or
/// surrounding spaces (except the weights-file forms, read as written), and
/// [`fmt::Display`] writes the canonical name.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// `random`: uniform among the distinct plays.
    Random,
    /// `greedy`: the best play by static evaluation with the linear model (the
    /// baseline every "against greedy" table is measured against; `greedy-net`
    /// evaluates with the network).
    Greedy,
    /// `uct`: plain Monte-Carlo tree search.
    Uct,
    /// `expert`: one throw deep, then truncated rollouts of the best four,
    /// evaluating with the preset's network (the linear model in games no
    /// network was trained on); the same bot as `expert-net`.
    Expert,
    /// `level1`..`level5` (1 to 5): 1 and 2 greedy with noise 0.08 and 0.03
    /// on every evaluation, 3 greedy, 4 the expert with the linear model
    /// (`expert-linear`) on at most [`LEVEL4_NODES`] of work, 5 the expert
    /// (with the preset's network).
    Level(u8),
    /// `expert1`: the expert's search one throw deep only.
    ExpertOneThrow,
    /// `expert2`: the earlier expert, two throws deep for the best four
    /// instead of rollouts.
    ExpertTwoThrows,
    /// `expertrK_R` (`expertrK` for R = 2): the expert with rollouts of
    /// `candidates` plays over `rounds` rounds; `expertrK_R-net` the same
    /// with the preset's network, `expertrK_R-net-lin` with rollouts played
    /// by the linear model and valued by the network.
    ExpertRollouts {
        /// Candidates rolled out (K).
        candidates: usize,
        /// Rounds of turns per rollout (R).
        rounds: usize,
        /// Whether it evaluates with the preset's network (`-net`).
        net: bool,
        /// Whether its rollouts choose plays with the linear model (`-lin`,
        /// after `-net`): see [`RolloutPlays`].
        linear_rollouts: bool,
    },
    /// `greedy-linear`: the greedy player with the linear model, whatever
    /// `greedy` evaluates with.
    GreedyLinear,
    /// `expert-linear`: the expert searching with the linear model (the
    /// expert before the network; level 4 on a smaller budget).
    ExpertLinear,
    /// `greedy-net`: the greedy player with the preset's trained network.
    GreedyNet,
    /// `expert-net`: the expert searching with the preset's trained network,
    /// as `expert` does (the name the strength tables were measured under).
    ExpertNet,
    /// `greedy@FILE`: the greedy player with the weights (or network) read from FILE.
    GreedyWith(WeightsFile),
    /// `expert@FILE`: the expert with the weights (or network) read from FILE.
    ExpertWith(WeightsFile),
}

/// Weights or a network read from a file (for `greedy@FILE` and `expert@FILE`).
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsFile {
    /// The file's name, as given.
    pub file: String,
    /// The model it holds.
    pub model: Model,
}

/// Why a bot name was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpecError {
    /// No bot has this name.
    Unknown(String),
    /// An `expertr` name without numbers of candidates and rounds.
    BadRollouts(String),
    /// The weights file could not be read (file, reason).
    CannotRead(String, String),
    /// The weights file does not hold weights this program can use.
    BadWeights(String),
    /// A weights file given to a bot that takes none (its base name).
    NoWeights(String),
}

impl fmt::Display for BotSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpecError::Unknown(name) => write!(
                f,
                "unknown bot {name:?} (expected random, greedy, uct, expert or level1..level5)"
            ),
            BotSpecError::BadRollouts(name) => write!(
                f,
                "{name:?}: expected expertrK_R with K candidates and R rounds, like expertr4_2"
            ),
            BotSpecError::CannotRead(file, e) => write!(f, "cannot read {file}: {e}"),
            BotSpecError::BadWeights(e) => f.write_str(e),
            BotSpecError::NoWeights(base) => write!(
                f,
                "only greedy@FILE and expert@FILE take a weights file, not {base:?}"
            ),
        }
    }
}

impl std::error::Error for BotSpecError {}

impl From<BotSpecError> for String {
    fn from(e: BotSpecError) -> String {
        e.to_string()
    }
}

impl BotSpec {
    /// The bot of a level for people, 1 to 5 (5 strongest); levels outside
    /// 1-5 are clamped.
    pub fn level(level: u8) -> BotSpec {
        BotSpec::Level(level.clamp(1, 5))
    }

    /// The bot, its random choices seeded from `seed`; the searching bots
    /// (`uct`, the experts, levels 4 and 5) work within `limits` per decision,
    /// level 4 within at most [`LEVEL4_NODES`] work units.
    pub fn build(&self, seed: u64, limits: Limits) -> Box<dyn Bot> {
        if let BotSpec::Level(l @ (0 | 6..)) = self {
            return BotSpec::level(*l).build(seed, limits);
        }
        let name = self.to_string();
        let expert = |config: SearchConfig, limits: Limits| {
            let mut b = ExpertBot::with_config(seed, config, 0.0, &name);
            b.set_limits(limits);
            b
        };
        match self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy => Box::new(GreedyBot::new(seed)),
            BotSpec::Uct => Box::new(UctBot::with_limits(seed, limits)),
            // The expert, and level 5 on whatever budget it is given.
            BotSpec::Expert | BotSpec::Level(5) => {
                Box::new(expert(SearchConfig::default(), limits).with_model(self.model()))
            }
            BotSpec::Level(4) => {
                let nodes = limits.nodes.min(LEVEL4_NODES);
                Box::new(expert(SearchConfig::default(), Limits { nodes, ..limits }))
            }
            BotSpec::Level(level) => {
                let noise = match level {
                    1 => 0.08,
                    2 => 0.03,
                    _ => 0.0,
                };
                Box::new(GreedyBot::with_noise(seed, noise, &name))
            }
            BotSpec::ExpertOneThrow | BotSpec::ExpertTwoThrows => {
                let config = SearchConfig {
                    deep: if *self == BotSpec::ExpertOneThrow {
                        0
                    } else {
                        4
                    },
                    rollouts: 0,
                    ..SearchConfig::default()
                };
                Box::new(expert(config, limits))
            }
            BotSpec::ExpertRollouts {
                candidates,
                rounds,
                linear_rollouts,
                ..
            } => {
                let config = SearchConfig {
                    rollouts: *candidates,
                    rollout_rounds: *rounds,
                    duel_rounds: *rounds,
                    rollout_plays: if *linear_rollouts {
                        RolloutPlays::Linear
                    } else {
                        RolloutPlays::Searched
                    },
                    ..SearchConfig::default()
                };
                Box::new(expert(config, limits).with_model(self.model()))
            }
            BotSpec::GreedyLinear | BotSpec::GreedyNet | BotSpec::GreedyWith(_) => {
                Box::new(GreedyBot::with_noise(seed, 0.0, &name).with_model(self.model()))
            }
            BotSpec::ExpertLinear | BotSpec::ExpertNet | BotSpec::ExpertWith(_) => {
                Box::new(expert(SearchConfig::default(), limits).with_model(self.model()))
            }
        }
    }
}

impl BotSpec {
    /// The evaluation the bot plays with, for the bots named by it.
    fn model(&self) -> Model {
        match self {
            // The expert and the strongest level play with the preset's
            // network (the linear model in games no network was trained on):
            // in the same time it beats the expert with the linear model
            // (docs/ai.md, "Expert against greedy", "Levels").
            BotSpec::GreedyNet
            | BotSpec::Expert
            | BotSpec::ExpertNet
            | BotSpec::Level(5)
            | BotSpec::ExpertRollouts { net: true, .. } => Model::Net(None),
            BotSpec::GreedyWith(w) | BotSpec::ExpertWith(w) => w.model.clone(),
            _ => Model::Linear(None),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Uct => f.write_str("uct"),
            BotSpec::Expert => f.write_str("expert"),
            BotSpec::Level(l) => write!(f, "level{l}"),
            BotSpec::ExpertOneThrow => f.write_str("expert1"),
            BotSpec::ExpertTwoThrows => f.write_str("expert2"),
            BotSpec::ExpertRollouts {
                candidates,
                rounds,
                net,
                linear_rollouts,
            } => {
                let net = if *net { "-net" } else { "" };
                let lin = if *linear_rollouts { "-lin" } else { "" };
                write!(f, "expertr{candidates}_{rounds}{net}{lin}")
            }
            BotSpec::GreedyLinear => f.write_str("greedy-linear"),
            BotSpec::ExpertLinear => f.write_str("expert-linear"),
            BotSpec::GreedyNet => f.write_str("greedy-net"),
            BotSpec::ExpertNet => f.write_str("expert-net"),
            BotSpec::GreedyWith(w) => write!(f, "greedy@{}", w.file),
            BotSpec::ExpertWith(w) => write!(f, "expert@{}", w.file),
        }
    }
}

impl FromStr for BotSpec {
    type Err = BotSpecError;

    /// Reads a bot name; `greedy@FILE` and `expert@FILE` read the weights
    /// file here, so that building the bot cannot fail.
    fn from_str(name: &str) -> Result<BotSpec, BotSpecError> {
        if let Some((base, file)) = name.split_once('@') {
            let text = std::fs::read_to_string(file)
                .map_err(|e| BotSpecError::CannotRead(file.into(), e.to_string()))?;
            let model = Model::from_json(&text).map_err(BotSpecError::BadWeights)?;
            let w = WeightsFile {
                file: file.into(),
                model,
            };
            return match base {
                "greedy" => Ok(BotSpec::GreedyWith(w)),
                "expert" => Ok(BotSpec::ExpertWith(w)),
                _ => Err(BotSpecError::NoWeights(base.into())),
            };
        }
        let n = name.trim().to_ascii_lowercase();
        Ok(match n.as_str() {
            "random" => BotSpec::Random,
            "greedy" => BotSpec::Greedy,
            "uct" => BotSpec::Uct,
            "expert" => BotSpec::Expert,
            "greedy-linear" => BotSpec::GreedyLinear,
            "expert-linear" => BotSpec::ExpertLinear,
            "greedy-net" => BotSpec::GreedyNet,
            "expert-net" => BotSpec::ExpertNet,
            "expert1" => BotSpec::ExpertOneThrow,
            "expert2" => BotSpec::ExpertTwoThrows,
            n if n.starts_with("expertr") => {
                let rest = &n["expertr".len()..];
                let (rest, linear_rollouts) = match rest.strip_suffix("-net-lin") {
                    Some(r) => (r, true),
                    None => (rest, false),
                };
                let (rest, net) = match rest.strip_suffix("-net") {
                    Some(r) => (r, true),
                    None => (rest, linear_rollouts),
                };
                let (k, r) = rest.split_once('_').unwrap_or((rest, "2"));
                let (Ok(candidates), Ok(rounds)) = (k.parse(), r.parse()) else {
                    return Err(BotSpecError::BadRollouts(name.into()));
                };
                BotSpec::ExpertRollouts {
                    candidates,
                    rounds,
                    net,
                    linear_rollouts,
                }
            }
            _ => match n.strip_prefix("level").and_then(|d| d.parse::<u8>().ok()) {
                Some(l @ 1..=5) => BotSpec::Level(l),
                _ => return Err(BotSpecError::Unknown(name.into())),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names_read_back_as_the_same_spec() {
        for name in [
            "random",
            "greedy",
            "uct",
            "expert",
            "level1",
            "level2",
            "level3",
            "level4",
            "level5",
            "expert1",
            "expert2",
            "expertr4_2",
            "expertr2_4",
            "expertr6_4-net",
            "expertr4_8-net-lin",
            "greedy-linear",
            "expert-linear",
            "greedy-net",
            "expert-net",
        ] {
            let spec: BotSpec = name.parse().unwrap();
            assert_eq!(spec.to_string(), name);
            assert_eq!(spec.build(1, Limits::default()).name(), name);
        }
        assert_eq!(
            " Expertr3 ".parse::<BotSpec>().unwrap(),
            BotSpec::ExpertRollouts {
                candidates: 3,
                rounds: 2,
                net: false,
                linear_rollouts: false,
            }
        );
        // Linear rollouts go with the network only: `-lin` alone is no name.
        assert!("expertr4_8-lin".parse::<BotSpec>().is_err());
        assert_eq!(
            "expertr4_8-net-lin".parse::<BotSpec>().unwrap(),
            BotSpec::ExpertRollouts {
                candidates: 4,
                rounds: 8,
                net: true,
                linear_rollouts: true,
            }
        );
    }

    #[test]
    fn levels_are_clamped_and_level_names_out_of_range_refused() {
        assert_eq!(BotSpec::level(0), BotSpec::Level(1));
        assert_eq!(BotSpec::level(9), BotSpec::Level(5));
        for bad in ["level0", "level6", "level", "levelx"] {
            let e = bad.parse::<BotSpec>().unwrap_err();
            assert!(e.to_string().starts_with("unknown bot"), "{e}");
        }
    }

    #[test]
    fn weights_files_are_named_in_errors() {
        let e = "greedy@/no/such/file.json".parse::<BotSpec>().unwrap_err();
        assert!(e.to_string().starts_with("cannot read /no/such/file.json"));
        let e = "expertr4_x".parse::<BotSpec>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"expertr4_x\": expected expertrK_R with K candidates and R rounds, like expertr4_2"
        );
    }

    #[test]
    fn a_network_file_is_read_as_a_network_and_weights_as_weights() {
        use crate::eval::Weights;
        use crate::net::Net;
        use chaupar_core::rules::Preset;
        let dir = std::env::temp_dir().join(format!("chaupar-spec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let w = Weights::embedded(Preset::Chaupar);
        let net = Net::new(Preset::Chaupar, w, 4, 1);
        let net_file = dir.join("net.json");
        std::fs::write(&net_file, net.to_json()).unwrap();
        let weights_file = dir.join("w.json");
        std::fs::write(&weights_file, w.to_json()).unwrap();
        let spec: BotSpec = format!("expert@{}", net_file.display()).parse().unwrap();
        assert!(matches!(
            spec,
            BotSpec::ExpertWith(WeightsFile {
                model: Model::Net(Some(_)),
                ..
            })
        ));
        let spec: BotSpec = format!("greedy@{}", weights_file.display())
            .parse()
            .unwrap();
        assert!(matches!(
            spec,
            BotSpec::GreedyWith(WeightsFile {
                model: Model::Linear(Some(_)),
                ..
            })
        ));
        let mut broken = net.clone();
        broken.b1.pop();
        std::fs::write(&net_file, broken.to_json()).unwrap();
        let e = format!("greedy@{}", net_file.display())
            .parse::<BotSpec>()
            .unwrap_err();
        assert!(e.to_string().contains("network sizes do not fit"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_default_limits_are_the_experts_default_budgets() {
        let c = SearchConfig::default();
        assert_eq!(Limits::default().time, c.budget);
        assert_eq!(Limits::default().nodes, c.max_nodes);
    }
}
