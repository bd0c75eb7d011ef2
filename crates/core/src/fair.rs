//! Dice nobody can predict or choose, and anyone can verify afterwards.
//!
//! The server draws a 32-byte [`DiceSecret`] and publishes its SHA-256, the
//! [`DiceCommit`], before the first throw. Each person who takes a seat may add a
//! [`ClientSeed`]. Throw number `n` (counting from 0 over the whole game, the
//! throw-off included) is read from
//!
//! ```text
//! HMAC-SHA256(key = secret, message = "chaupar-dice/1"
//!                                     ‖ for Yellow, Red, Black, Green: len (1 byte) ‖ seed (len bytes, ASCII)
//!                                       (len 0 if the seat has no seed counting at throw n)
//!                                     ‖ n (8 bytes, big-endian))
//! ```
//!
//! as die `k` (k = 0, 1, 2) = the faces' value at index `(mac[0] >> 2k) & 3`: each of
//! the 64 outcomes of the three four-sided long dice comes from exactly four of the
//! 256 values of the first byte, so the mapping has no bias. A seat without a seed
//! contributes a zero length, and so does a seat whose seed was given after
//! throw `n` was made (a seed counts from the throw number it was given at). When the game is over the secret is published, and
//! [`verify`] (or `chaupar verify RECORD`) checks the commitment and every throw.
//! `docs/fairness.md` gives the same layout for writers of other verifiers.
//!
//! ```
//! use chaupar_core::fair::{ClientSeeds, DiceSecret, FairDice};
//! use chaupar_core::rules::Faces;
//! let secret = DiceSecret::from_bytes([7; 32]);
//! let mut seeds = ClientSeeds::default();
//! seeds.set(chaupar_core::Colour::Red, "from-red".parse().unwrap(), 0);
//! let mut dice = FairDice::new(secret, seeds.clone());
//! let first = dice.throw(Faces::F1256);
//! assert_eq!(first, FairDice::new(secret, seeds).throw_number(0, Faces::F1256));
//! ```

use core::fmt;
use core::str::FromStr;

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::dice::Throw;
use crate::rules::Faces;
use crate::Colour;

/// The domain tag that begins every HMAC message (version 1 of the layout).
pub const DOMAIN: &[u8] = b"chaupar-dice/1";

/// The longest client seed, in bytes.
pub const MAX_SEED_LEN: usize = 64;

/// Why a fair-dice value could not be read or verified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FairError {
    /// Not 64 hexadecimal digits.
    Hex {
        /// What was read.
        what: &'static str,
    },
    /// A client seed that is empty, too long or has a character other than
    /// letters, digits, `-` and `_`.
    Seed,
    /// The secret does not hash to the published commitment.
    Commitment,
    /// Throw number `n` is not what the secret and seeds give.
    Throw {
        /// Which throw, counting from 0 (the throw-off included).
        n: u64,
        /// The throw in the record.
        recorded: Throw,
        /// The throw the secret gives.
        expected: Throw,
    },
}

impl fmt::Display for FairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FairError::Hex { what } => write!(f, "the {what} must be 64 hexadecimal digits"),
            FairError::Seed => write!(
                f,
                "a client seed is 1 to {MAX_SEED_LEN} letters, digits, '-' or '_'"
            ),
            FairError::Commitment => write!(
                f,
                "the dice secret does not match the commitment published before the game"
            ),
            FairError::Throw {
                n,
                recorded,
                expected,
            } => write!(
                f,
                "throw {} does not match: the record has {recorded}, the secret gives {expected}",
                n + 1
            ),
        }
    }
}

impl std::error::Error for FairError {}

fn hex(bytes: &[u8; 32]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str, what: &'static str) -> Result<[u8; 32], FairError> {
    let s = s.as_bytes();
    if s.len() != 64 {
        return Err(FairError::Hex { what });
    }
    let mut out = [0u8; 32];
    for (i, pair) in s.chunks(2).enumerate() {
        let digit = |c: u8| (c as char).to_digit(16).ok_or(FairError::Hex { what });
        out[i] = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
    }
    Ok(out)
}

/// The server's secret for one game's dice (32 bytes). Never shown before the
/// game is over.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DiceSecret([u8; 32]);

impl DiceSecret {
    /// The secret from its bytes (the server draws them from the system's
    /// random source).
    pub fn from_bytes(bytes: [u8; 32]) -> DiceSecret {
        DiceSecret(bytes)
    }

