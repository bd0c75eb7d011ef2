//! The server's measurements, served as Prometheus text by `GET /metrics`
//! (`api::health`): actions by name and outcome, their latency, open
//! WebSockets, games in memory, database errors and HTTP answers by status
//! class.
//!
//! Built on the `prometheus` crate (the Prometheus project's Rust client, kept
//! by TiKV) with a private [`Registry`] rather than `metrics` +
//! `metrics-exporter-prometheus`: it needs no process-wide recorder to be
//! installed, nothing another library registers can appear in `/metrics`, and
//! its text encoder is all we use (no default features: no protobuf, no push).
//!
//! The series are the process's: one server runs per process in production
//! (tests that start several servers in one process see their sums). Every
//! label takes a value from a fixed short list: nothing per game, per seat or
//! per client is ever recorded.

use std::future::Future;
use std::sync::OnceLock;
use std::time::Instant;

use axum::response::Response;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts, Registry,
    TextEncoder,
};

use crate::api::actions::Action;
use crate::error::ApiError;

/// The latency buckets of `chaupar_action_seconds`: 1 ms to 5 s.
const BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// Every series, in the server's own registry.
struct Metrics {
    registry: Registry,
    actions: IntCounterVec,
    action_seconds: HistogramVec,
    websockets: IntGauge,
    games: IntGauge,
    database_errors: IntCounter,
    http: IntCounterVec,
}

impl Metrics {
    fn new() -> prometheus::Result<Metrics> {
        let registry = Registry::new();
        let actions = IntCounterVec::new(
            Opts::new(
                "chaupar_actions_total",
                "Actions of persons (HTTP and WebSocket), by action and outcome.",
            ),
            &["action", "outcome"],
        )?;
        let action_seconds = HistogramVec::new(
            HistogramOpts::new(
                "chaupar_action_seconds",
                "Time to carry out an action, stored and pushed, in seconds.",
            )
            .buckets(BUCKETS.to_vec()),
            &["action"],
        )?;
        let websockets = IntGauge::new("chaupar_websockets_open", "Game WebSockets open now.")?;
        let games = IntGauge::new(
            "chaupar_games_in_memory",
            "Games held in memory now (read at each scrape).",
        )?;
        let database_errors = IntCounter::new(
            "chaupar_database_errors_total",
            "Database errors met while answering requests.",
        )?;
        let http = IntCounterVec::new(
            Opts::new(
                "chaupar_http_requests_total",
                "HTTP requests answered, by status class (1xx is a WebSocket upgrade).",
            ),
            &["class"],
        )?;
        registry.register(Box::new(actions.clone()))?;
        registry.register(Box::new(action_seconds.clone()))?;
        registry.register(Box::new(websockets.clone()))?;
        registry.register(Box::new(games.clone()))?;
        registry.register(Box::new(database_errors.clone()))?;
        registry.register(Box::new(http.clone()))?;
        // Every label value exists from the start, at zero, so that rates
        // over a series that has not moved yet are defined.
        for (name, _) in Action::ALL {
            for outcome in ["ok", "refused"] {
                actions.with_label_values(&[name, outcome]);
            }
            action_seconds.with_label_values(&[name]);
        }
        for class in CLASSES {
            http.with_label_values(&[class]);
        }
        Ok(Metrics {
            registry,
            actions,
            action_seconds,
            websockets,
            games,
            database_errors,
            http,
        })
    }
}

/// The status classes of `chaupar_http_requests_total`.
const CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/// The server's series, made on first use. `None` only if the registry refused
/// them, which the fixed names above never cause: measuring then does nothing.
fn metrics() -> Option<&'static Metrics> {
    static METRICS: OnceLock<Option<Metrics>> = OnceLock::new();
    METRICS
        .get_or_init(|| match Metrics::new() {
            Ok(m) => Some(m),
            Err(e) => {
                tracing::error!("metrics: {e}");
                None
            }
        })
        .as_ref()
}

