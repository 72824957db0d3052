// Benchmark of the store's write path: 200,000 and 1,000,000 records through applyRecords (200 per call, one map per
// call, as a sync writes them) against a bare better-sqlite3 insert loop of the same rows, in one transaction, into
// a table shaped like the store's records table. Both on files in the same temp folder, same pragmas, written map by
// map in lockstep so a busy shared machine slows both alike (the baseline's one transaction stays open throughout;
// before, run one after the other, the ratio moved by 0.3 between runs). Each writer's CPU time is summed beside its
// wall time: on a machine shared with other work it moves much less. Records carry the times a real map's do
// (distinct, over years), which decide how many index pages each commit touches, and arrive as a sync hands them over
// (parsed from JSON). The baseline inserts the very rows the store keeps (checked after each round, untimed). The
// ratio is the median of the rounds', with every round's shown. Then the store's later passes and reads, with the
// replay queue's query plan. Prints; never asserts.
// Run: node test/bench/store.bench.ts [records] [rounds]   (one size; both sizes without arguments)
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { MapInfo, PlayerRecord } from '../../src-main/core/model.ts';
import { openConnection } from '../../src-main/core/store/db.ts';
import { timestamp as storedTimestamp } from '../../src-main/core/store/ids.ts';
import { MAX_REPLAY_ATTEMPTS, openStore, type Store } from '../../src-main/core/store/index.ts';
import { REPLAY_QUERIES } from '../../src-main/core/store/replays.ts';
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

const YEARS_MS = Date.parse('2025-01-01T00:00:00Z') - Date.parse('2022-01-01T00:00:00Z');

/**
 * When a record was set, to the second, as the service writes it: first sightings spread evenly over the three
 * years before the sync (a watched player's PBs on a map span its life), improvements in the month before it.
 */
function setAt(recordNo: number, pass: number): string {
  const ms = pass === 0
    ? Date.parse('2022-01-01T00:00:00Z') + ((recordNo * 2_654_435_761) % (YEARS_MS / 1000)) * 1000
    : Date.parse('2024-12-01T00:00:00Z') + ((recordNo * 7_919 + pass) % (30 * 86_400)) * 1000;
  return new Date(ms).toISOString().replace('.000Z', '+00:00');
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
      respawnCount: null, medal: 3, removed: false, timestamp: setAt(recordNo, pass),
      url: `https://storage.example/mapRecords/${id(4, recordNo * 4 + pass)}/replay`,
      filename: `Replays\\Downloaded\\${id(1, m)}_${id(2, p + 1)}_(0'${Math.floor(time / 1000)}''${time % 1000}).replay.gbx`,
    };
  }
  // As the client hands them over, parsed from the service's JSON: flat strings, which no writer has to join first.
  return JSON.parse(JSON.stringify(records)) as PlayerRecord[];
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

/** Something the bench writes maps into, one call per map, timed call by call. */
interface Writer {
  /** Untimed preparation (schema, parents), then the timed start (a BEGIN for a one-transaction writer). */
  start(): void;
  /** `timestamps`: each record's time as the store keeps it (UTC ISO), worked out untimed for the bare writers. */
  write(m: number, batch: PlayerRecord[], timestamps: readonly string[]): void;
  finish(): void;
}

/**
 * A bare insert loop of the same rows in ONE transaction. `table: 'store'` inserts into the store's own records
 * table (same columns, same indexes, created by the store's migrations; foreign-key checks off, so it is bare);
 * `'storeWithKeys'` the same with better-sqlite3's default foreign-key checks on (parents added untimed);
 * `'keyOnly'` into a table with the same columns and only a primary key: the floor.
 */
