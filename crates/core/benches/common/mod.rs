//! The mid-game positions the listing benchmark times, shared with the
//! `random_games` example's `midgame` mode (which counts their instructions).

use chaupar_core::{Game, Generator, Position, Preset, Rules, Throw};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Mid-game positions (turn 40 of seeded random games) with a throw each.
pub fn midgame(preset: Preset, count: u64) -> Vec<(Position, Throw)> {
    let rules = Rules::preset(preset);
    let mut g = Generator::new();
    (0..count)
        .map(|k| {
            let mut game = Game::new(rules, 4, 77 + k).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(k);
            for _ in 0..40 {
                if game.position().to_move().is_none() {
                    break;
                }
                let t = game.throw().unwrap();
                let n = g.generate(game.position(), t).unwrap();
                game.play(g.steps(rng.next_u32() as usize % n)).unwrap();
            }
            let t = game
                .throw()
                .unwrap_or_else(|_| Throw::new([1, 2, 5], rules.faces).expect("faces"));
            (*game.position(), t)
        })
        .filter(|(p, _)| p.to_move().is_some())
        .collect()
}
