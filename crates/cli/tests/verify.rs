//! `chaupar verify`: a finished game's fair dice, a tampered throw, a wrong secret.

mod common;

use common::chaupar;
use std::process::Output;

use chaupar_core::fair::{ClientSeeds, DiceSecret};
use chaupar_core::{legal_plays, record, Colour, Game, Preset, Rules};

/// A finished game with committed dice and two client seeds, one given mid-game.
fn finished() -> (Game, String) {
    let mut seeds = ClientSeeds::default();
    seeds.set(Colour::Yellow, "y-seed".parse().unwrap(), 0);
    let secret = DiceSecret::from_bytes([17; 32]);
    let mut game = Game::committed(Rules::preset(Preset::Chausar), 2, secret, seeds).unwrap();
    for k in 0..5000 {
        if k == 7 {
            game.add_client_seed(Colour::Black, "late_1".parse().unwrap());
        }
        let Ok(t) = game.throw() else { break };
        let plays = legal_plays(game.position(), t).unwrap();
        let steps = plays.get(k % plays.len().max(1)).map(|p| p.steps.clone());
        game.play(&steps.unwrap_or_default()).unwrap();
    }
    assert!(game.position().to_move().is_none());
    let text = record::write(&game, &[("Yellow", "person")]);
    (game, text)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_finished_game_verifies() {
    let (game, text) = finished();
    assert!(text.contains("[DiceSecret ") && text.contains("[ClientSeed \"black "));
    let out = chaupar(&["verify", "-"], &text);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let n = game.throw_off().len() + game.turns().len();
    assert_eq!(
        stdout(&out).trim(),
        format!("every throw verified ({n} throws)")
    );
}

#[test]
fn a_tampered_throw_is_named() {
    let (game, text) = finished();
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines.iter().position(|l| l.starts_with("4. ")).unwrap();
    let mut words: Vec<&str> = lines[at].split(' ').collect();
    let new = if words[2] == "1,1,1" {
        "2,2,2"
    } else {
        "1,1,1"
    };
    words[2] = new;
    let mut tampered = lines.clone();
    tampered[at] = words.join(" ");
    let out = chaupar(&["verify", "-"], &tampered.join("\n"));
    assert_eq!(out.status.code(), Some(1));
    // Throws are counted from 1 over the throw-off and then the turns.
    let n = game.throw_off().len() + 4;
    let err = stderr(&out);
    assert!(
        err.contains(&format!("throw {n} does not match: the record has {new}")),
        "{err}"
    );
}

#[test]
fn a_wrong_secret_or_no_secret_is_refused() {
    let (_, text) = finished();
    let wrong = text.replace(
        &DiceSecret::from_bytes([17; 32]).to_string(),
        &DiceSecret::from_bytes([18; 32]).to_string(),
    );
    let out = chaupar(&["verify", "-"], &wrong);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("does not match the commitment"),
        "{}",
        stderr(&out)
    );

    let none: String = text
        .lines()
        .filter(|l| !l.starts_with("[DiceSecret"))
        .map(|l| format!("{l}\n"))
        .collect();
    let out = chaupar(&["verify", "-"], &none);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("no [DiceSecret]"), "{}", stderr(&out));

    let seeded = "[Rules \"chaupar\"]\n[Players \"4\"]\n[Seed \"3\"]\n";
    let out = chaupar(&["verify", "-"], seeded);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("practice game"), "{}", stderr(&out));

    let out = chaupar(&["verify", "/no/such/file"], "");
    assert_eq!(out.status.code(), Some(1));
}
