// The command line against every local fault (issue 9 §5-7): each ends in one line on stderr and an exit code,
// never a stack trace, and leaves the database (PRAGMA integrity_check) and the files it had intact.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, openSync, closeSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { strayTempFiles, tempDataDir } from '../../helpers/sync.ts';
import { canMakeReadOnly, databaseOf, inspect, oneLine, sha256, trackwatch } from './helpers.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 17, maps: 6, players: 6 });
const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
let emulator: RunningEmulator;
let template: { dir: string; remove: () => Promise<void> };
let scratch: { dir: string; remove: () => Promise<void> };
let data: string;

const api = (): string[] => ['--api-url', emulator.url, '--max-rps', '500'];

beforeAll(async () => {
  emulator = await startEmulator({ dataset });
  // A data folder with a list, its players and one sync behind it: what every fault is tried against.
  template = await tempDataDir('trackwatch-faults-');
  const base = ['--data-dir', template.dir, ...api()];
  for (const args of [
    ['maps', 'add', ...dataset.maps.map((m) => m.mapUid)],
    ['players', 'add', ...accounts],
    ['sync', '--no-replays'],
  ]) {
    const r = await trackwatch([...base, ...args]);
    if (r.code !== 0) throw new Error(`setting up: ${args.join(' ')}: ${r.stderr}`);
  }
}, 60_000);
afterAll(async () => {
  await emulator.close();
  await template.remove();
});
beforeEach(async () => {
  scratch = await tempDataDir('trackwatch-fault-');
  data = join(scratch.dir, 'data');
  cpSync(template.dir, data, { recursive: true });
});
afterEach(async () => {
  await scratch.remove();
});

const at = (...args: string[]): string[] => ['--data-dir', data, ...api(), ...args];

describe('the database', () => {
  it('damaged (not a database): one line saying what to do, exit 65, the file left as it was', async () => {
    writeFileSync(databaseOf(data), 'this is not a database, but it is somebody\'s file'.repeat(200));
    rmSync(`${databaseOf(data)}-wal`, { force: true });
    rmSync(`${databaseOf(data)}-shm`, { force: true });
    const before = sha256(databaseOf(data));
    for (const args of [['compare', '--list', 'Default'], ['sync']]) {
      const r = await trackwatch(at(...args));
      expect(r.code, r.stderr).toBe(65);
      expect(oneLine(r)).toMatch(/^the database in the data folder .* is damaged \(SQLITE_NOTADB\); it was left as it is\. Restore it from a backup, or move it away/);
      expect(sha256(databaseOf(data))).toBe(before);
    }
  });

  it('a damaged page only the end of a sync reads (issue 17 §1.7): the run says "damaged" and what to do, never "sync ok" first; its row is closed as failed, and the records stay', async () => {
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(databaseOf(data));
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    // The replays table's pages: a sync that finds nothing new and downloads nothing never reads them; the count of
    // replays given up on, in the run's report, does.
    const pages = db.prepare<[], { pageno: number }>("SELECT pageno FROM dbstat WHERE name = 'replays'").all().map((p) => p.pageno);
    const records = db.prepare('SELECT * FROM records ORDER BY id').all();
    db.close();
    expect(pages.length).toBeGreaterThan(0);
    const fd = openSync(databaseOf(data), 'r+');
    for (const page of pages) writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
    closeSync(fd);

    const r = await trackwatch(at('sync', '--no-replays'));
    expect(r.code, r.stderr).toBe(65);
    expect(oneLine(r)).toBe('the database in the data folder is damaged (SQLITE_CORRUPT); it was left as it is. Restore it from a backup, or move it away and Trackwatch starts a new one.');
    expect(r.stdout).not.toMatch(/sync ok/);
    expect(r.stdout).toMatch(/^sync failed: /m);
    const after = new Database(databaseOf(data), { readonly: true });
    try {
      const runs = after.prepare<[], { outcome: string }>('SELECT outcome FROM sync_runs ORDER BY id').all().map((run) => run.outcome);
      expect(runs).toEqual(['ok', 'failed']);
      expect(after.prepare('SELECT * FROM records ORDER BY id').all()).toEqual(records);
    } finally {
      after.close();
    }
  });

  it('tables that do not match its schema version (a version number changed, a table dropped by hand): one line, exit 65, the file left as it was', async () => {
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
    for (const [change, args] of [
      ['PRAGMA user_version = 3', ['lists']],
      ['DROP TABLE positions', ['compare', '--list', 'Default']],
    ] as const) {
      const copy = join(scratch.dir, `schema-${args[0]}`);
      cpSync(data, copy, { recursive: true });
      const db = new Database(databaseOf(copy));
      db.exec(change);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      const before = sha256(databaseOf(copy));
      const r = await trackwatch(['--data-dir', copy, ...api(), ...args]);
      expect(r.code, r.stderr).toBe(65);
      expect(oneLine(r)).toMatch(/^the database in the data folder .* is damaged \((its tables do not match schema 3|schema \d+ without its table positions)[^)]*\); it was left as it is\. Restore it from a backup/);
      expect(sha256(databaseOf(copy))).toBe(before);
    }
  });

  it('locked by another program: one line, exit 75, and nothing changed once it lets go', async () => {
    const before = inspect(data);
    // Another program holds the database in exclusive mode (a database browser in the middle of a write).
    const holder = spawn(process.execPath, ['-e', `
      const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
      const db = new Database(${JSON.stringify(databaseOf(data))});
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      process.stdout.write('locked\\n');
      process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); });
      process.stdin.resume();
    `], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((done) => holder.stdout!.once('data', () => done()));
      const r = await trackwatch(at('players', 'add', '00000000-0000-4000-8000-000000000001'));
      expect(r.code, r.stderr).toBe(75);
      expect(oneLine(r)).toMatch(/^the database in the data folder .* is locked by another program \(SQLITE_BUSY\); close it .* and try again\.$/);
    } finally {
      holder.stdin!.end();
      await new Promise((done) => holder.once('exit', done));
    }
    expect(inspect(data)).toEqual(before);
  }, 30_000);
});

