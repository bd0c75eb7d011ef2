//! Live games over WebSocket: the state on connect, a push after every change
//! (HTTP, WebSocket and computer seats alike), actions sent over the socket, and
//! wrong messages that are answered with errors and change nothing.
mod common;

use std::time::Duration;

use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A socket that holds every seat the tests hold in the game (as the page of
/// people at one screen does: one `auth` per seat).
async fn connect(s: &Server, id: &str) -> Ws {
    let mut ws = watch(s, id).await;
    for (_, t) in held(id).seats {
        send(&mut ws, &json!({"action": "auth", "token": t})).await;
    }
    ws
}

/// A socket that holds no seat: a spectator.
async fn watch(s: &Server, id: &str) -> Ws {
    let url = format!("ws://{}/api/games/{id}/ws", s.addr);
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    ws
}

/// The next JSON message but presence and `auth` answers, or `None` when the
/// socket closes.
async fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        let m = next_any(ws).await?;
        if m["type"] != "presence" && m["type"] != "auth" {
            return Some(m);
        }
    }
}

/// The next JSON message, or `None` when the socket closes.
async fn next_any(ws: &mut Ws) -> Option<Value> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("no message from the server within 20 s");
        match m {
            None | Some(Ok(Message::Close(_))) => return None,
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).unwrap()),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            other => panic!("unexpected message {other:?}"),
        }
    }
}

/// The next message, which must be a state; returns the game.
async fn next_state(ws: &mut Ws) -> Value {
    let m = next(ws).await.expect("socket closed");
    assert_eq!(m["type"], "state", "{m}");
    m["game"].clone()
}

async fn send(ws: &mut Ws, v: &Value) {
    ws.send(Message::Text(v.to_string())).await.unwrap();
}

/// Sends a wrong message; the answer must be an error with this status.
async fn refused(ws: &mut Ws, msg: Message, status: u16) -> Value {
    let shown = format!("{msg:?}");
    ws.send(msg).await.unwrap();
    let m = next(ws).await.expect("socket closed after a wrong message");
    assert_eq!(m["type"], "error", "{shown}: {m}");
    assert_eq!(m["status"], status, "{shown}: {m}");
    assert!(!m["error"].as_str().unwrap().is_empty(), "{m}");
    m
}

/// Checks that a pushed state is the next version: nothing is missed.
fn pushed(version: &mut u64, g: &Value) {
    let v = g["version"].as_u64().unwrap();
    assert_eq!(v, *version + 1, "a version was skipped: {g}");
    *version = v;
}

