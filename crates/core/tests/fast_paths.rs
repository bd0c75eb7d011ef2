//! The fast listing of split-total plays gives exactly the plays of the plain
//! search over every order of steps, under every option it covers; the search
//! step by step that skips repeated orders gives the plain search's plays in the
//! same order.

mod common;

use std::collections::HashSet;

use chaupar_core::dice::{distinct_throws, Throw};
use chaupar_core::{Colour, Declare, Generator, Position, Preset, Rules};
use common::position_after;
use proptest::prelude::*;

/// Cases per property: the default, or PROPTEST_CASES for a longer hunt.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just("circle"), Just("home"), Just("off")],
        prop_oneof![Just("none"), Just("castles")],
        prop_oneof![Just("size"), Just("all")],
        prop_oneof![Just("finish"), Just("column"), Just("off")],
        prop_oneof![Just("skip"), Just("partner-may"), Just("partner-must")],
        prop_oneof![Just("never"), Just("capture")],
        prop_oneof![Just("posts"), Just("charkoni")],
        prop_oneof![Just("1256"), Just("1346")],
    )
        .prop_map(
            |(tohd, safe, capture, order, finished, extra, start, faces)| {
                Rules::preset(Preset::Chaupar)
                    .with_options([
                        ("tohd", tohd),
                        ("safe", safe),
                        ("capture", capture),
                        ("order", order),
                        ("finished", finished),
                        ("extra_throw", extra),
                        ("start", start),
                        ("faces", faces),
                    ])
                    .unwrap()
            },
        )
}

fn positions(p: &Generator, n: usize) -> HashSet<Position> {
    (0..n).map(|i| *p.position(i)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(400), ..ProptestConfig::default() })]

    #[test]
    fn split_total_fast_path_equals_plain_search(rules in rules_strategy(), seed in any::<u64>(), turns in 0usize..250) {
        let mut fast = Generator::new();
        let mut plain = Generator::new();
        let Some(pos) = position_after(rules, 4, seed, seed, turns as u64, &mut fast) else {
            return Ok(());
        };
        for (t, _) in distinct_throws(rules.faces).into_iter().step_by(3) {
            let a = fast.generate(&pos, t).unwrap();
            let b = plain.generate_reference(&pos, t).unwrap();
            prop_assert_eq!(positions(&fast, a), positions(&plain, b), "{:?} {}", pos, t);
        }
    }
}

/// Rule sets listed each die on its own (or a split total the fast path does
/// not cover), with the number of players: the fast listings (by plans with
/// groups, by the search that skips repeated orders otherwise).
fn step_rules_strategy() -> impl Strategy<Value = (Rules, u8)> {
    (
        (
            prop_oneof![
                Just(Preset::Chausar),
                Just(Preset::Classic),
                Just(Preset::Chaupar)
            ],
            // Split totals searched step by step are slow: one case in four.
            prop_oneof![3 => Just("dice"), 1 => Just("total")],
            prop_oneof![Just("circle"), Just("home"), Just("off")],
            prop_oneof![Just("size"), Just("all")],
            prop_oneof![Just("finish"), Just("column"), Just("off")],
            prop_oneof![Just("posts"), Just("charkoni")],
            prop_oneof![Just("lost"), Just("partner")],
        ),
        (
            prop_oneof![Just("1256"), Just("1346")],
            prop_oneof![Just("none"), Just("castles")],
            prop_oneof![Just("skip"), Just("partner-may"), Just("partner-must")],
            prop_oneof![Just("never"), Just("capture")],
            prop_oneof![3 => Just(4u8), 1 => Just(2u8), 1 => Just(3u8)],
        ),
    )
        .prop_filter_map(
            "options that conflict",
            |(
                (preset, throw, tohd, capture, order, start, unused),
                (faces, safe, finished, extra, players),
            )| {
                // `chaupar` with split totals is the split-total path's (tested above).
                if preset == Preset::Chaupar && throw == "total" {
                    return None;
                }
                let rules = Rules::preset(preset)
                    .with_options([
                        ("throw", throw),
                        ("tohd", tohd),
                        ("capture", capture),
                        ("order", order),
                        ("start", start),
                        ("unused", unused),
                        ("faces", faces),
                        ("safe", safe),
                        ("finished", finished),
                        ("extra_throw", extra),
                    ])
                    .ok()?;
                Position::new(rules, players).ok()?;
                Some((rules, players))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), ..ProptestConfig::default() })]

    /// Not only the same plays: the same plays in the same order, with the same
    /// steps, as the bots choose plays by their index.
    #[test]
    fn step_search_equals_plain_search_in_order((rules, players) in step_rules_strategy(), seed in any::<u64>(), turns in 0usize..200) {
        in_order_as_the_plain_search(rules, players, seed, turns)?;
    }
}

