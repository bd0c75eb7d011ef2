//! Bots return legal plays, the simulator is deterministic, hints are ranked,
//! review works on a recorded game.

use std::time::Duration;

use chaupar_ai::search::SearchConfig;
use chaupar_ai::sim::{play_game, simulate, SimConfig};
use chaupar_ai::{hint, hint_with, Bot, BotSpec, Limits};
use chaupar_core::{legal_plays, record, Game, Position, Preset, Rules, Throw};

/// The bot of this name with the default budgets.
fn bot_by_name(name: &str, seed: u64) -> Result<Box<dyn Bot>, String> {
    Ok(name.parse::<BotSpec>()?.build(seed, Limits::default()))
}

/// The bot of this name with a time budget per decision.
fn bot_with_budget(name: &str, seed: u64, budget: Duration) -> Result<Box<dyn Bot>, String> {
    Ok(name.parse::<BotSpec>()?.build(seed, Limits::time(budget)))
}

/// Plays a game where every colour uses `make`, checking every choice is in range.
fn whole_game(preset: Preset, players: u8, seed: u64, name: &str, max_turns: usize) {
    let rules = Rules::preset(preset);
    let mut game = Game::new(rules, players, seed).unwrap();
    let mut bot = bot_with_budget(name, seed, Duration::from_millis(5)).unwrap();
    let mut turns = 0;
    while game.position().to_move().is_some() && turns < max_turns {
        let pos = *game.position();
        let throw = game.throw().unwrap();
        let plays = legal_plays(&pos, throw).unwrap();
        assert!(!plays.is_empty());
        let i = bot.choose(&pos, throw, &plays);
        assert!(i < plays.len(), "{name} chose {i} of {}", plays.len());
        game.play(&plays[i].steps).unwrap();
        turns += 1;
    }
}

#[test]
fn random_and_greedy_play_whole_legal_games_in_every_preset() {
    for (k, preset) in Preset::ALL.into_iter().enumerate() {
        whole_game(preset, 4, 10 + k as u64, "random", 2000);
        whole_game(preset, 4, 20 + k as u64, "greedy", 2000);
    }
    whole_game(Preset::Chausar, 2, 3, "greedy", 2000);
}

#[test]
fn searching_bots_and_levels_return_legal_plays() {
    for (k, preset) in Preset::ALL.into_iter().enumerate() {
        for name in ["expert", "uct", "level1", "level4"] {
            whole_game(preset, 4, 30 + k as u64, name, 12);
        }
    }
    for l in 0..=6 {
        let name = BotSpec::level(l).build(1, Limits::default()).name();
        assert_eq!(name, format!("level{}", l.clamp(1, 5)));
    }
    let unknown = bot_by_name("grandmaster", 1).err().unwrap();
    assert_eq!(
        unknown,
        "unknown bot \"grandmaster\" (expected random, greedy, uct, expert or level1..level5)"
    );
    // Experiment names are checked too, not read with silent defaults.
    let five = Duration::from_millis(5);
    assert!(bot_with_budget("expertr4_2", 1, five).is_ok());
    for bad in ["expertrX", "expertr4_x", "expertr_2"] {
        assert!(bot_with_budget(bad, 1, five).is_err(), "{bad}");
    }
    assert_eq!(bot_by_name("Level3", 1).unwrap().name(), "level3");
}

/// Plays up to `turns` turns of a seeded game of `preset`, every play chosen by
/// `lead`, asserting that `same` chooses alike each turn; answers whether
/// `other` ever chose otherwise.
fn chooses_alike(
    preset: Preset,
    players: u8,
    turns: usize,
    lead: &mut dyn Bot,
    same: &mut dyn Bot,
    other: &mut dyn Bot,
) -> bool {
    let mut game = Game::new(Rules::preset(preset), players, 5).unwrap();
    let mut differs = false;
    for _ in 0..turns {
        let Some(_) = game.position().to_move() else {
            break;
        };
        let pos = *game.position();
        let throw = game.throw().unwrap();
        let plays = legal_plays(&pos, throw).unwrap();
        let i = lead.choose(&pos, throw, &plays);
        assert_eq!(i, same.choose(&pos, throw, &plays), "{preset}, {players}");
        differs |= i != other.choose(&pos, throw, &plays);
        game.play(&plays[i].steps).unwrap();
    }
    differs
}

