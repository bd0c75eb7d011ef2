//! [`KeySet`]: the set of keys a listing remembers (the nodes it has
//! searched, the positions its plays lead to). A listing inserts a few hundred
//! keys and then forgets them all, so the set is an open-addressing table that
//! forgets by starting a new generation instead of clearing its slots.
//! A set of one-word keys serves split totals, whose plays mostly move only
//! the mover's pieces and are told apart by their word alone.

/// A three-word key: [`crate::position::PositionKey`] or [`super::node::NodeKey`].
pub(crate) type Key = (u128, u128, u64);

/// What a [`KeySet`] holds: a small key with a hash of its own.
pub(crate) trait SetKey: Copy + Eq + Default {
    /// The key's hash, best mixed in its low bits.
    fn hash(&self) -> u64;
}

/// A set of keys, emptied in constant time. See the module documentation.
#[derive(Default)]
pub(crate) struct KeySet<K: SetKey = Key> {
    /// Per slot: the generation that wrote it, the value kept with the key
    /// ([`KeySet::entry`]) and the key; a slot of an older generation is empty.
    slots: Vec<(u32, u32, K)>,
    /// The current generation (never 0 once the table is made).
    generation: u32,
    /// Keys in the current generation.
    len: usize,
}

/// Slots of a new table (a power of two).
const FIRST: usize = 256;

