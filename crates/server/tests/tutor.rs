//! Tutor mode (`"tutor": true` at creation, `POST /api/games/{id}/tutor`) and
//! the review's graph (`GET /api/games/{id}/review.svg`).
mod common;

use chaupar_core::json::parse_position;
use chaupar_core::{Throw, Turn};
use common::*;
use serde_json::{json, Value};

/// A tutor game of persons only.
async fn tutor_game(s: &Server, seed: u64) -> (String, String) {
    let g = post(
        s,
        "/api/games",
        &json!({"preset": "chaupar", "seed": seed, "delay_ms": 0, "tutor": true}),
    )
    .await;
    assert_eq!(g["tutor"], json!({"threshold": 0.05}));
    (
        g["id"].as_str().unwrap().to_string(),
        g["to_move"].as_str().unwrap().to_string(),
    )
}

async fn ask(s: &Server, id: &str, seat: &str, token: Option<&str>) -> (u16, Value) {
    req_as(
        s,
        "POST",
        &format!("/api/games/{id}/tutor"),
        Some(&json!({"seat": seat}).to_string()),
        token,
    )
    .await
}

/// The ranking the tutor judges against, made here as the server makes it.
fn ranking(g: &Value) -> Vec<chaupar_server::bots::Ranked> {
    let pos = parse_position(&g["position"].to_string()).unwrap();
    let dice: Vec<u8> = (g["turn"]["throw"].as_array().unwrap().iter())
        .map(|d| d.as_u64().unwrap() as u8)
        .collect();
    let throw = Throw::new([dice[0], dice[1], dice[2]], pos.rules().faces).unwrap();
    chaupar_server::bots::tutor(&Turn::new(&pos, throw).unwrap())
}