function bareWriter(file: string, total: number, table: 'store' | 'storeWithKeys' | 'keyOnly'): Writer {
  let db: Database.Database;
  let insert: Database.Statement;
  return {
    start() {
      if (table !== 'keyOnly') {
        openStore({ file }).close();
        // The store's own connection settings (WAL, cache, checkpoints); without its foreign-key checks, bare.
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
    },
    write(m, batch, timestamps) {
      if (m === 1) db.exec('BEGIN');
      for (let p = 0; p < batch.length; p += 1) {
        const r = batch[p]!;
        insert.run(m, p + 1, 'PersonalBest', r.mapRecordId, r.time, 0, r.score, r.respawnCount, r.medal, r.gameMode,
          r.gameModeCustomData, 0, timestamps[p]!, r.url, r.filename, SEEN, SEEN);
      }
    },
    finish() {
      db.exec('COMMIT');
      db.close();
    },
  };
}

/** The store, prepared with the maps, a watchlist and a sync run; each write is one applyRecords call (one commit). */
function storeWriter(file: string, total: number): Writer & { store(): Store; run(): number } {
  let store: Store;
  let run: number;
  return {
    start() {
      store = openStore({ file });
      const infos: MapInfo[] = [];
      for (let m = 1; m <= total / BATCH; m += 1) infos.push(mapInfo(m));
      store.maps.upsert(infos, '2025-01-01T00:00:00.000Z');
      store.watchlists.create('Bench');
      store.maps.addRefs('Bench', infos.slice(0, 50).map((i) => ({ mapId: i.mapId })));
      store.players.add('Bench', Array.from({ length: 20 }, (_, p) => ({ accountId: id(2, p + 1) })));
      run = store.syncRuns.start();
    },
    write(m, records) {
      store.records.applyRecords({ mapId: id(1, m), scope: 'PersonalBest', records, seenAt: SEEN, syncRunId: run });
    },
    // What the bare writers' close does (a checkpoint of the write-ahead log into the database), timed alike; the
    // store stays open for the later passes.
    finish() {
      store.db.pragma('wal_checkpoint(TRUNCATE)');
    },
    store: () => store,
    run: () => run,
  };
}

/**
 * Writes the same maps through every writer in lockstep: map 1 to each, then map 2 to each (the order rotating),
 * so a busy moment on a shared machine slows all of them alike. Returns each writer's own wall and CPU time, in ms
 * (SQLite runs on this thread, so the process's CPU time over a call is the call's).
 */
function lockstep(writers: readonly Writer[], total: number): { ms: number[]; cpuMs: number[] } {
  const ms = writers.map(() => 0);
  const cpuMs = writers.map(() => 0);
  const timed = (i: number, f: () => void): void => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    f();
    ms[i]! += performance.now() - t;
    const used = process.cpuUsage(cpu);
    cpuMs[i]! += (used.user + used.system) / 1000;
  };
  writers.forEach((w) => w.start());
  for (let m = 1; m <= total / BATCH; m += 1) {
    const batch = batchFor(m, 0);
    const timestamps = batch.map((r) => storedTimestamp(r.timestamp));
    for (let k = 0; k < writers.length; k += 1) {
      const i = (m + k) % writers.length;
      timed(i, () => writers[i]!.write(m, batch, timestamps)); // applyRecords reads its input, never changes it
    }
  }
  writers.forEach((w, i) => timed(i, () => w.finish()));
  return { ms, cpuMs };
}

