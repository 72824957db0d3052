// Schema 2: current records and their history become one table of record versions. A first sighting then writes
// one row instead of two, and the one index over (map, player, scope, current) serves reads by map, by player
// (probing each map) and enforces a single current record per map x player x scope.
import type { Database } from 'better-sqlite3';

export const version = 2;
export const name = 'record_versions';

export function up(db: Database): void {
  db.exec(`
    ALTER TABLE records RENAME TO records_v1;
    DROP INDEX records_by_player;
    DROP INDEX records_by_record_id;

    CREATE TABLE records (
      id INTEGER PRIMARY KEY,
      map_ref INTEGER NOT NULL REFERENCES maps(id) ON DELETE CASCADE,
      player_ref INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
      -- 'PersonalBest' or the season ID.
      scope TEXT NOT NULL,
      -- 1 on the current record of its map x player x scope, NULL on earlier ones: UNIQUE lets NULLs repeat.
      current INTEGER CHECK (current = 1),
      -- Why this version is history; NULL for a correction that is not (a worse time under the same record ID).
      change TEXT CHECK (change IN ('first', 'improved', 'unhidden', 'changed')),
      map_record_id TEXT NOT NULL,
      time INTEGER,
      hidden INTEGER NOT NULL,
      score INTEGER NOT NULL,
      respawn_count INTEGER,
      medal INTEGER NOT NULL,
      game_mode TEXT NOT NULL,
      game_mode_custom_data TEXT NOT NULL,
      removed INTEGER NOT NULL,
      -- When the player set it (UTC ISO).
      timestamp TEXT NOT NULL,
      url TEXT NOT NULL,
      filename TEXT NOT NULL,
      -- The values this version replaced, for history.
      old_time INTEGER,
      old_score INTEGER,
      -- When a sync first saw this version, and last changed this row.
      seen_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      sync_run_id INTEGER REFERENCES sync_runs(id) ON DELETE SET NULL
    ) STRICT;

    -- Every history row becomes a version; details schema 1 kept only for current records come from there.
    INSERT INTO records (id, map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
      respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, old_time, old_score,
      seen_at, updated_at, sync_run_id)
    SELECT h.id, h.map_ref, h.player_ref, h.scope, NULL, h.kind, h.map_record_id, h.new_time, h.hidden, h.new_score,
      NULL, h.medal, coalesce(c.game_mode, ''), '', 0, h.record_timestamp, '', '', h.old_time, h.old_score,
      h.seen_at, h.seen_at, h.sync_run_id
    FROM record_history h
    LEFT JOIN records_v1 c ON c.map_ref = h.map_ref AND c.scope = h.scope AND c.player_ref = h.player_ref
    ORDER BY h.id;

    CREATE UNIQUE INDEX records_by_map ON records(map_ref, player_ref, scope, current);

    -- Each schema-1 current record: the latest version of its key when that is the same record...
    CREATE TEMP TABLE latest_versions AS
      SELECT map_ref, scope, player_ref, max(id) AS id FROM records GROUP BY map_ref, player_ref, scope;
    UPDATE records SET current = 1, respawn_count = c.respawn_count, medal = c.medal, game_mode = c.game_mode,
      game_mode_custom_data = c.game_mode_custom_data, removed = c.removed, timestamp = c.timestamp, url = c.url,
      filename = c.filename, updated_at = c.updated_at
    FROM records_v1 c JOIN temp.latest_versions l
      ON l.map_ref = c.map_ref AND l.scope = c.scope AND l.player_ref = c.player_ref
    WHERE records.id = l.id AND records.map_record_id = c.map_record_id AND records.time IS c.time
      AND records.hidden = c.hidden AND records.score = c.score;
    DROP TABLE temp.latest_versions;

    -- ...else a correction (a version that is not history) carrying it.
    INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
      respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, seen_at, updated_at)
    SELECT c.map_ref, c.player_ref, c.scope, 1, NULL, c.map_record_id, c.time, c.hidden, c.score, c.respawn_count,
      c.medal, c.game_mode, c.game_mode_custom_data, c.removed, c.timestamp, c.url, c.filename, c.first_seen_at,
      c.updated_at
    FROM records_v1 c
    WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.map_ref = c.map_ref AND r.player_ref = c.player_ref
      AND r.scope = c.scope AND r.current = 1);

    DROP TABLE records_v1;
    DROP TABLE record_history;
    CREATE INDEX records_by_time ON records(timestamp) WHERE change IS NOT NULL;
    CREATE INDEX records_by_record_id ON records(map_record_id);
  `);
}
