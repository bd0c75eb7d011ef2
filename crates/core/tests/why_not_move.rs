//! `Turn::why_not_move`: why a clicked piece cannot go to a clicked square, in every
//! preset and for each kind of refusal the preset can produce. Each test is named
//! `<reason>_<preset>`, after the rule that refuses.

mod common;
use chaupar_core::dice::Dice;
use chaupar_core::notation::parse_step;
use chaupar_core::{Colour, Illegal, Position, Preset, Rules, Throw, Turn};
use common::*;
use proptest::prelude::*;
use Colour::{Black, Green, Red, Yellow};

const CH: &str = "chaupar 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -";
const CS: &str = "chausar 4 y Y0,0,0,0/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -";
const CL: &str = "classic 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -";

/// Why the piece of `c` at `from` cannot go to `to` in `text` with `t`, after the
/// steps already taken (`taken`, step text).
fn why_move(text: &str, t: Throw, taken: &str, c: Colour, from: u8, to: u8) -> Option<Illegal> {
    let p = pos(text);
    let mut turn = Turn::new(&p, t).expect("turn");
    for w in taken.split_whitespace() {
        let s = parse_step(&p, w).expect("step text");
        turn.step(s)
            .unwrap_or_else(|e| panic!("step {w} refused: {e}"));
    }
    turn.why_not_move(c, from, to)
}

/// A position text with Yellow's pieces and the others at their posts.
fn with_yellow(preset: &str, yellow: &str, captured: &str) -> String {
    format!("{preset} 4 y Y{yellow}/R6,7,23,24/B6,7,23,24/G6,7,23,24 {captured} -")
}

fn red(yellow_progress: u8) -> u8 {
    meet(Yellow, yellow_progress, Red)
}
fn green(yellow_progress: u8) -> u8 {
    meet(Yellow, yellow_progress, Green)
}

// ---- chaupar and classic alike: bigger stacks, tohd, team order ------------------

#[test]
fn bigger_enemy_stack_chaupar_classic() {
    let r = red(26);
    for preset in ["chaupar", "classic"] {
        let single = format!("{preset} 4 y Y6,7,23,24/R6,7,{r},{r}/B6,7,23,24/G6,7,23,24 - -");
        assert_eq!(
            why_move(&single, throw(1, 2, 5), "", Yellow, 24, 26),
            Some(Illegal::BiggerEnemy {
                colour: Red,
                size: 2,
                mover: 1
            }),
            "{preset}"
        );
        let double = single.replace("Y6,7,23,24", "Y6,7,24,24");
        let by_two = why_move(&double, throw(1, 2, 5), "", Yellow, 24, 26);
        assert_eq!(by_two, None, "{preset}: the whole super-piece takes it");
    }
}

#[test]
fn tohd_no_capture_no_home_chaupar_classic() {
    for preset in ["chaupar", "classic"] {
        let p = with_yellow(preset, "6,7,23,70", "-");
        let t = throw(1, 2, 6);
        for to in [76, 79, 84] {
            let why = why_move(&p, t, "", Yellow, 70, to);
            assert_eq!(
                why,
                Some(Illegal::NoCapture { colour: Yellow }),
                "{preset} to {to}"
            );
        }
        // Going round the loop again, 8 is 6 away; a square far behind is not
        // reached round the loop by any throw.
        assert_eq!(why_move(&p, t, "", Yellow, 70, 8), None, "{preset}");
        let why = why_move(&p, t, "", Yellow, 70, 60);
        assert_eq!(why, Some(Illegal::NotAhead), "{preset}");
    }
    let p = with_yellow("chaupar", "6,7,23,70", "-");
    let t = throw(1, 2, 6);
    assert_eq!(why_move(&p, t, "", Yellow, 70, 11), None, "round, by 9");
    assert_eq!(
        why_move(&p, t, "", Yellow, 70, 12),
        Some(Illegal::PartTooBig { by: 10, left: 9 }),
        "round the loop, 10 away"
    );
}

