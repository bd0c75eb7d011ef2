//! A position: where every piece stands, blocks with their age, who has captured,
//! who throws next, and whether the game is over.
//!
//! A [`Position`] is small and `Copy`. It is only built through
//! [`crate::Setup::into_position`] (or [`Position::new`]), which checks everything a
//! position must satisfy, so a `Position` in hand is always one the rules can reach
//! or play from. This module depends only on the board, the rules and the colours.

use core::fmt;

use crate::board::{HOME, START};
use crate::rules::{Finished, Rules};
use crate::{Colour, Colours, Team};

/// Who won a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Winner {
    /// A team, in a team game.
    Team(Team),
    /// A colour, in a game where everyone plays for himself.
    Colour(Colour),
}

impl Winner {
    /// The name used in JSON: `yellow+black`, `red+green`, or a colour.
    pub fn name(self) -> &'static str {
        match self {
            Winner::Team(t) => t.name(),
            Winner::Colour(c) => c.name(),
        }
    }

    /// Whether `colour` is among the winners.
    pub fn includes(self, colour: Colour) -> bool {
        match self {
            Winner::Team(t) => colour.team() == t,
            Winner::Colour(c) => c == colour,
        }
    }
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Someone throws next.
    Ongoing,
    /// The game is won.
    Won(Winner),
    /// No colour can ever move again (possible with `tohd=home`): no winner.
    Dead,
}

/// A block: two undeclared pieces of one colour on one square (`classic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// Its owner.
    pub colour: Colour,
    /// Where it stands.
    pub progress: u8,
    /// How many of its owner's turns it has stood through.
    pub age: u8,
}

/// The oldest a block's age goes.
pub(crate) const MAX_AGE: u8 = 99;

/// A position of the game, 56 bytes. See the module documentation.
///
/// Laid out in this order (`repr(C)`, every field a byte or bytes): the
/// pieces are the first 16 bytes and the blocks with their ages the next
/// 16, so that a copy of a position, made 16 bytes at a time, hands each
/// of them on whole to a read of it as words just after (a word read
/// across two of the copy's writes waits for both to land).
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Position {
    /// Progress of each colour's four pieces, ascending. (Inside a turn the search
    /// marks pieces in bit 7: see `play::MOVED`.)
    pub(crate) pieces: [[u8; 4]; 4],
    /// Progress of each colour's blocks, 0 where none.
    pub(crate) blocks: [[u8; 2]; 4],
    /// Age of each block. (Inside a turn the search marks new blocks in bit 7:
    /// see `play::FRESH`.)
    pub(crate) ages: [[u8; 2]; 4],
    pub(crate) rules: Rules,
    pub(crate) players: u8,
    pub(crate) present: Colours,
    pub(crate) teams: bool,
    pub(crate) captured: Colours,
    pub(crate) to_move: Option<Colour>,
    pub(crate) extra_throw: bool,
    pub(crate) outcome: Outcome,
}

impl core::hash::Hash for Position {
    /// Hashes what changes during a game ([`Position::key`]) in a few words; the
    /// rules and seats are compared by `Eq` but left out of the hash, as they
    /// rarely differ.
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        let (pieces, blocks, tail) = self.key();
        state.write_u128(pieces);
        state.write_u128(blocks ^ ((tail as u128) << 64));
    }
}

/// A position's [`Position::key`].
pub(crate) type PositionKey = (u128, u128, u64);

impl Position {
    /// What changes during a game, in three words: the pieces, the blocks with
    /// their ages, and the rest (who has captured, who throws, the extra throw,
    /// whether the game goes on). Two positions of one game (the same rules and
    /// seats) are equal exactly when their keys are: who won follows from the
    /// pieces.
    #[inline]
    pub(crate) fn key(&self) -> PositionKey {
        let pieces = pieces_word(&self.pieces);
        let (b, a) = (&self.blocks, &self.ages);
        let pairs = |x: &[[u8; 2]; 4]| {
            (u16::from_le_bytes(x[0]) as u64)
                | (u16::from_le_bytes(x[1]) as u64) << 16
                | (u16::from_le_bytes(x[2]) as u64) << 32
                | (u16::from_le_bytes(x[3]) as u64) << 48
        };
        let blocks = (pairs(b) as u128) | (pairs(a) as u128) << 64;
        let tail = (self.captured.0 as u64)
            | (self.to_move.map_or(7, |c| c as u64) << 8)
            | ((self.extra_throw as u64) << 16)
            | (match self.outcome {
                Outcome::Ongoing => 0,
                Outcome::Dead => 1,
                Outcome::Won(_) => 2,
            } << 24);
        (pieces, blocks, tail)
    }
}

