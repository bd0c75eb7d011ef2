//! Prints the record of a seeded game whose turns take the first listed play:
//! `cargo run -p chaupar-core --example write_record -- classic 42 6`.

use chaupar_core::{record, Game, Preset, Rules};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let preset: Preset = args
        .get(1)
        .map(|s| s.as_str())
        .unwrap_or("classic")
        .parse()
        .expect("preset");
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(42);
    let turns: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(6);
    let mut game = Game::new(Rules::preset(preset), 4, seed).expect("game");
    for _ in 0..turns {
        if game.position().to_move().is_none() {
            break;
        }
        game.throw().expect("throw");
        let plays = game.legal_plays().expect("plays");
        game.play(&plays[0].steps).expect("play");
    }
    print!("{}", record::write(&game, &[]));
}
