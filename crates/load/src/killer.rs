//! Kills the spawned server with SIGKILL at random moments (uniformly between
//! 0.5× and 1.5× the interval), restarts it on the same database and port, and
//! after each restart checks that every acknowledged action is stored
//! ([`crate::check`]).

use crate::check::{check_all, Checked};
use crate::games::Game;
use crate::http::Http;
use crate::server::Spawned;
use crate::stats::Stats;
use rand::{Rng, SeedableRng};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{sleep_until, Instant};

/// Kills and restarts `server` until `end`; answers the last check's numbers.
pub async fn kill_loop(
    server: &mut Spawned,
    every: Duration,
    end: Instant,
    http: &Http,
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
        server.kill();
        server.restart().await?;
        stats.restarts.fetch_add(1, Relaxed);
        last = check_all(http, games).await;
    }
}