/// After `turns` turns of the game seeded `seed`, every other distinct throw
/// lists the plain search's plays, in order and step for step.
fn in_order_as_the_plain_search(
    rules: Rules,
    players: u8,
    seed: u64,
    turns: usize,
) -> Result<(), TestCaseError> {
    let mut fast = Generator::new();
    let mut plain = Generator::new();
    let Some(pos) = position_after(rules, players, seed, seed, turns as u64, &mut fast) else {
        return Ok(());
    };
    for (t, _) in distinct_throws(rules.faces).into_iter().step_by(2) {
        let a = fast.generate(&pos, t).unwrap();
        let b = plain.generate_reference(&pos, t).unwrap();
        prop_assert_eq!(a, b, "{:?} {}", pos, t);
        for i in 0..a {
            prop_assert_eq!(fast.steps(i), plain.steps(i), "{:?} {} play {}", pos, t, i);
            prop_assert_eq!(
                fast.position(i),
                plain.position(i),
                "{:?} {} play {}",
                pos,
                t,
                i
            );
        }
    }
    Ok(())
}

/// The fast listing of the position `text` with throw `t`, checked against
/// the plain search play for play and step for step, in order: the fast
/// generator, to look at its plays, and how many.
fn lists_as_the_plain_search(text: &str, t: Throw) -> (Generator, usize) {
    let pos = common::pos(text);
    let (mut fast, mut plain) = (Generator::new(), Generator::new());
    let n = fast.generate(&pos, t).unwrap();
    assert_eq!(n, plain.generate_reference(&pos, t).unwrap(), "{text}");
    for i in 0..n {
        assert_eq!(fast.steps(i), plain.steps(i), "{text}: play {i}");
        assert_eq!(fast.position(i), plain.position(i), "{text}: play {i}");
    }
    (fast, n)
}

/// Rules: partners share squares without capturing (`teams`), an enemy's
/// single is captured, and with `stacking=declare` a piece landing on its own
/// single declares a super-piece or a block. The each-die search makes the
/// steps beside the partner and the declarations of super-pieces by moving
/// the mover's pieces (they are quiet), and the others in full: its plays
/// are still the plain search's, in order and step for step, and the throw
/// reaches every kind.
#[test]
fn steps_beside_the_partner_and_declarations_list_the_plain_searchs_plays() {
    // Yellow 10 + 5 lands beside Black (Yellow's partner); 20 + 6 lands on
    // Yellow's own single at 26; 20 + 2 takes Red's single (no castle).
    let black = common::meet(Colour::Yellow, 15, Colour::Black);
    let red = common::meet(Colour::Yellow, 22, Colour::Red);
    let text = format!("classic 4 y Y10,20,26,33/R{red},7,23,24/B{black},6,7,23/G6,7,23,24 - -");
    let (fast, n) = lists_as_the_plain_search(&text, common::throw(6, 5, 2));
    let (mut beside, mut declared, mut captured) = (false, false, false);
    for i in 0..n {
        for s in fast.steps(i) {
            beside |= s.colour == Colour::Yellow && s.to == 15;
            declared |= s.declare.is_some();
        }
        captured |= !fast.position(i).pieces(Colour::Red).contains(&red);
    }
    assert!(beside, "some play lands beside the partner");
    assert!(declared, "some play declares");
    assert!(captured, "some play captures");
}

