//! `chaupar puzzles`: positions from expert self-play where one play is
//! clearly best (`chaupar_ai::puzzles`).

use clap::Args;

use chaupar_ai::puzzles::{find_puzzles, PuzzleConfig};
use chaupar_core::Rules;

use crate::emit;

/// Arguments of `chaupar puzzles`.
#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    /// chaupar, chausar or classic (options as in position text: chaupar[tohd=home]).
    #[arg(long, default_value = "chaupar")]
    rules: String,
    /// Puzzles wanted (fewer when the games run out: at most 4 * COUNT + 10 games).
    #[arg(long, default_value_t = 20)]
    count: usize,
    /// Seed of the self-play games: the same seed gives the same puzzles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Work units for ranking the plays of one decision (1,000 are about a
    /// millisecond; counted, not timed, so the puzzles reproduce).
    #[arg(long, default_value_t = chaupar_ai::search::ANALYSIS_NODES)]
    budget: usize,
    /// Print one JSON object: {"puzzles": [{"position", "throw", "best", "margin", "ranking", "rules", "colour"}]}.
    #[arg(long)]
    json: bool,
}

/// `chaupar puzzles`: finds the puzzles and prints them as a table or JSON.
pub fn puzzles(a: PuzzlesArgs) -> Result<(), String> {
    let rules = Rules::parse_compact(&a.rules).map_err(|e| e.to_string())?;
    if a.count == 0 {
        return Err("--count must be at least 1".into());
    }
    if a.budget == 0 {
        return Err("--budget must be at least 1 work unit".into());
    }
    let cfg = PuzzleConfig {
        budget: a.budget,
        ..PuzzleConfig::new(rules, a.count, a.seed)
    };
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(cfg.max_games as u64),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {msg}  {elapsed_precise}",
    ) {
        bar.set_style(style);
    }
    let found = find_puzzles(&cfg, &mut |games, n| {
        bar.set_position(games as u64);
        bar.set_message(format!("{n}/{} puzzles", cfg.count));
    })?;
    bar.finish_and_clear();
    if a.json {
        let v = serde_json::json!({ "puzzles": found });
        emit(&format!("{v}\n"));
        return Ok(());
    }
    let mut s = format!(
        "{:>3} {:<7} {:<6} {:>6}  {:<28} position\n",
        "n", "colour", "throw", "margin", "best"
    );
    for (i, p) in found.iter().enumerate() {
        let [x, y, z] = p.throw;
        s.push_str(&format!(
            "{:>3} {:<7} {:<6} {:>6.3}  {:<28} {}\n",
            i + 1,
            p.colour,
            format!("{x},{y},{z}"),
            p.margin,
            p.best,
            p.position
        ));
    }
    s.push_str(&format!(
        "{} puzzles for {}, seed {}\n",
        found.len(),
        rules.compact(),
        a.seed
    ));
    emit(&s);
    Ok(())
}