fn text(v: Value) -> Message {
    Message::Text(v.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn states_are_pushed_after_every_change() {
    let s = start(&temp_db("ws-push")).await;
    let seats = json!({"yellow": {"kind": "person"}, "red": {"kind": "computer", "level": 1},
        "black": {"kind": "computer", "level": 1}, "green": {"kind": "computer", "level": 1}});
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "seats": seats, "delay_ms": 0, "seed": 5}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let url = format!("/api/games/{id}");
    let mut ws = connect(&s, &id).await;
    let mut watcher = connect(&s, &id).await;

    // The first message is the state, as GET answers it (or a later one, if a
    // computer played in between: then the pushes follow on from it).
    let mut g = next_state(&mut ws).await;
    let first = g["version"].as_u64().unwrap();
    let got = get(&s, &url).await;
    assert!(got["version"].as_u64().unwrap() >= first);
    if got["version"] == g["version"] {
        assert_eq!(got, g);
    }
    let watcher_first = next_state(&mut watcher).await["version"].as_u64().unwrap();

    // Every push is the next version: nothing is missed.
    let mut version = first;
    let computer_moves = |g: &Value| {
        g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["colour"] != "yellow")
            .count()
    };
    let moves_at_start = computer_moves(&g);
    let mut http_throw = false;
    let mut undone = false;
    let mut ended = 0;
    for _ in 0..2000 {
        if undone && ended >= 2 && computer_moves(&g) > moves_at_start {
            break;
        }
        assert_eq!(g["outcome"], "playing", "{g}");
        if g["to_move"] != "yellow" {
            // A computer seat throws or plays: pushed too.
            g = next_state(&mut ws).await;
            pushed(&mut version, &g);
            continue;
        }
        if g["turn"].is_null() {
            if !http_throw {
                // A person's throw over HTTP is pushed, the same state as answered.
                let answer = post(&s, &format!("{url}/throw"), &json!({"seat": "yellow"})).await;
                g = next_state(&mut ws).await;
                pushed(&mut version, &g);
                assert_eq!(g, answer);
                http_throw = true;
            } else {
                send(&mut ws, &json!({"action": "throw", "seat": "yellow"})).await;
                g = next_state(&mut ws).await;
                pushed(&mut version, &g);
                assert!(!g["turn"].is_null(), "{g}");
            }
            continue;
        }
        let steps = g["turn"]["steps"].as_array().unwrap().len();
        if let Some(step) = g["turn"]["legal"].as_array().unwrap().first().cloned() {
            send(
                &mut ws,
                &json!({"action": "step", "seat": "yellow", "step": step}),
            )
            .await;
            g = next_state(&mut ws).await;
            pushed(&mut version, &g);
            assert_eq!(g["turn"]["steps"].as_array().unwrap().len(), steps + 1);
            if !undone {
                send(&mut ws, &json!({"action": "undo", "seat": "yellow"})).await;
                g = next_state(&mut ws).await;
                pushed(&mut version, &g);
                assert_eq!(g["turn"]["steps"].as_array().unwrap().len(), steps);
                undone = true;
            }
        } else {
            assert_eq!(g["turn"]["can_end"], true, "{g}");
            let moves = g["moves"].as_array().unwrap().len();
            send(&mut ws, &json!({"action": "end", "seat": "yellow"})).await;
            g = next_state(&mut ws).await;
            pushed(&mut version, &g);
            assert_eq!(g["moves"].as_array().unwrap().len(), moves + 1);
            ended += 1;
        }
    }
    assert!(http_throw && undone && ended >= 2, "{g}");
    assert!(computer_moves(&g) > moves_at_start, "no computer move seen");

    // The stored state is the last one pushed (once the computers are done).
    let last = loop {
        let now = get(&s, &url).await;
        if now["version"].as_u64().unwrap() == version {
            break now;
        }
        g = next_state(&mut ws).await;
        pushed(&mut version, &g);
    };
    assert_eq!(last, g);

    // A second socket on the same game saw every change too, in order.
    let mut v = watcher_first;
    while v < version {
        let w = next_state(&mut watcher).await;
        assert_eq!(w["version"].as_u64().unwrap(), v + 1);
        v += 1;
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_messages_get_errors_and_change_nothing() {
    let s = start(&temp_db("ws-wrong")).await;
    let PersonGame {
        id,
        url,
        mover,
        other,
    } = person_game(&s, "chaupar", 3).await;
    let mut ws = connect(&s, &id).await;
    let start = next_state(&mut ws).await;
    assert_eq!(start, get(&s, &url).await);

    refused(&mut ws, Message::Text("{not json".into()), 400).await;
    refused(&mut ws, Message::Text("[1, 2]".into()), 400).await;
    refused(&mut ws, Message::Binary(vec![1, 2, 3]), 400).await;
    let long = format!(
        "{{\"action\": \"throw\", \"seat\": \"{}\"}}",
        "y".repeat(20_000)
    );
    refused(&mut ws, Message::Text(long), 413).await;
    refused(&mut ws, text(json!({"seat": mover})), 400).await;
    let m = refused(&mut ws, text(json!({"action": "fly", "seat": mover})), 400).await;
    assert!(m["error"].as_str().unwrap().contains("fly"), "{m}");
    refused(&mut ws, text(json!({"action": 5, "seat": mover})), 400).await;
    refused(&mut ws, text(json!({"action": "throw"})), 400).await;
    refused(
        &mut ws,
        text(json!({"action": "throw", "seat": mover, "colour": "x"})),
        400,
    )
    .await;
    refused(
        &mut ws,
        text(json!({"action": "throw", "seat": "purple"})),
        400,
    )
    .await;
    // Not this seat's turn: the same words as HTTP.
    let m = refused(
        &mut ws,
        text(json!({"action": "throw", "seat": other})),
        409,
    )
    .await;
    let (st, http) = req(
        &s,
        "POST",
        &format!("{url}/throw"),
        Some(&json!({"seat": other}).to_string()),
    )
    .await;
    assert_eq!(st, 409);
    assert_eq!(m["error"], http["error"]);
    for action in ["undo", "end"] {
        let m = refused(&mut ws, text(json!({"action": action, "seat": mover})), 409).await;
        assert_eq!(m["error"], "throw the dice first");
    }
    let step = json!({"colour": mover, "from": 0, "to": 84, "pieces": 1, "by": 84, "dice": 1});
    refused(
        &mut ws,
        text(json!({"action": "step", "seat": mover, "step": step})),
        409,
    )
    .await;
    // Nothing changed, and nothing was pushed.
    assert_eq!(get(&s, &url).await, start);

    // The socket is still open: a good action goes through.
    send(&mut ws, &json!({"action": "throw", "seat": mover})).await;
    let thrown = next_state(&mut ws).await;
    assert_eq!(thrown["version"], start["version"].as_u64().unwrap() + 1);
    assert_eq!(thrown, get(&s, &url).await);
    refused(
        &mut ws,
        text(json!({"action": "throw", "seat": mover})),
        409,
    )
    .await;
    refused(&mut ws, text(json!({"action": "step", "seat": mover})), 400).await;
    let bad_colour =
        json!({"colour": "purple", "from": 0, "to": 6, "pieces": 1, "by": 6, "dice": 1});
    refused(
        &mut ws,
        text(json!({"action": "step", "seat": mover, "step": bad_colour})),
        400,
    )
    .await;
    // An illegal step: 422 with the reason in English and Russian, as HTTP says it.
    let m = refused(
        &mut ws,
        text(json!({"action": "step", "seat": mover, "step": step})),
        422,
    )
    .await;
    assert!(m["error_ru"].is_string(), "{m}");
    let (st, http) = req(
        &s,
        "POST",
        &format!("{url}/step"),
        Some(&json!({"seat": mover, "step": step}).to_string()),
    )
    .await;
    assert_eq!(st, 422);
    assert_eq!(m["error"], http["error"]);
    assert_eq!(m["error_ru"], http["error_ru"]);
    // `check` says why without taking the step.
    send(
        &mut ws,
        &json!({"action": "check", "seat": mover, "step": step}),
    )
    .await;
    let c = next(&mut ws).await.unwrap();
    assert_eq!(c["type"], "check", "{c}");
    assert_eq!(c["allowed"], false, "{c}");
    assert_eq!(c["why"], m["error"], "{c}");
    let m = refused(&mut ws, text(json!({"action": "undo", "seat": mover})), 409).await;
    assert_eq!(m["error"], "no step to take back");
    assert_eq!(get(&s, &url).await, thrown);

    // A computer's seat is not the person's to play.
    let cpu = json!({"kind": "computer", "level": 1});
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "seed": 3, "delay_ms": 60000,
            "seats": {"yellow": cpu, "red": cpu, "black": cpu, "green": cpu}}),
    )
    .await;
    let cid = g["id"].as_str().unwrap().to_string();
    let mut ws2 = connect(&s, &cid).await;
    let g = next_state(&mut ws2).await;
    refused(
        &mut ws2,
        text(json!({"action": "throw", "seat": g["to_move"]})),
        403,
    )
    .await;
    assert_eq!(get(&s, &format!("/api/games/{cid}")).await, g);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_games_are_refused_and_deletion_is_pushed() {
    let s = start(&temp_db("ws-gone")).await;
    // An unknown game: the upgrade is refused with 404 JSON.
    let url = format!("ws://{}/api/games/nope/ws", s.addr);
    match tokio_tungstenite::connect_async(url).await {
        Err(tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status().as_u16(), 404);
            let body: Value = serde_json::from_slice(resp.body().as_ref().unwrap()).unwrap();
            assert!(body["error"].as_str().unwrap().contains("nope"), "{body}");
        }
        other => panic!("expected 404, got {other:?}"),
    }
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "seed": 1, "delay_ms": 0}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    // A plain GET of the socket's address: 426 with words.
    let (st, v) = req(&s, "GET", &format!("/api/games/{id}/ws"), None).await;
    assert_eq!(st, 426, "{v}");
    assert!(v["error"].is_string(), "{v}");

    let mut ws = watch(&s, &id).await;
    assert_eq!(next_state(&mut ws).await, public(&g));
    let (st, _) = req(&s, "DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(st, 200);
    assert_eq!(next(&mut ws).await, Some(json!({"type": "deleted"})));
    assert_eq!(next(&mut ws).await, None);
    s.stop().await;
}
