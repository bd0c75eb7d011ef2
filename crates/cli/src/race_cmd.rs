//! `chaupar race`: exact column races (`chaupar_ai::race`): every side's
//! chance in a position, or the states of a whole class solved and timed.

use std::time::Instant;

use clap::Args;

use chaupar_ai::race::{side_states, RaceSolver};
use chaupar_core::Rules;

use crate::{emit, parse_any_position, read_source};

/// Arguments of `chaupar race`.
#[derive(Args, Debug)]
pub struct RaceArgs {
    /// A column-race position (text, JSON, a file or `-`): print every side's
    /// exact chance. Without it, solve every state of one side's races.
    position: Option<String>,
    /// chaupar, chausar or classic (options as in position text), for solving a class.
    #[arg(long, default_value = "chaupar")]
    rules: String,
    /// Players, for solving a class.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Solve the states with at most this many pieces of each colour still out (1–4).
    #[arg(long, default_value_t = 2)]
    out: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// `chaupar race`.
pub fn race(a: RaceArgs) -> Result<(), String> {
    match &a.position {
        Some(p) => one_position(p, a.json),
        None => class(&a),
    }
}

fn one_position(arg: &str, as_json: bool) -> Result<(), String> {
    let text = if arg == "-" || std::path::Path::new(arg).is_file() {
        read_source(arg)?
    } else {
        arg.to_string()
    };
    let pos = parse_any_position(&text)?;
    if !chaupar_ai::race::is_column_race(&pos) {
        return Err("not a column race: every piece not home must be in its own middle column past the tip (progress 77 to 83), and where capture before finishing applies its colour must have captured".into());
    }
    let mut solver = RaceSolver::with_limit(u64::MAX);
    let chances = solver
        .win_chances(&pos)
        .ok_or_else(|| "this race could not be solved".to_string())?;
    if as_json {
        let sides: Vec<_> = chances
            .iter()
            .map(|(s, v)| serde_json::json!({ "side": s.name(), "win": v }))
            .collect();
        let v = serde_json::json!({ "sides": sides, "states": solver.len() });
        emit(&format!("{v}\n"));
        return Ok(());
    }
    let mut s = format!("{:<14} {:>9}\n", "side", "win");
    for (side, v) in &chances {
        s.push_str(&format!("{:<14} {:>8.4}%\n", side.name(), 100.0 * v));
    }
    s.push_str(&format!("exact ({} states solved)\n", solver.len()));
    emit(&s);
    Ok(())
}

fn class(a: &RaceArgs) -> Result<(), String> {
    let rules = Rules::parse_compact(&a.rules).map_err(|e| e.to_string())?;
    if !(1..=4).contains(&a.out) {
        return Err(format!("--out must be 1 to 4, not {}", a.out));
    }
    let started = Instant::now();
    let states = side_states(rules, a.players, a.out)?;
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(states.len() as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} states  {msg}  {elapsed_precise}",
    ) {
        bar.set_style(style);
    }
    let mut solver = RaceSolver::with_limit(u64::MAX);
    let mut slowest = (0.0f64, None);
    for (i, pos) in states.iter().enumerate() {
        let f = solver
            .finish(pos)
            .ok_or_else(|| "a state could not be solved".to_string())?;
        if f.mean() > slowest.0 {
            slowest = (f.mean(), Some(*pos));
        }
        if i % 64 == 0 {
            bar.set_position(i as u64);
            bar.set_message(format!("{} solved", solver.len()));
        }
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let slow_text = slowest
        .1
        .map(|p| chaupar_core::notation::position_text(&p))
        .unwrap_or_default();
    if a.json {
        let v = serde_json::json!({
            "rules": rules.compact(),
            "players": a.players,
            "out": a.out,
            "states": states.len(),
            "solved": solver.len(),
            "seconds": seconds,
            "slowest": { "position": slow_text, "mean_half_rounds": slowest.0 },
        });
        emit(&format!("{v}\n"));
        return Ok(());
    }
    emit(&format!(
        "{} column-race states of one side ({}, {} players, at most {} pieces a colour out): {} solved with what they lead to, in {:.2} s ({:.0} states/s)\nslowest to finish: {:.2} half-rounds from {}\n",
        states.len(),
        rules.compact(),
        a.players,
        a.out,
        solver.len(),
        seconds,
        solver.len() as f64 / seconds.max(1e-9),
        slowest.0,
        slow_text
    ));
    Ok(())
}
