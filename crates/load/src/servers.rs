//! The servers of a run: one or several servers of one database, each reached
//! with its own HTTP client, and how the load is spread over them.
//!
//! Game `g` is made on server `g mod N`; socket `i` of game `g` connects to
//! server `(g + i) mod N` (its *home*), so with `N > 1` the people of one game
//! act through different servers and every push a socket gets for another
//! person's action has crossed servers (PostgreSQL's `NOTIFY`). Reads that only
//! need some answer (the checks, a person's read after an error) go to any
//! server that answers, trying the next on error.

use crate::http::{Answer, Http};

/// The servers of a run, in a fixed order.
#[derive(Clone)]
pub struct Servers {
    list: Vec<Http>,
}

impl Servers {
    /// Clients for the servers at `bases` (`http://host:port` each; at least one).
    pub fn new<S: AsRef<str>>(bases: &[S]) -> Servers {
        assert!(!bases.is_empty(), "at least one server");
        Servers {
            list: bases.iter().map(|b| Http::new(b.as_ref())).collect(),
        }
    }

    /// How many servers there are.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Never: there is always at least one server.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Server `i mod N`.
    pub fn at(&self, i: usize) -> &Http {
        &self.list[i % self.list.len()]
    }

    /// The server of socket `socket` of game `game`: `(game + socket) mod N`.
    pub fn home(&self, game: usize, socket: usize) -> usize {
        (game + socket) % self.list.len()
    }

    /// `GET path` from server `first`, then the next ones in turn, until one
    /// answers 200; the last answer or error otherwise.
    pub async fn get_any(&self, first: usize, path: &str) -> Result<Answer, String> {
        let mut last = Err("no server".to_string());
        for k in 0..self.list.len() {
            last = self.at(first + k).get(path).await;
            if matches!(&last, Ok(a) if a.status == 200) {
                break;
            }
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_of_a_game_spread_over_the_servers() {
        let s = Servers::new(&["http://127.0.0.1:1", "http://127.0.0.1:2"]);
        assert_eq!(s.len(), 2);
        // Game 0: sockets on 0, 1, 0, 1; game 1: on 1, 0, 1, 0.
        let homes = |g| (0..4).map(|i| s.home(g, i)).collect::<Vec<_>>();
        assert_eq!(homes(0), [0, 1, 0, 1]);
        assert_eq!(homes(1), [1, 0, 1, 0]);
        assert_eq!(s.at(3).base(), "http://127.0.0.1:2");
        let one = Servers::new(&["http://127.0.0.1:1"]);
        assert_eq!(one.home(7, 3), 0);
    }
}
