//! Checks of the fast paths' own versions of the step rules against the rules
//! as written once (`steps`), over positions of random games under many options.

use proptest::prelude::*;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::dice::Throw;
use crate::{Game, Generator, Position, Preset, Rules};

use super::apply::apply;
use super::node::Node;
use super::obstacles::{obstacles, Standing};
use super::steps::{
    check_move, destination, for_each_step, for_each_unit, steps_onto_free_square, SingleSteps,
};
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
    /// `destination` finds where `check_move` lets it go, and refuses what it
    /// refuses; so does `SingleSteps::destination` for a single piece
    /// (single_steps_are_destination).
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
                let singles = SingleSteps::of(&node);
                for u in &units {
                    for by in 1..=18 {
                        let want = check_move(&node, &obs, u, by).ok().map(|(q, _, _)| q);
                        prop_assert_eq!(destination(&node, &obs, u, by), want, "{:?} {:?} by {}", node, u, by);
                        if u.size == 1 && !u.group_pair {
                            // single_steps_are_destination
                            let single = singles.destination(&node, &obs, u.from, by);
                            prop_assert_eq!(single, want, "single: {:?} {:?} by {}", node, u, by);
                        }
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
                actor: c,
                ..Node::at_rest(&pos)
            };
            let obs = obstacles(&pos, c);
            let mut legal = false;
            for_each_unit(&node, |u| legal |= check_move(&node, &obs, &u, 1).is_ok());
            prop_assert!(legal, "{:?} {:?}", pos, c);
        }
    }
}