#[test]
fn team_order_chaupar_classic() {
    for preset in ["chaupar", "classic"] {
        let p = with_yellow(preset, "6,7,23,79", "Y");
        assert_eq!(
            why_move(&p, throw(1, 2, 5), "", Yellow, 79, 84),
            Some(Illegal::TeamOrder {
                colour: Yellow,
                first: Black,
                column: false
            }),
            "{preset}"
        );
    }
}

// ---- chaupar: the total split into parts, super-pieces ---------------------------

#[test]
fn allowed_moves_chaupar() {
    let t = throw(1, 2, 6);
    assert_eq!(why_move(CH, t, "", Yellow, 6, 15), None, "the whole 9");
    assert_eq!(why_move(CH, t, "", Yellow, 6, 10), None, "a part of 4");
    assert_eq!(
        why_move(CH, t, "Y6-10", Yellow, 7, 12),
        None,
        "the other part"
    );
}

#[test]
fn super_piece_moves_whole_chaupar() {
    // A click names no size: the super-piece's move is found, not "one piece".
    let p = "chaupar 4 y Y7,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -";
    assert_eq!(why_move(p, throw(1, 2, 6), "", Yellow, 7, 16), None);
}

#[test]
fn already_moved_chaupar() {
    assert_eq!(
        why_move(CH, throw(1, 2, 6), "Y6-8", Yellow, 8, 15),
        Some(Illegal::AlreadyMoved)
    );
}

#[test]
fn not_your_pieces_chaupar() {
    assert_eq!(
        why_move(CH, throw(1, 2, 6), "", Red, 6, 15),
        Some(Illegal::NotYourPart {
            colour: Red,
            actor: Yellow
        })
    );
    assert_eq!(
        why_move(CH, throw(1, 2, 6), "", Yellow, 10, 15),
        Some(Illegal::NoPiece {
            colour: Yellow,
            progress: 10
        })
    );
}

#[test]
fn no_part_makes_the_distance_chaupar() {
    assert_eq!(
        why_move(CH, throw(1, 2, 6), "", Yellow, 6, 16),
        Some(Illegal::PartTooBig { by: 10, left: 9 })
    );
    assert_eq!(
        why_move(CH, throw(1, 2, 6), "Y6-10", Yellow, 7, 13),
        Some(Illegal::PartTooBig { by: 6, left: 5 })
    );
    let p = with_yellow("chaupar", "6,7,23,80", "YB");
    assert_eq!(
        why_move(&p, throw(1, 1, 1), "", Yellow, 80, 84),
        Some(Illegal::PartTooBig { by: 4, left: 3 }),
        "home is 4 away, 3 points are left"
    );
}

#[test]
fn must_use_more_chaupar() {
    let p = with_yellow("chaupar", "60,84,84,84", "-");
    let t = throw(1, 2, 6);
    assert_eq!(
        why_move(&p, t, "", Yellow, 60, 65),
        Some(Illegal::MustUseMore),
        "one piece takes one part: the other 4 points would be lost"
    );
    assert_eq!(why_move(&p, t, "", Yellow, 60, 69), None);
}

#[test]
fn not_ahead_chaupar() {
    let t = throw(1, 2, 6);
    assert_eq!(why_move(CH, t, "", Yellow, 24, 20), Some(Illegal::NotAhead));
    assert_eq!(why_move(CH, t, "", Yellow, 24, 24), Some(Illegal::NotAhead));
    assert_eq!(
        why_move(CH, t, "", Yellow, 24, 200),
        Some(Illegal::NotAhead)
    );
}

/// With 1, 2, 5 and one piece left at 79, going home with the 5 uses one die
/// where two can be used (79-80-82).
fn home_with_one_die_uses_too_little(p: &str) {
    let t = throw(1, 2, 5);
    assert_eq!(
        why_move(p, t, "", Yellow, 79, 84),
        Some(Illegal::MustUseMore)
    );
    assert_eq!(why_move(p, t, "", Yellow, 79, 80), None);
}

// ---- chausar: each die, groups with pairs, blockades past half way ---------------

