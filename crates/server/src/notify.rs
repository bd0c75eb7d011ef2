//! Changes made by other servers on the same PostgreSQL database: every
//! stored action is announced (`NOTIFY chaupar_games, 'ID VERSION'`, or
//! `'ID deleted'`) when its transaction commits; this server listens and
//! catches up the games it has in memory, pushing every change to their
//! WebSockets in order. Notifications missed while the listening connection
//! was down are made up for by catching up every game in memory when it is
//! back.

use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::db::CHANNEL;
use crate::state::{catch_up, refresh, Shared};

/// Listens for as long as the server runs, reconnecting after a second when
/// the connection fails.
pub(crate) fn spawn(state: Shared) {
    tokio::spawn(async move {
        loop {
            if let Err(e) = listen(&state).await {
                tracing::warn!("listening to other servers' changes: {e}");
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    });
}

async fn listen(state: &Shared) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect(&state.db.url).await?;
    listener.listen(CHANNEL).await?;
    refresh_all(state);
    loop {
        match listener.try_recv().await? {
            Some(n) => heard(state, n.payload()),
            // The connection was lost (the next call reconnects): changes may
            // have been missed meanwhile.
            None => refresh_all(state),
        }
    }
}

/// Handles one announcement: catches up the game if it is in memory here and
/// behind.
fn heard(state: &Shared, payload: &str) {
    let Some((id, what)) = payload.split_once(' ') else {
        return;
    };
    let Some(slot) = state.slots_of(id) else {
        return;
    };
    let version: Option<u64> = what.parse().ok();
    let state = state.clone();
    tokio::spawn(async move {
        let mut e = slot.lock().await;
        if e.deleted || version.is_some_and(|v| v <= e.core.version) {
            return;
        }
        let r = match version {
            Some(_) => catch_up(&state, &mut e).await,
            None => refresh(&state, &mut e).await,
        };
        if let Err(err) = r {
            tracing::debug!(game = %e.core.id, "catching up: {}", err.message);
        }
    });
}

/// Catches up every game in memory.
fn refresh_all(state: &Shared) {
    for (_, slot) in state.slots() {
        let state = state.clone();
        tokio::spawn(async move {
            let mut e = slot.lock().await;
            let _ = refresh(&state, &mut e).await;
        });
    }
}
