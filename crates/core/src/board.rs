//! Board geometry: the 19 × 19 cross, the Charkoni, every colour's track and the
//! castle squares.
//!
//! Rows and columns are numbered 0–18 from the top left. The four arms are three
//! columns wide and eight squares long; the Charkoni is the 3 × 3 centre (rows and
//! columns 8–10). The 96 playing squares are numbered 0–95 in reading order.
//!
//! A piece's place is its *progress* along its colour's path: 0 in the Charkoni
//! (not on the board), 1–83 on the board, 84 home.
//!
//! ```
//! use chaupar_core::{board, Colour};
//! // Yellow's eighth square is the tip of the South arm.
//! assert_eq!(board::square(Colour::Yellow, 8).unwrap().rc(), (18, 9));
//! // Progress 8 and 76 are the same tip square.
//! assert_eq!(board::square(Colour::Yellow, 76), board::square(Colour::Yellow, 8));
//! ```

use crate::Colour;

/// Progress of a piece in the Charkoni, waiting to enter.
pub const START: u8 = 0;
/// Progress of a piece that has come home.
pub const HOME: u8 = 84;
/// Half the board: the opposite arm's tip.
pub const HALF: u8 = 42;
/// The last square of the outer loop before a piece turns up its middle column.
pub const LOOP_END: u8 = 75;
/// Length of the outer loop (progress 8–75).
pub const LOOP_LEN: u8 = 68;
/// Number of playing squares.
pub const SQUARES: usize = 96;

/// One of the 96 playing squares of the cross.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

const fn in_cross(r: usize, c: usize) -> bool {
    let mid_r = r >= 8 && r <= 10;
    let mid_c = c >= 8 && c <= 10;
    (mid_r || mid_c) && !(mid_r && mid_c)
}

const fn build_rc() -> [(u8, u8); SQUARES] {
    let mut out = [(0u8, 0u8); SQUARES];
    let mut n = 0;
    let mut r = 0;
    while r < 19 {
        let mut c = 0;
        while c < 19 {
            if in_cross(r, c) {
                out[n] = (r as u8, c as u8);
                n += 1;
            }
            c += 1;
        }
        r += 1;
    }
    out
}

const fn build_index() -> [[u8; 19]; 19] {
    let rc = build_rc();
    let mut out = [[u8::MAX; 19]; 19];
    let mut i = 0;
    while i < SQUARES {
        out[rc[i].0 as usize][rc[i].1 as usize] = i as u8;
        i += 1;
    }
    out
}

const RC: [(u8, u8); SQUARES] = build_rc();
const INDEX: [[u8; 19]; 19] = build_index();

/// Yellow's path, progress 1–83, as (row, column).
const fn yellow_rc(p: u8) -> (u8, u8) {
    let p = p as i32;
    let (r, c) = if p <= 8 {
        (10 + p, 9)
    } else if p <= 16 {
        (27 - p, 10)
    } else if p <= 24 {
        (10, p - 6)
    } else if p == 25 {
        (9, 18)
    } else if p <= 33 {
        (8, 44 - p)
    } else if p <= 67 {
        // The North arm is the East arm turned once, the West arm turned twice.
        let (r, c) = yellow_rc((p - 17) as u8);
        return rotate((r, c));
    } else if p <= 75 {
        (p - 57, 8)
    } else {
        (94 - p, 9)
    };
    (r as u8, c as u8)
}

/// Turns a cell 90° counter-clockwise per seat: (r, c) → (18 − c, r).
const fn rotate(rc: (u8, u8)) -> (u8, u8) {
    (18 - rc.1, rc.0)
}

const fn build_track() -> [[u8; 85]; 4] {
    let mut out = [[u8::MAX; 85]; 4];
    let mut colour = 0;
    while colour < 4 {
        let mut p = 1;
        while p <= 83 {
            let mut rc = yellow_rc(p as u8);
            let mut k = 0;
            while k < colour {
                rc = rotate(rc);
                k += 1;
            }
            out[colour][p] = INDEX[rc.0 as usize][rc.1 as usize];
            p += 1;
        }
        colour += 1;
    }
    out
}

/// `TRACK[colour][progress]` is the square index, or 255 for progress 0 and 84.
const TRACK: [[u8; 85]; 4] = build_track();

const fn build_square_bits() -> [[u128; 128]; 4] {
    let mut out = [[0u128; 128]; 4];
    let mut colour = 0;
    while colour < 4 {
        let mut p = 1;
        while p <= 83 {
            out[colour][p] = 1u128 << TRACK[colour][p];
            p += 1;
        }
        colour += 1;
    }
    out
}

/// `SQUARE_BITS[colour][progress]`: the bit of the square a piece of that
/// colour stands on, 0 in the Charkoni or home (or beyond, for marked values).
const SQUARE_BITS: [[u128; 128]; 4] = build_square_bits();

