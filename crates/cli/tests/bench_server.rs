//! `chaupar bench-server`: a short run against a server it starts, its report
//! as JSON, and the crash run (SIGKILL and restart) losing no acknowledged action.

mod common;

use common::chaupar;
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A JSON file path of this test's own.
fn json_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("chaupar-bench-{}-{name}.json", std::process::id()))
}

/// Runs `bench-server` with `args` and `--json`; answers the exit code, the
/// printed table and the JSON report.
fn bench(name: &str, args: &[&str]) -> (Option<i32>, String, Value) {
    let path = json_path(name);
    let p = path.to_str().unwrap();
    let mut all = vec!["bench-server"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--json", p]);
    let out = chaupar(&all, "");
    let table = String::from_utf8_lossy(&out.stdout).to_string();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "no report ({e}): {table}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let _ = std::fs::remove_file(&path);
    (
        out.status.code(),
        table,
        serde_json::from_str(&text).unwrap(),
    )
}

fn n(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not a count: {v}"))
}

#[test]
fn short_run_plays_and_loses_nothing() {
    let started = Instant::now();
    let (code, table, r) = bench(
        "short",
        &[
            "--spawn",
            "--games",
            "10",
            "--seconds",
            "4",
            "--think-ms",
            "50",
        ],
    );
    assert_eq!(code, Some(0), "{table}\n{r}");
    assert_eq!(n(&r, "games"), 10);
    assert_eq!(
        n(&r, "sockets_open"),
        40,
        "four people a game, a socket each"
    );
    assert!(n(&r, "actions") > 0, "{r}");
    assert_eq!(r["seconds"].as_f64(), Some(4.0));
    assert!(r["actions_per_second"].as_f64().unwrap() > 0.0);
    let lat = &r["latency_ms"];
    let p = |k: &str| {
        lat[k]
            .as_f64()
            .unwrap_or_else(|| panic!("latency {k}: {r}"))
    };
    assert!(0.0 < p("p50") && p("p50") <= p("p95") && p("p95") <= p("p99") && p("p99") <= p("max"));
    for k in ["refused", "rate_limited", "socket_dropped", "other"] {
        assert!(r["errors"][k].is_u64(), "errors.{k}: {r}");
    }
    assert_eq!(
        r["errors"]["rate_limited"], 0,
        "the spawned server lifts the limits"
    );
    assert_eq!(r["errors"]["socket_dropped"], 0, "{r}");
    assert_eq!(n(&r, "restarts"), 0);
    assert_eq!(
        n(&r, "acked_checked"),
        n(&r, "actions"),
        "every acknowledged action checked"
    );
    assert_eq!(n(&r, "acked_lost"), 0);
    assert_eq!(n(&r, "duplicated"), 0);
    for row in [
        "actions per second",
        "latency p50/p95/p99/max",
        "acknowledged actions lost",
    ] {
        assert!(table.contains(row), "{row} missing from\n{table}");
    }
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn fewer_sockets_share_the_seats() {
    let (code, table, r) = bench(
        "shared",
        &[
            "--spawn",
            "--games",
            "3",
            "--sockets-per-game",
            "1",
            "--seconds",
            "2",
            "--think-ms",
            "20",
        ],
    );
    assert_eq!(code, Some(0), "{table}");
    assert_eq!(n(&r, "sockets_open"), 3);
    // One socket holds all four seats, so turns pass from seat to seat.
    assert!(n(&r, "actions") > 12, "{r}");
    assert_eq!(n(&r, "acked_lost"), 0);
}

/// Needs the appending storage of #10 (stored versions, idempotent action ids):
/// before it, a restarted server starts `version` again at 1 and the check
/// reports the acknowledged actions as lost.
#[test]
fn kill_and_restart_lose_no_acknowledged_action() {
    let started = Instant::now();
    let (code, table, r) = bench(
        "kill",
        &[
            "--spawn",
            "--games",
            "10",
            "--seconds",
            "6",
            "--think-ms",
            "50",
            "--kill-every",
            "1.5",
        ],
    );
    assert!(n(&r, "restarts") >= 2, "{r}");
    assert!(n(&r, "reconnects") > 0, "the sockets came back: {r}");
    assert!(n(&r, "actions") > 0, "{r}");
    assert_eq!(n(&r, "acked_lost"), 0, "{table}");
    assert_eq!(n(&r, "duplicated"), 0, "{table}");
    assert_eq!(code, Some(0), "{table}");
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn kill_every_needs_spawn() {
    let out = chaupar(
        &[
            "bench-server",
            "--url",
            "http://127.0.0.1:9",
            "--kill-every",
            "2",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--kill-every needs --spawn"), "{err}");
}

/// The PostgreSQL database of the two-server runs, or `None` (the test is then
/// skipped) when CHAUPAR_TEST_POSTGRES is unset.
fn postgres() -> Option<String> {
    let url = std::env::var("CHAUPAR_TEST_POSTGRES").ok();
    if url.is_none() {
        eprintln!("skipped: set CHAUPAR_TEST_POSTGRES to a postgres:// URL");
    }
    url
}

/// Two servers on one PostgreSQL share the load: the people of a game act
/// through both, so each one's move reaches the others' sockets across servers.
#[test]
fn two_servers_on_postgres_share_the_load() {
    let Some(db) = postgres() else { return };
    let started = Instant::now();
    let (code, table, r) = bench(
        "two",
        &[
            "--spawn",
            "--instances",
            "2",
            "--db",
            &db,
            "--games",
            "6",
            "--seconds",
            "4",
            "--think-ms",
            "50",
        ],
    );
    assert_eq!(code, Some(0), "{table}\n{r}");
    assert_eq!(n(&r, "servers"), 2, "{r}");
    assert_eq!(n(&r, "sockets_open"), 24, "{r}");
    // Every action is acknowledged by a push crossing servers to the next
    // person's socket before that person can act, so many actions mean the
    // pushes crossed.
    assert!(n(&r, "actions") > 8, "{r}");
    assert_eq!(n(&r, "acked_checked"), n(&r, "actions"), "{r}");
    assert_eq!(n(&r, "acked_lost"), 0, "{table}");
    assert_eq!(n(&r, "duplicated"), 0, "{table}");
    assert_eq!(r["errors"]["socket_dropped"], 0, "{r}");
    assert_eq!(
        r["pushes"]["skipped"], 0,
        "every socket pushed every change: {r}"
    );
    assert_eq!(r["pushes"]["backwards"], 0, "in order: {r}");
    assert!(table.contains("servers"), "{table}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

/// One of two servers on PostgreSQL killed again and again: the sockets move
/// on, in-flight actions are retried with their ids, nothing acknowledged is lost.
#[test]
fn killing_one_of_two_servers_loses_nothing() {
    let Some(db) = postgres() else { return };
    let started = Instant::now();
    let (code, table, r) = bench(
        "two-kill",
        &[
            "--spawn",
            "--instances",
            "2",
            "--db",
            &db,
            "--games",
            "6",
            "--seconds",
            "6",
            "--think-ms",
            "50",
            "--kill-every",
            "1.5",
        ],
    );
    assert_eq!(n(&r, "servers"), 2, "{r}");
    assert!(n(&r, "restarts") >= 2, "{r}");
    assert!(n(&r, "reconnects") > 0, "the sockets came back: {r}");
    assert!(n(&r, "actions") > 0, "{r}");
    assert_eq!(n(&r, "acked_lost"), 0, "{table}");
    assert_eq!(n(&r, "duplicated"), 0, "{table}");
    assert_eq!(code, Some(0), "{table}");
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn several_instances_need_postgres() {
    let out = chaupar(
        &[
            "bench-server",
            "--spawn",
            "--instances",
            "2",
            "--seconds",
            "1",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("several servers share a database only on PostgreSQL"),
        "{err}"
    );
}
