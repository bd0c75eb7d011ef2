//! The `chaupar` command: rules tables, positions, legal plays and replays.

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod ai_cmds;
mod bench_server_cmd;
mod draw;
mod puzzles_cmd;
mod race_cmd;
mod serve_cmd;

use chaupar_core::rules::OPTIONS;
use chaupar_core::{json, notation, record, Position, Preset, Rules, Throw};

/// Chaupar, the race game of the Mahabharata: rules engine and tools.
#[derive(Parser)]
#[command(name = "chaupar", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the option table of a preset (or all three) with each option's source.
    Rules {
        /// chaupar, chausar or classic; all three when left out.
        preset: Option<String>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position on the terminal.
    Show {
        /// Position text, a JSON or text file, `-` for standard input, or a preset
        /// name for its starting position.
        position: String,
    },
    /// List every distinct legal play for a position and a throw.
    Moves {
        #[command(flatten)]
        at: PositionThrow,
        /// Print one JSON object: {"plays": [{"notation", "steps", "position"}]}.
        #[arg(long)]
        json: bool,
    },
    /// Check a game record and print the game.
    Replay {
        /// The record file, or `-` for standard input.
        file: String,
        /// Print the board after every turn.
        #[arg(long)]
        boards: bool,
    },
    /// Verify a finished game's fair dice: the secret against the commitment and
    /// every throw (throw-off first). Exit 0 when all match, 1 otherwise.
    Verify {
        /// The record file, or `-` for standard input.
        file: String,
    },
    /// Rank every play for a position and a throw by estimated win chance.
    Hint(ai_cmds::HintArgs),
    /// Review a recorded game: each play's loss, error rates, luck.
    Review(ai_cmds::ReviewArgs),
    /// Play many games between two bots and print the results.
    Sim(ai_cmds::SimArgs),
    /// Learn evaluation weights by self-play (TD(lambda)).
    Train(ai_cmds::TrainArgs),
    /// Serve the web board and its JSON API (play in the browser).
    Serve(serve_cmd::ServeArgs),
    /// Load and crash benchmark of a server: simulated people over WebSockets.
    BenchServer(bench_server_cmd::BenchServerArgs),
    /// Find puzzles in expert self-play: positions where one play is clearly best.
    Puzzles(puzzles_cmd::PuzzlesArgs),
    /// Exact column races: every side's chance, or a class of races solved.
    Race(race_cmd::RaceArgs),
}

/// Reads a file, or standard input for `-`.
pub(crate) fn read_source(arg: &str) -> Result<String, String> {
    if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(arg).map_err(|e| format!("cannot read {arg}: {e}"))
    }
}

/// Reads a position from JSON or position text.
pub(crate) fn parse_any_position(text: &str) -> Result<Position, String> {
    let t = text.trim();
    if t.starts_with('{') {
        json::parse_position(t).map_err(|e| e.to_string())
    } else if let Ok(p) = t.parse::<Preset>() {
        Position::new(Rules::preset(p), 4).map_err(|e| e.to_string())
    } else {
        notation::parse_position(t).map_err(|e| e.to_string())
    }
}

fn rules_cmd(preset: Option<String>, as_json: bool) -> Result<(), String> {
    let presets: Vec<Preset> = match preset {
        Some(p) => vec![p
            .parse()
            .map_err(|e: chaupar_core::RulesError| e.to_string())?],
        None => Preset::ALL.to_vec(),
    };
    if as_json {
        let v: Vec<serde_json::Value> = OPTIONS
            .iter()
            .map(|o| {
                let mut m = serde_json::Map::new();
                m.insert("option".into(), o.name.into());
                m.insert("values".into(), o.values.to_vec().into());
                m.insert("about".into(), o.about.into());
                for p in &presets {
                    let r = Rules::preset(*p);
                    let idx = Preset::ALL.iter().position(|x| x == p).unwrap_or(0);
                    m.insert(
                        p.name().into(),
                        serde_json::json!({"value": r.get(o.name).unwrap_or_default(), "source": o.sources[idx]}),
                    );
                }
                serde_json::Value::Object(m)
            })
            .collect();
        say!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        );
        return Ok(());
    }
    for p in &presets {
        say!("{} (from {})", p.name(), p.source());
    }
    say!("");
    let mut header = format!("{:<12}", "option");
    for p in &presets {
        header.push_str(&format!(" {:<22}", p.name()));
    }
    header.push_str(" values");
    say!("{header}");
    say!("{}", "-".repeat(header.len() + 20));
    for o in OPTIONS {
        let mut line = format!("{:<12}", o.name);
        for p in &presets {
            let r = Rules::preset(*p);
            let idx = Preset::ALL.iter().position(|x| x == p).unwrap_or(0);
            let cell = format!("{} ({})", r.get(o.name).unwrap_or_default(), o.sources[idx]);
            line.push_str(&format!(" {cell:<22}"));
        }
        line.push_str(&format!(" {}", o.values.join("|")));
        say!("{line}");
    }
    say!("");
    say!("Sources: 004, 003, 000 are the seed files 004_f1b92629639cb594.txt, 003_aa525c659735118e.txt,");
    say!("000_205b8c2ce24cdf01.txt; RULINGS is shared/RULINGS.md. Every option is explained in docs/rules.md.");
    Ok(())
}

