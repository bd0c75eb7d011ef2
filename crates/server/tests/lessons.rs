//! The lessons: the shipped data checked lesson by lesson (a valid position, a
//! throw of its dice, a task some legal play meets and some legal play fails,
//! words in both languages), and the lessons' API (list, try, answer, refusals).
mod common;

use std::collections::HashSet;

use chaupar_core::json::step_value;
use chaupar_core::play::apply_play;
use chaupar_core::{legal_plays, Preset};
use chaupar_server::lessons::{self, Goal, Lesson};
use common::*;
use serde_json::{json, Value};

fn all() -> &'static [Lesson] {
    lessons::all().expect("data/lessons.json reads")
}

#[test]
fn every_lesson_is_a_real_position_with_a_task_that_some_play_meets_and_some_play_fails() {
    for l in all() {
        let pos = l.start().unwrap_or_else(|e| panic!("{e}"));
        assert!(pos.to_move().is_some(), "{}: somebody must throw", l.id);
        assert_eq!(
            pos.rules().preset.name(),
            l.preset,
            "{}: the preset named is the position's",
            l.id
        );
        let throw = l.throw_of(&pos).unwrap_or_else(|e| panic!("{e}"));
        let plays = legal_plays(&pos, throw).unwrap();
        let meeting = plays
            .iter()
            .filter(|p| l.goal.met(&pos, &p.position))
            .count();
        assert!(meeting > 0, "{}: no legal play meets the goal", l.id);
        assert!(
            meeting < plays.len(),
            "{}: every legal play meets the goal: nothing to learn",
            l.id
        );
        // The answer is legal step by step and meets the goal.
        let answer = l.answer().unwrap().expect("an answer");
        let end = apply_play(&pos, throw, &answer.steps)
            .unwrap_or_else(|(i, e)| panic!("{}: answer step {i}: {e}", l.id));
        assert!(l.goal.met(&pos, &end), "{}", l.id);
        assert!(l.judge(&pos, &end).is_ok(), "{}", l.id);
        // A failing play is told why, in both languages.
        let fail = plays
            .iter()
            .find(|p| !l.goal.met(&pos, &p.position))
            .unwrap();
        let why = l.judge(&pos, &fail.position).unwrap_err();
        assert!(!why.en.is_empty() && !why.ru.is_empty(), "{}", l.id);
    }
}

#[test]
fn every_lesson_has_its_words_in_english_and_russian() {
    let cyrillic = |s: &str| {
        s.chars()
            .any(|c| ('а'..='я').contains(&c.to_ascii_lowercase()) || ('А'..='Я').contains(&c))
    };
    for l in all() {
        for (what, w) in [
            ("title", &l.title),
            ("text", &l.text),
            ("task", &l.task),
            ("hint", &l.hint),
        ] {
            assert!(
                w.en.trim().len() > 2,
                "{}: {what} in English is empty",
                l.id
            );
            assert!(
                w.ru.trim().len() > 2,
                "{}: {what} in Russian is empty",
                l.id
            );
            assert!(
                cyrillic(&w.ru),
                "{}: {what} in Russian is not Russian",
                l.id
            );
            assert_ne!(w.en, w.ru, "{}: {what} is not translated", l.id);
        }
    }
}

#[test]
fn the_lessons_are_many_with_unique_plain_ids_and_cover_every_preset() {
    let ls = all();
    assert!(ls.len() >= 12, "at least 12 lessons, not {}", ls.len());
    let ids: HashSet<&str> = ls.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids.len(), ls.len(), "ids are unique");
    for l in ls {
        assert!(
            !l.id.is_empty()
                && l.id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{}: ids are lower-case letters, digits and -",
            l.id
        );
    }
    for p in [Preset::Chaupar, Preset::Chausar, Preset::Classic] {
        let n = ls.iter().filter(|l| l.preset == p.name()).count();
        assert!(n >= 3, "{} has {n} lessons", p.name());
    }
    // The rules the lessons teach, each by a goal somewhere.
    let goals: Vec<String> = ls
        .iter()
        .map(|l| serde_json::to_string(&l.goal).unwrap())
        .collect();
    for kind in [
        "captured",
        "stack_of",
        "home",
        "pieces_at",
        "block",
        "passed_points",
        "extra_throw",
        "won",
    ] {
        assert!(
            goals.iter().any(|g| g.contains(kind)),
            "no lesson asks for {kind}"
        );
    }
}

