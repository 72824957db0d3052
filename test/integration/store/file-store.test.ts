import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseFromTheFutureError, LATEST_SCHEMA_VERSION, openStore, type Store } from '../../../src-main/core/store/index.ts';
import { accountId, exportRows, makeMap, makeRecord, mapId } from '../../unit/store/fixtures.ts';

let dir: string;
const opened: Store[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tw-store-'));
});
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A PID that no process has: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

function open(file = join(dir, 'trackwatch.sqlite')): Store {
  const store = openStore({ file });
  opened.push(store);
  return store;
}

describe('a store on a file', () => {
  it('runs in WAL mode with foreign keys and a busy timeout', () => {
    const store = open();
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(store.dataDir).toBe(dir);
  });

  it('creates missing folders and keeps what it wrote across a reopen', () => {
    const file = join(dir, 'deep', 'er', 'trackwatch.sqlite');
    const first = open(file);
    first.watchlists.create('Weekly Shorts');
    first.close();
    const again = open(file);
    expect(again.watchlists.list().map((l) => l.name)).toEqual(['Weekly Shorts']);
  });

  it('refuses to open a folder a newer Trackwatch wrote, and leaves the file alone', () => {
    const file = join(dir, 'trackwatch.sqlite');
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => open(file)).toThrow(DatabaseFromTheFutureError);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION + 1);
    check.close();
  });

  it('clears the temp files a killed writer left (replays, thumbnails, exports), but not a running writer\'s or other files', async () => {
    const gone = await deadPid();
    const temps: Record<string, string> = {};
    for (const [folder, name, pid] of [
      ['replays/m/a', 'r.replay.gbx', gone], ['thumbnails', 'm.img', gone], ['exports', 'x.csv', gone], ['exports', 'y.csv', process.pid],
    ] as const) {
      mkdirSync(join(dir, folder), { recursive: true });
      temps[name] = join(dir, folder, `.${name}.trackwatch.${pid}-0123456789ab.tmp`);
      writeFileSync(temps[name], 'partial');
    }
    // What each writer noted: the folders it wrote in.
    mkdirSync(join(dir, 'tmp', 'in-progress'), { recursive: true });
    const folders = ['replays', 'thumbnails', 'exports'].map((f) => ({ path: join(dir, f), deep: true }));
    writeFileSync(join(dir, 'tmp', 'in-progress', `${gone}-1a.json`), JSON.stringify({ pid: gone, folders }));
    writeFileSync(join(dir, 'tmp', 'in-progress', `${process.pid}-2a.json`), JSON.stringify({ pid: process.pid, folders }));
    writeFileSync(join(dir, 'exports/kept.csv'), 'a,b');
    const old = Date.now() / 1000 - 3600;
    utimesSync(join(dir, 'exports/kept.csv'), old, old);
    open();
    expect(existsSync(temps['r.replay.gbx']!)).toBe(false);
    expect(existsSync(temps['m.img']!)).toBe(false);
    expect(existsSync(temps['x.csv']!)).toBe(false);
    expect(existsSync(temps['y.csv']!)).toBe(true);
    expect(existsSync(join(dir, 'exports/kept.csv'))).toBe(true);
  });

  it('streams the export through its own read connection, so writes go on meanwhile', () => {
    const store = open();
    store.watchlists.create('L');
    store.maps.upsert([makeMap(1)], '2025-01-01T00:00:00.000Z');
    const run = store.syncRuns.start();
    store.records.applyRecords({
      mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run,
      records: [makeRecord(1, 1), makeRecord(1, 2)],
    });
    const rows = exportRows(store);
    expect(rows.next().value?.accountId).toBe(accountId(1));
    // Mid-export, the store's own connection still writes.
    store.settings.set('theme', 'dark');
    store.records.applyRecords({
      mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-02T00:00:00.000Z', syncRunId: run,
      records: [makeRecord(1, 3)],
    });
    const rest = [...rows];
    // The export reads the snapshot it started on.
    expect(rest.map((r) => r.accountId)).toEqual([accountId(2)]);
    expect(store.records.forMap(mapId(1))).toHaveLength(3);
  });

  it('lets two connections (the app and the CLI) use one data folder', () => {
    const app = open();
    const cli = open();
    app.watchlists.create('From the app');
    cli.watchlists.create('From the CLI');
    expect(app.watchlists.list().map((l) => l.name)).toEqual(['From the app', 'From the CLI']);
  });
});
