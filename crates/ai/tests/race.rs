//! Exact race endings: the column-race solver against brute force (the exact
//! value of the whole two-sided game, found by value iteration over every
//! position it can reach), and the rules that decide what a column race is.

use std::collections::HashMap;

use chaupar_ai::eval::Side;
use chaupar_ai::race::{is_column_race, settled, ExactRaces, RaceSolver};
use chaupar_ai::search::throws;
use chaupar_ai::Evaluator;
use chaupar_core::{Colour, Generator, Position, Preset, Rules, Setup, Team};

fn race(preset: Preset, players: u8, pieces: [Option<[u8; 4]>; 4], to_move: Colour) -> Position {
    let mut s = Setup::start(Rules::preset(preset), players).unwrap();
    s.pieces = pieces.map(|p| p.map(|a| a.to_vec()));
    s.captured = Colour::ALL
        .into_iter()
        .filter(|c| s.pieces[c.index()].is_some())
        .collect();
    s.to_move = Some(to_move);
    s.into_position().unwrap()
}

/// The exact value for `side` of a two-sided game from `start`, both sides
/// choosing every play to win: value iteration over every reachable position.
fn brute_force(start: &Position, side: Side) -> f64 {
    let mut index: HashMap<Position, usize> = HashMap::new();
    let mut list = vec![*start];
    index.insert(*start, 0);
    // For each position: per throw, its weight and the indices of its plays' results.
    let mut edges: Vec<Vec<(f64, Vec<usize>)>> = Vec::new();
    let mut gen = Generator::new();
    let mut i = 0;
    while i < list.len() {
        let pos = list[i];
        let mut out = Vec::new();
        if pos.to_move().is_some() {
            for &(t, n) in throws(pos.rules().faces) {
                gen.generate(&pos, t).unwrap();
                let mut kids = Vec::new();
                for j in 0..gen.len() {
                    let c = *gen.position(j);
                    let k = *index.entry(c).or_insert_with(|| {
                        list.push(c);
                        list.len() - 1
                    });
                    kids.push(k);
                }
                out.push((n as f64 / 64.0, kids));
            }
        }
        edges.push(out);
        i += 1;
        assert!(list.len() < 200_000, "too many positions for brute force");
    }
    let value_of = |p: &Position| p.winner().map(|w| side.won(w) as u8 as f64);
    let mut v: Vec<f64> = list.iter().map(|p| value_of(p).unwrap_or(0.5)).collect();
    for _ in 0..100_000 {
        let mut change = 0.0f64;
        for (i, pos) in list.iter().enumerate() {
            let Some(m) = pos.to_move() else { continue };
            let mine = side.has(m);
            let new: f64 = edges[i]
                .iter()
                .map(|(p, kids)| {
                    let vals = kids.iter().map(|k| v[*k]);
                    p * if mine {
                        vals.fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        vals.fold(f64::INFINITY, f64::min)
                    }
                })
                .sum();
            change = change.max((new - v[i]).abs());
            v[i] = new;
        }
        if change < 1e-13 {
            break;
        }
    }
    v[0]
}

fn check(pos: &Position, side: Side) {
    assert!(is_column_race(pos));
    let mut solver = RaceSolver::new();
    let chances = solver.win_chances(pos).unwrap();
    let total: f64 = chances.iter().map(|(_, v)| v).sum();
    assert!((total - 1.0).abs() < 1e-5, "chances sum to {total}");
    let exact = brute_force(pos, side);
    let ours = solver.win_chance(pos, side).unwrap();
    assert!(
        (exact - ours).abs() < 1e-5,
        "solver {ours} against brute force {exact} in {}",
        chaupar_core::notation::position_text(pos)
    );
}

const YB: Side = Side::Team(Team::YellowBlack);

#[test]
fn chaupar_team_order_and_split_totals_match_brute_force() {
    // Black has two pieces to bring home before Yellow may enter; Green needs
    // a 3 and a 1 from one total; Red has one piece at the column's foot.
    let pos = race(
        Preset::Chaupar,
        4,
        [
            Some([80, 84, 84, 84]),
            Some([77, 84, 84, 84]),
            Some([82, 83, 84, 84]),
            Some([81, 83, 84, 84]),
        ],
        Colour::Yellow,
    );
    check(&pos, YB);
    let mut red = pos.to_setup();
    red.to_move = Some(Colour::Red);
    check(&red.into_position().unwrap(), YB);
}

