//! Invariants over positions reached by random play, in every preset.

use std::collections::HashSet;

use chaupar_core::board::{self, Square};
use chaupar_core::dice::Dice;
use chaupar_core::{json, notation, record, Game, Generator, Position, Preset, Rules, Throw, Turn};
use proptest::prelude::*;

/// Cases per property: the default, or PROPTEST_CASES for a longer hunt.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// A position after `turns` random plays of a seeded game.
fn reached(preset: Preset, players: u8, seed: u64, turns: usize) -> (Position, Throw) {
    let rules = Rules::preset(preset);
    let mut game = Game::new(rules, players, seed).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let mut g = Generator::new();
    for _ in 0..turns {
        if game.position().to_move().is_none() {
            break;
        }
        let t = game.throw().unwrap();
        let n = g.generate(game.position(), t).unwrap();
        let i = rng.next_u32() as usize % n;
        game.play(g.steps(i)).unwrap();
    }
    let mut dice = Dice::from_seed(seed.wrapping_mul(31));
    (*game.position(), dice.throw(rules.faces))
}

fn check_invariants(p: &Position) {
    for c in p.colours().iter() {
        assert_eq!(p.pieces(c).len(), 4);
        assert!(p.pieces(c).iter().all(|x| *x <= board::HOME));
    }
    for sq in Square::all() {
        let on: Vec<_> = p
            .colours()
            .iter()
            .filter(|c| board::progress_on(*c, sq).any(|pr| p.count_at(*c, pr) > 0))
            .collect();
        for a in &on {
            for b in &on {
                assert!(!p.enemies(*a, *b), "both teams on {:?} in {p:?}", sq.rc());
            }
        }
    }
}

/// Every play reachable by taking allowed steps one at a time until the turn may end.
fn step_view(turn: &mut Turn, out: &mut HashSet<Position>, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let steps = turn.legal_steps();
    if turn.can_end() {
        out.insert(turn.finish().unwrap().position);
    }
    for s in steps {
        turn.step(s).unwrap();
        step_view(turn, out, budget);
        turn.undo();
    }
}

