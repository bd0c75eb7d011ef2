//! The games of a run: made over HTTP, each with its seats' tokens and what has
//! been acknowledged in it.

use crate::http::Http;
use crate::servers::Servers;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

/// One game of the run.
pub struct Game {
    /// Its id.
    pub id: String,
    /// Its person seats and their tokens, in the game's colour order.
    pub seats: Vec<(String, String)>,
    /// The highest `version` an acknowledged change of this game answered.
    pub acked_version: AtomicU64,
    /// Acknowledged actions in this game.
    pub acked_count: AtomicU64,
    /// The most acknowledged versions found missing in one check.
    pub lost: AtomicU64,
}

impl Game {
    /// Notes an acknowledged change that answered `version`.
    pub fn ack(&self, version: u64) {
        self.acked_version.fetch_max(version, Relaxed);
        self.acked_count.fetch_add(1, Relaxed);
    }
}

/// The `version` of a game view (0 when missing).
pub fn version(view: &Value) -> u64 {
    view["version"].as_u64().unwrap_or(0)
}

/// Makes one 4-player `chaupar` game of people (no computer seats, no delay).
pub async fn create(http: &Http) -> Result<Game, String> {
    let body = json!({"preset": "chaupar", "players": 4, "delay_ms": 0});
    let mut wait = Duration::from_millis(100);
    loop {
        let a = http.post("/api/games", &body, None).await?;
        if a.status == 429 {
            // Someone else's server with its creation limit: wait as told.
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(6));
            continue;
        }
        if a.status != 200 {
            return Err(format!("creating a game: {} {}", a.status, a.body));
        }
        let v = a.body;
        let id = v["id"]
            .as_str()
            .ok_or("the create answer has no id")?
            .to_string();
        let colours = v["colours"]
            .as_array()
            .ok_or("the create answer has no colours")?;
        let mut seats = Vec::new();
        for c in colours {
            let c = c.as_str().unwrap_or_default();
            let token = v["seat_tokens"][c]
                .as_str()
                .ok_or_else(|| format!("no seat token for {c}"))?;
            seats.push((c.to_string(), token.to_string()));
        }
        return Ok(Game {
            id,
            seats,
            acked_version: AtomicU64::new(version(&v)),
            acked_count: AtomicU64::new(0),
            lost: AtomicU64::new(0),
        });
    }
}

/// Makes `n` games, a few at a time: game `g` on server `g mod N`.
pub async fn create_all(servers: &Servers, n: usize) -> Result<Vec<Arc<Game>>, String> {
    use futures_util::stream::{self, StreamExt, TryStreamExt};
    stream::iter(0..n)
        .map(|g| async move { create(servers.at(g)).await.map(Arc::new) })
        .buffered(16)
        .try_collect()
        .await
}
