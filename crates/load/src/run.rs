//! One run: start or reach the servers, make the games, open the sockets, play
//! for the given time (killing the server if asked), check, report.

use crate::check::check_all;
use crate::games::{create_all, Game};
use crate::player::{Ctx, Person};
use crate::report::Report;
use crate::server::Spawned;
use crate::servers::Servers;
use crate::stats::{percentile, Stats};
use crate::{check, killer, Config};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::Instant;

/// How long the sockets have to open.
const OPEN_WITHIN: Duration = Duration::from_secs(180);

/// Runs the benchmark and answers its report (also written to `--json`).
pub fn run(cfg: &Config) -> Result<Report, String> {
    cfg.check()?;
    // Each socket is a file descriptor, here and in a spawned server.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let rt = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    let report = rt.block_on(play(cfg))?;
    if let Some(path) = &cfg.json {
        let text = serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(report)
}

async fn play(cfg: &Config) -> Result<Report, String> {
    let mut spawned = Vec::new();
    if cfg.spawn {
        // One after the other: each applies the migrations as it starts.
        for _ in 0..cfg.instances {
            spawned.push(Spawned::start(cfg.db.as_deref()).await?);
        }
    }
    let bases: Vec<String> = match cfg.spawn {
        true => spawned.iter().map(Spawned::url).collect(),
        false => cfg.urls.clone(),
    };
    if bases.is_empty() {
        return Err("no server".into());
    }
    let servers = Servers::new(&bases);
    let bar = progress(cfg.progress);
    bar.set_message(format!("making {} games", cfg.games));
    let games = create_all(&servers, cfg.games).await?;
    let stats = Arc::new(Stats::default());
    let (end_tx, end_rx) = watch::channel(None);
    let ctx = Ctx {
        servers: servers.clone(),
        stats: stats.clone(),
        think: cfg.think,
        end: end_rx,
    };
    let mut people = tokio::task::JoinSet::new();
    for (i, g) in games.iter().enumerate() {
        for person in split(g, cfg.sockets_per_game, |s| servers.home(i, s)) {
            people.spawn(person.run(ctx.clone()));
        }
    }
    let expected = (games.len() * cfg.sockets_per_game) as u64;
    let opening = Instant::now();
    loop {
        let open = stats.open.load(Relaxed);
        bar.set_message(format!("{open} of {expected} sockets open"));
        if open >= expected {
            break;
        }
        if opening.elapsed() > OPEN_WITHIN {
            return Err(format!(
                "only {open} of {expected} sockets opened within {OPEN_WITHIN:?}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let sockets_open = stats.open.load(Relaxed);
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(cfg.seconds);
    let _ = end_tx.send(Some(end));
    let shown = tokio::spawn(show(bar.clone(), stats.clone(), start, end));
    match cfg.kill_every {
        Some(every) if !spawned.is_empty() => {
            let every = Duration::from_secs_f64(every);
            killer::kill_loop(&mut spawned, every, end, &servers, &games, &stats).await?;
        }
        _ => tokio::time::sleep_until(end).await,
    }
    while people.join_next().await.is_some() {}
    shown.abort();
    bar.finish_and_clear();
    let last = check_all(&servers, &games).await;
    let lat = stats.sorted_latencies();
    let ms = |p: f64| percentile(&lat, p).unwrap_or(0) as f64 / 1000.0;
    Ok(Report {
        games: games.len() as u64,
        servers: servers.len() as u64,
        sockets_open,
        seconds: cfg.seconds,
        actions: stats.actions.load(Relaxed),
        latency_ms: [ms(50.0), ms(95.0), ms(99.0), ms(100.0)],
        refused: stats.refused.load(Relaxed),
        rate_limited: stats.rate_limited.load(Relaxed),
        socket_dropped: stats.dropped.load(Relaxed),
        other: stats.other.load(Relaxed),
        reconnects: stats.reconnects.load(Relaxed),
        restarts: stats.restarts.load(Relaxed),
        retries: stats.retries.load(Relaxed),
        retries_refused: stats.retries_refused.load(Relaxed),
        acked_checked: last.actions,
        acked_lost: check::lost(&games),
        duplicated: stats.duplicated.load(Relaxed),
        unreadable: last.unreadable,
        pushes_skipped: stats.pushes_skipped.load(Relaxed),
        pushes_backwards: stats.pushes_backwards.load(Relaxed),
    })
}

/// The people of a game: `sockets` of them, the seats dealt round; person `i`
/// connects to server `home(i)`.
fn split(game: &Arc<Game>, sockets: usize, home: impl Fn(usize) -> usize) -> Vec<Person> {
    (0..sockets)
        .map(|i| Person {
            home: home(i),
            game: game.clone(),
            seats: game
                .seats
                .iter()
                .enumerate()
                .filter(|(j, _)| j % sockets == i)
                .map(|(_, s)| s.clone())
                .collect(),
        })
        .filter(|p| !p.seats.is_empty())
        .collect()
}

/// A progress line on standard error (drawn only on a terminal).
fn progress(show: bool) -> ProgressBar {
    let bar = if show {
        ProgressBar::new_spinner()
    } else {
        ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
    };
    if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Updates the progress line until the end of the run.
async fn show(bar: ProgressBar, stats: Arc<Stats>, start: Instant, end: Instant) {
    loop {
        let secs = start.elapsed().as_secs_f64().max(0.001);
        let actions = stats.actions.load(Relaxed);
        let left = end.saturating_duration_since(Instant::now()).as_secs();
        bar.set_message(format!(
            "{actions} actions, {:.0}/s, {} errors, {} restarts, {} sockets open, {left} s left",
            actions as f64 / secs,
            stats.errors(),
            stats.restarts.load(Relaxed),
            stats.open.load(Relaxed),
        ));
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn seats_dealt_among_the_sockets() {
        let game = Arc::new(Game {
            id: "g".into(),
            seats: ["yellow", "red", "black", "green"]
                .iter()
                .map(|c| (c.to_string(), format!("token-{c}")))
                .collect(),
            acked_version: AtomicU64::new(1),
            acked_count: AtomicU64::new(0),
            lost: AtomicU64::new(0),
        });
        let held = |k| -> Vec<Vec<String>> {
            split(&game, k, |_| 0)
                .iter()
                .map(|p| p.seats.iter().map(|(c, _)| c.clone()).collect())
                .collect()
        };
        assert_eq!(held(4), [["yellow"], ["red"], ["black"], ["green"]]);
        assert_eq!(held(1), [["yellow", "red", "black", "green"]]);
        assert_eq!(held(2), [["yellow", "black"], ["red", "green"]]);
        let three = held(3);
        assert_eq!(three.len(), 3);
        assert_eq!(
            three.iter().map(Vec::len).sum::<usize>(),
            4,
            "every seat held once"
        );
    }
}