impl Position {
    /// The rules of this game.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of players.
    #[inline]
    pub fn players(&self) -> u8 {
        self.players
    }

    /// The colours on the board.
    #[inline]
    pub fn colours(&self) -> Colours {
        self.present
    }

    /// Whether the colours play in two teams.
    #[inline]
    pub fn has_teams(&self) -> bool {
        self.teams
    }

    /// Who throws next, or `None` when the game is over.
    #[inline]
    pub fn to_move(&self) -> Option<Colour> {
        self.to_move
    }

    /// Whether the colour to move is throwing again after a capture.
    #[inline]
    pub fn extra_throw(&self) -> bool {
        self.extra_throw
    }

    /// Whether the game goes on, was won, or is dead.
    #[inline]
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The winner, once the game is won.
    #[inline]
    pub fn winner(&self) -> Option<Winner> {
        match self.outcome {
            Outcome::Won(w) => Some(w),
            _ => None,
        }
    }

    /// The four progress numbers of a colour's pieces, ascending (empty if it does not play).
    #[inline]
    pub fn pieces(&self, colour: Colour) -> &[u8] {
        if self.present.has(colour) {
            &self.pieces[colour.index()]
        } else {
            &[]
        }
    }

    /// Whether the colour has captured at least once.
    #[inline]
    pub fn has_captured(&self, colour: Colour) -> bool {
        self.captured.has(colour)
    }

    /// The colours that have captured.
    #[inline]
    pub fn captured(&self) -> Colours {
        self.captured
    }

