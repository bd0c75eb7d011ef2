//! Why a piece cannot go to a square: the question a player asks by clicking a
//! piece and then a square, answered by the engine ([`Turn::why_not_move`]).
//!
//! A click names no unit size, die, pair or part, so the answer looks at every
//! step that could make that move and picks the reason the player needs to hear.
//! Only [`Turn`]'s public methods and public position and rules accessors are used.

use crate::board::{HOME, LOOP_END, LOOP_LEN, START};
use crate::rules::{ThrowUse, Tohd};
use crate::step::{Declare, Illegal, Step};
use crate::{Colour, Position, Turn};

impl Turn {
    /// Why a piece of `colour` at progress `from` cannot go to progress `to` now
    /// (0 the Charkoni, 84 home, as in [`Step::from`] and [`Step::to`]), or `None`
    /// when some step of [`Turn::legal_steps`] makes that move (any unit size, die,
    /// pair or part).
    ///
    /// It looks at every unit that could stand at `from` (a single, a whole
    /// super-piece or group, the top of a stack, a piece of a block) and every use of
    /// the dice left that covers the distance (a die, an equal pair, a part of the
    /// total; under `tohd=circle` a colour without a capture goes round the loop
    /// again, so the distance to a square a little behind the piece, within one
    /// throw's reach, is counted round the loop), asks [`Turn::why_not`] about each such step and answers with the most
    /// telling reason, ranked so:
    ///
    /// 1. the turn: [`Illegal::GameOver`], [`Illegal::TurnOver`];
    /// 2. the piece clicked: not this colour's part of the turn, no piece there,
    ///    already home, already moved this turn;
    /// 3. the board: the square is not ahead of the piece ([`Illegal::NotAhead`]),
    ///    tohd (no capture yet, so not up the middle column or home), team order,
    ///    overshoot, a block or blockade on the way, an own block, a block, an
    ///    immune block, a safe square or a blockade on the square, a bigger enemy
    ///    stack there;
    /// 4. the use of the throw: an overdue block must be broken, the move would
    ///    leave more of the throw unused than necessary ([`Illegal::MustUseMore`],
    ///    also for a step [`Turn::why_not`] allows but the turn could not then use
    ///    the throw fully), and last no die, pair or part left makes the distance
    ///    (said with the numbers; going home, [`Illegal::Overshoot`] when the dice
    ///    left are bigger than the count needed);
    /// 5. the unit's shape (one at a time from the Charkoni, a super-piece moves
    ///    whole, a block moves apart, a group needs a pair), heard only when no
    ///    unit of any size gets further.
    ///
    /// Among reasons of one rank the biggest unit's is given. Never panics: any
    /// colour and any `from` and `to` get an answer.
    pub fn why_not_move(&self, colour: Colour, from: u8, to: u8) -> Option<Illegal> {
        let legal = self.legal_steps();
        if legal
            .iter()
            .any(|s| s.colour == colour && s.from == from && s.to == to)
        {
            return None;
        }
        let pos = self.current();
        let total = pos.rules().throw == ThrowUse::Total;
        // One step of every unit size and use of the dice that could make the move.
        let candidate = |pieces: u8, by: u8, pair: bool| Step {
            dice: if total { 0 } else { 1 + pair as u8 },
            declare: None,
            colour,
            from,
            to,
            pieces,
            by,
        };
        // Reasons about the turn or the piece do not depend on the destination.
        let probe = candidate(1, 1, false);
        if let Some(why) = self.why_not(&probe) {
            if rank(&why) >= PIECE {
                return Some(why);
            }
        }
        let by = match distance(&pos, colour, from, to) {
            Ok(by) => by,
            Err(why) => return Some(why),
        };
        let size = pos.count_at(colour, from).clamp(1, 4) as u8;
        let mut best: Option<Illegal> = None;
        let mut consider = |why: Illegal| {
            let better = match &best {
                Some(b) => rank(&why) > rank(b),
                None => true,
            };
            if better {
                best = Some(why);
            }
        };
        for pieces in (1..=size).rev() {
            // An equal pair moves two or more pieces by an even distance.
            let uses: &[bool] = if !total && pieces >= 2 && by % 2 == 0 {
                &[false, true]
            } else {
                &[false]
            };
            for &pair in uses {
                let step = candidate(pieces, by, pair);
                match self.why_not(&step) {
                    Some(Illegal::Declare { needed: true }) => {
                        for d in [Declare::Super, Declare::Block] {
                            let declared = Step {
                                declare: Some(d),
                                ..step
                            };
                            consider(self.why_not(&declared).unwrap_or(Illegal::MustUseMore));
                        }
                    }
                    why => consider(why.unwrap_or(Illegal::MustUseMore)),
                }
            }
        }
        let why = best.unwrap_or(Illegal::MustUseMore);
        Some(self.overshoot(why, from, to))
    }

