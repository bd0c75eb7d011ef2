//! Tests of game records: writing, replaying, refusing, verifying.

use super::*;
use crate::fair::{ClientSeeds, DiceSecret};
use crate::{legal_plays, Preset};

fn play_out(game: &mut Game, turns: usize) {
    for k in 0..turns {
        let Ok(t) = game.throw() else { return };
        let plays = legal_plays(game.position(), t).unwrap();
        let steps = plays.get(k % plays.len().max(1)).map(|p| p.steps.clone());
        game.play(&steps.unwrap_or_default()).unwrap();
    }
}

fn committed(seeds: ClientSeeds) -> Game {
    let rules = Rules::preset(Preset::Chausar);
    Game::committed(rules, 2, DiceSecret::from_bytes([3; 32]), seeds).unwrap()
}

#[test]
fn a_running_committed_game_shows_its_commitment_and_not_its_secret() {
    let mut seeds = ClientSeeds::default();
    seeds.set(Colour::Yellow, "abc".parse().unwrap(), 0);
    let mut game = committed(seeds);
    play_out(&mut game, 10);
    assert!(game.add_client_seed(Colour::Red, "late".parse().unwrap()));
    assert!(!game.add_client_seed(Colour::Red, "again".parse().unwrap()));
    play_out(&mut game, 10);
    let text = write(&game, &[]);
    let secret = DiceSecret::from_bytes([3; 32]).to_string();
    assert!(text.contains(&format!("[DiceCommit \"{}\"]", game.commitment().unwrap())));
    let from = game.throw_off().len() + 10;
    assert!(text.contains(&format!("[ClientSeed \"red {from} late\"]")));
    assert!(text.contains("[ClientSeed \"yellow 0 abc\"]"));
    assert!(!text.contains("[Seed") && !text.contains(&secret) && !text.contains("DiceSecret"));
    // Replayed from the record alone: the throws as written, no dice.
    let again = replay(&text).unwrap();
    assert_eq!(again.position(), game.position());
    assert!(!again.throws_itself());
    assert_eq!(write(&again, &[]), text);
    // With the secret kept apart: every throw checked, and it throws on.
    let secret = DiceSecret::from_bytes([3; 32]);
    let mut resumed = replay_with_secret(&text, &secret).unwrap();
    assert_eq!(resumed.all_throws(), game.all_throws());
    assert_eq!(resumed.throw().unwrap(), game.throw().unwrap());
    let wrong = DiceSecret::from_bytes([4; 32]);
    assert_eq!(
        replay_with_secret(&text, &wrong).unwrap_err().kind,
        RecordErrorKind::Dice(FairError::Commitment)
    );
    assert_eq!(verify(&text), Err(VerifyError::NoSecret));
}

#[test]
fn a_finished_committed_game_reveals_its_secret_and_verifies() {
    let mut seeds = ClientSeeds::default();
    seeds.set(Colour::Black, "b-1".parse().unwrap(), 0);
    let mut game = committed(seeds);
    play_out(&mut game, 5);
    game.add_client_seed(Colour::Yellow, "y".parse().unwrap());
    play_out(&mut game, 5000);
    assert!(game.position().to_move().is_none(), "the game ends");
    let text = write(&game, &[]);
    assert!(text.contains(&format!(
        "[DiceSecret \"{}\"]",
        DiceSecret::from_bytes([3; 32])
    )));
    let again = replay(&text).unwrap();
    assert!(again.throws_itself());
    assert_eq!(again.position(), game.position());
    let total = game.all_throws().len();
    assert_eq!(verify(&text), Ok(total));

    // A tampered turn throw is named by its number (throw-off counted).
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("3. ")).unwrap();
    let mut words: Vec<String> = lines[at].split(' ').map(String::from).collect();
    let old: Throw = words[2].parse().unwrap();
    let new = if old.dice() == [1, 1, 1] {
        "2,2,2"
    } else {
        "1,1,1"
    };
    words[2] = new.into();
    let mut tampered: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    tampered[at] = words.join(" ");
    let tampered = tampered.join("\n");
    let n = game.throw_off().len() as u64 + 2;
    match verify(&tampered) {
        Err(VerifyError::Fair(FairError::Throw { n: got, .. })) => assert_eq!(got, n),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        replay(&tampered).unwrap_err().kind,
        RecordErrorKind::SeedThrows { .. }
    ));

    // A tampered throw-off throw is throw 1.
    let to = throw_off_text(&game);
    let first = to.split(' ').next().unwrap();
    let swapped = if first.ends_with("1,1,1") {
        format!("{}2,2,2", &first[..2])
    } else {
        format!("{}1,1,1", &first[..2])
    };
    let bad_off = text.replacen(first, &swapped, 1);
    assert!(matches!(
        verify(&bad_off),
        Err(VerifyError::Fair(FairError::Throw { n: 0, .. })) | Err(VerifyError::Record(_))
    ));

    // A wrong secret.
    let wrong = text.replace(
        &DiceSecret::from_bytes([3; 32]).to_string(),
        &DiceSecret::from_bytes([4; 32]).to_string(),
    );
    assert_eq!(
        verify(&wrong),
        Err(VerifyError::Fair(FairError::Commitment))
    );
    assert_eq!(
        replay(&wrong).unwrap_err().kind,
        RecordErrorKind::Dice(FairError::Commitment)
    );
}

