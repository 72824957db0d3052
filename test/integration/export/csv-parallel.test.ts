// The CSV export split across two worker threads (core/export/csv-parallel.ts) writes the same bytes as the export in
// the calling thread, from one snapshot of the database whatever a sync commits meanwhile, stops on abort, and fails
// with one line when a worker fails.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Collected } from '../../helpers/collected.ts';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportCsv, type ExportCsvOptions } from '../../../src-main/core/export/csv.ts';
import { beginOnOneSnapshot, openStore, SNAPSHOT_TRIES, type Store } from '../../../src-main/core/store/index.ts';
import { insertExportRows } from '../../helpers/export-data.ts';

const MAPS = 120;
const PLAYERS = 25;
/** No records on this map, nor on the last two; one record on ONE_RECORD_MAP. */
const EMPTY_MAP = 7;
const ONE_RECORD_MAP = 9;

/**
 * Maps and players with names that need quoting or neutralising, stunt maps, secret records, downloaded replays,
 * world positions, a player stored only as a WR holder (left out of the full export), and a list of half of it.
 */
function fill(store: Store): void {
  store.transaction(() => {
    const db = store.db;
    insertExportRows(db, {
      maps: MAPS,
      players: PLAYERS,
      records: (MAPS - 2) * PLAYERS,
      where: `m != ${EMPTY_MAP} AND (m != ${ONE_RECORD_MAP} OR p = 3)`,
    });
    db.prepare(
      `INSERT INTO positions (map_ref, player_ref, scope, score, state, position, zones, as_of)
       SELECT map_ref, player_ref, scope, coalesce(time, 0), 'ranked', id % 500 + 1, '[]', '2025-01-01T00:00:00.000Z'
       FROM records WHERE id % 11 = 0`,
    ).run();
    db.prepare(`INSERT INTO world_record_holders (player_ref) VALUES (${PLAYERS})`).run();
    db.prepare("INSERT INTO watchlists (id, name, created_at) VALUES (1, 'Half', '2025-01-01T00:00:00.000Z')").run();
    db.prepare(`INSERT INTO watchlist_maps (watchlist_id, map_ref, added_at) SELECT 1, id, '2025-01-01T00:00:00.000Z' FROM maps WHERE id <= 60`).run();
    db.prepare(`INSERT INTO watchlist_players (watchlist_id, player_ref, added_at) SELECT 1, id, '2025-01-01T00:00:00.000Z' FROM players WHERE id <= 12`).run();
  });
}

