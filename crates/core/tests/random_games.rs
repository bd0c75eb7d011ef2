//! Whole games of random plays end with a winner in every preset and player count,
//! and every turn offers at least one play (an empty play when nothing can move).

use chaupar_core::{Game, Generator, Outcome, Preset, Rules};
use rand_chacha::rand_core::{RngCore, SeedableRng};

#[test]
fn random_games_end_with_a_winner() {
    for (preset, players) in [
        (Preset::Chaupar, 4),
        (Preset::Chaupar, 2),
        (Preset::Chausar, 4),
        (Preset::Chausar, 3),
        (Preset::Chausar, 2),
        (Preset::Classic, 4),
    ] {
        let rules = Rules::preset(preset);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut g = Generator::new();
        for seed in 0..6 {
            let mut game = Game::new(rules, players, seed).unwrap();
            let mut turns = 0;
            while game.position().to_move().is_some() && turns < 3000 {
                let t = game.throw().unwrap();
                let n = g.generate(game.position(), t).unwrap();
                assert!(n >= 1);
                let steps = g.steps(rng.next_u32() as usize % n).to_vec();
                game.play(&steps).unwrap();
                turns += 1;
            }
            assert!(
                matches!(game.position().outcome(), Outcome::Won(_)),
                "{preset} {players}p seed {seed}: {:?} after {turns} turns",
                game.position().outcome()
            );
        }
    }
}
