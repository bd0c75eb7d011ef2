//! Live games over WebSocket: `GET /api/games/{id}/ws`.
//!
//! The server sends the game's state on connect and after every stored change
//! (`{"type": "state", "game": ...}`), and `{"type": "deleted"}` when the game is
//! removed. The client may send the same actions as the HTTP API
//! (`{"action": "throw", "seat": "yellow"}`, ...); a wrong one is answered with
//! `{"type": "error", "error": "...", "status": 4xx}` and changes nothing.
//!
//! A browser cannot set headers on a WebSocket: the client first sends
//! `{"action": "auth", "token": "..."}` for each seat it holds (answered
//! `{"type": "auth", "seat": "red"}`), and its actions for that seat are then
//! allowed; an action may instead carry its own `"token"`. Every socket is sent
//! `{"type": "presence", "connected": [...]}`, the seats some socket holds, on
//! connecting and whenever that changes.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Path, State};
use axum::Extension;

use crate::limits::Held;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;

use chaupar_core::Colour;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use crate::api::actions::{perform, Act, Action, Check, Done, ACTIONS};
use crate::api::{bad_json, parse_json};
use crate::error::ApiError;
use crate::metrics::{timed, OpenSocket};
use crate::state::{blocking, state_message, Answer, Push, Shared, Slot};
use crate::view::GameView;

/// The largest message a client may send (a step is about 100 bytes); longer
/// ones are refused with an error.
const MAX_MESSAGE: usize = 16 * 1024;

/// Longer messages than this are not even read: the socket is closed.
const MAX_FRAME: usize = 1024 * 1024;

/// Upgrades to a WebSocket for a game that exists: `404` like HTTP otherwise, and
/// `426` for a plain request without the upgrade.
pub(crate) async fn api_ws(
    State(state): State<Shared>,
    Path(id): Path<String>,
    info: Option<ConnectInfo<SocketAddr>>,
    held: Option<Extension<Held>>,
    ws: Option<WebSocketUpgrade>,
) -> Result<Response, ApiError> {
    let ip = crate::limits::peer(info);
    let s = state.slot(&id).await?;
    let ws = ws.ok_or_else(|| {
        ApiError::new(
            StatusCode::UPGRADE_REQUIRED,
            "this address is a WebSocket: connect with a WebSocket client (Upgrade: websocket)",
        )
    })?;
    Ok(ws
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| async move {
            // The connection counts against its address while the socket is open.
            let _held = held;
            let _open = OpenSocket::new();
            session(state, id, ip, s, socket).await
        })
        .into_response())
}

/// A message to the client (but the state, which is pushed ready-made).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Reply<'a> {
    /// The game was deleted.
    Deleted,
    /// An action was refused.
    Error(crate::error::ErrorBody<'a>),
    /// The answer to `check`.
    Check(&'a Check),
    /// The seat a token holds, after `auth`.
    Auth {
        /// The seat.
        seat: Colour,
    },
}

impl Reply<'_> {
    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

fn error_message(e: &ApiError) -> String {
    Reply::Error(e.body(true)).text()
}

/// The state message of a game as it is now (the view is engine work: made
/// off the async workers, from a copy taken under the lock).
async fn state_now(core: crate::live::Core) -> Option<String> {
    let view = blocking(move || GameView::of(&core)).await.ok()?;
    Some((*state_message(&view)).clone())
}

/// Sends `{"type": "deleted"}` and closes the socket.
async fn say_deleted(socket: &mut WebSocket) {
    let _ = socket.send(Message::Text(Reply::Deleted.text())).await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: 1000,
            reason: "the game was deleted".into(),
        })))
        .await;
}

/// A socket's life, then its seats are let go (presence).
async fn session(state: Shared, id: String, ip: Option<IpAddr>, s: Slot, socket: WebSocket) {
    let mut held = BTreeMap::new();
    run(&state, &id, ip, &s, socket, &mut held).await;
    if !held.is_empty() {
        let mut e = s.lock().await;
        for c in held.keys() {
            e.connect(*c, false);
        }
    }
}

