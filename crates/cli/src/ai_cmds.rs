//! The computer-player commands: `hint`, `review`, `sim` and `train`.

use std::time::Duration;

use clap::Args;

use chaupar_ai::eval::Weights;
use chaupar_ai::fit_net::{fit_net, loss, rollout_targets, FitConfig};
use chaupar_ai::net::Net;
use chaupar_ai::search::SearchConfig;
use chaupar_ai::sim::{simulate, SimConfig};
use chaupar_ai::train::{train, TrainConfig};
use chaupar_ai::train_net::train_net;
use chaupar_core::{json, notation, record, Position, Rules};

/// Arguments of `chaupar hint`.
#[derive(Args, Debug)]
pub struct HintArgs {
    #[command(flatten)]
    at: crate::PositionThrow,
    /// Print one JSON object: {"plays": [{"rank", "index", "notation", "win", "loss", ...}]}.
    #[arg(long)]
    json: bool,
    /// Search budget in milliseconds.
    #[arg(long, default_value_t = 250)]
    budget: u64,
    /// A work budget instead of the time budget: this many work units (about a
    /// microsecond of play generation and evaluation each, 1,000 for a
    /// millisecond), so the ranking is the same however loaded the machine
    /// is. The tutor judges with 200,000.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
}

/// Arguments of `chaupar review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The record file, or `-` for standard input.
    record: String,
    /// Print one JSON object {"turns": [...], "sides": [...]}.
    #[arg(long)]
    json: bool,
    /// Search budget per turn in milliseconds (0: static evaluation only, fast).
    #[arg(long, default_value_t = 50)]
    budget: u64,
    /// Also write the review as a win-chance graph (SVG) to this file.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// The graph's language: en or ru.
    #[arg(long, default_value = "en", value_parser = ["en", "ru"])]
    lang: String,
}

/// Arguments of `chaupar sim`.
#[derive(Args, Debug)]
pub struct SimArgs {
    /// chaupar, chausar or classic (options as in position text: chaupar[tohd=home]).
    #[arg(long, default_value = "chaupar")]
    rules: String,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Bot of team a: random, greedy, uct, expert, level1..level5.
    #[arg(long)]
    team_a: String,
    /// Bot of team b.
    #[arg(long)]
    team_b: String,
    /// Seed of the run (each game's seed is derived from it and the game's index).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// 2 or 4 players (2-player chausar is Yellow against Black, each for himself).
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Budget per decision of the searching bots, in milliseconds, applied as a
    /// work budget (1,000 units per ms, a unit being about a microsecond of play
    /// generation and evaluation) so results do not depend on load; by default
    /// the bots' own work budget.
    #[arg(long, default_value_t = (chaupar_ai::search::DEFAULT_NODES / chaupar_ai::search::NODES_PER_MS) as u64)]
    budget: u64,
    /// Turns after which a game is stopped undecided.
    #[arg(long, default_value_t = 1000)]
    max_turns: usize,
}

/// Arguments of `chaupar train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// chaupar, chausar or classic.
    #[arg(long)]
    rules: String,
    /// Games of self-play.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the weights (JSON).
    #[arg(long)]
    out: String,
    /// 2 or 4 players.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Step size.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Trace decay lambda.
    #[arg(long, default_value_t = 0.7)]
    lambda: f64,
    /// Threads (default: all cores); the result does not depend on it.
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// What to train: `linear` (the logistic model's weights) or `net` (the
    /// network: the preset's linear weights plus a hidden layer).
    #[arg(long, default_value = "linear")]
    model: String,
    /// Hidden units of a new network (1 to 256).
    #[arg(long, default_value_t = chaupar_ai::net::HIDDEN)]
    hidden: usize,
    /// Go on training this network file instead of a new network.
    #[arg(long)]
    from: Option<String>,
    /// With `--model net`: instead of TD self-play, fit the network to the
    /// results of this many greedy games played on from each position (taken
    /// from `--games` greedy games, one every `--every` turns).
    #[arg(long, default_value_t = 0)]
    rollouts: usize,
    /// With `--rollouts`: a position every this many turns.
    #[arg(long, default_value_t = 8)]
    every: usize,
    /// With `--rollouts`: passes over the positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// With `--rollouts`: other plays' positions taken with each greedy one.
    #[arg(long, default_value_t = 3)]
    siblings: usize,
    /// With `--rollouts`: stop each rollout after this many rounds (every
    /// player once) and value where it stands by the linear model, as the
    /// expert's rollouts do (0: play every rollout to the end).
    #[arg(long, default_value_t = 0)]
    horizon: usize,
}

use crate::{emit, read_source};

