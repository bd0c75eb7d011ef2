-- The games: one row each (as stored before the actions table existed).
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    record TEXT NOT NULL,
    partial TEXT NOT NULL,
    seats TEXT NOT NULL,
    delay_ms BIGINT NOT NULL,
    status TEXT NOT NULL,
    summary TEXT NOT NULL,
    dice TEXT NOT NULL DEFAULT '',
    seating TEXT NOT NULL DEFAULT '',
    chat TEXT NOT NULL DEFAULT '[]'
);
