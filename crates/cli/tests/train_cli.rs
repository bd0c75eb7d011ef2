//! `chaupar train --model net`: a network trained by self-play is written where
//! asked, reproducibly, plays through `greedy@FILE`, and bad settings are refused
//! with a clear message and no file.

mod common;

use common::chaupar;
use serde_json::Value;

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chaupar-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `chaupar train --rules chaupar --games 3 --seed 4 --out OUT` with `extra`,
/// which defaults `--model net`, `--hidden 8` and `--jobs 1` where it does not
/// say otherwise.
fn train(out: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let out = out.to_str().unwrap();
    let mut args = vec![
        "train", "--rules", "chaupar", "--games", "3", "--seed", "4", "--out", out,
    ];
    for (flag, value) in [("--model", "net"), ("--hidden", "8"), ("--jobs", "1")] {
        if !extra.contains(&flag) {
            args.extend([flag, value]);
        }
    }
    args.extend_from_slice(extra);
    chaupar(&args, "")
}

#[test]
fn a_network_is_trained_reproducibly_and_plays() {
    let (a, b) = (temp("a.json"), temp("b.json"));
    let run = train(&a, &[]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let summary: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(summary["model"], "net");
    assert_eq!(summary["games"], 3);
    assert_eq!(summary["hidden"], 8);
    assert!(summary["command"].as_str().unwrap().contains("--model net"));
    assert!(train(&b, &["--jobs", "2"]).status.success());
    let read = |f: &std::path::Path| -> Value {
        let mut v: Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
        v["command"] = Value::Null;
        v
    };
    assert!(
        read(&a) == read(&b),
        "the same seed gives the same network, whatever the threads"
    );
    let net: Value = serde_json::from_slice(&std::fs::read(&a).unwrap()).unwrap();
    assert_eq!(net["w2"].as_array().unwrap().len(), 8);
    // Training goes on from a file, and the file plays.
    let c = temp("c.json");
    let more = train(&c, &["--from", a.to_str().unwrap()]);
    assert!(
        more.status.success(),
        "{}",
        String::from_utf8_lossy(&more.stderr)
    );
    let summary: Value = serde_json::from_slice(&more.stdout).unwrap();
    assert_eq!(summary["games"], 6);
    // A network goes on only under the rules it was made for.
    let other = chaupar(
        &[
            "train",
            "--model",
            "net",
            "--rules",
            "classic",
            "--games",
            "1",
            "--from",
            a.to_str().unwrap(),
            "--out",
            temp("e.json").to_str().unwrap(),
        ],
        "",
    );
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(
        err.contains("holds a network for chaupar, not classic"),
        "{err}"
    );
    assert!(!temp("e.json").exists());
    // Fitted to rollout targets instead of learned by TD.
    let d = temp("d.json");
    let fit = train(&d, &["--rollouts", "2", "--every", "20", "--epochs", "2"]);
    assert!(
        fit.status.success(),
        "{}",
        String::from_utf8_lossy(&fit.stderr)
    );
    assert!(String::from_utf8_lossy(&fit.stderr).contains("cross-entropy"));
    let summary: Value = serde_json::from_slice(&fit.stdout).unwrap();
    assert!(summary["command"]
        .as_str()
        .unwrap()
        .contains("--rollouts 2 --every 20 --siblings 3 --epochs 2"));
    // Rollouts cut after two rounds and valued by the linear model.
    let h = temp("h.json");
    let cut = train(
        &h,
        &[
            "--rollouts",
            "2",
            "--every",
            "20",
            "--epochs",
            "1",
            "--horizon",
            "2",
        ],
    );
    assert!(
        cut.status.success(),
        "{}",
        String::from_utf8_lossy(&cut.stderr)
    );
    let summary: Value = serde_json::from_slice(&cut.stdout).unwrap();
    assert!(summary["command"]
        .as_str()
        .unwrap()
        .contains("--rollouts 2 --every 20 --siblings 3 --epochs 1 --horizon 2"));
    let bot = format!("greedy@{}", c.display());
    let sim = chaupar(
        &[
            "sim", "--rules", "chaupar", "--games", "2", "--team-a", &bot, "--team-b", "greedy",
            "--json",
        ],
        "",
    );
    assert!(
        sim.status.success(),
        "{}",
        String::from_utf8_lossy(&sim.stderr)
    );
}

#[test]
fn bad_settings_are_refused_and_write_nothing() {
    let out = temp("bad.json");
    for (extra, says) in [
        (&["--model", "cubic"][..], "expected linear or net"),
        (&["--hidden", "0"][..], "--hidden must be 1 to 256"),
        (&["--horizon", "2"][..], "--horizon goes with --rollouts"),
        (&["--hidden", "999"][..], "--hidden must be 1 to 256"),
        (
            &["--from", "/no/such/net.json"][..],
            "cannot read /no/such/net.json",
        ),
    ] {
        let run = train(&out, extra);
        assert!(!run.status.success(), "{extra:?} is refused");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(says), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?} wrote nothing");
    }
    // Options of the network refused for the linear model.
    for (flag, value) in [("--from", "x.json"), ("--rollouts", "4")] {
        let linear = chaupar(
            &[
                "train",
                "--rules",
                "chaupar",
                "--games",
                "1",
                flag,
                value,
                "--out",
                out.to_str().unwrap(),
            ],
            "",
        );
        let err = String::from_utf8_lossy(&linear.stderr);
        assert!(
            err.contains(&format!("{flag} goes with --model net")),
            "{err}"
        );
    }
    assert!(!out.exists());
}
