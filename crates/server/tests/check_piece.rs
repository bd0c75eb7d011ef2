//! A game's `check` with `{"seat", "piece"}`: why a clicked piece cannot move
//! at all, as a lesson's check answers it (`stuck::why_stuck`), with the same
//! token and seat checks as the other forms of `check`.
mod common;

use common::*;
use serde_json::{json, Value};

/// Asks `check` of game `url` with `body`, with the token the page would send.
async fn check(s: &Server, url: &str, body: Value) -> (u16, Value) {
    req(s, "POST", &format!("{url}/check"), Some(&body.to_string())).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_says_why_a_clicked_piece_cannot_move_in_every_preset() {
    let s = start(&temp_db("check-piece")).await;
    for preset in ["chaupar", "chausar", "classic"] {
        let pg = person_game(&s, preset, 5).await;
        let (url, mover) = (pg.url.as_str(), pg.mover.as_str());
        let g = post(&s, &format!("{url}/throw"), &json!({"seat": mover})).await;
        let legal = g["turn"]["legal"].as_array().unwrap().clone();
        // Every piece some step moves is allowed.
        for step in &legal {
            let (st, v) = check(
                &s,
                url,
                json!({"seat": mover, "colour": step["colour"], "piece": step["from"]}),
            )
            .await;
            assert_eq!(st, 200, "{preset} {step}: {v}");
            assert_eq!(v, json!({"allowed": true}), "{preset} {step}");
        }
        // Nothing of the mover's stands at 83 at the start: refused, in both
        // languages, as the engine says it for a move from there.
        let (st, v) = check(&s, url, json!({"seat": mover, "piece": 83})).await;
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["allowed"], false, "{v}");
        assert!(v["why"].as_str().unwrap().contains("83"), "{v}");
        assert!(v["why_ru"].as_str().unwrap().contains("83"), "{v}");
        let (_, moved) = check(&s, url, json!({"seat": mover, "from": 83, "to": 84})).await;
        assert_eq!(v["why"], moved["why"], "{preset}");
        // A piece of a colour whose part of the turn this is not.
        let other = g["seats"]
            .as_object()
            .unwrap()
            .keys()
            .find(|c| *c != mover && !legal.iter().any(|st| st["colour"] == json!(c)))
            .unwrap()
            .clone();
        let at = &g["position"]["pieces"][other.as_str()][0];
        let (st, v) = check(
            &s,
            url,
            json!({"seat": mover, "colour": other, "piece": at}),
        )
        .await;
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["allowed"], false, "{preset}: {v}");
        let (_, moved) = check(
            &s,
            url,
            json!({"seat": mover, "colour": other, "from": at, "to": 84}),
        )
        .await;
        assert_eq!(v["why"], moved["why"], "{preset}: the piece's own reason");
        assert!(!v["why_ru"].as_str().unwrap().is_empty(), "{v}");
        // The rule behind it, which the page links to.
        assert_eq!(v["rule"], "throw", "{preset}: {v}");
    }
    s.stop().await;
}

