//! `chaupar bench-server`: a load and crash benchmark for the Chaupar server.
//!
//! It talks to a server over the network only, as real clients do: it creates
//! games of four people over HTTP (`POST /api/games`, the `chaupar` preset),
//! opens a WebSocket per simulated person (or fewer, each holding several seats),
//! authenticates it with the seat tokens of the create answer, and plays: on its
//! turn (from the state pushes) a person waits a think time, then throws, takes
//! legal steps chosen at random from the view's `turn.legal`, and ends the turn.
//! Every action carries a fresh random `action_id`. See [`player`] for how an
//! action's latency is measured and how a dropped socket's action is retried, and
//! [`check`] for what exactly "an acknowledged action is stored" means.
//!
//! With [`Config::spawn`] it starts the server itself ([`server`]); with
//! [`Config::kill_every`] it also kills it with SIGKILL at random moments and
//! restarts it on the same database and port ([`killer`]).
//!
//! It can share the load among several servers of one database (several
//! `--url`s, or [`Config::instances`] spawned servers on PostgreSQL): games are
//! made round-robin and each game's sockets are spread over the servers, so the
//! pushes a person gets for another's action cross servers ([`servers`]).

pub mod check;
pub mod config;
pub mod games;
pub mod http;
pub mod killer;
pub mod player;
pub mod report;
pub mod run;
pub mod server;
pub mod servers;
pub mod stats;
pub mod view;

pub use config::Config;
pub use report::Report;
pub use run::run;
pub use stats::percentile;
