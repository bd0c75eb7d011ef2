//! `chaupar puzzles`: the JSON shape, each puzzle's best play legal and clearly
//! best, the same seed giving the same puzzles, and bad arguments refused.
mod common;

use common::chaupar;
use serde_json::Value;

fn puzzles(args: &[&str]) -> Value {
    let out = chaupar(args, "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn puzzles_json_lists_positions_with_a_clearly_best_play() {
    let args = [
        "puzzles", "--rules", "chaupar", "--count", "2", "--seed", "3", "--budget", "5000",
        "--json",
    ];
    let v = puzzles(&args);
    let list = v["puzzles"].as_array().expect("{\"puzzles\": [...]}");
    assert!(!list.is_empty() && list.len() <= 2, "{v}");
    for p in list {
        for key in ["position", "best", "rules", "colour"] {
            assert!(p[key].is_string(), "{key}: {p}");
        }
        assert_eq!(p["rules"], "chaupar");
        assert_eq!(p["throw"].as_array().unwrap().len(), 3, "{p}");
        let ranking = p["ranking"].as_array().unwrap();
        assert!(ranking.len() >= 2 && ranking.len() <= 5, "{p}");
        assert_eq!(ranking[0]["play"], p["best"]);
        let win = |i: usize| ranking[i]["win"].as_f64().unwrap();
        let margin = p["margin"].as_f64().unwrap();
        assert!(margin >= 0.10, "{p}");
        assert!((margin - (win(0) - win(1))).abs() < 1e-12, "{p}");
        // The best play is legal: `chaupar moves` lists it.
        let throw: Vec<String> = (p["throw"].as_array().unwrap().iter())
            .map(|d| d.to_string())
            .collect();
        let out = chaupar(
            &[
                "moves",
                "--position",
                "-",
                "--throw",
                &throw.join(","),
                "--json",
            ],
            p["position"].as_str().unwrap(),
        );
        let moves: Value = serde_json::from_slice(&out.stdout).unwrap();
        let plays: Vec<&str> = (moves["plays"].as_array().unwrap().iter())
            .map(|m| m["notation"].as_str().unwrap())
            .collect();
        assert!(plays.len() >= 3, "{p}");
        assert!(
            plays.contains(&p["best"].as_str().unwrap()),
            "{p}: {plays:?}"
        );
    }
    assert_eq!(puzzles(&args), v, "the same seed gives the same puzzles");
    // The table names the best plays.
    let out = chaupar(&args[..args.len() - 1], "");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains(list[0]["best"].as_str().unwrap()), "{table}");
}

#[test]
fn puzzles_refuses_bad_arguments() {
    for args in [
        ["puzzles", "--rules", "ludo"],
        ["puzzles", "--count", "0"],
        ["puzzles", "--budget", "0"],
    ] {
        let out = chaupar(&args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// `chaupar race`: a column race's exact chances, a class solved, bad input refused.
#[test]
fn race_prints_exact_chances_and_solves_a_class() {
    let pos = "chaupar 4 y Y80,84,84,84/R77,84,84,84/B82,83,84,84/G81,83,84,84 YRBG -";
    let v = puzzles(&["race", pos, "--json"]);
    let sides = v["sides"].as_array().expect("{\"sides\": [...]}");
    assert_eq!(sides.len(), 2);
    assert_eq!(sides[0]["side"], "yellow+black");
    let total: f64 = sides.iter().map(|s| s["win"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-5, "{v}");
    let c = puzzles(&[
        "race",
        "--rules",
        "chausar",
        "--players",
        "2",
        "--out",
        "2",
        "--json",
    ]);
    assert_eq!(c["rules"], "chausar");
    assert!(
        c["states"].as_u64().unwrap() > 30
            && c["solved"].as_u64().unwrap() >= c["states"].as_u64().unwrap(),
        "{c}"
    );
    // Not a column race: the starting position, a piece on the tip.
    for bad in [
        "chaupar",
        "chaupar 4 y Y76,84,84,84/R77,84,84,84/B82,83,84,84/G81,83,84,84 YRBG -",
    ] {
        let out = chaupar(&["race", bad], "");
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a column race"));
    }
    let out = chaupar(&["race", "--out", "5"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--out must be 1 to 4"));
}
