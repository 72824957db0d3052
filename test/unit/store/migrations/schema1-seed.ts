// A schema-1 database with data in every table, written with schema 1's own SQL (the repositories have moved on).
import type { Database } from 'better-sqlite3';
import { accountId, mapId, mapUid, recordId, seasonId } from '../fixtures.ts';

export const SCHEMA1 = {
  /** Player 1 on map 1: first sighting 32000, then improved to 31000 (current). */
  improvedRecordId: recordId(11),
  /** Player 2 on map 1: history says 30500 under recordId(20); current says 30800 under the same ID (a correction). */
  correctedRecordId: recordId(20),
  /** Player 1's season record on map 1. */
  seasonRecordId: recordId(30),
};

export function seedSchema1(db: Database): void {
  const t = '2025-01-01T00:00:00.000Z';
  db.prepare('INSERT INTO watchlists (id, name, created_at) VALUES (1, ?, ?)').run('Weekly', t);
  db.prepare(
    `INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score, bronze_score,
       map_type, map_style, collection_name, filename, has_clones, is_playable, created_with_gamepad_editor,
       created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
     VALUES (1, ?, ?, 'Map 1', ?, ?, 1, 2, 3, 4, 'TrackMania\\TM_Race', '', 'Stadium', 'm.Map.Gbx', 0, 1, 0, 0, ?, 'f', 't', ?)`,
  ).run(mapId(1), mapUid(1), accountId(900), accountId(900), t, t);
  db.prepare('INSERT INTO watchlist_maps (watchlist_id, map_ref, added_at) VALUES (1, 1, ?)').run(t);
  db.prepare("INSERT INTO watchlist_maps (watchlist_id, pending_uid, added_at) VALUES (1, ?, ?)").run(mapUid(2), t);
  const player = db.prepare('INSERT INTO players (id, account_id, nickname, added_at) VALUES (?, ?, ?, ?)');
  player.run(1, accountId(1), 'One', t);
  player.run(2, accountId(2), null, t);
  db.prepare('INSERT INTO watchlist_players (watchlist_id, player_ref, added_at) VALUES (1, 1, ?), (1, 2, ?)').run(t, t);
  db.prepare("INSERT INTO sync_runs (id, started_at, finished_at, outcome, maps) VALUES (1, ?, ?, 'ok', 1)").run(t, t);
  db.prepare("INSERT INTO sync_errors (sync_run_id, map_id, message, at) VALUES (1, ?, 'boom', ?)").run(mapId(9), t);
  db.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('theme', '\"dark\"', ?)").run(t);

  const current = db.prepare(
    `INSERT INTO records (map_ref, scope, player_ref, map_record_id, time, hidden, score, respawn_count, medal, game_mode,
       game_mode_custom_data, removed, timestamp, url, filename, first_seen_at, updated_at)
     VALUES (1, ?, ?, ?, ?, 0, 0, ?, ?, 'TimeAttack', 'cd', 0, ?, ?, ?, ?, ?)`,
  );
  current.run('PersonalBest', 1, SCHEMA1.improvedRecordId, 31000, 5, 3, '2025-02-01T00:00:00.000Z', 'https://u/1', 'f1', '2025-01-05T00:00:00.000Z', '2025-02-02T00:00:00.000Z');
  current.run('PersonalBest', 2, SCHEMA1.correctedRecordId, 30800, null, 3, '2025-01-20T00:00:00.000Z', 'https://u/2', 'f2', '2025-01-21T00:00:00.000Z', '2025-01-22T00:00:00.000Z');
  current.run(seasonId(1), 1, SCHEMA1.seasonRecordId, 33000, null, 2, '2025-01-10T00:00:00.000Z', 'https://u/3', 'f3', '2025-01-11T00:00:00.000Z', '2025-01-11T00:00:00.000Z');

  const history = db.prepare(
    `INSERT INTO record_history (id, map_ref, scope, player_ref, kind, map_record_id, old_time, new_time, old_score,
       new_score, hidden, medal, record_timestamp, seen_at, sync_run_id)
     VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, 1)`,
  );
  history.run(1, 'PersonalBest', 1, 'first', recordId(10), null, 32000, null, 2, '2025-01-04T00:00:00.000Z', '2025-01-05T00:00:00.000Z');
  history.run(2, 'PersonalBest', 2, 'first', SCHEMA1.correctedRecordId, null, 30500, null, 3, '2025-01-20T00:00:00.000Z', '2025-01-21T00:00:00.000Z');
  history.run(3, seasonId(1), 1, 'first', SCHEMA1.seasonRecordId, null, 33000, null, 2, '2025-01-10T00:00:00.000Z', '2025-01-11T00:00:00.000Z');
  history.run(4, 'PersonalBest', 1, 'improved', SCHEMA1.improvedRecordId, 32000, 31000, 0, 3, '2025-02-01T00:00:00.000Z', '2025-02-02T00:00:00.000Z');

  db.prepare(
    "INSERT INTO replays (record_id, map_ref, player_ref, state, path, size, sha256, updated_at) VALUES (?, 1, 1, 'downloaded', 'replays/x.replay.gbx', 10, ?, ?)",
  ).run(SCHEMA1.improvedRecordId, 'c'.repeat(64), t);
}