/// An action's name as its route and `chaupar_actions_total` spell it.
fn name(action: Action) -> &'static str {
    Action::ALL
        .into_iter()
        .find(|(_, a)| *a == action)
        .map_or("unknown", |(n, _)| n)
}

/// Carries out an action (`actions::perform`), counted by outcome (`ok`, or
/// `refused` for any error) and timed.
pub(crate) async fn timed<T>(
    action: Action,
    work: impl Future<Output = Result<T, ApiError>>,
) -> Result<T, ApiError> {
    let start = Instant::now();
    let result = work.await;
    if let Some(m) = metrics() {
        let name = name(action);
        let outcome = if result.is_ok() { "ok" } else { "refused" };
        m.actions.with_label_values(&[name, outcome]).inc();
        m.action_seconds
            .with_label_values(&[name])
            .observe(start.elapsed().as_secs_f64());
    }
    result
}

/// Counts a database error.
pub(crate) fn database_error() {
    if let Some(m) = metrics() {
        m.database_errors.inc();
    }
}

/// Counts an HTTP answer by its status class (a response layer).
pub(crate) async fn count_response(r: Response) -> Response {
    if let Some(m) = metrics() {
        let class = match r.status().as_u16() / 100 {
            1 => "1xx",
            2 => "2xx",
            3 => "3xx",
            4 => "4xx",
            _ => "5xx",
        };
        m.http.with_label_values(&[class]).inc();
    }
    r
}

/// One open WebSocket, counted in `chaupar_websockets_open` from
/// [`OpenSocket::new`] until it is dropped.
pub(crate) struct OpenSocket(());

impl OpenSocket {
    /// Counts a WebSocket that has just opened.
    pub(crate) fn new() -> OpenSocket {
        if let Some(m) = metrics() {
            m.websockets.inc();
        }
        OpenSocket(())
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        if let Some(m) = metrics() {
            m.websockets.dec();
        }
    }
}

/// Every series in the Prometheus text format, with `games_in_memory` as it
/// is now.
pub(crate) fn render(games_in_memory: usize) -> Result<String, ApiError> {
    let m = metrics().ok_or_else(|| ApiError::internal("metrics are not available"))?;
    m.games
        .set(i64::try_from(games_in_memory).unwrap_or(i64::MAX));
    let mut out = Vec::new();
    TextEncoder::new()
        .encode(&m.registry.gather(), &mut out)
        .map_err(|e| ApiError::internal(format!("metrics: {e}")))?;
    String::from_utf8(out).map_err(|e| ApiError::internal(format!("metrics: {e}")))
}

/// The content type of [`render`]'s text.
pub(crate) const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// How many answers of this class were counted, for the tests.
#[cfg(test)]
fn class_count(class: &str) -> u64 {
    metrics().map_or(0, |m| m.http.with_label_values(&[class]).get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn every_series_is_there_from_the_start() {
        let text = render(3).unwrap();
        for series in [
            "chaupar_actions_total{action=\"throw\",outcome=\"ok\"}",
            "chaupar_actions_total{action=\"check\",outcome=\"refused\"}",
            "chaupar_action_seconds_bucket{action=\"step\",le=\"0.001\"}",
            "chaupar_action_seconds_bucket{action=\"step\",le=\"5\"}",
            "chaupar_websockets_open",
            "chaupar_games_in_memory 3",
            "chaupar_database_errors_total",
            "chaupar_http_requests_total{class=\"5xx\"}",
        ] {
            assert!(text.contains(series), "{series} missing from\n{text}");
        }
    }

    #[tokio::test]
    async fn answers_are_counted_by_class() {
        let before = class_count("4xx");
        let r = Response::builder()
            .status(StatusCode::CONFLICT)
            .body(axum::body::Body::empty())
            .unwrap();
        count_response(r).await;
        assert!(class_count("4xx") > before);
    }
}
