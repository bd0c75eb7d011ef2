//! Game review: every play's loss against the best, its verdict, each side's
//! error rate, and the luck of every throw.
//!
//! - *Loss*: the best play's estimated win chance minus the played one's, both
//!   as [`crate::rank_plays`] ranks them.
//! - *Verdict* thresholds (loss in win chance): below [`DOUBTFUL`] fine;
//!   from 0.02 doubtful, from [`BAD`] (0.05) bad, from [`VERY_BAD`] (0.10) very bad.
//! - *Error rate*: a side's mean loss per unforced play (a play with more than one
//!   choice), as a fraction of a game; also the count of doubtful-or-worse plays.
//! - *Luck*: the best static value the mover could reach with the actual throw
//!   minus the mean of the same over all 64 throws.

use chaupar_core::dice::distinct_throws;
use chaupar_core::{notation, Colour, Game, Generator, Position, Throw};
use serde::Serialize;

use crate::eval::{sides, Side};
use crate::evaluator::Evaluator;
use crate::model::Model;
use crate::search::SearchConfig;

/// Loss from which a play is doubtful.
pub const DOUBTFUL: f64 = 0.02;
/// Loss from which a play is bad.
pub const BAD: f64 = 0.05;
/// Loss from which a play is very bad.
pub const VERY_BAD: f64 = 0.10;

/// The verdict on a loss.
pub fn verdict(loss: f64) -> &'static str {
    if loss >= VERY_BAD {
        "very bad"
    } else if loss >= BAD {
        "bad"
    } else if loss >= DOUBTFUL {
        "doubtful"
    } else {
        ""
    }
}

/// One reviewed turn.
#[derive(Clone, Debug, Serialize)]
pub struct TurnReview {
    /// Turn number from 1.
    pub turn: usize,
    /// Who threw.
    pub colour: String,
    /// The throw.
    pub throw: String,
    /// The play made, in notation.
    pub played: String,
    /// The best play, in notation.
    pub best: String,
    /// Distinct plays available.
    pub choices: usize,
    /// Estimated win chance after the play made.
    pub win: f64,
    /// Estimated win chance after the best play.
    pub best_win: f64,
    /// Best minus made.
    pub loss: f64,
    /// "", "doubtful", "bad" or "very bad".
    pub verdict: String,
    /// Luck of the throw (see the module documentation).
    pub luck: f64,
    /// Whether `win` and `best_win` are exact: every play led to a column race
    /// ([`crate::race`]).
    pub exact: bool,
}

/// One side's totals.
#[derive(Clone, Debug, Serialize)]
pub struct SideReview {
    /// The side's name.
    pub side: String,
    /// Plays with more than one choice.
    pub unforced: usize,
    /// Sum of losses.
    pub total_loss: f64,
    /// Mean loss per unforced play.
    pub error_rate: f64,
    /// Doubtful plays.
    pub doubtful: usize,
    /// Bad plays.
    pub bad: usize,
    /// Very bad plays.
    pub very_bad: usize,
    /// Sum of the luck of its throws.
    pub luck: f64,
}

/// A reviewed game.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The turns.
    pub turns: Vec<TurnReview>,
    /// The sides.
    pub sides: Vec<SideReview>,
}

/// The mover's best static value over every play of each throw.
fn best_static<E: Evaluator>(
    gen: &mut Generator,
    pos: &Position,
    throw: Throw,
    side: Side,
    w: &E,
) -> f64 {
    match gen.generate(pos, throw) {
        Ok(n) => w
            .best_position(side, (0..n).map(|i| gen.position(i)))
            .map_or(f64::NEG_INFINITY, |(_, v)| v),
        Err(_) => w.win_chance(pos, side),
    }
}

/// Reviews a game with these search settings (`candidates: 0` for the static
/// evaluation alone, fast).
pub fn review(game: &Game, config: &SearchConfig) -> Review {
    review_until(game, config, &|| false)
}

