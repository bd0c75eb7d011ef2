//! Three long dice: faces, the 64 outcomes, the 20 distinct throws and their
//! chances, and the seeded random source a game throws with.
//!
//! ```
//! use chaupar_core::dice::{distinct_throws, Dice};
//! use chaupar_core::rules::Faces;
//! let all = distinct_throws(Faces::F1256);
//! assert_eq!(all.len(), 20);
//! assert_eq!(all.iter().map(|(_, n)| *n as u32).sum::<u32>(), 64);
//! // The same seed gives the same throws.
//! let (mut a, mut b) = (Dice::from_seed(7), Dice::from_seed(7));
//! assert_eq!(a.throw(Faces::F1256), b.throw(Faces::F1256));
//! ```

use core::fmt;
use core::str::FromStr;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::Faces;

/// The three dice of one throw, in the order they were read.
///
/// Made by [`Throw::new`] (checked against the faces), read from text (each value
/// 1–6; the faces are checked when it is played) or thrown by [`Dice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Throw([u8; 3]);

impl Throw {
    /// A throw of three values, each one of `faces`.
    #[inline]
    pub fn new(dice: [u8; 3], faces: Faces) -> Result<Throw, ThrowError> {
        let [a, b, c] = dice;
        if faces.has(a) & faces.has(b) & faces.has(c) {
            return Ok(Throw(dice));
        }
        let value = dice.into_iter().find(|&d| !faces.has(d)).unwrap_or(a);
        Err(ThrowError::NotAFace { value, faces })
    }

    /// The three values in the order they were read.
    pub const fn dice(self) -> [u8; 3] {
        self.0
    }

    /// The throw that 6 random bits pick among the 64 outcomes of `faces`
    /// (two bits a die, lowest first).
    pub(crate) fn from_bits(faces: Faces, r: u32) -> Throw {
        let v = faces.values();
        Throw([
            v[(r & 3) as usize],
            v[((r >> 2) & 3) as usize],
            v[((r >> 4) & 3) as usize],
        ])
    }

    /// The three values, largest first.
    #[inline]
    pub fn sorted(self) -> [u8; 3] {
        let [x, y, z] = self.0;
        let (x, y) = (x.max(y), x.min(y));
        let (y, z) = (y.max(z), y.min(z));
        let (x, y) = (x.max(y), x.min(y));
        [x, y, z]
    }

    /// The sum of the three dice.
    #[inline]
    pub fn total(self) -> u8 {
        self.0.iter().sum()
    }
}

impl fmt::Display for Throw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.0[0], self.0[1], self.0[2])
    }
}

/// A throw that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThrowError {
    /// Not three comma-separated numbers.
    Syntax(String),
    /// A value that is not a face of these dice.
    NotAFace {
        /// The value.
        value: u8,
        /// The faces in play.
        faces: Faces,
    },
}

impl fmt::Display for ThrowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ThrowError::Syntax(s) => {
                write!(f, "a throw is three dice like 1,2,6; could not read {s:?}")
            }
            ThrowError::NotAFace { value, faces } => {
                let v = faces.values();
                write!(
                    f,
                    "{value} is not a face of these dice (faces {}, {}, {}, {})",
                    v[0], v[1], v[2], v[3]
                )
            }
        }
    }
}

impl std::error::Error for ThrowError {}

impl FromStr for Throw {
    type Err = ThrowError;
    /// Reads `a,b,c` (spaces allowed); values are checked against the faces by
    /// [`Throw::new`], here only that each is a small number.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        if parts.len() != 3 {
            return Err(ThrowError::Syntax(s.to_string()));
        }
        let mut d = [0u8; 3];
        for (i, p) in parts.iter().enumerate() {
            d[i] = p
                .parse::<u8>()
                .ok()
                .filter(|v| (1..=6).contains(v))
                .ok_or_else(|| ThrowError::Syntax(s.to_string()))?;
        }
        Ok(Throw(d))
    }
}

/// The 64 ordered outcomes of three dice.
pub fn outcomes(faces: Faces) -> [Throw; 64] {
    let v = faces.values();
    let mut out = [Throw([0; 3]); 64];
    for (i, t) in out.iter_mut().enumerate() {
        *t = Throw([v[i >> 4], v[(i >> 2) & 3], v[i & 3]]);
    }
    out
}

/// The 20 distinct throws (largest die first) with how many of the 64 outcomes give each.
pub fn distinct_throws(faces: Faces) -> Vec<(Throw, u8)> {
    let mut out: Vec<(Throw, u8)> = Vec::with_capacity(20);
    for t in outcomes(faces) {
        let s = Throw(t.sorted());
        match out.iter_mut().find(|(x, _)| *x == s) {
            Some((_, n)) => *n += 1,
            None => out.push((s, 1)),
        }
    }
    out
}

/// The random source a game throws with: ChaCha8 seeded from a number, so that a
/// game replays exactly from its seed.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
}

impl Dice {
    /// Dice seeded from a number.
    pub fn from_seed(seed: u64) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Throws the three dice.
    pub fn throw(&mut self, faces: Faces) -> Throw {
        Throw::from_bits(faces, self.rng.next_u32())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_distinct_throws_with_chances_summing_to_one() {
        for faces in [Faces::F1256, Faces::F1346] {
            let d = distinct_throws(faces);
            assert_eq!(d.len(), 20);
            let triples = d.iter().filter(|(t, _)| t.0[0] == t.0[2]).count();
            assert_eq!(triples, 4);
            for (t, n) in &d {
                let distinct = {
                    let mut x = t.0.to_vec();
                    x.dedup();
                    x.len()
                };
                assert_eq!(*n, [0, 1, 3, 6][distinct]);
            }
        }
    }

    #[test]
    fn dice_are_fair_over_many_throws() {
        let mut dice = Dice::from_seed(1);
        let mut counts = [0u32; 7];
        for _ in 0..40_000 {
            for v in dice.throw(Faces::F1256).0 {
                counts[v as usize] += 1;
            }
        }
        for v in [1, 2, 5, 6] {
            assert!((28_000..32_000).contains(&counts[v]), "{counts:?}");
        }
    }

    #[test]
    fn throw_parses_and_checks_faces() {
        let t: Throw = "1, 2,6".parse().unwrap();
        assert_eq!(t.total(), 9);
        assert!(Throw::new(t.0, Faces::F1256).is_ok());
        assert!(Throw::new([3, 3, 3], Faces::F1256).is_err());
        assert!("1,2".parse::<Throw>().is_err());
        assert!("1,2,x".parse::<Throw>().is_err());
    }
}