impl SetKey for Key {
    #[inline]
    fn hash(&self) -> u64 {
        let k = self;
        // Each word by its own odd constant, the products summed (they do
        // not wait for each other), then mixed once more.
        let h = (k.0 as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(((k.0 >> 64) as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            .wrapping_add((k.1 as u64).wrapping_mul(0x1656_67b1_9e37_79f9))
            .wrapping_add(((k.1 >> 64) as u64).wrapping_mul(0x85eb_ca77_c2b2_ae63))
            .wrapping_add(k.2.wrapping_mul(0x27d4_eb2f_1656_67c5));
        let h = (h ^ (h >> 31)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        // The top bits are the best mixed.
        h.rotate_left(26)
    }
}

impl SetKey for u32 {
    #[inline]
    fn hash(&self) -> u64 {
        // The top half of the product is the best mixed.
        (*self as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32
    }
}

impl SetKey for u64 {
    #[inline]
    fn hash(&self) -> u64 {
        // The top half of the product is the best mixed.
        ((*self as u128 * 0x9e37_79b9_7f4a_7c15) >> 64) as u64
    }
}

impl<K: SetKey> KeySet<K> {
    /// Forgets every key.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 clearings an old slot could pass for a new one.
            self.slots.iter_mut().for_each(|s| s.0 = 0);
            self.generation = 1;
        }
    }

    /// Adds `key`; whether it was not there yet.
    #[inline]
    pub(crate) fn insert(&mut self, key: K) -> bool {
        self.entry(key, 0).is_none()
    }

    /// Adds `key` with `value` if it is not there yet (None); the value kept
    /// with it if it is.
    #[inline]
    pub(crate) fn entry(&mut self, key: K, value: u32) -> Option<u32> {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = key.hash() as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if slot.0 != self.generation {
                *slot = (self.generation, value, key);
                self.len += 1;
                return None;
            }
            if slot.2 == key {
                return Some(slot.1);
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the table (or makes it), keeping the current generation's keys.
    #[cold]
    fn grow(&mut self) {
        let old = core::mem::take(&mut self.slots);
        let generation = if self.generation == 0 {
            1
        } else {
            self.generation
        };
        self.slots = vec![(0, 0, K::default()); (old.len() * 2).max(FIRST)];
        self.generation = generation;
        self.len = 0;
        for (g, value, key) in old {
            if g == generation {
                self.entry(key, value);
            }
        }
    }
}

/// The end keys of a listing's plays. Most plays change only the mover's
/// pieces: their keys are the listing's start key with the mover's lane of
/// the first word changed, and they are kept by that lane alone (a one-word
/// key: a cheaper hash and a smaller slot); every other key is kept whole.
/// Equal keys always go to the same set.
#[derive(Default)]
pub(crate) struct EndKeys {
    /// The start's key with the mover's lane cleared.
    base: Key,
    /// The mover's lane: its shift in the first word.
    shift: u32,
    /// The keys that differ from the start's only in the mover's lane, by
    /// that lane.
    moving: KeySet<u32>,
    /// Every other key.
    whole: KeySet,
}

impl EndKeys {
    /// Forgets every key and takes a new start: `start`'s key, whose mover
    /// has colour index `mover` (0–3).
    #[inline]
    pub(crate) fn begin(&mut self, start: Key, mover: usize) {
        self.shift = 32 * (mover as u32 & 3);
        self.base = (start.0 & !self.lane(), start.1, start.2);
        self.clear();
    }

    /// The mover's lane of a first word.
    #[inline]
    fn lane(&self) -> u128 {
        0xffff_ffffu128 << self.shift
    }

    /// Forgets every key (the start stays).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.moving.clear();
        self.whole.clear();
    }

    /// Adds `key`; whether it was not there yet.
    #[inline]
    pub(crate) fn insert(&mut self, key: Key) -> bool {
        self.entry(key, 0).is_none()
    }

    /// Adds `key` with `value` if it is not there yet (None); the value kept
    /// with it if it is.
    #[inline(always)]
    pub(crate) fn entry(&mut self, key: Key, value: u32) -> Option<u32> {
        // (Each test evaluated: one branch on the answer.)
        if (key.0 & !self.lane() == self.base.0) & (key.1 == self.base.1) & (key.2 == self.base.2) {
            self.moving.entry((key.0 >> self.shift) as u32, value)
        } else {
            self.whole.entry(key, value)
        }
    }

    /// [`EndKeys::entry`] of the key that is the start's with the mover's
    /// pieces `pieces` (four progress bytes).
    #[inline]
    pub(crate) fn entry_moving(&mut self, pieces: u32, value: u32) -> Option<u32> {
        self.moving.entry(pieces, value)
    }

    /// [`EndKeys::insert`] of the key that is the start's with the mover's
    /// pieces `pieces`.
    #[inline]
    pub(crate) fn insert_moving(&mut self, pieces: u32) -> bool {
        self.moving.insert(pieces)
    }
}

/// The bytes of a [`super::node::NodeKey`]'s last word that stay the same
/// while only the mover's pieces and the dice change: the points left, who
/// moves, the part of the turn, whether the turn has captured, and who has
/// captured.
const STEADY: u64 = 0xff00_00ff_ff00_0000;

/// The nodes a search has met. Most nodes of a turn differ from its start
/// only in the mover's pieces and the dice left (those reached by quiet
/// steps: the dice used follow from the dice left); they are kept by those
/// in one word (a cheaper hash and a smaller slot), every other node by its
/// whole key. Equal keys always go to the same set.
#[derive(Default)]
pub(crate) struct NodeKeys {
    /// The start's key with the mover's lane cleared and only the steady
    /// bytes of its last word.
    base: Key,
    /// The mover's lane: its shift in the first word.
    shift: u32,
    moving: KeySet<u64>,
    whole: KeySet,
}

impl NodeKeys {
    /// Forgets every node and takes a new start: `start`'s key, whose
    /// mover has colour index `mover` (0–3).
    #[inline]
    pub(crate) fn begin(&mut self, start: Key, mover: usize) {
        self.shift = 32 * (mover as u32 & 3);
        self.base = (start.0 & !self.lane(), start.1, start.2 & STEADY);
        self.moving.clear();
        self.whole.clear();
    }

    /// The mover's lane of a first word.
    #[inline]
    fn lane(&self) -> u128 {
        0xffff_ffffu128 << self.shift
    }

    /// Adds a node's key; whether it was not there yet.
    #[inline]
    pub(crate) fn insert(&mut self, key: Key) -> bool {
        // (Each test evaluated: one branch on the answer.)
        if (key.0 & !self.lane() == self.base.0)
            & (key.1 == self.base.1)
            & (key.2 & STEADY == self.base.2)
        {
            // The dice left are the low three bytes of the last word.
            let [d0, d1, d2, ..] = key.2.to_le_bytes();
            self.insert_moving((key.0 >> self.shift) as u32, [d0, d1, d2])
        } else {
            self.whole.insert(key)
        }
    }

    /// [`NodeKeys::insert`] of the node that is the start's with the
    /// mover's pieces `pieces` (four progress bytes) and the dice left
    /// `dice`.
    #[inline]
    pub(crate) fn insert_moving(&mut self, pieces: u32, dice: [u8; 3]) -> bool {
        self.moving.insert(
            pieces as u64 | (u32::from_le_bytes([dice[0], dice[1], dice[2], 0]) as u64) << 32,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::with_lane;

    #[test]
    fn remembers_keys_until_cleared_and_grows() {
        let mut set = KeySet::default();
        for round in 0..3u64 {
            for i in 0..2000u64 {
                let key = ((i as u128) << 70, i as u128 * 3, round);
                assert!(set.insert(key), "{i} is new in round {round}");
                assert!(!set.insert(key), "{i} is already there");
            }
            set.clear();
        }
        assert!(set.insert((0, 0, 0)));
        assert!(!set.insert((0, 0, 0)));
    }

    #[test]
    fn remembers_one_word_keys_until_cleared_and_grows() {
        let mut set = KeySet::<u32>::default();
        for round in 0..3u32 {
            for i in 0..2000u32 {
                // Words like a colour's pieces: four progress bytes.
                let word = u32::from_le_bytes([(i % 85) as u8, (i / 85) as u8, 84, 84]);
                assert!(set.insert(word), "{i} is new in round {round}");
                assert!(!set.insert(word), "{i} is already there");
            }
            set.clear();
        }
        assert!(set.insert(0), "the word of four pieces in the Charkoni");
        assert!(!set.insert(0));
    }

    #[test]
    fn keeps_a_value_with_each_key_through_growing() {
        let mut set = KeySet::default();
        for i in 0..1000u32 {
            assert_eq!(set.entry((i as u128, 0, 7), i * 3), None);
        }
        for i in 0..1000u32 {
            assert_eq!(set.entry((i as u128, 0, 7), 0), Some(i * 3));
        }
    }

    /// A key kept by the mover's lane and the same key given whole are one
    /// key; keys that differ elsewhere are kept apart.
    #[test]
    fn end_keys_keep_a_key_once_whichever_way_it_comes() {
        let start: Key = (0x0403_0201_u128 << 64 | 0x1111_1111, 5, 9);
        for mover in 0..4 {
            let mut keys = EndKeys::default();
            keys.begin(start, mover);
            let with = |w: u32| (with_lane(start.0, mover, w), 5, 9);
            assert!(keys.insert_moving(0x0a0b_0c0d));
            assert!(!keys.insert(with(0x0a0b_0c0d)), "mover {mover}");
            assert!(keys.insert(with(0x0a0b_0c0e)));
            assert!(!keys.insert_moving(0x0a0b_0c0e));
            let elsewhere = (
                with(0x0a0b_0c0d).0 ^ 1 << ((32 * mover as u32 + 32) % 128),
                5,
                9,
            );
            assert!(keys.insert(elsewhere));
            assert!(!keys.insert(elsewhere));
            assert_eq!(keys.entry((with(7).0, 5, 10), 3), None, "another tail");
            assert_eq!(keys.entry((with(7).0, 5, 10), 4), Some(3));
            assert_eq!(keys.entry_moving(7, 8), None);
            assert_eq!(keys.entry(with(7), 9), Some(8));
            keys.clear();
            assert!(keys.insert(with(0x0a0b_0c0d)), "forgotten");
            assert!(keys.insert(elsewhere));
        }
    }

    /// A node reached by quiet steps is kept by the mover's pieces and the
    /// dice left, and found again by its whole key; a node that differs
    /// otherwise (the dice used with the same pieces, a capture) is another.
    #[test]
    fn node_keys_keep_a_node_once_whichever_way_it_comes() {
        use crate::play::Node;
        use crate::{Position, Preset, Rules, Throw};
        let rules = Rules::preset(Preset::Classic);
        let pos = Position::new(rules, 4).unwrap();
        let node = Node::start(&pos, Throw::new([6, 5, 1], rules.faces).unwrap()).unwrap();
        let ai = node.actor.index();
        let mut keys = NodeKeys::default();
        keys.begin(node.key(), ai);
        assert!(keys.insert(node.key()));
        assert!(
            !keys.insert_moving(u32::from_le_bytes(node.pos.pieces[ai]), node.dice),
            "the start by its pieces and dice"
        );
        let mut child = node;
        child.pos.pieces[ai][0] += 6;
        child.pos.pieces[ai].sort_unstable();
        child.dice = [5, 1, 0];
        child.used_dice += 1;
        child.used_pips += 6;
        let pieces = u32::from_le_bytes(child.pos.pieces[ai]);
        assert!(keys.insert_moving(pieces, child.dice));
        assert!(!keys.insert(child.key()), "the same node by its whole key");
        let mut other = child;
        other.dice = [6, 5, 0];
        other.used_pips = node.used_pips + 1;
        assert!(keys.insert(other.key()), "other dice left");
        assert!(!keys.insert_moving(pieces, other.dice));
        let mut captured = child;
        captured.captured_any = true;
        assert!(keys.insert(captured.key()), "a capture makes another node");
        assert!(!keys.insert(captured.key()));
        keys.begin(node.key(), ai);
        assert!(keys.insert(child.key()), "forgotten");
    }

    #[test]
    fn a_wrapped_generation_forgets_old_slots() {
        let mut set = KeySet::default();
        assert!(set.insert((1, 2, 3)));
        set.generation = u32::MAX;
        set.slots.iter_mut().for_each(|s| {
            if s.2 == (1, 2, 3) {
                s.0 = u32::MAX;
            }
        });
        set.clear();
        assert!(
            set.insert((1, 2, 3)),
            "slots of an old generation are empty"
        );
    }
}
