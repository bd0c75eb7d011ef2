//! The numbers of a run: a table for people, JSON for programs.

use serde_json::{json, Value};

/// What a run measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Games played.
    pub games: u64,
    /// Servers of one database sharing the load.
    pub servers: u64,
    /// Sockets open when the run began.
    pub sockets_open: u64,
    /// Seconds played.
    pub seconds: f64,
    /// Acknowledged actions.
    pub actions: u64,
    /// Latency percentiles of acknowledged actions, in milliseconds: p50, p95, p99, max.
    pub latency_ms: [f64; 4],
    /// Actions refused by the rules or the turn.
    pub refused: u64,
    /// Actions refused by a rate limit.
    pub rate_limited: u64,
    /// Sockets that dropped.
    pub socket_dropped: u64,
    /// Other errors (timeouts, connections refused).
    pub other: u64,
    /// Sockets opened again after a drop.
    pub reconnects: u64,
    /// Times the server was killed and restarted.
    pub restarts: u64,
    /// In-flight actions sent again after a drop.
    pub retries: u64,
    /// Retries answered with an error.
    pub retries_refused: u64,
    /// Acknowledged actions covered by the checks.
    pub acked_checked: u64,
    /// Acknowledged actions found missing.
    pub acked_lost: u64,
    /// Retried actions the server applied twice.
    pub duplicated: u64,
    /// Games whose state could not be read by the last check.
    pub unreadable: u64,
    /// State pushes that skipped a version on their socket.
    pub pushes_skipped: u64,
    /// State pushes whose version went back on their socket.
    pub pushes_backwards: u64,
}

impl Report {
    /// Actions per second.
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.actions as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Whether an acknowledged action was lost or applied twice, or could not be checked.
    pub fn failed(&self) -> bool {
        self.acked_lost > 0 || self.duplicated > 0 || self.unreadable > 0
    }

    /// The report as JSON: `games`, `servers`, `sockets_open`, `seconds`, `actions`,
    /// `actions_per_second`, `latency_ms` (`p50`, `p95`, `p99`, `max`), `errors`
    /// (`refused`, `rate_limited`, `socket_dropped`, `other`), `reconnects`,
    /// `restarts`, `retries`, `retries_refused`, `acked_checked`, `acked_lost`,
    /// `duplicated`, `unreadable`, `pushes` (`skipped`, `backwards`).
    pub fn to_json(&self) -> Value {
        let [p50, p95, p99, max] = self.latency_ms;
        json!({
            "games": self.games,
            "servers": self.servers,
            "sockets_open": self.sockets_open,
            "seconds": self.seconds,
            "actions": self.actions,
            "actions_per_second": self.rate(),
            "latency_ms": {"p50": p50, "p95": p95, "p99": p99, "max": max},
            "errors": {
                "refused": self.refused,
                "rate_limited": self.rate_limited,
                "socket_dropped": self.socket_dropped,
                "other": self.other,
            },
            "reconnects": self.reconnects,
            "restarts": self.restarts,
            "retries": self.retries,
            "retries_refused": self.retries_refused,
            "acked_checked": self.acked_checked,
            "acked_lost": self.acked_lost,
            "duplicated": self.duplicated,
            "unreadable": self.unreadable,
            "pushes": {"skipped": self.pushes_skipped, "backwards": self.pushes_backwards},
        })
    }

    /// The report as a table.
    pub fn table(&self) -> String {
        let [p50, p95, p99, max] = self.latency_ms;
        let rows: Vec<(&str, String)> = vec![
            ("games", self.games.to_string()),
            ("servers", self.servers.to_string()),
            ("sockets open", self.sockets_open.to_string()),
            ("seconds", format!("{:.1}", self.seconds)),
            ("actions", self.actions.to_string()),
            ("actions per second", format!("{:.1}", self.rate())),
            (
                "latency p50/p95/p99/max",
                format!("{p50:.1} / {p95:.1} / {p99:.1} / {max:.1} ms"),
            ),
            ("errors: refused by the rules", self.refused.to_string()),
            ("errors: rate limited", self.rate_limited.to_string()),
            ("errors: socket dropped", self.socket_dropped.to_string()),
            ("errors: other", self.other.to_string()),
            ("reconnects", self.reconnects.to_string()),
            ("restarts", self.restarts.to_string()),
            (
                "retried actions (refused)",
                format!("{} ({})", self.retries, self.retries_refused),
            ),
            (
                "acknowledged actions checked",
                self.acked_checked.to_string(),
            ),
            ("acknowledged actions lost", self.acked_lost.to_string()),
            ("retried actions applied twice", self.duplicated.to_string()),
            (
                "pushes skipped a version / back",
                format!("{} / {}", self.pushes_skipped, self.pushes_backwards),
            ),
        ];
        let mut out = String::new();
        for (k, v) in rows {
            out.push_str(&format!("{k:<32} {v}\n"));
        }
        if self.unreadable > 0 {
            out.push_str(&format!(
                "{:<32} {}\n",
                "games not readable", self.unreadable
            ));
        }
        out
    }
}
