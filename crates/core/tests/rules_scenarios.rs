//! One scenario per rule row of RULINGS.md in every preset: a case the rule allows
//! and a case it forbids. Each test is named `<rule>_<preset>`.

mod common;
use chaupar_core::{Colour, Illegal, Outcome, Position, Preset, Rules, Winner};
use common::*;

const CH: &str = "chaupar 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -";
const CS: &str = "chausar 4 y Y0,0,0,0/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -";
const CL: &str = "classic 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -";

fn red(yellow_progress: u8) -> u8 {
    meet(Colour::Yellow, yellow_progress, Colour::Red)
}
fn black(yellow_progress: u8) -> u8 {
    meet(Colour::Yellow, yellow_progress, Colour::Black)
}

// ---- start -------------------------------------------------------------------

#[test]
fn start_chaupar() {
    let p = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
    for c in Colour::ALL {
        assert_eq!(p.pieces(c), &[6, 7, 23, 24]);
    }
    assert!(
        !p.pieces(Colour::Yellow).contains(&0),
        "no piece starts in the Charkoni"
    );
}

#[test]
fn start_chausar() {
    let p = Position::new(Rules::preset(Preset::Chausar), 4).unwrap();
    assert_eq!(p.pieces(Colour::Red), &[0, 0, 0, 0]);
    // They leave on any die.
    assert!(legal(&p, throw(1, 2, 5), "Y0-1 Y0-2 Y0-5"));
    assert!(legal(&p, throw(6, 6, 6), "Y0-6 Y6-12 Y12-18"));
    // ...but none stands on the board before it has left.
    assert_eq!(
        why(&p, throw(1, 2, 5), "Y6-7"),
        Some(Illegal::NoPiece {
            colour: Colour::Yellow,
            progress: 6
        })
    );
}

#[test]
fn start_classic() {
    let p = Position::new(Rules::preset(Preset::Classic), 4).unwrap();
    assert_eq!(p.pieces(Colour::Green), &[6, 7, 23, 24]);
    assert!(p.blocks().next().is_none());
}

// ---- use of the throw --------------------------------------------------------

#[test]
fn throw_use_chaupar_total_split_one_part_per_piece() {
    let p = pos(CH);
    let t = throw(1, 2, 6);
    assert!(legal(&p, t, "Y6-15"), "one piece takes the whole 9");
    assert!(legal(&p, t, "Y6-9 Y7-13"), "two pieces by 3 and 6");
    assert!(legal(&p, t, "Y6-10 Y7-12"), "or by 4 and 5");
    assert_eq!(
        why(&p, t, "Y6-8 Y8-9"),
        Some(Illegal::AlreadyMoved),
        "a piece takes one part"
    );
    assert!(!legal(&p, t, "Y6-13"), "the whole total must be used");
    // Every play uses all 9 points.
    for pl in plays(&p, t) {
        assert_eq!(pl.steps.iter().map(|s| s.by as u32).sum::<u32>(), 9);
    }
}

#[test]
fn throw_use_chausar_each_die_separately() {
    let p = pos(CS);
    let t = throw(1, 2, 5);
    assert!(
        legal(&p, t, "Y0-1 Y1-3 Y3-8"),
        "one piece may take several dice"
    );
    assert_eq!(
        why(&p, t, "Y0-3"),
        Some(Illegal::NoSuchDie { by: 3 }),
        "dice are not added into one step"
    );
}

#[test]
fn throw_use_classic_each_die_separately() {
    let p = pos(CL);
    let t = throw(1, 2, 5);
    assert!(legal(&p, t, "Y24-26 Y26-27 Y27-32"));
    assert_eq!(why(&p, t, "Y24-32"), Some(Illegal::NoSuchDie { by: 8 }));
    assert!(
        !legal(&p, t, "Y24-26 Y26-27"),
        "all three dice must be used when they can"
    );
}

// ---- points that cannot be used ----------------------------------------------

#[test]
fn unused_chaupar_lost() {
    let p = pos("chaupar 4 b Y10,20,30,36/R6,7,23,24/B82,84,84,84/G6,7,23,24 B -");
    let all = plays(&p, throw(1, 1, 1));
    assert_eq!(all.len(), 1);
    assert_eq!(
        common::play(&p, throw(1, 1, 1), "B82-84").unwrap().position,
        all[0].position
    );
    assert!(
        all[0].steps.iter().all(|s| s.colour == Colour::Black),
        "the lost point is not passed"
    );
    assert!(why(&p, throw(1, 1, 1), "B82-84 Y10-11").is_some());
}

