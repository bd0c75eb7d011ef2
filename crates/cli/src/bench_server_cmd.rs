//! `chaupar bench-server`: the server's load and crash benchmark (`chaupar-load`).

use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `chaupar bench-server`.
#[derive(Args)]
pub struct BenchServerArgs {
    /// URL of a running server, e.g. http://127.0.0.1:8080; give it several
    /// times for several servers of one database sharing the load.
    #[arg(long, conflicts_with = "spawn")]
    pub url: Vec<String>,
    /// Start a server here (this program's `serve`, limits lifted, no computer delay).
    #[arg(long)]
    pub spawn: bool,
    /// With --spawn: how many servers to start on the same --db (each on its own
    /// port); more than one needs a postgres:// database.
    #[arg(long, default_value_t = 1)]
    pub instances: usize,
    /// Database of the spawned servers: a SQLite file (default: one in a
    /// temporary directory) or a postgres:// URL.
    #[arg(long, requires = "spawn")]
    pub db: Option<PathBuf>,
    /// Games played at once (four people each).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// WebSockets per game, 1 to 4; the seats are shared among them.
    #[arg(long, default_value_t = 4)]
    pub sockets_per_game: usize,
    /// Mean think time before each action, in milliseconds (randomised ±50%).
    #[arg(long, default_value_t = 2000)]
    pub think_ms: u64,
    /// Seconds to play once the games are made and the sockets open.
    #[arg(long, default_value_t = 30.0)]
    pub seconds: f64,
    /// Kill a spawned server (one at random) with SIGKILL about this often
    /// (seconds; 0.5× to 1.5× at random), restart it, and check every
    /// acknowledged action is stored.
    #[arg(long)]
    pub kill_every: Option<f64>,
    /// Write the report as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Runs the benchmark and prints its table; exit 1 when an acknowledged action
/// was lost or applied twice, 2 when it could not run.
pub fn bench_server(a: BenchServerArgs) -> ExitCode {
    use std::io::IsTerminal;
    let cfg = chaupar_load::Config {
        urls: a.url,
        spawn: a.spawn,
        instances: a.instances,
        db: a.db,
        games: a.games,
        sockets_per_game: a.sockets_per_game,
        think: Duration::from_millis(a.think_ms),
        seconds: a.seconds,
        kill_every: a.kill_every,
        json: a.json,
        progress: std::io::stderr().is_terminal(),
    };
    match chaupar_load::run(&cfg) {
        Ok(report) => {
            crate::emit(&report.table());
            if report.failed() {
                eprintln!("acknowledged actions were lost or applied twice");
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
