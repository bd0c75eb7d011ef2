//! A server started by the benchmark: this executable's `serve` on a free local
//! port, with the per-address limits lifted (every simulated person comes from
//! 127.0.0.1) and no computer delay; killed with SIGKILL and restarted on the same
//! database and port.

use crate::http::Http;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a starting server has to answer.
const READY_WITHIN: Duration = Duration::from_secs(60);

/// A running server process.
pub struct Spawned {
    child: Option<Child>,
    port: u16,
    db: PathBuf,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Spawned {
    /// Starts `serve` on a free port with the database `db` (default: a file in a
    /// new temporary directory, removed at the end) and waits until it answers.
    pub async fn start(db: Option<&Path>) -> Result<Spawned, String> {
        let dir = tempfile::Builder::new()
            .prefix("chaupar-bench-")
            .tempdir()
            .map_err(|e| format!("cannot make a temporary directory: {e}"))?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| format!("no free port: {e}"))?
            .port();
        let mut s = Spawned {
            child: None,
            port,
            db: db
                .map(Path::to_path_buf)
                .unwrap_or_else(|| dir.path().join("bench.db")),
            log: dir.path().join("serve.log"),
            _dir: dir,
        };
        s.launch().await?;
        Ok(s)
    }

    /// The server's base URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Kills the server with SIGKILL (no chance to finish anything) and waits for it.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts the server again on the same database and port.
    pub async fn restart(&mut self) -> Result<(), String> {
        self.kill();
        self.launch().await
    }

    async fn launch(&mut self) -> Result<(), String> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| format!("cannot write {}: {e}", self.log.display()))?;
        let err = log.try_clone().map_err(|e| e.to_string())?;
        let child = Command::new(exe)
            .args([
                "serve",
                "--addr",
                &format!("127.0.0.1:{}", self.port),
                "--db",
            ])
            .arg(&self.db)
            .args([
                "--delay-ms",
                "0",
                "--create-burst",
                "1000000",
                "--create-every-ms",
                "1",
                "--action-burst",
                "1000000",
                "--action-every-ms",
                "1",
                "--connections-per-ip",
                "1000000",
            ])
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(log)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        self.child = Some(child);
        let http = Http::new(&self.url());
        let start = Instant::now();
        loop {
            if let Ok(a) = http.get("/api/meta").await {
                if a.status == 200 {
                    return Ok(());
                }
            }
            if let Some(c) = self.child.as_mut() {
                if let Ok(Some(status)) = c.try_wait() {
                    return Err(format!(
                        "the server stopped ({status}); its log: {}",
                        self.log_tail()
                    ));
                }
            }
            if start.elapsed() > READY_WITHIN {
                return Err(format!(
                    "the server did not answer within {READY_WITHIN:?}; its log: {}",
                    self.log_tail()
                ));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The end of the server's log, for an error message.
    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        self.kill();
    }
}