fn presets() -> impl Strategy<Value = (Preset, u8)> {
    prop_oneof![
        Just((Preset::Chaupar, 4)),
        Just((Preset::Chausar, 4)),
        Just((Preset::Chausar, 2)),
        Just((Preset::Chausar, 3)),
        Just((Preset::Classic, 4)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(96), ..ProptestConfig::default() })]

    #[test]
    fn reached_positions_are_sound((preset, players) in presets(), seed in any::<u64>(), turns in 0usize..260) {
        let (p, t) = reached(preset, players, seed, turns);
        check_invariants(&p);
        // Text and JSON round-trip.
        let text = notation::position_text(&p);
        prop_assert_eq!(notation::parse_position(&text).unwrap(), p);
        let j = json::position_value(&p).to_string();
        prop_assert_eq!(json::parse_position(&j).unwrap(), p);
        if p.to_move().is_none() {
            return Ok(());
        }
        let mut g = Generator::new();
        let n = g.generate(&p, t).unwrap();
        prop_assert!(n >= 1);
        let mut seen = HashSet::new();
        for i in 0..n {
            let after = *g.position(i);
            check_invariants(&after);
            prop_assert!(seen.insert(after), "plays are distinct by resulting position");
            // Every generated play applies cleanly and its notation round-trips.
            let text = notation::play_text(&p, t, g.steps(i));
            let parsed = notation::parse_play(&p, t, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            prop_assert_eq!(parsed.position, after);
            prop_assert_eq!(notation::play_text(&p, t, &parsed.steps), text);
        }
    }

    #[test]
    fn step_by_step_agrees_with_whole_plays((preset, players) in presets(), seed in any::<u64>(), turns in 0usize..200) {
        let (p, t) = reached(preset, players, seed, turns);
        if p.to_move().is_none() {
            return Ok(());
        }
        let whole: HashSet<Position> = chaupar_core::legal_plays(&p, t).unwrap().into_iter().map(|pl| pl.position).collect();
        let mut turn = Turn::new(&p, t).unwrap();
        let mut stepwise = HashSet::new();
        let mut budget = 20_000;
        step_view(&mut turn, &mut stepwise, &mut budget);
        if budget > 0 {
            prop_assert_eq!(whole, stepwise);
        } else {
            eprintln!("step view budget exhausted for {preset:?} ({} plays)", whole.len());
        }
    }

    #[test]
    fn completions_are_the_plays_that_begin_with_the_steps_taken((preset, players) in presets(), seed in any::<u64>(), turns in 0usize..200, pick in any::<u32>()) {
        let (p, t) = reached(preset, players, seed, turns);
        if p.to_move().is_none() {
            return Ok(());
        }
        let whole: HashSet<Position> = chaupar_core::legal_plays(&p, t).unwrap().into_iter().map(|pl| pl.position).collect();
        let mut turn = Turn::new(&p, t).unwrap();
        // At the start: exactly the whole plays, each once.
        let all = turn.completions();
        prop_assert_eq!(all.len(), whole.len());
        prop_assert_eq!(all.iter().map(|pl| pl.position).collect::<HashSet<_>>(), whole.clone());
        // After one allowed step: the plays the step view still reaches, each
        // beginning with that step and replaying to its position.
        let steps = turn.legal_steps();
        if steps.is_empty() {
            return Ok(());
        }
        let first = steps[pick as usize % steps.len()];
        turn.step(first).unwrap();
        let rest = turn.completions();
        let mut stepwise = HashSet::new();
        let mut budget = 20_000;
        step_view(&mut turn.clone(), &mut stepwise, &mut budget);
        if budget > 0 {
            prop_assert_eq!(rest.iter().map(|pl| pl.position).collect::<HashSet<_>>(), stepwise);
        }
        for pl in &rest {
            prop_assert_eq!(pl.steps.first(), Some(&first));
            prop_assert!(whole.contains(&pl.position));
            prop_assert_eq!(chaupar_core::play::apply_play(&p, t, &pl.steps).unwrap(), pl.position);
        }
    }

    #[test]
    fn same_seed_same_game(preset in prop_oneof![Just(Preset::Chaupar), Just(Preset::Chausar), Just(Preset::Classic)], seed in any::<u64>()) {
        let play = |seed| {
            let mut game = Game::new(Rules::preset(preset), 4, seed).unwrap();
            let mut g = Generator::new();
            for _ in 0..40 {
                if game.position().to_move().is_none() { break; }
                let t = game.throw().unwrap();
                g.generate(game.position(), t).unwrap();
                let steps = g.steps(0).to_vec();
                game.play(&steps).unwrap();
            }
            game
        };
        let a = play(seed);
        let b = play(seed);
        prop_assert_eq!(a.turns(), b.turns());
        // The record replays to the same game.
        let text = record::write(&a, &[]);
        let r = record::replay(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(r.position(), a.position());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(48), ..ProptestConfig::default() })]

    /// The fast playout policy keeps every invariant, ends games, and repeats with its seed.
    #[test]
    fn playouts_keep_invariants_and_repeat((preset, players) in presets(), seed in any::<u64>()) {
        use chaupar_core::playout;
        let start = Position::new(Rules::preset(preset), players).unwrap();
        let run = |seed: u64| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut pos = start;
            let mut seen = Vec::new();
            for _ in 0..3000 {
                if pos.to_move().is_none() {
                    break;
                }
                let t = playout::throw(&pos, &mut rng);
                pos = playout::random_turn(&pos, t, &mut rng);
                seen.push(pos);
            }
            seen
        };
        let a = run(seed);
        prop_assert_eq!(&a, &run(seed));
        for p in a.iter().step_by(7) {
            check_invariants(p);
            prop_assert_eq!(notation::parse_position(&notation::position_text(p)).unwrap(), *p);
        }
        prop_assert!(a.last().is_some_and(|p| p.to_move().is_none()), "a random game ends");
    }
}
