//! The counters of a run, shared by every simulated person, and the percentile
//! of the action latencies (exact, over a sorted vector: a run has at most a few
//! hundred thousand actions).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

/// Why an action or a socket failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The server refused the action (`409`, `422`, `403`, ...): the rules or the turn.
    Refused,
    /// `429`: a rate limit.
    RateLimited,
    /// The socket closed or failed while open.
    Dropped,
    /// Anything else: a timeout, a connection refused, an answer not understood.
    Other,
}

impl ErrorKind {
    /// The kind of an error answer with this HTTP status.
    pub fn of_status(status: u64) -> ErrorKind {
        match status {
            429 => ErrorKind::RateLimited,
            400..=499 => ErrorKind::Refused,
            _ => ErrorKind::Other,
        }
    }
}

/// The shared counters.
#[derive(Default)]
pub struct Stats {
    /// Actions answered as applied (acknowledged).
    pub actions: AtomicU64,
    /// Refused actions.
    pub refused: AtomicU64,
    /// Rate-limited actions.
    pub rate_limited: AtomicU64,
    /// Sockets that dropped.
    pub dropped: AtomicU64,
    /// Other errors.
    pub other: AtomicU64,
    /// Sockets open now.
    pub open: AtomicU64,
    /// Sockets opened again after a drop.
    pub reconnects: AtomicU64,
    /// Actions in flight when their socket dropped, sent again with their `action_id`.
    pub retries: AtomicU64,
    /// Retried actions that the server applied twice (see [`crate::player`]).
    pub duplicated: AtomicU64,
    /// Retried actions answered with an error.
    pub retries_refused: AtomicU64,
    /// Times the server was killed and restarted.
    pub restarts: AtomicU64,
    /// State pushes on a socket whose `version` skipped one or more versions
    /// after the socket's previous push (a change it was not pushed).
    pub pushes_skipped: AtomicU64,
    /// State pushes on a socket whose `version` was below its previous push's.
    pub pushes_backwards: AtomicU64,
    /// Latencies of acknowledged actions, in microseconds.
    latencies: Mutex<Vec<u64>>,
}

impl Stats {
    /// Counts an error of this kind.
    pub fn error(&self, kind: ErrorKind) {
        match kind {
            ErrorKind::Refused => &self.refused,
            ErrorKind::RateLimited => &self.rate_limited,
            ErrorKind::Dropped => &self.dropped,
            ErrorKind::Other => &self.other,
        }
        .fetch_add(1, Relaxed);
    }

    /// Counts an acknowledged action and its latency.
    pub fn acked(&self, latency: Duration) {
        self.actions.fetch_add(1, Relaxed);
        let us = latency.as_micros().min(u64::MAX as u128) as u64;
        self.latencies
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(us);
    }

    /// Every error so far.
    pub fn errors(&self) -> u64 {
        self.refused.load(Relaxed)
            + self.rate_limited.load(Relaxed)
            + self.dropped.load(Relaxed)
            + self.other.load(Relaxed)
    }

    /// The latencies so far, sorted, in microseconds.
    pub fn sorted_latencies(&self) -> Vec<u64> {
        let mut v = self
            .latencies
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        v.sort_unstable();
        v
    }
}

/// The `p`-th percentile (0 to 100) of sorted values by the nearest rank: the
/// smallest value with at least `p`% of the values at or below it. `None` when
/// there are no values.
pub fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let p = p.clamp(0.0, 100.0);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), Some(50));
        assert_eq!(percentile(&v, 95.0), Some(95));
        assert_eq!(percentile(&v, 99.0), Some(99));
        assert_eq!(percentile(&v, 100.0), Some(100));
        assert_eq!(percentile(&v, 0.0), Some(1));
    }

    #[test]
    fn small_and_empty() {
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[7], 99.0), Some(7));
        let v = [1, 2, 3, 1000];
        assert_eq!(percentile(&v, 50.0), Some(2));
        assert_eq!(percentile(&v, 95.0), Some(1000));
        assert_eq!(percentile(&v, 75.0), Some(3));
    }

    #[test]
    fn statuses() {
        assert_eq!(ErrorKind::of_status(429), ErrorKind::RateLimited);
        assert_eq!(ErrorKind::of_status(422), ErrorKind::Refused);
        assert_eq!(ErrorKind::of_status(409), ErrorKind::Refused);
        assert_eq!(ErrorKind::of_status(503), ErrorKind::Other);
    }
}
