//! Helpers shared by the core's tests.
#![allow(dead_code)]

use chaupar_core::board::{progress_on, square};
use chaupar_core::notation::{parse_play, parse_position, parse_step};
use chaupar_core::{
    legal_plays, Colour, Game, Generator, Illegal, Play, Position, Rules, Throw, Turn,
};
use rand_chacha::rand_core::{RngCore, SeedableRng};

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

/// The position after up to `turns` plays of game `game_seed` (its own dice),
/// each play drawn uniformly by a ChaCha8 seeded with `pick_seed` among those `g`
/// lists; `None` when the game is over by then.
pub fn position_after(
    rules: Rules,
    players: u8,
    game_seed: u64,
    pick_seed: u64,
    turns: u64,
    g: &mut Generator,
) -> Option<Position> {
    let mut game = Game::new(rules, players, game_seed).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(pick_seed);
    for _ in 0..turns {
        if game.position().to_move().is_none() {
            break;
        }
        let t = game.throw().unwrap();
        let n = g.generate(game.position(), t).unwrap();
        game.play(g.steps(rng.next_u32() as usize % n)).unwrap();
    }
    let pos = *game.position();
    pos.to_move().is_some().then_some(pos)
}