#[test]
fn chausar_exact_dice_and_a_finished_partners_throw_match_brute_force() {
    // Black and Red are home and throw for their partners; each piece left
    // needs its exact distance from single dice.
    let pos = race(
        Preset::Chausar,
        4,
        [
            Some([81, 83, 84, 84]),
            Some([84, 84, 84, 84]),
            Some([84, 84, 84, 84]),
            Some([79, 84, 84, 84]),
        ],
        Colour::Yellow,
    );
    check(&pos, YB);
}

#[test]
fn chausar_two_players_match_brute_force() {
    let pos = race(
        Preset::Chausar,
        2,
        [Some([80, 83, 84, 84]), None, Some([81, 82, 84, 84]), None],
        Colour::Black,
    );
    check(&pos, Side::Colour(Colour::Yellow));
}

#[test]
fn classic_points_passed_to_the_partner_match_brute_force() {
    // Yellow may not enter before Black is home: its dice pass to Black.
    let pos = race(
        Preset::Classic,
        4,
        [
            Some([81, 84, 84, 84]),
            Some([80, 84, 84, 84]),
            Some([82, 84, 84, 84]),
            Some([83, 84, 84, 84]),
        ],
        Colour::Yellow,
    );
    check(&pos, YB);
}

#[test]
fn the_tip_and_pieces_that_have_not_captured_are_not_settled() {
    let mut s = Setup::start(Rules::preset(Preset::Chaupar), 4).unwrap();
    s.pieces = [
        Some(vec![77, 84, 84, 84]),
        Some(vec![80; 4]),
        Some(vec![84, 84, 84, 84]),
        Some(vec![83, 84, 84, 84]),
    ];
    s.captured = Colour::ALL.to_vec();
    let pos = s.clone().into_position().unwrap();
    assert!(is_column_race(&pos));
    // Progress 76 is the arm's tip, a square every colour passes.
    s.pieces[0] = Some(vec![76, 84, 84, 84]);
    let tip = s.clone().into_position().unwrap();
    assert!(!settled(&tip, Colour::Yellow) && !is_column_race(&tip));
    // Capture before finishing, option `home`: a colour that has not captured
    // may stand in its column but never enter home, so it is not racing.
    s.pieces[0] = Some(vec![77, 84, 84, 84]);
    s.rules.tohd = chaupar_core::rules::Tohd::Home;
    s.captured = vec![Colour::Red, Colour::Black, Colour::Green];
    let stuck = s.into_position().unwrap();
    assert!(!settled(&stuck, Colour::Yellow));
    assert!(!is_column_race(
        &Position::new(Rules::preset(Preset::Chaupar), 4).unwrap()
    ));
}

#[test]
fn the_expert_evaluation_uses_the_exact_value_in_column_races_only() {
    let model = chaupar_ai::Model::default();
    let start = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
    let inner = model.resolve(&start);
    let ev = ExactRaces(inner);
    assert_eq!(ev.win_chance(&start, YB), inner.win_chance(&start, YB));
    let pos = race(
        Preset::Chaupar,
        4,
        [
            Some([80, 84, 84, 84]),
            Some([77, 84, 84, 84]),
            Some([82, 83, 84, 84]),
            Some([81, 83, 84, 84]),
        ],
        Colour::Yellow,
    );
    let exact = RaceSolver::new().win_chance(&pos, YB).unwrap();
    assert_eq!(ev.win_chance(&pos, YB), exact);
}

#[test]
fn a_larger_chaupar_race_matches_brute_force() {
    // Four pieces a colour in chaupar, where a total may be split many ways.
    let pos = race(
        Preset::Chaupar,
        4,
        [
            Some([78, 83, 84, 84]),
            Some([79, 84, 84, 84]),
            Some([81, 82, 84, 84]),
            Some([79, 81, 83, 84]),
        ],
        Colour::Red,
    );
    check(&pos, YB);
}