const fn build_past_bits() -> [[u128; 128]; 4] {
    let mut out = [[0u128; 128]; 4];
    let mut colour = 0;
    while colour < 4 {
        let mut p = HALF as usize;
        while p <= 83 {
            if p != LOOP_END as usize {
                out[colour][p] = SQUARE_BITS[colour][p];
            }
            p += 1;
        }
        colour += 1;
    }
    out
}

/// `PAST_BITS[colour][progress]`: [`SQUARE_BITS`] for a piece past half way
/// and not at the loop's end (one that may stand in a blockade), else 0.
const PAST_BITS: [[u128; 128]; 4] = build_past_bits();

/// The bit of the square a piece of `colour` at `progress` stands on when it
/// is past half way and not at the loop's end (so may stand in a blockade
/// there), 0 otherwise (and off the board). Clear the search's mark first.
#[inline]
pub(crate) fn past_square_bit(colour: usize, progress: u8) -> u128 {
    PAST_BITS[colour & 3][(progress & 0x7f) as usize]
}

/// The bit of the square a piece of `colour` at `progress` stands on, 0 off
/// the board (the hot paths' masks of occupied squares). Progress values with
/// the search's mark (bit 7) read 0: clear it first.
#[inline]
pub(crate) fn square_bit(colour: usize, progress: u8) -> u128 {
    SQUARE_BITS[colour][(progress & 0x7f) as usize]
}

const fn build_progress_on() -> [[[u8; 2]; SQUARES]; 4] {
    let mut out = [[[0u8; 2]; SQUARES]; 4];
    let mut colour = 0;
    while colour < 4 {
        let mut p = 1;
        while p <= 83 {
            let sq = TRACK[colour][p] as usize;
            if out[colour][sq][0] == 0 {
                out[colour][sq][0] = p as u8;
            } else {
                out[colour][sq][1] = p as u8;
            }
            p += 1;
        }
        colour += 1;
    }
    out
}

/// `PROGRESS_ON[colour][square]`: the (at most two) progress values of that colour on
/// the square, 0 where none.
const PROGRESS_ON: [[[u8; 2]; SQUARES]; 4] = build_progress_on();

/// Yellow's castle squares (classic safe squares): every arm's tip and the fourth
/// square from the outer end of every outer column.
pub const YELLOW_CASTLES: [u8; 12] = [8, 12, 21, 25, 29, 38, 42, 46, 55, 59, 63, 72];

const fn build_castles() -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < 12 {
        mask |= 1u128 << TRACK[0][YELLOW_CASTLES[i] as usize];
        i += 1;
    }
    mask
}

/// The castle squares as a bit mask over square indices.
pub const CASTLES: u128 = build_castles();

impl Square {
    /// The square at a grid cell, if the cell is a playing square.
    pub fn from_rc(row: u8, col: u8) -> Option<Square> {
        let i = *INDEX.get(row as usize)?.get(col as usize)?;
        (i != u8::MAX).then_some(Square(i))
    }

    /// The square with index 0–95.
    pub fn from_index(i: u8) -> Option<Square> {
        ((i as usize) < SQUARES).then_some(Square(i))
    }

    /// The index 0–95.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// (row, column) on the 19 × 19 grid.
    pub const fn rc(self) -> (u8, u8) {
        RC[self.0 as usize]
    }

    /// Whether this is one of the 12 castle squares (safe in `classic`).
    pub const fn is_castle(self) -> bool {
        CASTLES & (1u128 << self.0) != 0
    }

