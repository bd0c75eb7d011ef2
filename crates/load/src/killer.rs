//! Kills a spawned server with SIGKILL at random moments (uniformly between
//! 0.5× and 1.5× the interval), restarts it on the same database and port, and
//! after each restart checks that every acknowledged action is stored
//! ([`crate::check`]). With several servers it kills one chosen at random each
//! time, and the others carry on meanwhile.

use crate::check::{check_all, Checked};
use crate::games::Game;
use crate::server::Spawned;
use crate::servers::Servers;
use crate::stats::Stats;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{sleep_until, Instant};

/// Kills and restarts one of `spawned` at a time until `end`; answers the last
/// check's numbers.
pub async fn kill_loop(
    spawned: &mut [Spawned],
    every: Duration,
    end: Instant,
    servers: &Servers,
    games: &[Arc<Game>],
    stats: &Stats,
) -> Result<Checked, String> {
    let mut rng = rand::rngs::StdRng::from_entropy();
    let mut last = Checked::default();
    loop {
        let at = Instant::now() + every.mul_f64(rng.gen_range(0.5..=1.5));
        if at >= end {
            sleep_until(end).await;
            return Ok(last);
        }
        sleep_until(at).await;
        let victim = rng.gen_range(0..spawned.len());
        let server = &mut spawned[victim];
        server.kill();
        server.restart().await?;
        stats.restarts.fetch_add(1, Relaxed);
        last = check_all(servers, games).await;
    }
}
