// Many current records written straight into the store's tables in a few statements, for the CSV export's bench and
// its tests at a size a sync would take minutes to reach: maps whose names need quoting or neutralising (a formula
// start, a bidi override), Stunt maps, secret records, downloaded replays. The caller holds the transaction.
import type { Database } from 'better-sqlite3';

export interface ExportRows {
  maps: number;
  players: number;
  /** Records i = 0 .. records-1, the i-th on map i / players + 1 for player i % players + 1. */
  records: number;
  /** A condition on `i` and the map ref `m` and player ref `p` of record i: only those records are written. */
  where?: string;
}

/** Writes the maps, players, one sync run, the records and a replay for every third visible record. */
export function insertExportRows(db: Database, { maps, players, records, where = '1' }: ExportRows): void {
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score,
       bronze_score, map_type, map_style, collection_name, filename, has_clones, is_playable,
       created_with_gamepad_editor, created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
     SELECT i, printf('00000001-0000-4000-8000-%012x', i), printf('RowsUid%010xxxxxxxxxxx', i),
       CASE i % 4 WHEN 0 THEN printf('$o$f80Map %d, "Tech" $z- Stage', i) WHEN 1 THEN printf('=Map %d', i)
         WHEN 2 THEN printf('Map %d' || char(8238) || 'evil', i) ELSE printf('$i$a1bLaserhawk %d $fff- Megacity', i) END,
       '00000002-0000-4000-8000-000000000000', '00000002-0000-4000-8000-000000000000', 40000, 43000, 48000, 60000,
       CASE WHEN i % 10 = 0 THEN 'TrackMania\\TM_Stunt' ELSE 'TrackMania\\TM_Race' END, '', 'Stadium', 'm.Map.Gbx',
       0, 1, 0, 0, '2024-01-01T00:00:00.000Z', 'https://storage.example/f', 'https://storage.example/t',
       '2025-01-01T00:00:00.000Z'
     FROM n`,
  ).run(maps);
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO players (id, account_id, nickname, display_name, added_at)
     SELECT i, printf('00000002-0000-4000-8000-%012x', i), CASE WHEN i % 3 = 0 THEN printf('@Nick %d', i) END,
       CASE WHEN i % 2 = 0 THEN printf('$f00Player$fff%d', i) END, '2025-01-01T00:00:00.000Z'
     FROM n`,
  ).run(players);
  db.prepare("INSERT INTO sync_runs (id, started_at, outcome) VALUES (1, '2025-01-01T00:00:00.000Z', 'ok')").run();
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1),
       k(i, m, p) AS (SELECT i, i / ${players} + 1, i % ${players} + 1 FROM n)
     INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
       respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, seen_at, updated_at,
       sync_run_id)
     SELECT m, p, 'PersonalBest', 1, 'first',
       printf('00000004-0000-4000-8000-%012x', i), CASE WHEN i % 17 = 0 THEN NULL ELSE 40000 + i % 20000 END,
       i % 17 = 0, CASE WHEN m % 10 = 0 THEN i % 5000 ELSE 0 END,
       CASE WHEN i % 5 = 0 THEN i % 7 END, i % 5, 'TimeAttack', '', 0,
       printf('2024-%02d-%02dT12:34:56.000Z', i % 12 + 1, i % 28 + 1),
       printf('https://storage.example/mapRecords/00000004-0000-4000-8000-%012x/replay', i),
       printf('Replays\\Downloaded\\x_%d.replay.gbx', i), '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 1
     FROM k WHERE ${where}`,
  ).run(records);
  db.prepare(
    `INSERT INTO replays (record_id, map_ref, player_ref, state, path, size, sha256, updated_at)
     SELECT r.map_record_id, r.map_ref, r.player_ref, 'downloaded',
       'replays/' || m.map_id || '/' || p.account_id || '/' || r.map_record_id || '.replay.gbx', 50000,
       '${'0'.repeat(64)}', '2025-01-01T00:00:00.000Z'
     FROM records r JOIN maps m ON m.id = r.map_ref JOIN players p ON p.id = r.player_ref
     WHERE r.id % 3 = 0 AND r.hidden = 0`,
  ).run();
}
