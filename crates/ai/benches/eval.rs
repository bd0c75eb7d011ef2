//! Speed of the static evaluation: the win chance of every position the plays
//! of mid-game throws lead to, with the linear model and with the preset's
//! network, per position evaluated (`cargo bench -p chaupar-ai --bench eval`).

use chaupar_ai::eval::{Side, Weights};
use chaupar_ai::net::Net;
use chaupar_ai::{Evaluator, Rng};
use chaupar_core::dice::Dice;
use chaupar_core::{Generator, Position, Preset, Rules};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// The positions after every play of one throw at turns 20, 30, 40 and 50 of
/// seeded random games, with the side of the player who made them.
fn positions(preset: Preset) -> Vec<(Position, Side)> {
    let rules = Rules::preset(preset);
    let mut g = Generator::new();
    let mut out = Vec::new();
    for game in 0..4 {
        let mut dice = Dice::from_seed(50 + game);
        let mut rng = Rng::new(game);
        let mut pos = Position::new(rules, 4).unwrap();
        for turn in 0..60 {
            let Some(m) = pos.to_move() else { break };
            let n = g.generate(&pos, dice.throw(rules.faces)).unwrap();
            if turn >= 20 && turn % 10 == 0 {
                out.extend((0..n).map(|i| (*g.position(i), Side::of(&pos, m))));
            }
            pos = *g.position(rng.below(n));
        }
    }
    out
}

fn evaluate(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluate");
    for preset in Preset::ALL {
        let ps = positions(preset);
        group.throughput(Throughput::Elements(ps.len() as u64));
        let linear = Weights::embedded(preset);
        group.bench_with_input(BenchmarkId::new("linear", preset), &ps, |b, ps| {
            b.iter(|| {
                ps.iter()
                    .map(|(p, s)| linear.win_chance(p, *s))
                    .sum::<f64>()
            })
        });
        if let Some(net) = Net::embedded(preset) {
            group.bench_with_input(BenchmarkId::new("network", preset), &ps, |b, ps| {
                b.iter(|| ps.iter().map(|(p, s)| net.win_chance(p, *s)).sum::<f64>())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