#[test]
fn the_expert_and_level_five_play_with_the_network() {
    // `expert` and level 5 make the same choices as `expert-net` on the same
    // work, and in `classic` (which has a network) not always those of
    // `expert-linear`.
    let limits = Limits::nodes_for_ms(20);
    for preset in Preset::ALL {
        for lead in [BotSpec::Expert, BotSpec::Level(5)] {
            let mut lead = lead.build(7, limits);
            let mut net = BotSpec::ExpertNet.build(7, limits);
            let mut linear = BotSpec::ExpertLinear.build(7, limits);
            let differs =
                chooses_alike(preset, 4, 30, lead.as_mut(), net.as_mut(), linear.as_mut());
            if preset == Preset::Classic {
                assert!(differs, "{}: classic's network", lead.name());
            }
        }
    }
}

#[test]
fn the_network_expert_rolls_out_with_the_linear_model() {
    // `expert-net` chooses as `expertr4_8-net-lin` in two-player games (eight
    // rounds, rollout plays by the linear model) and as `expertr4_2-net-lin`
    // in four-player `classic` and `chaupar` (RolloutPlays::Tuned), as
    // `expertr4_2-net` (the network's plays) in four-player `chausar`; and
    // not always as it would with the other model's plays.
    let limits = Limits::nodes_for_ms(20);
    let spec = |name: &str| name.parse::<BotSpec>().unwrap().build(7, limits);
    for (preset, players, same, other) in [
        (Preset::Chausar, 2, "expertr4_8-net-lin", "expertr4_8-net"),
        (Preset::Classic, 4, "expertr4_2-net-lin", "expertr4_2-net"),
        (Preset::Chaupar, 4, "expertr4_2-net-lin", "expertr4_2-net"),
        (Preset::Chausar, 4, "expertr4_2-net", "expertr4_2-net-lin"),
    ] {
        let mut net = BotSpec::ExpertNet.build(7, limits);
        let (mut same, mut other) = (spec(same), spec(other));
        let differs = chooses_alike(
            preset,
            players,
            40,
            net.as_mut(),
            same.as_mut(),
            other.as_mut(),
        );
        assert!(differs, "{preset}, {players}: the rollouts' model matters");
    }
}

#[test]
fn games_between_bots_finish_with_a_winner() {
    let mut bots: [Box<dyn Bot>; 4] = [
        bot_by_name("greedy", 1).unwrap(),
        bot_by_name("random", 2).unwrap(),
        bot_by_name("greedy", 3).unwrap(),
        bot_by_name("random", 4).unwrap(),
    ];
    let (game, r, _) = play_game(Rules::preset(Preset::Chaupar), 4, 5, &mut bots, 3000).unwrap();
    assert!(game.position().winner().is_some());
    assert_eq!(r.turns, game.turns().len());
}

#[test]
fn simulator_is_deterministic_whatever_the_jobs() {
    let cfg = |jobs| SimConfig {
        rules: Rules::preset(Preset::Chausar),
        players: 4,
        games: 4,
        team_a: "greedy".into(),
        team_b: "random".into(),
        seed: 99,
        jobs,
        budget: Duration::from_millis(5),
        max_turns: 1000,
        progress: false,
    };
    let a = simulate(&cfg(1)).unwrap();
    let b = simulate(&cfg(2)).unwrap();
    assert_eq!(a.results, b.results);
    // The searching bots run on a work budget in the simulator, so they too
    // give the same games whatever the number of threads (60 ms of work leaves
    // the expert budget for its rollouts).
    let expert = |jobs| SimConfig {
        rules: Rules::preset(Preset::Chaupar),
        games: 2,
        team_a: "expert".into(),
        team_b: "uct".into(),
        budget: Duration::from_millis(60),
        max_turns: 12,
        ..cfg(jobs)
    };
    assert_eq!(
        simulate(&expert(1)).unwrap().results,
        simulate(&expert(2)).unwrap().results
    );
    assert_eq!(a.games, 4);
    assert_eq!(a.json()["games"], 4);
    assert!(a.json().get("mean_turns").is_some());
}

