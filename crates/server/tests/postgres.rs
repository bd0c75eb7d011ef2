//! The same storage on PostgreSQL. Runs only when CHAUPAR_TEST_POSTGRES holds a
//! database URL (such as postgres://postgres@127.0.0.1:5432/chaupar_test).
mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_kept_in_postgres() {
    let Ok(url) = std::env::var("CHAUPAR_TEST_POSTGRES") else {
        eprintln!("CHAUPAR_TEST_POSTGRES is not set: PostgreSQL not tested");
        return;
    };
    let s = start(&url).await;
    let seats = json!({"yellow": {"kind": "computer", "level": 1}, "black": {"kind": "computer", "level": 1}});
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 2, "seats": seats, "delay_ms": 0}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let end = wait_over(&s, &id, 120).await;
    let p = post(
        &s,
        "/api/games",
        &json!({"preset": "classic", "delay_ms": 0}),
    )
    .await;
    let pid = p["id"].as_str().unwrap().to_string();
    let seat = p["to_move"].as_str().unwrap().to_string();
    let thrown = post(
        &s,
        &format!("/api/games/{pid}/throw"),
        &json!({"seat": seat}),
    )
    .await;
    s.stop().await;
    let s2 = start(&url).await;
    assert_eq!(
        get(&s2, &format!("/api/games/{id}")).await["position"],
        end["position"]
    );
    assert_eq!(
        get(&s2, &format!("/api/games/{pid}")).await["turn"],
        thrown["turn"]
    );
    // The list pages and filters in PostgreSQL's SQL too (open games are filtered
    // from the playing ones).
    for q in [
        "page=1&per=1",
        "filter=playing",
        "filter=finished",
        "filter=open",
    ] {
        let (st, v) = req(&s2, "GET", &format!("/api/games?{q}"), None).await;
        assert_eq!(st, 200, "{q}: {v}");
        assert!(v["total"].as_i64().is_some(), "{q}: {v}");
    }
    let (_, one) = req(&s2, "GET", "/api/games?page=1&per=1", None).await;
    assert_eq!(one["games"].as_array().unwrap().len(), 1);
    s2.stop().await;
}
