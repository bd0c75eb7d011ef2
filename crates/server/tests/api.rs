//! Whole games through the HTTP API, in each preset, and wrong requests.
mod common;

use common::*;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computers_play_whole_games_in_each_preset() {
    let s = start(&temp_db("computers")).await;
    for (preset, players) in [
        ("chaupar", 4),
        ("chausar", 3),
        ("classic", 4),
        ("chausar", 2),
        ("classic", 2),
    ] {
        let colours: Vec<String> = match players {
            4 => vec!["yellow", "red", "black", "green"],
            3 => vec!["yellow", "red", "black"],
            _ if preset == "chausar" => vec!["yellow", "black"],
            _ => vec!["yellow", "red", "black", "green"],
        }
        .into_iter()
        .map(String::from)
        .collect();
        let seats: serde_json::Map<String, serde_json::Value> = colours
            .iter()
            .map(|c| (c.clone(), json!({"kind": "computer", "level": 1})))
            .collect();
        let g = post(&s, "/api/games", &json!({"preset": preset, "players": players, "seats": seats, "delay_ms": 0, "seed": 7})).await;
        let id = g["id"].as_str().unwrap().to_string();
        let end = wait_over(&s, &id, 120).await;
        assert!(
            end["winner"].is_string() || end["outcome"] == "dead",
            "{end}"
        );
        // The record replays and the replay frames end where the game ended.
        let (st, text) = raw(&s, "GET", &format!("/api/games/{id}/record"), None).await;
        assert_eq!(st, 200);
        assert!(text.contains(&format!("[Rules \"{preset}\"]")), "{text}");
        let r = get(&s, &format!("/api/games/{id}/replay")).await;
        let frames = r["frames"].as_array().unwrap();
        assert_eq!(frames.last().unwrap()["position"], end["position"]);
    }
    let list = get(&s, "/api/games").await;
    assert_eq!(list["games"].as_array().unwrap().len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_steps_through_whole_games() {
    let s = start(&temp_db("person")).await;
    for preset in ["chaupar", "chausar", "classic"] {
        let seats = json!({"yellow": {"kind": "person"}, "red": {"kind": "computer", "level": 1},
            "black": {"kind": "person"}, "green": {"kind": "computer", "level": 1}});
        let g = post(
            &s,
            "/api/games",
            &json!({"preset": preset, "seats": seats, "delay_ms": 0, "seed": 11}),
        )
        .await;
        let id = g["id"].as_str().unwrap().to_string();
        let end = play_person(&s, &id, 20_000).await;
        assert!(
            end["winner"].is_string() || end["outcome"] == "dead",
            "{end}"
        );
        assert!(!end["moves"].as_array().unwrap().is_empty());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_requests_get_4xx_and_change_nothing() {
    let s = start(&temp_db("wrong")).await;
    // Malformed JSON, unknown preset, bad option, bad players, bad seats.
    let (st, v) = req(&s, "POST", "/api/games", Some("{not json")).await;
    assert_eq!(st, 400, "{v}");
    assert!(v["error"].is_string());
    for body in [
        json!({"preset": "ludo"}),
        json!({"preset": "chaupar", "options": {"tohd": "sometimes"}}),
        json!({"preset": "chaupar", "players": 3}),
        json!({"preset": "chausar", "players": 2, "seats": {"red": {"kind": "person"}}}),
        json!({"preset": "chaupar", "seats": {"yellow": {"kind": "computer", "level": 9}}}),
        json!({"preset": "classic", "players": 2, "seats": {"yellow": {"kind": "computer", "level": 1}}}),
    ] {
        let (st, v) = req(&s, "POST", "/api/games", Some(&body.to_string())).await;
        assert_eq!(st, 422, "{body}: {v}");
        assert!(v["error"].is_string());
    }
    let (st, v) = req(
        &s,
        "POST",
        "/api/games",
        Some(r#"{"preset":"chaupar","colour":"x"}"#),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    assert_eq!(
        get(&s, "/api/games").await["games"]
            .as_array()
            .unwrap()
            .len(),
        0
    );

    // Unknown game.
    let (st, v) = req(&s, "GET", "/api/games/nope", None).await;
    assert_eq!(st, 404, "{v}");
    let (st, _) = req(
        &s,
        "POST",
        "/api/games/nope/throw",
        Some(r#"{"seat":"yellow"}"#),
    )
    .await;
    assert_eq!(st, 404);

    // A game of persons.
    let PersonGame {
        url, mover, other, ..
    } = person_game(&s, "chaupar", 3).await;
    // Wrong seat.
    let (st, v) = req(
        &s,
        "POST",
        &format!("{url}/throw"),
        Some(&json!({"seat": other}).to_string()),
    )
    .await;
    assert_eq!(st, 409, "{v}");
    let (st, _) = req(
        &s,
        "POST",
        &format!("{url}/throw"),
        Some(r#"{"seat":"purple"}"#),
    )
    .await;
    assert_eq!(st, 400);
    // Step before throw, end before throw.
    let step = json!({"colour": mover, "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 1});
    let (st, _) = req(
        &s,
        "POST",
        &format!("{url}/step"),
        Some(&json!({"seat": mover, "step": step}).to_string()),
    )
    .await;
    assert_eq!(st, 409);
    let before = get(&s, &url).await;
    let g = post(&s, &format!("{url}/throw"), &json!({"seat": mover})).await;
    assert_ne!(g["version"], before["version"]);
    // Throwing twice.
    let (st, _) = req(
        &s,
        "POST",
        &format!("{url}/throw"),
        Some(&json!({"seat": mover}).to_string()),
    )
    .await;
    assert_eq!(st, 409);
    let before = get(&s, &url).await;
    // An illegal step: says why in words.
    let bad = json!({"colour": mover, "from": 50, "to": 99, "pieces": 1, "by": 49, "dice": 1});
    let (st, v) = req(
        &s,
        "POST",
        &format!("{url}/step"),
        Some(&json!({"seat": mover, "step": bad}).to_string()),
    )
    .await;
    assert_eq!(st, 422, "{v}");
    assert!(v["error"].as_str().unwrap().len() > 5);
    assert!(v["error_ru"].as_str().unwrap().len() > 5);
    let (st, v) = req(
        &s,
        "POST",
        &format!("{url}/check"),
        Some(&json!({"seat": mover, "step": bad}).to_string()),
    )
    .await;
    assert_eq!(st, 200);
    assert_eq!(v["allowed"], false);
    // Malformed step.
    let (st, _) = req(
        &s,
        "POST",
        &format!("{url}/step"),
        Some(&json!({"seat": mover, "step": {"colour": mover}}).to_string()),
    )
    .await;
    assert_eq!(st, 400);
    let (st, _) = req(
        &s,
        "POST",
        &format!("{url}/undo"),
        Some(&json!({"seat": mover}).to_string()),
    )
    .await;
    assert_eq!(st, 409, "nothing to undo");
    assert_eq!(
        get(&s, &url).await,
        before,
        "wrong requests changed the game"
    );
    // A legal step, undo, step again.
    let legal = before["turn"]["legal"][0].clone();
    if !legal.is_null() {
        let a = post(
            &s,
            &format!("{url}/step"),
            &json!({"seat": mover, "step": legal}),
        )
        .await;
        assert_eq!(a["turn"]["steps"].as_array().unwrap().len(), 1);
        let b = post(&s, &format!("{url}/undo"), &json!({"seat": mover})).await;
        assert_eq!(b["turn"]["steps"].as_array().unwrap().len(), 0);
        assert_eq!(b["position"], before["position"]);
    }
    // A computer's seat cannot be played by hand.
    let g = post(&s, "/api/games", &json!({"preset": "chausar", "players": 2, "seed": 5, "delay_ms": 60000,
        "seats": {"yellow": {"kind": "computer", "level": 1}, "black": {"kind": "computer", "level": 1}}})).await;
    let cid = g["id"].as_str().unwrap();
    let mover = g["to_move"].as_str().unwrap();
    let (st, v) = req(
        &s,
        "POST",
        &format!("/api/games/{cid}/throw"),
        Some(&json!({"seat": mover}).to_string()),
    )
    .await;
    assert_eq!(st, 403, "{v}");
    // Import: a bad record is refused, a good one makes a game.
    let (st, v) = req(
        &s,
        "POST",
        "/api/import",
        Some(&json!({"record": "[Rules \"nope\"]\n"}).to_string()),
    )
    .await;
    assert_eq!(st, 422, "{v}");
    let (_, text) = raw(&s, "GET", &format!("{url}/record"), None).await;
    let imported = post(&s, "/api/import", &json!({"record": text})).await;
    assert_eq!(imported["moves"], before["moves"]);
    // Static facts.
    let board = get(&s, "/api/board").await;
    assert_eq!(board["squares"].as_array().unwrap().len(), 96);
    assert_eq!(board["castles"].as_array().unwrap().len(), 12);
    let meta = get(&s, "/api/meta").await;
    assert_eq!(meta["presets"].as_array().unwrap().len(), 3);
    let rules = get(&s, "/api/rules").await;
    assert!(rules["html"].as_str().unwrap().contains("<h1"));
    let (st, html) = raw(&s, "GET", "/", None).await;
    assert_eq!(st, 200);
    assert!(html.contains("<html") || html.contains("<!doctype"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_in_the_middle_of_a_turn_keeps_the_steps_taken() {
    let s = start(&temp_db("hint")).await;
    // Persons only; throw until a turn offers more than one step, take one.
    let PersonGame { url, .. } = person_game(&s, "chausar", 5).await;
    let (st, v) = req(&s, "GET", &format!("{url}/hint"), None).await;
    assert_eq!(st, 409, "no hint before the throw: {v}");
    for _ in 0..200 {
        let g = get(&s, &url).await;
        let seat = g["to_move"].as_str().unwrap().to_string();
        if g["turn"].is_null() {
            post(&s, &format!("{url}/throw"), &json!({"seat": seat})).await;
            continue;
        }
        let legal = g["turn"]["legal"].as_array().cloned().unwrap_or_default();
        if legal.len() < 2 {
            play_person_action(&s, &url, &g).await;
            continue;
        }
        let first = legal[1].clone();
        post(
            &s,
            &format!("{url}/step"),
            &json!({"seat": seat, "step": first}),
        )
        .await;
        let h = get(&s, &format!("{url}/hint")).await;
        let plays = h["plays"].as_array().unwrap();
        assert!(!plays.is_empty(), "{h}");
        for p in plays {
            assert_eq!(p["steps"][0], first, "{p}");
            let w = p["win"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&w));
            // Not a column race at the game's start: the chance is estimated.
            assert_eq!(p["exact"], false, "{p}");
        }
        // The best play can be finished from here: its next step is allowed.
        let best = &plays[0]["steps"];
        if let Some(next) = best.get(1) {
            let g = get(&s, &url).await;
            assert!(g["turn"]["legal"].as_array().unwrap().contains(next), "{g}");
        }
        s.stop().await;
        return;
    }
    panic!("no turn with a choice of first step in 200 actions");
}

/// One action of whoever is to move: the first allowed step, or the end of the turn.
async fn play_person_action(s: &Server, url: &str, g: &serde_json::Value) {
    let seat = g["to_move"].as_str().unwrap().to_string();
    if let Some(step) = g["turn"]["legal"].as_array().and_then(|l| l.first()) {
        post(
            s,
            &format!("{url}/step"),
            &json!({"seat": seat, "step": step}),
        )
        .await;
    } else {
        post(s, &format!("{url}/end"), &json!({"seat": seat})).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_and_bad_budgets_are_refused() {
    let s = start(&temp_db("review")).await;
    let cpu = json!({"kind": "computer", "level": 1});
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 2, "seed": 4, "delay_ms": 0,
                "seats": {"yellow": cpu, "black": cpu}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let end = wait_over(&s, &id, 60).await;
    let turns = end["moves"].as_array().unwrap().len();
    let rv = get(&s, &format!("/api/games/{id}/review?budget=0")).await;
    assert_eq!(rv["budget_ms"], 0);
    assert_eq!(rv["turns"].as_array().unwrap().len(), turns, "{rv}");
    assert_eq!(rv["thresholds"]["bad"], 0.05);
    for t in rv["turns"].as_array().unwrap() {
        let loss = t["loss"].as_f64().unwrap();
        assert!(loss >= 0.0, "{t}");
        let v = t["verdict"].as_str().unwrap();
        assert!(
            ["", "ok", "doubtful", "bad", "very bad"].contains(&v),
            "{t}"
        );
    }
    assert_eq!(rv["sides"].as_array().unwrap().len(), 2);
    // The same review twice: the budget is counted in work, not time.
    let a = get(&s, &format!("/api/games/{id}/review?budget=2")).await;
    let b = get(&s, &format!("/api/games/{id}/review?budget=2")).await;
    assert_eq!(a, b);
    for bad in ["budget=51", "budget=x", "budget=-1", "depth=3"] {
        let (st, v) = req(&s, "GET", &format!("/api/games/{id}/review?{bad}"), None).await;
        assert_eq!(st, 400, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains("budget"), "{v}");
    }
    let (st, _) = req(&s, "GET", "/api/games/nope/review", None).await;
    assert_eq!(st, 404);
    s.stop().await;
}

/// `check` with `{"seat", "from", "to"}`: the engine answers for the move clicked
/// (any unit, any use of the dice), in every preset; a legal move is allowed, a
/// square behind the piece is "not ahead", a mixed or misplaced form is a 400,
/// and nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_says_why_a_clicked_move_is_refused_in_every_preset() {
    let s = common::start(&common::temp_db("check-move")).await;
    for preset in ["chaupar", "chausar", "classic"] {
        let pg = common::person_game(&s, preset, 5).await;
        let (url, mover) = (&pg.url, &pg.mover);
        let g = post(&s, &format!("{url}/throw"), &json!({"seat": mover})).await;
        let legal = g["turn"]["legal"].as_array().unwrap().clone();
        let check = |body: serde_json::Value| {
            let s = &s;
            async move { req(s, "POST", &format!("{url}/check"), Some(&body.to_string())).await }
        };
        for step in &legal {
            let (st, v) = check(json!({"seat": mover, "colour": step["colour"], "from": step["from"], "to": step["to"]})).await;
            assert_eq!(
                (st, &v["allowed"]),
                (200, &json!(true)),
                "{preset} {step}: {v}"
            );
        }
        if let Some(step) = legal.iter().find(|s| s["from"].as_u64().unwrap() > 1) {
            let from = step["from"].as_u64().unwrap();
            let (st, v) = check(json!({"seat": mover, "from": from, "to": from - 1})).await;
            assert_eq!(st, 200, "{v}");
            assert_eq!(v["allowed"], false);
            assert_eq!(
                v["why"], "that square is not ahead of this piece on its way",
                "{preset}"
            );
            assert_eq!(v["why_ru"], "эта клетка не впереди этой фишки на её пути");
        }
        // No piece of the mover at progress 83 at the start of a game.
        let (st, v) = check(json!({"seat": mover, "from": 83, "to": 84})).await;
        assert_eq!((st, &v["allowed"]), (200, &json!(false)), "{v}");
        // Mixed forms, missing fields, and a move's fields on another action.
        for bad in [
            json!({"seat": mover, "from": 6}),
            json!({"seat": mover, "from": 6, "to": 8, "step": legal[0]}),
            json!({"seat": mover, "colour": "purple", "from": 6, "to": 8}),
            json!({"seat": mover, "from": -1, "to": 8}),
        ] {
            let (st, v) = check(bad.clone()).await;
            assert_eq!(st, 400, "{bad}: {v}");
            assert!(v["error"].as_str().unwrap().len() > 10, "{v}");
        }
        let before = get(&s, url).await;
        let (st, _) = req(
            &s,
            "POST",
            &format!("{url}/step"),
            Some(&json!({"seat": mover, "step": legal[0], "from": 6, "to": 8}).to_string()),
        )
        .await;
        assert_eq!(st, 400);
        assert_eq!(
            get(&s, url).await,
            before,
            "refused requests changed the game"
        );
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_name_the_rule_behind_them_and_the_rules_text_has_it() {
    let s = start(&temp_db("rule-links")).await;
    let pg = person_game(&s, "chaupar", 3).await;
    post(&s, &format!("{}/throw", pg.url), &json!({"seat": pg.mover})).await;
    // A piece that may move, asked to go 30 squares: more than the throw's points.
    let g = get(&s, &pg.url).await;
    let from = g["turn"]["legal"][0]["from"].as_u64().unwrap();
    let (st, why) = req(
        &s,
        "POST",
        &format!("{}/check", pg.url),
        Some(&json!({"seat": pg.mover, "from": from, "to": from + 30}).to_string()),
    )
    .await;
    assert_eq!(st, 200, "{why}");
    assert_eq!(why["allowed"], false, "{why}");
    let rule = why["rule"]
        .as_str()
        .unwrap_or_else(|| panic!("no rule: {why}"));
    // An illegal step's error names it too.
    let mut step = g["turn"]["legal"][0].clone();
    step["to"] = json!(from + 30);
    step["by"] = json!(30);
    let (st, err) = req(
        &s,
        "POST",
        &format!("{}/step", pg.url),
        Some(&json!({"seat": pg.mover, "step": step}).to_string()),
    )
    .await;
    assert_eq!(st, 422, "{err}");
    assert!(err["rule"].is_string(), "{err}");
    // Every rule a refusal may name is a heading of the rules text.
    let html = get(&s, "/api/rules").await["html"]
        .as_str()
        .unwrap()
        .to_string();
    for r in [
        rule,
        "throw",
        "stacking",
        "the-charkoni-and-home",
        "split",
        "tohd",
        "order",
        "blockade",
        "capture",
        "safe",
        "maximum-use-of-the-throw",
        "block_turns",
    ] {
        assert!(
            html.contains(&format!("id=\"{r}-")) || html.contains(&format!("id=\"{r}\"")),
            "no heading for rule {r}"
        );
    }
    assert!(g["turn"].is_object());
    s.stop().await;
}
