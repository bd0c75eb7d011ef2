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
    let mut o = Obstacles {
        mask: [0; 5],
        any: false,
        others: 0,
    };
    let ai = a.index();
    for c in 0..4 {
        if c == ai || pos.present.0 & (1 << c) == 0 {
            continue;
        }
        for &raw in &pos.pieces[c] {
            o.others |= board::square_bit(c, raw & !MOVED);
        }
    }
    match pos.rules.blockade {
        Blockade::None => {}
        Blockade::Block => {
            let mut m = 0u128;
            for c in pos.present.iter() {
                for &b in &pos.blocks[c.index()] {
                    if b == 0 {
                        continue;
                    }
                    if c == a {
                        m |= 1u128 << b;
                    } else {
                        m |= board::progress_bits(a.index(), board::sq(c.index(), b));
                    }
                }
            }
            o.mask = [m; 5];
            o.any = m != 0;
        }
        Blockade::PastHalf => {
            // Only a square of two or more enemy pieces with none short of
            // half way (or at the loop's end) can be a blockade: the squares
            // of two or more pieces past half way are found, and
            // `blockade_size` refuses those where one short of it stands too.
            let (mut one, mut more) = (0u128, 0u128);
            for e in pos.present.iter() {
                if !pos.enemies(a, e) {
                    continue;
                }
                let ei = e.index();
                for &raw in &pos.pieces[ei] {
                    let p = raw & !MOVED;
                    if p >= HALF && p != LOOP_END {
                        // No bit home.
                        let bit = board::square_bit(ei, p);
                        more |= one & bit;
                        one |= bit;
                    }
                }
            }
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
