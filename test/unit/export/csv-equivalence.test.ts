// The fast writer caches csv-stringify's encodings of maps and players and writes a record's text cells (game mode,
// scope, times, IDs, paths) as they are when they are plain; it must write exactly what csv-stringify writes over
// whole rows, for every kind of text a name, an ID, a time or a path could hold. The rows are written straight into
// the database, as a damaged or hand-edited file could hold them, so nothing the store checks on the way in can hide
// a difference.
import { stringify } from 'csv-stringify/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CSV_COLUMNS, NameCache, exportCsv } from '../../../src-main/core/export/csv.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import { inExportOrder, ranksOf, toCells, type ExportRow } from './reference.ts';
import { Collected } from '../../helpers/collected.ts';
import { memoryStore } from '../store/fixtures.ts';

const NASTY = [
  '', 'plain', 'a,b', 'say "hi"', '"', 'line\nbreak', 'cr\ronly', 'crlf\r\nend', '=1+1', '+cmd', '-2', '@SUM(A1)',
  '\tlead', '\rlead', ' spaced ', '$o$f00Red$$Baron$z', '$', '$l[http://x]link$l', 'Ünïcödé 名前 🏁', "it's", ';semi',
  '2024-01-01T00:00:00.000Z', '00000001-0000-4000-8000-000000000001', 'replays/a/b/c.replay.gbx', 'replays/a b/c,d.gbx',
];

const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/** Each field walks NASTY at its own pace, so fields combine in every way and caches cannot hide a difference. */
function pick<T>(values: readonly T[], i: number, salt: number): T {
  return values[(Math.floor(i / PRIMES[salt]!) * (salt + 1) + i) % values.length]!;
}

const K = NASTY.length;
/** Unique text for a unique column (map ID and UID, account ID): NASTY itself, then NASTY with a number after it. */
const unique = (k: number, step: number): string => `${NASTY[(k * step + 3) % K]!}${k < K ? '' : k}`;

/** Maps and players as the database holds them: each key stands for one set of cells, however nasty. */
const MAP_TYPES = ['TrackMania\\TM_Race', 'TrackMania\\TM_Stunt', 'TrackMania\\TM_Platform', 'TrackMania\\TM_Royal'];
// Medal scores in order on most maps (a secret entry's medal then bounds its result), out of order on a map in seven.
const medalsOf = (k: number, type: string) => (k % 7 === 0 ? { author: 1, gold: 1, silver: 1, bronze: 1 }
  : type.endsWith('TM_Stunt') ? { author: 2000 + k, gold: 1500 + k, silver: 1000 + k, bronze: 500 + k }
  : type.endsWith('TM_Platform') ? { author: 0, gold: 1, silver: 3, bronze: 5 }
  : { author: 40_000 + k, gold: 43_000 + k, silver: 48_000 + k, bronze: 60_000 + k });
const MAPS = Array.from({ length: 100 }, (_, k) => {
  const mapType = MAP_TYPES[k % MAP_TYPES.length]!;
  return { mapUid: unique(k, 1), mapId: unique(k, 7), mapName: pick(NASTY, k, 3), mapType, hasClones: k % 8 === 0, medals: medalsOf(k, mapType) };
});
const PLAYERS = Array.from({ length: 120 }, (_, k) => ({
  accountId: unique(k, 11),
  displayName: k % 5 === 0 ? null : pick(NASTY, k, 5),
  nickname: k % 3 === 0 ? null : pick(NASTY, k, 6),
}));

/** Every NASTY record ID has a downloaded replay at a NASTY path; the others have none, or a failed one. */
const replayOf = (recordId: string): string | null => (NASTY.includes(recordId) ? NASTY[(NASTY.indexOf(recordId) * 17 + 3) % K]! : null);

function rows(n: number): ExportRow[] {
  return Array.from({ length: n }, (_, i): ExportRow => {
    const mapKey = i % MAPS.length;
    // (map, player, scope) is unique among current records: each pair comes back every 600 rows with another scope.
    const playerKey = (i * 7) % PLAYERS.length;
    // A row in four is as a sync writes it (plain text the writer writes as it is), unless its scope is not.
    const usual = i % 4 === 1;
    const mapRecordId = i % 6 === 0 || usual ? `unique-${i}` : pick(NASTY, i, 10);
    const hidden = i % 6 === 0 ? 1 : i % 17 === 0 ? 2 : 0;
    return {
      mapKey: mapKey + 1, ...MAPS[mapKey]!,
      playerKey: playerKey + 1, ...PLAYERS[playerKey]!,
      gameMode: usual ? 'TimeAttack' : pick(NASTY, i, 7),
      scope: NASTY[(i + 5 * Math.floor(i / 600)) % K]!,
      time: i % 7 === 0 ? null : i % 13 === 0 ? -i : i * 37,
      score: (i % 11) - 3,
      respawnCount: i % 2 === 0 ? null : i % 9,
      medal: i % 5,
      hidden,
      timestamp: usual ? '2024-01-01T00:00:00.000Z' : pick(NASTY, i, 9),
      mapRecordId,
      replayPath: replayOf(mapRecordId),
      // A world position on a row in three: asked for this result (time or points), or, one in nine, for another.
      position: i % 3 === 0 ? i + 1 : null,
      positionAsOf: i % 3 === 0 ? (i % 2 === 0 ? '2024-06-01T00:00:00.000Z' : '2000-01-01T00:00:00.000Z') : null,
      positionScore: i % 3 !== 0 ? null : i % 9 === 0 ? 424242 : mapKey % MAP_TYPES.length === 1 ? (i % 11) - 3 : (i % 7 === 0 ? null : i % 13 === 0 ? -i : i * 37),
    };
  });
}

