//! Applying a step (moving the unit, capturing, declaring, using the dice) and
//! ending a turn (clearing the turn marks, ageing blocks, the winner, who throws
//! next, a dead game).

use crate::board::{self, HOME, START};
use crate::dice::Throw;
use crate::position::{pieces_word, sort4, Outcome, Position, PositionKey, MAX_AGE};
use crate::rules::{ExtraThrow, Stacking};
use crate::step::{Declare, Step};
use crate::{Colour, Colours};

use super::node::Node;
use super::steps::is_dead;
use super::{FRESH, MOVED};

/// Applies a step that [`super::for_each_step`] produced.
pub(crate) fn apply(node: &Node, step: &Step) -> Node {
    apply_among(node, step, u128::MAX)
}

/// [`apply`] knowing the squares where pieces of other colours stand
/// ([`super::Obstacles`]'s `others`): a step landing elsewhere captures nothing.
#[inline]
pub(crate) fn apply_among(node: &Node, step: &Step, others: u128) -> Node {
    let mut n = *node;
    step_among(&mut n, step, others);
    n
}

/// [`apply_among`] in place, for callers that go on from the node they step from
/// (a playout). Answers whether the step captured.
#[inline(always)]
pub(crate) fn step_among(n: &mut Node, step: &Step, others: u128) -> bool {
    let total = n.total_mode();
    let pos = &mut n.pos;
    let a = step.colour;
    let ai = a.index();
    let mark = if total { MOVED } else { 0 };
    if pos.rules.stacking == Stacking::Declare && pos.is_block(a, step.from) {
        remove_block(pos, ai, step.from);
    }
    pos.pieces[ai] = replace_first(pos.pieces[ai], step.from, step.to | mark, step.pieces);
    let captured = capture_among(n, a, step.to, others);
    let pos = &mut n.pos;
    if step.to != HOME {
        match step.declare {
            Some(Declare::Block) => add_block(pos, ai, step.to),
            _ => {
                if total && pos.rules.stacking != Stacking::Group {
                    // A stack it joined does not move again this turn.
                    for piece in pos.pieces[ai].iter_mut() {
                        if *piece & !MOVED == step.to {
                            *piece = step.to | MOVED;
                        }
                    }
                }
            }
        }
    }
    sort4(&mut n.pos.pieces[ai]);
    if total {
        n.pips -= step.by;
    } else {
        // The first `dice` dice of `per` pips are used.
        // (An equal pair is two dice of half the distance; no division.)
        let per = if step.dice == 2 {
            step.by >> 1
        } else {
            step.by
        };
        n.dice = take_dice(n.dice, per, step.dice);
    }
    n.used_dice += step.dice;
    n.used_pips += step.by;
    captured
}

/// The dice left (largest first, the used ones 0 and last) once `count`
/// dice (1, or 2 for an equal pair) of `per` pips are used: taken out, and a
/// 0 put last for each, which keeps the order without sorting. (Equal dice
/// are neighbours, so a pair is taken out together.)
#[inline]
fn take_dice(dice: [u8; 3], per: u8, count: u8) -> [u8; 3] {
    let [x, y, z] = dice;
    match (count, x == per, y == per, z == per) {
        (2, true, true, _) => [z, 0, 0],
        (2, _, true, true) => [x, 0, 0],
        (1 | 2, true, _, _) => [y, z, 0],
        (1 | 2, _, true, _) => [x, z, 0],
        (1 | 2, _, _, true) => [x, y, 0],
        _ => dice,
    }
}

/// Sends the enemies of `a` standing where it lands (`to`, its progress) back to
/// the Charkoni, and marks the capture (for tohd and the extra throw).
///
/// `others` holds the squares where pieces of other colours may stand (all
/// squares when not known): a landing elsewhere captures nothing. Answers
/// whether it captured.
#[inline(always)]
pub(super) fn capture_among(n: &mut Node, a: Colour, to: u8, others: u128) -> bool {
    if to == HOME {
        return false;
    }
    let s = board::sq(a.index(), to);
    if (others >> s) & 1 == 0 {
        return false;
    }
    capture_on(n, a, s)
}