#[test]
fn allowed_moves_chausar() {
    let t = throw(1, 2, 5);
    assert_eq!(why_move(CS, t, "", Yellow, 0, 1), None);
    assert_eq!(why_move(CS, t, "", Yellow, 0, 5), None);
    assert_eq!(why_move(CS, t, "Y0-1", Yellow, 1, 3), None);
}

#[test]
fn group_moves_with_a_pair_chausar() {
    let p = "chausar 4 y Y10,10,0,0/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -";
    assert_eq!(why_move(p, throw(2, 2, 5), "", Yellow, 10, 14), None);
    assert_eq!(
        why_move(p, throw(1, 2, 5), "", Yellow, 10, 14),
        Some(Illegal::NoPair { by: 4 }),
        "the biggest unit's reason: the group's"
    );
}

#[test]
fn blockade_on_the_way_chausar() {
    let g = green(40);
    let p = format!("chausar 4 y Y36,38,0,0/R0,0,0,0/B0,0,0,0/G{g},{g},0,0 - -");
    assert_eq!(
        why_move(&p, throw(1, 2, 5), "", Yellow, 36, 41),
        Some(Illegal::BlockadeOnPath { at: 40, size: 2 })
    );
    assert_eq!(
        why_move(&p, throw(1, 2, 5), "", Yellow, 38, 40),
        Some(Illegal::BlockadeThere { size: 2 })
    );
    let q = format!("chausar 4 y Y36,36,0,0/R0,0,0,0/B0,0,0,0/G{g},{g},0,0 - -");
    assert_eq!(
        why_move(&q, throw(2, 2, 5), "", Yellow, 36, 40),
        None,
        "a group as big takes it"
    );
}

#[test]
fn team_order_column_chausar() {
    let p = "chausar 4 y Y75,0,0,0/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -";
    assert_eq!(
        why_move(p, throw(1, 2, 5), "", Yellow, 75, 76),
        Some(Illegal::TeamOrder {
            colour: Yellow,
            first: Black,
            column: true
        })
    );
}

#[test]
fn overshoot_chausar() {
    let p = "chausar 2 y Y10,82,84,84/B0,0,0,0 - -";
    assert_eq!(
        why_move(p, throw(5, 6, 6), "", Yellow, 82, 84),
        Some(Illegal::Overshoot { need: 2 }),
        "every die left is bigger than the 2 it needs"
    );
    assert_eq!(
        why_move(p, throw(1, 1, 1), "", Yellow, 82, 84),
        Some(Illegal::NoSuchDie { by: 2 }),
        "the dice left are smaller: no die makes 2"
    );
}

#[test]
fn not_your_pieces_chausar() {
    assert_eq!(
        why_move(CS, throw(1, 2, 5), "", Green, 0, 1),
        Some(Illegal::NotYourPart {
            colour: Green,
            actor: Yellow
        })
    );
}

#[test]
fn no_die_makes_the_distance_chausar() {
    assert_eq!(
        why_move(CS, throw(1, 2, 5), "", Yellow, 0, 3),
        Some(Illegal::NoSuchDie { by: 3 })
    );
    assert_eq!(
        why_move(CS, throw(1, 2, 5), "Y0-5", Yellow, 5, 10),
        Some(Illegal::NoSuchDie { by: 5 }),
        "the 5 is used"
    );
}

#[test]
fn must_use_more_chausar() {
    home_with_one_die_uses_too_little("chausar 2 y Y79,84,84,84/B0,0,0,0 - -");
}

#[test]
fn not_ahead_chausar() {
    assert_eq!(
        why_move(CS, throw(1, 2, 5), "", Yellow, 0, 0),
        Some(Illegal::NotAhead)
    );
}

// ---- classic: blocks, declared super-pieces, safe squares, passed points ---------

#[test]
fn allowed_moves_classic() {
    let t = throw(1, 2, 5);
    assert_eq!(why_move(CL, t, "", Yellow, 24, 26), None);
    let p = with_yellow("classic", "9,11,23,24", "-");
    assert_eq!(
        why_move(&p, t, "", Yellow, 9, 11),
        None,
        "a landing that needs a declaration"
    );
}

