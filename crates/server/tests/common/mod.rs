//! A tiny HTTP client and server starter for the API tests.
#![allow(dead_code)]

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A server on its own runtime, so that stopping it ends all its tasks (the
/// computer players too), as a real restart does.
pub struct Server {
    pub addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

pub async fn start(db: &str) -> Server {
    start_with(db, chaupar_server::Limits::relaxed()).await
}

/// Starts a server with these limits.
pub async fn start_with(db: &str, limits: chaupar_server::Limits) -> Server {
    start_opts(
        db,
        chaupar_server::Options {
            delay_ms: 0,
            limits,
            ..Default::default()
        },
    )
    .await
}

/// Starts a server with these options.
pub async fn start_opts(db: &str, opts: chaupar_server::Options) -> Server {
    let db = db.to_string();
    let (addr_tx, addr_rx) = tokio::sync::oneshot::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            addr_tx.send(listener.local_addr().unwrap()).unwrap();
            tokio::select! {
                r = chaupar_server::serve(listener, &db, opts) => r.unwrap(),
                _ = stop_rx => {}
            }
        });
        rt.shutdown_timeout(std::time::Duration::from_secs(5));
    });
    let addr = addr_rx.await.unwrap();
    Server {
        addr,
        stop: Some(stop_tx),
        thread: Some(thread),
    }
}

impl Server {
    /// Stops the server and every task it started.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        let t = self.thread.take().unwrap();
        tokio::task::spawn_blocking(move || t.join().unwrap())
            .await
            .unwrap();
    }
}

pub fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("chaupar-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("games.db");
    let _ = std::fs::remove_file(&p);
    p.to_string_lossy().into_owned()
}

/// The secrets the tests were given for each game (by id): the owner's token and
/// each seat's token, as the page keeps them.
#[derive(Clone, Debug, Default)]
pub struct Held {
    pub owner: Option<String>,
    pub seats: std::collections::BTreeMap<String, String>,
}

fn held_map() -> &'static std::sync::Mutex<std::collections::HashMap<String, Held>> {
    static HELD: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, Held>>> =
        std::sync::OnceLock::new();
    HELD.get_or_init(Default::default)
}

/// What the tests hold for game `id`.
pub fn held(id: &str) -> Held {
    held_map()
        .lock()
        .unwrap()
        .get(id)
        .cloned()
        .unwrap_or_default()
}

/// The token of `seat` in game `id` (the tests must hold it).
pub fn token(id: &str, seat: &str) -> String {
    held(id)
        .seats
        .get(seat)
        .cloned()
        .unwrap_or_else(|| panic!("no token for {seat} in {id}"))
}

/// The owner's token of game `id`.
pub fn owner(id: &str) -> String {
    held(id)
        .owner
        .unwrap_or_else(|| panic!("no owner token for {id}"))
}

/// Keeps the secrets of an answer that has some (create, import, join).
fn keep(v: &Value) {
    let Some(id) = v["id"].as_str() else { return };
    let mut map = held_map().lock().unwrap();
    let h = map.entry(id.to_string()).or_default();
    if let Some(o) = v["owner_token"].as_str() {
        h.owner = Some(o.to_string());
    }
    if let Some(t) = v["seat_tokens"].as_object() {
        for (c, t) in t {
            h.seats.insert(c.clone(), t.as_str().unwrap().to_string());
        }
    }
}

/// A game's answer without the secrets only its maker gets (the public state).
pub fn public(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        for k in ["owner_token", "seat_tokens", "invites"] {
            o.remove(k);
        }
    }
    v
}

/// The token a request of the tests acts with, as the page would send it: the
/// seat's for an action, the seat to move's for a hint, the owner's for DELETE.
async fn auto_token(s: &Server, method: &str, path: &str, body: Option<&str>) -> Option<String> {
    let rest = path.strip_prefix("/api/games/")?;
    let (id, action) = match rest.split_once('/') {
        Some((id, a)) => (id, a.split('?').next().unwrap_or(a)),
        None => (rest, ""),
    };
    let h = held(id);
    match (method, action) {
        ("DELETE", "") => h.owner,
        ("POST", "throw" | "step" | "undo" | "end" | "check") => {
            let v: Value = serde_json::from_str(body?).ok()?;
            h.seats.get(v["seat"].as_str()?).cloned()
        }
        ("GET", "hint") => {
            let (_, g) = raw_as(s, "GET", &format!("/api/games/{id}"), None, None).await;
            let g: Value = serde_json::from_str(&g).ok()?;
            h.seats.get(g["to_move"].as_str()?).cloned()
        }
        _ => None,
    }
}

