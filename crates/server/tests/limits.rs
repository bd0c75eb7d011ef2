//! The server's limits, tried as an attacker would: every refusal is JSON and
//! changes nothing (`docs/api.md`, "Limits").

mod common;

use std::time::{Duration, Instant};

use chaupar_server::Limits;
use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// An answer: status, head (lower case) and body as JSON.
struct Answer {
    status: u16,
    head: String,
    body: Value,
}

/// Sends raw bytes as one request (the server may answer before reading them
/// all) and reads the answer to the end.
async fn send(s: &Server, bytes: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(s.addr).await.unwrap();
    let _ = stream.write_all(bytes).await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut buf)).await;
    parse(&buf)
}

fn parse(buf: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(buf).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Answer {
        status,
        head: head.to_ascii_lowercase(),
        body: serde_json::from_str(rest).unwrap_or(Value::String(rest.into())),
    }
}

/// A request with this content type and body.
fn request(method: &str, path: &str, content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The same request with the seat's token, as the page sends actions.
fn request_as(method: &str, path: &str, content_type: &str, body: &str, token: &str) -> Vec<u8> {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn assert_json_error(a: &Answer, status: u16) {
    assert_eq!(a.status, status, "{} {}", a.head, a.body);
    assert!(
        a.head.contains("content-type: application/json"),
        "{}",
        a.head
    );
    assert!(
        a.body["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{}",
        a.body
    );
}

async fn total(s: &Server) -> i64 {
    get(s, "/api/games").await["total"].as_i64().unwrap()
}

#[tokio::test]
async fn only_json_bodies_change_anything() {
    let s = start(&temp_db("json-only")).await;
    let new_game = json!({"preset": "chaupar", "delay_ms": 0}).to_string();
    // A cross-site form may POST text/plain (or urlencoded, or multipart): refused
    // before anything happens.
    for ct in [
        "text/plain",
        "text/plain; charset=utf-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin-1",
        "application/jsonp",
    ] {
        let a = send(&s, &request("POST", "/api/games", ct, &new_game)).await;
        assert_json_error(&a, 415);
    }
    let no_type = format!(
        "POST /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{new_game}",
        new_game.len()
    );
    assert_json_error(&send(&s, no_type.as_bytes()).await, 415);
    assert_eq!(total(&s).await, 0, "nothing was created");

    // The same for actions and deletion with a body.
    let g = person_game(&s, "chaupar", 3).await;
    let before = get(&s, &g.url).await;
    let throw = json!({"seat": g.mover}).to_string();
    let a = send(
        &s,
        &request("POST", &format!("{}/throw", g.url), "text/plain", &throw),
    )
    .await;
    assert_json_error(&a, 415);
    let a = send(&s, &request("DELETE", &g.url, "text/plain", "{}")).await;
    assert_json_error(&a, 415);
    assert_eq!(get(&s, &g.url).await, before, "state unchanged");

    // JSON, with or without its charset, is served.
    for ct in [
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON;charset=UTF-8",
    ] {
        let a = send(&s, &request("POST", "/api/games", ct, &new_game)).await;
        assert_eq!(a.status, 200, "{ct}: {}", a.body);
    }
    assert_eq!(total(&s).await, 4);
    s.stop().await;
}

#[tokio::test]
async fn bodies_are_bounded() {
    let mut limits = Limits::relaxed();
    limits.body_bytes = 64 * 1024;
    let s = start_with(&temp_db("body-limit"), limits).await;
    // Announced too big: refused before it is read.
    let head = "POST /api/import HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{\"record\": \"";
    let a = send(&s, head.as_bytes()).await;
    assert_json_error(&a, 413);
    assert!(
        a.body["error"].as_str().unwrap().contains("65536"),
        "{}",
        a.body
    );
    // Sent too big in chunks, without a length.
    let mut chunked = b"POST /api/import HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    let chunk = "x".repeat(16 * 1024);
    for _ in 0..6 {
        chunked.extend(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes());
    }
    chunked.extend(b"0\r\n\r\n");
    assert_json_error(&send(&s, &chunked).await, 413);
    // Just under the bound is read (and refused for what it is).
    let body = json!({"record": "x".repeat(60 * 1024)}).to_string();
    let a = send(
        &s,
        &request("POST", "/api/import", "application/json", &body),
    )
    .await;
    assert_json_error(&a, 422);
    assert_eq!(total(&s).await, 0);
    s.stop().await;
}

#[tokio::test]
async fn the_list_is_paged_in_the_database() {
    let s = start(&temp_db("paging")).await;
    let mut made = Vec::new();
    for _ in 0..120 {
        let g = post(
            &s,
            "/api/games",
            &json!({"preset": "chaupar", "delay_ms": 0}),
        )
        .await;
        made.push(g["id"].as_str().unwrap().to_string());
    }
    // Change an old game: it comes first (most recently changed first; the
    // times are in seconds).
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let first = &made[0];
    let g = get(&s, &format!("/api/games/{first}")).await;
    let mover = g["to_move"].as_str().unwrap();
    post(
        &s,
        &format!("/api/games/{first}/throw"),
        &json!({"seat": mover}),
    )
    .await;

    let p1 = get(&s, "/api/games").await;
    assert_eq!(
        (p1["page"].clone(), p1["per"].clone(), p1["total"].clone()),
        (json!(1), json!(50), json!(120))
    );
    assert_eq!(p1["games"].as_array().unwrap().len(), 50);
    assert_eq!(p1["games"][0]["id"], json!(first));
    let mut seen = Vec::new();
    for page in 1..=3 {
        let p = get(&s, &format!("/api/games?page={page}&per=50")).await;
        let games = p["games"].as_array().unwrap();
        assert_eq!(games.len(), if page < 3 { 50 } else { 20 }, "page {page}");
        seen.extend(games.iter().map(|g| {
            (
                g["updated"].as_i64().unwrap(),
                g["id"].as_str().unwrap().to_string(),
            )
        }));
    }
    assert!(seen.windows(2).all(|w| w[0].0 >= w[1].0), "newest first");
    let mut ids: Vec<String> = seen.into_iter().map(|(_, id)| id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 120, "every game once");
    let past = get(&s, "/api/games?page=4").await;
    assert_eq!(past["games"], json!([]));
    assert_eq!(past["total"], 120);
    let big = get(&s, "/api/games?per=200").await;
    assert_eq!(big["games"].as_array().unwrap().len(), 120);

    // Filters.
    let playing = get(&s, "/api/games?filter=playing&per=1").await;
    assert_eq!(
        (
            playing["total"].clone(),
            playing["games"].as_array().unwrap().len()
        ),
        (json!(120), 1)
    );
    assert_eq!(playing["games"][0]["status"], "playing");
    let finished = get(&s, "/api/games?filter=finished").await;
    assert_eq!(
        (finished["total"].clone(), finished["games"].clone()),
        (json!(0), json!([]))
    );

    // Bounds.
    for q in [
        "per=0",
        "per=201",
        "per=abc",
        "per=-1",
        "page=0",
        "page=-2",
        "page=x",
        "page=1.5",
        "filter=open-ish",
        "filter=",
        "sort=id",
        "page=99999999999999999999",
    ] {
        let (st, v) = req(&s, "GET", &format!("/api/games?{q}"), None).await;
        if q == "filter=" {
            assert_eq!(st, 200, "{q}: {v}");
            continue;
        }
        assert_eq!(st, 400, "{q}: {v}");
        assert!(v["error"].is_string(), "{q}: {v}");
    }
    s.stop().await;
}

#[tokio::test]
async fn new_games_and_actions_are_rate_limited_per_address() {
    let mut limits = Limits::relaxed();
    limits.create_burst = 3;
    limits.create_every_ms = 60_000;
    limits.action_burst = 4;
    limits.action_every_ms = 60_000;
    let s = start_with(&temp_db("rate"), limits).await;
    let body = json!({"preset": "chaupar", "delay_ms": 0}).to_string();
    let mut ids = Vec::new();
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let a = send(
            &s,
            &request("POST", "/api/games", "application/json", &body),
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.body);
        ids.push(a.body["id"].as_str().unwrap().to_string());
        tokens.push(a.body["seat_tokens"].clone());
    }
    for path in ["/api/games", "/api/import"] {
        let b = if path == "/api/games" {
            body.clone()
        } else {
            json!({"record": ""}).to_string()
        };
        let a = send(&s, &request("POST", path, "application/json", &b)).await;
        assert_json_error(&a, 429);
        let retry: u64 = a
            .head
            .lines()
            .find_map(|l| l.strip_prefix("retry-after: "))
            .expect("Retry-After")
            .trim()
            .parse()
            .unwrap();
        assert!((1..=60).contains(&retry), "{retry}");
    }
    assert_eq!(total(&s).await, 3, "nothing more was created");
    // Reading is not limited.
    for _ in 0..10 {
        get(&s, "/api/games").await;
    }

    // Actions: a burst of 4 (refused ones count too), then 429.
    let id = &ids[0];
    let url = format!("/api/games/{id}");
    let g = get(&s, &url).await;
    let mover = g["to_move"].as_str().unwrap();
    let token = tokens[0][mover].as_str().unwrap();
    let check = json!({"seat": mover, "from": 0, "to": 1}).to_string();
    for _ in 0..3 {
        let a = send(
            &s,
            &request_as(
                "POST",
                &format!("{url}/check"),
                "application/json",
                &check,
                token,
            ),
        )
        .await;
        assert_ne!(a.status, 429, "{}", a.body);
    }
    let throw = json!({"seat": mover}).to_string();
    let a = send(
        &s,
        &request_as(
            "POST",
            &format!("{url}/throw"),
            "application/json",
            &throw,
            token,
        ),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
    let after = get(&s, &url).await;
    let a = send(
        &s,
        &request_as(
            "POST",
            &format!("{url}/end"),
            "application/json",
            &throw,
            token,
        ),
    )
    .await;
    assert_json_error(&a, 429);
    assert!(a.head.contains("retry-after: "), "{}", a.head);
    assert_eq!(get(&s, &url).await, after, "state unchanged");

    // The same limit over the WebSocket.
    let ws_url = format!("ws://{}{url}/ws", s.addr);
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    let first = ws.next().await.unwrap().unwrap();
    assert!(first.to_text().unwrap().contains("\"state\""));
    use futures_util::SinkExt;
    ws.send(Message::Text(
        json!({"action": "undo", "seat": mover}).to_string(),
    ))
    .await
    .unwrap();
    let reply: Value = loop {
        match ws.next().await.unwrap().unwrap() {
            // Presence messages come on connecting; the answer is the next other one.
            Message::Text(t) if !t.contains("\"presence\"") => {
                break serde_json::from_str(&t).unwrap()
            }
            _ => continue,
        }
    };
    assert_eq!(
        (reply["type"].clone(), reply["status"].clone()),
        (json!("error"), json!(429)),
        "{reply}"
    );
    assert_eq!(get(&s, &url).await, after, "state unchanged");
    s.stop().await;
}

#[tokio::test]
async fn slow_clients_are_dropped() {
    let mut limits = Limits::relaxed();
    limits.header_timeout = Duration::from_secs(1);
    limits.request_timeout = Duration::from_secs(1);
    let s = start_with(&temp_db("slow"), limits).await;

    // Half a head, then nothing: closed.
    let t0 = Instant::now();
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let r = tokio::time::timeout(Duration::from_secs(8), c.read_to_end(&mut buf)).await;
    assert!(r.is_ok(), "a half-sent request is still held after 8 s");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());

    // A connection that never sends anything: closed too.
    let t0 = Instant::now();
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    let mut buf = Vec::new();
    let r = tokio::time::timeout(Duration::from_secs(8), c.read_to_end(&mut buf)).await;
    assert!(r.is_ok(), "an idle connection is still held after 8 s");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());

    // An idle keep-alive connection after a request: closed.
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let t0 = Instant::now();
    let mut buf = Vec::new();
    let r = tokio::time::timeout(Duration::from_secs(8), c.read_to_end(&mut buf)).await;
    assert!(
        r.is_ok(),
        "an idle keep-alive connection is still held after 8 s"
    );
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    assert_eq!(parse(&buf).status, 200);

    // The whole head, half the body, then nothing: 408 as JSON, nothing made.
    let mut c = TcpStream::connect(s.addr).await.unwrap();
    c.write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"preset\":")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let r = tokio::time::timeout(Duration::from_secs(8), c.read_to_end(&mut buf)).await;
    assert!(r.is_ok(), "a half-sent body is still held after 8 s");
    assert_json_error(&parse(&buf), 408);
    assert_eq!(total(&s).await, 0);
    s.stop().await;
}

