// Benchmark of the store's write path: 1,000,000 records through applyRecords (200 per call, one map per call, as a
// sync writes them) against a bare better-sqlite3 insert loop of the same rows, in one transaction, into a table
// shaped like the store's records table. Both on files in the same temp folder, same pragmas. Prints; never asserts.
// Run: node test/bench/store.bench.ts [records]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { MapInfo, PlayerRecord } from '../../src-main/core/model.ts';
import { openConnection } from '../../src-main/core/store/db.ts';
import { openStore } from '../../src-main/core/store/index.ts';
import { printRows, type BenchRow } from './report.ts';

const PLAYERS = 200;
const BATCH = PLAYERS; // a sync writes one map's records per call: one per watched player

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
const id = (kind: number, n: number): string => `${hex(kind, 8)}-0000-4000-8000-${hex(n, 12)}`;

function mapInfo(m: number): MapInfo {
  return {
    mapId: id(1, m), mapUid: `BenchUid${hex(m, 10)}xxxxxxxxx`, name: `$o$f80Bench map ${m}`, author: id(2, 0),
    submitter: id(2, 0), authorScore: 40000, goldScore: 43000, silverScore: 48000, bronzeScore: 60000,
    mapType: 'TrackMania\\TM_Race', mapStyle: '', collectionName: 'Stadium', filename: `Bench ${m}.Map.Gbx`,
    hasClones: false, isPlayable: true, createdWithGamepadEditor: false, createdWithSimpleEditor: false,
    timestamp: '2024-01-01T00:00:00+00:00', fileUrl: `https://storage.example/storageObjects/${id(3, m)}`,
    thumbnailUrl: `https://storage.example/storageObjects/${id(3, m)}.jpg`,
  };
}

/** One map's records as the API core hands them over: realistic sizes for every field. */
function batchFor(m: number, pass: number): PlayerRecord[] {
  const records: PlayerRecord[] = new Array(BATCH);
  for (let p = 0; p < BATCH; p += 1) {
    const recordNo = m * PLAYERS + p;
    const time = 40000 + ((recordNo * 7919) % 20000) - pass * 100;
    records[p] = {
      mapRecordId: id(4, recordNo * 4 + pass), mapId: id(1, m), accountId: id(2, p + 1), gameMode: 'TimeAttack',
      gameModeCustomData: '', scopeType: 'PersonalBest', scopeId: null, time, hidden: false, score: 0,
      respawnCount: null, medal: 3, removed: false, timestamp: `2024-0${1 + (p % 9)}-1${p % 10}T12:34:56+00:00`,
      url: `https://storage.example/mapRecords/${id(4, recordNo * 4 + pass)}/replay`,
      filename: `Replays\\Downloaded\\${id(1, m)}_${id(2, p + 1)}_(0'${Math.floor(time / 1000)}''${time % 1000}).replay.gbx`,
    };
  }
  return records;
}


const SEEN = '2025-01-01T00:00:00.000Z';

/** The maps, players and sync run the rows point at, for a baseline that keeps the foreign-key checks (untimed). */
function addParents(db: Database.Database, total: number): void {
  db.transaction(() => {
    const map = db.prepare(
      `INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score, bronze_score,
         map_type, map_style, collection_name, filename, has_clones, is_playable, created_with_gamepad_editor,
         created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
       VALUES (?, ?, ?, 'n', 'a', 'a', 1, 1, 1, 1, 'TrackMania\\TM_Race', '', '', '', 0, 1, 0, 0, 't', 'f', 't', 'f')`,
    );
    for (let m = 1; m <= total / BATCH; m += 1) map.run(m, id(1, m), `BenchUid${hex(m, 10)}xxxxxxxxx`);
    const player = db.prepare("INSERT INTO players (id, account_id, added_at) VALUES (?, ?, 'x')");
    for (let p = 1; p <= PLAYERS; p += 1) player.run(p, id(2, p));
    db.prepare("INSERT INTO sync_runs (id, started_at) VALUES (1, 'x')").run();
  })();
}

/**
 * A bare insert loop of the same rows in ONE transaction. `table: 'store'` inserts into the store's own records
 * table (same columns, same indexes, created by the store's migrations; foreign-key checks off, so it is bare);
 * `table: 'keyOnly'` into a table with the same columns and only a primary key: the floor.
 */
