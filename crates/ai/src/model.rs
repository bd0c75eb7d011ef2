//! [`Model`]: the evaluation a bot plays with, the linear model or the network,
//! each the embedded one of the position's preset or one read from a file.

use std::sync::Arc;

use chaupar_core::Position;

use crate::eval::{win_chance_with, Side, Weights};
use crate::evaluator::Evaluator;
use crate::net::Net;

/// The evaluation a bot plays with.
#[derive(Clone, Debug, PartialEq)]
pub enum Model {
    /// The linear model: these weights, or the embedded ones of the position's
    /// preset.
    Linear(Option<Arc<Weights>>),
    /// The network: this one, or the embedded one for the position's game
    /// ([`Net::embedded_for`]; the linear model where no network was trained).
    Net(Option<Arc<Net>>),
}

impl Default for Model {
    fn default() -> Model {
        Model::Linear(None)
    }
}

impl Model {
    /// Reads weights or a network from JSON (a network is told by its
    /// `hidden` field).
    pub fn from_json(text: &str) -> Result<Model, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("bad weights: {e}"))?;
        if value.get("hidden").is_some() {
            Ok(Model::Net(Some(Arc::new(Net::from_json(text)?))))
        } else {
            Ok(Model::Linear(Some(Arc::new(Weights::from_json(text)?))))
        }
    }

    /// The evaluation for positions of the game `pos` is in, looked up once (a
    /// bot does it once per decision).
    pub fn resolve(&self, pos: &Position) -> Resolved<'_> {
        let preset = pos.rules().preset;
        match self {
            Model::Linear(Some(w)) => Resolved::Linear(w),
            Model::Linear(None) => Resolved::Linear(Weights::embedded(preset)),
            Model::Net(Some(n)) => Resolved::Net(n),
            Model::Net(None) => match Net::embedded_for(pos) {
                Some(n) => Resolved::Net(n),
                None => Resolved::Linear(Weights::embedded(preset)),
            },
        }
    }
}

/// A [`Model`] looked up for one game.
#[derive(Clone, Copy, Debug)]
pub enum Resolved<'a> {
    /// The linear model with these weights.
    Linear(&'a Weights),
    /// This network.
    Net(&'a Net),
}

impl Evaluator for Resolved<'_> {
    fn win_chance(&self, pos: &Position, side: Side) -> f64 {
        match self {
            Resolved::Linear(w) => win_chance_with(pos, side, w),
            Resolved::Net(n) => n.win_chance(pos, side),
        }
    }

    fn play_units(&self) -> usize {
        match self {
            Resolved::Linear(w) => w.play_units(),
            Resolved::Net(n) => n.play_units(),
        }
    }
}