/** A digest of every records row's stored columns, in row order: equal for two files holding the same rows. */
function rowsDigest(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const hash = createHash('sha256');
    const rows = db.prepare(`SELECT id, map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
      respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, old_time, old_score,
      old_respawn_count, seen_at, updated_at, sync_run_id FROM records ORDER BY id`).raw();
    for (const row of rows.iterate()) hash.update(JSON.stringify(row));
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

interface RoundFigures {
  floorMs: number;
  bareMs: number;
  keyedMs: number;
  firstMs: number;
  bareCpuMs: number;
  firstCpuMs: number;
  againMs: number;
  improveMs: number;
  improved: number;
  queries: Record<string, number>;
  warm: Record<string, number>;
  /** EXPLAIN QUERY PLAN of the replay queue over every list. */
  pendingPlan: string[];
  /** The baseline's records rows are the store's first pass, column for column. */
  sameRows: boolean;
}

/** One round: store, bare, keyed and floor in lockstep, then the store's later passes and reads. */
function round(dir: string, total: number): RoundFigures {
  const fresh = (name: string): string => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(join(dir, name + suffix), { force: true });
    return join(dir, name);
  };
  const through = storeWriter(fresh('store.sqlite'), total);
  const { ms: [firstMs = 0, bareMs = 0, keyedMs = 0, floorMs = 0], cpuMs: [firstCpuMs = 0, bareCpuMs = 0] } = lockstep([
    through, bareWriter(fresh('bare.sqlite'), total, 'store'), bareWriter(fresh('keyed.sqlite'), total, 'storeWithKeys'),
    bareWriter(fresh('floor.sqlite'), total, 'keyOnly'),
  ], total);
  const sameRows = rowsDigest(join(dir, 'store.sqlite')) === rowsDigest(join(dir, 'bare.sqlite'));
  const store = through.store();
  const maps = total / BATCH;
  const pass = (n: number, seenAt: string, everyNth = 1): { ms: number; improved: number } => {
    let ms = 0;
    let improved = 0;
    for (let m = 1; m <= maps; m += everyNth) {
      const records = batchFor(m, n);
      const t = performance.now();
      improved += store.records.applyRecords({ mapId: id(1, m), scope: 'PersonalBest', records, seenAt, syncRunId: through.run() }).improvements.length;
      ms += performance.now() - t;
    }
    return { ms, improved };
  };
  const again = pass(0, '2025-01-02T00:00:00.000Z');
  const better = pass(1, '2025-01-03T00:00:00.000Z', 10); // a tenth of the maps: everyone improved
  const queries: Record<string, number> = {};
  const warm: Record<string, number> = {};
  // The first call reads from the disk what the writes left out of the cache; the best of three more, from memory.
  const time = (label: string, f: () => unknown): void => {
    let t = performance.now();
    f();
    queries[label] = performance.now() - t;
    warm[label] = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i += 1) {
      t = performance.now();
      f();
      warm[label] = Math.min(warm[label]!, performance.now() - t);
    }
  };
  time('records.forMap (200 rows)', () => store.records.forMap(id(1, 1)));
  time(`records.forPlayer (${maps} rows)`, () => store.records.forPlayer(id(2, 1)));
  time('records.leaderboards (50 maps x 20 players)', () => store.records.leaderboards('Bench'));
  time('records.history by player', () => store.records.history({ player: id(2, 1) }));
  time('records.history by list', () => store.records.history({ list: 'Bench' }));
  // `trackwatch history` over every map (issue 8 §5): the newest 50, and one month.
  time('records.history over every map, newest 50', () => store.records.history({ limit: 50 }));
  time('records.history over every map, one month (December 2024)', () => store.records.history({ since: '2024-12-01', until: '2025-01-01' }));
  time('replays.pending(1000)', () => store.replays.pending(1000));
  const pendingPlan = store.db.prepare<{ max: number }, { detail: string }>(`EXPLAIN QUERY PLAN ${REPLAY_QUERIES.pendingAnyList}`)
    .all({ max: MAX_REPLAY_ATTEMPTS }).map((r) => r.detail);
  store.close();
  return {
    floorMs, bareMs, keyedMs, firstMs, bareCpuMs, firstCpuMs, againMs: again.ms, improveMs: better.ms, improved: better.improved,
    queries, warm, pendingPlan, sameRows,
  };
}

function rate(count: number, ms: number): string {
  return `${Math.round(count / (ms / 1000)).toLocaleString('en-US')} records/s`;
}

/** The store's write speed as a share of the bare insert loop's (issue 18), at every size. */
const TARGET_RATIO = 0.8;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** "0.86 (rounds: 0.84, 0.86, 0.90; spread 0.06)": the median of the rounds' ratios, each round's, and max - min. */
function ratioFigure(ratios: readonly number[]): string {
  const spread = Math.max(...ratios) - Math.min(...ratios);
  return `${median(ratios).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}; spread ${spread.toFixed(2)})`;
}