async fn run(
    state: &Shared,
    id: &str,
    ip: Option<IpAddr>,
    s: &Slot,
    mut socket: WebSocket,
    held: &mut BTreeMap<Colour, String>,
) {
    // Subscribe and take the state under the same lock that every change is made
    // under: the first message is the state, and every later change is pushed.
    let (mut rx, core, presence) = {
        let e = s.lock().await;
        if e.deleted {
            drop(e);
            say_deleted(&mut socket).await;
            return;
        }
        let (rx, core) = e.subscribe();
        (rx, core, e.presence_message())
    };
    let Some(first) = state_now(core).await else {
        return;
    };
    if socket.send(Message::Text(first)).await.is_err() {
        return;
    }
    if socket.send(Message::Text(presence)).await.is_err() {
        return;
    }
    // A ping now and then keeps idle connections open through proxies; a client
    // that does not answer one in time has gone (or does not play by the rules):
    // its socket is closed.
    let limits = &state.opts.limits;
    let mut ping = tokio::time::interval(limits.ws_ping_every);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping.tick().await;
    let far = || tokio::time::Instant::now() + std::time::Duration::from_secs(86_400 * 365);
    let pong_due = tokio::time::sleep_until(far());
    tokio::pin!(pong_due);
    let mut awaiting_pong = false;
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new())).await.is_err() {
                    return;
                }
                if !awaiting_pong {
                    awaiting_pong = true;
                    pong_due.as_mut().reset(tokio::time::Instant::now() + limits.ws_pong_within);
                }
            }
            _ = &mut pong_due, if awaiting_pong => {
                tracing::debug!(game = %id, "a WebSocket did not answer a ping: closed");
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: 1011,
                        reason: "no answer to ping".into(),
                    })))
                    .await;
                return;
            }
            push = rx.recv() => {
                let text = match push {
                    Ok(Push::State(text)) | Ok(Push::Presence(text)) => (*text).clone(),
                    // The chat goes to the players, and to spectators only if allowed.
                    Ok(Push::Chat(text, public)) => {
                        if !public && held.is_empty() {
                            continue;
                        }
                        (*text).clone()
                    }
                    Ok(Push::Deleted) => {
                        say_deleted(&mut socket).await;
                        return;
                    }
                    Err(RecvError::Lagged(_)) => {
                        // Fallen behind: skip what is queued and send the state now.
                        let e = s.lock().await;
                        let mut deleted = e.deleted;
                        loop {
                            match rx.try_recv() {
                                Ok(Push::Deleted) => deleted = true,
                                Ok(Push::State(_))
                                | Ok(Push::Presence(_))
                                | Ok(Push::Chat(..))
                                | Err(TryRecvError::Lagged(_)) => {}
                                Err(_) => break,
                            }
                        }
                        if deleted {
                            drop(e);
                            say_deleted(&mut socket).await;
                            return;
                        }
                        let core = e.core.clone();
                        let presence = e.presence_message();
                        drop(e);
                        let Some(text) = state_now(core).await else {
                            return;
                        };
                        if socket.send(Message::Text(text)).await.is_err() {
                            return;
                        }
                        presence
                    }
                    Err(RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text)).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => {
                let reply = match msg {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(Message::Text(text))) if text.len() > MAX_MESSAGE => {
                        error_message(&ApiError::new(
                            StatusCode::PAYLOAD_TOO_LARGE,
                            format!(
                                "a message may have at most {MAX_MESSAGE} bytes, not {}",
                                text.len()
                            ),
                        ))
                    }
                    Some(Ok(Message::Pong(_))) => {
                        awaiting_pong = false;
                        pong_due.as_mut().reset(far());
                        continue;
                    }
                    Some(Ok(Message::Text(text))) => match action(state, id, ip, s, held, &text).await {
                        Ok(None) => continue,
                        Ok(Some(Said::Check(check))) => Reply::Check(&check).text(),
                        Ok(Some(Said::Auth(seat))) => Reply::Auth { seat }.text(),
                        Ok(Some(Said::State(view))) => crate::state::state_message(&view).to_string(),
                        Err(e) => error_message(&e),
                    },
                    Some(Ok(Message::Binary(_))) => error_message(&ApiError::bad(
                        "send actions as text messages of JSON, not binary ones",
                    )),
                    // Pings are answered by the library.
                    Some(Ok(_)) => continue,
                };
                if socket.send(Message::Text(reply)).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Carries out one message from a client: the same actions as over HTTP. A
/// change is not answered here: it is pushed to every socket of the game (this
/// one too) once it is stored; a retried `action_id` stored before is answered
/// to this socket alone with the state it made. `check` is answered with `{"type": "check",
/// "allowed": ...}`; `auth` with `{"type": "auth", "seat": ...}`.
async fn action(
    state: &Shared,
    id: &str,
    ip: Option<IpAddr>,
    s: &Slot,
    held: &mut BTreeMap<Colour, String>,
    text: &str,
) -> Result<Option<Said>, ApiError> {
    state.guards.action_from(ip)?;
    let mut v: Value = parse_json(text.as_bytes())?;
    let obj = v.as_object_mut().ok_or_else(|| {
        ApiError::bad(format!(
            "a message is a JSON object: {{\"action\": \"throw\", \"seat\": \"yellow\"}}; actions: {ACTIONS}"
        ))
    })?;
    let name = match obj.remove("action") {
        Some(Value::String(a)) => a,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "action must be a string ({ACTIONS}), not {other}"
            )))
        }
        None => {
            return Err(ApiError::bad(format!(
            "give the action: {{\"action\": \"throw\", \"seat\": \"yellow\"}}; actions: {ACTIONS}"
        )))
        }
    };
    let token = match obj.remove("token") {
        Some(Value::String(t)) => Some(t),
        Some(_) => return Err(ApiError::bad("token must be a string")),
        None => None,
    };
    if name == "auth" {
        if !obj.is_empty() {
            return Err(ApiError::bad(
                "auth takes only {\"action\": \"auth\", \"token\"}",
            ));
        }
        let token = token.ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "give the seat's token: {\"action\": \"auth\", \"token\": \"...\"}",
            )
        })?;
        let mut e = s.lock().await;
        e.live()?;
        let seat = (e.core.seating.seat_of(&token)).ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "this token holds no seat of this game",
            )
        })?;
        if held.insert(seat, token).is_none() {
            e.connect(seat, true);
        }
        return Ok(Some(Said::Auth(seat)));
    }
    let action = Action::named(&name)
        .ok_or_else(|| ApiError::bad(format!("unknown action {name:?}: use {ACTIONS}")))?;
    let act: Act = serde_json::from_value(v).map_err(bad_json)?;
    // The message's own token, or the one this socket gave for the seat.
    let token = token.or_else(|| {
        let c: Colour = act.seat().parse().ok()?;
        held.get(&c).cloned()
    });
    Ok(
        match timed(
            action,
            perform(state, id, action, act, token.as_deref(), Answer::Nothing),
        )
        .await?
        {
            // A retried action_id: its stored answer, to this socket alone.
            Done::Changed(Some(view), true) => Some(Said::State(view)),
            Done::Changed(..) => None,
            Done::Checked(check) => Some(Said::Check(check)),
        },
    )
}

/// What a message is answered with.
enum Said {
    /// The answer to `check`.
    Check(Check),
    /// The seat an `auth` holds.
    Auth(Colour),
    /// The game's state a retried action made when it was first stored.
    State(Box<crate::view::GameView>),
}