#[test]
fn block_on_the_way_classic() {
    let r = red(27);
    let p = format!("classic 4 y Y7,9,9,24/R6,7,{r},{r}/B6,7,23,24/G6,7,23,24 - Y9:0,R{r}:0");
    let t = throw(1, 2, 5);
    assert_eq!(
        why_move(&p, t, "", Yellow, 24, 29),
        Some(Illegal::BlockOnPath { at: 27 }),
        "an enemy block"
    );
    assert_eq!(
        why_move(&p, t, "", Yellow, 7, 12),
        Some(Illegal::BlockOnPath { at: 9 }),
        "the player's own block too"
    );
    assert_eq!(why_move(&p, t, "", Yellow, 7, 9), Some(Illegal::OwnBlock));
    assert_eq!(
        why_move(&p, t, "", Yellow, 9, 11),
        None,
        "a block moves apart"
    );
}

#[test]
fn block_there_classic() {
    let r = red(26);
    let p = format!("classic 4 y Y6,7,23,24/R6,7,{r},{r}/B6,7,23,24/G6,7,23,24 - R{r}:0");
    assert_eq!(
        why_move(&p, throw(1, 2, 5), "", Yellow, 24, 26),
        Some(Illegal::BlockThere)
    );
}

#[test]
fn safe_square_classic() {
    let r = red(12);
    let p = format!("classic 4 y Y6,7,23,24/R6,{r},23,24/B6,7,23,24/G6,7,23,24 - -");
    assert_eq!(
        why_move(&p, throw(1, 2, 5), "", Yellow, 7, 12),
        Some(Illegal::SafeSquare { colour: Red })
    );
}

#[test]
fn overshoot_classic() {
    let p = "classic 4 y Y10,20,30,82/R6,7,23,24/B84,84,84,84/G6,7,23,24 Y -";
    assert_eq!(
        why_move(p, throw(5, 6, 6), "", Yellow, 82, 84),
        Some(Illegal::Overshoot { need: 2 })
    );
}

#[test]
fn not_your_part_classic() {
    let p = "classic 4 b Y10,20,30,36/R6,7,23,24/B83,84,84,84/G6,7,23,24 B -";
    let t = throw(1, 2, 5);
    assert_eq!(
        why_move(p, t, "", Yellow, 10, 12),
        Some(Illegal::NotYourPart {
            colour: Yellow,
            actor: Black
        }),
        "Black uses what he can first"
    );
    assert_eq!(why_move(p, t, "B83-84", Yellow, 10, 12), None);
    assert_eq!(
        why_move(p, t, "B83-84", Black, 84, 85),
        Some(Illegal::AtHome)
    );
}

#[test]
fn stuck_thrower_hears_why_classic() {
    // Black cannot use 5, 5, 6 (home is 4 away): the dice pass to Yellow, and
    // Black's click is answered with why his piece cannot go.
    let p = "classic 4 b Y10,20,30,36/R6,7,23,24/B80,84,84,84/G6,7,23,24 B -";
    let t = throw(5, 5, 6);
    assert_eq!(
        why_move(p, t, "", Black, 80, 84),
        Some(Illegal::Overshoot { need: 4 })
    );
    assert_eq!(why_move(p, t, "", Yellow, 10, 15), None);
}

#[test]
fn must_break_block_classic() {
    let p = "classic 4 y Y10,30,30,84/R6,7,23,24/B6,7,23,24/G6,7,23,24 - Y30:3";
    let t = throw(1, 1, 1);
    assert_eq!(
        why_move(p, t, "Y10-11 Y11-12", Yellow, 12, 13),
        Some(Illegal::MustBreakBlock { progress: 30 }),
        "the last die must break the overdue block"
    );
    assert_eq!(why_move(p, t, "Y10-11 Y11-12", Yellow, 30, 31), None);
}

#[test]
fn no_die_makes_the_distance_classic() {
    assert_eq!(
        why_move(CL, throw(1, 2, 5), "", Yellow, 24, 32),
        Some(Illegal::NoSuchDie { by: 8 })
    );
}

