//! The check that every acknowledged action is stored.
//!
//! An action is *acknowledged* when the server showed it applied: over the
//! socket, the first `state` push after it was sent with a `version` above the
//! one it was sent on (in a game of people only the seat to move acts, and one
//! simulated person holds that seat, so no one else's change can come between);
//! over HTTP (a retry), a `200` answer. Each game remembers the highest version
//! an acknowledged action answered ([`crate::games::Game::acked_version`]; the
//! creation's version to begin with).
//!
//! The check reads that number for every game first, then `GET /api/games/{id}`,
//! and counts the game's stored `version` short of it as that many lost actions
//! (the version grows by one with every change, so a version short by `k` is `k`
//! changes missing). A game's losses are the most found short in any one check,
//! so a loss seen by several checks counts once. It runs after every restart and
//! once at the end of the run. With several servers a game is read from any
//! that answers (game `g` from server `g mod N` first, then the next ones). It needs the stored version of the appending
//! storage (#10): a server that starts `version` again at 1 after a restart fails
//! it, as it should, since the version no longer tells what was kept.

use crate::games::{version, Game};
use crate::servers::Servers;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;

/// What one check found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Acknowledged actions covered (every one acknowledged before the check began).
    pub actions: u64,
    /// Games whose stored version could not be read.
    pub unreadable: u64,
}

/// Checks every game; notes each game's shortfall in [`Game::lost`].
pub async fn check_all(servers: &Servers, games: &[Arc<Game>]) -> Checked {
    use futures_util::stream::{self, StreamExt};
    let acked: Vec<(u64, u64)> = games
        .iter()
        .map(|g| (g.acked_version.load(Relaxed), g.acked_count.load(Relaxed)))
        .collect();
    let results: Vec<Option<u64>> = stream::iter(games.iter().zip(&acked).enumerate())
        .map(|(i, (g, &(want, _)))| async move {
            for _ in 0..5 {
                match servers.get_any(i, &format!("/api/games/{}", g.id)).await {
                    Ok(a) if a.status == 200 => {
                        let have = version(&a.body);
                        g.lost.fetch_max(want.saturating_sub(have), Relaxed);
                        return Some(have);
                    }
                    _ => tokio::time::sleep(std::time::Duration::from_millis(200)).await,
                }
            }
            None
        })
        .buffer_unordered(32)
        .collect()
        .await;
    Checked {
        actions: acked.iter().map(|&(_, n)| n).sum(),
        unreadable: results.iter().filter(|r| r.is_none()).count() as u64,
    }
}

/// The acknowledged actions found lost, over every game.
pub fn lost(games: &[Arc<Game>]) -> u64 {
    games.iter().map(|g| g.lost.load(Relaxed)).sum()
}