function bareInsert(file: string, total: number, table: 'store' | 'storeWithKeys' | 'keyOnly'): number {
  let db: Database.Database;
  let insert: Database.Statement;
  if (table !== 'keyOnly') {
    openStore({ file }).close();
    // The store's own connection settings (WAL, cache, checkpoints), minus the foreign-key checks: bare.
    db = openConnection(file);
    if (table === 'storeWithKeys') addParents(db, total);
    else db.pragma('foreign_keys = OFF');
    insert = db.prepare(
      `INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
         respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, old_time, old_score,
         seen_at, updated_at, sync_run_id)
       VALUES (?, ?, ?, 1, 'first', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, 1)`,
    );
  } else {
    db = openConnection(file);
    db.exec(`CREATE TABLE records (map_ref INTEGER NOT NULL, player_ref INTEGER NOT NULL, scope TEXT NOT NULL,
      map_record_id TEXT NOT NULL, time INTEGER, hidden INTEGER NOT NULL, score INTEGER NOT NULL, respawn_count INTEGER,
      medal INTEGER NOT NULL, game_mode TEXT NOT NULL, game_mode_custom_data TEXT NOT NULL, removed INTEGER NOT NULL,
      timestamp TEXT NOT NULL, url TEXT NOT NULL, filename TEXT NOT NULL, seen_at TEXT NOT NULL, updated_at TEXT NOT NULL,
      PRIMARY KEY (map_ref, player_ref, scope)) STRICT, WITHOUT ROWID`);
    insert = db.prepare('INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  }
  let ms = 0;
  let t = performance.now();
  db.exec('BEGIN');
  ms += performance.now() - t;
  for (let m = 1; m <= total / BATCH; m += 1) {
    const batch = batchFor(m, 0);
    t = performance.now();
    for (let p = 0; p < batch.length; p += 1) {
      const r = batch[p]!;
      insert.run(m, p + 1, 'PersonalBest', r.mapRecordId, r.time, 0, r.score, r.respawnCount, r.medal, r.gameMode,
        r.gameModeCustomData, 0, r.timestamp, r.url, r.filename, SEEN, SEEN);
    }
    ms += performance.now() - t;
  }
  t = performance.now();
  db.exec('COMMIT');
  ms += performance.now() - t;
  db.close();
  return ms;
}

interface StoreFigures {
  firstMs: number;
  groupedMs: number;
  againMs: number;
  improveMs: number;
  improved: number;
  queries: Record<string, number>;
}

/** Prepares a store with the maps and players, then times applyRecords calls only. */
function throughStore(file: string, total: number, groupedFile: string): StoreFigures {
  const store = openStore({ file });
  const maps = total / BATCH;
  const infos: MapInfo[] = [];
  for (let m = 1; m <= maps; m += 1) infos.push(mapInfo(m));
  store.maps.upsert(infos, '2025-01-01T00:00:00.000Z');
  store.watchlists.create('Bench');
  store.maps.addRefs('Bench', infos.slice(0, 50).map((i) => ({ mapId: i.mapId })));
  store.players.add('Bench', Array.from({ length: 20 }, (_, p) => ({ accountId: id(2, p + 1) })));
  const run = store.syncRuns.start();
  const pass = (n: number, seenAt: string, everyNth = 1): { ms: number; improved: number } => {
    let ms = 0;
    let improved = 0;
    for (let m = 1; m <= maps; m += everyNth) {
      const records = batchFor(m, n);
      const t = performance.now();
      improved += store.records.applyRecords({ mapId: id(1, m), scope: 'PersonalBest', records, seenAt, syncRunId: run }).improvements.length;
      ms += performance.now() - t;
    }
    return { ms, improved };
  };
  const first = pass(0, SEEN);
  const again = pass(0, '2025-01-02T00:00:00.000Z');
  const better = pass(1, '2025-01-03T00:00:00.000Z', 10); // a tenth of the maps: everyone improved
  const queries: Record<string, number> = {};
  const time = (label: string, f: () => unknown): void => {
    const t = performance.now();
    f();
    queries[label] = performance.now() - t;
  };
  time('records.forMap (200 rows)', () => store.records.forMap(id(1, 1)));
  time(`records.forPlayer (${maps} rows)`, () => store.records.forPlayer(id(2, 1)));
  time('records.compare (50 maps x 20 players)', () => store.records.compare('Bench'));
  time('records.history by player', () => store.records.history({ player: id(2, 1) }));
  time('records.history by list', () => store.records.history({ list: 'Bench' }));
  time('replays.pending(1000)', () => store.replays.pending(1000));
  store.close();
  const groupedMs = grouped(groupedFile, total, infos);
  return { firstMs: first.ms, groupedMs, againMs: again.ms, improveMs: better.ms, improved: better.improved, queries };
}

/** The same first sightings, 25 applyRecords calls (5,000 records) per store.transaction: one commit per group. */
function grouped(file: string, total: number, infos: MapInfo[]): number {
  const store = openStore({ file });
  store.maps.upsert(infos, SEEN);
  const run = store.syncRuns.start();
  const maps = total / BATCH;
  let ms = 0;
  for (let start = 1; start <= maps; start += 25) {
    const batches: PlayerRecord[][] = [];
    for (let m = start; m < start + 25 && m <= maps; m += 1) batches.push(batchFor(m, 0));
    const t = performance.now();
    store.transaction(() => {
      batches.forEach((records, i) => {
        store.records.applyRecords({ mapId: id(1, start + i), scope: 'PersonalBest', records, seenAt: SEEN, syncRunId: run });
      });
    });
    ms += performance.now() - t;
  }
  store.close();
  return ms;
}

function rate(count: number, ms: number): string {
  return `${Math.round(count / (ms / 1000)).toLocaleString('en-US')} records/s`;
}

/** Best (fastest) of `rounds` runs; baseline and store runs alternate so a busy machine slows both alike. */
export async function run(total = 1_000_000, rounds = 2): Promise<BenchRow[]> {
  const records = Math.max(BATCH, Math.floor(total / BATCH) * BATCH);
  const dir = mkdtempSync(join(tmpdir(), 'tw-store-bench-'));
  try {
    console.log(`store bench: ${records.toLocaleString('en-US')} records, ${records / BATCH} maps x ${PLAYERS} players, ${BATCH} per applyRecords call, best of ${rounds} interleaved rounds`);
    const fresh = (name: string): string => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, name + suffix), { force: true });
      return join(dir, name);
    };
    let store: StoreFigures | undefined;
    let bareMs = Infinity;
    let keyedMs = Infinity;
    let floorMs = Infinity;
    for (let r = 0; r < rounds; r += 1) {
      floorMs = Math.min(floorMs, bareInsert(fresh('floor.sqlite'), records, 'keyOnly'));
      bareMs = Math.min(bareMs, bareInsert(fresh('bare.sqlite'), records, 'store'));
      keyedMs = Math.min(keyedMs, bareInsert(fresh('keyed.sqlite'), records, 'storeWithKeys'));
      const figures = throughStore(fresh('store.sqlite'), records, fresh('grouped.sqlite'));
      store = !store || figures.firstMs < store.firstMs ? { ...figures, groupedMs: Math.min(figures.groupedMs, store?.groupedMs ?? Infinity) } : { ...store, groupedMs: Math.min(figures.groupedMs, store.groupedMs) };
    }
    if (!store) throw new Error('no rounds');
    const ratio = bareMs / store.firstMs;
    const size = (f: string): string => `${(statSync(join(dir, f)).size / 1e6).toFixed(0)} MB`;
    const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    const info = (figure: string, measured: string): BenchRow => ({ figure, measured, target: '', ok: true });
    const rows: BenchRow[] = [
      info('floor: bare inserts, primary key only, 1 transaction', `${rate(records, floorMs)} (${secs(floorMs)})`),
      info('baseline: bare inserts into the store\'s records table, 1 transaction', `${rate(records, bareMs)} (${secs(bareMs)})`),
      info('  the same with the store\'s foreign-key checks on', `${rate(records, keyedMs)} (${secs(keyedMs)})`),
      info('store.applyRecords, 200 per call, each call commits', `${rate(records, store.firstMs)} (${secs(store.firstMs)})`),
      { figure: 'ratio store / baseline', measured: ratio.toFixed(2), target: '>= 0.70', ok: ratio >= 0.7 },
      info('ratio store / baseline with foreign-key checks', (keyedMs / store.firstMs).toFixed(2)),
      info('ratio store / floor', (floorMs / store.firstMs).toFixed(2)),
      info('store.applyRecords, 25 calls per store.transaction', `${rate(records, store.groupedMs)} (ratio to baseline ${(bareMs / store.groupedMs).toFixed(2)})`),
      info('store.applyRecords, same records again (no writes)', rate(records, store.againMs)),
      info('store.applyRecords, every player improved', `${rate(store.improved, store.improveMs)} (${store.improved.toLocaleString('en-US')} improvements)`),
      info('database size: store / baseline / floor', `${size('store.sqlite')} / ${size('bare.sqlite')} / ${size('floor.sqlite')}`),
      ...Object.entries(store.queries).map(([label, ms]) => info(label, `${ms.toFixed(1)} ms`)),
    ];
    printRows(rows);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await run(process.argv[2] ? Number(process.argv[2]) : undefined, process.argv[3] ? Number(process.argv[3]) : undefined);
}
