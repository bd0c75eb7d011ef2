//! Puzzles: every shipped puzzle checked by the engine, and the puzzle API
//! (list, try, answer right and wrong, refused answers, bad ids).
mod common;

use chaupar_ai::puzzles::{Puzzle, MIN_CHOICES, MIN_MARGIN};
use chaupar_core::notation::{parse_play, parse_position};
use chaupar_core::{legal_plays, Throw};
use common::*;
use serde_json::{json, Value};

/// Each preset's shipped set, as the server embeds it.
const SETS: [(&str, &str); 3] = [
    ("chaupar", include_str!("../data/puzzles/chaupar.json")),
    ("chausar", include_str!("../data/puzzles/chausar.json")),
    ("classic", include_str!("../data/puzzles/classic.json")),
];

fn puzzles(text: &str) -> Vec<Puzzle> {
    let v: Value = serde_json::from_str(text).unwrap();
    serde_json::from_value(v["puzzles"].clone()).unwrap()
}

#[test]
fn every_shipped_puzzle_has_a_clearly_best_legal_play() {
    for (preset, text) in SETS {
        let set = puzzles(text);
        assert!(!set.is_empty(), "{preset}: no puzzles");
        let mut seen = std::collections::HashSet::new();
        for (i, p) in set.iter().enumerate() {
            let at = format!("{preset} puzzle {i}");
            let pos = parse_position(&p.position).unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(pos.rules().preset.name(), preset, "{at}");
            assert_eq!(p.rules, preset, "{at}");
            assert_eq!(
                pos.to_move().map(|c| c.name().to_string()),
                Some(p.colour.clone()),
                "{at}: the colour to move"
            );
            let throw =
                Throw::new(p.throw, pos.rules().faces).unwrap_or_else(|e| panic!("{at}: {e}"));
            let plays = legal_plays(&pos, throw).unwrap();
            assert!(plays.len() >= MIN_CHOICES, "{at}: {} plays", plays.len());
            let best =
                parse_play(&pos, throw, &p.best).unwrap_or_else(|e| panic!("{at}: best: {e}"));
            assert_eq!(p.ranking[0].play, p.best, "{at}");
            assert!(p.ranking.len() >= 2, "{at}");
            let mut ends = std::collections::HashSet::new();
            for r in &p.ranking {
                let q = parse_play(&pos, throw, &r.play)
                    .unwrap_or_else(|e| panic!("{at}: {}: {e}", r.play));
                assert!(ends.insert(q.position), "{at}: {} twice", r.play);
                assert!((0.0..=1.0).contains(&r.win), "{at}");
            }
            assert!(ends.contains(&best.position));
            assert!(
                p.ranking.windows(2).all(|w| w[0].win >= w[1].win),
                "{at}: ranking not sorted"
            );
            assert!(p.margin >= MIN_MARGIN, "{at}: margin {}", p.margin);
            assert!(
                (p.margin - (p.ranking[0].win - p.ranking[1].win)).abs() < 1e-12,
                "{at}: margin is not best minus second"
            );
            assert!(seen.insert((p.position.clone(), p.throw)), "{at}: twice");
        }
    }
}

