//! The computer players: a driver task per game throws and plays for the
//! computer seats while one of them is to move, and plays a person's turn when
//! their time runs out. One server at a time drives a game: it holds the game's
//! lease ([`crate::db::leases`]) and renews it before every move; a sweep on
//! every server starts the games that are due and that no lease covers (after a
//! restart, or when the server that drove them died).

use std::time::Duration;

use chaupar_core::legal_plays;

use crate::bots;
use crate::db::leases;
use crate::error::ApiError;
use crate::event::Event;
use crate::live::{Core, Seat};
use crate::state::{blocking, change, Answer, Shared, Slot};

/// How long a lease lasts beyond the next move's pause, in milliseconds: how
/// soon another server takes over the games of one that died.
const LEASE_MS: i64 = 3000;

/// How often the sweep looks for games that are due.
const SWEEP: Duration = Duration::from_secs(1);

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

/// Every [`SWEEP`], starts the games in which the server is due to act and
/// that no server drives; and keeps the cache of games within bounds.
pub(crate) fn spawn_sweep(state: Shared) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let now_ms = crate::db::now_ms();
            match crate::db::games::due(&state.db, now_ms / 1000, now_ms, 256).await {
                Ok(ids) => {
                    for id in ids {
                        kick(state.clone(), id);
                    }
                }
                Err(e) => tracing::warn!("sweep: {e}"),
            }
            state.evict(state.opts.games_in_memory);
        }
    });
}

/// Takes or renews this server's lease of the game for a move after `delay_ms`.
async fn lease(state: &Shared, id: &str, delay_ms: u64) -> Result<bool, ApiError> {
    let now = crate::db::now_ms();
    let until = now + LEASE_MS + delay_ms as i64;
    Ok(leases::take(&state.db, id, &state.holder, now, until).await?)
}

/// Plays turn number `turn` (0-based count of turns played) for the person to
/// move if their time has run out; answers whether it did.
async fn out_of_time(state: &Shared, s: &Slot, turn: usize) -> Result<bool, ApiError> {
    let mut e = s.lock().await;
    let due = e.core.deadline().is_some_and(|d| d <= crate::live::now());
    if e.deleted || !due || e.core.game.turns().len() != turn {
        return Ok(false);
    }
    let id = e.core.id.clone();
    if !lease(state, &id, 0).await? {
        return Ok(false);
    }
    let late = move |core: &Core| {
        let out = core.deadline().is_some_and(|d| d <= crate::live::now());
        match core.seat_to_move() {
            Some((seat, Seat::Person)) if out && core.game.turns().len() == turn => Ok(seat),
            _ => Err(ApiError::conflict("the turn was played in time")),
        }
    };
    if e.core.turn.is_none() {
        let throw = |core: &Core| late(core).map(|seat| Event::ServerThrow { seat });
        if change(state, &mut e, Answer::Nothing, None, throw)
            .await
            .is_err()
        {
            return Ok(false);
        }
    }
    let Some(t) = e.core.turn.clone() else {
        return Ok(false);
    };
    let level = e.core.seating.auto_level.clamp(1, 5);
    let version = e.core.version;
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
    let play = |core: &Core| {
        let seat = late(core)?;
        if core.version != version {
            return Err(ApiError::conflict("the turn changed while it was chosen"));
        }
        Ok(Event::Play {
            seat,
            steps: steps.clone(),
            timed_out: true,
        })
    };
    Ok(change(state, &mut e, Answer::Nothing, None, play)
        .await
        .is_ok())
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

/// An error unless `colour` is the computer seat to move, at `version` when
/// it is given.
fn still(core: &Core, colour: chaupar_core::Colour, version: Option<u64>) -> Result<(), ApiError> {
    let moved = version.is_some_and(|v| v != core.version);
    match computer_to_move(core) {
        Some((c, _)) if c == colour && !moved => Ok(()),
        _ => Err(ApiError::conflict("the game moved on")),
    }
}

async fn drive(state: &Shared, s: &Slot) -> Result<(), ApiError> {
    // Moves refused in a row because the game moved on: a few are a race with
    // another server; many mean something is wrong.
    let mut refused = 0;
    loop {
        if refused > 3 {
            return Err(ApiError::internal(
                "the computer's moves keep being refused",
            ));
        }
        // Stop (clearing the flag under the same lock) when no computer is to move
        // or another server drives the game, so that a later kick always finds
        // the flag clear.
        let (id, delay) = {
            let mut e = s.lock().await;
            let id = e.core.id.clone();
            let delay = e.core.delay_ms;
            if e.deleted || computer_to_move(&e.core).is_none() {
                e.driving = false;
                drop(e);
                leases::release(&state.db, &id, &state.holder).await?;
                return Ok(());
            }
            if !lease(state, &id, delay).await? {
                e.driving = false;
                return Ok(());
            }
            (id, delay)
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
            let throw = |core: &Core| {
                still(core, colour, None)?;
                Ok(Event::ServerThrow { seat: colour })
            };
            match change(state, &mut e, Answer::Nothing, None, throw).await {
                Ok(_) => refused = 0,
                Err(err) => refused += moved_on(err, &id)?,
            }
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
        if e.deleted {
            continue;
        }
        let play = |core: &Core| {
            still(core, colour, Some(version))?;
            Ok(Event::Play {
                seat: colour,
                steps: steps.clone(),
                timed_out: false,
            })
        };
        match change(state, &mut e, Answer::Nothing, None, play).await {
            Ok(_) => refused = 0,
            Err(err) => refused += moved_on(err, &id)?,
        }
    }
}

/// Goes on driving when a move was refused because the game moved on (another
/// server or a person came first); stops on any other error.
fn moved_on(err: ApiError, id: &str) -> Result<u32, ApiError> {
    if err.status == axum::http::StatusCode::CONFLICT {
        tracing::debug!(game = %id, "computer move not made: {}", err.message);
        return Ok(1);
    }
    Err(err)
}