    /// Going home, "no such die" is better said as an overshoot when the dice left
    /// are bigger than the count needed.
    fn overshoot(&self, why: Illegal, from: u8, to: u8) -> Illegal {
        let need = HOME.saturating_sub(from);
        let no_die = matches!(why, Illegal::NoSuchDie { .. } | Illegal::NoPair { .. });
        if no_die && to == HOME && self.dice_left().iter().any(|d| *d > need) {
            Illegal::Overshoot { need }
        } else {
            why
        }
    }
}

/// The distance from `from` to `to` along `colour`'s track as it goes now, or why
/// no distance leads there.
fn distance(pos: &Position, colour: Colour, from: u8, to: u8) -> Result<u8, Illegal> {
    let rules = pos.rules();
    let circles = rules.tohd == Tohd::Circle
        && !pos.has_captured(colour)
        && from != START
        && from <= LOOP_END;
    if to > HOME {
        return Err(Illegal::NotAhead);
    }
    if circles {
        if to > LOOP_END {
            return Err(Illegal::NoCapture { colour });
        }
        // Round the loop again: past 75 it goes on to the tip and 9, 10, ... A square
        // behind the piece counts as ahead, round the loop, only within a throw's reach.
        let round = (to + LOOP_LEN).saturating_sub(from);
        let reach = 3 * rules.faces.values().into_iter().max().unwrap_or(6);
        if to < from && to + LOOP_LEN > LOOP_END && round <= reach {
            return Ok(round);
        }
    }
    if to > from {
        Ok(to - from)
    } else {
        Err(Illegal::NotAhead)
    }
}

/// The least rank of reasons about the turn or the piece clicked.
const PIECE: u8 = 80;

/// How much a player needs to hear a reason: the higher, the more telling (see
/// [`Turn::why_not_move`]). Every variant is ranked here on purpose.
fn rank(why: &Illegal) -> u8 {
    use Illegal::*;
    match why {
        // The turn.
        GameOver | TurnOver => 90,
        // The piece clicked.
        NotYourPart { .. } | NoPiece { .. } | AtHome | AlreadyMoved => PIECE,
        // The board.
        NotAhead => 70,
        NoCapture { .. } => 69,
        TeamOrder { .. } => 68,
        Overshoot { .. } => 67,
        BlockOnPath { .. } => 66,
        BlockadeOnPath { .. } => 65,
        OwnBlock => 64,
        BlockThere => 63,
        BlockImmune { .. } => 62,
        SafeSquare { .. } => 61,
        BlockadeThere { .. } => 60,
        BiggerEnemy { .. } => 59,
        WrongDestination { .. } => 50,
        // The use of the throw.
        MustBreakBlock { .. } => 41,
        MustUseMore => 40,
        NoSuchDie { .. } | NoPair { .. } | PartTooBig { .. } => 30,
        // The unit's shape.
        Declare { .. } => 20,
        BadSize { .. } | OneAtATime | StackMovesWhole { .. } | BlockMovesApart | GroupNeedsPair => {
            10
        }
    }
}
