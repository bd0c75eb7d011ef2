//! Storage: one row per game in SQLite or PostgreSQL (through sqlx's Any driver).

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

/// A stored game as it is in the database.
#[derive(Clone, Debug)]
pub struct Stored {
    pub id: String,
    pub created: i64,
    pub updated: i64,
    pub record: String,
    pub partial: String,
    pub seats: String,
    pub delay_ms: i64,
    pub status: String,
    pub summary: String,
    /// Who holds the seats: [`crate::seats::Seating`] as JSON (hashes only);
    /// empty for games stored before seats had tokens.
    pub seating: String,
    /// The chat of the game's players: [`crate::live::ChatLine`]s as JSON.
    pub chat: String,
}

/// Makes a database URL from what the user gave: a URL, or a plain file path.
pub fn url_of(db: &str) -> String {
    if db.starts_with("sqlite:") || db.starts_with("postgres:") || db.starts_with("postgresql:") {
        if db.starts_with("sqlite:") && !db.contains('?') && !db.contains(":memory:") {
            format!("{db}?mode=rwc")
        } else {
            db.to_string()
        }
    } else {
        format!("sqlite://{db}?mode=rwc")
    }
}

/// Opens the database and makes the table.
pub async fn open(db: &str) -> Result<AnyPool, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let url = url_of(db);
    let max = if url.starts_with("sqlite:") { 1 } else { 5 };
    let pool = AnyPoolOptions::new()
        .max_connections(max)
        .connect(&url)
        .await?;
    sqlx::query(
        "CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            created BIGINT NOT NULL,
            updated BIGINT NOT NULL,
            record TEXT NOT NULL,
            partial TEXT NOT NULL,
            seats TEXT NOT NULL,
            delay_ms BIGINT NOT NULL,
            status TEXT NOT NULL,
            summary TEXT NOT NULL,
            seating TEXT NOT NULL DEFAULT '',
            chat TEXT NOT NULL DEFAULT '[]'
        )",
    )
    .execute(&pool)
    .await?;
    // Databases made before seats had tokens lack these columns: add them once.
    for (col, default) in [("seating", "''"), ("chat", "'[]'")] {
        if sqlx::query(&format!("SELECT {col} FROM games LIMIT 1"))
            .fetch_optional(&pool)
            .await
            .is_err()
        {
            sqlx::query(&format!(
                "ALTER TABLE games ADD COLUMN {col} TEXT NOT NULL DEFAULT {default}"
            ))
            .execute(&pool)
            .await?;
        }
    }
    Ok(pool)
}

fn row(r: &AnyRow) -> Result<Stored, sqlx::Error> {
    Ok(Stored {
        id: r.try_get("id")?,
        created: r.try_get("created")?,
        updated: r.try_get("updated")?,
        record: r.try_get("record")?,
        partial: r.try_get("partial")?,
        seats: r.try_get("seats")?,
        delay_ms: r.try_get("delay_ms")?,
        status: r.try_get("status")?,
        summary: r.try_get("summary")?,
        seating: r.try_get("seating")?,
        chat: r.try_get("chat")?,
    })
}

const COLS: &str =
    "id, created, updated, record, partial, seats, delay_ms, status, summary, seating, chat";

/// Writes a game (insert or replace).
pub async fn save(pool: &AnyPool, g: &Stored) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO games ({COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO UPDATE SET updated = $3, record = $4, partial = $5,
         seats = $6, delay_ms = $7, status = $8, summary = $9, seating = $10, chat = $11"
    ))
    .bind(g.id.clone())
    .bind(g.created)
    .bind(g.updated)
    .bind(g.record.clone())
    .bind(g.partial.clone())
    .bind(g.seats.clone())
    .bind(g.delay_ms)
    .bind(g.status.clone())
    .bind(g.summary.clone())
    .bind(g.seating.clone())
    .bind(g.chat.clone())
    .execute(pool)
    .await?;
    Ok(())
}

/// One game.
pub async fn load(pool: &AnyPool, id: &str) -> Result<Option<Stored>, sqlx::Error> {
    let r = sqlx::query(&format!("SELECT {COLS} FROM games WHERE id = $1"))
        .bind(id.to_string())
        .fetch_optional(pool)
        .await?;
    r.as_ref().map(row).transpose()
}

/// Every game, newest first.
pub async fn list(pool: &AnyPool) -> Result<Vec<Stored>, sqlx::Error> {
    let rows = sqlx::query(&format!("SELECT {COLS} FROM games ORDER BY updated DESC"))
        .fetch_all(pool)
        .await?;
    rows.iter().map(row).collect()
}

/// Removes a game.
pub async fn delete(pool: &AnyPool, id: &str) -> Result<bool, sqlx::Error> {
    let r = sqlx::query("DELETE FROM games WHERE id = $1")
        .bind(id.to_string())
        .execute(pool)
        .await?;
    Ok(r.rows_affected() > 0)
}