/// [`capture_among`] where others stand on square `s` (kept out of line:
/// most steps land where nobody stands).
#[inline(never)]
fn capture_on(n: &mut Node, a: Colour, s: u8) -> bool {
    let pos = &mut n.pos;
    let mut captured = false;
    for e in pos.present.iter() {
        if !pos.enemies(a, e) {
            continue;
        }
        let ei = e.index();
        // The progress values of that colour on the square (0 for none: the
        // Charkoni is on no square), and its pieces there, as bytes of a word.
        let [x, y] = board::progress_on_raw(ei, s);
        let word = u32::from_le_bytes(pos.pieces[ei]);
        let here = bytes_equal(word & !MOVED_BYTES, x) | bytes_equal(word & !MOVED_BYTES, y);
        if here != 0 {
            // Those pieces go back to the Charkoni (START is 0).
            debug_assert_eq!(START, 0);
            pos.pieces[ei] = (word & !((here >> 7) * 0xff)).to_le_bytes();
            captured = true;
            sort4(&mut pos.pieces[ei]);
        }
    }
    if captured {
        pos.captured = pos.captured.with(a);
        n.captured_any = true;
    }
    captured
}

/// The MOVED mark of each piece of a colour's word.
const MOVED_BYTES: u32 = u32::from_le_bytes([MOVED; 4]);

/// The top bit of each byte of `word` equal to `value` (0 included), exactly
/// per byte, without a branch.
#[inline(always)]
pub(super) fn equal_bytes(word: u32, value: u8) -> u32 {
    const LOW: u32 = 0x7f7f_7f7f;
    let z = word ^ (value as u32 * 0x0101_0101);
    !(((z & LOW) + LOW) | z | LOW)
}

/// `pieces` with the first `count` of those equal to `from` (marks and all)
/// made `to`, unsorted. Without a branch on where they stand, which the
/// processor cannot foresee (which byte holds `from` varies from step to step).
#[inline(always)]
pub(super) fn replace_first(pieces: [u8; 4], from: u8, to: u8, count: u8) -> [u8; 4] {
    let word = u32::from_le_bytes(pieces);
    let mut equal = equal_bytes(word, from);
    let mut taken = 0u32;
    for _ in 0..count {
        let lowest = equal & equal.wrapping_neg();
        taken |= lowest;
        equal ^= lowest;
    }
    let bytes = (taken >> 7) * 0xff;
    ((word & !bytes) | ((to as u32 * 0x0101_0101) & bytes)).to_le_bytes()
}

/// [`equal_bytes`], but none for 0 (no square's progress).
#[inline]
pub(super) fn bytes_equal(word: u32, value: u8) -> u32 {
    if value == 0 {
        return 0;
    }
    equal_bytes(word, value)
}

fn remove_block(pos: &mut Position, ci: usize, p: u8) {
    for i in 0..2 {
        if pos.blocks[ci][i] == p {
            pos.blocks[ci][i] = 0;
            pos.ages[ci][i] = 0;
        }
    }
    pos.sort_blocks();
}

fn add_block(pos: &mut Position, ci: usize, p: u8) {
    for i in 0..2 {
        if pos.blocks[ci][i] == 0 {
            pos.blocks[ci][i] = p;
            pos.ages[ci][i] = FRESH;
            break;
        }
    }
    pos.sort_blocks();
}

/// Ends the turn: clears the turn marks, ages the thrower's blocks, decides the
/// winner and who throws next.
pub(crate) fn finish(node: &Node) -> Position {
    let mut pos = node.pos;
    finish_in(&mut pos, node.actor, node.captured_any);
    pos
}

/// [`finish`] in place, from what it depends on: the node's position (with the
/// turn's marks), its actor and whether the turn captured anything.
#[inline]
pub(crate) fn finish_in(pos: &mut Position, actor: Colour, captured_any: bool) {
    // Only pieces that moved this turn carry the mark; clearing it reorders
    // only their colour (every colour is kept sorted otherwise).
    const MARKS: u128 = u128::from_le_bytes([MOVED; 16]);
    let all = pieces_word(&pos.pieces);
    let marks = all & MARKS;
    if marks != 0 {
        let cleared = (all & !MARKS).to_le_bytes();
        for (c, p) in pos.pieces.iter_mut().enumerate() {
            p.copy_from_slice(&cleared[4 * c..4 * c + 4]);
            if (marks >> (32 * c)) as u32 != 0 {
                sort4(p);
            }
        }
    }
    let mover = pos.to_move.unwrap_or(actor);
    pos.ages = aged(pos, mover);
    pos.outcome = pos.judge_outcome();
    if pos.outcome != Outcome::Ongoing {
        pos.to_move = None;
        pos.extra_throw = false;
    } else if pos.rules.extra_throw == ExtraThrow::Capture && captured_any {
        pos.to_move = Some(mover);
        pos.extra_throw = true;
    } else {
        pos.to_move = Some(pos.next_after(mover));
        pos.extra_throw = false;
    }
}

