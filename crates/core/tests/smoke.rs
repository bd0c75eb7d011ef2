use chaupar_core::{legal_plays, Game, Preset, Rules};
use rand_chacha::rand_core::{RngCore, SeedableRng};

#[test]
fn random_games_finish_in_every_preset() {
    for preset in Preset::ALL {
        for players in [4u8, 2] {
            let rules = Rules::preset(preset);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
            let mut total_turns = 0;
            let games = 5;
            for seed in 0..games {
                let mut game = Game::new(rules, players, seed).unwrap();
                let mut turns = 0;
                while game.position().to_move().is_some() && turns < 3000 {
                    let t = game.throw().unwrap();
                    let plays = legal_plays(game.position(), t).unwrap();
                    assert!(!plays.is_empty());
                    let i = (rng.next_u32() as usize) % plays.len();
                    game.play(&plays[i].steps).unwrap();
                    turns += 1;
                }
                total_turns += turns;
                eprintln!(
                    "{preset} {players}p seed {seed}: {turns} turns, {:?}",
                    game.position().outcome()
                );
            }
            eprintln!(
                "{preset} {players}p mean turns {}",
                total_turns / games as usize
            );
        }
    }
}
