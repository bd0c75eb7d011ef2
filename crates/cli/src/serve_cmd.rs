//! `chaupar serve`: the web board and its JSON API.

use clap::Args;

/// Options of `chaupar serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Where games are kept: a SQLite file, `sqlite://FILE`, or a `postgres://` URL.
    #[arg(long, default_value = "chaupar.db")]
    pub db: String,
    /// Default pause before each computer throw and play, in milliseconds.
    #[arg(long, default_value_t = 900)]
    pub delay_ms: u64,
}

/// Runs the server until it is stopped.
pub fn serve(a: ServeArgs) -> Result<(), String> {
    use tracing_subscriber::EnvFilter;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .try_init();
    let rt = tokio::runtime::Runtime::new().map_err(|e| format!("cannot start: {e}"))?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(&a.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", a.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {}: {e}", a.addr))?;
        let opts = chaupar_server::Options {
            delay_ms: a.delay_ms,
        };
        let app = chaupar_server::router(&a.db, opts)
            .await
            .map_err(|e| format!("database {}: {e}", a.db))?;
        tracing::info!("games are kept in {}", a.db);
        println!("chaupar: open http://{addr}/ in a browser (Ctrl-C stops)");
        axum_serve(listener, app).await
    })
}

async fn axum_serve(listener: tokio::net::TcpListener, app: axum::Router) -> Result<(), String> {
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("server: {e}"))
}