/// Rules: under `tohd=circle` a colour that has not captured goes round the
/// loop again, so a piece's second step can start on a lesser progress than
/// its first. Listing by plans (groups: `chausar`) puts each play's steps in
/// the order the plain search first reaches them, the least next step of
/// any piece each time: Yellow 20 takes the 1 before Yellow 74 goes round
/// with the 6 and on with the 5, though that second step starts lower.
#[test]
fn a_step_round_the_loop_again_keeps_the_plain_searchs_order() {
    let text = "chausar[tohd=circle] 4 y Y0,0,20,74/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -";
    let (fast, n) = lists_as_the_plain_search(text, common::throw(6, 5, 1));
    let round_and_on = (0..n).any(|i| {
        let s = fast.steps(i);
        s.len() == 3 && s[0].from == 20 && s[1].from == 74 && s[2].from < 20
    });
    assert!(
        round_and_on,
        "some play moves 20 first, then 74 round the loop and on"
    );
}

/// Rules: in `classic` a piece landing on its own single may declare a
/// block, and points the mover cannot use pass to the partner, who counts
/// progress from its own start. Yellow 81 + 1 lands on Yellow's own 82 (a
/// super-piece or a block); Yellow can then use neither the 6 nor the other
/// 1, and they pass to Black, whose own 82 (another square) may move on. The
/// each-die search lists the plain search's plays, step for step, Black's 82
/// moving after a Yellow block included (a search that carried the block's
/// progress into the partner's turn once lost them).
#[test]
fn a_block_declared_before_points_pass_to_the_partner_lists_the_plain_searchs_plays() {
    let text = "classic 4 y Y81,82,83,83/R0,29,62,82/B40,40,82,84/G65,82,83,83 YRBG Y83:6,G83:4";
    let (fast, n) = lists_as_the_plain_search(text, common::throw(6, 1, 1));
    let block_then_partner = (0..n).any(|i| {
        let s = fast.steps(i);
        s.first().is_some_and(|s| s.declare == Some(Declare::Block))
            && s.iter().any(|s| s.colour == Colour::Black && s.from == 82)
    });
    assert!(
        block_then_partner,
        "some play declares a block, then Black's 82 moves"
    );
}

/// Rules: in `classic` a single landing on its own single declares a
/// super-piece or a block, and a super-piece may split its top piece off.
/// After Yellow 3 + 2, Yellow 10 + 5 lands on Yellow's 15 with the 1 left:
/// below the block, the block's pieces may step off it (as the super-piece
/// declared instead split them off) and Yellow 5 may step (as it did before
/// the block was made), so the each-die search does not search below that
/// block. Its plays are still the plain search's, in order and step for
/// step, the block's included.
#[test]
fn a_block_whose_plays_were_all_met_before_lists_the_plain_searchs_plays() {
    let text = "classic 4 y Y3,10,15,84/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -";
    let (fast, n) = lists_as_the_plain_search(text, common::throw(5, 2, 1));
    let blocks = (0..n)
        .filter(|&i| {
            fast.steps(i)
                .iter()
                .any(|s| s.declare == Some(Declare::Block))
        })
        .count();
    assert!(blocks > 0, "some play declares a block");
}

/// `classic` with its structure changed (`split`, `blockade`, `tohd`,
/// `safe`, `unused`): the each-die search spares the steps that reach what an earlier
/// order reached (a step off a new block, a block or capture listed before
/// the step that reached the node, a block whose child finds nothing new)
/// only where the rules make it so, and lists the plain search's plays in
/// order, step for step, under every one of these.
fn classic_structure_strategy() -> impl Strategy<Value = Rules> {
    (
        prop_oneof![Just("top"), Just("never")],
        prop_oneof![Just("block"), Just("none"), Just("past-half")],
        prop_oneof![Just("circle"), Just("home"), Just("off")],
        prop_oneof![Just("none"), Just("castles")],
        prop_oneof![Just("lost"), Just("partner")],
    )
        .prop_filter_map(
            "options that conflict",
            |(split, blockade, tohd, safe, unused)| {
                let rules = Rules::preset(Preset::Classic)
                    .with_options([
                        ("split", split),
                        ("blockade", blockade),
                        ("tohd", tohd),
                        ("safe", safe),
                        ("unused", unused),
                    ])
                    .ok()?;
                Position::new(rules, 4).ok()?;
                Some(rules)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(48), ..ProptestConfig::default() })]

    /// Rules: see `classic_structure_strategy`.
    #[test]
    fn classic_structures_list_the_plain_searchs_plays(rules in classic_structure_strategy(), seed in any::<u64>(), turns in 0usize..220) {
        in_order_as_the_plain_search(rules, 4, seed, turns)?;
    }
}