    /// The blocks on the board.
    pub fn blocks(&self) -> impl Iterator<Item = Block> + '_ {
        Colour::ALL.into_iter().flat_map(move |c| {
            (0..2).filter_map(move |i| {
                let p = self.blocks[c.index()][i];
                (p != 0).then_some(Block {
                    colour: c,
                    progress: p,
                    age: self.ages[c.index()][i],
                })
            })
        })
    }

    /// Whether there is a block of `colour` at `progress`.
    #[inline]
    pub fn is_block(&self, colour: Colour, progress: u8) -> bool {
        // (Both compared at once: `contains` on two bytes goes through a
        // general byte search.)
        let [x, y] = self.blocks[colour.index()];
        progress != 0 && (x == progress) | (y == progress)
    }

    /// Whether every piece of the colour is home.
    #[inline]
    pub fn finished(&self, colour: Colour) -> bool {
        self.present.has(colour) && self.pieces[colour.index()].iter().all(|p| *p == HOME)
    }

    /// How many pieces of the colour stand at this progress.
    #[inline]
    pub fn count_at(&self, colour: Colour, progress: u8) -> usize {
        self.pieces[colour.index()]
            .iter()
            .filter(|p| **p == progress)
            .count()
    }

    /// The stacks of a colour on the board: (progress, pieces), ascending
    /// (pieces waiting at the start and pieces home are listed one by one).
    /// Allocation-free.
    ///
    /// ```
    /// use chaupar_core::{notation::parse_position, Colour};
    /// let pos = parse_position("chaupar 4 y Y0,0,23,23/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -").unwrap();
    /// let stacks: Vec<(u8, u8)> = pos.stacks(Colour::Yellow).collect();
    /// assert_eq!(stacks, [(0, 1), (0, 1), (23, 2)]);
    /// ```
    #[inline]
    pub fn stacks(&self, colour: Colour) -> Stacks {
        let mut pieces = [0u8; 4];
        let own = self.pieces(colour);
        pieces[..own.len()].copy_from_slice(own);
        Stacks {
            pieces,
            len: own.len().min(4) as u8,
            next: 0,
        }
    }

    /// Whether `a` and `b` are on opposite sides.
    #[inline]
    pub fn enemies(&self, a: Colour, b: Colour) -> bool {
        a != b && (!self.teams || a.team() != b.team())
    }

    /// Total distance the colour's pieces still have to go.
    pub fn pip_count(&self, colour: Colour) -> u32 {
        self.pieces(colour).iter().map(|p| (HOME - p) as u32).sum()
    }

    pub(crate) fn sort_blocks(&mut self) {
        for c in 0..4 {
            let b = &mut self.blocks[c];
            let a = &mut self.ages[c];
            if b[1] != 0 && (b[0] == 0 || b[0] > b[1]) {
                b.swap(0, 1);
                a.swap(0, 1);
            }
        }
    }

    /// The colours on the board with every piece home, one bit per colour.
    #[inline]
    fn finished_bits(&self) -> u8 {
        let mut bits = 0;
        for c in 0..4 {
            if self.pieces[c] == [HOME; 4] {
                bits |= 1 << c;
            }
        }
        bits & self.present.0
    }

    pub(crate) fn judge_outcome(&self) -> Outcome {
        let done = self.finished_bits();
        if done == 0 {
            return Outcome::Ongoing;
        }
        if self.teams {
            for team in [Team::YellowBlack, Team::RedGreen] {
                if team.colours().iter().all(|c| done & (1 << *c as u8) != 0) {
                    return Outcome::Won(Winner::Team(team));
                }
            }
        } else {
            for c in self.present.iter() {
                if done & (1 << c as u8) != 0 {
                    return Outcome::Won(Winner::Colour(c));
                }
            }
        }
        Outcome::Ongoing
    }

    /// The next colour to throw after `c` has played, skipping finished colours
    /// where the rules skip them.
    pub(crate) fn next_after(&self, c: Colour) -> Colour {
        let mut n = c.next();
        for _ in 0..4 {
            if self.present.has(n) && !(self.rules.finished == Finished::Skip && self.finished(n)) {
                return n;
            }
            n = n.next();
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_compact_copy_values() {
        fn is_copy<T: Copy>() {}
        is_copy::<Position>();
        // docs/architecture.md says 56 bytes: change it with this.
        assert_eq!(core::mem::size_of::<Position>(), 56);
    }
}

/// Sorts a colour's four pieces ascending (a sorting network of minima and
/// maxima, without branches: the hot paths sort after every step).
#[inline]
pub(crate) fn sort4(a: &mut [u8; 4]) {
    let [mut w, mut x, mut y, mut z] = *a;
    #[inline(always)]
    fn cs(i: &mut u8, j: &mut u8) {
        let (lo, hi) = ((*i).min(*j), (*i).max(*j));
        *i = lo;
        *j = hi;
    }
    cs(&mut w, &mut x);
    cs(&mut y, &mut z);
    cs(&mut w, &mut y);
    cs(&mut x, &mut z);
    cs(&mut x, &mut y);
    *a = [w, x, y, z];
}

/// The pieces of every colour in one word, colour `c`'s in bytes `4c..4c + 4`.
#[inline]
pub(crate) fn pieces_word(p: &[[u8; 4]; 4]) -> u128 {
    let mut b = [0u8; 16];
    b.copy_from_slice(p.as_flattened());
    u128::from_le_bytes(b)
}

/// A word of [`pieces_word`] with the pieces of the colour of index `c`
/// (0–3) replaced by `lane` (four progress bytes).
#[inline]
pub(crate) fn with_lane(word: u128, c: usize, lane: u32) -> u128 {
    let shift = 32 * (c as u32 & 3);
    word & !(0xffff_ffffu128 << shift) | (lane as u128) << shift
}

/// The pieces of every colour from a word of [`pieces_word`].
#[inline]
pub(crate) fn pieces_of(word: u128) -> [[u8; 4]; 4] {
    let b = word.to_le_bytes();
    [
        [b[0], b[1], b[2], b[3]],
        [b[4], b[5], b[6], b[7]],
        [b[8], b[9], b[10], b[11]],
        [b[12], b[13], b[14], b[15]],
    ]
}

/// The stacks of one colour, from [`Position::stacks`]: `(progress, pieces)`.
#[derive(Clone, Copy, Debug)]
pub struct Stacks {
    pieces: [u8; 4],
    len: u8,
    next: u8,
}

impl Iterator for Stacks {
    type Item = (u8, u8);

    #[inline]
    fn next(&mut self) -> Option<(u8, u8)> {
        let i = self.next as usize;
        let len = self.len as usize;
        let &p = self.pieces[..len].get(i)?;
        let mut n = 1;
        if p != START && p != HOME {
            while i + n < len && self.pieces[i + n] == p {
                n += 1;
            }
        }
        self.next += n as u8;
        Some((p, n as u8))
    }
}