#[test]
fn goals_read_strictly() {
    let g: Goal =
        serde_json::from_str(r#"{"all": [{"captured": "red"}, {"stack_of": 2}]}"#).unwrap();
    assert_eq!(
        g,
        Goal::All(vec![
            Goal::Captured(chaupar_core::Colour::Red),
            Goal::StackOf(2)
        ])
    );
    for bad in [
        r#"{"captured": "pink"}"#,
        r#"{"stacks": 2}"#,
        r#"{"pieces_at": {"progress": 3, "count": 1, "x": 1}}"#,
        r#"{}"#,
    ] {
        assert!(
            serde_json::from_str::<Goal>(bad).is_err(),
            "{bad} is refused"
        );
    }
}

fn find(id: &str) -> &'static Lesson {
    lessons::find(id).unwrap()
}

/// The steps of the lesson's answer as JSON.
fn answer_steps(l: &Lesson) -> Vec<Value> {
    l.answer()
        .unwrap()
        .unwrap()
        .steps
        .iter()
        .map(step_value)
        .collect()
}

/// The steps of a legal play that fails the lesson's goal.
fn failing_steps(l: &Lesson) -> Vec<Value> {
    let pos = l.start().unwrap();
    let plays = legal_plays(&pos, l.throw_of(&pos).unwrap()).unwrap();
    let p = plays
        .iter()
        .find(|p| !l.goal.met(&pos, &p.position))
        .unwrap();
    p.steps.iter().map(step_value).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_lists_tries_and_answers_lessons() {
    let s = start(&temp_db("lessons-api")).await;
    let (st, list) = req(&s, "GET", "/api/lessons", None).await;
    assert_eq!(st, 200);
    let items = list["lessons"].as_array().unwrap();
    assert_eq!(items.len(), all().len());
    for (item, l) in items.iter().zip(all()) {
        assert_eq!(item["id"], l.id);
        assert_eq!(item["preset"], l.preset);
        for k in ["title", "text", "task", "hint"] {
            assert!(item[k]["en"].as_str().is_some_and(|t| !t.is_empty()), "{k}");
            assert!(item[k]["ru"].as_str().is_some_and(|t| !t.is_empty()), "{k}");
        }
        assert_eq!(
            item["position"]["rules"], l.preset,
            "position JSON as docs/notation.md"
        );
        assert!(item["position"]["pieces"].is_object());
        assert_eq!(item["throw"], json!(l.throw));
    }

    // Nothing taken yet: the turn with its legal steps, not done.
    let l = find("capture");
    let (st, r) = req(
        &s,
        "POST",
        "/api/lessons/capture/try",
        Some(r#"{"steps": []}"#),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["done"], false);
    assert!(r.get("solved").is_none());
    assert!(!r["turn"]["legal"].as_array().unwrap().is_empty());
    assert_eq!(r["turn"]["throw"], json!(l.throw));
    assert_eq!(r["position"]["to_move"], "yellow");

    // A step the rules refuse: 422 with the reason in both languages.
    let wrong = json!({"steps": [{"colour": "yellow", "from": 24, "to": 27, "pieces": 1, "by": 3, "dice": 0}, {"colour": "yellow", "from": 7, "to": 17, "pieces": 1, "by": 10, "dice": 0}]});
    let (st, r) = req(
        &s,
        "POST",
        "/api/lessons/capture/try",
        Some(&wrong.to_string()),
    )
    .await;
    assert_eq!(st, 422, "{r}");
    assert!(r["error"].as_str().is_some_and(|e| !e.is_empty()), "{r}");
    assert!(r["error_ru"].as_str().is_some_and(|e| !e.is_empty()), "{r}");

    // The answer solves every lesson; a failing legal play is told why.
    for l in all() {
        let (st, a) = req(&s, "GET", &format!("/api/lessons/{}/answer", l.id), None).await;
        assert_eq!(st, 200, "{}: {a}", l.id);
        assert_eq!(a["steps"], json!(answer_steps(l)));
        assert!(a["notation"].as_str().is_some());
        let body = json!({"steps": a["steps"], "end": true}).to_string();
        let (st, r) = req(
            &s,
            "POST",
            &format!("/api/lessons/{}/try", l.id),
            Some(&body),
        )
        .await;
        assert_eq!(st, 200, "{}: {r}", l.id);
        assert_eq!(r["done"], true, "{}", l.id);
        assert_eq!(r["solved"], true, "{}: {r}", l.id);
        assert!(r.get("why").is_none());

        let body = json!({"steps": failing_steps(l), "end": true}).to_string();
        let (st, r) = req(
            &s,
            "POST",
            &format!("/api/lessons/{}/try", l.id),
            Some(&body),
        )
        .await;
        assert_eq!(st, 200, "{}: {r}", l.id);
        assert_eq!(r["done"], true);
        assert_eq!(r["solved"], false, "{}: {r}", l.id);
        assert!(r["why"].as_str().is_some_and(|w| !w.is_empty()), "{r}");
        assert!(r["why_ru"].as_str().is_some_and(|w| !w.is_empty()), "{r}");
    }

    // The steps of the answer without "end": not done yet, the turn may end.
    let steps = answer_steps(find("tohd"));
    let body = json!({"steps": steps}).to_string();
    let (st, r) = req(&s, "POST", "/api/lessons/tohd/try", Some(&body)).await;
    assert_eq!(st, 200);
    assert_eq!(r["done"], false);
    assert_eq!(r["turn"]["can_end"], true);
    assert_eq!(
        r["position"]["pieces"]["yellow"].as_array().unwrap().last(),
        Some(&json!(84))
    );

    // Why a clicked move is refused, as the game's check answers it.
    let (st, r) = req(
        &s,
        "POST",
        "/api/lessons/capture-by-size/check",
        Some(r#"{"steps": [], "from": 21, "to": 26}"#),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["allowed"], false);
    assert!(r["why"].as_str().is_some_and(|w| !w.is_empty()), "{r}");
    assert!(r["why_ru"].as_str().is_some_and(|w| !w.is_empty()), "{r}");
    let (st, r) = req(
        &s,
        "POST",
        "/api/lessons/capture-by-size/check",
        Some(r#"{"steps": [], "colour": "yellow", "from": 20, "to": 26}"#),
    )
    .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r, json!({"allowed": true}));
    let (st, r) = req(
        &s,
        "POST",
        "/api/lessons/tohd/check",
        Some(r#"{"steps": [], "from": 79, "to": 84}"#),
    )
    .await;
    assert_eq!((st, &r["allowed"]), (200, &json!(false)), "{r}");
    let body = json!({"steps": [answer_steps(find("tohd"))[0]], "from": 79, "to": 84}).to_string();
    let (st, r) = req(&s, "POST", "/api/lessons/tohd/check", Some(&body)).await;
    assert_eq!(
        (st, &r["allowed"]),
        (200, &json!(true)),
        "after the capture the piece may go home: {r}"
    );

    // Ending before the throw is used: refused with why.
    let (st, r) = req(
        &s,
        "POST",
        "/api/lessons/tohd/try",
        Some(r#"{"steps": [], "end": true}"#),
    )
    .await;
    assert_eq!(st, 422, "{r}");
    assert!(r["error_ru"].is_string());
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_lesson_requests_are_refused_with_json() {
    let s = start(&temp_db("lessons-bad")).await;
    let step = json!({"colour": "yellow", "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 0});
    let too_many = json!({"steps": vec![step; 33]}).to_string();
    for (path, body, status) in [
        (
            "/api/lessons/no-such/try",
            r#"{"steps": []}"#.to_string(),
            404,
        ),
        ("/api/lessons/capture/try", "not json".to_string(), 400),
        (
            "/api/lessons/capture/try",
            r#"{"steps": [], "extra": 1}"#.to_string(),
            400,
        ),
        (
            "/api/lessons/capture/try",
            r#"{"steps": [{"colour": "pink"}]}"#.to_string(),
            400,
        ),
        ("/api/lessons/capture/try", r#"{}"#.to_string(), 400),
        ("/api/lessons/capture/try", too_many.clone(), 400),
        (
            "/api/lessons/no-such/check",
            r#"{"steps": [], "from": 1, "to": 2}"#.to_string(),
            404,
        ),
        (
            "/api/lessons/capture/check",
            r#"{"steps": [], "from": 1}"#.to_string(),
            400,
        ),
        (
            "/api/lessons/capture/check",
            r#"{"steps": [], "from": 1, "to": 2, "seat": "yellow"}"#.to_string(),
            400,
        ),
        (
            "/api/lessons/capture/check",
            too_many.replace("]}", "], \"from\": 1, \"to\": 2}"),
            400,
        ),
    ] {
        let (st, r) = req(&s, "POST", path, Some(&body)).await;
        assert_eq!(st, status, "{path} {body}: {r}");
        assert!(r["error"].as_str().is_some_and(|e| !e.is_empty()), "{r}");
    }
    let (st, r) = req(&s, "GET", "/api/lessons/no-such/answer", None).await;
    assert_eq!(st, 404);
    assert!(r["error"].is_string());
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clicked_piece_that_cannot_move_is_told_why_with_its_rule() {
    let s = start(&temp_db("lessons-stuck")).await;
    let check = |path: &'static str, body: &'static str| {
        let s = &s;
        async move {
            let (st, r) = req(s, "POST", path, Some(body)).await;
            assert_eq!(st, 200, "{path} {body}: {r}");
            r
        }
    };
    // A piece that can move: allowed.
    let r = check(
        "/api/lessons/capture-by-size/check",
        r#"{"steps": [], "piece": 20}"#,
    )
    .await;
    assert_eq!(r, json!({"allowed": true}));
    // The piece next to home waits for Black (team order), whatever the distance.
    let r = check(
        "/api/lessons/team-order/check",
        r#"{"steps": [], "piece": 83}"#,
    )
    .await;
    assert_eq!(
        (&r["allowed"], &r["rule"]),
        (&json!(false), &json!("order")),
        "{r}"
    );
    assert!(
        r["why"].as_str().is_some_and(|w| w.contains("Black")),
        "{r}"
    );
    assert!(r["why_ru"].as_str().is_some_and(|w| !w.is_empty()), "{r}");
    // Yellow short of home with more than it needs: overshoot, not the dice.
    let r = check(
        "/api/lessons/passed-points/check",
        r#"{"steps": [], "colour": "yellow", "piece": 81}"#,
    )
    .await;
    assert_eq!(
        (&r["allowed"], &r["rule"]),
        (&json!(false), &json!("the-charkoni-and-home")),
        "{r}"
    );
    // An enemy's piece: not its part of the turn.
    let r = check(
        "/api/lessons/capture-by-size/check",
        r#"{"steps": [], "colour": "red", "piece": 9}"#,
    )
    .await;
    assert_eq!(
        (&r["allowed"], &r["rule"]),
        (&json!(false), &json!("throw")),
        "{r}"
    );
    assert!(r["why"].as_str().is_some_and(|w| w.contains("Red")), "{r}");
    // Nothing there: told so, with no rule to link.
    let r = check("/api/lessons/tohd/check", r#"{"steps": [], "piece": 50}"#).await;
    assert_eq!(r["allowed"], false, "{r}");
    assert!(r["why"].is_string() && r.get("rule").is_none(), "{r}");
    // The move form names its rule too.
    let r = check(
        "/api/lessons/tohd/check",
        r#"{"steps": [], "from": 79, "to": 84}"#,
    )
    .await;
    assert_eq!(
        (&r["allowed"], &r["rule"]),
        (&json!(false), &json!("tohd")),
        "{r}"
    );
    // Mixed or partial forms, too many steps, no such lesson: refused.
    let step = json!({"colour": "yellow", "from": 6, "to": 7, "pieces": 1, "by": 1, "dice": 0});
    let too_many = json!({"steps": vec![step; 33], "piece": 79}).to_string();
    for (path, body, status) in [
        (
            "/api/lessons/tohd/check",
            r#"{"steps": [], "piece": 79, "from": 79}"#.to_string(),
            400,
        ),
        (
            "/api/lessons/tohd/check",
            r#"{"steps": [], "piece": 79, "to": 84}"#.to_string(),
            400,
        ),
        (
            "/api/lessons/tohd/check",
            r#"{"steps": [], "to": 84}"#.to_string(),
            400,
        ),
        (
            "/api/lessons/tohd/check",
            r#"{"steps": [], "piece": 300}"#.to_string(),
            400,
        ),
        ("/api/lessons/tohd/check", too_many, 400),
        (
            "/api/lessons/no-such/check",
            r#"{"steps": [], "piece": 1}"#.to_string(),
            404,
        ),
    ] {
        let (st, r) = req(&s, "POST", path, Some(&body)).await;
        assert_eq!(st, status, "{path} {body}: {r}");
        assert!(r["error"].as_str().is_some_and(|e| !e.is_empty()), "{r}");
    }
    s.stop().await;
}
