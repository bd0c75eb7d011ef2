//! The engine's command-line contract: `chaupar moves --json` (held stable for other
//! tools), `rules`, `show` and `replay`, and clear errors for bad input.

mod common;

use common::chaupar;

use serde_json::Value;

fn moves(position: &str, throw: &str) -> Value {
    let out = chaupar(
        &["moves", "--position", "-", "--throw", throw, "--json"],
        position,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

const START: &str = r#"{"rules": "chaupar", "options": {}, "players": 4, "to_move": "yellow",
 "pieces": {"yellow": [6, 7, 23, 24], "red": [6, 7, 23, 24], "black": [6, 7, 23, 24], "green": [6, 7, 23, 24]},
 "captured": [], "blocks": [], "extra_throw": false}"#;

#[test]
fn moves_json_lists_one_entry_per_distinct_position() {
    let v = moves(START, "1,2,6");
    let plays = v["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 100);
    let mut seen = std::collections::HashSet::new();
    for p in plays {
        assert!(p["notation"].as_str().unwrap().starts_with('Y'));
        let steps = p["steps"].as_array().unwrap();
        assert!(!steps.is_empty());
        for s in steps {
            for k in ["colour", "from", "to", "pieces", "by"] {
                assert!(s.get(k).is_some(), "step has {k}");
            }
        }
        let pos = &p["position"];
        assert_eq!(pos["to_move"], "red");
        assert_eq!(pos["rules"], "chaupar");
        assert_eq!(pos["extra_throw"], false);
        for c in ["yellow", "red", "black", "green"] {
            let list: Vec<u64> = pos["pieces"][c]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .collect();
            assert!(
                list.windows(2).all(|w| w[0] <= w[1]),
                "piece lists ascending"
            );
        }
        assert!(seen.insert(pos.to_string()), "distinct positions");
    }
}

#[test]
fn moves_json_defaults_absent_keys_and_reads_options() {
    let v = moves(
        r#"{"rules": "chaupar", "options": {"tohd": "home", "faces": [1, 3, 4, 6]}, "to_move": "black",
            "pieces": {"yellow": [6, 7, 23, 24], "red": [6, 7, 23, 24], "black": [73, 82, 84, 84], "green": [6, 7, 23, 24]}}"#,
        "1,1,1",
    );
    let plays = v["plays"].as_array().unwrap();
    assert!(!plays.is_empty());
    for p in plays {
        assert_eq!(p["position"]["options"]["tohd"], "home");
        assert_eq!(
            p["position"]["options"]["faces"],
            serde_json::json!([1, 3, 4, 6])
        );
        // tohd=home: Black has not captured, so a piece enters home only after a
        // capture earlier in the same play.
        let black: Vec<u64> = p["position"]["pieces"]["black"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        if black.iter().filter(|x| **x == 84).count() == 3 {
            let n = p["notation"].as_str().unwrap();
            assert!(n.find('x').unwrap() < n.find("-84").unwrap(), "{n}");
        }
    }
}

#[test]
fn moves_json_winning_play_names_the_team() {
    let v = moves(
        r#"{"rules": "chaupar", "to_move": "black", "captured": ["black"],
            "pieces": {"yellow": [84, 84, 84, 84], "red": [6, 7, 23, 24], "black": [82, 84, 84, 84], "green": [6, 7, 23, 24]}}"#,
        "1,1,1",
    );
    let p = &v["plays"][0]["position"];
    assert_eq!(p["to_move"], Value::Null);
    assert_eq!(p["winner"], "yellow+black");
}

#[test]
fn moves_json_extra_throw_keeps_the_colour() {
    // Chausar, two players: Yellow captures Black and throws again.
    let out = moves(
        r#"{"rules": "chausar", "players": 2, "to_move": "yellow",
            "pieces": {"yellow": [35, 0, 0, 0], "black": [71, 0, 0, 0]}}"#,
        "2,1,1",
    );
    let with_capture: Vec<&Value> = out["plays"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["notation"].as_str().unwrap().contains('x'))
        .collect();
    assert!(!with_capture.is_empty());
    for p in with_capture {
        assert_eq!(p["position"]["to_move"], "yellow");
        assert_eq!(p["position"]["extra_throw"], true);
        assert_eq!(p["position"]["winner"], Value::Null);
    }
}

