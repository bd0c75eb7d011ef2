//! Servers as processes (issue #10): a game of computers carries on when the
//! server that drove it is killed with kill -9 — on PostgreSQL another server
//! takes it over; on SQLite the restarted server does — and nothing it
//! acknowledged is lost.
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A `chaupar serve` process and its address.
struct Serve {
    child: Child,
    addr: String,
}

impl Serve {
    /// Starts `chaupar serve` on a free port with this database.
    fn start(db: &str) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chaupar"))
            .args([
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                db,
                "--delay-ms",
                "0",
            ])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run chaupar serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        while !line.contains("http://") {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "chaupar serve ended");
        }
        // Read the rest (logs), so that the server never waits on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Serve { child, addr }
    }

    /// Kills the process at once (SIGKILL: nothing is flushed or closed).
    fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Sends a request; the status and the JSON answer.
    fn req(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        self.send(method, path, body, None)
    }

    /// Sends a request with a seat's token, if given.
    fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let body = body.map(Value::to_string).unwrap_or_default();
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let status = text[9..12].parse().unwrap();
        let body = text.split_once("\r\n\r\n").map(|p| p.1).unwrap_or("");
        // Chunked answers: the JSON is the longest line.
        let json = body.lines().max_by_key(|l| l.len()).unwrap_or("");
        (status, serde_json::from_str(json).unwrap_or(Value::Null))
    }

    /// A game's version.
    fn version(&self, id: &str) -> u64 {
        let (st, g) = self.req("GET", &format!("/api/games/{id}"), None);
        assert_eq!(st, 200, "{g}");
        g["version"].as_u64().unwrap()
    }
}

/// A new game of computers (two players, level 1), with a short pause between
/// moves; its id.
fn computer_game(s: &Serve) -> String {
    let seats = json!({"yellow": {"kind": "computer", "level": 1}, "black": {"kind": "computer", "level": 1}});
    let (st, g) = s.req(
        "POST",
        "/api/games",
        Some(&json!({"preset": "chausar", "players": 2, "seats": seats, "delay_ms": 30})),
    );
    assert_eq!(st, 200, "{g}");
    g["id"].as_str().unwrap().to_string()
}

/// Waits until the game's version on `s` reaches `at_least`.
fn wait_version(s: &Serve, id: &str, at_least: u64, secs: u64) -> u64 {
    let until = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = s.version(id);
        if v >= at_least {
            return v;
        }
        assert!(
            Instant::now() < until,
            "version {v} after {secs} s, not {at_least}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn another_server_takes_over_the_computers_of_one_killed() {
    let Ok(url) = std::env::var("CHAUPAR_TEST_POSTGRES") else {
        eprintln!("CHAUPAR_TEST_POSTGRES is not set: PostgreSQL not tested");
        return;
    };
    let a = Serve::start(&url);
    let b = Serve::start(&url);
    let id = computer_game(&a);
    // Both servers see the game move (driven by one of them).
    wait_version(&b, &id, 6, 30);
    a.kill9();
    let at_kill = b.version(&id);
    // Within a few seconds (the dead server's lease runs out), the other
    // server drives the game on.
    let on = wait_version(&b, &id, at_kill + 6, 30);
    assert!(on > at_kill);
    b.kill9();
}

#[test]
fn a_restarted_server_carries_on_from_what_it_acknowledged() {
    let dir = std::env::temp_dir().join(format!("chaupar-kill9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("games.db");
    let _ = std::fs::remove_file(&db);
    let db = db.to_string_lossy().into_owned();
    let s = Serve::start(&db);
    let id = computer_game(&s);
    // A person game too: each action acknowledged before the kill is kept.
    let (st, g) = s.req(
        "POST",
        "/api/games",
        Some(&json!({"preset": "chaupar", "seed": 5})),
    );
    assert_eq!(st, 200, "{g}");
    let pid = g["id"].as_str().unwrap().to_string();
    let seat = g["to_move"].as_str().unwrap().to_string();
    let token = g["seat_tokens"][&seat].as_str().unwrap().to_string();
    let throw = json!({"seat": seat, "action_id": "before-the-kill"});
    let path = format!("/api/games/{pid}/throw");
    let (st, thrown) = s.send("POST", &path, Some(&throw), Some(&token));
    assert_eq!(st, 200, "{thrown}");
    let seen = wait_version(&s, &id, 8, 30);
    s.kill9();
    let s = Serve::start(&db);
    assert!(
        s.version(&id) >= seen,
        "computer moves acknowledged were lost"
    );
    assert_eq!(s.version(&pid), 2, "the acknowledged throw was lost");
    // Retried after the restart (its answer never arrived, say): not again.
    let (st, again) = s.send("POST", &path, Some(&throw), Some(&token));
    assert_eq!((st, &again), (200, &thrown));
    assert_eq!(s.version(&pid), 2);
    // And the computers go on.
    wait_version(&s, &id, seen + 4, 30);
    s.kill9();
}