    /// The secret's bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The commitment published before the first throw: SHA-256 of the secret.
    pub fn commitment(&self) -> DiceCommit {
        DiceCommit(Sha256::digest(self.0).into())
    }
}

/// Never prints the secret itself (it may end up in a log).
impl fmt::Debug for DiceSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DiceSecret(..)")
    }
}

impl fmt::Display for DiceSecret {
    /// 64 lowercase hexadecimal digits, as in a record's `[DiceSecret]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0))
    }
}

impl FromStr for DiceSecret {
    type Err = FairError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        unhex(s, "dice secret").map(DiceSecret)
    }
}

/// SHA-256 of a [`DiceSecret`], published when the game is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiceCommit([u8; 32]);

impl DiceCommit {
    /// The commitment's bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Whether `secret` is the one committed to.
    pub fn opens_to(&self, secret: &DiceSecret) -> bool {
        secret.commitment() == *self
    }
}

impl fmt::Display for DiceCommit {
    /// 64 lowercase hexadecimal digits, as in a record's `[DiceCommit]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex(&self.0))
    }
}

impl FromStr for DiceCommit {
    type Err = FairError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        unhex(s, "dice commitment").map(DiceCommit)
    }
}

/// A seed a person adds to the dice when taking a seat: 1 to 64 letters, digits,
/// `-` or `_` (so it fits a record tag and a URL as it is).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientSeed(String);

impl ClientSeed {
    /// The seed's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for ClientSeed {
    type Err = FairError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let ok = !s.is_empty()
            && s.len() <= MAX_SEED_LEN
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            Ok(ClientSeed(s.to_string()))
        } else {
            Err(FairError::Seed)
        }
    }
}

impl fmt::Display for ClientSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The client seeds of the four seats (none where nobody gave one), each with
/// the number of the first throw it counts for: a seed given when `k` throws had
/// been made is part of the message of throw `n` only when `k <= n`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientSeeds([Option<(ClientSeed, u64)>; 4]);

impl ClientSeeds {
    /// The seed given for a seat.
    pub fn get(&self, colour: Colour) -> Option<&ClientSeed> {
        self.0[colour.index()].as_ref().map(|(s, _)| s)
    }

    /// The first throw a seat's seed counts for.
    pub fn from(&self, colour: Colour) -> Option<u64> {
        self.0[colour.index()].as_ref().map(|(_, f)| *f)
    }

    /// Gives a seat's seed, counting from throw number `from` (replacing an
    /// earlier one).
    pub fn set(&mut self, colour: Colour, seed: ClientSeed, from: u64) {
        self.0[colour.index()] = Some((seed, from));
    }

    /// The seats with a seed, in seat order, with the throw each counts from.
    pub fn iter(&self) -> impl Iterator<Item = (Colour, &ClientSeed, u64)> {
        Colour::ALL
            .into_iter()
            .filter_map(|c| self.0[c.index()].as_ref().map(|(s, f)| (c, s, *f)))
    }

    /// Whether no seat gave a seed.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }

    /// The seed of a seat as it is in the message of throw `n` (empty before
    /// the throw it counts from).
    pub fn in_throw(&self, colour: Colour, n: u64) -> &str {
        match &self.0[colour.index()] {
            Some((s, from)) if *from <= n => s.as_str(),
            _ => "",
        }
    }
}

/// Dice read from a committed secret and the client seeds (module docs).
#[derive(Clone, Debug)]
pub struct FairDice {
    secret: DiceSecret,
    seeds: ClientSeeds,
    next: u64,
}

impl FairDice {
    /// Dice from a secret and the seeds; the next throw is number 0.
    pub fn new(secret: DiceSecret, seeds: ClientSeeds) -> FairDice {
        FairDice::starting_at(secret, seeds, 0)
    }

    /// Dice whose next throw is number `next` (a game resumed after `next` throws).
    pub fn starting_at(secret: DiceSecret, seeds: ClientSeeds, next: u64) -> FairDice {
        FairDice {
            secret,
            seeds,
            next,
        }
    }

    /// The commitment of these dice.
    pub fn commitment(&self) -> DiceCommit {
        self.secret.commitment()
    }

    /// The client seeds.
    pub fn seeds(&self) -> &ClientSeeds {
        &self.seeds
    }

    /// How many throws were made.
    pub fn thrown(&self) -> u64 {
        self.next
    }

    /// Throw number `n`, whatever was thrown before.
    pub fn throw_number(&self, n: u64, faces: Faces) -> Throw {
        Throw::from_bits(faces, u32::from(mac(&self.secret, &self.seeds, n)[0]))
    }