#[test]
fn seeded_records_are_practice_and_unchanged() {
    let mut game = Game::new(Rules::preset(Preset::Chaupar), 4, 42).unwrap();
    play_out(&mut game, 30);
    let text = write(&game, &[]);
    assert!(text.contains("[Seed \"42\"]") && !text.contains("Dice"));
    assert_eq!(verify(&text), Err(VerifyError::Practice));
    assert_eq!(replay(&text).unwrap().position(), game.position());
}

#[test]
fn a_game_without_dice_takes_fresh_committed_dice_from_the_next_throw() {
    let mut game = Game::new(Rules::preset(Preset::Chausar), 2, 9).unwrap();
    play_out(&mut game, 12);
    let text = write(&game, &[]).replace("[Seed \"9\"]\n", "");
    let mut imported = replay(&text).unwrap();
    assert!(!imported.throws_itself());
    let secret = DiceSecret::from_bytes([8; 32]);
    imported.recommit(secret).unwrap();
    assert_eq!(imported.recommit(secret), Err(GameError::HasDice));
    let k = imported.throws_made();
    assert_eq!(imported.dice_from(), k);
    imported.add_client_seed(Colour::Red, "r".parse().unwrap());
    play_out(&mut imported, 5000);
    let text = write(&imported, &[]);
    assert!(text.contains(&format!("[DiceFrom \"{k}\"]")));
    let made = imported.all_throws().len() as u64;
    if imported.position().to_move().is_none() {
        assert_eq!(verify(&text), Ok((made - k) as usize));
    }
    let running = replay_with_secret(&write(&imported, &[]), &secret).unwrap();
    assert_eq!(running.position(), imported.position());
}

#[test]
fn bad_dice_tags_are_refused() {
    let base = "[Rules \"chausar\"]\n[Players \"2\"]\n";
    let commit = DiceSecret::from_bytes([1; 32]).commitment();
    let bad = |tags: &str| replay(&format!("{base}{tags}")).unwrap_err().kind;
    assert!(matches!(
        bad("[DiceCommit \"xyz\"]\n"),
        RecordErrorKind::Dice(FairError::Hex { .. })
    ));
    assert_eq!(
        bad("[DiceSecret \"00\"]\n").to_string(),
        "the dice secret must be 64 hexadecimal digits"
    );
    assert_eq!(
        bad(&format!("[DiceSecret \"{}\"]\n", "0".repeat(64))),
        RecordErrorKind::NoCommit
    );
    assert_eq!(
        bad(&format!("[Seed \"1\"]\n[DiceCommit \"{commit}\"]\n")),
        RecordErrorKind::SeedAndCommit
    );
    for seed in [
        "yellow x abc",
        "purple 0 abc",
        "yellow 0 a b",
        "yellow 0",
        "yellow 0 é",
    ] {
        assert!(
            matches!(
                bad(&format!(
                    "[DiceCommit \"{commit}\"]\n[ClientSeed \"{seed}\"]\n"
                )),
                RecordErrorKind::ClientSeed(_)
            ),
            "{seed}"
        );
    }
    assert!(matches!(
        bad(&format!("[DiceCommit \"{commit}\"]\n[DiceFrom \"-1\"]\n")),
        RecordErrorKind::DiceFrom(_)
    ));
    assert!(matches!(
        bad(&format!(
            "[DiceCommit \"{commit}\"]\n[ThrowOff \"Y:1,1,1\"]\n"
        )),
        RecordErrorKind::ThrowOffForm(_)
    ));
    assert!(matches!(
        bad(&format!(
            "[DiceCommit \"{commit}\"]\n[ThrowOff \"Y:1,1,1 B:6,6,6\"]\n[First \"yellow\"]\n"
        )),
        RecordErrorKind::FirstDiffers { .. }
    ));
}
