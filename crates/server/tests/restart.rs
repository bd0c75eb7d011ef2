//! A half-played game survives a restart of the server on the same database,
//! including a half-built turn.
mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_continues_after_a_restart() {
    let db = temp_db("restart");
    let s = start(&db).await;
    let PersonGame { id, url, .. } = person_game(&s, "chaupar", 21).await;
    // Play some whole turns and then half a turn, all by hand.
    let mut half = None;
    for _ in 0..400 {
        let g = get(&s, &url).await;
        let seat = g["to_move"].as_str().unwrap().to_string();
        if g["moves"].as_array().unwrap().len() >= 6
            && !g["turn"].is_null()
            && !g["turn"]["steps"].as_array().unwrap().is_empty()
            && !g["turn"]["can_end"].as_bool().unwrap()
        {
            half = Some(g);
            break;
        }
        if g["turn"].is_null() {
            post(&s, &format!("{url}/throw"), &json!({"seat": seat})).await;
        } else if let Some(step) = g["turn"]["legal"].as_array().and_then(|l| l.first()) {
            post(
                &s,
                &format!("{url}/step"),
                &json!({"seat": seat, "step": step}),
            )
            .await;
        } else {
            post(&s, &format!("{url}/end"), &json!({"seat": seat})).await;
        }
    }
    let half = half.expect("a half-built turn");
    s.stop().await;

    let s2 = start(&db).await;
    let again = get(&s2, &url).await;
    for k in ["position", "turn", "moves", "to_move", "seats"] {
        assert_eq!(again[k], half[k], "{k} differs after the restart");
    }
    // And the game goes on to its end.
    let end = play_person(&s2, &id, 20_000).await;
    assert!(end["winner"].is_string() || end["outcome"] == "dead");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computer_seats_resume_after_a_restart() {
    let db = temp_db("restart-computers");
    let s = start(&db).await;
    let seats = json!({"yellow": {"kind": "computer", "level": 1}, "red": {"kind": "computer", "level": 1},
        "black": {"kind": "computer", "level": 1}});
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 3, "seats": seats, "delay_ms": 5, "seed": 9}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let url = format!("/api/games/{id}");
    loop {
        let g = get(&s, &url).await;
        assert_eq!(g["outcome"], "playing", "the game ended before the restart");
        if g["moves"].as_array().unwrap().len() >= 10 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    s.stop().await;
    let s2 = start(&db).await;
    let end = wait_over(&s2, &id, 120).await;
    assert!(end["moves"].as_array().unwrap().len() > 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_before_tokens_gets_the_seating_column() {
    // The games table as it was before seats had tokens, with one game in it.
    let db = temp_db("old-schema");
    {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&format!("sqlite://{db}?mode=rwc"))
            .await
            .unwrap();
        sqlx::query(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created BIGINT NOT NULL,
             updated BIGINT NOT NULL, record TEXT NOT NULL, partial TEXT NOT NULL,
             seats TEXT NOT NULL, delay_ms BIGINT NOT NULL, status TEXT NOT NULL,
             summary TEXT NOT NULL)",
        )
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;
    }
    let s = start(&db).await;
    let pg = person_game(&s, "chaupar", 8).await;
    post(&s, &format!("{}/throw", pg.url), &json!({"seat": pg.mover})).await;
    s.stop().await;
    // Started again on the same file (the column is there now): the tokens hold.
    let s = start(&db).await;
    let (st, v) = req_as(
        &s,
        "POST",
        &format!("{}/undo", pg.url),
        Some(&json!({"seat": pg.mover}).to_string()),
        None,
    )
    .await;
    assert_eq!(st, 401, "{v}");
    let (st, v) = req(
        &s,
        "POST",
        &format!("{}/undo", pg.url),
        Some(&json!({"seat": pg.mover}).to_string()),
    )
    .await;
    assert_eq!(st, 409, "the token still acts after the restart: {v}");
    s.stop().await;
}