/// The blocks' ages at the end of `mover`'s turn: the mover's blocks that stood
/// through it (not formed in it) are a turn older, the turn's marks are cleared.
#[inline(always)]
fn aged(pos: &Position, mover: Colour) -> [[u8; 2]; 4] {
    let word = aged_word(pairs(&pos.blocks), pairs(&pos.ages), mover.index());
    let b = word.to_le_bytes();
    [[b[0], b[1]], [b[2], b[3]], [b[4], b[5]], [b[6], b[7]]]
}

/// Eight pairs of bytes (a colour's blocks or their ages) in one word, the
/// first colour's lowest.
#[inline(always)]
fn pairs(x: &[[u8; 2]; 4]) -> u64 {
    u64::from_le_bytes([
        x[0][0], x[0][1], x[1][0], x[1][1], x[2][0], x[2][1], x[3][0], x[3][1],
    ])
}

/// [`aged`] on the words of [`pairs`] (`mover`: the colour's index), a byte
/// at a time in one word, without a branch on where blocks stand or how old
/// they are (the processor cannot foresee them): where no block stands the
/// age is 0; the mover's blocks not formed this turn are a turn older, at
/// most [`MAX_AGE`]; [`FRESH`] marks are cleared.
#[inline(always)]
fn aged_word(blocks: u64, ages: u64, mover: usize) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = ONES * FRESH as u64;
    // Per byte, 1 where a block stands, where its age is not marked fresh,
    // where it is the mover's.
    let stands = ((((blocks & LOW) + LOW) | blocks) & HIGH) >> 7;
    let old = ((ages & HIGH) ^ HIGH) >> 7;
    let mover = ONES & 0xffff << (16 * (mover & 3));
    let years = ages & LOW;
    // Years of at least MAX_AGE (below 128: no carry between bytes).
    let oldest = ((years + ONES * u64::from(0x80 - MAX_AGE)) & HIGH) >> 7;
    let older = stands & old & mover;
    let capped = (older & oldest) * 0xff;
    let out = ((years + (older & !oldest)) & !capped) | (capped & (ONES * u64::from(MAX_AGE)));
    out & (stands * 0xff)
}

/// A key of the position a turn ending at `node` leads to, made without ending
/// it: two nodes of one listing have equal keys exactly when [`finish`] makes
/// equal positions of them. It holds the pieces (marks cleared, sorted), the
/// blocks with their ages after the turn, who has captured and whether this turn
/// did; who throws next and the outcome follow from those.
#[inline]
pub(crate) fn end_key(node: &Node) -> PositionKey {
    end_key_of(&node.pos, node.actor, node.captured_any)
}

/// [`end_key`] from what it depends on: the node's position, its actor and
/// whether the turn captured anything.
#[inline]
pub(crate) fn end_key_of(pos: &Position, actor: Colour, captured_any: bool) -> PositionKey {
    let mut all = pieces_word(&pos.pieces);
    const MARKS: u128 = u128::from_le_bytes([MOVED; 16]);
    if all & MARKS != 0 {
        let mut p = pos.pieces;
        for colour in p.iter_mut() {
            if u32::from_le_bytes(*colour) & 0x8080_8080 != 0 {
                for x in colour.iter_mut() {
                    *x &= !MOVED;
                }
                sort4(colour);
            }
        }
        all = pieces_word(&p);
    }
    // Without a branch on whether blocks stand (none: 0, as ages go with blocks).
    let mover = pos.to_move.unwrap_or(actor);
    let standing = pairs(&pos.blocks);
    let blocks =
        standing as u128 | (aged_word(standing, pairs(&pos.ages), mover.index()) as u128) << 64;
    (all, blocks, end_tail(pos.captured, captured_any))
}

/// The last word of an [`end_key`]: who has captured, and whether the turn did.
#[inline]
pub(crate) fn end_tail(captured: Colours, captured_any: bool) -> u64 {
    captured.0 as u64 | (captured_any as u64) << 8
}

/// The position at the end of a turn from `node`, a dead game marked dead.
pub(super) fn ended(node: &Node) -> Position {
    let mut position = finish(node);
    mark_dead(&mut position);
    position
}

/// Marks a position at the end of a turn dead when the game goes on but no colour
/// can ever move again: nobody throws, and nobody wins.
pub(crate) fn mark_dead(position: &mut Position) {
    if position.outcome == Outcome::Ongoing && is_dead(position) {
        position.outcome = Outcome::Dead;
        position.to_move = None;
        position.extra_throw = false;
    }
}