    /// The next throw.
    pub fn throw(&mut self, faces: Faces) -> Throw {
        let t = self.throw_number(self.next, faces);
        self.next += 1;
        t
    }
}

/// The HMAC-SHA256 of throw `n` (module docs for the message's bytes).
pub fn mac(secret: &DiceSecret, seeds: &ClientSeeds, n: u64) -> [u8; 32] {
    // A key of any length is accepted by HMAC, so this cannot fail.
    let Ok(mut m) = Hmac::<Sha256>::new_from_slice(secret.bytes()) else {
        return [0; 32];
    };
    m.update(DOMAIN);
    for c in Colour::ALL {
        let seed = seeds.in_throw(c, n);
        m.update(&[seed.len() as u8]);
        m.update(seed.as_bytes());
    }
    m.update(&n.to_be_bytes());
    m.finalize().into_bytes().into()
}

/// Checks a finished game's dice: that `secret` opens `commit`, and that the
/// throws made, in order from number 0 (throw-off first), are the ones the secret
/// and seeds give. Answers how many throws were checked.
pub fn verify(
    commit: &DiceCommit,
    secret: &DiceSecret,
    seeds: &ClientSeeds,
    faces: Faces,
    throws: &[Throw],
) -> Result<usize, FairError> {
    verify_from(commit, secret, seeds, faces, 0, throws)
}

/// [`verify`] for dice that took over at throw number `from` (an imported game
/// continued with fresh dice): `throws[i]` is throw number `from + i`.
pub fn verify_from(
    commit: &DiceCommit,
    secret: &DiceSecret,
    seeds: &ClientSeeds,
    faces: Faces,
    from: u64,
    throws: &[Throw],
) -> Result<usize, FairError> {
    if !commit.opens_to(secret) {
        return Err(FairError::Commitment);
    }
    let dice = FairDice::new(*secret, seeds.clone());
    for (i, recorded) in throws.iter().enumerate() {
        let n = from + i as u64;
        let expected = dice.throw_number(n, faces);
        if expected != *recorded {
            return Err(FairError::Throw {
                n,
                recorded: *recorded,
                expected,
            });
        }
    }
    Ok(throws.len())
}

