//! Writes the record of one game between two bots, for `chaupar review`:
//! `cargo run --release -p chaupar-ai --example record -- [PRESET] [SEED] [BOT_A] [BOT_B] > game.txt`
//! (defaults: chaupar 1 greedy random; BOT_A plays Yellow and Black).
use chaupar_ai::{Bot, BotSpec, Limits};
use chaupar_core::{record, Colour, Preset, Rules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let preset: Preset = args
        .first()
        .map(|s| s.parse().unwrap_or(Preset::Chaupar))
        .unwrap_or(Preset::Chaupar);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let a = args.get(2).cloned().unwrap_or_else(|| "greedy".into());
    let b = args.get(3).cloned().unwrap_or_else(|| "random".into());
    let make = |name: &str, k: u64| -> Box<dyn Bot> {
        match name.parse::<BotSpec>() {
            Ok(spec) => spec.build(seed + k, Limits::default()),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2)
            }
        }
    };
    let mut bots: [Box<dyn Bot>; 4] = [make(&a, 0), make(&b, 1), make(&a, 2), make(&b, 3)];
    match chaupar_ai::sim::play_game(Rules::preset(preset), 4, seed, &mut bots, 2000) {
        Ok((game, _, _)) => {
            let names = Colour::ALL.map(|c| {
                if c.index() % 2 == 0 {
                    a.clone()
                } else {
                    b.clone()
                }
            });
            let tags: Vec<(&str, &str)> = Colour::ALL
                .iter()
                .map(|c| (c.title(), names[c.index()].as_str()))
                .collect();
            print!("{}", record::write(&game, &tags));
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2)
        }
    }
}