#[test]
fn hints_are_sorted_and_the_best_loses_nothing() {
    let pos = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
    let cfg = SearchConfig {
        candidates: 3,
        max_nodes: 30,
        ..SearchConfig::default()
    };
    let ranked = hint_with(&pos, "6,5,1".parse::<Throw>().unwrap(), &cfg);
    let n = legal_plays(&pos, "6,5,1".parse::<Throw>().unwrap())
        .unwrap()
        .len();
    assert_eq!(ranked.len(), n);
    assert_eq!(ranked[0].loss, 0.0);
    for w in ranked.windows(2) {
        assert!(w[0].win >= w[1].win);
        assert!(w[0].loss <= w[1].loss);
    }
    let mut idx: Vec<usize> = ranked.iter().map(|r| r.index).collect();
    idx.sort_unstable();
    assert_eq!(idx, (0..n).collect::<Vec<_>>());
    for r in &ranked {
        assert!((0.0..=1.0).contains(&r.win));
    }
    // A bad throw or a finished game gives nothing, never a panic.
    assert!(hint(&pos, "3,3,3".parse::<Throw>().unwrap()).is_empty());
}

#[test]
fn hints_rank_with_the_experts_network() {
    // Statically (no candidate searched) a hint's best play is the one greedy
    // with the network picks, and in `classic` (which has a network) not
    // always the one greedy with the linear model picks.
    let cfg = SearchConfig {
        candidates: 0,
        margin: 0.0,
        ..SearchConfig::default()
    };
    let mut game = Game::new(Rules::preset(Preset::Classic), 4, 12).unwrap();
    let mut net = bot_by_name("greedy-net", 1).unwrap();
    let mut linear = bot_by_name("greedy-linear", 1).unwrap();
    let mut differs = false;
    for _ in 0..40 {
        let pos = *game.position();
        let throw = game.throw().unwrap();
        let plays = legal_plays(&pos, throw).unwrap();
        let best = hint_with(&pos, throw, &cfg)[0].index;
        if plays.len() > 1 {
            assert_eq!(best, net.choose(&pos, throw, &plays));
            differs |= best != linear.choose(&pos, throw, &plays);
        }
        game.play(&plays[best].steps).unwrap();
    }
    assert!(differs, "classic's hints use its network");
}

#[test]
fn review_of_a_short_recorded_game() {
    let rules = Rules::preset(Preset::Classic);
    let mut game = Game::new(rules, 4, 8).unwrap();
    let mut bot = bot_by_name("random", 8).unwrap();
    for _ in 0..6 {
        let pos = *game.position();
        let throw = game.throw().unwrap();
        let plays = legal_plays(&pos, throw).unwrap();
        let i = bot.choose(&pos, throw, &plays);
        game.play(&plays[i].steps).unwrap();
    }
    let text = record::write(&game, &[]);
    let game = record::replay(&text).unwrap();
    let cfg = SearchConfig {
        candidates: 0,
        ..SearchConfig::default()
    };
    let rev = chaupar_ai::review::review(&game, &cfg);
    assert_eq!(rev.turns.len(), 6);
    assert_eq!(rev.sides.len(), 2);
    for t in &rev.turns {
        assert!(t.loss >= 0.0 && t.loss <= 1.0);
        assert!(t.luck.abs() <= 1.0);
        if t.loss < chaupar_ai::review::DOUBTFUL {
            assert_eq!(t.verdict, "");
        }
    }
    let text = rev.text();
    assert!(text.contains("error rate"));
    assert!(text.contains("doubtful >= 0.02"));
}

#[test]
fn rollout_values_are_reproducible_and_bounded() {
    // Truncated rollouts use throws derived from the position, the same for
    // every candidate: the same question gets the same answer.
    use chaupar_ai::eval::Weights;
    use chaupar_ai::search::Searcher;
    let mut game = Game::new(Rules::preset(Preset::Chaupar), 4, 8).unwrap();
    let mut greedy = bot_by_name("greedy", 1).unwrap();
    for _ in 0..20 {
        let pos = *game.position();
        let t = game.throw().unwrap();
        let plays = legal_plays(&pos, t).unwrap();
        let i = greedy.choose(&pos, t, &plays);
        game.play(&plays[i].steps).unwrap();
    }
    let pos = *game.position();
    let plays = legal_plays(&pos, "6,5,2".parse::<Throw>().unwrap()).unwrap();
    assert!(plays.len() > 4);
    let cfg = SearchConfig {
        rollouts: 4,
        rollout_max: 40,
        max_nodes: 1_000_000,
        budget: Duration::from_secs(60),
        ..SearchConfig::default()
    };
    let w = Weights::embedded(Preset::Chaupar);
    let (_, a) = Searcher::new(cfg.clone()).analyse(&pos, &plays, w, None);
    let (_, b) = Searcher::new(cfg).analyse(&pos, &plays, w, None);
    assert_eq!(a, b);
    for v in a.iter().flatten() {
        assert!((0.0..=1.0).contains(v), "{v}");
    }
}