#[test]
fn unused_chausar_lost() {
    let p = pos("chausar 4 b Y10,20,30,36/R0,0,0,0/B82,84,84,84/G0,0,0,0 - -");
    let all = plays(&p, throw(1, 1, 1));
    assert_eq!(all.len(), 1);
    assert!(all[0].steps.iter().all(|s| s.colour == Colour::Black));
    assert_eq!(all[0].steps.len(), 2, "the third die is lost");
}

#[test]
fn unused_classic_passed_to_partner() {
    let p = pos("classic 4 b Y10,20,30,36/R6,7,23,24/B83,84,84,84/G6,7,23,24 B -");
    let t = throw(1, 2, 5);
    assert!(
        legal(&p, t, "B83-84 Y10-12 Y20-25"),
        "the dice Black cannot use pass to Yellow"
    );
    assert_eq!(
        why(&p, t, "Y10-12"),
        Some(Illegal::NotYourPart {
            colour: Colour::Yellow,
            actor: Colour::Black
        }),
        "no voluntary pass: Black must use what he can first"
    );
    for pl in plays(&p, t) {
        assert_eq!(pl.steps.len(), 3, "mover and partner together use all dice");
    }
}

// ---- same colour ending on one square -----------------------------------------

#[test]
fn stacking_chaupar_automatic_super_piece() {
    let joined = after(&pos(CH), throw(1, 2, 6), "Y6-7 Y23-25 Y24-30");
    assert_eq!(joined.pieces(Colour::Yellow), &[7, 7, 25, 30]);
    let p = pos("chaupar 4 y Y7,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -");
    assert!(
        legal(&p, throw(1, 2, 6), "2Y7-16"),
        "the super-piece moves as one"
    );
    assert_eq!(
        why(&p, throw(1, 2, 6), "Y7-8"),
        Some(Illegal::StackMovesWhole { size: 2 })
    );
    assert_eq!(
        why(&pos(CH), throw(1, 2, 6), "Y6-7 2Y7-9"),
        Some(Illegal::AlreadyMoved),
        "a stack a piece joined does not move again"
    );
}

#[test]
fn stacking_chausar_group_moves_with_equal_pair() {
    let p = pos("chausar 4 y Y10,10,0,0/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -");
    let t = throw(2, 2, 5);
    assert!(
        legal(&p, t, "2Y10-14 Y0-5"),
        "an equal pair moves the group by its sum"
    );
    assert!(
        legal(&p, t, "Y10-12 Y12-14 Y14-19"),
        "or the pieces move singly"
    );
    assert_eq!(why(&p, t, "2Y10-15"), Some(Illegal::NoPair { by: 5 }));
    assert_eq!(
        why(&p, t, "Y0-4"),
        Some(Illegal::NoSuchDie { by: 4 }),
        "a lone piece uses a pair as two dice"
    );
}

#[test]
fn stacking_classic_declare_super_or_block() {
    let p = pos("classic 4 y Y9,11,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -");
    let t = throw(1, 2, 5);
    let b = after(&p, t, "Y9-11=B Y23-28 Y28-29");
    assert!(b.is_block(Colour::Yellow, 11));
    let s = after(&p, t, "Y9-11=S Y23-28 Y28-29");
    assert!(!s.is_block(Colour::Yellow, 11));
    assert_ne!(b, s, "block and super-piece are two different plays");
    assert_eq!(why(&p, t, "Y9-11"), Some(Illegal::Declare { needed: true }));
    // A third piece may not join a block.
    let blocked = pos("classic 4 y Y9,11,11,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - Y11:0");
    assert_eq!(why(&blocked, t, "Y9-11"), Some(Illegal::OwnBlock));
    // ...but joins a super-piece without a choice.
    let sup = pos("classic 4 y Y9,11,11,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -");
    assert_eq!(why(&sup, t, "Y9-11"), None);
}

// ---- blockade ----------------------------------------------------------------

