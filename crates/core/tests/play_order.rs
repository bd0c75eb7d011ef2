//! The plays of a position and their order are part of the engine's behaviour: the
//! bots, the simulator and every recorded strength run choose among plays by their
//! index. These fingerprints fold the text of every play (its steps and the position
//! it leads to), in the order listed, over many turns of seeded games in every
//! preset; a change to the listing that reorders, adds or drops a play changes them.
//! They were recorded from the reference search before the listing was made faster.

use chaupar_core::notation::{position_text, step_text};
use chaupar_core::{Game, Generator, Preset, Rules};
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// FNV-1a, 64 bits.
fn fold(h: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *h ^= *b as u64;
        *h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// Plays a seeded game (`game_seed` its dice, `rng_seed` the choice of each
/// turn's play among those listed, uniformly) for at most `max_turns` turns;
/// `listed` sees each turn's listing and the index of the play then played.
fn play_listed(
    g: &mut Generator,
    rules: Rules,
    players: u8,
    (game_seed, rng_seed): (u64, u64),
    max_turns: usize,
    mut listed: impl FnMut(&Generator, usize, usize),
) {
    let mut game = Game::new(rules, players, game_seed).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(rng_seed);
    let mut turns = 0;
    while game.position().to_move().is_some() && turns < max_turns {
        let t = game.throw().unwrap();
        let n = g.generate(game.position(), t).unwrap();
        let chosen = rng.next_u32() as usize % n;
        listed(g, n, chosen);
        let steps = g.steps(chosen).to_vec();
        game.play(&steps).unwrap();
        turns += 1;
    }
}

/// The fingerprint of every listing over `games` seeded games of `preset`.
fn fingerprint(rules: Rules, players: u8, games: u64) -> (u64, u64) {
    let mut g = Generator::new();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut plays = 0u64;
    for seed in 0..games {
        play_listed(
            &mut g,
            rules,
            players,
            (1000 + seed, seed),
            3000,
            |g, n, _| {
                plays += n as u64;
                for i in 0..n {
                    for s in g.steps(i) {
                        fold(&mut h, step_text(s, false).as_bytes());
                        fold(&mut h, b" ");
                    }
                    fold(&mut h, position_text(g.position(i)).as_bytes());
                    fold(&mut h, b"\n");
                }
            },
        );
    }
    (h, plays)
}

/// A preset, options changed from it, and the number of players.
type Case = (Preset, &'static [(&'static str, &'static str)], u8);

#[test]
fn plays_are_listed_in_the_same_order() {
    let cases: [Case; 10] = [
        (Preset::Chaupar, &[], 4),
        (Preset::Chaupar, &[], 2),
        (Preset::Chausar, &[], 4),
        (Preset::Chausar, &[], 3),
        (Preset::Chausar, &[], 2),
        (Preset::Classic, &[], 4),
        (Preset::Classic, &[], 2),
        // Dead games, a split total with blockades, each die with super-pieces.
        (
            Preset::Chaupar,
            &[("tohd", "home"), ("start", "charkoni")],
            4,
        ),
        (
            Preset::Chausar,
            &[("throw", "total"), ("stacking", "super")],
            4,
        ),
        (
            Preset::Classic,
            &[("safe", "none"), ("unused", "lost"), ("split", "never")],
            4,
        ),
    ];
    let got: Vec<(u64, u64)> = cases
        .iter()
        .map(|(p, options, n)| {
            let rules = Rules::preset(*p)
                .with_options(options.iter().copied())
                .unwrap();
            fingerprint(rules, *n, 8)
        })
        .collect();
    for (h, plays) in &got {
        // `--nocapture` prints them, to record them again after a deliberate change.
        println!("(0x{h:016x}, {plays}),");
    }
    let want: Vec<(u64, u64)> = vec![
        (0xca9f9a28feff003f, 112695),
        (0x5a315ab940eb6dc9, 112695),
        (0x33ab8c7fc4165191, 64334),
        (0x4d7f2489a507b4c7, 33189),
        (0xe0c168dfb16359be, 18160),
        (0xa0a71513e0240e68, 42446),
        (0x7c409840362d1388, 42446),
        (0xa61c91fd967a5a03, 40810),
        (0x2be66d0e6c24e01e, 46041),
        (0xee15988b8b21782a, 24123),
    ];
    assert_eq!(got, want);
}

/// The fast playout policy draws the same random steps from the same seed: the
/// end of seeded playouts in every preset, recorded before it was made faster.
#[test]
fn playouts_draw_the_same_steps() {
    let mut got = Vec::new();
    for preset in Preset::ALL {
        let start = chaupar_core::Position::new(Rules::preset(preset), 4).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut turns = 0u64;
        for _ in 0..40 {
            let end = chaupar_core::playout::random_playout(&start, &mut rng, 5000);
            turns += end.turns as u64;
            fold(&mut h, position_text(&end.position).as_bytes());
        }
        println!("(0x{h:016x}, {turns}),");
        got.push((h, turns));
    }
    let want: Vec<(u64, u64)> = vec![
        (0xae9171e60f47a1d2, 5152),
        (0x711ae4125b21090a, 9420),
        (0x8d8058e0a8f0afb8, 6410),
    ];
    assert_eq!(got, want);
}

/// Split totals under every combination of the options their listing reads
/// (capture before finishing, safe squares, what a stack captures, team order,
/// a finished player's throw, the extra throw, the start; two and four
/// players): one seeded game of up to 120 turns each. Recorded from the
/// listing of 2026-12-06 before it skipped sharings that only find a play
/// again (each is the same play, found first by an earlier sharing).
#[test]
fn split_totals_list_the_same_plays_under_every_option() {
    let options: [(&str, &[&str]); 7] = [
        ("tohd", &["circle", "home", "off"]),
        ("safe", &["none", "castles"]),
        ("capture", &["size", "all"]),
        ("order", &["finish", "column", "off"]),
        ("finished", &["skip", "partner-may", "partner-must"]),
        ("extra_throw", &["never", "capture"]),
        ("start", &["posts", "charkoni"]),
    ];
    // Every combination, the first option changing slowest.
    let combinations = options.iter().fold(vec![vec![]], |done, &(name, values)| {
        done.iter()
            .flat_map(|c: &Vec<(&str, &str)>| {
                values.iter().map(move |&v| {
                    let mut c = c.clone();
                    c.push((name, v));
                    c
                })
            })
            .collect()
    });
    let mut g = Generator::new();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut plays = 0u64;
    let mut k = 0u64;
    for combination in &combinations {
        let rules = Rules::preset(Preset::Chaupar)
            .with_options(combination.iter().copied())
            .unwrap();
        for players in [2u8, 4] {
            k += 1;
            play_listed(&mut g, rules, players, (77 + k, k), 120, |g, n, chosen| {
                plays += n as u64;
                // Every play's steps (they make its position), the one played's position.
                for i in 0..n {
                    for s in g.steps(i) {
                        let d = s.declare.map_or(0, |d| d as u8 + 1);
                        let bytes = [s.colour as u8, s.from, s.to, s.pieces, s.by, s.dice, d];
                        fold(&mut h, &bytes);
                    }
                    fold(&mut h, b"\n");
                }
                fold(&mut h, position_text(g.position(chosen)).as_bytes());
            });
        }
    }
    println!("(0x{h:016x}, {plays})");
    assert_eq!((h, plays), (0x6ed9df2899667cf7, 7_860_765));
}
