//! What a benchmark run does: the options of `chaupar bench-server`.

use std::path::PathBuf;
use std::time::Duration;

/// The settings of one run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The URL of a running server (`http://host:port`), when not spawning one.
    pub url: Option<String>,
    /// Start the server ourselves (this executable's `serve`).
    pub spawn: bool,
    /// The database of a spawned server (default: a file in a temporary directory).
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
            url: None,
            spawn: false,
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
        match (&self.url, self.spawn) {
            (Some(_), true) => return Err("give either --url or --spawn, not both".into()),
            (None, false) => {
                return Err("give --url URL of a running server, or --spawn to start one".into())
            }
            _ => {}
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
        if let Some(u) = &self.url {
            if !u.starts_with("http://") {
                return Err(format!("--url must start with http:// (got {u})"));
            }
        }
        Ok(())
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
            url: Some("http://127.0.0.1:8080".into()),
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
            url: Some("http://127.0.0.1:1".into()),
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
                url: Some("ftp://x".into()),
                ..Config::default()
            },
        ] {
            assert!(bad.check().is_err(), "{bad:?}");
        }
    }
}