#[test]
fn a_classic_block_race_matches_brute_force() {
    // A classic block in Black's column, which its owner may not pass either.
    let mut s = race(
        Preset::Classic,
        4,
        [
            Some([83, 84, 84, 84]),
            Some([80, 84, 84, 84]),
            Some([81, 81, 84, 84]),
            Some([84, 84, 84, 84]),
        ],
        Colour::Black,
    )
    .to_setup();
    s.blocks = vec![chaupar_core::Block {
        colour: Colour::Black,
        progress: 81,
        age: 2,
    }];
    check(&s.into_position().unwrap(), YB);
}

#[test]
fn hints_and_review_value_plays_into_a_column_race_exactly() {
    // Two players of chausar, each die used alone: where the pieces stand
    // decides which faces bring them home, so the plays differ. The first
    // throw of a seeded game from here whose plays differ in value.
    let pos = race(
        Preset::Chausar,
        2,
        [Some([78, 79, 80, 84]), None, Some([79, 81, 84, 84]), None],
        Colour::Yellow,
    );
    let (mut game, ranked) = (1..500)
        .find_map(|seed| {
            let mut g = chaupar_core::Game::from_position(pos, seed);
            let ranked = chaupar_ai::hint(&pos, g.throw().unwrap());
            (ranked.last()?.loss > 1e-3).then_some((g, ranked))
        })
        .expect("a throw whose plays differ");
    let side = Side::Colour(Colour::Yellow);
    let mut solver = RaceSolver::new();
    for r in &ranked {
        assert!(r.exact);
        let exact = solver.win_chance(&r.play.position, side).unwrap();
        assert!((r.win - exact).abs() < 1e-12, "{} against {exact}", r.win);
    }
    assert!(ranked.windows(2).all(|w| w[0].win >= w[1].win));
    assert_eq!(ranked[0].loss, 0.0);
    // The review of a game through that play reports its loss against them.
    let worst = ranked.last().unwrap();
    game.play(&worst.play.steps).unwrap();
    let review = chaupar_ai::review::review(&game, &chaupar_ai::search::SearchConfig::default());
    let t = &review.turns[0];
    assert!(t.exact);
    let line = review.text().lines().nth(1).unwrap().to_string();
    assert!(line.ends_with("  (exact)"), "{line}");
    assert!((t.loss - worst.loss).abs() < 1e-12 && (t.best_win - ranked[0].win).abs() < 1e-12);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any column race of any preset, players and thrower: every side's chance
    /// lies in 0..1 and they add up to 1 (one side always finishes first).
    #[test]
    fn the_chances_of_any_column_race_add_up_to_one(
        preset in 0usize..3,
        players in 2u8..=4,
        colours in proptest::collection::vec(proptest::collection::vec(77u8..=84, 4), 4),
        first in 0usize..4,
    ) {
        let rules = Rules::preset(Preset::ALL[preset]);
        let Ok(start) = Position::new(rules, players) else { return Ok(()) };
        let mut s = start.to_setup();
        for c in Colour::ALL {
            if s.pieces[c.index()].is_some() {
                // At most two pieces out a colour keeps each case quick.
                let mut v = colours[c.index()].clone();
                v[2] = 84;
                v[3] = 84;
                s.pieces[c.index()] = Some(v);
            }
        }
        s.captured = start.colours().iter().collect();
        s.to_move = start.colours().iter().nth(first % start.colours().len());
        let Ok(pos) = s.into_position() else { return Ok(()) };
        proptest::prop_assert!(is_column_race(&pos) || pos.to_move().is_none());
        if let Some(chances) = RaceSolver::with_limit(u64::MAX).win_chances(&pos) {
            let total: f64 = chances.iter().map(|(_, v)| v).sum();
            proptest::prop_assert!((total - 1.0).abs() < 1e-4, "{total}");
            proptest::prop_assert!(chances.iter().all(|(_, v)| (-1e-9..=1.0 + 1e-9).contains(v)), "{:?}", chances);
        } else {
            proptest::prop_assert!(pos.to_move().is_none());
        }
    }
}
