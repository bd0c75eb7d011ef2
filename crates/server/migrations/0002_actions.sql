-- Storage that appends: a game's row is its head (the game as made, at
-- base_version, and its current version); every change after it is one row of
-- actions, numbered by the version it makes.
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN base_version BIGINT NOT NULL DEFAULT 1;
-- When the server must act in the game (seconds since 1970): a computer to
-- move, or a person's time running out; NULL when it waits for people.
ALTER TABLE games ADD COLUMN due BIGINT;
CREATE INDEX games_due ON games (due);
CREATE INDEX games_listed ON games (status, updated);
CREATE TABLE actions (
    game TEXT NOT NULL,
    seq BIGINT NOT NULL,
    at BIGINT NOT NULL,
    action TEXT NOT NULL,
    action_id TEXT,
    PRIMARY KEY (game, seq)
);
CREATE UNIQUE INDEX actions_by_id ON actions (game, action_id);
-- Which instance drives a game's computer seats, until when (milliseconds).
CREATE TABLE leases (
    game TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    until BIGINT NOT NULL
);