fn config(budget_ms: u64) -> SearchConfig {
    if budget_ms == 0 {
        SearchConfig {
            candidates: 0,
            ..SearchConfig::default()
        }
    } else {
        SearchConfig {
            budget: Duration::from_millis(budget_ms),
            max_nodes: usize::MAX,
            ..SearchConfig::default()
        }
    }
}

/// `chaupar hint`: ranks every play.
pub fn hint(a: HintArgs) -> Result<(), String> {
    let (pos, throw, plays) = a.at.plays()?;
    let config = match a.nodes {
        Some(nodes) => SearchConfig::work(usize::try_from(nodes).unwrap_or(usize::MAX)),
        None => config(a.budget),
    };
    let ranked = chaupar_ai::rank_plays(&pos, plays, &config);
    if a.json {
        let list: Vec<serde_json::Value> = ranked
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let mut v = json::play_value(&pos, throw, &r.play);
                if let Some(m) = v.as_object_mut() {
                    m.insert("rank".into(), (k + 1).into());
                    m.insert("index".into(), r.index.into());
                    m.insert("win".into(), r.win.into());
                    m.insert("loss".into(), r.loss.into());
                    m.insert("exact".into(), r.exact.into());
                }
                v
            })
            .collect();
        emit(&format!("{}\n", serde_json::json!({ "plays": list })));
    } else {
        emit(&format!(
            "{} distinct plays for {} throwing {throw}, best first (win = estimated chance the mover's side wins)\n",
            ranked.len(),
            pos.to_move().map(|c| c.title()).unwrap_or("-")
        ));
        emit(&format!(
            "{:>4} {:<36} {:>7} {:>7}\n",
            "rank", "play", "win%", "loss"
        ));
        for (k, r) in ranked.iter().enumerate() {
            emit(&format!(
                "{:>4} {:<36} {:>7.2} {:>7.4}{}\n",
                k + 1,
                notation::play_text(&pos, throw, &r.play.steps),
                100.0 * r.win,
                r.loss,
                if r.exact { "  exact" } else { "" }
            ));
        }
    }
    Ok(())
}

/// `chaupar review`: losses, error rates and luck of a recorded game.
pub fn review(a: ReviewArgs) -> Result<(), String> {
    let text = read_source(&a.record)?;
    let game = record::replay(&text).map_err(|e| e.to_string())?;
    let rev = chaupar_ai::review::review(&game, &config(a.budget));
    if let Some(file) = &a.svg {
        let svg = chaupar_ai::review_svg::svg(&rev, game.start(), &a.lang);
        std::fs::write(file, svg).map_err(|e| format!("cannot write {file}: {e}"))?;
    }
    if a.json {
        let v = serde_json::to_value(&rev).map_err(|e| e.to_string())?;
        let mut v = v;
        if let Some(m) = v.as_object_mut() {
            m.insert(
                "thresholds".into(),
                serde_json::json!({
                    "doubtful": chaupar_ai::review::DOUBTFUL,
                    "bad": chaupar_ai::review::BAD,
                    "very_bad": chaupar_ai::review::VERY_BAD
                }),
            );
        }
        emit(&format!("{v}\n"));
    } else {
        emit(&rev.text());
    }
    Ok(())
}

/// `chaupar sim`: games between two bots.
pub fn sim(a: SimArgs) -> Result<(), String> {
    let rules = Rules::parse_compact(&a.rules).map_err(|e| e.to_string())?;
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let cfg = SimConfig {
        rules,
        players: a.players,
        games: a.games,
        team_a: a.team_a,
        team_b: a.team_b,
        seed: a.seed,
        jobs: a.jobs,
        budget: Duration::from_millis(a.budget.max(1)),
        max_turns: a.max_turns.max(1),
        progress: true,
    };
    let s = simulate(&cfg)?;
    if a.json {
        emit(&format!("{}\n", s.json()));
    } else {
        emit(&s.table());
    }
    Ok(())
}