/// Once a step has used the whole throw, every other piece of the mover is
/// stuck, and a click on it is told the turn is over (the page would say so).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_piece_left_without_points_is_told_the_turn_is_over() {
    let s = start(&temp_db("check-piece-over")).await;
    let pg = person_game(&s, "chaupar", 3).await;
    let (url, mover) = (pg.url.as_str(), pg.mover.as_str());
    let g = post(&s, &format!("{url}/throw"), &json!({"seat": mover})).await;
    let total: u64 = g["turn"]["throw"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap())
        .sum();
    let legal = g["turn"]["legal"].as_array().unwrap();
    let whole = legal
        .iter()
        .find(|st| st["by"].as_u64() == Some(total))
        .unwrap_or_else(|| panic!("no step uses the whole throw {total}: {legal:?}"))
        .clone();
    let g = post(
        &s,
        &format!("{url}/step"),
        &json!({"seat": mover, "step": whole}),
    )
    .await;
    let pieces: Vec<u64> = g["position"]["pieces"][mover]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    assert!(pieces.len() >= 2, "{pieces:?}");
    for p in pieces {
        let (st, v) = check(&s, url, json!({"seat": mover, "piece": p})).await;
        assert_eq!(st, 200, "{v}");
        assert_eq!(v["allowed"], false, "{p}: {v}");
        assert_eq!(
            v["why"], "the turn is over: nothing more can be moved",
            "{p}"
        );
        assert_eq!(v["why_ru"], "ход окончен: больше нечем ходить", "{p}");
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_piece_check_is_refused_as_the_other_forms_are() {
    let s = start(&temp_db("check-piece-refused")).await;
    let pg = person_game(&s, "chaupar", 5).await;
    let (url, mover, other) = (pg.url.as_str(), pg.mover.as_str(), pg.other);
    let path = format!("{url}/check");
    let body = json!({"seat": mover, "piece": 0}).to_string();
    // Before the throw: nothing to ask about.
    let (st, v) = check(&s, url, json!({"seat": mover, "piece": 0})).await;
    assert_eq!(st, 409, "{v}");
    let g = post(&s, &format!("{url}/throw"), &json!({"seat": mover})).await;
    let step = g["turn"]["legal"][0].clone();
    let before = get(&s, url).await;
    // No token, another seat's token, a seat not to move.
    let (st, v) = req_as(&s, "POST", &path, Some(&body), None).await;
    assert_eq!(st, 401, "{v}");
    let (st, v) = req_as(&s, "POST", &path, Some(&body), Some(&pg.token(other))).await;
    assert_eq!(st, 403, "{v}");
    assert!(v["error"].is_string(), "{v}");
    let (st, v) = check(&s, url, json!({"seat": other, "piece": 0})).await;
    assert_eq!(st, 409, "{v}");
    // Mixed forms and bad pieces.
    for bad in [
        json!({"seat": mover, "piece": 0, "from": 0, "to": 5}),
        json!({"seat": mover, "piece": 0, "to": 5}),
        json!({"seat": mover, "piece": 0, "from": 0}),
        json!({"seat": mover, "piece": 0, "step": step}),
        json!({"seat": mover, "piece": -1}),
        json!({"seat": mover, "piece": 300}),
        json!({"seat": mover, "piece": "0"}),
        json!({"seat": mover, "colour": "purple", "piece": 0}),
    ] {
        let (st, v) = check(&s, url, bad.clone()).await;
        assert_eq!(st, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().len() > 10, "{v}");
    }
    // "piece" on an action that changes the game.
    let (st, v) = req(
        &s,
        "POST",
        &format!("{url}/step"),
        Some(&json!({"seat": mover, "step": step, "piece": 0}).to_string()),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    assert_eq!(
        get(&s, url).await,
        before,
        "refused checks changed the game"
    );
    s.stop().await;
}

/// Over the game's WebSocket the piece form is answered as over HTTP (a
/// `check` message), and needs the seat's token as every action does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_piece_check_over_the_websocket_is_answered_as_over_http() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let s = start(&temp_db("check-piece-ws")).await;
    let pg = person_game(&s, "chaupar", 5).await;
    let (url, mover) = (pg.url.as_str(), pg.mover.as_str());
    post(&s, &format!("{url}/throw"), &json!({"seat": mover})).await;
    let ask = json!({"seat": mover, "piece": 83});
    let (_, http) = check(&s, url, ask.clone()).await;
    let mut sock = ws(&s, &pg.id).await;
    let send = |v: Value| Message::Text(v.to_string());
    // Without the seat's token: refused.
    sock.send(send(json!({"action": "check", "seat": mover, "piece": 83})))
        .await
        .unwrap();
    let e = next_of(&mut sock, "error").await;
    assert_eq!(e["status"], 401, "{e}");
    sock.send(send(json!({"action": "auth", "token": pg.token(mover)})))
        .await
        .unwrap();
    sock.send(send(json!({"action": "check", "seat": mover, "piece": 83})))
        .await
        .unwrap();
    let c = next_of(&mut sock, "check").await;
    assert_eq!(c["allowed"], false, "{c}");
    assert_eq!(c["why"], http["why"], "{c}");
    assert_eq!(c["why_ru"], http["why_ru"], "{c}");
    s.stop().await;
}
