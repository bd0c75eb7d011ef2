//! The same storage on PostgreSQL. Runs only when CHAUPAR_TEST_POSTGRES holds a
//! database URL (such as postgres://postgres@127.0.0.1:5432/chaupar_test).
mod common;

use std::time::Duration;

use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The versions of the next `n` states pushed to a socket, in the order pushed.
async fn versions(ws: &mut Ws, n: usize) -> Vec<u64> {
    let mut out = Vec::new();
    while out.len() < n {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .unwrap_or_else(|_| panic!("only {out:?} pushed within 20 s"))
            .expect("socket closed")
            .unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "state" {
                out.push(v["game"]["version"].as_u64().unwrap());
            }
        }
    }
    out
}

/// The next person action of a game as `g` shows it: throw, the first legal
/// step, or end.
fn next_action(g: &Value) -> (&'static str, Value) {
    let seat = g["to_move"].clone();
    if g["turn"].is_null() {
        ("throw", json!({"seat": seat}))
    } else if let Some(step) = g["turn"]["legal"].as_array().and_then(|l| l.first()) {
        ("step", json!({"seat": seat, "step": step}))
    } else {
        ("end", json!({"seat": seat}))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_one_database() {
    let Ok(url) = std::env::var("CHAUPAR_TEST_POSTGRES") else {
        eprintln!("CHAUPAR_TEST_POSTGRES is not set: PostgreSQL not tested");
        return;
    };
    let (a, b) = (start(&url).await, start(&url).await);
    let pg = person_game(&a, "chaupar", 31).await;
    let (mut wa, mut wb) = (ws(&a, &pg.id).await, ws(&b, &pg.id).await);
    assert_eq!(versions(&mut wa, 1).await, [1]);
    assert_eq!(versions(&mut wb, 1).await, [1]);
    // People act on one game through both servers in turn: each answers with
    // the other's changes at once, and each change is on the next version.
    let actions = 12;
    for n in 0..actions {
        let (here, there) = if n % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let g = get(here, &pg.url).await;
        assert_eq!(
            g["version"],
            n as u64 + 1,
            "the other server's change is missing: {g}"
        );
        let (action, body) = next_action(&g);
        let (st, done) = req(
            here,
            "POST",
            &format!("{}/{action}", pg.url),
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(st, 200, "{action}: {done}");
        assert_eq!(done["version"], n as u64 + 2, "{done}");
        assert_eq!(get(there, &pg.url).await["version"], n as u64 + 2);
    }
    // Every socket, on either server, was pushed every change once, in order.
    let all: Vec<u64> = (2..=actions as u64 + 1).collect();
    assert_eq!(versions(&mut wa, actions).await, all);
    assert_eq!(versions(&mut wb, actions).await, all);
    // Changes made on one server alone reach the other's sockets (announced
    // by NOTIFY: nobody asks the other server anything).
    for n in 0..3 {
        let g = get(&a, &pg.url).await;
        let (action, body) = next_action(&g);
        let (st, _) = req(
            &a,
            "POST",
            &format!("{}/{action}", pg.url),
            Some(&body.to_string()),
        )
        .await;
        assert_eq!(st, 200);
        let v = actions as u64 + 2 + n;
        assert_eq!(versions(&mut wb, 1).await, [v]);
        assert_eq!(versions(&mut wa, 1).await, [v]);
    }

    // The same action through both servers at once: applied once.
    let g = get(&a, &pg.url).await;
    let v = g["version"].as_u64().unwrap();
    let (action, mut body) = next_action(&g);
    let path = format!("{}/{action}", pg.url);
    let text = body.to_string();
    let (ra, rb) = tokio::join!(
        req(&a, "POST", &path, Some(&text)),
        req(&b, "POST", &path, Some(&text))
    );
    let ok = [ra.0, rb.0].iter().filter(|s| **s == 200).count();
    assert!(ok >= 1, "{ra:?} {rb:?}");
    let now = get(&b, &pg.url).await["version"].as_u64().unwrap();
    // Both may succeed only if the second was a legal action of its own
    // (another step), never two actions on one version.
    assert_eq!(now, v + ok as u64, "{ra:?} {rb:?}");
    // With one action_id, through both at once: applied once, answered alike.
    let g = get(&a, &pg.url).await;
    let v = g["version"].as_u64().unwrap();
    let (action, b2) = next_action(&g);
    body = b2;
    body["action_id"] = json!("both-servers");
    let path = format!("{}/{action}", pg.url);
    let text = body.to_string();
    let (ra, rb) = tokio::join!(
        req(&a, "POST", &path, Some(&text)),
        req(&b, "POST", &path, Some(&text))
    );
    assert_eq!((ra.0, rb.0), (200, 200), "{ra:?} {rb:?}");
    assert_eq!(ra.1["version"], v + 1);
    assert_eq!(rb.1["version"], v + 1);
    assert_eq!(get(&b, &pg.url).await["version"], v + 1);
    a.stop().await;
    b.stop().await;
}

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
