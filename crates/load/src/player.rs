//! A simulated person: one WebSocket to its game, holding one or more seats.
//!
//! It authenticates the socket with each seat's token (`{"action": "auth"}`),
//! follows the game from the `state` pushes and, when a seat it holds is to move,
//! waits a think time (the mean ±50%) and acts over the socket: `throw` when the
//! turn has no throw yet, else a step chosen at random from `turn.legal`, else
//! `end` (as the page does: its buttons are throw, the legal steps, and end or
//! pass). Every action carries a fresh random `action_id`.
//!
//! **Every change pushed once and in order**: on each socket, a `state` push
//! whose version is more than one above the previous push's counts as
//! *skipped* (a change not pushed to it), one below as *backwards*; a push of
//! the same version again (after an `auth`) is allowed. With several servers
//! this watches the pushes that crossed servers.
//!
//! **Latency** is from sending the action to the first `state` push with a
//! `version` above the one it was sent on (the server pushes a change only once
//! it is stored), or to the `error` that refuses it. After an error the person
//! reads the game over HTTP and thinks again.
//!
//! **Which server**: a person's socket goes to its *home* server
//! ([`crate::servers::Servers::home`]). A dropped socket is opened again on its
//! home server if that answers, else on the next servers in turn (so while a
//! killed server restarts, its people carry on through the others); it stays on
//! the server it reached until that socket drops in its turn.
//!
//! **A dropped socket** (the server killed, or no answer within 10 s) is opened
//! again after a short backoff (0.1 s doubling to 2 s). An action that was in
//! flight is then sent again with the SAME `action_id`, over HTTP with the seat's
//! token, to the server the socket reached again (the next ones on error),
//! because an HTTP action always has an answer of its own, whereas over
//! the socket a change is answered only by the push of the change. The retry is
//! answered with the game's state: since no one else acts in the game meanwhile,
//! that state's `version` is the version the action was sent on plus one whether
//! the first send was stored or not, when the server applies an action id once.
//! More than one is counted as a **duplicated** action (applied twice). A retry
//! answered with an error (`409 dice already thrown` when the first send was
//! stored and the server does not know the id) is counted as refused.