/// Whether a JSON number is `want` (up to the last bit of a decimal round trip).
fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-12)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_are_posed_without_answers_and_answers_are_judged() {
    let s = start(&temp_db("puzzles")).await;
    let shipped = puzzles(SETS[0].1);
    let list = get(&s, "/api/puzzles?rules=chaupar").await;
    assert_eq!(list["rules"], "chaupar");
    let posed = list["puzzles"].as_array().unwrap();
    assert_eq!(posed.len(), shipped.len());
    for (i, p) in posed.iter().enumerate() {
        assert_eq!(p["n"], i);
        assert_eq!(p["position_text"], shipped[i].position.as_str());
        assert!(p["position"]["pieces"].is_object(), "{p}");
        assert!(p.get("best").is_none() && p.get("ranking").is_none(), "{p}");
    }
    assert_eq!(get(&s, "/api/puzzles").await["rules"], "chaupar");
    for preset in ["chausar", "classic"] {
        let l = get(&s, &format!("/api/puzzles?rules={preset}")).await;
        assert!(!l["puzzles"].as_array().unwrap().is_empty(), "{preset}");
    }

    // The board's view: the legal steps, then after the best play's first step.
    let p = &shipped[0];
    let pos = parse_position(&p.position).unwrap();
    let throw = Throw::new(p.throw, pos.rules().faces).unwrap();
    let best = parse_play(&pos, throw, &p.best).unwrap();
    let one = get(&s, "/api/puzzles/chaupar/0").await;
    assert_eq!(one["turn"]["throw"], json!(p.throw));
    let legal = one["turn"]["legal"].as_array().unwrap();
    let first = serde_json::to_value(best.steps[0]).unwrap();
    assert!(legal.contains(&first), "{first} not in {legal:?}");
    let tried = post(&s, "/api/puzzles/chaupar/0/try", &json!({"steps": [first]})).await;
    assert_eq!(tried["turn"]["steps"], json!([first]));

    // Right, by notation and by steps.
    let right = post(
        &s,
        "/api/puzzles/chaupar/0/answer",
        &json!({"play": p.best}),
    )
    .await;
    assert_eq!(right["correct"], true, "{right}");
    assert_eq!(right["best"], p.best.as_str());
    assert!(close(&right["margin"], p.margin), "{right}");
    let ranking = right["ranking"].as_array().unwrap();
    assert_eq!(ranking.len(), p.ranking.len());
    for (r, want) in ranking.iter().zip(&p.ranking) {
        assert_eq!(r["play"], want.play.as_str());
        assert!(close(&r["win"], want.win), "{r}");
    }
    assert!(close(&right["yours"]["win"], p.ranking[0].win), "{right}");
    let by_steps = post(
        &s,
        "/api/puzzles/chaupar/0/answer",
        &json!({"steps": best.steps}),
    )
    .await;
    assert_eq!(by_steps["correct"], true, "{by_steps}");

    // Wrong: the second best, with its win chance.
    let wrong = post(
        &s,
        "/api/puzzles/chaupar/0/answer",
        &json!({"play": p.ranking[1].play}),
    )
    .await;
    assert_eq!(wrong["correct"], false, "{wrong}");
    assert_eq!(wrong["yours"]["play"], p.ranking[1].play.as_str());
    assert!(close(&wrong["yours"]["win"], p.ranking[1].win), "{wrong}");

    // Refused: not a legal play, an unfinished play, an illegal step, bad bodies.
    for body in [json!({"play": "Y1-2 Y2-3 Y3-4 Y4-5"}), json!({"steps": []})] {
        let (st, v) = req(
            &s,
            "POST",
            "/api/puzzles/chaupar/0/answer",
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(st, 422, "{body}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let mut bad_step = best.steps[0];
    bad_step.to = bad_step.to.wrapping_add(40);
    let (st, v) = req(
        &s,
        "POST",
        "/api/puzzles/chaupar/0/try",
        Some(&json!({"steps": [bad_step]}).to_string()),
    )
    .await;
    assert_eq!(st, 422, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("step 1"), "{v}");
    for body in [
        "{}",
        "not json",
        r#"{"play": "-", "steps": []}"#,
        r#"{"moves": 1}"#,
    ] {
        let (st, v) = req(&s, "POST", "/api/puzzles/chaupar/0/answer", Some(body)).await;
        assert_eq!(st, 400, "{body}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }

    // Bad ids.
    for (path, want) in [
        ("/api/puzzles/nope/0/answer", 404),
        ("/api/puzzles/chaupar/99999/answer", 404),
        ("/api/puzzles/chaupar/abc/answer", 400),
        ("/api/puzzles/chaupar/-1/answer", 400),
    ] {
        let (st, v) = req(&s, "POST", path, Some(&json!({"play": p.best}).to_string())).await;
        assert_eq!(st, want, "{path}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    for (path, want) in [
        ("/api/puzzles?rules=nope", 404),
        ("/api/puzzles?colour=red", 400),
        ("/api/puzzles/chaupar/99999", 404),
    ] {
        let (st, v) = req(&s, "GET", path, None).await;
        assert_eq!(st, want, "{path}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    s.stop().await;
}
