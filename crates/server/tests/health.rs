//! For whoever runs the server: `/healthz` answers while the database does,
//! and `/metrics` is Prometheus text whose series move with the actions and
//! the WebSockets, and which names no game, token or client. (A database that
//! does not answer is tested in `api::health`'s unit tests: the server cannot
//! start without one.)
mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::*;
use futures_util::SinkExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// The samples of a `/metrics` text, by series (`name{labels}`), after
/// checking every line: `# HELP name text`, `# TYPE name kind`, or a sample
/// of a family whose type was given, with a number for its value.
fn parse(text: &str) -> BTreeMap<String, f64> {
    let mut types: BTreeMap<String, String> = BTreeMap::new();
    let mut helped = Vec::new();
    let mut samples = BTreeMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("# HELP ") {
            let (name, help) = rest.split_once(' ').expect(line);
            assert!(!help.trim().is_empty(), "no help: {line}");
            helped.push(name.to_string());
        } else if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect(line);
            assert!(
                ["counter", "gauge", "histogram", "summary", "untyped"].contains(&kind),
                "{line}"
            );
            assert!(
                helped.contains(&name.to_string()),
                "TYPE before HELP: {line}"
            );
            types.insert(name.to_string(), kind.to_string());
        } else {
            assert!(!line.starts_with('#'), "unknown comment: {line}");
            let (series, value) = line.rsplit_once(' ').expect(line);
            let value: f64 = match value {
                "+Inf" => f64::INFINITY,
                "-Inf" => f64::NEG_INFINITY,
                v => v.parse().unwrap_or_else(|_| panic!("not a number: {line}")),
            };
            let name = series.split('{').next().unwrap();
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':'),
                "{line}"
            );
            if let Some(labels) = series.strip_prefix(name) {
                if !labels.is_empty() {
                    assert!(labels.starts_with('{') && labels.ends_with('}'), "{line}");
                    for pair in labels[1..labels.len() - 1].split(',') {
                        let (k, v) = pair.split_once('=').expect(line);
                        assert!(!k.is_empty(), "{line}");
                        assert!(v.starts_with('"') && v.ends_with('"'), "{line}");
                    }
                }
            }
            let family = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|s| {
                    let base = name.strip_suffix(s)?;
                    (types.get(base).map(String::as_str) == Some("histogram")).then_some(base)
                })
                .unwrap_or(name);
            assert!(types.contains_key(family), "sample without TYPE: {line}");
            assert!(family.starts_with("chaupar_"), "{line}");
            samples.insert(series.to_string(), value);
        }
    }
    samples
}

/// The metrics now: the text and its samples.
async fn scrape(s: &Server) -> (String, BTreeMap<String, f64>) {
    let (status, text) = raw(s, "GET", "/metrics", None).await;
    assert_eq!(status, 200, "{text}");
    let samples = parse(&text);
    (text, samples)
}

fn sample(m: &BTreeMap<String, f64>, series: &str) -> f64 {
    *m.get(series)
        .unwrap_or_else(|| panic!("no {series} in /metrics: {m:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_while_the_database_does_and_is_not_rate_limited() {
    // The default limits: a proxy's health checks come from one address.
    let s = start_with(&temp_db("healthz"), chaupar_server::Limits::default()).await;
    for _ in 0..80 {
        let (status, v) = req(&s, "GET", "/healthz", None).await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v, json!({"ok": true}));
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_actions_and_name_no_game_or_client() {
    let s = start(&temp_db("metrics")).await;
    let g = person_game(&s, "chaupar", 7).await;
    let (_, before) = scrape(&s).await;
    let ok = "chaupar_actions_total{action=\"throw\",outcome=\"ok\"}";
    let refused = "chaupar_actions_total{action=\"step\",outcome=\"refused\"}";
    let throws = "chaupar_action_seconds_count{action=\"throw\"}";
    let steps = "chaupar_action_seconds_count{action=\"step\"}";

    post(&s, &format!("{}/throw", g.url), &json!({"seat": g.mover})).await;
    // A step without its step: refused.
    let (status, v) = req(
        &s,
        "POST",
        &format!("{}/step", g.url),
        Some(&json!({"seat": g.mover}).to_string()),
    )
    .await;
    assert!((400..500).contains(&status), "{status} {v}");

    let (text, after) = scrape(&s).await;
    assert!(sample(&after, ok) >= sample(&before, ok) + 1.0);
    assert!(sample(&after, refused) >= sample(&before, refused) + 1.0);
    assert!(sample(&after, throws) >= sample(&before, throws) + 1.0);
    assert!(sample(&after, steps) >= sample(&before, steps) + 1.0);
    // The buckets run from 1 ms to 5 s, and +Inf counts every action.
    let bucket =
        |le: &str| format!("chaupar_action_seconds_bucket{{action=\"throw\",le=\"{le}\"}}");
    assert!(after.contains_key(&bucket("0.001")) && after.contains_key(&bucket("5")));
    assert_eq!(sample(&after, &bucket("+Inf")), sample(&after, throws));
    assert!(sample(&after, "chaupar_games_in_memory") >= 1.0);
    assert!(
        sample(&after, "chaupar_http_requests_total{class=\"2xx\"}")
            > sample(&before, "chaupar_http_requests_total{class=\"2xx\"}")
    );
    assert!(after.contains_key("chaupar_database_errors_total"));
    assert!(after.contains_key("chaupar_websockets_open"));

    // Nothing per game or per client.
    let h = held(&g.id);
    let secrets = h.seats.values().chain(h.owner.as_ref());
    for secret in secrets.chain([&g.id, &"127.0.0.1".to_string()]) {
        assert!(!text.contains(secret.as_str()), "/metrics shows {secret}");
    }
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_websockets_are_counted_until_they_close() {
    let s = start(&temp_db("metrics-ws")).await;
    let g = person_game(&s, "chaupar", 8).await;
    let open = |m: &BTreeMap<String, f64>| sample(m, "chaupar_websockets_open");
    let before = open(&scrape(&s).await.1);
    // Waits until the gauge shows `want`.
    let until = |want: f64| {
        let s = &s;
        async move {
            for _ in 0..100 {
                if open(&scrape(s).await.1) == want {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            panic!("chaupar_websockets_open is not {want}");
        }
    };

    let url = format!("ws://{}/api/games/{}/ws", s.addr, g.id);
    let (mut a, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let (b, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    until(before + 2.0).await;
    a.send(Message::Close(None)).await.unwrap();
    drop(a);
    until(before + 1.0).await;
    // A socket dropped without a close frame counts down too.
    drop(b);
    until(before).await;
    s.stop().await;
}
