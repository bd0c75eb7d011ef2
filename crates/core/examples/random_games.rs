//! Plays random games and prints games per second, on one core:
//! `cargo run --release -p chaupar-core --example random_games -- chaupar 200` chooses
//! uniformly among the distinct legal plays of every turn; add `playout` as a third
//! argument for the fast playout policy (a random legal step at a time), or
//! `midgame` to list every play of 32 mid-game positions N times and read each
//! (what `cargo bench -- legal_plays_midgame` times, here for callgrind).

use chaupar_core::dice::Dice;
use chaupar_core::{Generator, Position, Preset, Rules};

#[path = "../benches/common/mod.rs"]
mod common;
use rand_chacha::rand_core::{RngCore, SeedableRng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset: Preset = args
        .get(1)
        .map(|s| s.as_str())
        .unwrap_or("chaupar")
        .parse()
        .expect("preset");
    let games: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let rules = Rules::preset(preset);
    if args.get(3).map(|s| s.as_str()) == Some("playout") {
        let start_pos = Position::new(rules, 4).expect("start");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let start = std::time::Instant::now();
        let mut turns = 0u64;
        for _ in 0..games {
            turns += chaupar_core::playout::random_playout(&start_pos, &mut rng, 5000).turns as u64;
        }
        let s = start.elapsed().as_secs_f64();
        println!(
            "{preset} playouts: {games} games in {s:.2} s = {:.0} games/s; {:.1} turns/game, {:.2} µs/turn",
            games as f64 / s,
            turns as f64 / games as f64,
            s * 1e6 / turns as f64
        );
        return;
    }
    if args.get(3).map(|s| s.as_str()) == Some("midgame") {
        midgame_listings(rules, games);
        return;
    }
    let mut g = Generator::new();
    let mut dice = Dice::from_seed(1);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
    let start = std::time::Instant::now();
    let mut turns = 0u64;
    let mut plays = 0u64;
    for _ in 0..games {
        let mut pos = Position::new(rules, 4).expect("start");
        while pos.to_move().is_some() {
            let n = g.generate(&pos, dice.throw(rules.faces)).expect("plays");
            plays += n as u64;
            pos = *g.position(rng.next_u32() as usize % n);
            turns += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "{preset}: {games} games in {s:.2} s = {:.0} games/s; {:.1} turns/game, {:.1} plays/turn, {:.2} µs/turn",
        games as f64 / s,
        turns as f64 / games as f64,
        plays as f64 / turns as f64,
        s * 1e6 / turns as f64
    );
}

/// Lists every play of the bench's 32 mid-game positions (turn 40 of seeded
/// random games, with a throw each) `rounds` times, reading each play's position.
fn midgame_listings(rules: Rules, rounds: u32) {
    let mut g = Generator::new();
    let positions = common::midgame(rules.preset, 32);
    let start = std::time::Instant::now();
    let mut plays = 0u64;
    let mut going = 0u64;
    for _ in 0..rounds {
        for (p, t) in &positions {
            let n = g.generate(p, *t).expect("plays");
            plays += n as u64;
            going += (0..n)
                .filter(|&i| g.position(i).to_move().is_some())
                .count() as u64;
        }
    }
    let s = start.elapsed().as_secs_f64();
    let listings = rounds as f64 * positions.len() as f64;
    println!(
        "{}: {} positions, {:.1} plays each ({going} going on), {:.2} µs a listing with every position read",
        rules.preset,
        positions.len(),
        plays as f64 / listings,
        s * 1e6 / listings
    );
}
