//! The [`Evaluator`] trait: what every player built on a static evaluation
//! asks of it (the chance that a side wins from a position, and which of some
//! positions is best for a side), with the one argmax every such player uses.
//!
//! The learned logistic model ([`Weights`]) implements it; the greedy players,
//! the expert's search, the rollouts, the review and the trainer all choose
//! through [`Evaluator::best_position`] or [`first_best`], so ties are broken
//! the same way everywhere: the first of the best values wins.

use chaupar_core::{Generator, Position};

use crate::eval::{win_chance_with, Side, Weights};

/// A static evaluation of positions.
///
/// Implementors give [`Evaluator::win_chance`]; choosing the best of several
/// positions has a default implementation built on it.
pub trait Evaluator {
    /// The estimated chance (0..1) that `side` wins from `pos`: exactly 1 or 0
    /// when the game is won or lost.
    fn win_chance(&self, pos: &Position, side: Side) -> f64;

    /// Work units (see [`crate::search::NODES_PER_MS`]) that generating and
    /// valuing one play costs with this evaluation: 1 for the linear model, on
    /// which the unit was measured; more for a slower one, so that a work budget
    /// stands for about the same time whatever evaluates.
    fn play_units(&self) -> usize {
        1
    }

    /// The first of `positions` with the highest [`Evaluator::win_chance`] for
    /// `side`, as its index and value, evaluated in order; `None` when there is
    /// none (or no value is above minus infinity).
    fn best_position<'a>(
        &self,
        side: Side,
        positions: impl IntoIterator<Item = &'a Position>,
    ) -> Option<(usize, f64)>
    where
        Self: Sized,
    {
        first_best(positions.into_iter().map(|p| self.win_chance(p, side)))
    }

    /// The index of the play a greedy player of `side` picks among the plays
    /// `gen` generated last: the first with the best value (0 when none).
    fn greedy_choice(&self, gen: &Generator, side: Side) -> usize
    where
        Self: Sized,
    {
        self.best_position(side, (0..gen.len()).map(|i| gen.position(i)))
            .map_or(0, |(i, _)| i)
    }
}

/// A reference evaluates as what it refers to.
impl<E: Evaluator> Evaluator for &E {
    fn win_chance(&self, pos: &Position, side: Side) -> f64 {
        (**self).win_chance(pos, side)
    }

    fn play_units(&self) -> usize {
        (**self).play_units()
    }
}

/// The learned logistic model of [`crate::eval`].
impl Evaluator for Weights {
    fn win_chance(&self, pos: &Position, side: Side) -> f64 {
        win_chance_with(pos, side, self)
    }
}

/// The index and value of the first highest of `values`, taken in order with
/// `>` (so a later equal value never displaces an earlier one, and NaN is never
/// chosen); `None` when no value is above minus infinity.
pub fn first_best(values: impl IntoIterator<Item = f64>) -> Option<(usize, f64)> {
    let mut best = None;
    let mut best_v = f64::NEG_INFINITY;
    for (i, v) in values.into_iter().enumerate() {
        if v > best_v {
            best_v = v;
            best = Some(i);
        }
    }
    best.map(|i| (i, best_v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chaupar_core::rules::Faces;
    use chaupar_core::{legal_plays, Preset, Rules, Team, Throw};

    #[test]
    fn the_first_of_equal_values_wins() {
        assert_eq!(first_best([0.2, 0.5, 0.5, 0.1]), Some((1, 0.5)));
        assert_eq!(first_best([f64::NAN, 0.3, f64::NAN]), Some((1, 0.3)));
        assert_eq!(first_best([f64::NEG_INFINITY, f64::NAN]), None);
        assert_eq!(first_best([]), None);
    }

    #[test]
    fn the_weights_evaluate_as_win_chance_with_and_pick_the_first_best_play() {
        let pos = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
        let w = Weights::embedded(Preset::Chaupar);
        let side = Side::Team(Team::YellowBlack);
        assert_eq!(w.win_chance(&pos, side), win_chance_with(&pos, side, w));
        let plays = legal_plays(&pos, Throw::new([6, 5, 1], Faces::F1256).unwrap()).unwrap();
        let values: Vec<f64> = plays
            .iter()
            .map(|p| win_chance_with(&p.position, side, w))
            .collect();
        let (i, v) = w
            .best_position(side, plays.iter().map(|p| &p.position))
            .unwrap();
        assert!(values.iter().all(|x| *x <= v));
        assert!(values[..i].iter().all(|x| *x < v));
        let mut gen = Generator::new();
        gen.generate(&pos, Throw::new([6, 5, 1], Faces::F1256).unwrap())
            .unwrap();
        assert_eq!(
            w.greedy_choice(&gen, side),
            w.best_position(side, (0..gen.len()).map(|k| gen.position(k)))
                .unwrap()
                .0
        );
    }
}