/// The obstacles of `a` as the rules say them, square by square: the squares
/// of other colours' pieces; with `blockade=past-half`, every square holding
/// n >= 2 enemy pieces all past half way (not at the loop's end) stops units
/// of fewer than n pieces; with `blockade=block`, blocks stop everyone.
fn obstacles_square_by_square(pos: &Position, a: Colour) -> ([u128; 5], bool, u128) {
    use crate::board::{progress_on_raw, sq, HALF, HOME, LOOP_END, START};
    use crate::rules::Blockade;
    let mut others = 0u128;
    let mut mask = [0u128; 5];
    for s in 0..96u8 {
        let (mut count, mut past) = (0u8, true);
        for c in Colour::ALL
            .into_iter()
            .filter(|c| pos.colours().has(*c) && *c != a)
        {
            for &raw in &pos.pieces[c.index()] {
                let p = raw & !super::MOVED;
                if p == START || p == HOME || sq(c.index(), p) != s {
                    continue;
                }
                others |= 1u128 << s;
                if pos.enemies(a, c) {
                    count += 1;
                    past &= p >= HALF && p != LOOP_END;
                }
            }
        }
        let on = progress_on_raw(a.index(), s);
        let bits = on
            .iter()
            .filter(|t| **t != 0)
            .fold(0u128, |m, t| m | 1u128 << t);
        match pos.rules.blockade {
            Blockade::PastHalf if count >= 2 && past => {
                for (size, m) in mask.iter_mut().enumerate().skip(1) {
                    if (size as u8) < count {
                        *m |= bits;
                    }
                }
            }
            Blockade::Block => {
                for c in Colour::ALL.into_iter().filter(|c| pos.colours().has(*c)) {
                    for &b in &pos.blocks[c.index()] {
                        if b != 0 && sq(c.index(), b) == s {
                            let m = if c == a { 1u128 << b } else { bits };
                            mask.iter_mut().for_each(|x| *x |= m);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    (mask, mask.iter().any(|m| *m != 0), others)
}

/// Checks every colour's obstacle table of `pos` against the rules' own.
fn same_obstacles_as_the_rules(pos: &Position) -> Result<(), TestCaseError> {
    // A playout's way too, each colour's squares found once.
    let mut standing = Standing::default();
    for c in Colour::ALL.into_iter().filter(|c| pos.colours().has(*c)) {
        let (mask, any, others) = obstacles_square_by_square(pos, c);
        for o in [obstacles(pos, c), standing.obstacles(pos, c)] {
            prop_assert_eq!((o.mask, o.others), (mask, others), "{:?} {:?}", pos, c);
            // `any` may be set by a blockade in nobody's way; never unset by one.
            prop_assert!(o.any || !any, "{:?} {:?}", pos, c);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(12), ..ProptestConfig::default() })]

    /// The obstacle table is the rules' own, square by square, for every
    /// colour of positions of random games.
    #[test]
    fn obstacles_are_the_blocks_and_blockades_square_by_square(rules in rules_strategy(), players in 2u8..=4, seed in any::<u64>(), turns in 0u32..150) {
        let Some(pos) = position(rules, players, seed, turns) else {
            return Ok(());
        };
        same_obstacles_as_the_rules(&pos)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(12), ..ProptestConfig::default() })]

    /// The obstacles a playout finds with the squares of the colours that
    /// did not move kept from one call to the next ([`Standing`]) are the
    /// rules' own, at every step of a random game's turns (pieces marked
    /// as moved, captures and passed throws included).
    #[test]
    fn kept_squares_give_the_rules_obstacles(rules in rules_strategy(), players in 2u8..=4, seed in any::<u64>()) {
        let Ok(mut pos) = Position::new(rules, players) else {
            return Ok(());
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut standing = Standing::default();
        for _ in 0..200 {
            let t = Throw::from_bits(rules.faces, rng.next_u32());
            let Ok(mut node) = Node::start(&pos, t) else { break };
            loop {
                for c in Colour::ALL.into_iter().filter(|c| node.pos.colours().has(*c)) {
                    let o = standing.obstacles(&node.pos, c);
                    let (mask, any, others) = obstacles_square_by_square(&node.pos, c);
                    prop_assert_eq!((o.mask, o.others), (mask, others), "{:?} {:?}", node, c);
                    prop_assert!(o.any || !any, "{:?} {:?}", node, c);
                }
                let mut steps = Vec::new();
                for_each_step(&node, |s| steps.push(s));
                if steps.is_empty() {
                    break;
                }
                node = apply(&node, &steps[rng.next_u32() as usize % steps.len()]);
            }
            let mut g = Generator::new();
            let Ok(n) = g.generate(&pos, t) else { break };
            pos = *g.position(rng.next_u32() as usize % n);
        }
    }
}

/// A position of `rules` whose pieces crowd onto a few squares, two for each
/// team (the teams may not share a square), so that blockades of two to four
/// pieces are common; if it is a valid one.
fn crowded(rules: Rules, seed: u64) -> Option<Position> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut below = |n: u32| rng.next_u32() % n;
    let start = Position::new(rules, 4).ok()?;
    let text = crate::notation::position_text(&start);
    let fields: Vec<&str> = text.split(' ').collect();
    let squares: Vec<u8> = (0..4).map(|_| below(96) as u8).collect();
    let colours: Vec<String> = Colour::ALL
        .into_iter()
        .map(|c| {
            // A quarter of the colours stack all four pieces.
            let together = below(4) == 0;
            let mut first = None;
            let pieces: Vec<String> = (0..4)
                .map(|_| {
                    if let (true, Some(p)) = (together, first) {
                        return format!("{p}");
                    }
                    let square = squares[2 * (c.index() % 2) + (below(4) == 0) as usize];
                    let on = crate::board::progress_on_raw(c.index(), square);
                    let p = match below(8) {
                        0 => crate::board::START,
                        1 => crate::board::HOME,
                        2 => 1 + below(83) as u8,
                        _ if on[0] != 0 => on[below(2) as usize].max(on[0]),
                        _ => 1 + below(83) as u8,
                    };
                    first = Some(p);
                    p.to_string()
                })
                .collect();
            format!("{}{}", c.letter(), pieces.join(","))
        })
        .collect();
    // Everyone has captured, so pieces may stand past the loop (tohd).
    ["YRBG", "-"].into_iter().find_map(|captured| {
        let text = format!(
            "{} {} {} {} {captured} -",
            fields[0],
            fields[1],
            fields[2],
            colours.join("/")
        );
        crate::notation::parse_position(&text).ok()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(256), ..ProptestConfig::default() })]

    /// The same on crowded boards, where blockades of every size stand.
    #[test]
    fn obstacles_on_crowded_boards_are_the_rules_own(rules in rules_strategy(), seed in any::<u64>()) {
        let Some(pos) = crowded(rules, seed) else {
            return Ok(());
        };
        same_obstacles_as_the_rules(&pos)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(12), ..ProptestConfig::default() })]

    /// Reading a play's position skips the whole dead-game check only where
    /// the game surely goes on: no position read is left going on when no
    /// colour can ever move, and wherever the step found at the start of the
    /// turn still holds, the colour throwing next really has a step onto a
    /// free square.
    #[test]
    fn plays_read_as_going_on_are_alive(rules in rules_strategy(), players in 2u8..=4, seed in any::<u64>(), turns in 0u32..150, crowd in any::<bool>()) {
        let pos = if crowd { crowded(rules, seed) } else { position(rules, players, seed, turns) };
        let Some(mut pos) = pos else {
            return Ok(());
        };
        let mut g = Generator::new();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 2);
        // Forty turns on from there, every play of each read.
        for _ in 0..40 {
            let alive = super::alive::Alive::at(&pos);
            let t = Throw::from_bits(rules.faces, rng.next_u32());
            let Ok(n) = g.generate(&pos, t) else { break };
            for i in 0..n {
                let end = *g.position(i);
                prop_assert!(
                    end.outcome != crate::position::Outcome::Ongoing || !super::steps::is_dead(&end),
                    "{:?} left going on", end
                );
                if let (Some(a), Some(next)) = (alive, end.to_move) {
                    if a.holds(&end) {
                        prop_assert!(steps_onto_free_square(&end, next), "{:?} after {:?}", end, pos);
                    }
                }
            }
            pos = *g.position(rng.next_u32() as usize % n);
        }
    }
}