/** Rates from every round's figures summed; the target's ratio is the median of the rounds' ratios. */
function sizeRows(dir: string, records: number, rounds: number): BenchRow[] {
  console.log(`store bench: ${records.toLocaleString('en-US')} records, ${records / BATCH} maps x ${PLAYERS} players, ${BATCH} per applyRecords call, ${rounds} rounds; baseline and store written map by map in lockstep`);
  const all: RoundFigures[] = [];
  for (let r = 0; r < rounds; r += 1) all.push(round(dir, records));
  type Summed = 'floorMs' | 'bareMs' | 'keyedMs' | 'firstMs' | 'bareCpuMs' | 'firstCpuMs' | 'againMs' | 'improveMs' | 'improved';
  const sum = (k: Summed): number => all.reduce((n, f) => n + f[k], 0);
  const n = all.length;
  const wallRatios = all.map((f) => f.bareMs / f.firstMs);
  const ratio = median(wallRatios);
  const last = all.at(-1)!;
  const size = (f: string): string => `${(statSync(join(dir, f)).size / 1e6).toFixed(0)} MB`;
  const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  const at = ` (${(records / 1000).toLocaleString('en-US')}k)`;
  const info = (figure: string, measured: string): BenchRow => ({ figure, measured, target: '', ok: true });
  const pendingWalk = !last.pendingPlan.some((d) => /^SCAN (r|records|rp|replays)\b/.test(d)) &&
    last.pendingPlan.some((d) => d.includes('records_by_map (map_ref=? AND player_ref=?)'));
  const sameRows = all.every((f) => f.sameRows);
  return [
    info(`floor: bare inserts, primary key only, 1 transaction${at}`, `${rate(records * n, sum('floorMs'))} (${secs(sum('floorMs') / n)})`),
    info(`baseline: bare inserts into the store's records table, 1 transaction${at}`, `${rate(records * n, sum('bareMs'))} (${secs(sum('bareMs') / n)}, ${secs(sum('bareCpuMs') / n)} CPU)`),
    info('  the same with foreign-key checks on (better-sqlite3\'s default)', `${rate(records * n, sum('keyedMs'))} (${secs(sum('keyedMs') / n)})`),
    info(`store.applyRecords, 200 per call, each call commits${at}`, `${rate(records * n, sum('firstMs'))} (${secs(sum('firstMs') / n)}, ${secs(sum('firstCpuMs') / n)} CPU)`),
    {
      figure: `baseline rows = the store's rows, column for column${at}`,
      measured: sameRows ? 'identical' : 'DIFFERENT',
      target: 'identical',
      ok: sameRows,
    },
    {
      figure: `ratio store / baseline, median of rounds${at}`,
      measured: ratioFigure(wallRatios),
      target: `>= ${TARGET_RATIO}`,
      ok: ratio >= TARGET_RATIO,
    },
    info(`ratio store / baseline in CPU time, median of rounds${at}`, ratioFigure(all.map((f) => f.bareCpuMs / f.firstCpuMs))),
    info('ratio store / baseline with foreign-key checks, median', median(all.map((f) => f.keyedMs / f.firstMs)).toFixed(2)),
    info('ratio store / floor, median', median(all.map((f) => f.floorMs / f.firstMs)).toFixed(2)),
    info('store.applyRecords, same records again (no writes)', rate(records * n, sum('againMs'))),
    info('store.applyRecords, every player improved', `${rate(sum('improved'), sum('improveMs'))} (${(sum('improved') / n).toLocaleString('en-US')} improvements)`),
    info('database size: store / baseline / floor', `${size('store.sqlite')} / ${size('bare.sqlite')} / ${size('floor.sqlite')}`),
    ...Object.entries(last.queries).map(([label]) => {
      const mean = (k: 'queries' | 'warm'): string => (all.reduce((t, f) => t + f[k][label]!, 0) / n).toFixed(1);
      return info(`${label}${at}`, `${mean('queries')} ms first, ${mean('warm')} ms again`);
    }),
    {
      figure: `replays.pending: walks the lists' pairs through records_by_map${at}`,
      measured: pendingWalk ? last.pendingPlan.find((d) => d.startsWith('SEARCH r '))! : last.pendingPlan.join('; '),
      target: 'no SCAN of records',
      ok: pendingWalk,
    },
  ];
}

export async function run(sizes: readonly number[] = [200_000, 1_000_000], rounds = 3): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-store-bench-'));
  try {
    const rows = sizes.flatMap((total) => sizeRows(dir, Math.max(BATCH, Math.floor(total / BATCH) * BATCH), rounds));
    printRows(rows);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await run(process.argv[2] ? [Number(process.argv[2])] : undefined, process.argv[3] ? Number(process.argv[3]) : undefined);
}
