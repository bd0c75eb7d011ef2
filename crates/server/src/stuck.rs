//! Why a piece cannot move at all: the question a player asks by clicking a
//! piece that no legal step moves. The engine answers for one destination
//! ([`Turn::why_not_move`]); here every distance the throw left could make is
//! asked, and the reason the player most needs is kept.

use chaupar_core::board::HOME;
use chaupar_core::rules::ThrowUse;
use chaupar_core::{Colour, Illegal, Turn};

/// Why no step moves the piece of `colour` at progress `from` now, or `None`
/// when some legal step does.
///
/// Each distance the throw left could make (a die, a sum of dice, or under a
/// split total every part of the points left) is asked as a move to
/// `from + distance` (home at most). A reason about the board (tohd, team
/// order, a block, a bigger stack, overshooting home, ...) comes before one
/// about the unit's shape, before "the throw must be used more fully", before
/// one about the dice; among reasons of one kind the shortest distance's is
/// kept. Reasons about the piece itself (not its part of the turn, nothing
/// there, already home or already moved) are the same for every distance.
pub fn why_stuck(turn: &Turn, colour: Colour, from: u8) -> Option<Illegal> {
    if turn
        .legal_steps()
        .iter()
        .any(|s| s.colour == colour && s.from == from)
    {
        return None;
    }
    let mut best: Option<(u8, Illegal)> = None;
    for by in distances(turn) {
        let to = from.saturating_add(by).min(HOME);
        let Some(why) = turn.why_not_move(colour, from, to) else {
            continue;
        };
        let k = kind(&why);
        if k == PIECE {
            return Some(why);
        }
        if best.as_ref().is_none_or(|(b, _)| k > *b) {
            best = Some((k, why));
        }
    }
    // No distance at all (nothing left of the throw): the engine's own answer.
    best.map(|(_, why)| why)
        .or_else(|| turn.why_not_move(colour, from, from.saturating_add(1).min(HOME)))
}

/// Every distance the throw left can make, shortest first (at most 30).
fn distances(turn: &Turn) -> Vec<u8> {
    let pos = turn.current();
    let mut out: Vec<u8> = if pos.rules().throw == ThrowUse::Total {
        (1..=turn.points_left()).collect()
    } else {
        let dice = turn.dice_left();
        let mut sums = vec![0u8];
        for d in dice {
            let more: Vec<u8> = sums.iter().map(|s| s.saturating_add(d)).collect();
            sums.extend(more);
        }
        sums.retain(|s| *s > 0);
        sums
    };
    out.sort_unstable();
    out.dedup();
    out.truncate(30);
    out
}

/// Reasons about the piece clicked: the same for every destination.
const PIECE: u8 = 4;

/// How much a reason tells a player who clicked a stuck piece (higher first).
fn kind(why: &Illegal) -> u8 {
    use Illegal::*;
    match why {
        GameOver | TurnOver | NotYourPart { .. } | NoPiece { .. } | AtHome | AlreadyMoved => PIECE,
        NoSuchDie { .. }
        | NoPair { .. }
        | PartTooBig { .. }
        | NotAhead
        | WrongDestination { .. } => 0,
        MustUseMore => 1,
        OneAtATime
        | StackMovesWhole { .. }
        | BlockMovesApart
        | GroupNeedsPair
        | BadSize { .. }
        | Declare { .. } => 2,
        _ => 3,
    }
}
