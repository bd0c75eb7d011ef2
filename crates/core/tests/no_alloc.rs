//! Listing plays, reading their positions and playing out games allocate
//! nothing once a `Generator` (or a playout) is warm: the hot paths reuse their
//! buffers. A counting allocator sees every allocation of this test binary.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use chaupar_core::dice::Dice;
use chaupar_core::{playout, Generator, Position, Preset, Rules};
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// Counts allocations while `COUNTING` is set (on the thread that sets it:
/// the test harness's other threads may allocate meanwhile, so the counted
/// work runs alone, see `counted`).
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Random games from `start`, each play chosen uniformly, every position and
/// every play's steps read.
fn games(start: &Position, g: &mut Generator, games: u64) -> u64 {
    let rules = *start.rules();
    let mut turns = 0;
    for seed in 0..games {
        let mut dice = Dice::from_seed(seed);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut pos = *start;
        while pos.to_move().is_some() && turns < 100_000 {
            let n = g.generate(&pos, dice.throw(rules.faces)).expect("plays");
            for i in 0..n {
                std::hint::black_box(g.position(i));
                std::hint::black_box(g.steps(i));
            }
            pos = *g.position(rng.next_u32() as usize % n);
            turns += 1;
        }
    }
    turns
}

/// Allocations made by `f`.
fn counted(f: impl FnOnce()) -> u64 {
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(true, Ordering::Relaxed);
    f();
    COUNTING.store(false, Ordering::Relaxed);
    ALLOCATIONS.load(Ordering::Relaxed)
}

// One test, so that no other test of this binary allocates while counting.
#[test]
fn listing_reading_and_playouts_allocate_nothing_once_warm() {
    for preset in Preset::ALL {
        // (Making a position allocates; playing from it must not.)
        let start = Position::new(Rules::preset(preset), 4).expect("start");
        let mut g = Generator::new();
        // Warm: the same games make every buffer as large as they need.
        games(&start, &mut g, 6);
        let mut turns = 0;
        let made = counted(|| turns = games(&start, &mut g, 6));
        assert!(turns > 500, "{preset}: {turns} turns");
        assert_eq!(
            made, 0,
            "{preset}: listing {turns} turns allocated {made} times"
        );

        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let made = counted(|| {
            for _ in 0..50 {
                std::hint::black_box(playout::random_playout(&start, &mut rng, 5000));
            }
        });
        assert_eq!(made, 0, "{preset}: 50 playouts allocated {made} times");
    }
}
