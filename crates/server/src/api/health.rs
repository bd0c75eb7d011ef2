//! For whoever runs the server: `GET /healthz` (does the database answer?)
//! and `GET /metrics` (the series of [`crate::metrics`], Prometheus text).
//! Neither is rate-limited, both are cheap, and neither shows a secret or
//! anything about a game or a client.

use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use sqlx::AnyPool;

use crate::error::ApiError;
use crate::metrics;
use crate::state::Shared;

/// How long `/healthz` waits for the database's answer.
const DATABASE_WITHIN: Duration = Duration::from_secs(2);

/// `GET /healthz`: `200 {"ok": true}` when the database answers a `SELECT 1`
/// within 2 s, `503 {"ok": false, "error": "database: ..."}` otherwise.
pub(crate) async fn healthz(State(state): State<Shared>) -> Response {
    health(&state.db.read, DATABASE_WITHIN).await
}

/// The answer of `/healthz` for this pool, waiting at most `within`.
async fn health(db: &AnyPool, within: Duration) -> Response {
    let error = match tokio::time::timeout(within, sqlx::query("SELECT 1").execute(db)).await {
        Ok(Ok(_)) => return Json(json!({"ok": true})).into_response(),
        Ok(Err(e)) => format!("database: {e}"),
        Err(_) => format!("database: no answer within {} s", within.as_secs_f64()),
    };
    metrics::database_error();
    tracing::warn!("health: {error}");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(json!({"ok": false, "error": error})),
    )
        .into_response()
}

/// `GET /metrics`: the server's series in the Prometheus text format.
pub(crate) async fn metrics(State(state): State<Shared>) -> Result<Response, ApiError> {
    let text = metrics::render(state.loaded())?;
    Ok(([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], text).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database that does not answer (nothing listens on port 1) makes
    /// `/healthz` answer 503 with the reason.
    #[tokio::test]
    async fn a_database_that_does_not_answer_is_503() {
        sqlx::any::install_default_drivers();
        let db = sqlx::any::AnyPoolOptions::new()
            .acquire_timeout(Duration::from_millis(500))
            .connect_lazy("postgres://nobody:secret@127.0.0.1:1/chaupar")
            .unwrap();
        let r = health(&db, Duration::from_secs(2)).await;
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = axum::body::to_bytes(r.into_body(), 4096).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["ok"], false, "{v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.starts_with("database: "), "{error}");
        assert!(!error.contains("secret"), "{error}");
    }

    /// So does one that answers too late: here its only connection is busy
    /// (as SQLite's one writer may be).
    #[tokio::test]
    async fn a_busy_database_is_503() {
        sqlx::any::install_default_drivers();
        let db = sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        assert_eq!(health(&db, Duration::from_secs(2)).await.status(), 200);
        let busy = db.acquire().await.unwrap();
        let r = health(&db, Duration::from_millis(200)).await;
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = axum::body::to_bytes(r.into_body(), 4096).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"], "database: no answer within 0.2 s", "{v}");
        drop(busy);
    }
}