/// Sends a request with the token the page would send ([`auto_token`]); returns
/// the status and the body (JSON if it is JSON).
pub async fn req(s: &Server, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let (status, text) = raw(s, method, path, body).await;
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, v)
}

/// Sends a request with exactly this token (or none).
pub async fn req_as(
    s: &Server,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (u16, Value) {
    let (status, text) = raw_as(s, method, path, body, token).await;
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, v)
}

/// [`req`]'s text.
pub async fn raw(s: &Server, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let token = auto_token(s, method, path, body).await;
    raw_as(s, method, path, body, token.as_deref()).await
}

/// [`req_as`]'s text; keeps the secrets answered.
pub async fn raw_as(
    s: &Server,
    method: &str,
    path: &str,
    body: Option<&str>,
    token: Option<&str>,
) -> (u16, String) {
    let mut stream = TcpStream::connect(s.addr).await.unwrap();
    let body = body.unwrap_or("");
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\n\r\n",
        s.addr,
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    if status == 200 && method == "POST" {
        if let Ok(v) = serde_json::from_str::<Value>(&body) {
            keep(&v);
        }
    }
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((len, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(len.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
    out
}

pub async fn get(s: &Server, path: &str) -> Value {
    let (st, v) = req(s, "GET", path, None).await;
    assert_eq!(st, 200, "GET {path}: {v}");
    v
}

pub async fn post(s: &Server, path: &str, body: &Value) -> Value {
    let (st, v) = req(s, "POST", path, Some(&body.to_string())).await;
    assert_eq!(st, 200, "POST {path} {body}: {v}");
    v
}

/// Waits until the game is over (computer seats) and returns its state.
pub async fn wait_over(s: &Server, id: &str, secs: u64) -> Value {
    let t0 = std::time::Instant::now();
    loop {
        let g = get(s, &format!("/api/games/{id}")).await;
        if g["outcome"] != "playing" {
            return g;
        }
        assert!(
            t0.elapsed().as_secs() < secs,
            "game {id} not over after {secs} s: {g}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Plays person turns by taking the first legal step each time; waits for computers.
pub async fn play_person(s: &Server, id: &str, max_actions: usize) -> Value {
    for _ in 0..max_actions {
        let g = get(s, &format!("/api/games/{id}")).await;
        if g["outcome"] != "playing" {
            return g;
        }
        if g["to_move_kind"] == "computer" {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            continue;
        }
        let seat = g["to_move"].as_str().unwrap().to_string();
        let url = format!("/api/games/{id}");
        if g["turn"].is_null() {
            post(
                s,
                &format!("{url}/throw"),
                &serde_json::json!({"seat": seat}),
            )
            .await;
        } else if let Some(step) = g["turn"]["legal"].as_array().and_then(|l| l.first()) {
            post(
                s,
                &format!("{url}/step"),
                &serde_json::json!({"seat": seat, "step": step}),
            )
            .await;
        } else {
            assert_eq!(g["turn"]["can_end"], true, "{g}");
            post(s, &format!("{url}/end"), &serde_json::json!({"seat": seat})).await;
        }
    }
    panic!("game {id} not over after {max_actions} actions");
}

/// A new game of persons only, as the tests of wrong requests use it.
pub struct PersonGame {
    /// The game's id.
    pub id: String,
    /// `/api/games/{id}`.
    pub url: String,
    /// Who throws first.
    pub mover: String,
    /// Another colour, not to move.
    pub other: &'static str,
}

impl PersonGame {
    /// The token of `seat`.
    pub fn token(&self, seat: &str) -> String {
        token(&self.id, seat)
    }
}

/// Starts a 4-player game of persons in `preset` with `seed`.
pub async fn person_game(s: &Server, preset: &str, seed: u64) -> PersonGame {
    let g = post(
        s,
        "/api/games",
        &serde_json::json!({"preset": preset, "seed": seed, "delay_ms": 0}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mover = g["to_move"].as_str().unwrap().to_string();
    let other = ["yellow", "red", "black", "green"]
        .into_iter()
        .find(|c| *c != mover)
        .unwrap();
    PersonGame {
        url: format!("/api/games/{id}"),
        id,
        mover,
        other,
    }
}

/// A WebSocket to the server.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A socket on game `id` that holds no seat (a spectator, until it sends `auth`).
pub async fn ws(s: &Server, id: &str) -> Ws {
    let url = format!("ws://{}/api/games/{id}/ws", s.addr);
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next message of this type (others are skipped).
pub async fn next_of(ws: &mut Ws, ty: &str) -> Value {
    use futures_util::StreamExt;
    loop {
        let m = tokio::time::timeout(std::time::Duration::from_secs(20), ws.next())
            .await
            .expect("no message within 20 s")
            .expect("socket closed")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == ty {
                return v;
            }
        }
    }
}