describe('the data folder', () => {
  it('a file instead of a folder: one line, exit 73, the file untouched', async () => {
    const file = join(scratch.dir, 'not-a-folder');
    writeFileSync(file, 'keep me');
    for (const args of [['lists'], ['sync']]) {
      const r = await trackwatch(['--data-dir', file, ...api(), ...args]);
      expect(r.code, r.stderr).toBe(73);
      expect(oneLine(r)).toBe(`the data folder ${file} is a file, not a folder; choose another with --data-dir (or TRACKWATCH_DATA_DIR).`);
      expect(readFileSync(file, 'utf8')).toBe('keep me');
    }
  });

  it.runIf(canMakeReadOnly())('read-only: reads work, a write says why (exit 77), nothing changed', async () => {
    const before = inspect(data);
    const compare = await trackwatch(at('compare', '--list', 'Default'), { readOnly: data });
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toMatch(/#\s+player\s+result/);
    const records = await trackwatch(at('records', '--json'), { readOnly: data });
    expect(records.code, records.stderr).toBe(0);
    // Every current record but the world-record holders' (no watched player's: `records` leaves them out).
    const holders = new Set(before.rows.world_record_holders!.map((h) => (h as { player_ref: number }).player_ref));
    const watched = before.rows.records!.filter((r) => (r as { current: number | null }).current === 1 && !holders.has((r as { player_ref: number }).player_ref));
    expect(holders.size).toBeGreaterThan(0);
    expect(JSON.parse(records.stdout).length).toBe(watched.length);

    for (const args of [['players', 'add', '00000000-0000-4000-8000-000000000001'], ['sync']]) {
      const r = await trackwatch(at(...args), { readOnly: data });
      expect(r.code, r.stderr).toBe(77);
      expect(oneLine(r)).toMatch(/^the data folder .* cannot be written .*reading works .*use a writable folder \(--data-dir\)\.$/);
    }
    expect(inspect(data)).toEqual(before);
  });

  it('does not exist, for a command that only reads: says so, creates nothing', async () => {
    const missing = join(scratch.dir, 'nowhere');
    const r = await trackwatch(['--data-dir', missing, 'compare']);
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe(`there is no Trackwatch data in ${missing} (the folder does not exist); nothing was created. Name your data folder with --data-dir, or add maps first (\`trackwatch maps add\`).`);
    expect(existsSync(missing)).toBe(false);
  });

  it('--data-dir "" is refused, not taken for the default folder', async () => {
    const r = await trackwatch(['--data-dir', '', 'lists'], { env: { HOME: join(scratch.dir, 'home') } });
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe('--data-dir is empty; give a folder, or leave the flag out for the default one.');
    expect(existsSync(join(scratch.dir, 'home'))).toBe(false);
  });
});

describe('a full disk', () => {
  it('while a sync writes records: the run closes as failed, the maps written before are intact (exit 74)', async () => {
    const before = inspect(data);
    // Six players a map: the third map's records meet the full disk.
    emulator.evolve({ seed: 3, fraction: 1 });
    const r = await trackwatch(at('sync', '--no-replays'), { inject: { sqliteFull: { statement: '^\\s*INSERT INTO records', after: 12 } } });
    expect(r.code, r.stderr).toBe(74);
    expect(oneLine(r)).toBe('the disk holding the data folder is full (SQLITE_FULL); free some space and try again. What was stored before is intact.');
    const after = inspect(data);
    expect(after.integrity).toBe('ok');
    // Two maps' improvements went in, the rest waits for the next sync; nothing stored before was lost.
    expect(after.rows.records!.length).toBeGreaterThan(before.rows.records!.length);
    const kept = (row: unknown): unknown => ({ ...(row as object), current: null });
    for (const row of before.rows.records!) expect(after.rows.records!.map(kept)).toContainEqual(kept(row));
    expect(after.runs.at(-1)).toMatchObject({ outcome: 'failed' });
    expect(after.runs.filter((run) => run.outcome === 'running')).toEqual([]);
    // And the next sync, with room again, completes.
    const again = await trackwatch(at('sync', '--no-replays'));
    expect(again.code, again.stderr).toBe(0);
  });

  it('while a replay downloads: one line, exit 74, no partial file left, the database intact', async () => {
    const r = await trackwatch(at('sync'), { inject: { enospc: { path: '\\.replay\\.gbx\\.trackwatch\\.\\d+-[0-9a-f]+\\.tmp$' } } });
    expect(r.code, r.stderr).toBe(74);
    expect(oneLine(r)).toMatch(/^the disk holding the data folder is full \(ENOSPC\); free some space and try again\. What was stored before is intact\.$/);
    expect(inspect(data).integrity).toBe('ok');
    expect(await strayTempFiles(data)).toEqual([]);
    expect(inspect(data).runs.at(-1)).toMatchObject({ outcome: 'failed' });
  });
});

describe('an export never destroys', () => {
  const exportTo = (out: string, ...more: string[]): string[] => at('export', 'csv', '--out', out, ...more);

  it('--out a folder: refused in one line (exit 1), the folder untouched', async () => {
    const folder = join(scratch.dir, 'a-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'inside.txt'), 'keep');
    const r = await trackwatch(exportTo(folder));
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe(`${folder} is a folder; give a file name, e.g. ${join(folder, 'trackwatch.csv')}.`);
    expect(readdirSync(folder)).toEqual(['inside.txt']);
  });

  it('an existing file: kept unless --force, then replaced whole', async () => {
    const file = join(scratch.dir, 'precious.csv');
    writeFileSync(file, 'my own work');
    const r = await trackwatch(exportTo(file));
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe(`${file} already exists; nothing was written. Add --force to replace it, or choose another name.`);
    expect(readFileSync(file, 'utf8')).toBe('my own work');
    const forced = await trackwatch(exportTo(file, '--force'));
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').startsWith('map_uid,map_id,')).toBe(true);
    expect(readdirSync(scratch.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a symbolic link, even with --force: refused, the link and its target untouched', async () => {
    const target = join(scratch.dir, 'target.txt');
    const link = join(scratch.dir, 'link.csv');
    writeFileSync(target, 'target');
    symlinkSync(target, link);
    const r = await trackwatch(exportTo(link, '--force'));
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe(`${link} is a link; an export is never written through one. Give the path of a plain file.`);
    expect(readFileSync(target, 'utf8')).toBe('target');
  });

  it('a device, even with --force: refused', async () => {
    const r = await trackwatch(exportTo('/dev/null', '--force'));
    expect(r.code).toBe(1);
    expect(oneLine(r)).toBe('/dev/null is not a plain file (a device, a pipe or a socket); an export is written only to a plain file.');
  });

  it('a folder where no file can be created (/proc): one line naming the folder, exit 73', async () => {
    for (const [out, folder] of [['/proc/version', '/proc'], ['/proc/self/x.csv', '/proc/self']] as const) {
      const r = await trackwatch(exportTo(out, '--force'));
      expect(r.code, r.stderr).toBe(73);
      expect(oneLine(r)).toBe(`no file can be created in ${folder} (ENOENT); choose another folder with --out. Nothing was written.`);
    }
  });

  it('says how many rows it wrote, in words', async () => {
    const r = await trackwatch(exportTo(join(scratch.dir, 'out.csv')));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote \d+ rows to .*out\.csv\n$/);
    expect(r.stdout).not.toContain('row(s)');
  });

  it('no space for its temp file: one line (exit 74), no temp file, nothing under the name', async () => {
    const file = join(scratch.dir, 'out.csv');
    const r = await trackwatch(exportTo(file), { inject: { enospc: { path: '\\.trackwatch\\.\\d+-[0-9a-f]+\\.tmp$' } } });
    expect(r.code, r.stderr).toBe(74);
    expect(oneLine(r)).toBe(`no space left to write ${file} (ENOSPC); free some space and try again. Nothing was written there.`);
    expect(readdirSync(scratch.dir)).toEqual(['data']);
  });

  it('Ctrl-C: cancelled at once (exit 130), no temp file, nothing under the name', async () => {
    const file = join(scratch.dir, 'out.csv');
    // Ctrl-C arrives the moment the export opens its temp file.
    const r = await trackwatch(exportTo(file), { inject: { sigint: { path: '\\.trackwatch\\.\\d+-[0-9a-f]+\\.tmp$' } } });
    expect(r.code, r.stderr).toBe(130);
    expect(oneLine(r)).toBe('the export was cancelled; nothing was written.');
    expect(readdirSync(scratch.dir)).toEqual(['data']);
  });

  it("a killed export's temp file is removed at the next start", async () => {
    const temp = join(scratch.dir, '.out.csv.trackwatch.999999999-0123456789ab.tmp');
    writeFileSync(temp, 'half an export');
    mkdirSync(join(data, 'tmp', 'in-progress'), { recursive: true });
    // Written by a process that is gone (PIDs this high are not in use), which noted the folder it wrote in.
    writeFileSync(join(data, 'tmp', 'in-progress', '999999999-aa.json'), JSON.stringify({ pid: 999_999_999, folders: [{ path: scratch.dir, deep: false }] }));
    const r = await trackwatch(at('lists'));
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(temp)).toBe(false);
    expect(readdirSync(join(data, 'tmp', 'in-progress'))).toEqual([]);
  });

  it("terminal control characters in a name from the service are neutralised in the CSV", async () => {
    const map = emulator.dataset.maps[0]!;
    const name = map.name;
    map.name = 'Evil\u001b[2J\u0007Name';
    try {
      const synced = await trackwatch(at('sync', '--no-replays', '--refresh-maps'));
      expect(synced.code, synced.stderr).toBe(0);
    } finally {
      map.name = name;
    }
    const file = join(scratch.dir, 'out.csv');
    expect((await trackwatch(exportTo(file))).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('Evil\uFFFD[2J\uFFFDName');
    expect(text.includes('\u001b') || text.includes('\u0007')).toBe(false);
  });
});

describe('output and input', () => {
  it('a closed output pipe (`compare | head -1`): a quiet exit, no error', async () => {
    const r = await trackwatch(at('compare', '--list', 'Default'), {
      onSpawn: (child) => child.stdout!.once('data', () => child.stdout!.destroy()),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('stdout on a full disk (/dev/full): one line, exit 74', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = await trackwatch(at('compare', '--list', 'Default'), { stdoutFd: full });
      expect(r.code, r.stderr).toBe(74);
      expect(oneLine(r)).toBe('the output could not be written (ENOSPC); what the command stored is kept.');
    } finally {
      closeSync(full);
    }
  });

  it('an impossible date is refused, not shifted', async () => {
    for (const [flag, value, why] of [['--since', '2024-02-30', 'February 2024 has 29 days'], ['--until', '2023-13-01', 'there is no month 13']]) {
      const r = await trackwatch(at('history', flag!, value!));
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe(`${flag} "${value}" is not a date: ${why}; use e.g. 2026-05-01 or 2026-05-01T18:00:00Z.`);
    }
  });

  it('a rate outside a sane range is refused before anything is asked', async () => {
    for (const rps of ['1e-12', '0', '-1', '20000', 'fast']) {
      const r = await trackwatch(['--data-dir', data, '--api-url', emulator.url, '--max-rps', rps, 'sync']);
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe(`--max-rps must be a number of requests per second from 0.01 to 10000, got "${rps}".`);
    }
    const real = await trackwatch(['--data-dir', data, '--max-rps', '3', 'lists']);
    expect(oneLine(real)).toMatch(/from 0\.01 to 2 against the real services \(2 is the ceiling Nadeo staff gave/);
  });

  it('a paste with one malformed link: that link refused alone, echoed inert', async () => {
    const [a, b] = dataset.maps;
    const r = await trackwatch(at('maps', 'add', '--list', 'Paste', '--create', a!.mapUid, 'https://trackmania.io/#/leaderboard/%E0%A4%A\u001b[31m', b!.mapUid));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('added 2 maps to "Paste"');
    expect(r.stdout).toContain('malformed "%" escape');
    expect(r.stdout).not.toContain('\u001b');
  });

  it('another sync running on the folder: one line naming it, exit 75, nothing changed', async () => {
    const before = inspect(data);
    // A live process holds the folder's sync lock: this test's own.
    writeFileSync(join(data, 'sync.lock'), String(process.pid));
    const r = await trackwatch(at('sync'));
    expect(r.code).toBe(75);
    // Said before the cost line, which only a sync that holds the lock prints.
    expect(r.stdout).toBe('');
    expect(oneLine(r)).toBe(`another sync is running on this data folder (process ${process.pid}); wait for it to finish, or stop it.`);
    const after = inspect(data);
    expect(after.rows).toEqual(before.rows);
    expect(after.integrity).toBe('ok');
  });
});

describe('a long-running process meets a bug', () => {
  it('an unhandled rejection and an uncaught exception are reported, and the process keeps running', async () => {
    const errorsModule = join(import.meta.dirname, '../../../src-main/service/errors.ts');
    const child = spawn(process.execPath, ['--input-type=module', '-e', `
      const { keepRunningOnUnexpectedErrors } = await import(${JSON.stringify(errorsModule)});
      keepRunningOnUnexpectedErrors((line) => process.stderr.write(line + '\\n'));
      Promise.reject(new Error('an export could not create its temp file'));
      setTimeout(() => { throw new Error('a bug in a timer'); }, 0);
      setTimeout(() => process.stdout.write('still serving\\n'), 50);
    `], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).toBe(0);
    expect(stdout).toBe('still serving\n');
    expect(stderr.trim().split('\n')).toEqual([
      'unexpected error (Trackwatch keeps running): an export could not create its temp file',
      'unexpected error (Trackwatch keeps running): a bug in a timer',
    ]);
  });
});
