//! Helpers shared by the rule scenario tests.
#![allow(dead_code)]

use chaupar_core::board::{progress_on, square};
use chaupar_core::notation::{parse_play, parse_position, parse_step};
use chaupar_core::{legal_plays, Colour, Illegal, Play, Position, Throw, Turn};

/// A position from its text form.
pub fn pos(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|e| panic!("bad test position {text:?}: {e}"))
}

/// The throw a,b,c (each 1–6; the faces are checked when it is played).
pub fn throw(a: u8, b: u8, c: u8) -> Throw {
    format!("{a},{b},{c}")
        .parse()
        .unwrap_or_else(|e| panic!("bad test throw: {e}"))
}

/// Where `colour`'s progress lies for a piece of `other` at `progress` (same square).
pub fn meet(other: Colour, progress: u8, colour: Colour) -> u8 {
    let sq = square(other, progress).expect("on the board");
    progress_on(colour, sq).next().expect("shared square")
}

/// The play written `text`, if it is legal.
pub fn play(p: &Position, t: Throw, text: &str) -> Result<Play, String> {
    parse_play(p, t, text).map_err(|e| e.to_string())
}

/// Whether the play is legal.
pub fn legal(p: &Position, t: Throw, text: &str) -> bool {
    play(p, t, text).is_ok()
}

/// Why the last of these steps is not allowed after the earlier ones (None if it is).
pub fn why(p: &Position, t: Throw, steps: &str) -> Option<Illegal> {
    let mut turn = Turn::new(p, t).expect("turn");
    let words: Vec<&str> = steps.split_whitespace().collect();
    let (last, before) = words.split_last().expect("a step");
    for w in before {
        let s = parse_step(p, w).expect("step text");
        turn.step(s)
            .unwrap_or_else(|e| panic!("step {w} refused: {e}"));
    }
    let s = parse_step(p, last).expect("step text");
    turn.why_not(&s)
}

/// All plays.
pub fn plays(p: &Position, t: Throw) -> Vec<Play> {
    legal_plays(p, t).expect("plays")
}

/// The position after a legal play.
pub fn after(p: &Position, t: Throw, text: &str) -> Position {
    play(p, t, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .position
}
