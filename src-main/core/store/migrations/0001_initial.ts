// Schema 1: watchlists, maps, players, current records and their history, replays, sync runs, settings.
// A shipped migration is never edited: later changes go in a new numbered file.
import type { Database } from 'better-sqlite3';

export const version = 1;
export const name = 'initial';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE watchlists (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL COLLATE NOCASE UNIQUE,
      created_at TEXT NOT NULL
    ) STRICT;

    -- The seed's map info object, plus when we fetched it. Row IDs stay internal; map_id/map_uid are the player's keys.
    CREATE TABLE maps (
      id INTEGER PRIMARY KEY,
      map_id TEXT NOT NULL UNIQUE,
      map_uid TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      author TEXT NOT NULL,
      submitter TEXT NOT NULL,
      author_score INTEGER NOT NULL,
      gold_score INTEGER NOT NULL,
      silver_score INTEGER NOT NULL,
      bronze_score INTEGER NOT NULL,
      map_type TEXT NOT NULL,
      map_style TEXT NOT NULL,
      collection_name TEXT NOT NULL,
      filename TEXT NOT NULL,
      has_clones INTEGER NOT NULL,
      is_playable INTEGER NOT NULL,
      created_with_gamepad_editor INTEGER NOT NULL,
      created_with_simple_editor INTEGER NOT NULL,
      timestamp TEXT NOT NULL,
      file_url TEXT NOT NULL,
      thumbnail_url TEXT NOT NULL,
      fetched_at TEXT NOT NULL
    ) STRICT;

    -- A map in a list: resolved (map_ref set) or still a pending ID/UID the sync engine has to look up.
    CREATE TABLE watchlist_maps (
      id INTEGER PRIMARY KEY,
      watchlist_id INTEGER NOT NULL REFERENCES watchlists(id) ON DELETE CASCADE,
      map_ref INTEGER REFERENCES maps(id) ON DELETE CASCADE,
      pending_id TEXT,
      pending_uid TEXT,
      added_at TEXT NOT NULL,
      not_found_at TEXT,
      CHECK ((map_ref IS NOT NULL) + (pending_id IS NOT NULL OR pending_uid IS NOT NULL) = 1)
    ) STRICT;
    -- UNIQUE lets NULLs repeat, so each index only constrains the rows that have that column.
    CREATE UNIQUE INDEX watchlist_maps_resolved ON watchlist_maps(watchlist_id, map_ref);
    CREATE UNIQUE INDEX watchlist_maps_pending_id ON watchlist_maps(watchlist_id, pending_id);
    CREATE UNIQUE INDEX watchlist_maps_pending_uid ON watchlist_maps(watchlist_id, pending_uid);
    CREATE INDEX watchlist_maps_by_map ON watchlist_maps(map_ref) WHERE map_ref IS NOT NULL;
    CREATE INDEX watchlist_maps_by_pending_id ON watchlist_maps(pending_id) WHERE pending_id IS NOT NULL;
    CREATE INDEX watchlist_maps_by_pending_uid ON watchlist_maps(pending_uid) WHERE pending_uid IS NOT NULL;

    -- Every account we know: watched players, and map authors whose names we cache.
    CREATE TABLE players (
      id INTEGER PRIMARY KEY,
      account_id TEXT NOT NULL UNIQUE,
      nickname TEXT,
      display_name TEXT,
      display_name_fetched_at TEXT,
      added_at TEXT NOT NULL
    ) STRICT;

    CREATE TABLE watchlist_players (
      watchlist_id INTEGER NOT NULL REFERENCES watchlists(id) ON DELETE CASCADE,
      player_ref INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
      added_at TEXT NOT NULL,
      PRIMARY KEY (watchlist_id, player_ref)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX watchlist_players_by_player ON watchlist_players(player_ref);

    CREATE TABLE sync_runs (
      id INTEGER PRIMARY KEY,
      watchlist_id INTEGER REFERENCES watchlists(id) ON DELETE SET NULL,
      -- Kept so a run still names its list after the list is deleted; NULL for a run over every list.
      watchlist_name TEXT,
      started_at TEXT NOT NULL,
      finished_at TEXT,
      outcome TEXT NOT NULL DEFAULT 'running' CHECK (outcome IN ('running', 'ok', 'partial', 'failed', 'cancelled')),
      maps INTEGER NOT NULL DEFAULT 0,
      requests INTEGER NOT NULL DEFAULT 0,
      records INTEGER NOT NULL DEFAULT 0,
      new_pbs INTEGER NOT NULL DEFAULT 0,
      replays INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE INDEX sync_runs_by_watchlist ON sync_runs(watchlist_id, id);

    CREATE TABLE sync_errors (
      id INTEGER PRIMARY KEY,
      sync_run_id INTEGER NOT NULL REFERENCES sync_runs(id) ON DELETE CASCADE,
      map_id TEXT,
      message TEXT NOT NULL,
      at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX sync_errors_by_run ON sync_errors(sync_run_id);

    -- The current record per map x player x scope ('PersonalBest' or the season ID).
    CREATE TABLE records (
      map_ref INTEGER NOT NULL REFERENCES maps(id) ON DELETE CASCADE,
      scope TEXT NOT NULL,
      player_ref INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
      map_record_id TEXT NOT NULL,
      time INTEGER,
      hidden INTEGER NOT NULL,
      score INTEGER NOT NULL,
      respawn_count INTEGER,
      medal INTEGER NOT NULL,
      game_mode TEXT NOT NULL,
      game_mode_custom_data TEXT NOT NULL,
      removed INTEGER NOT NULL,
      timestamp TEXT NOT NULL,
      url TEXT NOT NULL,
      filename TEXT NOT NULL,
      first_seen_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (map_ref, scope, player_ref)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX records_by_player ON records(player_ref, scope);
    CREATE INDEX records_by_record_id ON records(map_record_id);

    -- Nadeo keeps no PB history: this is every first sighting and change our syncs have seen.
    CREATE TABLE record_history (
      id INTEGER PRIMARY KEY,
      map_ref INTEGER NOT NULL REFERENCES maps(id) ON DELETE CASCADE,
      scope TEXT NOT NULL,
      player_ref INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('first', 'improved', 'unhidden', 'changed')),
      map_record_id TEXT NOT NULL,
      old_time INTEGER,
      new_time INTEGER,
      old_score INTEGER,
      new_score INTEGER NOT NULL,
      hidden INTEGER NOT NULL,
      medal INTEGER NOT NULL,
      record_timestamp TEXT NOT NULL,
      seen_at TEXT NOT NULL,
      sync_run_id INTEGER REFERENCES sync_runs(id) ON DELETE SET NULL
    ) STRICT;
    CREATE INDEX history_by_player ON record_history(player_ref, record_timestamp);
    CREATE INDEX history_by_map ON record_history(map_ref, scope, record_timestamp);
    CREATE INDEX history_by_time ON record_history(record_timestamp);

    -- One row per record whose replay we fetched or tried to; no row means not tried yet.
    CREATE TABLE replays (
      record_id TEXT PRIMARY KEY,
      map_ref INTEGER REFERENCES maps(id) ON DELETE CASCADE,
      player_ref INTEGER REFERENCES players(id) ON DELETE CASCADE,
      state TEXT NOT NULL CHECK (state IN ('downloaded', 'hidden', 'failed')),
      path TEXT,
      size INTEGER,
      sha256 TEXT,
      error TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL,
      CHECK (state <> 'downloaded' OR (path IS NOT NULL AND size IS NOT NULL AND sha256 IS NOT NULL))
    ) STRICT, WITHOUT ROWID;

    -- Non-secret preferences only (secrets live in the OS keychain), as JSON values.
    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;
  `);
}
