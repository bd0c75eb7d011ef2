//! Checks of the fast paths' own versions of the step rules against the rules
//! as written once (`steps`), over positions of random games under many options.

use proptest::prelude::*;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::dice::Throw;
use crate::{Game, Generator, Position, Preset, Rules};

use super::apply::apply;
use super::node::Node;
use super::obstacles::obstacles;
use super::steps::{check_move, destination, for_each_step, for_each_unit, steps_onto_free_square};
use crate::Colour;

/// Rules of every preset with the options the step rules read changed.
fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![
            Just(Preset::Chaupar),
            Just(Preset::Chausar),
            Just(Preset::Classic)
        ],
        prop_oneof![Just("dice"), Just("total")],
        prop_oneof![Just("circle"), Just("home"), Just("off")],
        prop_oneof![Just("size"), Just("all")],
        prop_oneof![Just("finish"), Just("column"), Just("off")],
        prop_oneof![Just("none"), Just("past-half"), Just("block")],
        prop_oneof![Just("none"), Just("castles")],
    )
        .prop_filter_map(
            "options that conflict",
            |(preset, throw, tohd, capture, order, blockade, safe)| {
                Rules::preset(preset)
                    .with_options([
                        ("throw", throw),
                        ("tohd", tohd),
                        ("capture", capture),
                        ("order", order),
                        ("blockade", blockade),
                        ("safe", safe),
                    ])
                    .ok()
            },
        )
}

/// The position after `turns` random plays of a seeded game, if it goes on.
fn position(rules: Rules, players: u8, seed: u64, turns: u32) -> Option<Position> {
    let mut game = Game::new(rules, players, seed).ok()?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut g = Generator::new();
    for _ in 0..turns {
        game.position().to_move()?;
        let t = game.throw().ok()?;
        let n = g.generate(game.position(), t).ok()?;
        let steps = g.steps(rng.next_u32() as usize % n).to_vec();
        game.play(&steps).ok()?;
    }
    game.position().to_move().map(|_| *game.position())
}

/// Cases per property: the default, or PROPTEST_CASES for a longer hunt.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(16), ..ProptestConfig::default() })]

    /// At every node along random turns, every unit going every distance:
    /// `destination` finds where `check_move` lets it go, and refuses what it refuses.
    #[test]
    fn destination_is_check_move(rules in rules_strategy(), players in 2u8..=4, seed in any::<u64>(), turns in 0u32..120) {
        let Some(pos) = position(rules, players, seed, turns) else {
            return Ok(());
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 1);
        for _ in 0..4 {
            let t = Throw::from_bits(rules.faces, rng.next_u32());
            let Ok(mut node) = Node::start(&pos, t) else { continue };
            loop {
                let obs = obstacles(&node.pos, node.actor);
                let mut units = Vec::new();
                for_each_unit(&node, |u| units.push(u));
                for u in &units {
                    for by in 1..=18 {
                        let want = check_move(&node, &obs, u, by).ok().map(|(q, _, _)| q);
                        prop_assert_eq!(destination(&node, &obs, u, by), want, "{:?} {:?} by {}", node, u, by);
                    }
                }
                let mut steps = Vec::new();
                for_each_step(&node, |s| steps.push(s));
                if steps.is_empty() {
                    break;
                }
                node = apply(&node, &steps[rng.next_u32() as usize % steps.len()]);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(24), ..ProptestConfig::default() })]

    /// The dead-game check's quick look never sees a step the rules refuse:
    /// when it finds one, some unit of the colour may really go one square.
    #[test]
    fn a_free_square_one_step_away_is_a_legal_step(rules in rules_strategy(), players in 2u8..=4, seed in any::<u64>(), turns in 0u32..120) {
        let Some(pos) = position(rules, players, seed, turns) else {
            return Ok(());
        };
        for c in Colour::ALL.into_iter().filter(|c| pos.colours().has(*c)) {
            if !steps_onto_free_square(&pos, c) {
                continue;
            }
            let node = Node {
                pos,
                dice: [0; 3],
                pips: 0,
                actor: c,
                part: super::node::Part::Own,
                captured_any: false,
                used_dice: 0,
                used_pips: 0,
            };
            let obs = obstacles(&pos, c);
            let mut legal = false;
            for_each_unit(&node, |u| legal |= check_move(&node, &obs, &u, 1).is_ok());
            prop_assert!(legal, "{:?} {:?}", pos, c);
        }
    }
}
