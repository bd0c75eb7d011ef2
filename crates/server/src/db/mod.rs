//! Storage in SQLite or PostgreSQL (through sqlx's Any driver), the same tables
//! on both, made and changed by the migrations in `crates/server/migrations`.
//!
//! A game is a head row in `games` (the game as it was made, and its current
//! `version`) and one row in `actions` for every change since, numbered by the
//! version it makes: an action appends one row and moves the head's version on
//! in one transaction, and only from the version it was made on
//! ([`actions::append`]), so no two actions are ever stored on one version, by
//! one server or several. `leases` says which server drives a game's computer
//! seats.

pub mod actions;
pub mod games;
pub mod leases;

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::AnyPool;

pub use actions::{Appended, StoredAction};
pub use games::{Brief, Stored};

/// The schema's migrations, embedded in the binary.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The channel on which PostgreSQL servers announce every change
/// (`NOTIFY chaupar_games, 'ID VERSION'` or `'ID deleted'`).
pub const CHANNEL: &str = "chaupar_games";

/// The database: where writes go, where reads go, and what kind it is.
#[derive(Clone, Debug)]
pub struct Db {
    /// Writes (SQLite: one connection, the only writer).
    pub write: AnyPool,
    /// Reads (SQLite in WAL mode: a pool of readers beside the writer;
    /// PostgreSQL: the same pool as the writes).
    pub read: AnyPool,
    /// The URL it was opened with (PostgreSQL's listener opens its own
    /// connection with it).
    pub url: String,
    /// Whether it is PostgreSQL, which several servers may share.
    pub postgres: bool,
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

/// A database URL as it may be logged or shown: any password replaced by
/// `***`.
///
/// ```
/// use chaupar_server::db::without_password;
/// assert_eq!(
///     without_password("postgres://chaupar:s3cret@db:5432/games"),
///     "postgres://chaupar:***@db:5432/games"
/// );
/// assert_eq!(without_password("/var/lib/chaupar/chaupar.db"), "/var/lib/chaupar/chaupar.db");
/// ```
pub fn without_password(db: &str) -> String {
    let Some((scheme, rest)) = db.split_once("://") else {
        return db.to_string();
    };
    let Some((auth, host)) = rest.rsplit_once('@') else {
        return db.to_string();
    };
    match auth.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => db.to_string(),
    }
}

/// How many connections read a SQLite file beside its one writer.
const SQLITE_READERS: u32 = 4;

/// How many connections one server keeps to PostgreSQL.
const POSTGRES_CONNECTIONS: u32 = 16;

/// Opens the database, brings its schema up to date and, for SQLite, turns on
/// write-ahead logging (readers never wait for the writer, and a commit is
/// one append to the log).
///
/// SQLite runs with `synchronous = NORMAL`: a commit survives the server
/// being killed at any moment (kill -9), but the last commits before a power
/// cut may be lost; with `full_sync`, `synchronous = FULL` waits for the disk
/// on every commit and loses nothing to a power cut either.
pub async fn open(db: &str, full_sync: bool) -> Result<Db, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let url = url_of(db);
    let postgres = !url.starts_with("sqlite:");
    let memory = url.contains(":memory:");
    let write = AnyPoolOptions::new()
        .max_connections(if postgres { POSTGRES_CONNECTIONS } else { 1 })
        .acquire_timeout(Duration::from_secs(10))
        .after_connect(move |conn, _| {
            Box::pin(async move {
                if !postgres {
                    let sync = if full_sync { "FULL" } else { "NORMAL" };
                    sqlx::query(&format!("PRAGMA synchronous = {sync}"))
                        .execute(&mut *conn)
                        .await?;
                }
                Ok(())
            })
        })
        .connect(&url)
        .await?;
    if !postgres && !memory {
        sqlx::query("PRAGMA journal_mode = WAL")
            .execute(&write)
            .await?;
    }
    upgrade_unmigrated(&write).await?;
    MIGRATOR
        .run(&write)
        .await
        .map_err(|e| sqlx::Error::Migrate(Box::new(e)))?;
    let read = if postgres || memory {
        write.clone()
    } else {
        AnyPoolOptions::new()
            .max_connections(SQLITE_READERS)
            .acquire_timeout(Duration::from_secs(10))
            .connect(&url)
            .await?
    };
    Ok(Db {
        write,
        read,
        url,
        postgres,
    })
}

/// Brings a games table made before the migrations existed (before the dice,
/// seating and chat columns, in some databases) to the shape of the first
/// migration, which then finds it made.
async fn upgrade_unmigrated(pool: &AnyPool) -> Result<(), sqlx::Error> {
    let migrated = sqlx::query("SELECT version FROM _sqlx_migrations LIMIT 1")
        .fetch_optional(pool)
        .await
        .is_ok();
    let has_games = sqlx::query("SELECT id FROM games LIMIT 1")
        .fetch_optional(pool)
        .await
        .is_ok();
    if migrated || !has_games {
        return Ok(());
    }
    add_column(pool, "dice", "TEXT NOT NULL DEFAULT ''").await?;
    add_column(pool, "seating", "TEXT NOT NULL DEFAULT ''").await?;
    add_column(pool, "chat", "TEXT NOT NULL DEFAULT '[]'").await?;
    Ok(())
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

/// Milliseconds since 1970.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
