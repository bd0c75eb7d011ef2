//! Reading a listing's plays without the whole dead-game check where the turn
//! cannot have changed its answer: at the start of the turn the colour that
//! throws next has a unit one square from a free square ([`free_step`]); after a
//! play that leaves that colour as it stood and moves no piece onto the square,
//! the step is still there, so the game goes on.

use crate::board;
use crate::position::{Outcome, Position};
use crate::Colour;

use super::steps::free_step;

/// A step onto a free square of the colour that throws after the turn, found
/// at the turn's start, with what it depends on.
#[derive(Clone, Copy, Debug)]
pub(super) struct Alive {
    colour: Colour,
    pieces: [u8; 4],
    blocks: [u8; 2],
    captured: bool,
    /// Whether the step goes home (no square to keep free).
    home: bool,
    /// The colours whose pieces may move in the turn (the thrower, and his
    /// partner, who may take passed points or throw for him), each with its
    /// progress values on the square the step lands on (0 none): the first
    /// `movers` of these. Every other piece can only leave its square
    /// (captured).
    onto: [(u8, [u8; 2]); 2],
    movers: u8,
}

impl Alive {
    /// The step of the colour after the thrower of `start`, if it has one.
    pub(super) fn at(start: &Position) -> Option<Alive> {
        let mover = start.to_move?;
        let next = start.next_after(mover);
        if next == mover {
            return None;
        }
        let square = free_step(start, next)?;
        let mut onto = [(0u8, [0u8; 2]); 2];
        let mut movers = 0;
        if square != 0 {
            let s = square.trailing_zeros() as u8;
            let partner = mover.partner();
            for c in [mover, partner] {
                if c != next && (c == mover || start.teams) {
                    let ci = c.index();
                    onto[movers] = (ci as u8, board::progress_on_raw(ci, s));
                    movers += 1;
                }
            }
        }
        let ni = next.index();
        Some(Alive {
            colour: next,
            pieces: start.pieces[ni],
            blocks: start.blocks[ni],
            captured: start.captured.has(next),
            home: square == 0,
            onto,
            movers: movers as u8,
        })
    }

    /// Whether `end`, a position at the end of the turn, surely goes on: its
    /// next thrower is that colour, standing as it stood (pieces, blocks, whether
    /// it has captured), and no piece that may have moved stands on the square.
    /// (Team order only loosens as partners finish, so it cannot forbid the step.)
    pub(super) fn holds(&self, end: &Position) -> bool {
        let ci = self.colour.index();
        if end.outcome != Outcome::Ongoing
            || end.to_move != Some(self.colour)
            || end.pieces[ci] != self.pieces
            || end.blocks[ci] != self.blocks
            || end.captured.has(self.colour) != self.captured
        {
            return false;
        }
        if self.home {
            return true;
        }
        // No piece of a colour that may have moved stands on the square: no
        // byte of its pieces' word is one of the square's progress values.
        let has = |word: u32, v: u8| {
            let x = word ^ (v as u32 * 0x0101_0101);
            v != 0 && x.wrapping_sub(0x0101_0101) & !x & 0x8080_8080 != 0
        };
        self.onto[..self.movers as usize]
            .iter()
            .all(|&(c, [x, y])| {
                let word = u32::from_le_bytes(end.pieces[c as usize & 3]);
                !has(word, x) && !has(word, y)
            })
    }
}
