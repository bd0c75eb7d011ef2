//! The actions: one appended row for every change of a game, numbered by the
//! version it makes, with the client's `action_id` when it gave one.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::games::Head;
use super::Db;

/// One stored action.
#[derive(Clone, Debug)]
pub struct StoredAction {
    /// The version it made.
    pub seq: i64,
    /// When, in milliseconds since 1970.
    pub at: i64,
    /// The change, as JSON ([`crate::event::Event`]).
    pub action: String,
}

/// What became of an action offered to [`append`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Appended {
    /// Stored: the game is at the new version.
    Stored,
    /// Not stored: the game is no longer at the version the action was made
    /// on (another action, maybe on another server, came first), or is gone,
    /// or the `action_id` is taken. Catch up and decide again.
    Stale,
}

fn row(r: &AnyRow) -> Result<StoredAction, sqlx::Error> {
    Ok(StoredAction {
        seq: r.try_get("seq")?,
        at: r.try_get("at")?,
        action: r.try_get("action")?,
    })
}

/// Stores an action of game `id` made on version `head.version - 1`: appends
/// its row and moves the head row on, in one transaction, only if the game is
/// still at that version (compare and swap), and announces it on PostgreSQL.
pub async fn append(
    db: &Db,
    id: &str,
    head: &Head,
    at: i64,
    action: &str,
    action_id: Option<&str>,
) -> Result<Appended, sqlx::Error> {
    let mut tx = db.write.begin().await?;
    let moved = sqlx::query(
        "UPDATE games SET version = $1, updated = $2, status = $3, summary = $4, due = $5
         WHERE id = $6 AND version = $7",
    )
    .bind(head.version)
    .bind(head.updated)
    .bind(head.status.clone())
    .bind(head.summary.clone())
    .bind(head.due)
    .bind(id.to_string())
    .bind(head.version - 1)
    .execute(&mut *tx)
    .await?;
    if moved.rows_affected() != 1 {
        tx.rollback().await?;
        return Ok(Appended::Stale);
    }
    let inserted = sqlx::query(
        "INSERT INTO actions (game, seq, at, action, action_id) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id.to_string())
    .bind(head.version)
    .bind(at)
    .bind(action.to_string())
    .bind(action_id.map(str::to_string))
    .execute(&mut *tx)
    .await;
    match inserted {
        Ok(_) => {}
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
            tx.rollback().await?;
            return Ok(Appended::Stale);
        }
        Err(e) => return Err(e),
    }
    if db.postgres {
        notify(&mut tx, &format!("{id} {}", head.version)).await?;
    }
    tx.commit().await?;
    Ok(Appended::Stored)
}

/// Announces a change to every server listening (PostgreSQL; sent when the
/// transaction commits, in the order of the commits).
pub(super) async fn notify(
    tx: &mut Transaction<'_, Any>,
    payload: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(super::CHANNEL)
        .bind(payload.to_string())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The actions of game `id` after version `after`, oldest first, up to
/// version `upto` when it is given.
pub async fn after(
    db: &Db,
    id: &str,
    after: i64,
    upto: Option<i64>,
) -> Result<Vec<StoredAction>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT seq, at, action FROM actions WHERE game = $1 AND seq > $2 AND seq <= $3
         ORDER BY seq",
    )
    .bind(id.to_string())
    .bind(after)
    .bind(upto.unwrap_or(i64::MAX))
    .fetch_all(&db.read)
    .await?;
    rows.iter().map(row).collect()
}

/// The action of game `id` stored with `action_id`, if there is one.
pub async fn find(db: &Db, id: &str, action_id: &str) -> Result<Option<StoredAction>, sqlx::Error> {
    let r = sqlx::query("SELECT seq, at, action FROM actions WHERE game = $1 AND action_id = $2")
        .bind(id.to_string())
        .bind(action_id.to_string())
        .fetch_optional(&db.read)
        .await?;
    r.as_ref().map(row).transpose()
}
