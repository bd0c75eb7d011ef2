//! `chaupar review RECORD --svg FILE`: the review's win-chance graph written to
//! a file, a point for every turn, with the JSON output unchanged.

mod common;

use common::chaupar;

const RECORD: &str = "[Rules \"chaupar\"]\n[Players \"4\"]\n[First \"yellow\"]\n\n1. Y 1,2,6 Y6-15\n2. R 1,1,1 R6-9\n";

#[test]
fn review_svg_writes_the_graph_with_a_point_per_turn() {
    let dir = std::env::temp_dir().join(format!("chaupar-review-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("review.svg");
    let path = file.to_str().unwrap();
    let out = chaupar(
        &["review", "-", "--budget", "0", "--svg", path, "--json"],
        RECORD,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The JSON on standard output is the review as before.
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["turns"].as_array().unwrap().len(), 2);
    assert!(v["thresholds"]["bad"].is_number());
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("class=\"point\"").count(), 2);
    assert!(svg.contains("data-turn=\"1\"") && svg.contains("data-turn=\"2\""));
    assert!(svg.contains("error rate"));
    // In Russian.
    let out = chaupar(
        &[
            "review", "-", "--budget", "0", "--svg", path, "--lang", "ru",
        ],
        RECORD,
    );
    assert!(out.status.success());
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("доля ошибок"));
    // A file that cannot be written is a clear error.
    let bad = dir.join("no/such/dir/x.svg");
    let out = chaupar(&["review", "-", "--svg", bad.to_str().unwrap()], RECORD);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    std::fs::remove_dir_all(&dir).ok();
}