/// [`review`], stopping before the next turn once `stop` says so (the server
/// stops the review of a client that has gone): the turns reviewed so far.
pub fn review_until(game: &Game, config: &SearchConfig, stop: &dyn Fn() -> bool) -> Review {
    let start = *game.start();
    // Luck is measured with the evaluation the plays are ranked by.
    let model = Model::Net(None);
    let weights = &model.resolve(&start);
    let mut gen = Generator::new();
    let mut pos = start;
    let mut turns = Vec::new();
    for (k, t) in game.turns().iter().enumerate() {
        if stop() {
            break;
        }
        let mover = pos.to_move().unwrap_or(Colour::Yellow);
        let side = Side::of(&pos, mover);
        let plays = chaupar_core::legal_plays(&pos, t.throw).unwrap_or_default();
        let choices = plays.len();
        let played_text = notation::play_text(&pos, t.throw, &t.steps);
        let ranked = crate::rank_plays(&pos, plays, config);
        let (win, best_win, best_text) = match ranked.first() {
            Some(b) => {
                let mine = ranked
                    .iter()
                    .find(|r| r.play.position == t.after)
                    .map(|r| r.win)
                    .unwrap_or(b.win);
                (
                    mine,
                    b.win,
                    notation::play_text(&pos, t.throw, &b.play.steps),
                )
            }
            None => (0.5, 0.5, String::new()),
        };
        let loss = (best_win - win).max(0.0);
        let exact = !ranked.is_empty() && ranked.iter().all(|r| r.exact);
        // Luck.
        let actual = best_static(&mut gen, &pos, t.throw, side, weights);
        let mut mean = 0.0;
        for (th, n) in distinct_throws(pos.rules().faces) {
            mean += n as f64 / 64.0 * best_static(&mut gen, &pos, th, side, weights);
        }
        turns.push(TurnReview {
            turn: k + 1,
            colour: mover.name().into(),
            throw: t.throw.to_string(),
            played: played_text,
            best: best_text,
            choices,
            win,
            best_win,
            loss,
            verdict: if choices > 1 { verdict(loss) } else { "" }.into(),
            luck: actual - mean,
            exact,
        });
        pos = t.after;
    }
    let mut out_sides = Vec::new();
    for s in sides(&start) {
        let mine: Vec<&TurnReview> = turns
            .iter()
            .filter(|t| {
                t.colour
                    .parse::<Colour>()
                    .map(|c| s.has(c))
                    .unwrap_or(false)
            })
            .collect();
        let unforced: Vec<&&TurnReview> = mine.iter().filter(|t| t.choices > 1).collect();
        let total_loss: f64 = unforced.iter().map(|t| t.loss).sum();
        out_sides.push(SideReview {
            side: s.name().into(),
            unforced: unforced.len(),
            total_loss,
            error_rate: if unforced.is_empty() {
                0.0
            } else {
                total_loss / unforced.len() as f64
            },
            doubtful: unforced.iter().filter(|t| t.verdict == "doubtful").count(),
            bad: unforced.iter().filter(|t| t.verdict == "bad").count(),
            very_bad: unforced.iter().filter(|t| t.verdict == "very bad").count(),
            luck: mine.iter().map(|t| t.luck).sum(),
        });
    }
    Review {
        turns,
        sides: out_sides,
    }
}

impl Review {
    /// The review as text for people.
    pub fn text(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "{:>4} {:<7} {:<6} {:<28} {:>6} {:>7} {:<9} {:>7}  best\n",
            "turn", "colour", "throw", "played", "win%", "loss", "verdict", "luck"
        ));
        for t in &self.turns {
            s.push_str(&format!(
                "{:>4} {:<7} {:<6} {:<28} {:>6.1} {:>7.3} {:<9} {:>+7.3}  {}\n",
                t.turn,
                t.colour,
                t.throw,
                t.played,
                100.0 * t.win,
                t.loss,
                t.verdict,
                t.luck,
                match (t.loss > 0.0, t.exact) {
                    (true, true) => format!("{}  (exact)", t.best),
                    (true, false) => t.best.clone(),
                    (false, true) => "(exact)".into(),
                    (false, false) => String::new(),
                }
            ));
        }
        s.push_str(&format!(
            "\nthresholds (loss in win chance): doubtful >= {DOUBTFUL}, bad >= {BAD}, very bad >= {VERY_BAD}\n"
        ));
        for d in &self.sides {
            s.push_str(&format!(
                "{}: {} unforced plays, error rate {:.4} per unforced play (total loss {:.3}), {} doubtful, {} bad, {} very bad; luck {:+.3}\n",
                d.side, d.unforced, d.error_rate, d.total_loss, d.doubtful, d.bad, d.very_bad, d.luck
            ));
        }
        s
    }
}
