//! The computer players: a driver task per game throws and plays for the
//! computer seats while one of them is to move.

use std::time::Duration;

use chaupar_core::legal_plays;

use crate::bots;
use crate::error::ApiError;
use crate::live::{Core, Seat};
use crate::state::{blocking, change, Answer, Shared, Slot};

/// Starts the computer player of a game if a computer is to move and none runs.
pub(crate) fn kick(state: Shared, id: String) {
    tokio::spawn(async move {
        let Ok(s) = state.slot(&id).await else {
            return;
        };
        {
            let mut e = s.lock().await;
            if e.driving {
                return;
            }
            e.driving = true;
        }
        if let Err(err) = drive(&state, &s).await {
            s.lock().await.driving = false;
            tracing::error!(game = %id, "computer player stopped: {}", err.message);
            return;
        }
        // A person to move with `turn_seconds`: the computer plays the turn for
        // them when the time runs out (unless the turn was played meanwhile).
        let (deadline, turn) = {
            let e = s.lock().await;
            (e.core.deadline(), e.core.game.turns().len())
        };
        if let Some(deadline) = deadline {
            let wait = (deadline - crate::live::now()).max(0) as u64;
            tokio::time::sleep(Duration::from_secs(wait)).await;
            match out_of_time(&state, &s, turn).await {
                Ok(true) => kick(state, id),
                Ok(false) => {}
                Err(err) => tracing::error!(game = %id, "timed-out turn: {}", err.message),
            }
        }
    });
}

/// Plays turn number `turn` (0-based count of turns played) for the person to
/// move if their time has run out; answers whether it did.
async fn out_of_time(state: &Shared, s: &Slot, turn: usize) -> Result<bool, ApiError> {
    let mut e = s.lock().await;
    let due = e.core.deadline().is_some_and(|d| d <= crate::live::now());
    if e.deleted || !due || e.core.game.turns().len() != turn {
        return Ok(false);
    }
    if e.core.turn.is_none() {
        let throw = |next: &mut Core| next.throw().map_err(ApiError::conflict);
        change(&state.db, &mut e, Answer::Nothing, throw).await?;
    }
    let Some(t) = e.core.turn.clone() else {
        return Ok(false);
    };
    let level = e.core.seating.auto_level.clamp(1, 5);
    drop(e);
    let (pos, throw) = (*t.start(), t.throw());
    let steps = blocking(move || {
        let plays = legal_plays(&pos, throw).unwrap_or_default();
        if plays.is_empty() {
            return Vec::new();
        }
        let mut bot = bots::level(level, crate::live::server_u64());
        let i = bot.choose(&pos, throw, &plays).min(plays.len() - 1);
        plays[i].steps.clone()
    })
    .await?;
    let mut e = s.lock().await;
    if e.deleted || e.core.game.turns().len() != turn {
        return Ok(false);
    }
    let play = move |next: &mut Core| {
        next.play_whole(&steps).map_err(ApiError::conflict)?;
        next.seating.timed_out.push(turn + 1);
        Ok(())
    };
    change(&state.db, &mut e, Answer::Nothing, play).await?;
    Ok(true)
}

/// The computer seat to move and its level, if a computer is to move.
fn computer_to_move(core: &Core) -> Option<(chaupar_core::Colour, u8)> {
    if core.archive() {
        return None;
    }
    match core.seat_to_move()? {
        (colour, Seat::Computer { level }) => Some((colour, level)),
        (_, Seat::Person) => None,
    }
}

async fn drive(state: &Shared, s: &Slot) -> Result<(), ApiError> {
    loop {
        // Stop (clearing the flag under the same lock) when no computer is to move,
        // so that a later kick always finds the flag clear.
        let delay = {
            let mut e = s.lock().await;
            if e.deleted || computer_to_move(&e.core).is_none() {
                e.driving = false;
                return Ok(());
            }
            e.core.delay_ms
        };
        if delay > 0 {
            tokio::time::sleep(Duration::from_millis(delay)).await;
        }
        let mut e = s.lock().await;
        let Some((colour, level)) = computer_to_move(&e.core) else {
            continue;
        };
        if e.deleted {
            continue;
        }
        let Some(t) = e.core.turn.clone() else {
            let throw = |next: &mut Core| next.throw().map_err(ApiError::conflict);
            change(&state.db, &mut e, Answer::Nothing, throw).await?;
            continue;
        };
        let version = e.core.version;
        // The bots' randomness comes from the server's own generator, never
        // from the game's seed or dice (which clients see or choose).
        let mut bot = e
            .bots
            .remove(&colour)
            .unwrap_or_else(|| bots::level(level, crate::live::server_u64()));
        drop(e);
        let (pos, throw) = (*t.start(), t.throw());
        let (bot, steps) = blocking(move || {
            let plays = legal_plays(&pos, throw).unwrap_or_default();
            if plays.is_empty() {
                return (bot, Vec::new());
            }
            let i = bot.choose(&pos, throw, &plays).min(plays.len() - 1);
            (bot, plays[i].steps.clone())
        })
        .await?;
        let mut e = s.lock().await;
        e.bots.insert(colour, bot);
        if e.core.version != version || e.deleted {
            continue;
        }
        let play = move |next: &mut Core| next.play_whole(&steps).map_err(ApiError::conflict);
        change(&state.db, &mut e, Answer::Nothing, play).await?;
    }
}
