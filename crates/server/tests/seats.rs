//! Seats held by tokens, tried as an attacker would: no token, another seat's
//! token, a spectator, a non-owner deleting or changing seats; joining by invite
//! or from the list of open games; names; presence over the WebSocket; and no
//! secret in anything public.
mod common;

use std::time::Duration;

use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

async fn say(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string())).await.unwrap();
}

/// Every secret of a game's creation answer.
fn secrets(g: &Value) -> Vec<String> {
    let mut out = vec![g["owner_token"].as_str().unwrap().to_string()];
    for k in ["seat_tokens", "invites"] {
        if let Some(o) = g[k].as_object() {
            out.extend(o.values().map(|t| t.as_str().unwrap().to_string()));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_need_the_token_of_their_seat() {
    let s = start(&temp_db("seats-auth")).await;
    let pg = person_game(&s, "chaupar", 3).await;
    let (url, mover, other) = (&pg.url, pg.mover.as_str(), pg.other);
    let before = get(&s, url).await;
    let throw = json!({"seat": mover}).to_string();
    let wrong = pg.token(other);
    // No token, a token of another seat, a made-up token, another scheme.
    for (token, status) in [
        (None, 401),
        (Some(wrong.as_str()), 403),
        (Some("0123abcd"), 403),
        (Some(&pg.owner_token()[..]), 403),
    ] {
        for action in ["throw", "step", "undo", "end", "check"] {
            let (st, v) = req_as(&s, "POST", &format!("{url}/{action}"), Some(&throw), token).await;
            assert_eq!(st, status, "{action} with {token:?}: {v}");
            assert!(v["error"].is_string(), "{v}");
        }
        let (st, v) = req_as(&s, "GET", &format!("{url}/hint"), None, token).await;
        assert_eq!(st, status, "hint with {token:?}: {v}");
    }
    let (st, v) = raw_header(&s, &format!("{url}/throw"), &throw, "Basic eWVsbG93OnB3").await;
    assert_eq!(st, 401, "{v}");
    assert_eq!(
        get(&s, url).await,
        before,
        "a refused action changed the game"
    );
    // The right token: the throw is made.
    let t = pg.token(mover);
    let (st, v) = req_as(&s, "POST", &format!("{url}/throw"), Some(&throw), Some(&t)).await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = req_as(&s, "GET", &format!("{url}/hint"), None, Some(&t)).await;
    assert_eq!(st, 200, "{v}");
    s.stop().await;
}

impl PersonGameExt for PersonGame {
    fn owner_token(&self) -> String {
        owner(&self.id)
    }
}

trait PersonGameExt {
    fn owner_token(&self) -> String;
}

/// A POST with this exact Authorization header.
async fn raw_header(s: &Server, path: &str, body: &str, auth: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nAuthorization: {auth}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text.split(' ').nth(1).unwrap().parse().unwrap();
    (status, text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_watches_but_cannot_act_over_the_socket() {
    let s = start(&temp_db("seats-ws")).await;
    let pg = person_game(&s, "chaupar", 4).await;
    let (id, mover, other) = (&pg.id, pg.mover.as_str(), pg.other);
    let before = get(&s, &pg.url).await;
    let mut spectator = ws(&s, id).await;
    let first = next_of(&mut spectator, "state").await;
    assert_eq!(first["game"], before);
    // No token: 401; another seat's token in the message: 403; a bad auth: 403.
    say(&mut spectator, json!({"action": "throw", "seat": mover})).await;
    assert_eq!(next_of(&mut spectator, "error").await["status"], 401);
    say(
        &mut spectator,
        json!({"action": "throw", "seat": mover, "token": pg.token(other)}),
    )
    .await;
    assert_eq!(next_of(&mut spectator, "error").await["status"], 403);
    say(&mut spectator, json!({"action": "auth", "token": "nope"})).await;
    assert_eq!(next_of(&mut spectator, "error").await["status"], 403);
    say(&mut spectator, json!({"action": "auth"})).await;
    assert_eq!(next_of(&mut spectator, "error").await["status"], 401);
    // Authenticated as another seat: still 403 for the mover's seat.
    say(
        &mut spectator,
        json!({"action": "auth", "token": pg.token(other)}),
    )
    .await;
    assert_eq!(next_of(&mut spectator, "auth").await["seat"], other);
    say(&mut spectator, json!({"action": "throw", "seat": mover})).await;
    assert_eq!(next_of(&mut spectator, "error").await["status"], 401);
    assert_eq!(
        get(&s, &pg.url).await,
        before,
        "a refused action changed the game"
    );

    // The mover's socket: auth, then presence shows both seats, then its throw
    // is pushed to the spectator too.
    let mut player = ws(&s, id).await;
    next_of(&mut player, "state").await;
    say(
        &mut player,
        json!({"action": "auth", "token": pg.token(mover)}),
    )
    .await;
    assert_eq!(next_of(&mut player, "auth").await["seat"], mover);
    loop {
        let p = next_of(&mut spectator, "presence").await;
        let c = p["connected"].as_array().unwrap().clone();
        if c.len() == 2 {
            assert!(
                c.contains(&json!(mover)) && c.contains(&json!(other)),
                "{p}"
            );
            break;
        }
    }
    say(&mut player, json!({"action": "throw", "seat": mover})).await;
    let g = next_of(&mut spectator, "state").await;
    assert!(g["game"]["turn"].is_object(), "{g}");
    let text = g.to_string();
    for secret in [pg.token(mover), pg.token(other), owner(id)] {
        assert!(!text.contains(&secret), "a token in the broadcast");
    }
    // The player goes: presence drops its seat.
    drop(player);
    loop {
        let p = next_of(&mut spectator, "presence").await;
        if p["connected"] == json!([other]) {
            break;
        }
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_owner_deletes_and_changes_seats() {
    let s = start(&temp_db("seats-owner")).await;
    let pg = person_game(&s, "chaupar", 5).await;
    let (url, mover) = (&pg.url, pg.mover.as_str());
    let seat_token = pg.token(mover);
    let change = json!({"seat": mover, "to": {"kind": "computer", "level": 1}}).to_string();
    for (token, status) in [
        (None, 401),
        (Some(seat_token.as_str()), 403),
        (Some("x"), 403),
    ] {
        let (st, v) = req_as(&s, "DELETE", url, None, token).await;
        assert_eq!(st, status, "delete with {token:?}: {v}");
        let (st, v) = req_as(&s, "POST", &format!("{url}/seats"), Some(&change), token).await;
        assert_eq!(st, status, "seats with {token:?}: {v}");
    }
    get(&s, url).await;
    // Bad changes by the owner: 4xx, nothing changes.
    let o = owner(&pg.id);
    let before = get(&s, url).await;
    for body in [
        json!({"seat": "purple", "to": {"kind": "person"}}),
        json!({"seat": mover, "to": {"kind": "computer", "level": 9}}),
        json!({"seat": mover, "to": {"kind": "robot"}}),
        json!({"seat": mover}),
    ] {
        let (st, v) = req_as(
            &s,
            "POST",
            &format!("{url}/seats"),
            Some(&body.to_string()),
            Some(&o),
        )
        .await;
        assert!((400..500).contains(&st), "{body}: {st} {v}");
    }
    assert_eq!(get(&s, url).await, before);
    // The owner hands the mover's seat to the computer: it plays, and the
    // seat's old token no longer acts.
    let (st, v) = req_as(&s, "POST", &format!("{url}/seats"), Some(&change), Some(&o)).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["seats"][mover], json!({"kind": "computer", "level": 1}));
    let (st, v) = req_as(
        &s,
        "POST",
        &format!("{url}/throw"),
        Some(&json!({"seat": mover}).to_string()),
        Some(&seat_token),
    )
    .await;
    assert!(st == 403 || st == 409, "{st} {v}");
    let t0 = std::time::Instant::now();
    while get(&s, url).await["moves"].as_array().unwrap().is_empty() {
        assert!(
            t0.elapsed().as_secs() < 20,
            "the computer did not play the seat"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Handing it back to a person frees it with a new invite.
    let back = json!({"seat": mover, "to": {"kind": "person"}}).to_string();
    let (st, v) = req_as(&s, "POST", &format!("{url}/seats"), Some(&back), Some(&o)).await;
    assert_eq!(st, 200, "{v}");
    assert!(v["invites"][mover].is_string(), "{v}");
    assert!(v["free"].as_array().unwrap().contains(&json!(mover)), "{v}");
    // The owner deletes.
    let (st, v) = req_as(&s, "DELETE", url, None, Some(&o)).await;
    assert_eq!(st, 200, "{v}");
    let (st, _) = req(&s, "GET", url, None).await;
    assert_eq!(st, 404);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_are_taken_by_invite_or_from_the_open_list() {
    let s = start(&temp_db("seats-join")).await;
    let cpu = json!({"kind": "computer", "level": 1});
    // A private game: yellow held by its maker (named), black left free (the
    // computers wait a minute, so that nothing but a join could change it).
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "delay_ms": 60000,
        "seats": {"red": cpu, "green": cpu}, "free": ["black"], "names": {"yellow": "Asha"}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let url = format!("/api/games/{id}");
    assert_eq!(g["names"], json!({"yellow": "Asha"}));
    assert_eq!(g["free"], json!(["black"]));
    assert_eq!(g["seat_tokens"].as_object().unwrap().len(), 1, "{g}");
    let invite = g["invites"]["black"].as_str().unwrap().to_string();
    let join = format!("{url}/join");
    let body = |v: Value| Some(v.to_string());
    let before = get(&s, &url).await;
    for (b, status) in [
        (json!({"seat": "black", "name": "Ravi"}), 403),
        (
            json!({"seat": "black", "name": "Ravi", "invite": "00"}),
            403,
        ),
        (
            json!({"seat": "black", "name": "Ravi", "invite": g["seat_tokens"]["yellow"]}),
            403,
        ),
        (
            json!({"seat": "black", "name": "  ", "invite": invite}),
            400,
        ),
        (
            json!({"seat": "black", "name": "x".repeat(25), "invite": invite}),
            400,
        ),
        (
            json!({"seat": "black", "name": "a\u{7}b", "invite": invite}),
            400,
        ),
        (
            json!({"seat": "black", "name": "Ravi", "invite": invite, "client_seed": "no spaces"}),
            400,
        ),
        (
            json!({"seat": "black", "name": "Ravi", "invite": invite, "extra": 1}),
            400,
        ),
        (
            json!({"seat": "purple", "name": "Ravi", "invite": invite}),
            400,
        ),
        (
            json!({"seat": "yellow", "name": "Ravi", "invite": invite}),
            409,
        ),
        (
            json!({"seat": "red", "name": "Ravi", "invite": invite}),
            409,
        ),
    ] {
        let (st, v) = req_as(&s, "POST", &join, body(b.clone()).as_deref(), None).await;
        assert_eq!(st, status, "{b}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    assert_eq!(
        get(&s, &url).await,
        before,
        "a refused join changed the game"
    );
    // A private game is not listed as open.
    let open = get(&s, "/api/games?filter=open").await;
    assert!(open["games"].as_array().unwrap().is_empty(), "{open}");
    let (st, _) = req(&s, "GET", "/api/games?filter=nonsense", None).await;
    assert_eq!(st, 400);
    // With the invite (24 characters, trimmed; markup kept as text).
    let name = "<b>Ravi</b> ЁЁЁЁЁЁЁЁЁЁЁЁ";
    let (st, v) = req_as(&s, "POST", &join, body(json!({"seat": "black", "name": format!(" {name} "), "invite": invite, "client_seed": "abc-123"})).as_deref(), None).await;
    assert_eq!(st, 200, "{v}");
    let black = v["seat_tokens"]["black"].as_str().unwrap().to_string();
    assert!(v["owner_token"].is_null() && v["invites"].is_null(), "{v}");
    assert_eq!(v["names"]["black"], name);
    assert_eq!(v["free"], json!([]));
    // Taken: the second comer gets 409, even with the invite.
    let (st, v) = req_as(
        &s,
        "POST",
        &join,
        body(json!({"seat": "black", "name": "Eve", "invite": invite})).as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 409, "{v}");
    // The joiner's token acts for black and only for black.
    let (st, _) = req_as(
        &s,
        "POST",
        &format!("{url}/throw"),
        body(json!({"seat": "yellow"})).as_deref(),
        Some(&black),
    )
    .await;
    assert_eq!(st, 403);

    // An open game is listed, and its free seat is taken without an invite.
    let o = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "delay_ms": 0, "open": true,
        "seats": {"red": cpu, "green": cpu}, "free": ["black"]}),
    )
    .await;
    let oid = o["id"].as_str().unwrap();
    let open = get(&s, "/api/games?filter=open").await;
    let ids: Vec<&str> = open["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![oid]);
    let (st, v) = req_as(
        &s,
        "POST",
        &format!("/api/games/{oid}/join"),
        body(json!({"seat": "black", "name": "Mina"})).as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let open = get(&s, "/api/games?filter=open").await;
    assert!(
        open["games"].as_array().unwrap().is_empty(),
        "a full game is not open: {open}"
    );

    // No secret is in anything public.
    let (_, record) = raw(&s, "GET", &format!("{url}/record"), None).await;
    let public_text = [
        get(&s, &url).await.to_string(),
        get(&s, "/api/games").await.to_string(),
        record,
    ]
    .join("\n");
    for secret in secrets(&g).into_iter().chain([black]) {
        assert!(!public_text.contains(&secret), "a secret is public");
    }
    // Bad creations: a free seat that is the computer's, a bad name.
    for b in [
        json!({"preset": "chaupar", "seats": {"red": cpu}, "free": ["red"]}),
        json!({"preset": "chaupar", "names": {"yellow": ""}}),
        json!({"preset": "chaupar", "free": ["yellow"], "names": {"yellow": "A"}}),
    ] {
        let (st, v) = req(&s, "POST", "/api/games", Some(&b.to_string())).await;
        assert!((400..500).contains(&st), "{b}: {st} {v}");
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_a_turn_whose_time_ran_out() {
    let s = start(&temp_db("seats-timer")).await;
    let cpu = json!({"kind": "computer", "level": 1});
    for bad in [
        json!({"preset": "chaupar", "turn_seconds": 3}),
        json!({"preset": "chaupar", "turn_seconds": 100_000}),
        json!({"preset": "chaupar", "turn_seconds": 10, "auto_level": 9}),
    ] {
        let (st, v) = req(&s, "POST", "/api/games", Some(&bad.to_string())).await;
        assert_eq!(st, 422, "{bad}: {v}");
    }
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "delay_ms": 0, "turn_seconds": 10,
        "auto_level": 1, "seats": {"red": cpu, "black": cpu, "green": cpu}}),
    )
    .await;
    let url = format!("/api/games/{}", g["id"].as_str().unwrap());
    assert_eq!(g["turn_seconds"], 10);
    // Wait for Yellow's turn, then let the time run out (with the dice thrown).
    let t0 = std::time::Instant::now();
    let mut g = get(&s, &url).await;
    while g["to_move"] != "yellow" {
        assert!(t0.elapsed().as_secs() < 20, "Yellow never came to move");
        tokio::time::sleep(Duration::from_millis(50)).await;
        g = get(&s, &url).await;
    }
    assert!(g["deadline"].as_i64().is_some(), "{g}");
    if g["turn"].is_null() {
        post(&s, &format!("{url}/throw"), &json!({"seat": "yellow"})).await;
    }
    let n = g["moves"].as_array().unwrap().len() + 1;
    let t0 = std::time::Instant::now();
    loop {
        let now = get(&s, &url).await;
        if now["timed_out"].as_array().unwrap().contains(&json!(n)) {
            assert_eq!(now["moves"][n - 1]["colour"], "yellow", "{now}");
            break;
        }
        assert!(
            t0.elapsed().as_secs() < 30,
            "the turn was not played for Yellow: {now}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_chat_spectators_only_if_allowed_and_not_too_fast() {
    let db = temp_db("seats-chat");
    let s = start(&db).await;
    let pg = person_game(&s, "chaupar", 6).await;
    let chat = format!("{}/chat", pg.url);
    let yellow = pg.token("yellow");
    let say = |v: Value| Some(v.to_string());
    // A spectator may neither read nor write; bad messages are 400.
    let (st, _) = req_as(&s, "GET", &chat, None, None).await;
    assert_eq!(st, 401);
    let (st, _) = req_as(
        &s,
        "POST",
        &chat,
        say(json!({"name": "Eve", "text": "hi"})).as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 403);
    let (st, _) = req_as(
        &s,
        "POST",
        &chat,
        say(json!({"seat": "yellow", "text": "hi"})).as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 401);
    let (st, _) = req_as(
        &s,
        "POST",
        &chat,
        say(json!({"seat": "red", "text": "hi"})).as_deref(),
        Some(&yellow),
    )
    .await;
    assert_eq!(st, 403);
    for bad in [
        json!({"seat": "yellow", "text": " "}),
        json!({"seat": "yellow", "text": "x".repeat(281)}),
        json!({"seat": "yellow", "text": "a\u{0}b"}),
        json!({"seat": "yellow"}),
    ] {
        let (st, v) = req_as(
            &s,
            "POST",
            &chat,
            say(bad.clone()).as_deref(),
            Some(&yellow),
        )
        .await;
        assert_eq!(st, 400, "{bad}: {v}");
    }
    // A player's socket gets the line; a spectator's does not.
    let mut player = ws(&s, &pg.id).await;
    say_ws(
        &mut player,
        json!({"action": "auth", "token": pg.token("red")}),
    )
    .await;
    next_of(&mut player, "auth").await;
    let mut spectator = ws(&s, &pg.id).await;
    next_of(&mut spectator, "state").await;
    let (st, v) = req_as(
        &s,
        "POST",
        &chat,
        say(json!({"seat": "yellow", "text": "<b>hello</b>"})).as_deref(),
        Some(&yellow),
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let m = next_of(&mut player, "chat").await;
    assert_eq!(m["line"]["text"], "<b>hello</b>");
    assert_eq!(m["line"]["seat"], "yellow");
    // Too fast: 429 with Retry-After, as JSON.
    let (st, text) = raw_header(
        &s,
        &chat,
        &json!({"seat": "yellow", "text": "again"}).to_string(),
        &format!("Bearer {yellow}"),
    )
    .await;
    assert_eq!(st, 429, "{text}");
    assert!(
        text.to_ascii_lowercase().contains("retry-after: 1"),
        "{text}"
    );
    assert!(text.contains("{\"error\""), "{text}");
    // The spectator was not sent the line (the next thing it gets is this state).
    req(
        &s,
        "POST",
        &format!("{}/throw", pg.url),
        say(json!({"seat": pg.mover})).as_deref(),
    )
    .await;
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), spectator.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let Message::Text(m) = m else { continue };
        let m: Value = serde_json::from_str(&m).unwrap();
        assert_ne!(
            m["type"], "chat",
            "a spectator was sent the players' chat: {m}"
        );
        if m["type"] == "state" {
            break;
        }
    }
    let (st, v) = req_as(&s, "GET", &chat, None, Some(&yellow)).await;
    assert_eq!(st, 200);
    assert_eq!(v["lines"].as_array().unwrap().len(), 1, "{v}");
    s.stop().await;
    // Stored with the game.
    let s = start(&db).await;
    let (_, v) = req_as(&s, "GET", &chat, None, Some(&yellow)).await;
    assert_eq!(v["lines"][0]["text"], "<b>hello</b>");
    // The owner may let spectators chat.
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "spectator_chat": true}),
    )
    .await;
    let chat2 = format!("/api/games/{}/chat", g["id"].as_str().unwrap());
    let (st, v) = req_as(
        &s,
        "POST",
        &chat2,
        say(json!({"name": "Eve", "text": "hi"})).as_deref(),
        None,
    )
    .await;
    assert_eq!(st, 200, "{v}");
    let (st, v) = req_as(&s, "GET", &chat2, None, None).await;
    assert_eq!((st, v["lines"][0]["name"].clone()), (200, json!("Eve")));
    s.stop().await;
}

async fn say_ws(ws: &mut Ws, v: Value) {
    say(ws, v).await;
}
