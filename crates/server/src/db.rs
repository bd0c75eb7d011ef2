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
    /// The secret of the game's committed dice (64 hexadecimal digits), or
    /// empty. Never shown while the game runs: kept apart from the record.
    pub dice: String,
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
    add_column(&pool, "dice", "TEXT NOT NULL DEFAULT ''").await?;
    add_column(&pool, "seating", "TEXT NOT NULL DEFAULT ''").await?;
    add_column(&pool, "chat", "TEXT NOT NULL DEFAULT '[]'").await?;
    Ok(pool)
}

/// Adds a column to the games table of an older database (the same SQL on
/// SQLite and PostgreSQL: tried only when selecting it fails).
async fn add_column(pool: &AnyPool, name: &str, decl: &str) -> Result<(), sqlx::Error> {
    let probe = format!("SELECT {name} FROM games LIMIT 1");
    if sqlx::query(&probe).fetch_optional(pool).await.is_err() {
        sqlx::query(&format!("ALTER TABLE games ADD COLUMN {name} {decl}"))
            .execute(pool)
            .await?;
    }
    Ok(())
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
        dice: r.try_get("dice")?,
        seating: r.try_get("seating")?,
        chat: r.try_get("chat")?,
    })
}

const COLS: &str =
    "id, created, updated, record, partial, seats, delay_ms, status, summary, dice, seating, chat";

/// Writes a game (insert or replace).
pub async fn save(pool: &AnyPool, g: &Stored) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO games ({COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (id) DO UPDATE SET updated = $3, record = $4, partial = $5,
         seats = $6, delay_ms = $7, status = $8, summary = $9, dice = $10, seating = $11, chat = $12"
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
    .bind(g.dice.clone())
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

/// A game as the list shows it (without its record).
#[derive(Clone, Debug)]
pub struct Brief {
    pub id: String,
    pub created: i64,
    pub updated: i64,
    pub status: String,
    pub summary: String,
}

/// One page of the games with `status` (all games for `None`), most recently
/// changed first: at most `limit` from the `offset`th, and how many there are.
pub async fn page(
    pool: &AnyPool,
    status: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<Brief>, i64), sqlx::Error> {
    let (filter, count_filter) = match status {
        Some(_) => ("WHERE status = $3", "WHERE status = $1"),
        None => ("", ""),
    };
    let select = format!(
        "SELECT id, created, updated, status, summary FROM games {filter}
         ORDER BY updated DESC, id LIMIT $1 OFFSET $2"
    );
    let count = format!("SELECT COUNT(*) AS n FROM games {count_filter}");
    let mut q = sqlx::query(&select).bind(limit).bind(offset);
    let mut c = sqlx::query(&count);
    if let Some(s) = status {
        q = q.bind(s.to_string());
        c = c.bind(s.to_string());
    }
    let rows = q.fetch_all(pool).await?;
    let total: i64 = c.fetch_one(pool).await?.try_get("n")?;
    let games = rows
        .iter()
        .map(|r| {
            Ok(Brief {
                id: r.try_get("id")?,
                created: r.try_get("created")?,
                updated: r.try_get("updated")?,
                status: r.try_get("status")?,
                summary: r.try_get("summary")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok((games, total))
}