/** Writes the rows, their maps, players and replays into the store's tables as they are. */
function storeRows(store: Store, sample: readonly ExportRow[]): void {
  const db = store.db;
  db.transaction(() => {
    const map = db.prepare(
      `INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score, bronze_score,
         map_type, map_style, collection_name, filename, has_clones, is_playable, created_with_gamepad_editor,
         created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
       VALUES (?, ?, ?, ?, 'a', 'a', ?, ?, ?, ?, ?, '', '', '', ?, 1, 0, 0, 't', 'f', 't', 'f')`,
    );
    MAPS.forEach((m, k) => map.run(k + 1, m.mapId, m.mapUid, m.mapName, m.medals.author, m.medals.gold, m.medals.silver, m.medals.bronze, m.mapType, m.hasClones ? 1 : 0));
    const player = db.prepare("INSERT INTO players (id, account_id, display_name, nickname, added_at) VALUES (?, ?, ?, ?, 'x')");
    PLAYERS.forEach((p, k) => player.run(k + 1, p.accountId, p.displayName, p.nickname));
    const record = db.prepare(
      `INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score, respawn_count,
         medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, seen_at, updated_at)
       VALUES (?, ?, ?, 1, 'first', ?, ?, ?, ?, ?, ?, ?, '', 0, ?, 'u', 'f', 's', 's')`,
    );
    for (const r of sample) {
      record.run(r.mapKey, r.playerKey, r.scope, r.mapRecordId, r.time, r.hidden, r.score, r.respawnCount, r.medal, r.gameMode, r.timestamp);
    }
    const position = db.prepare("INSERT INTO positions (map_ref, player_ref, scope, score, state, position, zones, as_of) VALUES (?, ?, ?, ?, 'ranked', ?, '[]', ?)");
    for (const r of sample) if (r.position !== null && r.positionScore !== null) position.run(r.mapKey, r.playerKey, r.scope, r.positionScore, r.position, r.positionAsOf);
    const replay = db.prepare("INSERT INTO replays (record_id, state, path, size, sha256, updated_at) VALUES (?, 'downloaded', ?, 1, 'x', 'x')");
    for (const id of NASTY) replay.run(id, replayOf(id));
    // A replay that failed has no file: its cell stays empty.
    db.prepare("INSERT INTO replays (record_id, state, error, attempts, updated_at) VALUES ('unique-6', 'failed', 'HTTP 500', 1, 'x')").run();
  })();
}

let store: Store;
beforeEach(async () => {
  store = await memoryStore();
});
afterEach(() => store.close());

describe('the CSV writer', () => {
  it.each([false, true])('writes byte-for-byte what csv-stringify writes over whole rows (bom and a known reader: %s)', async (bom) => {
    const sample = rows(3000);
    storeRows(store, sample);
    // Read as one of the players (or not known): their own record may be visible under a secret threshold.
    const viewer = bom ? PLAYERS[4]!.accountId : undefined;
    if (bom) store.settings.setViewer(viewer);
    const sink = new Collected();
    expect(await exportCsv(store, sink, { bom })).toEqual({ rows: sample.length });
    const names = new NameCache();
    const ranks = ranksOf(sample, viewer);
    const reference = stringify(inExportOrder(sample).map((r) => toCells(r, names, ranks.get(r) ?? '')), {
      record_delimiter: 'windows',
      quoted_match: /[\r\n]/,
      header: true,
      columns: [...CSV_COLUMNS],
      bom,
    });
    expect(sink.text()).toBe(reference);
  });

  it('covers every nasty value in every column', () => {
    const sample = rows(3000);
    for (const column of ['gameMode', 'scope', 'timestamp', 'mapRecordId', 'replayPath'] as const) {
      expect(new Set(sample.map((r) => r[column])).size, column).toBeGreaterThanOrEqual(NASTY.length);
    }
    expect(new Set(MAPS.map((m) => m.mapName)).size).toBe(NASTY.length);
    expect(new Set(PLAYERS.map((p) => p.displayName)).size).toBe(NASTY.length + 1); // and null
    // Secret, odd (neither 0 nor 1) and visible rows; negative numbers; rows whose cells are all plain (written as
    // SQLite joined them) and rows that are not.
    expect(new Set(sample.map((r) => r.hidden))).toEqual(new Set([0, 1, 2]));
    expect(sample.some((r) => r.time !== null && r.time < 0 && r.hidden === 0)).toBe(true);
    const plain = /^[0-9A-Za-z_.:/][0-9A-Za-z_.:/-]*$/;
    const allPlain = (r: ExportRow): boolean => [r.gameMode, r.scope, r.timestamp, r.mapRecordId].every((t) => plain.test(t));
    expect(sample.filter(allPlain).length).toBeGreaterThan(100);
    expect(sample.filter((r) => !allPlain(r)).length).toBeGreaterThan(1000);
    // Every map kind, and world positions both asked for the row's result and for another.
    expect(new Set(MAPS.map((m) => m.mapType)).size).toBe(4);
    expect(sample.filter((r) => r.position !== null && r.positionScore === r.time).length).toBeGreaterThan(50);
    expect(sample.filter((r) => r.positionScore === 424242).length).toBeGreaterThan(50);
  });
});