#[test]
fn moves_rejects_bad_input_with_a_message() {
    for (input, throw, needle) in [
        ("{not json", "1,2,6", "bad position JSON"),
        (
            r#"{"rules": "chaupur", "to_move": "yellow", "pieces": {}}"#,
            "1,2,6",
            "unknown rules",
        ),
        (START, "1,2,3", "not a face"),
        (START, "1,2", "three dice"),
        (
            &START.replace("[6, 7, 23, 24], \"red\"", "[6, 7, 23], \"red\""),
            "1,2,6",
            "Yellow has 3 pieces",
        ),
        (
            &START.replace("\"options\": {}", "\"options\": {\"tohd\": 3}"),
            "1,2,6",
            "tohd does not take",
        ),
    ] {
        let out = chaupar(
            &["moves", "--position", "-", "--throw", throw, "--json"],
            input,
        );
        assert!(!out.status.success(), "{input} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{needle:?} not in {err:?}");
        assert!(out.stdout.is_empty(), "nothing on stdout when input is bad");
    }
}

#[test]
fn rules_prints_every_option_with_sources() {
    let out = chaupar(&["rules", "classic"], "");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for opt in [
        "start",
        "throw",
        "unused",
        "stacking",
        "blockade",
        "capture",
        "extra_throw",
        "safe",
        "split",
        "tohd",
        "order",
        "finished",
        "faces",
    ] {
        assert!(text.contains(opt), "{opt}");
    }
    assert!(text.contains("partner (000)"));
    let bad = chaupar(&["rules", "ludo"], "");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown rules"));
}

#[test]
fn show_draws_the_board() {
    let out = chaupar(
        &[
            "show",
            "classic 4 y Y6,7,23,23/R6,7,23,24/B6,7,23,24/G6,7,23,24 - Y23:1",
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().take(19).count(), 19);
    assert!(
        text.contains("y2"),
        "a block is drawn in lower case with its size"
    );
    assert!(text.contains("block at 23 (stood 1 turns)"));
    assert!(text.contains(" + "), "castles are marked");
    let bad = chaupar(&["show", "chaupar 4 y Y1/R2 - -"], "");
    assert!(!bad.status.success());
}

#[test]
fn replay_checks_a_record_and_names_the_bad_line() {
    let record = "[Rules \"chaupar\"]\n[Players \"4\"]\n[First \"yellow\"]\n\n1. Y 1,2,6 Y6-15\n2. R 1,1,1 R6-9\n";
    let out = chaupar(&["replay", "-"], record);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Y6-15"));
    let bad = record.replace("R6-9", "R6-10");
    let out = chaupar(&["replay", "-"], &bad);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 6"), "{err}");
}

#[test]
fn hint_with_a_work_budget_ranks_the_same_every_time() {
    // Tools (the tutor's browser test among them) rank plays with `--nodes`
    // and rely on the same answer however loaded the machine is.
    let args = [
        "hint",
        "--position",
        "-",
        "--throw",
        "1,2,6",
        "--json",
        "--nodes",
        "20000",
    ];
    let runs: Vec<Value> = (0..2)
        .map(|_| {
            let out = chaupar(&args, START);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice(&out.stdout).expect("one JSON object")
        })
        .collect();
    assert_eq!(runs[0], runs[1], "a work budget gives one ranking");
    let plays = runs[0]["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 100, "every distinct play ranked");
    assert_eq!(plays[0]["rank"], 1);
    assert!(plays
        .windows(2)
        .all(|w| w[0]["win"].as_f64().unwrap() >= w[1]["win"].as_f64().unwrap()));
    let out = chaupar(
        &[
            "hint",
            "--position",
            "-",
            "--throw",
            "1,2,6",
            "--nodes",
            "0",
        ],
        START,
    );
    assert!(!out.status.success(), "no work is no ranking");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--nodes"));
}
