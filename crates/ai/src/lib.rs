//! # chaupar-ai
//!
//! Computer players for Chaupar: a static evaluation ([`eval`]) whose weights were
//! learned by self-play ([`train`]), seen by the players through the
//! [`Evaluator`] trait, an expectiminimax search ([`search`]), plain
//! Monte-Carlo tree search ([`uct`]), the bots built on them ([`Bot`], named by
//! a [`BotSpec`] and built with [`BotSpec::build`]), hints ([`hint`]), game
//! review ([`review`]) and the self-play simulator ([`sim`]). See `docs/ai.md`.
//!
//! | module | its one job |
//! | --- | --- |
//! | [`eval`] | features and the learned logistic model ([`eval::Weights`]) |
//! | [`evaluator`] | the [`Evaluator`] trait and the one argmax ([`first_best`]) |
//! | [`net`] | the neural evaluation ([`net::Net`]): the linear model plus a hidden layer |
//! | `model` | [`Model`]: the evaluation a bot plays with (linear or network) |
//! | [`search`] | the expert's expectiminimax search and rollouts |
//! | [`uct`] | plain Monte-Carlo tree search |
//! | `bots` | the [`Bot`] trait, [`RandomBot`], [`GreedyBot`], [`ExpertBot`] |
//! | `spec` | [`BotSpec`] (a bot by name), [`Limits`] (work per decision) |
//! | `hints` | [`hint`], [`hint_turn`], [`rank_plays`], [`estimate`] |
//! | `rng` | [`Rng`], [`derive_seed`] |
//! | [`review`], [`sim`], [`train`] | game review, the simulator, TD(lambda) training |
//! | [`train_net`] | TD(lambda) self-play training of the network |
//! | [`fit_net`] | fitting the network to rollout targets |
//! | [`review_svg`] | a review drawn as a win-chance graph (SVG) |
//! | [`puzzles`] | positions from expert self-play where one play is clearly best |
//! | [`race`] | exact column races: finishing distributions by dynamic programming |
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bots;
pub mod eval;
pub mod evaluator;
pub mod fit_net;
mod hints;
mod model;
pub mod net;
pub mod puzzles;
pub mod race;
pub mod review;
pub mod review_svg;
mod rng;
pub mod search;
pub mod sim;
mod spec;
pub mod train;
pub mod train_net;
pub mod uct;

pub use bots::{Bot, ExpertBot, GreedyBot, RandomBot};
pub use evaluator::{first_best, Evaluator};
pub use hints::{estimate, hint, hint_turn, hint_with, rank_plays, RankedPlay};
pub use model::Model;
pub use rng::{derive_seed, Rng};
pub use spec::{BotSpec, BotSpecError, Limits, WeightsFile, LEVEL4_NODES};
