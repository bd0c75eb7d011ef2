//! Measures the cost of play generation in random playouts and in the expert's
//! search, to calibrate the node budget (plays generated per millisecond).
use std::time::Instant;

use chaupar_ai::{BotSpec, Limits};
use chaupar_core::{Dice, Generator, Position, Preset, Rules};

fn main() {
    for p in Preset::ALL {
        fit(p);
    }
    if std::env::args().any(|a| a == "--fit") {
        return;
    }
    for name in ["uct", "expert"] {
        let spec: BotSpec = name.parse().unwrap();
        let mut bot = spec.build(1, Limits::nodes_for_ms(250));
        let mut dice = Dice::from_seed(5);
        let mut pos = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
        for k in 0..30 {
            let th = dice.throw(pos.rules().faces);
            let plays = chaupar_core::legal_plays(&pos, th).unwrap();
            let t = Instant::now();
            let i = bot.choose(&pos, th, &plays);
            if k % 10 == 0 {
                println!(
                    "{name}: decision {k}: {} plays, {:.1} ms",
                    plays.len(),
                    t.elapsed().as_secs_f64() * 1000.0
                );
            }
            pos = plays[i].position;
            if pos.to_move().is_none() {
                break;
            }
        }
    }
    for preset in Preset::ALL {
        let mut gen = Generator::new();
        let mut dice = Dice::from_seed(1);
        let mut rng = chaupar_ai::Rng::new(1);
        let (mut gens, mut plays) = (0usize, 0usize);
        let t = Instant::now();
        for _ in 0..20 {
            let mut pos = Position::new(Rules::preset(preset), 4).unwrap();
            while pos.to_move().is_some() {
                let n = gen.generate(&pos, dice.throw(pos.rules().faces)).unwrap();
                gens += 1;
                plays += n;
                pos = *gen.position(rng.below(n));
            }
        }
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{preset}: random play: {gens} generations, {plays} plays, {:.1} us/generation, {:.0} plays/ms",
            ms * 1000.0 / gens as f64,
            plays as f64 / ms
        );
        // Greedy play positions.
        let mut bot = BotSpec::Greedy.build(1, Limits::default());
        let (mut gens, mut plays) = (0usize, 0usize);
        let t = Instant::now();
        for _ in 0..20 {
            let mut pos = Position::new(Rules::preset(preset), 4).unwrap();
            while pos.to_move().is_some() {
                let th = dice.throw(pos.rules().faces);
                let n = gen.generate(&pos, th).unwrap();
                gens += 1;
                plays += n;
                let ps = gen.plays();
                pos = ps[bot.choose(&pos, th, &ps)].position;
            }
        }
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{preset}: greedy play (with evaluation): {gens} generations, {plays} plays, {:.1} us/generation, {:.0} plays/ms",
            ms * 1000.0 / gens as f64,
            plays as f64 / ms
        );
    }
}

/// Fits work units: time of one generation plus evaluating every play, against
/// the number of plays, over positions from greedy games (least squares), with
/// the linear model and, where the preset has one, the network (measured
/// alternately on the same positions and throws).
fn fit(preset: Preset) {
    use chaupar_ai::eval::{Side, Weights};
    use chaupar_ai::net::Net;
    use chaupar_ai::Evaluator;
    let w = Weights::embedded(preset);
    let net = Net::embedded(preset);
    let mut gen = Generator::new();
    let mut dice = Dice::from_seed(3);
    let mut bot = BotSpec::Greedy.build(1, Limits::default());
    let mut linear: Vec<(f64, f64)> = Vec::new();
    let mut network: Vec<(f64, f64)> = Vec::new();
    let time = |gen: &mut Generator, pos: &Position, t, ev: &dyn Fn(&Position) -> f64| {
        let t0 = Instant::now();
        let mut s = 0.0;
        for _ in 0..5 {
            let n = gen.generate(pos, t).unwrap();
            for i in 0..n {
                s += ev(gen.position(i));
            }
        }
        std::hint::black_box(s);
        (gen.len() as f64, t0.elapsed().as_secs_f64() * 1e6 / 5.0)
    };
    for _ in 0..30 {
        let mut pos = Position::new(Rules::preset(preset), 4).unwrap();
        while let Some(m) = pos.to_move() {
            let side = Side::of(&pos, m);
            for (t, _) in chaupar_core::dice::distinct_throws(pos.rules().faces) {
                linear.push(time(&mut gen, &pos, t, &|p| w.win_chance(p, side)));
                if let Some(net) = net {
                    network.push(time(&mut gen, &pos, t, &|p| net.win_chance(p, side)));
                }
            }
            let th = dice.throw(pos.rules().faces);
            let plays = chaupar_core::legal_plays(&pos, th).unwrap();
            pos = plays[bot.choose(&pos, th, &plays)].position;
        }
    }
    for (name, samples) in [("linear", &linear), ("network", &network)] {
        if samples.is_empty() {
            continue;
        }
        let n = samples.len() as f64;
        let mx = samples.iter().map(|s| s.0).sum::<f64>() / n;
        let my = samples.iter().map(|s| s.1).sum::<f64>() / n;
        let sxy: f64 = samples.iter().map(|s| (s.0 - mx) * (s.1 - my)).sum();
        let sxx: f64 = samples.iter().map(|s| (s.0 - mx) * (s.0 - mx)).sum();
        let b = sxy / sxx;
        let a = my - b * mx;
        println!(
            "{preset} ({name}): {} samples, mean {mx:.1} plays, {my:.1} us; us = {a:.2} + {b:.3} x plays",
            samples.len()
        );
    }
}
