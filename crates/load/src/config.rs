//! What a benchmark run does: the options of `chaupar bench-server`.

use std::path::PathBuf;
use std::time::Duration;

/// The settings of one run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The URLs of running servers (`http://host:port`), when not spawning
    /// them: one, or several servers of one database sharing the load.
    pub urls: Vec<String>,
    /// Start the servers ourselves (this executable's `serve`).
    pub spawn: bool,
    /// How many servers to start with [`Config::spawn`], each on its own port,
    /// all on [`Config::db`] (which must then be PostgreSQL when more than one).
    pub instances: usize,
    /// The database of the spawned servers (default: a file in a temporary
    /// directory); a path of a SQLite file or a `postgres://` URL.
    pub db: Option<PathBuf>,
    /// How many games to play at once.
    pub games: usize,
    /// WebSockets per game, 1 to 4; the game's four seats are shared among them.
    pub sockets_per_game: usize,
    /// The mean pause of a person before each action (randomised ±50%).
    pub think: Duration,
    /// How long to play once every game is made and every socket open.
    pub seconds: f64,
    /// Kill the spawned server about this often (uniformly 0.5× to 1.5×).
    pub kill_every: Option<f64>,
    /// Where to write the report as JSON.
    pub json: Option<PathBuf>,
    /// Show a progress line (on a terminal).
    pub progress: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            urls: Vec::new(),
            spawn: false,
            instances: 1,
            db: None,
            games: 100,
            sockets_per_game: 4,
            think: Duration::from_millis(2000),
            seconds: 30.0,
            kill_every: None,
            json: None,
            progress: true,
        }
    }
}

impl Config {
    /// Refuses settings that cannot run, with a message in words.
    pub fn check(&self) -> Result<(), String> {
        match (self.urls.is_empty(), self.spawn) {
            (false, true) => return Err("give either --url or --spawn, not both".into()),
            (true, false) => {
                return Err("give --url URL of a running server, or --spawn to start one".into())
            }
            _ => {}
        }
        if !(1..=16).contains(&self.instances) {
            return Err("--instances is 1 to 16".into());
        }
        if self.instances > 1 && !self.spawn {
            return Err("--instances goes with --spawn (give --url several times for servers already running)".into());
        }
        if self.instances > 1 && !self.db_is_postgres() {
            return Err(format!(
                "--instances {} needs --db postgres://...: several servers share a database only on PostgreSQL",
                self.instances
            ));
        }
        if self.kill_every.is_some() && !self.spawn {
            return Err("--kill-every needs --spawn: only a server started here can be killed and restarted".into());
        }
        if self.db.is_some() && !self.spawn {
            return Err("--db goes with --spawn".into());
        }
        if let Some(k) = self.kill_every {
            if !(k.is_finite() && k >= 0.1) {
                return Err("--kill-every is a number of seconds, at least 0.1".into());
            }
        }
        if self.games == 0 || self.games > 100_000 {
            return Err("--games is 1 to 100000".into());
        }
        if !(1..=4).contains(&self.sockets_per_game) {
            return Err("--sockets-per-game is 1 to 4".into());
        }
        if !(self.seconds.is_finite() && self.seconds > 0.0) {
            return Err("--seconds must be more than 0".into());
        }
        for u in &self.urls {
            if !u.starts_with("http://") {
                return Err(format!("--url must start with http:// (got {u})"));
            }
        }
        Ok(())
    }

    /// How many servers the run plays on: the `--url`s, or the spawned instances.
    pub fn servers(&self) -> usize {
        if self.spawn {
            self.instances
        } else {
            self.urls.len()
        }
    }

    /// Whether [`Config::db`] is a PostgreSQL URL.
    fn db_is_postgres(&self) -> bool {
        self.db.as_ref().is_some_and(|d| {
            let d = d.to_string_lossy();
            d.starts_with("postgres://") || d.starts_with("postgresql://")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spawned() -> Config {
        Config {
            spawn: true,
            ..Config::default()
        }
    }

    #[test]
    fn kill_every_needs_spawn() {
        let c = Config {
            urls: vec!["http://127.0.0.1:8080".into()],
            kill_every: Some(2.0),
            ..Config::default()
        };
        let e = c.check().unwrap_err();
        assert!(e.contains("--kill-every needs --spawn"), "{e}");
        let c = Config {
            kill_every: Some(2.0),
            ..spawned()
        };
        assert_eq!(c.check(), Ok(()));
    }

    #[test]
    fn one_server_source() {
        assert!(Config::default().check().is_err());
        let both = Config {
            urls: vec!["http://127.0.0.1:1".into()],
            ..spawned()
        };
        assert!(both.check().unwrap_err().contains("not both"));
        assert_eq!(spawned().check(), Ok(()));
    }

    #[test]
    fn bounds() {
        for bad in [
            Config {
                games: 0,
                ..spawned()
            },
            Config {
                sockets_per_game: 5,
                ..spawned()
            },
            Config {
                seconds: 0.0,
                ..spawned()
            },
            Config {
                kill_every: Some(0.0),
                ..spawned()
            },
            Config {
                urls: vec!["http://127.0.0.1:1".into(), "ftp://x".into()],
                ..Config::default()
            },
            Config {
                instances: 0,
                ..spawned()
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn several_instances_need_postgres() {
        let two = |db: Option<&str>| Config {
            instances: 2,
            db: db.map(PathBuf::from),
            ..spawned()
        };
        for db in [None, Some("/tmp/bench.db"), Some("sqlite://x.db")] {
            let e = two(db).check().unwrap_err();
            assert!(
                e.contains("several servers share a database only on PostgreSQL"),
                "{db:?}: {e}"
            );
        }
        let pg = "postgres://chaupar:chaupar@127.0.0.1:5432/chaupar_test";
        assert_eq!(two(Some(pg)).check(), Ok(()));
        assert_eq!(two(Some(pg)).servers(), 2);
        let one_sqlite = Config {
            db: Some("/tmp/bench.db".into()),
            ..spawned()
        };
        assert_eq!(one_sqlite.check(), Ok(()));
        let not_spawned = Config {
            urls: vec!["http://127.0.0.1:1".into()],
            instances: 2,
            ..Config::default()
        };
        assert!(not_spawned
            .check()
            .unwrap_err()
            .contains("--instances goes with --spawn"));
        let urls = Config {
            urls: vec!["http://127.0.0.1:1".into(), "http://127.0.0.1:2".into()],
            ..Config::default()
        };
        assert_eq!(urls.check(), Ok(()));
        assert_eq!(urls.servers(), 2);
    }
}