#[test]
fn blockade_chaupar_none() {
    let r = red(33);
    let p = pos(&format!(
        "chaupar 4 y Y30,7,6,24/R{r},{r},6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    assert_eq!(
        why(&p, throw(1, 2, 6), "Y30-39"),
        None,
        "an enemy double past half way does not stop passing"
    );
    assert!(matches!(
        why(&p, throw(1, 1, 1), "Y30-33"),
        Some(Illegal::BiggerEnemy { size: 2, .. })
    ));
}

#[test]
fn blockade_chausar_past_half_way() {
    let r = red(62);
    assert!(r >= 42);
    let p = pos(&format!(
        "chausar 4 y Y60,0,0,0/R{r},{r},0,0/B0,0,0,0/G0,0,0,0 - -"
    ));
    assert!(matches!(
        why(&p, throw(5, 1, 1), "Y60-65"),
        Some(Illegal::BlockadeOnPath { size: 2, .. })
    ));
    assert!(matches!(
        why(&p, throw(2, 1, 1), "Y60-62"),
        Some(Illegal::BlockadeThere { size: 2 })
    ));
    // A group as big passes it, or takes it by landing.
    let g = pos(&format!(
        "chausar 4 y Y60,60,0,0/R{r},{r},0,0/B0,0,0,0/G0,0,0,0 - -"
    ));
    assert_eq!(why(&g, throw(2, 2, 5), "2Y60-64"), None);
    let taken = after(&g, throw(1, 1, 5), "2Y60x62 Y0-5");
    assert_eq!(taken.pieces(Colour::Red), &[0, 0, 0, 0]);
    // Two enemies that have not gone half way are no blockade.
    let r2 = red(37);
    assert!(r2 < 42);
    let low = pos(&format!(
        "chausar 4 y Y35,0,0,0/R{r2},{r2},0,0/B0,0,0,0/G0,0,0,0 - -"
    ));
    assert_eq!(why(&low, throw(5, 1, 1), "Y35-40"), None);
    // Nor are pieces waiting at the foot of their middle row (75).
    let foot = meet(Colour::Red, 75, Colour::Yellow);
    let w = pos(&format!(
        "chausar 4 y Y{},0,0,0/R75,75,0,0/B0,0,0,0/G0,0,0,0 - -",
        foot - 1
    ));
    assert_eq!(
        why(&w, throw(5, 1, 1), &format!("Y{}-{}", foot - 1, foot + 4)),
        None
    );
}

#[test]
fn blockade_classic_block_stops_everyone() {
    let p = pos("classic 4 y Y20,22,22,36/R6,7,23,24/B6,7,23,24/G6,7,23,24 - Y22:0");
    let t = throw(5, 1, 2);
    assert_eq!(
        why(&p, t, "Y20-25"),
        Some(Illegal::BlockOnPath { at: 22 }),
        "its owner may not pass it"
    );
    assert_eq!(why(&p, t, "Y20-22"), Some(Illegal::OwnBlock));
    assert_eq!(
        why(&p, t, "Y22-27"),
        None,
        "moving one of its pieces breaks it"
    );
    let b = black(30);
    let q = pos(&format!(
        "classic 4 y Y28,7,23,24/R6,7,23,24/B{b},{b},6,7/G6,7,23,24 - B{b}:1"
    ));
    assert_eq!(
        why(&q, t, "Y28-33"),
        Some(Illegal::BlockOnPath { at: 30 }),
        "nor may a partner"
    );
    assert_eq!(why(&q, t, "Y28-30"), Some(Illegal::BlockThere));
}

// ---- capture -----------------------------------------------------------------

#[test]
fn capture_chaupar_by_size() {
    let r = red(33);
    let single = pos(&format!(
        "chaupar 4 y Y30,7,6,24/R{r},23,6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    let a = after(&single, throw(1, 1, 1), "Y30x33");
    assert_eq!(
        a.pieces(Colour::Red)[0],
        0,
        "the captured piece goes to the Charkoni"
    );
    assert!(a.has_captured(Colour::Yellow));
    let double = pos(&format!(
        "chaupar 4 y Y30,7,6,24/R{r},{r},6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    assert!(matches!(
        why(&double, throw(1, 1, 1), "Y30-33"),
        Some(Illegal::BiggerEnemy {
            size: 2,
            mover: 1,
            ..
        })
    ));
    let two = pos(&format!(
        "chaupar 4 y Y30,30,6,24/R{r},{r},6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    let a = after(&two, throw(1, 1, 1), "2Y30x33");
    assert_eq!(
        a.pieces(Colour::Red),
        &[0, 0, 6, 7],
        "a double takes a double"
    );
}

#[test]
fn capture_chausar_takes_all_that_are_no_blockade() {
    let r = red(37);
    let p = pos(&format!(
        "chausar 4 y Y35,0,0,0/R{r},{r},0,0/B0,0,0,0/G0,0,0,0 - -"
    ));
    let a = after(&p, throw(2, 1, 1), "Y35x37 Y0-1 Y0-1");
    assert_eq!(
        a.pieces(Colour::Red),
        &[0, 0, 0, 0],
        "a single takes a group that is no blockade"
    );
    let rb = red(62);
    let q = pos(&format!(
        "chausar 4 y Y60,0,0,0/R{rb},{rb},0,0/B0,0,0,0/G0,0,0,0 - -"
    ));
    assert!(matches!(
        why(&q, throw(2, 1, 1), "Y60-62"),
        Some(Illegal::BlockadeThere { .. })
    ));
}

#[test]
fn capture_classic_single_takes_single_blocks_immune_safe_squares() {
    let r = red(31);
    let p = pos(&format!(
        "classic 4 y Y30,7,6,24/R{r},23,6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    assert_eq!(why(&p, throw(1, 2, 5), "Y30x31"), None);
    let sup = pos(&format!(
        "classic 4 y Y30,7,6,24/R{r},{r},6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    assert!(matches!(
        why(&sup, throw(1, 2, 5), "Y30-31"),
        Some(Illegal::BiggerEnemy { size: 2, .. })
    ));
    let blk = pos(&format!(
        "classic 4 y Y30,7,6,24/R{r},{r},6,7/B6,7,23,24/G6,7,23,24 - R{r}:0"
    ));
    assert_eq!(
        why(&blk, throw(1, 2, 5), "Y30-31"),
        Some(Illegal::BlockThere),
        "blocks cannot be captured"
    );
    let rs = red(29);
    let safe = pos(&format!(
        "classic 4 y Y28,7,6,24/R{rs},23,6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    assert_eq!(
        why(&safe, throw(1, 2, 5), "Y28-29"),
        Some(Illegal::SafeSquare {
            colour: Colour::Red
        })
    );
}

// ---- captured pieces ---------------------------------------------------------

#[test]
fn captured_pieces_chaupar_reenter_from_one() {
    let p = pos("chaupar 4 r Y6,7,23,24/R0,0,23,24/B6,7,23,24/G6,7,23,24 Y -");
    assert!(
        legal(&p, throw(1, 1, 1), "R0-3"),
        "a piece in the Charkoni lands on progress d"
    );
    assert_eq!(
        why(&p, throw(1, 1, 1), "2R0-3"),
        Some(Illegal::OneAtATime),
        "a captured super-piece returns as separate pieces"
    );
}

#[test]
fn captured_pieces_chausar_go_to_the_charkoni() {
    let p = pos("chausar 4 r Y6,7,23,24/R0,0,23,24/B0,0,0,0/G0,0,0,0 Y -");
    assert!(legal(&p, throw(1, 2, 5), "R0-1 R0-2 R2-7"));
    assert_eq!(why(&p, throw(1, 1, 5), "2R0-2"), Some(Illegal::OneAtATime));
}

#[test]
fn captured_pieces_classic_reenter_from_one() {
    let p = pos("classic 4 r Y6,7,23,24/R0,0,23,24/B6,7,23,24/G6,7,23,24 Y -");
    assert!(legal(&p, throw(1, 2, 5), "R0-1 R0-2 R24-29"));
    assert_eq!(why(&p, throw(1, 1, 5), "2R0-1"), Some(Illegal::OneAtATime));
}

// ---- extra throw -------------------------------------------------------------

#[test]
fn extra_throw_chaupar_never() {
    let r = red(33);
    let p = pos(&format!(
        "chaupar 4 y Y30,7,6,24/R{r},23,6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    let a = after(&p, throw(1, 1, 1), "Y30x33");
    assert_eq!((a.to_move(), a.extra_throw()), (Some(Colour::Red), false));
}

#[test]
fn extra_throw_chausar_after_a_capture() {
    let r = red(37);
    let p = pos(&format!(
        "chausar 4 y Y35,0,0,0/R{r},0,0,0/B0,0,0,0/G0,0,0,0 - -"
    ));
    let a = after(&p, throw(2, 1, 1), "Y35x37 Y0-1 Y0-1");
    assert_eq!(
        (a.to_move(), a.extra_throw()),
        (Some(Colour::Yellow), true),
        "capture earns another throw"
    );
    let b = after(&p, throw(2, 1, 1), "Y35-36 Y0-1 Y0-2");
    assert_eq!(
        (b.to_move(), b.extra_throw()),
        (Some(Colour::Red), false),
        "no capture, no extra throw"
    );
    // That throw can earn another.
    let again = after(&a, throw(1, 1, 1), "Y37-38 Y0-1 Y1-2");
    assert_eq!(again.to_move(), Some(Colour::Red));
}

#[test]
fn extra_throw_classic_never() {
    let r = red(31);
    let p = pos(&format!(
        "classic 4 y Y30,7,6,24/R{r},23,6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    let a = after(&p, throw(1, 2, 5), "Y30x31 Y31-33 Y33-38");
    assert_eq!((a.to_move(), a.extra_throw()), (Some(Colour::Red), false));
}

// ---- safe squares ------------------------------------------------------------

#[test]
fn safe_chaupar_none() {
    let rs = red(29);
    let p = pos(&format!(
        "chaupar 4 y Y28,7,6,24/R{rs},23,6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    assert_eq!(
        why(&p, throw(1, 1, 1), "Y28-29"),
        None,
        "no square is a refuge"
    );
}

#[test]
fn safe_chausar_none() {
    let rs = red(29);
    let p = pos(&format!(
        "chausar 4 y Y28,0,0,0/R{rs},0,0,0/B0,0,0,0/G0,0,0,0 - -"
    ));
    assert_eq!(why(&p, throw(1, 2, 5), "Y28-29"), None);
}

#[test]
fn safe_classic_castles() {
    let rs = red(29);
    let p = pos(&format!(
        "classic 4 y Y28,7,6,24/R{rs},23,6,7/B6,7,23,24/G6,7,23,24 - -"
    ));
    assert_eq!(
        why(&p, throw(1, 2, 5), "Y28-29"),
        Some(Illegal::SafeSquare {
            colour: Colour::Red
        })
    );
    assert_eq!(
        why(&p, throw(1, 2, 5), "Y28-30"),
        None,
        "pieces pass castles freely"
    );
    let b = black(29);
    let q = pos(&format!(
        "classic 4 y Y28,7,6,24/R6,7,23,24/B{b},7,23,24/G6,7,23,24 - -"
    ));
    assert_eq!(
        why(&q, throw(1, 2, 5), "Y28-29"),
        None,
        "partners share a castle"
    );
}

// ---- splitting a stack --------------------------------------------------------

#[test]
fn split_chaupar_never() {
    let p = pos("chaupar 4 y Y20,20,20,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -");
    assert_eq!(
        why(&p, throw(1, 2, 6), "2Y20-29"),
        Some(Illegal::StackMovesWhole { size: 3 })
    );
    assert_eq!(why(&p, throw(1, 2, 6), "3Y20-29"), None);
}

#[test]
fn split_chausar_groups_not_stacks() {
    let p = pos("chausar 4 y Y20,20,20,0/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -");
    assert_eq!(
        why(&p, throw(1, 1, 5), "Y20-25"),
        None,
        "a die moves one piece of a group"
    );
    assert_eq!(
        why(&p, throw(1, 1, 5), "2Y20-22"),
        Some(Illegal::GroupNeedsPair),
        "a pair moves the whole group"
    );
    assert_eq!(why(&p, throw(1, 1, 5), "3Y20-22"), None);
}

#[test]
fn split_classic_take_pieces_off_the_top() {
    let p = pos("classic 4 y Y20,20,20,36/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -");
    let t = throw(1, 2, 5);
    assert_eq!(why(&p, t, "Y20-22"), None);
    assert_eq!(why(&p, t, "2Y20-22"), None);
    assert_eq!(why(&p, t, "3Y20-22"), None);
    assert!(matches!(
        why(&p, t, "4Y20-22"),
        Some(Illegal::BadSize {
            pieces: 4,
            there: 3
        })
    ));
    let a = after(&p, t, "2Y20-25 Y20-21 Y36-38");
    assert_eq!(a.pieces(Colour::Yellow), &[21, 25, 25, 38]);
}

// ---- capture before finishing (tohd) ----------------------------------------

#[test]
fn tohd_chaupar_circle() {
    let p = pos("chaupar 4 y Y74,84,84,84/R6,7,23,24/B84,84,84,84/G6,7,20,21 - -");
    assert!(
        legal(&p, throw(1, 1, 1), "Y74-9"),
        "without a capture the piece goes round again"
    );
    assert_eq!(
        why(&p, throw(1, 1, 1), "Y74-77"),
        Some(Illegal::WrongDestination { to: 9 })
    );
    let c = pos("chaupar 4 y Y74,84,84,84/R6,7,23,24/B84,84,84,84/G6,7,20,21 Y -");
    assert!(
        legal(&c, throw(1, 1, 1), "Y74-77"),
        "after a capture it turns up its middle column"
    );
}

#[test]
fn tohd_chausar_off() {
    let p = pos("chausar 4 b Y6,0,0,0/R0,0,0,0/B83,0,0,0/G0,0,0,0 - -");
    assert_eq!(
        why(&p, throw(1, 2, 5), "B83-84"),
        None,
        "no capture is needed to go home"
    );
}

#[test]
fn tohd_classic_circle() {
    let p = pos("classic 4 y Y74,84,84,84/R6,7,23,24/B84,84,84,84/G6,7,20,21 - -");
    assert_eq!(why(&p, throw(2, 1, 5), "Y74-8"), None);
    assert_eq!(
        why(&p, throw(2, 1, 5), "Y74-76"),
        Some(Illegal::WrongDestination { to: 8 })
    );
}

#[test]
fn tohd_home_option_allows_the_column_but_not_home() {
    let p = pos("chaupar[tohd=home] 4 b Y6,7,23,24/R6,7,23,24/B73,82,84,84/G6,7,23,24 - -");
    assert_eq!(why(&p, throw(1, 1, 1), "B73-76"), None);
    assert_eq!(
        why(&p, throw(1, 1, 1), "B82-84"),
        Some(Illegal::NoCapture {
            colour: Colour::Black
        })
    );
}

// ---- team order ---------------------------------------------------------------

#[test]
fn order_chaupar_black_home_before_yellow_enters() {
    let p = pos("chaupar 4 y Y82,84,84,84/R6,7,23,24/B6,84,84,84/G6,7,23,24 Y -");
    assert!(matches!(
        why(&p, throw(1, 1, 1), "Y82-84"),
        Some(Illegal::TeamOrder {
            first: Colour::Black,
            column: false,
            ..
        })
    ));
    let ok = pos("chaupar 4 y Y82,84,84,84/R6,7,23,24/B84,84,84,84/G6,7,23,24 Y -");
    assert_eq!(why(&ok, throw(1, 1, 1), "Y82-84"), None);
}

#[test]
fn order_chausar_black_home_before_yellow_goes_up() {
    let p = pos("chausar 4 y Y74,75,0,0/R0,0,0,0/B6,0,0,0/G0,0,0,0 - -");
    assert!(matches!(
        why(&p, throw(2, 1, 1), "Y74-76"),
        Some(Illegal::TeamOrder { column: true, .. })
    ));
    assert!(
        matches!(
            why(&p, throw(2, 1, 1), "Y75-76"),
            Some(Illegal::TeamOrder { .. })
        ),
        "a piece at 75 cannot move"
    );
    assert_eq!(why(&p, throw(2, 1, 1), "Y74-75"), None);
}

#[test]
fn order_classic_black_home_before_yellow_enters() {
    let p = pos("classic 4 y Y83,84,84,84/R6,7,23,24/B6,84,84,84/G6,7,23,24 Y -");
    assert!(matches!(
        why(&p, throw(1, 2, 5), "Y83-84"),
        Some(Illegal::TeamOrder { .. })
    ));
    let ok = pos("classic 4 y Y83,84,84,84/R6,7,23,24/B84,84,84,84/G6,7,23,24 Y -");
    assert_eq!(why(&ok, throw(1, 2, 5), "Y83-84"), None);
}

// ---- a player with all pieces home --------------------------------------------

#[test]
fn finished_chaupar_skipped() {
    let p = pos("chaupar 4 g Y10,20,30,36/R6,7,23,24/B84,84,84,84/G6,7,23,24 B -");
    let after_green = plays(&p, throw(1, 1, 1))[0].position;
    assert_eq!(after_green.to_move(), Some(Colour::Yellow));
    let after_yellow = plays(&after_green, throw(1, 1, 1))[0].position;
    assert_eq!(after_yellow.to_move(), Some(Colour::Red));
    let after_red = plays(&after_yellow, throw(1, 1, 1))[0].position;
    assert_eq!(
        after_red.to_move(),
        Some(Colour::Green),
        "Black's turns are skipped"
    );
}

#[test]
fn finished_chausar_partner_may_use_or_decline() {
    let p = pos("chausar 4 b Y10,20,30,36/R0,0,0,0/B84,84,84,84/G0,0,0,0 - -");
    let t = throw(1, 2, 5);
    assert!(legal(&p, t, "-"), "the partner may decline the throw");
    assert!(legal(&p, t, "Y10-11 Y11-13 Y13-18"), "or play it fully");
    assert!(
        !legal(&p, t, "Y10-11"),
        "if he plays it, as fully as he can"
    );
    assert_eq!(
        why(&p, t, "B84-85"),
        Some(Illegal::NotYourPart {
            colour: Colour::Black,
            actor: Colour::Yellow
        })
    );
}

#[test]
fn finished_classic_every_point_passes() {
    let p = pos("classic 4 b Y10,20,30,36/R6,7,23,24/B84,84,84,84/G6,7,23,24 B -");
    let t = throw(1, 2, 5);
    assert!(!legal(&p, t, "-"), "the partner must use the points");
    assert!(legal(&p, t, "Y10-11 Y11-13 Y13-18"));
    assert!(plays(&p, t).iter().all(|pl| pl.steps.len() == 3));
}

// ---- players -------------------------------------------------------------------

#[test]
fn players_chaupar_four_or_two_in_teams() {
    let r = Rules::preset(Preset::Chaupar);
    assert!(Position::new(r, 2).unwrap().has_teams());
    assert_eq!(Position::new(r, 2).unwrap().colours().len(), 4);
    assert!(Position::new(r, 3).is_err());
}

#[test]
fn players_chausar_two_or_three_for_themselves() {
    let r = Rules::preset(Preset::Chausar);
    let two = Position::new(r, 2).unwrap();
    assert!(!two.has_teams());
    assert_eq!(
        two.colours().iter().collect::<Vec<_>>(),
        vec![Colour::Yellow, Colour::Black]
    );
    assert_eq!(Position::new(r, 3).unwrap().colours().len(), 3);
    // Yellow and Black are enemies in a two-player game.
    let b = meet(Colour::Yellow, 37, Colour::Black);
    let p = pos(&format!("chausar 2 y Y35,0,0,0/B{b},0,0,0 - -"));
    let a = after(&p, throw(2, 1, 1), "Y35x37 Y0-1 Y0-1");
    assert_eq!(a.pieces(Colour::Black)[0], 0);
    assert!(Position::new(r, 5).is_err());
}

#[test]
fn players_classic_four_or_two() {
    let r = Rules::preset(Preset::Classic);
    assert!(Position::new(r, 4).is_ok());
    assert!(Position::new(r, 3).is_err());
}

// ---- winning -------------------------------------------------------------------

#[test]
fn winning_chaupar_first_team_all_eight_home() {
    let p = pos("chaupar 4 b Y84,84,84,84/R6,7,23,24/B82,84,84,84/G6,7,23,24 B -");
    let a = after(&p, throw(1, 1, 1), "B82-84");
    assert_eq!(
        a.outcome(),
        Outcome::Won(Winner::Team(chaupar_core::Team::YellowBlack))
    );
    assert_eq!(a.to_move(), None);
    let q = pos("chaupar 4 b Y10,84,84,84/R6,7,23,24/B82,84,84,84/G6,7,23,24 B -");
    assert_eq!(
        after(&q, throw(1, 1, 1), "B82-84").outcome(),
        Outcome::Ongoing,
        "one colour home is not a win"
    );
}

#[test]
fn winning_chausar_first_player_home_in_solo() {
    let p = pos("chausar 2 y Y83,84,84,84/B0,0,0,0 - -");
    let a = after(&p, throw(1, 2, 5), "Y83-84");
    assert_eq!(a.winner(), Some(Winner::Colour(Colour::Yellow)));
    assert!(
        chaupar_core::legal_plays(&a, throw(1, 2, 5)).is_err(),
        "no plays after the win"
    );
}

#[test]
fn winning_classic_team() {
    let p = pos("classic 4 r Y6,7,23,24/R84,84,84,84/B6,7,23,24/G83,84,84,84 RG -");
    // Red is finished: every point passes to Green.
    let a = after(&p, throw(1, 2, 5), "G83-84");
    assert_eq!(a.winner(), Some(Winner::Team(chaupar_core::Team::RedGreen)));
}

// ---- fine points -----------------------------------------------------------------

#[test]
fn fine_point_overdue_block_must_be_broken() {
    let p = pos("classic 4 y Y20,22,22,36/R6,7,23,24/B6,7,23,24/G6,7,23,24 - Y22:3");
    let t = throw(1, 2, 5);
    // Every play breaks it (one re-formed in the same play is a new block, age 0).
    for pl in plays(&p, t) {
        assert!(pl.position.blocks().all(|b| b.age == 0), "{:?}", pl.steps);
    }
    assert_eq!(
        why(&p, t, "Y36-37 Y37-39 Y39-44"),
        Some(Illegal::MustBreakBlock { progress: 22 })
    );
    // One turn younger, it may stand, and it ages.
    let young = pos("classic 4 y Y20,22,22,36/R6,7,23,24/B6,7,23,24/G6,7,23,24 - Y22:2");
    let a = after(&young, t, "Y36-37 Y37-39 Y39-44");
    assert_eq!(a.blocks().next().map(|b| b.age), Some(3));
}

#[test]
fn fine_point_capture_earlier_in_a_play_allows_home_later() {
    // Black has not captured; a capture with one part lets another part go home.
    let r = meet(Colour::Black, 31, Colour::Red);
    let p = pos(&format!(
        "chaupar 4 b Y6,7,23,24/R{r},6,7,23/B30,82,84,84/G6,7,23,24 - -"
    ));
    assert!(legal(&p, throw(1, 1, 1), "B30x31 B82-84"));
    assert!(
        !legal(&p, throw(1, 1, 1), "B82-84 B30x31"),
        "judged at each step"
    );
}

#[test]
fn fine_point_black_home_in_his_part_lets_yellow_home_in_the_partners() {
    let p = pos("classic 4 b Y83,84,84,84/R6,7,23,24/B83,84,84,84/G6,7,23,24 YB -");
    let a = after(&p, throw(1, 1, 5), "B83-84 Y83-84");
    assert_eq!(
        a.winner(),
        Some(Winner::Team(chaupar_core::Team::YellowBlack))
    );
}

#[test]
fn fine_point_same_colour_different_progress_ignore_each_other() {
    // A Yellow piece at 8 (the tip, going out) and one at 76 (the tip, coming home).
    let p = pos("chaupar 4 y Y8,75,84,84/R6,7,23,24/B84,84,84,84/G6,7,20,21 Y -");
    let a = after(&p, throw(1, 1, 1), "Y75-76 Y8-10");
    assert_eq!(a.pieces(Colour::Yellow), &[10, 76, 84, 84]);
    let b = after(&p, throw(1, 1, 1), "Y8-9 Y75-77");
    assert_eq!(b.pieces(Colour::Yellow), &[9, 77, 84, 84]);
}

#[test]
fn fine_point_exact_count_home() {
    let p = pos("classic 4 b Y6,7,23,24/R6,7,23,24/B82,84,84,84/G6,7,23,24 B -");
    assert_eq!(
        why(&p, throw(5, 5, 5), "B82-87"),
        Some(Illegal::Overshoot { need: 2 })
    );
}
