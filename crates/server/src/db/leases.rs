//! Leases: which server drives a game's computer seats (and plays a person's
//! turn when their time runs out), until when. A server holds a game's lease
//! while it drives it and renews it before every move; when the server dies,
//! the lease runs out and another server takes the game over.

use super::Db;

/// Takes or renews the lease of game `id` for `holder` until `until`
/// (milliseconds since 1970); answers whether `holder` holds it now. It is
/// taken when nobody holds it, when its holder's time has run out (`now`), or
/// when `holder` held it already.
pub async fn take(
    db: &Db,
    id: &str,
    holder: &str,
    now: i64,
    until: i64,
) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "INSERT INTO leases (game, holder, until) VALUES ($1, $2, $3)
         ON CONFLICT (game) DO UPDATE SET holder = excluded.holder, until = excluded.until
         WHERE leases.until <= $4 OR leases.holder = excluded.holder",
    )
    .bind(id.to_string())
    .bind(holder.to_string())
    .bind(until)
    .bind(now)
    .execute(&db.write)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// Gives up `holder`'s lease of game `id` (when no computer is to move).
pub async fn release(db: &Db, id: &str, holder: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM leases WHERE game = $1 AND holder = $2")
        .bind(id.to_string())
        .bind(holder.to_string())
        .execute(&db.write)
        .await?;
    Ok(())
}
