//! The games' head rows: the game as it was made, its current version, and
//! what the list of games shows.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::Db;

/// A game's head row: the game as it was made (at `base_version`), and what
/// changes with every action (`version`, `updated`, `status`, `summary`,
/// `due`).
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
    /// The game's version now: `base_version` and one more for every action.
    pub version: i64,
    /// The version of the game as written in this row (the actions stored
    /// after it make the game as it is now).
    pub base_version: i64,
    /// When the server must act in the game (seconds since 1970): a computer
    /// to move, or a person's time running out.
    pub due: Option<i64>,
}

/// What changes in a game's head row with every action.
#[derive(Clone, Debug)]
pub struct Head {
    /// The version the action makes.
    pub version: i64,
    /// When, in seconds since 1970.
    pub updated: i64,
    /// `playing` or `over`.
    pub status: String,
    /// The list's summary, as JSON.
    pub summary: String,
    /// When the server must act next.
    pub due: Option<i64>,
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
        version: r.try_get("version")?,
        base_version: r.try_get("base_version")?,
        due: r.try_get("due")?,
    })
}

const COLS: &str = "id, created, updated, record, partial, seats, delay_ms, status, summary, \
     dice, seating, chat, version, base_version, due";

/// Stores a new game.
pub async fn insert(db: &Db, g: &Stored) -> Result<(), sqlx::Error> {
    sqlx::query(&format!(
        "INSERT INTO games ({COLS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
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
    .bind(g.version)
    .bind(g.base_version)
    .bind(g.due)
    .execute(&db.write)
    .await?;
    Ok(())
}

/// One game's head row.
pub async fn load(db: &Db, id: &str) -> Result<Option<Stored>, sqlx::Error> {
    let r = sqlx::query(&format!("SELECT {COLS} FROM games WHERE id = $1"))
        .bind(id.to_string())
        .fetch_optional(&db.read)
        .await?;
    r.as_ref().map(row).transpose()
}

/// A game's version now, or `None` when there is no such game.
pub async fn version(db: &Db, id: &str) -> Result<Option<i64>, sqlx::Error> {
    let r = sqlx::query("SELECT version FROM games WHERE id = $1")
        .bind(id.to_string())
        .fetch_optional(&db.read)
        .await?;
    r.map(|r| r.try_get("version")).transpose()
}

/// The games in which the server is due to act by `now` (seconds since 1970)
/// and which no server's lease covers at `now_ms`: at most `limit` of them.
pub async fn due(db: &Db, now: i64, now_ms: i64, limit: i64) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id FROM games WHERE due IS NOT NULL AND due <= $1
         AND NOT EXISTS (SELECT 1 FROM leases WHERE leases.game = games.id AND leases.until > $2)
         ORDER BY due LIMIT $3",
    )
    .bind(now)
    .bind(now_ms)
    .bind(limit)
    .fetch_all(&db.read)
    .await?;
    rows.iter().map(|r| r.try_get("id")).collect()
}

/// Removes a game, its actions and its lease, and announces it (PostgreSQL).
pub async fn delete(db: &Db, id: &str) -> Result<bool, sqlx::Error> {
    let mut tx = db.write.begin().await?;
    for table in [
        "DELETE FROM actions WHERE game = $1",
        "DELETE FROM leases WHERE game = $1",
    ] {
        sqlx::query(table)
            .bind(id.to_string())
            .execute(&mut *tx)
            .await?;
    }
    let r = sqlx::query("DELETE FROM games WHERE id = $1")
        .bind(id.to_string())
        .execute(&mut *tx)
        .await?;
    if db.postgres {
        super::actions::notify(&mut tx, &format!("{id} deleted")).await?;
    }
    tx.commit().await?;
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
    db: &Db,
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
    let rows = q.fetch_all(&db.read).await?;
    let total: i64 = c.fetch_one(&db.read).await?.try_get("n")?;
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