#[test]
fn must_use_more_classic() {
    home_with_one_die_uses_too_little(
        "classic 4 y Y79,84,84,84/R6,7,23,24/B84,84,84,84/G6,7,23,24 Y -",
    );
}

#[test]
fn not_ahead_classic() {
    let p = with_yellow("classic", "6,7,23,70", "-");
    assert_eq!(
        why_move(&p, throw(1, 2, 5), "", Yellow, 70, 5),
        Some(Illegal::NotAhead),
        "going round, it never comes to its first squares again"
    );
}

#[test]
fn turn_over_every_preset() {
    for preset in Preset::ALL {
        let p = Position::new(Rules::preset(preset), 4).unwrap();
        let t = throw(1, 2, 5);
        let mut turn = Turn::new(&p, t).unwrap();
        while let Some(s) = turn.legal_steps().first().copied() {
            turn.step(s).unwrap();
        }
        assert_eq!(
            turn.why_not_move(Yellow, 6, 7),
            Some(Illegal::TurnOver),
            "{preset:?}"
        );
    }
}

// ---- properties over positions reached by random step-by-step play ---------------

/// A turn in the middle of a game reached by random steps: `turns` whole turns,
/// then `steps` steps into the next.
fn random_turn(preset: Preset, players: u8, seed: u64, turns: usize, steps: usize) -> Option<Turn> {
    let rules = Rules::preset(preset);
    let mut p = Position::new(rules, players).ok()?;
    let mut dice = Dice::from_seed(seed);
    let mut pick = seed;
    let mut choose = |n: usize| {
        pick = pick
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (pick >> 33) as usize % n
    };
    for turn_no in 0..=turns {
        p.to_move()?;
        let mut turn = Turn::new(&p, dice.throw(rules.faces)).ok()?;
        let last = turn_no == turns;
        for _ in 0..if last { steps } else { usize::MAX } {
            let next = turn.legal_steps();
            if next.is_empty() {
                break;
            }
            turn.step(next[choose(next.len())]).ok()?;
        }
        if last {
            return Some(turn);
        }
        p = turn.finish().ok()?.position;
    }
    None
}

/// The games the properties are checked in: preset and players.
const GAMES: [(Preset, u8); 4] = [
    (Preset::Chaupar, 4),
    (Preset::Chausar, 4),
    (Preset::Chausar, 2),
    (Preset::Classic, 4),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn legal_steps_are_never_refused(
        game in 0..GAMES.len(),
        seed in any::<u64>(),
        turns in 0usize..150,
        steps in 0usize..3,
    ) {
        let (preset, players) = GAMES[game];
        let Some(turn) = random_turn(preset, players, seed, turns, steps) else {
            return Ok(());
        };
        for s in turn.legal_steps() {
            prop_assert_eq!(turn.why_not_move(s.colour, s.from, s.to), None, "{:?}", s);
        }
    }

    #[test]
    fn refusals_never_panic_and_none_means_legal(
        game in 0..GAMES.len(),
        seed in any::<u64>(),
        turns in 0usize..150,
        steps in 0usize..3,
        clicks in proptest::collection::vec((0usize..4, any::<u8>(), any::<u8>(), any::<bool>()), 12),
    ) {
        let (preset, players) = GAMES[game];
        let Some(turn) = random_turn(preset, players, seed, turns, steps) else {
            return Ok(());
        };
        let legal = turn.legal_steps();
        let here = turn.current();
        for (c, from, to, near) in clicks {
            let colour = Colour::ALL[c];
            // Mostly a piece the colour has and a square not far ahead of it.
            let (from, to) = if near {
                let pieces = here.pieces(colour);
                let from = pieces.get(from as usize % 4).copied().unwrap_or(from);
                (from, from.wrapping_add(to % 20))
            } else {
                (from, to)
            };
            let why = turn.why_not_move(colour, from, to);
            let matches = legal.iter().any(|s| s.colour == colour && s.from == from && s.to == to);
            prop_assert_eq!(why.is_none(), matches, "{:?} {} -> {}: {:?}", colour, from, to, why);
        }
    }
}
