//! Pins the API's JSON field for field: the answers to a fixed sequence of
//! requests (the static facts, games of persons through throws, steps, undos,
//! checks and ends, wrong requests, the list, the replays) are compared with
//! `tests/data/json_shape.json`, recorded from the server before its views became
//! typed structs. Ids and times are masked; the rules text (docs/rules.md) is left
//! out. Record it again only when the API is meant to change:
//! `CHAUPAR_WRITE_SHAPE=1 cargo test --release -p chaupar-server --test json_shape`.
mod common;

use common::*;
use serde_json::{json, Value};

/// Replaces the values of `id`, `created` and `updated` (they differ every run),
/// and the secrets (the owner's token, each seat's token and invite code).
fn mask(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if ["id", "created", "updated", "deleted", "owner_token"].contains(&k.as_str()) {
                    *x = json!("*");
                } else if ["seat_tokens", "invites"].contains(&k.as_str()) {
                    x.as_object_mut()
                        .unwrap()
                        .values_mut()
                        .for_each(|t| *t = json!("*"));
                } else {
                    mask(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(mask),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_answers_field_for_field_as_recorded() {
    let s = start(&temp_db("shape")).await;
    let mut log: Vec<Value> = Vec::new();
    let mut record = |what: &str, status: u16, mut body: Value| {
        mask(&mut body);
        log.push(json!({"request": what, "status": status, "body": body}));
    };
    for path in ["/api/meta", "/api/board"] {
        let (st, v) = req(&s, "GET", path, None).await;
        record(path, st, v);
    }

    // A team game of persons, a three-player and a two-player game, played by the first allowed
    // step (with an undo and checks on the way) for a few turns.
    for (preset, players, seed) in [("chaupar", 4, 3), ("chausar", 3, 8), ("classic", 2, 5)] {
        let (st, g) = req(
            &s,
            "POST",
            "/api/games",
            Some(
                &json!({"preset": preset, "players": players, "seed": seed, "delay_ms": 0})
                    .to_string(),
            ),
        )
        .await;
        let id = g["id"].as_str().unwrap().to_string();
        let url = format!("/api/games/{id}");
        record("create", st, g);
        for i in 0..24 {
            let g = get(&s, &url).await;
            if g["outcome"] != "playing" {
                break;
            }
            let seat = g["to_move"].as_str().unwrap().to_string();
            let (what, body) = if g["turn"].is_null() {
                ("throw", json!({"seat": seat}))
            } else if let Some(step) = g["turn"]["legal"].as_array().and_then(|l| l.first()) {
                if i % 5 == 2 {
                    let mut bad = step.clone();
                    bad["by"] = json!(13);
                    for (what, action, step) in [
                        ("check", "check", step),
                        ("check bad", "check", &bad),
                        ("step bad", "step", &bad),
                        ("step", "step", step),
                    ] {
                        let body = json!({"seat": seat, "step": step}).to_string();
                        let (st, v) =
                            req(&s, "POST", &format!("{url}/{action}"), Some(&body)).await;
                        record(what, st, v);
                    }
                    ("undo", json!({"seat": seat}))
                } else {
                    ("step", json!({"seat": seat, "step": step}))
                }
            } else {
                ("end", json!({"seat": seat}))
            };
            let (st, v) = req(
                &s,
                "POST",
                &format!("{url}/{what}"),
                Some(&body.to_string()),
            )
            .await;
            record(what, st, v);
        }
        let (st, v) = req(&s, "GET", &format!("{url}/replay"), None).await;
        record("replay", st, v);
    }
    // Wrong requests: the status and the words.
    let PersonGame {
        url, mover, other, ..
    } = person_game(&s, "chaupar", 3).await;
    for (what, path, body) in [
        ("bad json", "/api/games".to_string(), "{not json".to_string()),
        ("unknown field", "/api/games".into(), r#"{"preset":"chaupar","colour":"x"}"#.into()),
        ("bad preset", "/api/games".into(), json!({"preset": "ludo"}).to_string()),
        ("bad level", "/api/games".into(),
            json!({"preset": "chaupar", "seats": {"yellow": {"kind": "computer", "level": 9}}}).to_string()),
        ("bad delay", "/api/games".into(), json!({"preset": "chaupar", "delay_ms": 70000}).to_string()),
        ("no game", "/api/games/nope/throw".into(), json!({"seat": "yellow"}).to_string()),
        ("wrong seat", format!("{url}/throw"), json!({"seat": other}).to_string()),
        ("no such colour", format!("{url}/throw"), json!({"seat": "purple"}).to_string()),
        ("step before throw", format!("{url}/step"),
            json!({"seat": mover, "step": {"colour": mover, "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 1}}).to_string()),
        ("no step", format!("{url}/step"), json!({"seat": mover}).to_string()),
        ("end before throw", format!("{url}/end"), json!({"seat": mover}).to_string()),
        ("undo before throw", format!("{url}/undo"), json!({"seat": mover}).to_string()),
        ("check before throw", format!("{url}/check"),
            json!({"seat": mover, "step": {"colour": mover, "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 1}}).to_string()),
        ("throw", format!("{url}/throw"), json!({"seat": mover}).to_string()),
        ("throw twice", format!("{url}/throw"), json!({"seat": mover}).to_string()),
        ("undo nothing", format!("{url}/undo"), json!({"seat": mover}).to_string()),
        ("bad declare", format!("{url}/step"),
            json!({"seat": mover, "step": {"colour": mover, "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 1, "declare": "castle"}}).to_string()),
        ("null declare", format!("{url}/check"),
            json!({"seat": mover, "step": {"colour": mover, "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 1, "declare": null}}).to_string()),
        ("step field", format!("{url}/check"),
            json!({"seat": mover, "step": {"colour": mover, "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 1, "x": 1}}).to_string()),
        ("bad import", "/api/import".into(), json!({"record": "[Rules \"nope\"]\n"}).to_string()),
    ] {
        let (st, v) = req(&s, "POST", &path, Some(&body)).await;
        record(what, st, v);
    }
    for path in [
        "/api/games/nope",
        "/api/games/nope/hint",
        "/api/games/nope/review",
        "/nope",
    ] {
        let (st, v) = req(&s, "GET", path, None).await;
        record(path, st, v);
    }
    for q in ["budget=51", "budget=x", "depth=3"] {
        let (st, v) = req(&s, "GET", &format!("{url}/review?{q}"), None).await;
        record(q, st, v);
    }
    let (st, v) = req(&s, "GET", &format!("{url}/ws"), None).await;
    record("ws without upgrade", st, v);
    let (st, mut v) = req(&s, "GET", "/api/games", None).await;
    // Newest first: games stored in the same second come in any order.
    if let Some(games) = v["games"].as_array_mut() {
        games.sort_by_key(|g| g["summary"].to_string());
    }
    record("list", st, v);
    let (st, v) = req(&s, "DELETE", &url, None).await;
    record("delete", st, v);
    s.stop().await;

    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/json_shape.json");
    let got = Value::Array(log);
    if std::env::var_os("CHAUPAR_WRITE_SHAPE").is_some() {
        std::fs::write(&file, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
        return;
    }
    let want: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let (got, want) = (got.as_array().unwrap(), want.as_array().unwrap());
    assert_eq!(got.len(), want.len(), "a different number of answers");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g, w, "the answer to {} changed", w["request"]);
    }
}