use crate::games::{version, Game};
use crate::http::Http;
use crate::servers::Servers;
use crate::stats::{ErrorKind, Stats};
use crate::view::{Push, View};
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::time::{sleep, sleep_until, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Longest wait for an action's answer before the socket counts as dropped.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// What every person shares.
#[derive(Clone)]
pub struct Ctx {
    /// The servers, over HTTP.
    pub servers: Servers,
    /// The run's counters.
    pub stats: Arc<Stats>,
    /// The mean think time.
    pub think: Duration,
    /// When the run ends: `None` while games are made and sockets opened.
    pub end: watch::Receiver<Option<Instant>>,
}

/// One simulated person.
pub struct Person {
    /// The game.
    pub game: Arc<Game>,
    /// The seats held, with their tokens.
    pub seats: Vec<(String, String)>,
    /// The index of its home server in [`Ctx::servers`].
    pub home: usize,
}

/// An action sent and not yet answered.
struct Inflight {
    action: &'static str,
    /// The HTTP body: seat, action_id, and the step of a `step`.
    body: Value,
    /// The version of the state it was chosen on.
    on: u64,
    sent: Instant,
}

/// Why a session with a socket ended.
enum End {
    /// The run is over.
    Deadline,
    /// The socket closed or failed.
    Dropped,
    /// The action in flight had no answer within [`ANSWER_WITHIN`] (counted as
    /// another error, not a drop): the socket is opened again and the action retried.
    TimedOut,
}

/// A socket to the server.
type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

impl Person {
    /// Plays until the run ends, opening the socket again whenever it drops.
    pub async fn run(self, mut ctx: Ctx) {
        let mut rng = StdRng::from_entropy();
        let mut first = true;
        let mut backoff = Duration::from_millis(100);
        let mut inflight: Option<Inflight> = None;
        // Failed connections in a row: the next try goes to server home + failed.
        let mut failed = 0;
        loop {
            if over(&ctx.end) {
                return;
            }
            let at = (self.home + failed) % ctx.servers.len();
            let url = format!(
                "{}/api/games/{}/ws",
                ctx.servers.at(at).base().replacen("http://", "ws://", 1),
                self.game.id
            );
            let mut ws = match tokio_tungstenite::connect_async(url.as_str()).await {
                Ok((ws, _)) => ws,
                Err(_) => {
                    if first {
                        ctx.stats.error(ErrorKind::Other);
                    }
                    failed += 1;
                    // Back off once every server was tried.
                    if failed % ctx.servers.len() == 0 {
                        sleep(backoff).await;
                        backoff = (backoff * 2).min(Duration::from_secs(2));
                    }
                    continue;
                }
            };
            failed = 0;
            backoff = Duration::from_millis(100);
            ctx.stats.open.fetch_add(1, Relaxed);
            if !first {
                ctx.stats.reconnects.fetch_add(1, Relaxed);
            }
            first = false;
            let mut view: Option<View> = None;
            let mut ok = true;
            for (_, token) in &self.seats {
                let auth = json!({"action": "auth", "token": token}).to_string();
                ok &= ws.send(Message::text(auth)).await.is_ok();
            }
            if ok {
                if let Some(f) = inflight.take() {
                    view = self.retry(&ctx, f, at).await;
                }
            }
            let end = if ok {
                self.session(&mut ctx, at, &mut ws, &mut rng, &mut view, &mut inflight)
                    .await
            } else {
                End::Dropped
            };
            ctx.stats.open.fetch_sub(1, Relaxed);
            match end {
                End::Deadline => {
                    let _ = ws.close(None).await;
                    return;
                }
                End::Dropped | End::TimedOut => {
                    if matches!(end, End::Dropped) && !over(&ctx.end) {
                        ctx.stats.error(ErrorKind::Dropped);
                    }
                    sleep(backoff).await;
                }
            }
        }
    }

    /// Reads the socket and acts until the run ends or the socket drops.
    async fn session(
        &self,
        ctx: &mut Ctx,
        at: usize,
        ws: &mut Socket,
        rng: &mut StdRng,
        view: &mut Option<View>,
        inflight: &mut Option<Inflight>,
    ) -> End {
        let far = Instant::now() + Duration::from_secs(86400 * 365);
        let mut think_at: Option<Instant> = None;
        // The version of this socket's last state push.
        let mut pushed: Option<u64> = None;
        loop {
            let end = *ctx.end.borrow();
            if end.is_some_and(|e| Instant::now() >= e) {
                return End::Deadline;
            }
            if inflight.is_none() && think_at.is_none() && end.is_some() {
                if let Some(v) = view.as_ref() {
                    if self.to_act(v).is_some() {
                        let mean = ctx.think.as_secs_f64();
                        let t = mean * rng.gen_range(0.5..=1.5);
                        think_at = Some(Instant::now() + Duration::from_secs_f64(t));
                    }
                }
            }
            let answer_by = inflight.as_ref().map(|f| f.sent + ANSWER_WITHIN);
            tokio::select! {
                _ = sleep_until(end.unwrap_or(far)) => return End::Deadline,
                r = ctx.end.changed() => if r.is_err() { return End::Deadline },
                _ = sleep_until(think_at.unwrap_or(far)), if think_at.is_some() => {
                    think_at = None;
                    if let Some(f) = view.as_ref().and_then(|v| self.choose(v, rng)) {
                        let mut msg = f.body.clone();
                        msg["action"] = f.action.into();
                        let sent = ws.send(Message::text(msg.to_string())).await;
                        *inflight = Some(Inflight { sent: Instant::now(), ..f });
                        if sent.is_err() {
                            return End::Dropped;
                        }
                    }
                }
                _ = sleep_until(answer_by.unwrap_or(far)), if answer_by.is_some() => {
                    ctx.stats.error(ErrorKind::Other);
                    return End::TimedOut;
                }
                msg = ws.next() => match msg {
                    Some(Ok(Message::Text(text))) => {
                        let Ok(m) = serde_json::from_str::<Push>(&text) else { continue };
                        match (m.kind.as_str(), m.game) {
                            ("state", Some(game)) => {
                                order(ctx, &mut pushed, game.version);
                                self.on_state(ctx, game, view, inflight)
                            }
                            ("error", _) => {
                                let kind = ErrorKind::of_status(m.status.unwrap_or(0));
                                ctx.stats.error(kind);
                                if inflight.take().is_some() {
                                    think_at = None;
                                    let path = format!("/api/games/{}", self.game.id);
                                    if let Ok(a) = ctx.servers.get_any(at, &path).await {
                                        if a.status == 200 {
                                            *view = serde_json::from_value(a.body).ok();
                                        }
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return End::Dropped,
                    Some(Ok(_)) => {}
                },
            }
        }
    }

    /// A state push: acknowledges the action in flight if it shows it applied.
    fn on_state(
        &self,
        ctx: &Ctx,
        game: View,
        view: &mut Option<View>,
        inflight: &mut Option<Inflight>,
    ) {
        let v = game.version;
        if let Some(f) = inflight.as_ref() {
            if v > f.on {
                ctx.stats.acked(f.sent.elapsed());
                self.game.ack(v);
                *inflight = None;
            }
        }
        if view.as_ref().is_none_or(|old| v >= old.version) {
            *view = Some(game);
        }
    }

    /// The seat this person moves for now, if any.
    fn to_act<'a>(&'a self, v: &View) -> Option<&'a (String, String)> {
        if v.outcome != "playing" || v.to_move_kind.as_deref() != Some("person") {
            return None;
        }
        let c = v.to_move.as_deref()?;
        self.seats.iter().find(|(s, _)| s == c)
    }

    /// The next action: throw, a random legal step, or end.
    fn choose(&self, v: &View, rng: &mut StdRng) -> Option<Inflight> {
        let (seat, _) = self.to_act(v)?;
        let id: String = (0..24)
            .map(|_| char::from(b"0123456789abcdefghijklmnopqrstuvwxyz"[rng.gen_range(0..36)]))
            .collect();
        let mut body = json!({"seat": seat, "action_id": id});
        let action = match &v.turn {
            None => "throw",
            Some(turn) if !turn.legal.is_empty() => {
                body["step"] = turn.legal[rng.gen_range(0..turn.legal.len())].clone();
                "step"
            }
            Some(_) => "end",
        };
        Some(Inflight {
            action,
            body,
            on: v.version,
            sent: Instant::now(),
        })
    }

    /// Sends a dropped socket's action again over HTTP with its `action_id`,
    /// until it is answered or the run ends: to server `at` first, to the next
    /// ones after a failure. Answers the state it got, if any.
    async fn retry(&self, ctx: &Ctx, f: Inflight, at: usize) -> Option<View> {
        let token = &self
            .seats
            .iter()
            .find(|(s, _)| f.body["seat"] == s.as_str())?
            .1;
        let path = format!("/api/games/{}/{}", self.game.id, f.action);
        ctx.stats.retries.fetch_add(1, Relaxed);
        let mut at = at;
        while !over(&ctx.end) {
            let sent = Instant::now();
            let http: &Http = ctx.servers.at(at);
            match http.post(&path, &f.body, Some(token)).await {
                Ok(a) if a.status == 200 => {
                    let v = version(&a.body);
                    if v > f.on + 1 {
                        ctx.stats.duplicated.fetch_add(1, Relaxed);
                    }
                    ctx.stats.acked(sent.elapsed());
                    self.game.ack(v);
                    return serde_json::from_value(a.body).ok();
                }
                Ok(a) if a.status == 429 => {}
                Ok(a) if a.status >= 500 => at += 1,
                Ok(a) => {
                    ctx.stats.retries_refused.fetch_add(1, Relaxed);
                    ctx.stats.error(ErrorKind::of_status(u64::from(a.status)));
                    return None;
                }
                Err(_) => at += 1,
            }
            sleep(Duration::from_millis(200)).await;
        }
        None
    }
}

/// Counts a state push of `version` that skipped a version or went back after
/// the socket's previous push (`pushed`), and remembers it.
fn order(ctx: &Ctx, pushed: &mut Option<u64>, version: u64) {
    if let Some(last) = *pushed {
        if version > last + 1 {
            ctx.stats.pushes_skipped.fetch_add(1, Relaxed);
        } else if version < last {
            ctx.stats.pushes_backwards.fetch_add(1, Relaxed);
        }
    }
    *pushed = Some(pushed.unwrap_or(0).max(version));
}

/// Whether the run has ended.
fn over(end: &watch::Receiver<Option<Instant>>) -> bool {
    end.borrow().is_some_and(|e| Instant::now() >= e)
}