#[cfg(test)]
impl FairDice {
    fn secret_for_tests(&self) -> &DiceSecret {
        &self.secret
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn throw(text: &str) -> Throw {
        text.parse().unwrap()
    }

    fn seeds() -> ClientSeeds {
        let mut s = ClientSeeds::default();
        s.set(Colour::Yellow, "abc".parse().unwrap(), 0);
        s.set(Colour::Black, "Z-9_".parse().unwrap(), 0);
        s
    }

    #[test]
    fn the_commitment_is_sha256_of_the_secret() {
        // SHA-256 of 32 zero bytes.
        let zero = DiceSecret::from_bytes([0; 32]);
        assert_eq!(
            zero.commitment().to_string(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert!(zero.commitment().opens_to(&zero));
        assert!(!zero.commitment().opens_to(&DiceSecret::from_bytes([1; 32])));
    }

    #[test]
    fn the_mac_follows_the_published_layout() {
        // The message written out by hand, as docs/fairness.md describes it.
        let secret = DiceSecret::from_bytes([42; 32]);
        let mut msg = DOMAIN.to_vec();
        msg.extend([3, b'a', b'b', b'c', 0, 4, b'Z', b'-', b'9', b'_', 0]);
        msg.extend(5u64.to_be_bytes());
        let mut m = Hmac::<Sha256>::new_from_slice(&[42; 32]).unwrap();
        m.update(&msg);
        let by_hand: [u8; 32] = m.finalize().into_bytes().into();
        assert_eq!(mac(&secret, &seeds(), 5), by_hand);
    }

    #[test]
    fn test_vectors_of_docs_fairness_md() {
        // Computed independently (Python's hmac and hashlib) from the layout.
        let zero = FairDice::new(DiceSecret::from_bytes([0; 32]), ClientSeeds::default());
        assert_eq!(
            hex(&mac(zero.secret_for_tests(), &ClientSeeds::default(), 0)),
            "49b60302eb1636e70892721dd6767685d944a87cd74366e894035fd6b9b60906"
        );
        let first: Vec<Throw> = (0..4).map(|n| zero.throw_number(n, Faces::F1256)).collect();
        assert_eq!(
            first,
            [
                throw("2,5,1"),
                throw("2,1,1"),
                throw("6,5,6"),
                throw("5,1,1")
            ]
        );
        let mut seeds = ClientSeeds::default();
        seeds.set(Colour::Yellow, "alice".parse().unwrap(), 0);
        seeds.set(Colour::Black, "bob".parse().unwrap(), 0);
        let with_seeds = FairDice::new(DiceSecret::from_bytes([0; 32]), seeds);
        assert_eq!(with_seeds.throw_number(0, Faces::F1256), throw("2,6,6"));
        // Bob's seed given after two throws counts from throw 2 on.
        let mut late = ClientSeeds::default();
        late.set(Colour::Yellow, "alice".parse().unwrap(), 0);
        late.set(Colour::Black, "bob".parse().unwrap(), 2);
        let secret = DiceSecret::from_bytes([0; 32]);
        assert_eq!(
            hex(&mac(&secret, &late, 0)),
            "a5d28a2d3742f01a7505b95c174e5d4e703eb605a6e7a292d87edec9309e1a14"
        );
        assert_eq!(
            hex(&mac(&secret, &late, 2)),
            "00fd8f523d5ced1d25e921625bfc8d6acccd26f8e142aa8c4d701a8b99bb0db8"
        );
        let late = FairDice::new(secret, late);
        let got: Vec<Throw> = (0..4).map(|n| late.throw_number(n, Faces::F1256)).collect();
        assert_eq!(
            got,
            [
                throw("2,2,5"),
                throw("5,6,6"),
                throw("1,1,1"),
                throw("5,1,1")
            ]
        );
    }

    #[test]
    fn every_outcome_comes_from_four_byte_values() {
        // The mapping of the first byte to three four-sided dice is exact.
        let mut counts = std::collections::HashMap::new();
        for b in 0..=255usize {
            *counts
                .entry((b & 3, (b >> 2) & 3, (b >> 4) & 3))
                .or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 64);
        assert!(counts.values().all(|&n| n == 4));
    }

    #[test]
    fn throws_are_fair_and_depend_on_secret_seeds_and_number() {
        let dice = FairDice::new(DiceSecret::from_bytes([9; 32]), seeds());
        let mut counts = [0u32; 7];
        for n in 0..20_000 {
            for v in dice.throw_number(n, Faces::F1346).dice() {
                counts[v as usize] += 1;
            }
        }
        for v in [1, 3, 4, 6] {
            assert!((14_000..16_000).contains(&counts[v]), "{counts:?}");
        }
        let other = FairDice::new(DiceSecret::from_bytes([9; 32]), ClientSeeds::default());
        let differ = (0..64)
            .filter(|&n| dice.throw_number(n, Faces::F1256) != other.throw_number(n, Faces::F1256))
            .count();
        assert!(
            differ > 40,
            "a client seed changes the throws ({differ} of 64 differ)"
        );
    }

    #[test]
    fn verify_accepts_the_true_throws_and_names_the_first_wrong_one() {
        let secret = DiceSecret::from_bytes([5; 32]);
        let mut dice = FairDice::new(secret, seeds());
        let mut throws: Vec<Throw> = (0..30).map(|_| dice.throw(Faces::F1256)).collect();
        let commit = secret.commitment();
        assert_eq!(
            verify(&commit, &secret, &seeds(), Faces::F1256, &throws),
            Ok(30)
        );
        let wrong = DiceSecret::from_bytes([6; 32]);
        assert_eq!(
            verify(&commit, &wrong, &seeds(), Faces::F1256, &throws),
            Err(FairError::Commitment)
        );
        let true_13 = throws[13];
        throws[13] = if true_13 == throw("6,6,6") {
            throw("1,1,1")
        } else {
            throw("6,6,6")
        };
        match verify(&commit, &secret, &seeds(), Faces::F1256, &throws) {
            Err(FairError::Throw {
                n: 13, expected, ..
            }) => assert_eq!(expected, true_13),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hex_and_seeds_are_checked() {
        let s = DiceSecret::from_bytes([0xab; 32]);
        assert_eq!(s.to_string().parse::<DiceSecret>(), Ok(s));
        assert!("ab".parse::<DiceSecret>().is_err());
        assert!("zz".repeat(32).parse::<DiceCommit>().is_err());
        assert_eq!(format!("{s:?}"), "DiceSecret(..)");
        assert!("".parse::<ClientSeed>().is_err());
        assert!("a b".parse::<ClientSeed>().is_err());
        assert!("é".parse::<ClientSeed>().is_err());
        assert!("x".repeat(65).parse::<ClientSeed>().is_err());
        assert!("x".repeat(64).parse::<ClientSeed>().is_ok());
    }
}
