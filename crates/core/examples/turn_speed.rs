//! Times the step-by-step view on a busy position:
//! `cargo run --release -p chaupar-core --example turn_speed`.

use chaupar_core::notation::parse_position;
use chaupar_core::{Throw, Turn};

fn main() {
    for (text, t) in [
        (
            "chaupar 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -",
            [6, 6, 6],
        ),
        (
            "chaupar 4 y Y0,0,30,50/R6,7,23,24/B6,7,23,24/G6,7,23,24 YR -",
            [6, 6, 6],
        ),
        (
            "classic 4 y Y6,7,23,24/R6,7,23,24/B6,7,23,24/G6,7,23,24 - -",
            [6, 5, 1],
        ),
        (
            "chausar 4 y Y0,0,0,0/R0,0,0,0/B0,0,0,0/G0,0,0,0 - -",
            [5, 5, 1],
        ),
    ] {
        let pos = parse_position(text).expect("position");
        let start = std::time::Instant::now();
        let throw = Throw::new(t, pos.rules().faces).expect("throw");
        let turn = Turn::new(&pos, throw).expect("turn");
        let made = start.elapsed();
        let steps = turn.legal_steps();
        let listed = start.elapsed() - made;
        let mut deeper = std::time::Duration::ZERO;
        if let Some(s) = steps.first() {
            let mut t2 = turn.clone();
            let t0 = std::time::Instant::now();
            t2.step(*s).expect("step");
            let _ = t2.legal_steps();
            deeper = t0.elapsed();
        }
        println!(
            "{text} {t:?}: new {:.2} ms, {} first steps listed in {:.2} ms, a step and the next list {:.2} ms",
            made.as_secs_f64() * 1e3,
            steps.len(),
            listed.as_secs_f64() * 1e3,
            deeper.as_secs_f64() * 1e3
        );
    }
}
