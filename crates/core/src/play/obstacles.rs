//! What stands in a colour's way: blocks (`blockade=block`) and blockades of
//! enemy pieces past half way (`blockade=past-half`), as masks over the colour's
//! progress numbers, one per unit size.

use crate::board::{self, HALF, HOME, LOOP_END, START};
use crate::position::Position;
use crate::rules::Blockade;
use crate::Colour;

use super::node::Node;
use super::MOVED;

/// What stands in the way of a colour: for each unit size 1–4, a mask over the
/// colour's progress values that such a unit may neither pass nor land on because
/// of a block or a bigger blockade, and the blockade sizes.
#[derive(Clone, Copy)]
pub(crate) struct Obstacles {
    /// Index = unit size; bit = progress.
    pub(super) mask: [u128; 5],
    pub(super) any: bool,
    /// Squares where pieces of other colours stand (landing there needs a closer look).
    pub(crate) others: u128,
}

/// The obstacles in the way of colour `a`.
pub(crate) fn obstacles(pos: &Position, a: Colour) -> Obstacles {
    let them = pos.present.0 & !(1 << a.index());
    let mut others = 0u128;
    for c in 0..4 {
        // Every colour's squares, kept where the colour is another present
        // (without a branch on which colours those are).
        let keep = 0u128.wrapping_sub(u128::from((them >> c) & 1));
        others |= squares_of(pos, c) & keep;
    }
    // Only a square of two or more enemy pieces with none short of half way
    // (or at the loop's end) can be a blockade: the squares of two or more
    // pieces past half way are found, and `blockade_size` refuses those where
    // one short of it stands too.
    let mut more = 0u128;
    if pos.rules.blockade == Blockade::PastHalf {
        let enemies = enemies(pos, a);
        let mut one = 0u128;
        for c in 0..4 {
            if enemies & (1 << c) == 0 {
                continue;
            }
            let (c_one, c_more) = past_of(pos, c);
            more |= c_more | (one & c_one);
            one |= c_one;
        }
    }
    finish(pos, a, others, more)
}

/// The squares where colour `c`'s pieces stand.
#[inline(always)]
fn squares_of(pos: &Position, c: usize) -> u128 {
    let [p, q, r, s] = pos.pieces[c & 3];
    board::square_bit(c, p & !MOVED)
        | board::square_bit(c, q & !MOVED)
        | board::square_bit(c, r & !MOVED)
        | board::square_bit(c, s & !MOVED)
}

/// The squares of colour `c`'s pieces past half way and short of the
/// loop's end (those that may stand in a blockade), and those of two or
/// more of them.
#[inline(always)]
fn past_of(pos: &Position, c: usize) -> (u128, u128) {
    let (mut one, mut more) = (0u128, 0u128);
    for &raw in &pos.pieces[c & 3] {
        let bit = board::past_square_bit(c, raw & !MOVED);
        more |= one & bit;
        one |= bit;
    }
    (one, more)
}

/// The colours (bit i: colour i) of `a`'s enemies in the game: the other
/// team's, or every other colour's.
#[inline]
fn enemies(pos: &Position, a: Colour) -> u8 {
    let same = if pos.teams {
        0b0101 << (a.index() & 1)
    } else {
        1 << a.index()
    };
    pos.present.0 & !same
}

/// The obstacles in the way of `a`, from where the other colours stand
/// (`others`) and the squares of two or more enemy pieces past half way
/// (`more`, past-half blockades only).
#[inline(always)]
fn finish(pos: &Position, a: Colour, others: u128, mut more: u128) -> Obstacles {
    let mut o = Obstacles {
        mask: [0; 5],
        any: false,
        others,
    };
    let ai = a.index();
    match pos.rules.blockade {
        Blockade::None => {}
        Blockade::Block => {
            let mut m = 0u128;
            // Most often nobody has a block: one look at all eight.
            if u64::from_le_bytes(*pos.blocks.as_flattened().first_chunk().unwrap_or(&[0; 8])) != 0
            {
                for c in 0..4 {
                    if pos.present.0 & (1 << c) == 0 {
                        continue;
                    }
                    for &b in &pos.blocks[c] {
                        if b == 0 {
                            continue;
                        }
                        if c == ai {
                            m |= 1u128 << (b & 0x7f);
                        } else {
                            m |= board::progress_bits(ai, board::sq(c, b));
                        }
                    }
                }
            }
            o.mask = [m; 5];
            o.any = m != 0;
        }
        Blockade::PastHalf => {
            while more != 0 {
                let s = more.trailing_zeros() as u8;
                more &= more - 1;
                let count = blockade_size(pos, a, s);
                if count >= 2 {
                    // A blockade of n pieces stops units of fewer than n.
                    let bits = board::progress_bits(ai, s);
                    for k in 1..(count.min(5) as usize) {
                        o.mask[k] |= bits;
                    }
                    o.any = true;
                }
            }
        }
    }
    o
}

