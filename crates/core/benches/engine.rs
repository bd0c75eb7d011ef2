//! Speed of the rules engine: whole random games (uniform among distinct plays),
//! the fast playout policy, and listing every legal play of typical positions.

use chaupar_core::dice::Dice;
use chaupar_core::{notation, playout, Generator, Position, Preset, Rules};
mod common;

use common::midgame;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays one whole game choosing uniformly among the distinct legal plays.
fn random_game(rules: Rules, g: &mut Generator, dice: &mut Dice, rng: &mut ChaCha8Rng) -> u32 {
    let mut pos = Position::new(rules, 4).unwrap();
    let mut turns = 0;
    while pos.to_move().is_some() && turns < 2000 {
        let t = dice.throw(rules.faces);
        let n = g.generate(&pos, t).unwrap();
        pos = *g.position(rng.next_u32() as usize % n);
        turns += 1;
    }
    turns
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1));
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let mut g = Generator::new();
        let mut dice = Dice::from_seed(1);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        group.bench_with_input(BenchmarkId::from_parameter(preset), &rules, |b, r| {
            b.iter(|| random_game(*r, &mut g, &mut dice, &mut rng))
        });
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("fast_playout");
    group.throughput(Throughput::Elements(1));
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let start = Position::new(rules, 4).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        group.bench_with_input(BenchmarkId::from_parameter(preset), &start, |b, s| {
            b.iter(|| playout::random_playout(s, &mut rng, 5000))
        });
    }
    group.finish();
}

fn legal_plays(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_plays_midgame");
    for preset in Preset::ALL {
        let positions = midgame(preset, 32);
        let mut g = Generator::new();
        let total: usize = positions
            .iter()
            .map(|(p, t)| g.generate(p, *t).unwrap())
            .sum();
        eprintln!(
            "{preset}: {} positions, {:.1} plays on average; e.g. {}",
            positions.len(),
            total as f64 / positions.len() as f64,
            notation::position_text(&positions[0].0)
        );
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_with_input(BenchmarkId::from_parameter(preset), &positions, |b, ps| {
            // Every play listed and every position after it read (a dead game is
            // only marked when its position is read).
            b.iter(|| {
                ps.iter()
                    .map(|(p, t)| {
                        let n = g.generate(p, *t).unwrap();
                        (0..n)
                            .filter(|&i| g.position(i).to_move().is_some())
                            .count()
                    })
                    .sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, legal_plays, games, playouts);
criterion_main!(benches);