async fn steps(s: &Server, id: &str, seat: &str, steps: &[chaupar_core::Step]) {
    for st in steps {
        post(
            s,
            &format!("/api/games/{id}/step"),
            &json!({"seat": seat, "step": st}),
        )
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tutor_warns_of_a_bad_play_and_not_of_the_best_and_changes_nothing() {
    let s = start(&temp_db("tutor")).await;
    let (id, _) = tutor_game(&s, 11).await;
    let url = format!("/api/games/{id}");
    let mut judged = false;
    for _ in 0..12 {
        let g = get(&s, &url).await;
        let seat = g["to_move"].as_str().unwrap().to_string();
        let tok = token(&id, &seat);
        // Before the throw: 409.
        let (st, v) = ask(&s, &id, &seat, Some(&tok)).await;
        assert_eq!(st, 409, "{v}");
        assert!(v["error"].as_str().unwrap().contains("throw"), "{v}");
        post(&s, &format!("{url}/throw"), &json!({"seat": seat})).await;
        let g = get(&s, &url).await;
        let ranked = ranking(&g);
        let worst = ranked.last().unwrap();
        let best = &ranked[0];
        if !judged && best.win - worst.win > 0.10 {
            judged = true;
            // The worst play, then the tutor: a warning with its loss; nothing changed.
            steps(&s, &id, &seat, &worst.play.steps).await;
            let before = get(&s, &url).await;
            let (st, v) = ask(&s, &id, &seat, Some(&tok)).await;
            assert_eq!(st, 200, "{v}");
            assert_eq!(v["warn"], true, "{v}");
            let loss = v["loss"].as_f64().unwrap();
            assert!(loss > 0.05, "{v}");
            assert!((loss - (best.win - worst.win)).abs() < 1e-9, "{v}");
            assert_eq!(v["threshold"], 0.05);
            assert_eq!(v["plays"], ranked.len());
            assert_eq!(v["best"]["steps"], json!(best.play.steps), "{v}");
            assert!(v["best"]["play"]
                .as_str()
                .unwrap()
                .starts_with(&seat[..1].to_uppercase()));
            assert_eq!(v["yours"]["steps"], json!(worst.play.steps));
            assert_eq!(v["best"]["exact"], best.exact, "{v}");
            assert_eq!(v["yours"]["exact"], worst.exact, "{v}");
            let after = get(&s, &url).await;
            assert_eq!(before, after, "the tutor changes nothing");
            // Taken back step by step, then the best play: no warning.
            for _ in 0..worst.play.steps.len() {
                post(&s, &format!("{url}/undo"), &json!({"seat": seat})).await;
            }
            steps(&s, &id, &seat, &best.play.steps).await;
            let (st, v) = ask(&s, &id, &seat, Some(&tok)).await;
            assert_eq!(st, 200, "{v}");
            assert_eq!(v["warn"], false, "{v}");
            assert_eq!(v["loss"], 0.0);
            // The same question, the same answer (the budget is counted in work).
            assert_eq!(ask(&s, &id, &seat, Some(&tok)).await.1, v);
        } else {
            // Mid-turn (a step taken, more to take): 409.
            let first = &best.play.steps;
            if first.len() > 1 {
                steps(&s, &id, &seat, &first[..1]).await;
                let (st, v) = ask(&s, &id, &seat, Some(&tok)).await;
                assert_eq!(st, 409, "{v}");
                assert!(
                    v["error"].as_str().unwrap().contains("may not end yet"),
                    "{v}"
                );
                steps(&s, &id, &seat, &first[1..]).await;
            } else {
                steps(&s, &id, &seat, first).await;
            }
        }
        post(&s, &format!("{url}/end"), &json!({"seat": seat})).await;
        if judged {
            break;
        }
    }
    assert!(judged, "no throw with a play losing more than 10%");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tutor_is_authorized_as_the_actions_and_refuses_bad_requests() {
    let s = start(&temp_db("tutor-auth")).await;
    let (id, mover) = tutor_game(&s, 5).await;
    let url = format!("/api/games/{id}");
    post(&s, &format!("{url}/throw"), &json!({"seat": mover})).await;
    let other = ["yellow", "red", "black", "green"]
        .into_iter()
        .find(|c| *c != mover)
        .unwrap();
    let before = get(&s, &url).await;
    // No token: 401; another seat's, the owner's or a made-up one: 403.
    assert_eq!(ask(&s, &id, &mover, None).await.0, 401);
    assert_eq!(ask(&s, &id, &mover, Some(&token(&id, other))).await.0, 403);
    assert_eq!(ask(&s, &id, &mover, Some(&owner(&id))).await.0, 403);
    assert_eq!(ask(&s, &id, &mover, Some("nonsense")).await.0, 403);
    // Not this seat's turn: 409.
    let (st, v) = ask(&s, &id, other, Some(&token(&id, other))).await;
    assert_eq!(st, 409, "{v}");
    // Bad bodies: 400 with a JSON error.
    let tok = token(&id, &mover);
    for body in [
        "{}",
        "[]",
        "{\"seat\": \"purple\"}",
        "{\"seat\": \"yellow\", \"x\": 1}",
        "nope",
    ] {
        let (st, v) = req_as(&s, "POST", &format!("{url}/tutor"), Some(body), Some(&tok)).await;
        assert_eq!(st, 400, "{body}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    // An unknown game: 404.
    let (st, _) = ask(&s, "nosuchgame", &mover, Some(&tok)).await;
    assert_eq!(st, 404);
    assert_eq!(get(&s, &url).await, before, "nothing changed");

    // A game without the tutor: 409; its view says so.
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "seed": 5, "delay_ms": 0}),
    )
    .await;
    assert_eq!(g["tutor"], Value::Null);
    let plain = g["id"].as_str().unwrap().to_string();
    let m = g["to_move"].as_str().unwrap();
    post(
        &s,
        &format!("/api/games/{plain}/throw"),
        &json!({"seat": m}),
    )
    .await;
    let (st, v) = ask(&s, &plain, m, Some(&token(&plain, m))).await;
    assert_eq!(st, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no tutor"), "{v}");

    // The threshold: chosen, or refused out of range or without the tutor.
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "classic", "seed": 1, "tutor": true, "tutor_threshold": 0.1}),
    )
    .await;
    assert_eq!(g["tutor"]["threshold"], 0.1);
    for bad in [
        json!({"preset": "chaupar", "tutor": true, "tutor_threshold": 0}),
        json!({"preset": "chaupar", "tutor": true, "tutor_threshold": 1.5}),
        json!({"preset": "chaupar", "tutor": true, "tutor_threshold": -0.1}),
        json!({"preset": "chaupar", "tutor_threshold": 0.1}),
    ] {
        let (st, v) = req(&s, "POST", "/api/games", Some(&bad.to_string())).await;
        assert_eq!(st, 422, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains("tutor"), "{v}");
    }
    let (st, _) = req(
        &s,
        "POST",
        "/api/games",
        Some(r#"{"preset": "chaupar", "tutor": "yes"}"#),
    )
    .await;
    assert_eq!(st, 400);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tutor_setting_survives_a_restart() {
    let db = temp_db("tutor-restart");
    let s = start(&db).await;
    let (id, _) = tutor_game(&s, 3).await;
    s.stop().await;
    let s = start(&db).await;
    let g = get(&s, &format!("/api/games/{id}")).await;
    assert_eq!(g["tutor"], json!({"threshold": 0.05}));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_svg_draws_a_point_for_every_turn() {
    let s = start(&temp_db("review-svg")).await;
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "seed": 9, "delay_ms": 0,
                "seats": {"yellow": {"kind": "computer", "level": 1}, "red": {"kind": "computer", "level": 1},
                          "black": {"kind": "computer", "level": 1}, "green": {"kind": "computer", "level": 1}}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let done = wait_over(&s, &id, 120).await;
    let turns = done["moves"].as_array().unwrap().len();
    let (st, svg) = raw(
        &s,
        "GET",
        &format!("/api/games/{id}/review.svg?budget=0"),
        None,
    )
    .await;
    assert_eq!(st, 200, "{svg}");
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(svg.matches("class=\"point\"").count(), turns);
    assert!(svg.contains(&format!("data-turn=\"{turns}\"")));
    assert!(svg.contains("yellow+black") && svg.contains("error rate"));
    // The same review as the JSON route's.
    let review = get(&s, &format!("/api/games/{id}/review?budget=0")).await;
    let bad = (review["turns"].as_array().unwrap().iter())
        .filter(|t| t["choices"].as_u64().unwrap() > 1 && t["loss"].as_f64().unwrap() >= 0.05)
        .count();
    assert_eq!(svg.matches("class=\"blunder").count(), bad);
    // Its type, and Russian words.
    let (_, head) = head_of(&s, &format!("/api/games/{id}/review.svg?budget=0&lang=ru")).await;
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: image/svg+xml"),
        "{head}"
    );
    let (_, ru) = raw(
        &s,
        "GET",
        &format!("/api/games/{id}/review.svg?budget=0&lang=ru"),
        None,
    )
    .await;
    assert!(ru.contains("доля ошибок"));
    // Bounded as the review: bad queries are JSON errors.
    for q in ["budget=51", "budget=x", "lang=fr", "depth=3"] {
        let (st, v) = req(&s, "GET", &format!("/api/games/{id}/review.svg?{q}"), None).await;
        assert_eq!(st, 400, "{q}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let (st, v) = req(&s, "GET", "/api/games/nosuch/review.svg", None).await;
    assert_eq!(st, 404, "{v}");
    s.stop().await;
}

/// The status and head of a GET.
async fn head_of(s: &Server, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let head = format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    stream.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, _) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_string())
}