    /// All 96 playing squares.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

/// The square a piece of `colour` at `progress` stands on; `None` in the Charkoni
/// (0), at home (84) or beyond.
#[inline]
pub fn square(colour: Colour, progress: u8) -> Option<Square> {
    let i = *TRACK[colour.index()].get(progress as usize)?;
    (i != u8::MAX).then_some(Square(i))
}

/// Square index lookup for the hot path; 255 off the board.
#[inline]
pub(crate) fn sq(colour: usize, progress: u8) -> u8 {
    TRACK[colour][progress as usize]
}

/// The progress values of `colour` that lie on `square` (one, or two on the
/// colour's own middle column and tip, none elsewhere), smallest first.
#[inline]
pub fn progress_on(colour: Colour, square: Square) -> impl Iterator<Item = u8> {
    PROGRESS_ON[colour.index()][square.0 as usize]
        .into_iter()
        .filter(|p| *p != 0)
}

#[inline]
pub(crate) fn progress_on_raw(colour: usize, square: u8) -> [u8; 2] {
    PROGRESS_ON[colour][square as usize]
}

const fn build_progress_bits() -> [[u128; SQUARES]; 4] {
    let mut out = [[0u128; SQUARES]; 4];
    let mut colour = 0;
    while colour < 4 {
        let mut sq = 0;
        while sq < SQUARES {
            let [x, y] = PROGRESS_ON[colour][sq];
            if x != 0 {
                out[colour][sq] |= 1u128 << x;
            }
            if y != 0 {
                out[colour][sq] |= 1u128 << y;
            }
            sq += 1;
        }
        colour += 1;
    }
    out
}

/// `PROGRESS_BITS[colour][square]`: the progress values of that colour on the
/// square ([`progress_on_raw`]) as bits.
const PROGRESS_BITS: [[u128; SQUARES]; 4] = build_progress_bits();

/// The progress values of `colour` on `square` as a mask over progress numbers
/// (none for an index off the board).
#[inline]
pub(crate) fn progress_bits(colour: usize, square: u8) -> u128 {
    match PROGRESS_BITS[colour].get(square as usize) {
        Some(b) => *b,
        None => 0,
    }
}

/// Whether the grid cell is in the Charkoni (rows and columns 8–10).
pub fn is_charkoni(row: u8, col: u8) -> bool {
    (8..=10).contains(&row) && (8..=10).contains(&col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cross_has_96_playing_squares() {
        assert_eq!(Square::all().count(), 96);
        assert!(Square::from_rc(9, 9).is_none(), "Charkoni is not a square");
        assert!(Square::from_rc(0, 0).is_none());
        assert!(Square::from_rc(0, 8).is_some());
    }

    #[test]
    fn yellow_track_matches_rulings() {
        let y = |p| square(Colour::Yellow, p).unwrap().rc();
        assert_eq!(y(1), (11, 9));
        assert_eq!(y(8), (18, 9));
        assert_eq!(y(9), (18, 10));
        assert_eq!(y(16), (11, 10));
        assert_eq!(y(17), (10, 11));
        assert_eq!(y(24), (10, 18));
        assert_eq!(y(25), (9, 18));
        assert_eq!(y(26), (8, 18));
        assert_eq!(y(33), (8, 11));
        assert_eq!(y(42), (0, 9), "half the board is the North tip");
        assert_eq!(y(59), (9, 0));
        assert_eq!(y(68), (11, 8));
        assert_eq!(y(75), (18, 8));
        assert_eq!(y(76), (18, 9));
        assert_eq!(y(83), (11, 9));
        assert_eq!(square(Colour::Yellow, 0), None);
        assert_eq!(square(Colour::Yellow, 84), None);
    }

    #[test]
    fn each_step_is_to_a_neighbouring_cell() {
        for c in Colour::ALL {
            for p in 1..83u8 {
                let (r1, c1) = square(c, p).unwrap().rc();
                let (r2, c2) = square(c, p + 1).unwrap().rc();
                let d = (r1 as i32 - r2 as i32)
                    .abs()
                    .max((c1 as i32 - c2 as i32).abs());
                assert_eq!(d, 1, "{c} {p}->{}", p + 1);
            }
        }
    }

    #[test]
    fn the_outer_loop_is_68_distinct_squares_shared_by_all_colours() {
        let mut loops: Vec<Vec<u8>> = Vec::new();
        for c in Colour::ALL {
            let mut v: Vec<u8> = (8..=75).map(|p| square(c, p).unwrap().index()).collect();
            v.sort();
            v.dedup();
            assert_eq!(v.len(), 68);
            loops.push(v);
        }
        assert!(loops.windows(2).all(|w| w[0] == w[1]));
    }

    #[test]
    fn other_colours_are_yellow_turned() {
        assert_eq!(square(Colour::Red, 8).unwrap().rc(), (9, 18));
        assert_eq!(square(Colour::Black, 8).unwrap().rc(), (0, 9));
        assert_eq!(square(Colour::Green, 8).unwrap().rc(), (9, 0));
        // Red's tip of the South arm is its progress 59.
        assert_eq!(square(Colour::Red, 59), square(Colour::Yellow, 8));
    }

    #[test]
    fn twelve_castles_same_for_every_colour() {
        assert_eq!(CASTLES.count_ones(), 12);
        for c in Colour::ALL {
            for p in YELLOW_CASTLES {
                assert!(square(c, p).unwrap().is_castle());
            }
        }
        assert_eq!(square(Colour::Yellow, 12).unwrap().rc(), (15, 10));
    }

    #[test]
    fn progress_on_inverts_track() {
        let tip = square(Colour::Yellow, 8).unwrap();
        assert_eq!(
            progress_on(Colour::Yellow, tip).collect::<Vec<_>>(),
            vec![8, 76]
        );
        assert_eq!(progress_on(Colour::Red, tip).collect::<Vec<_>>(), vec![59]);
        let mid = square(Colour::Yellow, 3).unwrap();
        assert_eq!(progress_on(Colour::Red, mid).count(), 0);
    }
}
