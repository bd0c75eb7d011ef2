//! The simulator plays exactly the recorded games: every game of a few small
//! fixed runs (random, greedy, the levels, the expert, uct, greedy with the
//! network; every preset; four
//! and two players), the record of one whole game and the weights of a short
//! self-play training are compared with the
//! results checked in as `tests/data/sim_games.json`. Making the simulator
//! faster must not change one move. `CHAUPAR_BLESS=1` writes the file anew
//! (only after a change meant to change the games).

use std::time::Duration;

use chaupar_ai::sim::{play_game, simulate, SimConfig};
use chaupar_ai::train::TrainConfig;
use chaupar_ai::{Bot, BotSpec, Limits};
use chaupar_core::{record, Preset, Rules};

const EXPECTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sim_games.json");

/// A run of `games` games between two bots.
fn run(preset: Preset, players: u8, games: usize, a: &str, b: &str, seed: u64) -> SimConfig {
    SimConfig {
        rules: Rules::preset(preset),
        players,
        games,
        team_a: a.into(),
        team_b: b.into(),
        seed,
        jobs: 1,
        budget: Duration::from_millis(2),
        max_turns: 1000,
        progress: false,
    }
}

/// Every game of the fixed runs and one game's record, as JSON.
fn played() -> serde_json::Value {
    let runs = [
        run(Preset::Chaupar, 4, 12, "random", "random", 5),
        run(Preset::Chausar, 4, 12, "random", "random", 5),
        run(Preset::Classic, 4, 12, "random", "random", 5),
        run(Preset::Chausar, 2, 12, "random", "random", 5),
        run(Preset::Classic, 2, 8, "greedy", "random", 7),
        run(Preset::Chaupar, 4, 6, "greedy", "random", 7),
        run(Preset::Chausar, 4, 4, "level1", "level2", 4),
        run(Preset::Chaupar, 4, 4, "greedy-net", "greedy", 9),
        SimConfig {
            max_turns: 30,
            ..run(Preset::Chaupar, 4, 2, "expert-linear", "greedy", 3)
        },
        SimConfig {
            max_turns: 30,
            ..run(Preset::Classic, 4, 2, "uct", "level4", 3)
        },
        run(Preset::Chausar, 4, 2, "greedy-net", "greedy", 9),
        run(Preset::Chausar, 2, 4, "greedy-net", "greedy", 9),
        // `expert` with the network (since 2026-12-03).
        SimConfig {
            max_turns: 30,
            ..run(Preset::Classic, 4, 2, "expert", "greedy", 3)
        },
    ];
    let mut out = Vec::new();
    for cfg in &runs {
        let s = simulate(cfg).expect("simulate");
        out.push(serde_json::json!({
            "rules": s.rules,
            "players": s.players,
            "team_a": s.team_a,
            "team_b": s.team_b,
            "seed": s.seed,
            "games": s.results,
        }));
    }
    let build = |name: &str, seed: u64| -> Box<dyn Bot> {
        name.parse::<BotSpec>()
            .expect("bot")
            .build(seed, Limits::default())
    };
    let mut bots: [Box<dyn Bot>; 4] = [
        build("greedy", 1),
        build("random", 2),
        build("greedy", 3),
        build("random", 4),
    ];
    let (game, r, _) =
        play_game(Rules::preset(Preset::Chaupar), 4, 5, &mut bots, 3000).expect("a game");
    let train = TrainConfig {
        rules: Rules::preset(Preset::Chausar),
        players: 4,
        games: 6,
        seed: 8,
        alpha: 0.05,
        lambda: 0.7,
        epsilon: 0.1,
        batch: 4,
        max_turns: 1000,
    };
    // Each weight written exactly (JSON numbers are not read back to the bit).
    let weights: Vec<String> = chaupar_ai::train::train(&train, |_| {})
        .weights
        .iter()
        .map(|w| format!("{w:?}"))
        .collect();
    serde_json::json!({
        "runs": out,
        "game": { "result": r, "record": record::write(&game, &[]) },
        "trained": weights,
    })
}

#[test]
fn the_simulator_plays_the_recorded_games_move_for_move() {
    let now = played();
    if std::env::var_os("CHAUPAR_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&now).expect("json") + "\n";
        std::fs::write(EXPECTED, text).expect("write the expected games");
        return;
    }
    let text = std::fs::read_to_string(EXPECTED).expect("tests/data/sim_games.json");
    let expected: serde_json::Value = serde_json::from_str(&text).expect("expected JSON");
    let (runs, want) = (&now["runs"], &expected["runs"]);
    assert_eq!(runs.as_array().map(Vec::len), want.as_array().map(Vec::len));
    for (i, (got, want)) in runs
        .as_array()
        .into_iter()
        .flatten()
        .zip(want.as_array().into_iter().flatten())
        .enumerate()
    {
        assert_eq!(got, want, "run {i} plays other games");
    }
    assert_eq!(
        now["game"]["result"], expected["game"]["result"],
        "play_game's statistics"
    );
    assert_eq!(
        now["game"]["record"], expected["game"]["record"],
        "play_game's record"
    );
    assert_eq!(now["trained"], expected["trained"], "self-play training");
}

#[test]
fn every_bot_chooses_the_same_among_listed_plays_as_among_copied_ones() {
    // Two bots of each kind with the same seed, one asked with the plays
    // copied out (as the server asks), one with the generator's listing (as
    // the simulator asks), answer the same index turn after turn: their
    // random draws stay in step.
    for name in ["random", "greedy", "level1", "level3", "expert", "uct"] {
        let build = || {
            name.parse::<BotSpec>()
                .expect("bot")
                .build(11, Limits::nodes_for_ms(1))
        };
        let (mut copied, mut listed) = (build(), build());
        let mut game = chaupar_core::Game::new(Rules::preset(Preset::Chausar), 4, 21).unwrap();
        let mut gen = chaupar_core::Generator::new();
        for _ in 0..12 {
            let pos = *game.position();
            let throw = game.throw().unwrap();
            gen.generate(&pos, throw).unwrap();
            let plays = gen.plays();
            let i = copied.choose(&pos, throw, &plays);
            assert_eq!(listed.choose_listed(&pos, throw, &gen), i, "{name}");
            game.play(&plays[i].steps).unwrap();
        }
    }
}