#[tokio::test]
async fn connections_per_address_are_capped() {
    let mut limits = Limits::relaxed();
    limits.connections_per_ip = 3;
    let s = start_with(&temp_db("conns"), limits).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        // A keep-alive request, answered: the connection stays open.
        c.write_all(b"GET /api/meta HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap();
        let mut b = [0u8; 12];
        c.read_exact(&mut b).await.unwrap();
        assert_eq!(&b, b"HTTP/1.1 200");
        held.push(c);
    }
    let a = send(
        &s,
        b"GET /api/meta HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_json_error(&a, 429);
    assert!(
        a.body["error"].as_str().unwrap().contains("connections"),
        "{}",
        a.body
    );
    // One closed: room for another (once the server has seen it close; a
    // loaded machine may take a while).
    drop(held.pop());
    assert_eq!(served_within(&s, Duration::from_secs(5)).await, 200);

    // WebSockets count for as long as they are open.
    drop(held);
    assert_eq!(served_within(&s, Duration::from_secs(5)).await, 200);
    let g = person_game(&s, "chaupar", 2).await;
    let url = format!("ws://{}{}/ws", s.addr, g.url);
    let mut sockets = Vec::new();
    for _ in 0..3 {
        // (The connections just closed may still be counted for a moment.)
        let deadline = Instant::now() + Duration::from_secs(5);
        let socket = loop {
            match tokio_tungstenite::connect_async(&url).await {
                Ok((socket, _)) => break socket,
                Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => panic!("a WebSocket within the cap was refused: {e}"),
            }
        };
        sockets.push(socket);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let a = send(
        &s,
        b"GET /api/meta HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_json_error(&a, 429);
    drop(sockets);
    assert_eq!(served_within(&s, Duration::from_secs(5)).await, 200);
    s.stop().await;
}

/// The status of `GET /api/meta`, asked again every 50 ms until it is served
/// or `wait` has passed: connections a client closed count against its cap
/// until the server has seen them close.
async fn served_within(s: &Server, wait: Duration) -> u16 {
    let deadline = Instant::now() + wait;
    loop {
        let (st, _) = req(s, "GET", "/api/meta", None).await;
        if st == 200 || Instant::now() >= deadline {
            return st;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_websocket_that_never_answers_pings_is_closed() {
    let mut limits = Limits::relaxed();
    limits.ws_ping_every = Duration::from_millis(500);
    limits.ws_pong_within = Duration::from_millis(500);
    let s = start_with(&temp_db("ws-pong"), limits).await;
    let g = person_game(&s, "chaupar", 5).await;
    let url = format!("ws://{}{}/ws", s.addr, g.url);

    // A client that reads (and so answers pings) stays.
    let (mut alive, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    // A client that never reads never answers.
    let (mut deaf, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let reader = tokio::spawn(async move {
        let t0 = Instant::now();
        let mut pings = 0;
        while t0.elapsed() < Duration::from_secs(3) {
            match tokio::time::timeout(Duration::from_millis(200), alive.next()).await {
                Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => {
                    panic!("a client that answers pings was closed")
                }
                _ => {}
            }
        }
        assert!(pings >= 3, "{pings} pings");
    });
    tokio::time::sleep(Duration::from_secs(3)).await;
    reader.await.unwrap();
    // Now read what the deaf one was sent: the state, pings, then a close.
    let mut closed = false;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(2), deaf.next()).await {
        match m {
            Ok(Message::Close(_)) | Err(_) => {
                closed = true;
                break;
            }
            Ok(_) => {}
        }
    }
    assert!(closed, "a socket that never answered a ping is still open");
    s.stop().await;
}

#[tokio::test]
async fn engine_work_waits_its_turn_and_stops_when_the_client_goes() {
    let mut limits = Limits::relaxed();
    limits.engine_jobs = 1;
    limits.engine_wait = Duration::from_millis(300);
    // A whole review takes seconds in a release build and a minute or more in
    // a debug one: the request timeout is not what this test is about.
    limits.request_timeout = Duration::from_secs(600);
    let s = start_with(&temp_db("engine"), limits).await;
    let cpu = json!({"kind": "computer", "level": 1});
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "delay_ms": 0, "seats": {"yellow": cpu, "red": cpu, "black": cpu, "green": cpu}}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    wait_over(&s, id, 120).await;
    let review = format!("/api/games/{id}/review?budget=50");
    // How long a whole review takes alone.
    let t0 = Instant::now();
    get(&s, &review).await;
    let alone = t0.elapsed();
    assert!(
        alone > Duration::from_millis(800),
        "the review is too quick to test with: {alone:?}"
    );

    // One review holds the only permit; another is refused 503 as JSON.
    let mut first = TcpStream::connect(s.addr).await.unwrap();
    first
        .write_all(format!("GET {review} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let a = send(
        &s,
        format!("GET /api/games/{id}/replay HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    )
    .await;
    assert_json_error(&a, 503);
    let a = send(
        &s,
        format!(
            "GET /api/games/{id}/review?budget=0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await;
    assert_json_error(&a, 503);

    // The client goes: its review stops, and the permit is free long before the
    // whole review would have ended.
    drop(first);
    let t0 = Instant::now();
    loop {
        let (st, v) = req(&s, "GET", &format!("/api/games/{id}/replay"), None).await;
        if st == 200 {
            break;
        }
        assert_eq!(st, 503, "{v}");
        assert!(
            t0.elapsed() < alone / 2,
            "the review went on after its client left"
        );
    }
    s.stop().await;
}
