//! Live games over WebSocket: `GET /api/games/{id}/ws`.
//!
//! The server sends the game's state on connect and after every stored change
//! (`{"type": "state", "game": ...}`), and `{"type": "deleted"}` when the game is
//! removed. The client may send the same actions as the HTTP API
//! (`{"action": "throw", "seat": "yellow"}`, ...); a wrong one is answered with
//! `{"type": "error", "error": "...", "status": 4xx}` and changes nothing.

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use tokio::sync::broadcast::error::{RecvError, TryRecvError};

use super::{
    apply, check, do_end, do_step, do_throw, do_undo, slot, state_message, Act, Action, ApiError,
    Push, Shared, Slot,
};

/// The largest message a client may send (a step is about 100 bytes); longer
/// ones are refused with an error.
const MAX_MESSAGE: usize = 16 * 1024;

/// Longer messages than this are not even read: the socket is closed.
const MAX_FRAME: usize = 1024 * 1024;

const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

const ACTIONS: &str = "throw, step, undo, end or check";

/// Upgrades to a WebSocket for a game that exists: `404` like HTTP otherwise, and
/// `426` for a plain request without the upgrade.
pub(crate) async fn api_ws(
    State(state): State<Shared>,
    Path(id): Path<String>,
    ws: Option<WebSocketUpgrade>,
) -> Result<Response, ApiError> {
    let s = slot(&state, &id).await?;
    let ws = ws.ok_or_else(|| {
        ApiError(
            StatusCode::UPGRADE_REQUIRED,
            "this address is a WebSocket: connect with a WebSocket client (Upgrade: websocket)"
                .into(),
            None,
        )
    })?;
    Ok(ws
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| session(state, id, s, socket))
        .into_response())
}

fn deleted_message() -> String {
    json!({"type": "deleted"}).to_string()
}

fn error_message(e: &ApiError) -> String {
    let mut m = json!({"type": "error", "error": e.1, "status": e.0.as_u16()});
    if let Some(ru) = &e.2 {
        m["error_ru"] = json!(ru);
    }
    m.to_string()
}

/// Sends `{"type": "deleted"}` and closes the socket.
async fn say_deleted(socket: &mut WebSocket) {
    let _ = socket.send(Message::Text(deleted_message())).await;
    let _ = socket
        .send(Message::Close(Some(CloseFrame {
            code: 1000,
            reason: "the game was deleted".into(),
        })))
        .await;
}

async fn session(state: Shared, id: String, s: Slot, mut socket: WebSocket) {
    // Subscribe and take the state under the same lock that every change is made
    // under: the first message is the state, and every later change is pushed.
    let (mut rx, first) = {
        let e = s.lock().await;
        if e.deleted {
            drop(e);
            say_deleted(&mut socket).await;
            return;
        }
        (e.tx.subscribe(), state_message(&e.core))
    };
    if socket.send(Message::Text((*first).clone())).await.is_err() {
        return;
    }
    // A ping now and then keeps idle connections open through proxies and ends
    // the session of a client that has gone.
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ping.tick().await;
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new())).await.is_err() {
                    return;
                }
            }
            push = rx.recv() => {
                let text = match push {
                    Ok(Push::State(text)) => (*text).clone(),
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
                                Ok(Push::State(_)) | Err(TryRecvError::Lagged(_)) => {}
                                Err(_) => break,
                            }
                        }
                        if deleted {
                            drop(e);
                            say_deleted(&mut socket).await;
                            return;
                        }
                        (*state_message(&e.core)).clone()
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
                        error_message(&ApiError(
                            StatusCode::PAYLOAD_TOO_LARGE,
                            format!(
                                "a message may have at most {MAX_MESSAGE} bytes, not {}",
                                text.len()
                            ),
                            None,
                        ))
                    }
                    Some(Ok(Message::Text(text))) => match action(&state, &id, &text).await {
                        Ok(None) => continue,
                        Ok(Some(v)) => v.to_string(),
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

/// Carries out one message from a client. A change is not answered here: it is
/// pushed to every socket of the game (this one too) once it is stored. `check`
/// is answered with `{"type": "check", "allowed": ...}`.
async fn action(state: &Shared, id: &str, text: &str) -> Result<Option<Value>, ApiError> {
    let mut v: Value =
        serde_json::from_str(text).map_err(|e| ApiError::bad(format!("bad request JSON: {e}")))?;
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
    let f: Option<Action> = match name.as_str() {
        "throw" => Some(do_throw),
        "step" => Some(do_step),
        "undo" => Some(do_undo),
        "end" => Some(do_end),
        "check" => None,
        _ => {
            return Err(ApiError::bad(format!(
                "unknown action {name:?}: use {ACTIONS}"
            )))
        }
    };
    let req: Act =
        serde_json::from_value(v).map_err(|e| ApiError::bad(format!("bad request JSON: {e}")))?;
    match f {
        Some(f) => {
            apply(state, id, &req, f, false).await?;
            Ok(None)
        }
        None => {
            let mut answer = check(state, id, &req).await?;
            answer["type"] = json!("check");
            Ok(Some(answer))
        }
    }
}