/// `chaupar train --model net`: trains the network by self-play and writes it.
fn train_net_cmd(a: TrainArgs, rules: Rules) -> Result<(), String> {
    if !(1..=chaupar_ai::net::MAX_HIDDEN).contains(&a.hidden) {
        return Err(format!(
            "--hidden must be 1 to {}",
            chaupar_ai::net::MAX_HIDDEN
        ));
    }
    let start = match &a.from {
        Some(file) => {
            let text =
                std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
            let net = Net::from_json(&text).map_err(|e| format!("{file}: {e}"))?;
            if net.preset != rules.preset.name() {
                return Err(format!(
                    "{file} holds a network for {}, not {}",
                    net.preset,
                    rules.preset.name()
                ));
            }
            net
        }
        None => Net::new(
            rules.preset,
            Weights::embedded(rules.preset),
            a.hidden,
            a.seed,
        ),
    };
    let mut net = if a.rollouts > 0 {
        let (every, rollouts, epochs, siblings) = (a.every, a.rollouts, a.epochs, a.siblings);
        let horizon = a.horizon;
        let (alpha, seed) = (a.alpha, a.seed);
        let data = run_training(&a, rules, |cfg, progress| {
            let fit = FitConfig {
                train: cfg.clone(),
                every,
                rollouts,
                siblings,
                epochs,
                horizon,
            };
            rollout_targets(&fit, progress)
        })?;
        let mut net = start;
        let before = loss(&net, &data);
        fit_net(&mut net, &data, epochs, alpha, seed);
        eprintln!(
            "{} positions; cross-entropy {before:.4} before fitting, {:.4} after",
            data.len(),
            loss(&net, &data)
        );
        net.games += a.games as u64;
        net
    } else {
        run_training(&a, rules, |cfg, progress| train_net(cfg, start, progress))?
    };
    let before = net.command.clone();
    net.command = format!(
        "chaupar train --model net --rules {} --games {} --seed {} --players {} --alpha {} --lambda {}{}{} --out {}",
        a.rules,
        a.games,
        a.seed,
        a.players,
        a.alpha,
        a.lambda,
        if a.rollouts > 0 {
            format!(
                " --rollouts {} --every {} --siblings {} --epochs {}{}",
                a.rollouts,
                a.every,
                a.siblings,
                a.epochs,
                if a.horizon > 0 {
                    format!(" --horizon {}", a.horizon)
                } else {
                    String::new()
                }
            )
        } else {
            String::new()
        },
        match &a.from {
            Some(f) => format!(" --from {f}"),
            None => format!(" --hidden {}", a.hidden),
        },
        a.out
    );
    if a.from.is_some() {
        net.command = format!("{before}; then {}", net.command);
    }
    std::fs::write(&a.out, net.to_json() + "\n")
        .map_err(|e| format!("cannot write {}: {e}", a.out))?;
    emit(&format!(
        "{}\n",
        serde_json::json!({
            "model": "net",
            "preset": net.preset,
            "hidden": net.hidden,
            "games": net.games,
            "command": net.command,
            "out": a.out,
        })
    ));
    Ok(())
}

/// Runs `train` with the settings of `a` on `--jobs` threads (0: one per core),
/// showing its progress in games.
fn run_training<T: Send>(
    a: &TrainArgs,
    rules: Rules,
    train: impl FnOnce(&TrainConfig, &mut dyn FnMut(usize)) -> T + Send,
) -> Result<T, String> {
    let cfg = TrainConfig {
        rules,
        players: a.players,
        games: a.games,
        seed: a.seed,
        alpha: a.alpha,
        lambda: a.lambda,
        epsilon: 0.0,
        batch: 16,
        max_turns: 1000,
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if a.jobs > 0 {
        builder = builder.num_threads(a.jobs);
    }
    let pool = builder.build().map_err(|e| e.to_string())?;
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(a.games as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    let out = pool.install(|| train(&cfg, &mut |done| bar.set_position(done as u64)));
    bar.finish_and_clear();
    Ok(out)
}

/// `chaupar train`: learns evaluation weights by self-play and writes them.
pub fn train_cmd(a: TrainArgs) -> Result<(), String> {
    let rules = Rules::parse_compact(&a.rules).map_err(|e| e.to_string())?;
    if !(0.0..=1.0).contains(&a.lambda) || a.alpha <= 0.0 {
        return Err("--lambda must be in 0..1 and --alpha positive".into());
    }
    Position::new(rules, a.players).map_err(|e| e.to_string())?;
    if a.horizon > 0 && a.rollouts == 0 {
        return Err("--horizon goes with --rollouts".into());
    }
    match a.model.as_str() {
        "linear" => {}
        "net" => return train_net_cmd(a, rules),
        other => return Err(format!("--model {other:?}: expected linear or net")),
    }
    if a.from.is_some() {
        return Err("--from goes with --model net".into());
    }
    if a.rollouts > 0 {
        return Err("--rollouts goes with --model net".into());
    }
    let mut w = run_training(&a, rules, |cfg, progress| train(cfg, progress))?;
    w.command = format!(
        "chaupar train --rules {} --games {} --seed {} --players {} --alpha {} --lambda {} --out {}",
        a.rules, a.games, a.seed, a.players, a.alpha, a.lambda, a.out
    );
    std::fs::write(&a.out, w.to_json() + "\n")
        .map_err(|e| format!("cannot write {}: {e}", a.out))?;
    emit(&format!("{}\n", w.to_json()));
    Ok(())
}