/// For each step of a valid play, whether it captured anything.
pub(crate) fn capture_marks(pos: &Position, throw: Throw, steps: &[Step]) -> Vec<bool> {
    let mut out = Vec::with_capacity(steps.len());
    let Ok(mut node) = Node::start(pos, throw) else {
        return vec![false; steps.len()];
    };
    for s in steps {
        let at_start = |n: &Node| -> usize {
            n.pos
                .pieces
                .iter()
                .flatten()
                .filter(|p| **p == START)
                .count()
        };
        let before = at_start(&node);
        node = apply(&node, s);
        out.push(at_start(&node) > before);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`aged`] as it was written, a block at a time.
    fn aged_by_blocks(pos: &Position, mover: Colour) -> [[u8; 2]; 4] {
        if pos.blocks == [[0; 2]; 4] {
            return [[0; 2]; 4];
        }
        let mut ages = pos.ages;
        for (c, (ages, blocks)) in ages.iter_mut().zip(&pos.blocks).enumerate() {
            for (age, block) in ages.iter_mut().zip(blocks) {
                if *block == 0 {
                    *age = 0;
                    continue;
                }
                let fresh = *age & FRESH != 0;
                let years = *age & !FRESH;
                *age = if c == mover.index() && !fresh {
                    (years + 1).min(MAX_AGE)
                } else {
                    years
                };
            }
        }
        ages
    }

    /// Ageing a byte at a time in one word is ageing a block at a time, for
    /// blocks standing or not, every age (marked fresh or not, at the most
    /// and above it) and every mover.
    #[test]
    fn ageing_in_one_word_is_ageing_each_block() {
        let mut pos =
            Position::new(crate::Rules::preset(crate::Preset::Classic), 4).expect("start");
        let ages = [0u8, 1, 2, 50, 97, 98, 99, 100, 127];
        let mut seed = 7u64;
        for _ in 0..200_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = seed.to_le_bytes();
            for i in 0..8 {
                let (c, k) = (i / 2, i % 2);
                pos.blocks[c][k] = if r[i] & 1 == 0 { 0 } else { r[i] >> 1 };
                let fresh = if r[(i + 3) % 8] & 2 == 0 { 0 } else { FRESH };
                pos.ages[c][k] = ages[(r[(i + 5) % 8] as usize) % ages.len()] | fresh;
            }
            for mover in Colour::ALL {
                assert_eq!(
                    aged(&pos, mover),
                    aged_by_blocks(&pos, mover),
                    "{:?} {:?}",
                    pos.blocks,
                    pos.ages
                );
            }
        }
    }

    /// `take_dice` leaves what zeroing the first `count` dice of `per` pips
    /// and sorting the dice again leaves, for every throw part-used as a
    /// node holds it and every die or pair.
    #[test]
    fn taking_dice_keeps_them_largest_first() {
        let values = [0u8, 1, 2, 3, 4, 5, 6];
        for a in values {
            for b in values {
                for c in values {
                    let mut dice = [a, b, c];
                    dice.sort_unstable_by(|x, y| y.cmp(x));
                    for per in 1..=6 {
                        for count in 1..=2u8 {
                            let mut expected = dice;
                            let mut used = count;
                            for d in expected.iter_mut() {
                                if used > 0 && *d == per {
                                    *d = 0;
                                    used -= 1;
                                }
                            }
                            expected.sort_unstable_by(|x, y| y.cmp(x));
                            assert_eq!(
                                take_dice(dice, per, count),
                                expected,
                                "{dice:?} less {count} of {per}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// `replace_first` moves what the plain loop moves (the first `count`
    /// pieces equal to `from`, marks and all, in the order they stand),
    /// and `equal_bytes` finds exactly the equal bytes, 0 and marked
    /// progress included: every word of four bytes from a set of values
    /// that holds the Charkoni, home, ordinary and marked progress.
    #[test]
    fn replacing_the_first_pieces_without_a_branch_is_the_plain_loop() {
        let values = [0u8, 1, 7, 0x7f, 84, 0x80, 0x81, 0xd4, 0xff];
        for a in values {
            for b in values {
                for c in values {
                    for d in values {
                        let pieces = [a, b, c, d];
                        let word = u32::from_le_bytes(pieces);
                        for from in values {
                            let equal = equal_bytes(word, from).to_le_bytes();
                            for (i, p) in pieces.iter().enumerate() {
                                assert_eq!(equal[i] == 0x80, *p == from, "{pieces:?} {from}");
                                assert_eq!(equal[i] & 0x7f, 0, "{pieces:?} {from}");
                            }
                            for count in 0..=4u8 {
                                let mut expected = pieces;
                                let mut left = count;
                                for p in expected.iter_mut() {
                                    if left > 0 && *p == from {
                                        *p = 42;
                                        left -= 1;
                                    }
                                }
                                assert_eq!(
                                    replace_first(pieces, from, 42, count),
                                    expected,
                                    "{pieces:?}: {count} from {from}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
