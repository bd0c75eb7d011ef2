//! Bad input of any kind gets a clear error and never a panic: position text,
//! JSON, plays, records, rules and throws (the same checks as the fuzz targets,
//! run on random and mutated inputs in the normal test suite).

use chaupar_core::notation::{parse_play, parse_position, position_text};
use chaupar_core::{json, record, Game, Generator, Position, Preset, Rules, Throw};
use proptest::prelude::*;

/// Cases per property: the default, or PROPTEST_CASES for a longer hunt.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

const START: &str = "classic 4 y Y6,7,23,23/R6,7,23,24/B6,7,23,24/G6,7,23,24 - Y23:1";

fn sample_record() -> String {
    let mut game = Game::new(Rules::preset(Preset::Classic), 4, 9).unwrap();
    let mut g = Generator::new();
    for _ in 0..12 {
        let t = game.throw().unwrap();
        g.generate(game.position(), t).unwrap();
        let steps = g.steps(0).to_vec();
        game.play(&steps).unwrap();
    }
    record::write(&game, &[("Yellow", "Ann")])
}

/// Mutates a string: replace, insert or delete a few characters.
fn mutated(base: String) -> impl Strategy<Value = String> {
    proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<char>()), 1..6).prop_map(
        move |edits| {
            let mut chars: Vec<char> = base.chars().collect();
            for (i, op, c) in edits {
                if chars.is_empty() {
                    chars.push(c);
                    continue;
                }
                let k = i.index(chars.len());
                match op {
                    0 => chars[k] = c,
                    1 => chars.insert(k, c),
                    _ => {
                        chars.remove(k);
                    }
                }
            }
            chars.into_iter().collect()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(400), ..ProptestConfig::default() })]

    #[test]
    fn position_text_never_panics(s in "\\PC*") {
        let _ = parse_position(&s);
    }

    #[test]
    fn mutated_position_text_errs_or_round_trips(s in mutated(START.to_string())) {
        if let Ok(p) = parse_position(&s) {
            prop_assert_eq!(parse_position(&position_text(&p)).unwrap(), p);
        }
    }

    #[test]
    fn mutated_json_errs_or_round_trips(s in mutated(json::position_value(&parse_position(START).unwrap()).to_string())) {
        if let Ok(p) = json::parse_position(&s) {
            prop_assert_eq!(json::parse_position(&json::position_value(&p).to_string()).unwrap(), p);
        }
    }

    #[test]
    fn mutated_plays_are_legal_or_rejected(s in mutated("Y6-7 Y7-9 Y23-28".to_string()), t in 0usize..64) {
        let p = Position::new(Rules::preset(Preset::Classic), 4).unwrap();
        let throw = chaupar_core::dice::outcomes(p.rules().faces)[t];
        if let Ok(play) = parse_play(&p, throw, &s) {
            prop_assert!(chaupar_core::legal_plays(&p, throw).unwrap().iter().any(|x| x.position == play.position));
        }
    }

    #[test]
    fn mutated_records_replay_or_fail_cleanly(s in mutated(sample_record())) {
        let _ = record::replay(&s);
    }

    #[test]
    fn rules_and_throws_never_panic(s in "\\PC{0,40}") {
        let _ = Rules::parse_compact(&s);
        let _ = s.parse::<Throw>();
    }
}

#[test]
fn errors_say_what_is_wrong() {
    let e = parse_position("chaupar 4 y Y6,7,23/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -").unwrap_err();
    assert!(e.to_string().contains("Yellow has 3 pieces"), "{e}");
    let e =
        parse_position("chaupar 4 y Y6,7,23,99/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -").unwrap_err();
    assert!(e.to_string().contains("progress 99"), "{e}");
    let e =
        parse_position("chaupar[tohd=maybe] 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -")
            .unwrap_err();
    assert!(
        e.to_string().contains("tohd does not take \"maybe\""),
        "{e}"
    );
    let e =
        json::parse_position(r#"{"rules":"chaupar","to_move":"purple","pieces":{}}"#).unwrap_err();
    assert!(e.to_string().contains("purple"), "{e}");
    let e = json::parse_position(
        r#"{"rules":"chaupar","to_move":"yellow","pieces":{"yellow":[6,7,23,24]},"colour":1}"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("unknown field"), "{e}");
    let p = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
    let e = parse_play(&p, "1,2,6".parse::<Throw>().unwrap(), "Y6-8 Y8-9").unwrap_err();
    assert!(e.to_string().contains("already taken its part"), "{e}");
    let e = parse_play(&p, "1,2,6".parse::<Throw>().unwrap(), "Y6x15").unwrap_err();
    assert!(e.to_string().contains("captures nothing"), "{e}");
    let text = sample_record().replace("[Seed \"9\"]", "[Seed \"10\"]");
    let e = record::replay(&text).unwrap_err();
    assert!(e.line > 0 || e.to_string().contains("First"), "{e}");
}

#[test]
fn a_dead_position_reads_back() {
    let text = "chaupar[tohd=home] 4 - Y83,83,83,83/R83,83,83,83/B83,83,83,83/G83,83,83,83 - -";
    let p = parse_position(text).unwrap();
    assert_eq!(p.outcome(), chaupar_core::Outcome::Dead);
    assert_eq!(position_text(&p), text);
    let j = json::position_value(&p);
    assert_eq!(j["dead"], true);
    assert_eq!(json::parse_position(&j.to_string()).unwrap(), p);
}
