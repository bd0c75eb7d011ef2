//! Reference counts of distinct legal plays (like perft in chess): fixed positions
//! of every preset with several throws each, checked in under tests/data.
//! Regenerate (only after a deliberate rule change) with
//! `CHAUPAR_WRITE_PERFT=1 cargo test -p chaupar-core --test perft`.

mod common;

use chaupar_core::dice::distinct_throws;
use chaupar_core::{notation, Generator, Preset, Rules, Throw};
use common::position_after;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");

fn lines() -> Vec<String> {
    let mut out = Vec::new();
    let mut g = Generator::new();
    for (preset, players) in [
        (Preset::Chaupar, 4),
        (Preset::Chausar, 4),
        (Preset::Chausar, 2),
        (Preset::Classic, 4),
    ] {
        let rules = Rules::preset(preset);
        let throws = distinct_throws(rules.faces);
        for k in 0..12u64 {
            let Some(pos) = position_after(rules, players, 1000 + k, k, k * 9, &mut g) else {
                continue;
            };
            for j in [0usize, 5, 11, 19] {
                let t: Throw = throws[j % throws.len()].0;
                let n = g.generate(&pos, t).unwrap();
                out.push(format!("{} | {} | {}", notation::position_text(&pos), t, n));
            }
        }
    }
    out
}

#[test]
fn distinct_play_counts_match_the_reference() {
    if std::env::var("CHAUPAR_WRITE_PERFT").is_ok() {
        std::fs::write(FILE, lines().join("\n") + "\n").unwrap();
    }
    let text = std::fs::read_to_string(FILE).expect("reference file");
    let mut g = Generator::new();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let parts: Vec<&str> = line.split(" | ").collect();
        let pos = notation::parse_position(parts[0]).unwrap();
        let t: Throw = parts[1].parse().unwrap();
        let want: usize = parts[2].parse().unwrap();
        let got = g.generate(&pos, t).unwrap();
        assert_eq!(got, want, "{line}");
        checked += 1;
    }
    assert!(
        checked >= 120,
        "at least 10 positions per preset with several throws"
    );
}
