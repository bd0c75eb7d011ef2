//! The [`Bot`] trait and the players built on the static evaluation: random,
//! greedy (optionally with noise, the weaker levels) and the searching expert.
//! Which bot a name stands for is [`crate::BotSpec`]'s job; plain UCT is in
//! [`crate::uct`].

use chaupar_core::{Generator, Play, Position, Throw};

use crate::eval::Side;
use crate::evaluator::{first_best, Evaluator};
use crate::model::Model;
use crate::race::ExactRaces;
use crate::search::{SearchConfig, Searcher};
use crate::{Limits, Rng};

/// A computer player.
pub trait Bot: Send {
    /// Short name, e.g. "greedy" or "expert".
    fn name(&self) -> String;
    /// Index into `plays` (exactly the output of chaupar_core::legal_plays(pos, throw), never empty).
    fn choose(&mut self, pos: &Position, throw: Throw, plays: &[Play]) -> usize;
    /// The same choice made among the plays a [`Generator`] has just listed
    /// for `pos` and `throw` (never none), without copying them: the same
    /// index as [`Bot::choose`] on [`Generator::plays`], and the same random
    /// draws. The simulator asks this; bots that only look at the positions
    /// after each play answer it without building a `Vec<Play>`.
    fn choose_listed(&mut self, pos: &Position, throw: Throw, listed: &Generator) -> usize {
        self.choose(pos, throw, &listed.plays())
    }
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
    fn choose_listed(&mut self, _pos: &Position, _throw: Throw, listed: &Generator) -> usize {
        self.rng.below(listed.len())
    }
}

/// Plays the best play by static evaluation, optionally with Gaussian noise
/// added to every evaluation (weaker levels).
pub struct GreedyBot {
    rng: Rng,
    noise: f64,
    name: String,
    model: Model,
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
            model: Model::default(),
        }
    }

    /// Evaluates with this model instead of the embedded linear one.
    pub fn with_model(mut self, model: Model) -> GreedyBot {
        self.model = model;
        self
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn choose(&mut self, pos: &Position, _throw: Throw, plays: &[Play]) -> usize {
        self.best_of(pos, plays.iter().map(|p| &p.position))
    }
    fn choose_listed(&mut self, pos: &Position, _throw: Throw, listed: &Generator) -> usize {
        self.best_of(pos, (0..listed.len()).map(|i| listed.position(i)))
    }
}

impl GreedyBot {
    /// The index of the best of the positions after each play, for the colour
    /// to move in `pos`.
    fn best_of<'a>(&mut self, pos: &Position, after: impl Iterator<Item = &'a Position>) -> usize {
        let Some(m) = pos.to_move() else { return 0 };
        let side = Side::of(pos, m);
        let model = self.model.resolve(pos);
        let (noise, rng) = (self.noise, &mut self.rng);
        // One noise draw per play, in order, after its evaluation.
        let values = after.map(|p| {
            let v = model.win_chance(p, side);
            if noise > 0.0 {
                v + rng.normal(noise)
            } else {
                v
            }
        });
        first_best(values).map_or(0, |(i, _)| i)
    }
}

/// The expert: expectiminimax search (see [`crate::search`]) with an optional noise.
pub struct ExpertBot {
    searcher: Searcher,
    rng: Rng,
    noise: f64,
    name: String,
    model: Model,
}

impl ExpertBot {
    /// The full-strength expert with the default budget: the `expert` bot,
    /// evaluating with the preset's network.
    pub fn new(seed: u64) -> ExpertBot {
        ExpertBot::with_config(seed, SearchConfig::default(), 0.0, "expert")
            .with_model(Model::Net(None))
    }

    /// An expert with these settings and evaluation noise.
    pub fn with_config(seed: u64, config: SearchConfig, noise: f64, name: &str) -> ExpertBot {
        ExpertBot {
            searcher: Searcher::new(config),
            rng: Rng::new(seed),
            noise,
            name: name.into(),
            model: Model::default(),
        }
    }

    /// Searches with this model instead of the embedded linear one.
    pub fn with_model(mut self, model: Model) -> ExpertBot {
        self.model = model;
        self
    }

    /// Sets the time budget per decision.
    pub fn set_budget(&mut self, budget: std::time::Duration) {
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
        let model = ExactRaces(self.model.resolve(pos));
        if self.noise > 0.0 {
            let sd = self.noise;
            let rng = &mut self.rng;
            let mut f = move || rng.normal(sd);
            self.searcher.choose(pos, plays, &model, Some(&mut f))
        } else {
            self.searcher.choose(pos, plays, &model, None)
        }
    }
}
