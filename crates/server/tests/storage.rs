//! Storage that appends (issue #10): the stored version grows by one with every
//! change and never goes back, restarts included; every change is one appended
//! row; a retried `action_id` is answered as the first time and not applied
//! twice, over HTTP and WebSocket, before and after a restart; and nobody but
//! the seat's holder learns a stored answer.
mod common;

use std::time::Duration;

use common::*;
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// One person action with an `action_id`; the status and the answer.
async fn act(s: &Server, pg: &PersonGame, action: &str, body: Value) -> (u16, Value) {
    req(
        s,
        "POST",
        &format!("{}/{action}", pg.url),
        Some(&body.to_string()),
    )
    .await
}

/// The game's stored version, as its view says.
async fn version(s: &Server, pg: &PersonGame) -> u64 {
    get(s, &pg.url).await["version"].as_u64().unwrap()
}

/// Opens the game's socket holding the mover's seat.
async fn socket(s: &Server, pg: &PersonGame) -> Ws {
    let mut ws = ws(s, &pg.id).await;
    let auth = json!({"action": "auth", "token": pg.token(&pg.mover)});
    ws.send(Message::Text(auth.to_string())).await.unwrap();
    ws
}

/// The number of rows of `table` for game `id` (`game` column), read from the
/// SQLite file beside the server.
async fn rows(db: &str, table: &str, id: &str) -> i64 {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&format!("sqlite://{db}"))
        .await
        .unwrap();
    let n: i64 = sqlx::Row::get(
        &sqlx::query(&format!(
            "SELECT COUNT(*) AS n FROM {table} WHERE game = $1"
        ))
        .bind(id.to_string())
        .fetch_one(&pool)
        .await
        .unwrap(),
        "n",
    );
    pool.close().await;
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_version_is_stored_and_survives_restarts() {
    let db = temp_db("storage-version");
    let s = start(&db).await;
    let pg = person_game(&s, "chaupar", 21).await;
    assert_eq!(version(&s, &pg).await, 1, "a new game is at version 1");
    let (st, g) = act(&s, &pg, "throw", json!({"seat": pg.mover})).await;
    assert_eq!((st, g["version"].as_u64()), (200, Some(2)), "{g}");
    let step = g["turn"]["legal"][0].clone();
    let (st, g) = act(&s, &pg, "step", json!({"seat": pg.mover, "step": step})).await;
    assert_eq!((st, g["version"].as_u64()), (200, Some(3)), "{g}");
    // A refused action changes nothing, the version neither.
    let (st, _) = act(&s, &pg, "throw", json!({"seat": pg.mover})).await;
    assert_eq!(st, 409);
    assert_eq!(version(&s, &pg).await, 3);
    // Every change is one appended row: the game's own row is not rewritten.
    assert_eq!(rows(&db, "actions", &pg.id).await, 2);
    s.stop().await;

    let s = start(&db).await;
    let g = get(&s, &pg.url).await;
    assert_eq!(
        g["version"], 3,
        "the version went back after a restart: {g}"
    );
    assert_eq!(g["turn"]["steps"].as_array().map(Vec::len), Some(1), "{g}");
    let (st, g) = act(&s, &pg, "undo", json!({"seat": pg.mover})).await;
    assert_eq!((st, g["version"].as_u64()), (200, Some(4)), "{g}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_action_is_applied_once() {
    let db = temp_db("storage-retry");
    let s = start(&db).await;
    let pg = person_game(&s, "classic", 22).await;
    let throw = json!({"seat": pg.mover, "action_id": "throw-1"});
    let (st, first) = act(&s, &pg, "throw", throw.clone()).await;
    assert_eq!(st, 200, "{first}");
    // The retry is answered as the first time (the dice are not thrown again).
    let (st, again) = act(&s, &pg, "throw", throw.clone()).await;
    assert_eq!(st, 200, "{again}");
    assert_eq!(again, first, "a retried throw is answered as the first one");
    assert_eq!(version(&s, &pg).await, 2);

    // A step, retried after the turn moved on: still the first answer.
    let step = first["turn"]["legal"][0].clone();
    let body = json!({"seat": pg.mover, "step": step, "action_id": "step-1"});
    let (st, stepped) = act(&s, &pg, "step", body.clone()).await;
    assert_eq!(st, 200, "{stepped}");
    let (st, _) = act(&s, &pg, "undo", json!({"seat": pg.mover})).await;
    assert_eq!(st, 200);
    let (st, again) = act(&s, &pg, "step", body.clone()).await;
    assert_eq!((st, &again), (200, &stepped), "the step was taken twice");
    assert_eq!(
        version(&s, &pg).await,
        4,
        "only throw, step and undo are stored"
    );

    // The same id for another action is refused, and changes nothing.
    let (st, v) = act(
        &s,
        &pg,
        "undo",
        json!({"seat": pg.mover, "action_id": "step-1"}),
    )
    .await;
    assert_eq!(st, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("action_id"), "{v}");
    // Malformed ids are refused before anything is looked at.
    for bad in [
        json!(""),
        json!("a b"),
        json!("x".repeat(65)),
        json!(7),
        json!("é"),
    ] {
        let (st, v) = act(&s, &pg, "undo", json!({"seat": pg.mover, "action_id": bad})).await;
        assert_eq!(st, 400, "{bad}: {v}");
    }
    assert_eq!(version(&s, &pg).await, 4);

    // Another seat's holder (or nobody) may not learn the stored answer.
    let (st, _) = req_as(
        &s,
        "POST",
        &format!("{}/throw", pg.url),
        Some(&throw.to_string()),
        Some(&pg.token(pg.other)),
    )
    .await;
    assert_eq!(st, 403);
    let (st, _) = req_as(
        &s,
        "POST",
        &format!("{}/throw", pg.url),
        Some(&throw.to_string()),
        None,
    )
    .await;
    assert_eq!(st, 401);

    // After a restart, the retry is still answered from storage.
    s.stop().await;
    let s = start(&db).await;
    let (st, again) = act(&s, &pg, "throw", throw).await;
    assert_eq!((st, &again), (200, &first), "after a restart");
    assert_eq!(version(&s, &pg).await, 4);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_action_over_the_socket_is_applied_once() {
    let s = start(&temp_db("storage-ws-retry")).await;
    let pg = person_game(&s, "chaupar", 23).await;
    let mut ws = socket(&s, &pg).await;
    let first = next_of(&mut ws, "state").await;
    assert_eq!(first["game"]["version"], 1);
    let throw = json!({"action": "throw", "seat": pg.mover, "action_id": "ws-throw"});
    ws.send(Message::Text(throw.to_string())).await.unwrap();
    let pushed = next_of(&mut ws, "state").await;
    assert_eq!(pushed["game"]["version"], 2, "{pushed}");
    // The retry: answered to this socket with the state the throw made.
    ws.send(Message::Text(throw.to_string())).await.unwrap();
    let again = next_of(&mut ws, "state").await;
    assert_eq!(again["game"]["version"], 2, "{again}");
    assert_eq!(again["game"]["turn"], pushed["game"]["turn"]);
    assert_eq!(
        version(&s, &pg).await,
        2,
        "the retried throw was applied twice"
    );
    // Over HTTP too: the same id is the same action.
    let (st, v) = act(
        &s,
        &pg,
        "throw",
        json!({"seat": pg.mover, "action_id": "ws-throw"}),
    )
    .await;
    assert_eq!((st, v["version"].as_u64()), (200, Some(2)), "{v}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_games_started_anew_after_a_restart_keep_their_versions() {
    let db = temp_db("storage-computers");
    let s = start(&db).await;
    let seats = json!({"yellow": {"kind": "computer", "level": 1}, "black": {"kind": "computer", "level": 1}});
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 2, "seats": seats, "delay_ms": 20}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let url = format!("/api/games/{id}");
    let mut seen = 0;
    while seen < 6 {
        seen = get(&s, &url).await["version"].as_u64().unwrap();
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    s.stop().await;
    let stopped = {
        let s = start(&db).await;
        let v = get(&s, &url).await["version"].as_u64().unwrap();
        s.stop().await;
        v
    };
    assert!(
        stopped >= seen,
        "version {stopped} after a restart, {seen} before"
    );
    assert_eq!(rows(&db, "actions", &id).await as u64, stopped - 1);
    // The computers go on from there (their lease is this server's own).
    let s = start(&db).await;
    let end = wait_over(&s, &id, 120).await;
    assert!(
        end["version"].as_u64().unwrap() > stopped,
        "{}",
        end["version"]
    );
    s.stop().await;
}

/// `chaupar_games_in_memory` from `/metrics`.
async fn in_memory(s: &Server) -> u64 {
    let (_, text) = raw(s, "GET", "/metrics", None).await;
    let line = text
        .lines()
        .find(|l| l.starts_with("chaupar_games_in_memory "))
        .expect("no chaupar_games_in_memory in /metrics");
    line.split(' ').nth(1).unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_games_in_memory_are_bounded_and_load_again() {
    let opts = chaupar_server::Options {
        delay_ms: 0,
        limits: chaupar_server::Limits::relaxed(),
        games_in_memory: 2,
        ..Default::default()
    };
    let s = start_opts(&temp_db("storage-cache"), opts).await;
    let mut games = Vec::new();
    for seed in 0..5 {
        let pg = person_game(&s, "chaupar", 40 + seed).await;
        let (st, _) = act(&s, &pg, "throw", json!({"seat": pg.mover})).await;
        assert_eq!(st, 200);
        games.push(pg);
    }
    // A socket keeps its game in memory whatever the bound.
    let mut ws = socket(&s, &games[0]).await;
    next_of(&mut ws, "state").await;
    let until = std::time::Instant::now() + Duration::from_secs(10);
    while in_memory(&s).await > 2 {
        assert!(
            std::time::Instant::now() < until,
            "the cache keeps more than 2 games"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Dropped games load again, as they were; the watched one still pushes.
    for pg in &games[1..] {
        let g = get(&s, &pg.url).await;
        assert_eq!(g["version"], 2, "{g}");
        assert!(!g["turn"].is_null(), "the throw was lost: {g}");
    }
    let (st, _) = act(&s, &games[0], "undo", json!({"seat": games[0].mover})).await;
    assert_eq!(st, 409, "no step to take back");
    let g = get(&s, &games[0].url).await;
    let step = g["turn"]["legal"][0].clone();
    let (st, _) = act(
        &s,
        &games[0],
        "step",
        json!({"seat": games[0].mover, "step": step}),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(next_of(&mut ws, "state").await["game"]["version"], 3);
    s.stop().await;
}
