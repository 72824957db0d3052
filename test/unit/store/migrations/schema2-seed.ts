// A schema-2 database with data, written with schema 2's SQL: one current record with history, a correction.
import type { Database } from 'better-sqlite3';
import { accountId, mapId, mapUid, recordId } from '../fixtures.ts';

export function seedSchema2(db: Database): void {
  const t = '2025-01-01T00:00:00.000Z';
  db.prepare('INSERT INTO watchlists (id, name, created_at) VALUES (1, ?, ?)').run('Weekly', t);
  db.prepare(
    `INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score, bronze_score,
       map_type, map_style, collection_name, filename, has_clones, is_playable, created_with_gamepad_editor,
       created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
     VALUES (1, ?, ?, 'Map 1', ?, ?, 1, 2, 3, 4, 'TrackMania\\TM_Race', '', '', 'm.Map.Gbx', 0, 1, 0, 0, ?, 'f', 't', ?)`,
  ).run(mapId(1), mapUid(1), accountId(900), accountId(900), t, t);
  db.prepare('INSERT INTO watchlist_maps (watchlist_id, map_ref, added_at) VALUES (1, 1, ?)').run(t);
  db.prepare('INSERT INTO players (id, account_id, added_at) VALUES (1, ?, ?)').run(accountId(1), t);
  db.prepare('INSERT INTO watchlist_players (watchlist_id, player_ref, added_at) VALUES (1, 1, ?)').run(t);
  db.prepare("INSERT INTO sync_runs (id, started_at, outcome) VALUES (1, ?, 'ok')").run(t);
  const version = db.prepare(
    `INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score, respawn_count,
       medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, old_time, old_score, seen_at,
       updated_at, sync_run_id)
     VALUES (1, 1, 'PersonalBest', ?, ?, ?, ?, 0, 0, NULL, 3, 'TimeAttack', '', 0, ?, 'u', 'f', ?, ?, ?, ?, 1)`,
  );
  version.run(null, 'first', recordId(1), 32000, '2025-01-02T00:00:00.000Z', null, null, t, t);
  version.run(1, 'improved', recordId(2), 31000, '2025-01-03T00:00:00.000Z', 32000, 0, t, t);
  db.prepare(
    "INSERT INTO replays (record_id, map_ref, player_ref, state, path, size, sha256, updated_at) VALUES (?, 1, 1, 'downloaded', 'replays/x.replay.gbx', 10, ?, ?)",
  ).run(recordId(2), 'c'.repeat(64), t);
}
