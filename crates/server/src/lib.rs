//! The Chaupar server: a JSON API over the rules engine, games stored in SQLite or
//! PostgreSQL, computer players, and the web client embedded in the binary.
//!
//! Start it with [`serve`] on a bound listener (tests bind `127.0.0.1:0`), or build
//! the [`router`] yourself. The API is documented in `docs/api.md`; the modules
//! are listed in `docs/architecture.md`.

use axum::Router;
use tokio::net::TcpListener;

mod api;
mod assets;
pub mod bots;
pub mod db;
mod driver;
mod error;
mod event;
pub mod i18n;
pub mod lessons;
pub mod limits;
pub mod live;
mod metrics;
mod notify;
pub mod seats;
mod state;
mod stuck;
pub mod view;
mod ws;

pub use error::ApiError;
pub use limits::Limits;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Pause before each computer throw and play, in milliseconds, for games that
    /// do not choose their own.
    pub delay_ms: u64,
    /// The bounds on what clients may ask (`docs/api.md`, "Limits").
    pub limits: Limits,
    /// How many games one server keeps in memory at most (beyond it, the least
    /// recently used that nobody watches are dropped; they load again when
    /// asked for).
    pub games_in_memory: usize,
    /// SQLite only: wait for the disk on every commit (`synchronous = FULL`), so
    /// that a power cut loses no acknowledged action either; by default
    /// (`NORMAL`) a commit survives the server being killed, not a power cut.
    pub sqlite_full_sync: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            delay_ms: 900,
            limits: Limits::default(),
            games_in_memory: 10_000,
            sqlite_full_sync: false,
        }
    }
}

/// Builds the application: opens (and if need be creates or migrates) the
/// database, resumes the computer players of the games in it (the sweep of
/// [`driver`]) and, on PostgreSQL, listens to the changes other servers make.
pub async fn router(db_url: &str, opts: Options) -> Result<Router, sqlx::Error> {
    let state = state::AppState::open(db_url, opts).await?;
    driver::spawn_sweep(state.clone());
    if state.db.postgres {
        notify::spawn(state.clone());
    }
    limits::spawn_cleanup(state.guards.clone());
    let app = api::routes(&state.guards)
        .fallback(assets::serve)
        .with_state(state.clone());
    Ok(limits::layers(app, &state.opts.limits)
        .layer(axum::middleware::map_response(metrics::count_response)))
}

/// Serves the application on a bound listener until the process ends.
pub async fn serve(listener: TcpListener, db_url: &str, opts: Options) -> std::io::Result<()> {
    serve_until(listener, db_url, opts, std::future::pending()).await
}

/// Serves the application on a bound listener until `shutdown` completes, then
/// lets the requests under way finish. Connections are bounded as
/// [`Limits`] says (header and idle timeouts, connections per address), and
/// the handlers know each client's address (for the rate limits).
pub async fn serve_until(
    listener: TcpListener,
    db_url: &str,
    opts: Options,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let limits = opts.limits.clone();
    let app = router(db_url, opts).await.map_err(|e| {
        std::io::Error::other(format!("database {}: {e}", db::without_password(db_url)))
    })?;
    limits::serve(listener, app, &limits, shutdown).await
}
