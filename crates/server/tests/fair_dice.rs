//! Fair dice over the API: the commitment shown and the secret hidden while a
//! game runs, the secret revealed and every throw verified once it is over,
//! practice games marked, client seeds checked, imports as archives or continued
//! with fresh dice, and committed dice resumed after a restart.
mod common;

use chaupar_core::fair::{self, ClientSeed, ClientSeeds, DiceCommit, DiceSecret};
use chaupar_core::record::{self, VerifyError};
use chaupar_core::{Colour, Throw};
use common::*;
use serde_json::{json, Value};

const COMPUTERS: &str =
    r#"{"yellow": {"kind": "computer", "level": 1}, "black": {"kind": "computer", "level": 1}}"#;

fn computers() -> Value {
    serde_json::from_str(COMPUTERS).unwrap()
}

async fn record_of(s: &Server, id: &str) -> String {
    let (st, text) = raw(s, "GET", &format!("/api/games/{id}/record"), None).await;
    assert_eq!(st, 200, "{text}");
    text
}

/// Checks a finished game's dice from its JSON state alone, as the page does.
fn verify_view(g: &Value) -> Result<usize, fair::FairError> {
    let d = &g["dice"];
    let commit: DiceCommit = d["commit"].as_str().unwrap().parse().unwrap();
    let secret: DiceSecret = d["secret"].as_str().unwrap().parse().unwrap();
    let mut seeds = ClientSeeds::default();
    for (c, s) in d["seeds"].as_object().unwrap() {
        let seed: ClientSeed = s["seed"].as_str().unwrap().parse().unwrap();
        seeds.set(
            c.parse::<Colour>().unwrap(),
            seed,
            s["from"].as_u64().unwrap(),
        );
    }
    let throw = |v: &Value| -> Throw {
        let a: Vec<u64> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        format!("{},{},{}", a[0], a[1], a[2]).parse().unwrap()
    };
    let mut throws: Vec<Throw> = d["throw_off"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| throw(&t["throw"]))
        .collect();
    throws.extend(
        g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| throw(&m["throw"])),
    );
    let from = d["from"].as_u64().unwrap();
    let faces = chaupar_core::Rules::parse_compact(g["rules"].as_str().unwrap())
        .unwrap()
        .faces;
    fair::verify_from(
        &commit,
        &secret,
        &seeds,
        faces,
        from,
        &throws[from as usize..],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_secret_is_hidden_while_the_game_runs_and_every_throw_verifies_at_the_end() {
    let s = start(&temp_db("fair-end")).await;
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 2, "seats": computers(), "delay_ms": 10,
                "client_seeds": {"yellow": "Yellow-seed_1"}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let commit = g["dice"]["commit"].as_str().unwrap().to_string();
    assert_eq!(commit.len(), 64);
    assert_eq!(g["dice"]["practice"], false);
    assert_eq!(g["dice"]["archive"], false);
    assert_eq!(
        g["dice"]["seeds"],
        json!({"yellow": {"seed": "Yellow-seed_1", "from": 0}})
    );
    assert!(g["dice"].get("secret").is_none(), "{}", g["dice"]);
    assert!(!g["dice"]["throw_off"].as_array().unwrap().is_empty());
    // While it runs: the state, the list and the record show the commitment only.
    let running_state = get(&s, &format!("/api/games/{id}")).await.to_string();
    let running_list = get(&s, "/api/games").await.to_string();
    let running_record = record_of(&s, &id).await;
    assert!(
        running_record.contains("[Result \"*\"]"),
        "{running_record}"
    );
    assert!(running_record.contains(&format!("[DiceCommit \"{commit}\"]")));
    assert!(running_record.contains("[ClientSeed \"yellow 0 Yellow-seed_1\"]"));
    assert!(!running_record.contains("[Seed") && !running_record.contains("DiceSecret"));
    assert_eq!(record::verify(&running_record), Err(VerifyError::NoSecret));

    let done = wait_over(&s, &id, 120).await;
    let secret = done["dice"]["secret"].as_str().unwrap().to_string();
    let opened: DiceSecret = secret.parse().unwrap();
    assert_eq!(opened.commitment().to_string(), commit);
    for text in [
        &g.to_string(),
        &running_state,
        &running_list,
        &running_record,
    ] {
        assert!(
            !text.contains(&secret),
            "the secret showed while the game ran"
        );
    }
    let listed = get(&s, "/api/games").await;
    assert!(
        !listed.to_string().contains(&secret),
        "the list never shows the secret"
    );
    assert_eq!(listed["games"][0]["summary"]["practice"], false);

    // The finished game's record carries the secret and verifies; so do the
    // state's dice, as the page checks them.
    let text = record_of(&s, &id).await;
    assert!(text.contains(&format!("[DiceSecret \"{secret}\"]")));
    let n = done["dice"]["throw_off"].as_array().unwrap().len()
        + done["moves"].as_array().unwrap().len();
    assert_eq!(record::verify(&text), Ok(n));
    assert_eq!(verify_view(&done), Ok(n));

    // A tampered throw is named; a wrong secret is refused.
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines.iter().position(|l| l.starts_with("2. ")).unwrap();
    let mut words: Vec<&str> = lines[at].split(' ').collect();
    let new = if words[2] == "1,1,1" {
        "2,2,2"
    } else {
        "1,1,1"
    };
    words[2] = new;
    let mut tampered = lines.clone();
    tampered[at] = words.join(" ");
    let off = done["dice"]["throw_off"].as_array().unwrap().len() as u64;
    match record::verify(&tampered.join("\n")) {
        Err(VerifyError::Fair(fair::FairError::Throw { n, .. })) => assert_eq!(n, off + 1),
        other => panic!("{other:?}"),
    }
    let wrong = text.replace(&secret, &"ab".repeat(32));
    assert_eq!(
        record::verify(&wrong),
        Err(VerifyError::Fair(fair::FairError::Commitment))
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chosen_seed_makes_a_practice_game() {
    let s = start(&temp_db("fair-practice")).await;
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chaupar", "seed": 5, "delay_ms": 0}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["dice"]["practice"], true);
    assert_eq!(g["dice"]["commit"], Value::Null);
    assert!(record_of(&s, id).await.contains("[Seed \"5\"]"));
    let list = get(&s, "/api/games").await;
    assert_eq!(list["games"][0]["summary"]["practice"], true);
    // A practice game takes no client seeds.
    let (st, v) = req(
        &s,
        "POST",
        "/api/games",
        Some(&json!({"preset": "chaupar", "seed": 5, "client_seeds": {"red": "x"}}).to_string()),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("practice"), "{v}");
    // An imported record with [Seed] is a practice game too.
    let text = record_of(&s, id).await;
    let imported = post(&s, "/api/import", &json!({"record": text})).await;
    assert_eq!(imported["dice"]["practice"], true);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_client_seeds_are_refused_and_make_nothing() {
    let s = start(&temp_db("fair-seeds")).await;
    let long = "x".repeat(65);
    for seeds in [
        json!({"yellow": ""}),
        json!({"yellow": "a b"}),
        json!({"yellow": "é"}),
        json!({"yellow": long}),
        json!({"yellow": 7}),
        json!({"purple": "abc"}),
        json!({"green": "abc"}),
        json!(["abc"]),
        json!("abc"),
    ] {
        let body = json!({"preset": "chausar", "players": 3, "client_seeds": seeds}).to_string();
        let (st, v) = req(&s, "POST", "/api/games", Some(&body)).await;
        assert_eq!(st, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains("client_seeds"), "{v}");
    }
    assert_eq!(get(&s, "/api/games").await["games"], json!([]));
    let ok = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 3,
        "client_seeds": {"yellow": "a", "red": "B-2", "black": "x".repeat(64)}}),
    )
    .await;
    assert_eq!(
        ok["dice"]["seeds"]["red"],
        json!({"seed": "B-2", "from": 0})
    );
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_without_seed_or_secret_are_archives_or_go_on_with_fresh_dice() {
    let s = start(&temp_db("fair-import")).await;
    // A game some turns in, its record without its seed.
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 2, "seed": 3,
        "seats": computers(), "delay_ms": 0}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    wait_over(&s, id, 120).await;
    let full = record_of(&s, id).await;
    let cut: Vec<&str> = full
        .lines()
        .filter(|l| !l.starts_with("[Seed") && !l.starts_with("[Result"))
        .take_while(|l| !l.starts_with("21. "))
        .collect();
    let text = cut.join("\n");

    // Import checks delay_ms as creation does, and makes nothing when refused.
    let before = get(&s, "/api/games").await["games"]
        .as_array()
        .unwrap()
        .len();
    let (st, v) = req(
        &s,
        "POST",
        "/api/import",
        Some(&json!({"record": text, "delay_ms": 60001}).to_string()),
    )
    .await;
    assert_eq!(st, 422, "{v}");
    let (st, v) = req(
        &s,
        "POST",
        "/api/import",
        Some(&json!({"record": text, "continue": "yes"}).to_string()),
    )
    .await;
    assert_eq!(st, 400, "{v}");
    assert_eq!(
        get(&s, "/api/games").await["games"]
            .as_array()
            .unwrap()
            .len(),
        before
    );

    // Without "continue": an archive; actions are refused and change nothing.
    let a = post(&s, "/api/import", &json!({"record": text})).await;
    let aid = a["id"].as_str().unwrap();
    assert_eq!(a["dice"]["archive"], true);
    assert_eq!(a["dice"]["practice"], false);
    let mover = a["to_move"].as_str().unwrap();
    let (st, v) = req(
        &s,
        "POST",
        &format!("/api/games/{aid}/throw"),
        Some(&json!({"seat": mover}).to_string()),
    )
    .await;
    assert_eq!(st, 409, "{v}");
    assert!(v["error"].as_str().unwrap().contains("archive"), "{v}");
    let again = get(&s, &format!("/api/games/{aid}")).await;
    assert_eq!(again["turn"], Value::Null);
    assert_eq!(again["moves"], a["moves"]);

    // With "continue": fresh committed dice from the next throw on; the
    // computers play it out and the dice from there verify.
    let c = post(
        &s,
        "/api/import",
        &json!({"record": text, "continue": true,
        "seats": computers(), "delay_ms": 0}),
    )
    .await;
    let cid = c["id"].as_str().unwrap();
    assert_eq!(c["dice"]["archive"], false);
    let k = c["dice"]["throw_off"].as_array().unwrap().len() + 20;
    assert_eq!(c["dice"]["from"], json!(k));
    assert_eq!(c["dice"]["commit"].as_str().unwrap().len(), 64);
    let done = wait_over(&s, cid, 120).await;
    let rec = record_of(&s, cid).await;
    assert!(rec.contains(&format!("[DiceFrom \"{k}\"]")), "{rec}");
    let made = done["moves"].as_array().unwrap().len() - 20;
    assert_eq!(record::verify(&rec), Ok(made));
    assert_eq!(verify_view(&done), Ok(made));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn committed_dice_resume_after_a_restart() {
    let db = temp_db("fair-restart");
    let s = start(&db).await;
    let g = post(
        &s,
        "/api/games",
        &json!({"preset": "chausar", "players": 2,
        "seats": computers(), "delay_ms": 5, "client_seeds": {"black": "b"}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    s.stop().await;
    let s = start(&db).await;
    let mid = get(&s, &format!("/api/games/{id}")).await;
    assert_eq!(mid["dice"]["commit"], g["dice"]["commit"]);
    let done = wait_over(&s, &id, 120).await;
    let rec = record_of(&s, &id).await;
    let n = done["dice"]["throw_off"].as_array().unwrap().len()
        + done["moves"].as_array().unwrap().len();
    assert_eq!(record::verify(&rec), Ok(n));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_database_gets_the_dice_column_and_its_games_load() {
    use sqlx::Connection;
    let db = temp_db("fair-old-db");
    {
        let url = format!("sqlite://{db}?mode=rwc");
        let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
        sqlx::query(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created BIGINT NOT NULL,
             updated BIGINT NOT NULL, record TEXT NOT NULL, partial TEXT NOT NULL,
             seats TEXT NOT NULL, delay_ms BIGINT NOT NULL, status TEXT NOT NULL,
             summary TEXT NOT NULL)",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        let game = chaupar_core::Game::new(
            chaupar_core::Rules::preset(chaupar_core::Preset::Chaupar),
            4,
            12,
        )
        .unwrap();
        sqlx::query("INSERT INTO games VALUES ('0123456789ab', 1, 1, $1, '{\"thrown\":false,\"steps\":[]}', '{}', 0, 'playing', '{}')")
            .bind(record::write(&game, &[]))
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
    }
    let s = start(&db).await;
    let g = get(&s, "/api/games/0123456789ab").await;
    assert_eq!(g["dice"]["practice"], true);
    let fresh = post(&s, "/api/games", &json!({"preset": "chaupar"})).await;
    assert_eq!(fresh["dice"]["commit"].as_str().unwrap().len(), 64);
    s.stop().await;
    // Opening it again leaves the column as it is.
    let s = start(&db).await;
    let again = get(&s, &format!("/api/games/{}", fresh["id"].as_str().unwrap())).await;
    assert_eq!(again["dice"]["commit"], fresh["dice"]["commit"]);
    s.stop().await;
}