/** Collects what the export writes; `onFirst` runs at its first write (the header), before the write completes. */
async function exported(store: Store, options: ExportCsvOptions): Promise<{ bytes: Buffer; rows: number }> {
  const sink = new Collected();
  const { rows } = await exportCsv(store, sink, options);
  return { bytes: sink.bytes, rows };
}

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tw-csv-parallel-'));
  store = openStore({ file: join(dir, 'trackwatch.sqlite') });
  fill(store);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the CSV export across two worker threads', () => {
  it('writes the same bytes as the calling thread, with an empty map and a map of one record among many', async () => {
    const one = await exported(store, { parallel: false });
    const two = await exported(store, { parallel: true });
    // Every stored map but the empty ones; the WR holder's records are left out either way.
    expect(one.rows).toBe((MAPS - 4) * (PLAYERS - 1) + 1);
    expect(two.rows).toBe(one.rows);
    expect(two.bytes.equals(one.bytes)).toBe(true);
    const text = one.bytes.toString();
    expect(text).toContain('"Map 4, ""Tech"" - Stage"');
    expect(text.split('\r\n').filter((line) => line.includes(`RowsUid${ONE_RECORD_MAP.toString(16).padStart(10, '0')}`))).toHaveLength(1);
  });

  it('writes the same bytes for a list, with a byte order mark, to a file', async () => {
    const one = join(dir, 'one.csv');
    const two = join(dir, 'two.csv');
    const a = await exportCsv(store, one, { list: 'Half', bom: true, parallel: false });
    const b = await exportCsv(store, two, { list: 'Half', bom: true, parallel: true });
    expect(a.rows).toBe(59 * 12 - 11);
    expect(b.rows).toBe(a.rows);
    expect(readFileSync(two).equals(readFileSync(one))).toBe(true);
  });

  it('reads one snapshot: a sync committing once the export has begun changes nothing of it', async () => {
    const before = await exported(store, { parallel: false });
    const sink = new Collected(() => {
      // At the header: the workers hold their snapshot; change the first map, a middle one and the last.
      store.db.prepare('UPDATE records SET time = 1 WHERE map_ref IN (1, 60, ?) AND current = 1').run(MAPS - 2);
      store.db.prepare('DELETE FROM records WHERE map_ref = 30').run();
    });
    const { rows } = await exportCsv(store, sink, { parallel: true });
    expect(rows).toBe(before.rows);
    expect(sink.bytes.equals(before.bytes)).toBe(true);
    // The commit is there for the next export.
    const after = await exported(store, { parallel: true });
    expect(after.rows).toBe(before.rows - (PLAYERS - 1));
    expect(after.bytes.equals(before.bytes)).toBe(false);
  });

  it('stops at once when its signal aborts, and says so with the signal\'s reason', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped by the test');
    const sink = new Collected(() => controller.abort(reason));
    await expect(exportCsv(store, sink, { parallel: true, signal: controller.signal })).rejects.toBe(reason);
    // The header at most: no row was written after the abort.
    expect(sink.bytes.toString().split('\r\n').filter(Boolean).length).toBeLessThanOrEqual(1);
  });

  it('fails with one line naming the worker thread when a worker cannot read, and leaves no file', async () => {
    // A records table page overwritten on disk: the plan's count reads only the index; the workers read the table.
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const page = store.db.prepare<[], { pageno: number }>("SELECT pageno FROM dbstat WHERE name = 'records' AND pagetype = 'leaf' LIMIT 1 OFFSET 5").get()!;
    const size = store.db.pragma('page_size', { simple: true }) as number;
    store.close();
    const fd = openSync(join(dir, 'trackwatch.sqlite'), 'r+');
    writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (page.pageno - 1) * size);
    closeSync(fd);
    store = openStore({ file: join(dir, 'trackwatch.sqlite') });
    const out = join(dir, 'broken.csv');
    const failure = await exportCsv(store, out, { parallel: true }).then(() => undefined, (error: unknown) => error as Error);
    expect(failure?.message).toMatch(/^the CSV export failed in worker thread [12]: .*malformed/);
    expect(failure?.message).not.toContain('\n');
    expect(existsSync(out)).toBe(false);
  });
});

describe('one snapshot across connections (store/export-split.ts)', () => {
  it('begins the readers again when a commit fell between their snapshots, then they see the same rows', async () => {
    const file = join(dir, 'trackwatch.sqlite');
    const watch = new Database(file, { readonly: true });
    const readers = [new Database(file, { readonly: true }), new Database(file, { readonly: true })];
    const count = (db: Database.Database): number => db.prepare<[], { n: number }>('SELECT count(*) AS n FROM records').get()!.n;
    let tries = 0;
    try {
      const agreed = await beginOnOneSnapshot(() => watch.pragma('data_version', { simple: true }) as number, async () => {
        tries += 1;
        readers[0]!.exec('BEGIN');
        count(readers[0]!);
        // The first time, a sync commits between the two readers' snapshots.
        if (tries === 1) store.db.prepare('DELETE FROM records WHERE map_ref = 30').run();
        readers[1]!.exec('BEGIN');
        count(readers[1]!);
      }, async () => {
        for (const reader of readers) reader.exec('COMMIT');
      });
      expect(agreed).toBe(true);
      expect(tries).toBe(2);
      expect(count(readers[0]!)).toBe(count(readers[1]!));
    } finally {
      for (const db of [watch, ...readers]) db.close();
    }
  });

  it('gives up after a few tries when commits keep coming', async () => {
    let version = 0;
    let begun = 0;
    const agreed = await beginOnOneSnapshot(() => (version += 1), async () => {
      begun += 1;
    }, async () => {});
    expect(agreed).toBe(false);
    expect(begun).toBe(SNAPSHOT_TRIES);
  });
});
