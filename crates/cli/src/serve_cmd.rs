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
    /// Largest request body, in KiB (413 beyond).
    #[arg(long, default_value_t = 256)]
    pub max_body_kib: usize,
    /// New games (create, import) one address may make at once...
    #[arg(long, default_value_t = 10)]
    pub create_burst: u32,
    /// ...then one every this many milliseconds (429 beyond).
    #[arg(long, default_value_t = 6000)]
    pub create_every_ms: u64,
    /// Actions one address may send at once...
    #[arg(long, default_value_t = 60)]
    pub action_burst: u32,
    /// ...then one every this many milliseconds (429 beyond).
    #[arg(long, default_value_t = 50)]
    pub action_every_ms: u64,
    /// Seconds to send a request's head; idle connections close after it too.
    #[arg(long, default_value_t = 10)]
    pub header_timeout_secs: u64,
    /// Seconds to answer a request (408 beyond).
    #[arg(long, default_value_t = 30)]
    pub request_timeout_secs: u64,
    /// Connections open at once from one address.
    #[arg(long, default_value_t = 64)]
    pub connections_per_ip: usize,
    /// Seconds between WebSocket pings.
    #[arg(long, default_value_t = 20)]
    pub ws_ping_secs: u64,
    /// Seconds a WebSocket has to answer a ping before it is closed.
    #[arg(long, default_value_t = 10)]
    pub ws_pong_secs: u64,
    /// Games kept in memory at most (the least recently used that nobody
    /// watches are dropped beyond it, and load again from the database).
    #[arg(long, default_value_t = 10_000)]
    pub games_in_memory: usize,
    /// SQLite: wait for the disk on every commit, so that a power cut loses no
    /// acknowledged action either (slower; a kill or crash loses none anyway).
    #[arg(long)]
    pub sqlite_full_sync: bool,
    /// Reviews, replays and hints at once (default: the machine's threads).
    #[arg(long)]
    pub engine_jobs: Option<usize>,
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
            limits: a.limits(),
            games_in_memory: a.games_in_memory,
            sqlite_full_sync: a.sqlite_full_sync,
        };
        tracing::info!(
            "games are kept in {}",
            chaupar_server::db::without_password(&a.db)
        );
        println!("chaupar: open http://{addr}/ in a browser (Ctrl-C stops)");
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        chaupar_server::serve_until(listener, &a.db, opts, stop)
            .await
            .map_err(|e| format!("server: {e}"))
    })
}

impl ServeArgs {
    /// The server's bounds from the command line.
    fn limits(&self) -> chaupar_server::Limits {
        use std::time::Duration;
        let d = chaupar_server::Limits::default();
        chaupar_server::Limits {
            body_bytes: self.max_body_kib.saturating_mul(1024),
            create_burst: self.create_burst,
            create_every_ms: self.create_every_ms,
            action_burst: self.action_burst,
            action_every_ms: self.action_every_ms,
            header_timeout: Duration::from_secs(self.header_timeout_secs),
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            connections_per_ip: self.connections_per_ip,
            ws_ping_every: Duration::from_secs(self.ws_ping_secs),
            ws_pong_within: Duration::from_secs(self.ws_pong_secs),
            engine_jobs: self.engine_jobs.unwrap_or(d.engine_jobs),
            ..d
        }
    }
}