/// Where each colour's pieces stand, kept from one call of
/// [`Standing::obstacles`] to the next for the colours whose pieces have not
/// moved since: a playout's turns each move one colour or two, so the
/// obstacles of the next turn need the squares of one or two colours
/// found again, not of all three others.
#[derive(Clone, Copy, Default)]
pub(crate) struct Standing {
    /// Which colours' squares below are known (bit i: colour i).
    known: u8,
    /// Per colour, the pieces (as a little-endian word) they were found from.
    words: [u32; 4],
    /// Per colour, the squares its pieces stand on.
    squares: [u128; 4],
    /// Per colour, the squares of its pieces past half way and short of
    /// the loop's end, and those of two or more of them.
    past: [(u128, u128); 4],
}

impl Standing {
    /// [`obstacles`]`(pos, a)`, with the squares of colours whose pieces
    /// are as they were last time taken from then.
    #[inline]
    pub(crate) fn obstacles(&mut self, pos: &Position, a: Colour) -> Obstacles {
        let ai = a.index();
        let others = pos.present.0 & !(1 << ai);
        let past_half = pos.rules.blockade == Blockade::PastHalf;
        for c in 0..4 {
            let word = u32::from_le_bytes(pos.pieces[c]);
            if others & (1 << c) == 0 || (self.known & (1 << c) != 0 && self.words[c] == word) {
                continue;
            }
            self.known |= 1 << c;
            self.words[c] = word;
            self.squares[c] = squares_of(pos, c);
            self.past[c] = if past_half { past_of(pos, c) } else { (0, 0) };
        }
        let mut on = 0u128;
        for c in 0..4 {
            if others & (1 << c) != 0 {
                on |= self.squares[c];
            }
        }
        let mut more = 0u128;
        if past_half {
            let enemies = enemies(pos, a);
            let mut one = 0u128;
            for c in 0..4 {
                if enemies & (1 << c) != 0 {
                    let (c_one, c_more) = self.past[c];
                    more |= c_more | (one & c_one);
                    one |= c_one;
                }
            }
        }
        finish(pos, a, on, more)
    }
}

/// The obstacles last computed and what they depend on (the actor, the pieces of
/// every other colour, the blocks): within a turn they change only when a step
/// captures or a block forms or breaks.
#[derive(Default)]
pub(crate) struct ObstacleCache {
    last: Option<((u8, u128, u128), Obstacles)>,
    /// Counts the obstacle tables made (and resets): it names the table in use.
    /// Within one listing, two nodes given the same generation have the same actor,
    /// the same pieces of every other colour, the same blocks and (as only captures
    /// change it) the same captures.
    generation: u32,
}

impl ObstacleCache {
    /// The obstacles in the way of the node's actor, with the table's generation
    /// (the `generation` field says what it guarantees).
    pub(crate) fn table(&mut self, node: &Node) -> (u32, &Obstacles) {
        let (pieces, blocks, _) = node.pos.key();
        let own = 0xffff_ffffu128 << (32 * node.actor.index());
        let key = (node.actor as u8, pieces & !own, blocks);
        if self.last.as_ref().map(|(k, _)| k) != Some(&key) {
            self.last = None;
            self.generation = self.generation.wrapping_add(1);
        }
        let generation = self.generation;
        (
            generation,
            &self
                .last
                .get_or_insert_with(|| (key, obstacles(&node.pos, node.actor)))
                .1,
        )
    }

    /// Forgets the table (another position, perhaps under other rules). Answers
    /// whether the generations start again from zero (after about four billion),
    /// when whatever was remembered under them must be forgotten too.
    pub(crate) fn reset(&mut self) -> bool {
        self.last = None;
        if self.generation >= u32::MAX - (1 << 20) {
            self.generation = 0;
            return true;
        }
        self.generation += 1;
        false
    }
}

/// The enemy pieces on `s` as a blockade size (PastHalf), or 0 if they are none.
pub(super) fn blockade_size(pos: &Position, a: Colour, s: u8) -> u8 {
    let mut count = 0;
    let mut ok = true;
    for e in pos.present.iter() {
        if !pos.enemies(a, e) {
            continue;
        }
        for &raw in &pos.pieces[e.index()] {
            let p = raw & !MOVED;
            if p == START || p == HOME || board::sq(e.index(), p) != s {
                continue;
            }
            count += 1;
            ok &= p >= HALF && p != LOOP_END;
        }
    }
    if ok && count >= 2 {
        count
    } else {
        0
    }
}