/// A position and a throw: what `moves` and `hint` start from.
#[derive(clap::Args, Debug)]
pub(crate) struct PositionThrow {
    /// A file holding the position (JSON or position text), or `-` for standard input.
    #[arg(long)]
    position: String,
    /// The throw, three dice like 1,2,6.
    #[arg(long)]
    throw: String,
}

impl PositionThrow {
    /// Reads the position, checks the throw against its dice and lists the
    /// distinct legal plays.
    pub(crate) fn plays(&self) -> Result<(Position, Throw, Vec<chaupar_core::Play>), String> {
        let pos = parse_any_position(&read_source(&self.position)?)?;
        let throw: Throw = self
            .throw
            .parse()
            .map_err(|e: chaupar_core::dice::ThrowError| e.to_string())?;
        let throw = Throw::new(throw.dice(), pos.rules().faces).map_err(|e| e.to_string())?;
        let plays = chaupar_core::legal_plays(&pos, throw).map_err(|e| e.to_string())?;
        Ok((pos, throw, plays))
    }
}

fn moves_cmd(at: &PositionThrow, as_json: bool) -> Result<(), String> {
    let (pos, throw, plays) = at.plays()?;
    if as_json {
        let list: Vec<serde_json::Value> = plays
            .iter()
            .map(|p| json::play_value(&pos, throw, p))
            .collect();
        say!("{}", serde_json::json!({ "plays": list }));
    } else {
        say!(
            "{} distinct plays for {} throwing {throw}",
            plays.len(),
            pos.to_move().map(|c| c.title()).unwrap_or("-")
        );
        for (i, p) in plays.iter().enumerate() {
            say!(
                "{:>4}  {:<32} {}",
                i + 1,
                notation::play_text(&pos, throw, &p.steps),
                notation::position_text(&p.position)
            );
        }
    }
    Ok(())
}

fn replay_cmd(file: &str, boards: bool) -> Result<(), String> {
    let text = read_source(file)?;
    let game = record::replay(&text).map_err(|e| e.to_string())?;
    let start = game.start();
    say!(
        "rules {}, {} players, {} throws first",
        start.rules().compact(),
        start.players(),
        start.to_move().map(|c| c.title()).unwrap_or("-")
    );
    let mut pos = *start;
    for (i, t) in game.turns().iter().enumerate() {
        say!(
            "{:>4}. {:<6} {}  {}",
            i + 1,
            t.colour.title(),
            t.throw,
            notation::play_text(&pos, t.throw, &t.steps)
        );
        pos = t.after;
        if boards {
            emit(&draw::board(&pos));
        }
    }
    say!("result: {}", record::result_text(&game));
    emit(&draw::board(game.position()));
    Ok(())
}

/// `chaupar verify`: exit 0 and `every throw verified (N throws)`, or exit 1
/// with what does not match.
fn verify_cmd(file: &str) -> ExitCode {
    let checked =
        read_source(file).and_then(|text| record::verify(&text).map_err(|e| e.to_string()));
    match checked {
        Ok(n) => {
            say!("every throw verified ({n} throws)");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("not verified: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Rules { preset, json } => rules_cmd(preset, json),
        Command::Show { position } => {
            let text = if position == "-" || std::path::Path::new(&position).is_file() {
                read_source(&position)?
            } else {
                position
            };
            let pos = parse_any_position(&text)?;
            emit(&draw::board(&pos));
            Ok(())
        }
        Command::Moves { at, json } => moves_cmd(&at, json),
        Command::Replay { file, boards } => replay_cmd(&file, boards),
        Command::Verify { file } => {
            // Handled in main (its own exit codes).
            let _ = file;
            Ok(())
        }
        Command::Hint(a) => ai_cmds::hint(a),
        Command::Review(a) => ai_cmds::review(a),
        Command::Sim(a) => ai_cmds::sim(a),
        Command::Train(a) => ai_cmds::train_cmd(a),
        Command::Serve(a) => serve_cmd::serve(a),
        Command::BenchServer(_) => Ok(()), // handled in main (its own exit codes)
        Command::Puzzles(a) => puzzles_cmd::puzzles(a),
        Command::Race(a) => race_cmd::race(a),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::BenchServer(a) = cli.command {
        return bench_server_cmd::bench_server(a);
    }
    if let Command::Verify { file } = &cli.command {
        return verify_cmd(file);
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes to standard output; a closed pipe (as with `| head`) ends quietly.
pub(crate) fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out
        .write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        std::process::exit(0);
    }
}

macro_rules! say {
    ($($t:tt)*) => { crate::emit(&format!("{}\n", format_args!($($t)*))) };
}
pub(crate) use say;
