// The trackwatch command as a user runs it: a temp data folder, the emulator as the service; in this process, but for
// the smoke tests that run it as a process of its own (test/helpers/cli.ts).
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME } from '../../../src-main/core/paths.ts';
import { MAX_REPLAY_ATTEMPTS, openStore } from '../../../src-main/core/store/index.ts';
import { splitsForMap } from '../../../src-main/service/splits-view.ts';
import { stripFormatting } from '../../../src-main/shared/format.ts';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { BIN, cli, cliProcess } from '../../helpers/cli.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const run = promisify(execFile);

describe('trackwatch against the emulator', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 3, maps: 8, players: 6 });
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let base: string[];

  beforeAll(async () => {
    emulator = await startEmulator({ dataset, auth: { login: 'svc-login', password: 'right-password' } });
    data = await tempDataDir();
    base = ['--data-dir', data.dir, '--api-url', emulator.url, '--max-rps', '200'];
  });
  afterAll(async () => {
    await emulator.close();
    await data.remove();
  });

  const creds = { TRACKWATCH_LOGIN: 'svc-login', TRACKWATCH_PASSWORD: 'right-password' };

  it('adds maps by UID, ID and link, reporting unknown and invalid refs by name', async () => {
    const [a, b, c] = dataset.maps;
    // As a user runs it (a process of its own), as are the sync, the comparison and the export below: the smoke tests
    // of the main command families (test/helpers/cli.ts).
    const r = await cliProcess([...base, 'maps', 'add', a!.mapUid, b!.mapId, `https://trackmania.io/#/leaderboard/${c!.mapUid}`, 'UnknownUid0000000000000', 'not-a-map!'], creds);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('added 3 maps to "Default"');
    expect(r.stdout).toContain('not found on the service: UnknownUid0000000000000');
    expect(r.stdout).toContain('not a map: "not-a-map!"');
  });

  it('adds players, syncs with a machine-readable summary, and reads back with no network', async () => {
    const accounts = [...new Set(dataset.records.map((x) => x.accountId))];
    const add = await cli([...base, 'players', 'add', accounts[0]!, '--name', 'Me', '--me'], creds);
    expect(add.code, add.stderr).toBe(0);
    await cli([...base, 'players', 'add', ...accounts.slice(1)], creds);

    const sync = await cliProcess([...base, 'sync', '--json'], creds);
    expect(sync.code, sync.stderr).toBe(0);
    const summary = JSON.parse(sync.stdout) as { outcome: string; maps: number; players: number; requests: number };
    expect(summary).toMatchObject({ outcome: 'ok', maps: 3, players: accounts.length });

    // Reads never touch the network: point them at a closed port.
    const offline = ['--data-dir', data.dir, '--api-url', 'http://127.0.0.1:9'];
    const compare = await cli([...offline, 'compare', '--json']);
    expect(compare.code, compare.stderr).toBe(0);
    const maps = JSON.parse(compare.stdout) as { entries: { isMe: boolean }[] }[];
    expect(maps).toHaveLength(3);
    expect(maps.every((m) => m.entries.some((e) => e.isMe))).toBe(true);
    const table = await cliProcess([...offline, 'compare']);
    expect(table.stdout).toContain('(you)');
  });

  it('exports CSV with the documented columns', async () => {
    const out = join(data.dir, 'out.csv');
    const r = await cliProcess(['--data-dir', data.dir, 'export', 'csv', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const header = (await readFile(out, 'utf8')).split('\r\n')[0]!.split(',');
    for (const column of ['map_uid', 'map_id', 'map_name', 'account_id', 'player_name', 'game_mode', 'scope', 'time_ms', 'score', 'respawns', 'medal', 'hidden', 'record_timestamp', 'record_id', 'replay_file']) {
      expect(header).toContain(column);
    }
  });

  it('tells which replays syncs gave up on, and downloads them again with --retry-replays', async () => {
    // A replay whose three downloads failed in earlier syncs (an outage, say): its row says so and no file is left.
    const db = new Database(join(data.dir, DATABASE_FILE_NAME));
    const replay = db.prepare<[], { record_id: string; path: string; sha256: string }>(
      "SELECT record_id, path, sha256 FROM replays WHERE state = 'downloaded' ORDER BY record_id LIMIT 1",
    ).get()!;
    db.prepare(`UPDATE replays SET state = 'failed', path = NULL, size = NULL, sha256 = NULL, attempts = ?,
      error = 'HTTP 503' WHERE record_id = ?`).run(MAX_REPLAY_ATTEMPTS, replay.record_id);
    db.close();
    await rm(join(data.dir, replay.path));

    const plain = await cli([...base, 'sync'], creds);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`1 replay failed ${MAX_REPLAY_ATTEMPTS} times and is no longer asked for; \`trackwatch sync --retry-replays\``);
    await expect(access(join(data.dir, replay.path))).rejects.toThrow();

    const refused = await cli([...base, 'sync', '--retry-replays', '--no-replays'], creds);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);

    const retry = await cli([...base, 'sync', '--retry-replays', '--json'], creds);
    expect(retry.code, retry.stderr).toBe(0);
    expect(JSON.parse(retry.stdout)).toMatchObject({ outcome: 'ok', replaysRetried: 1, replaysDownloaded: 1 });
    const bytes = await readFile(join(data.dir, replay.path));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(replay.sha256);
    const again = await cli([...base, 'sync'], creds);
    expect(again.stdout).not.toContain('no longer asked for');
  });

  it('bad credentials: one clear line, a non-zero exit, nothing stored lost', async () => {
    const before = await cli([...base, 'maps', 'list', '--json']);
    const r = await cli([...base, 'sync'], { TRACKWATCH_LOGIN: 'svc-login', TRACKWATCH_PASSWORD: 'not-the-password-7x' });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/login|password|credentials/i);
    expect(r.stdout + r.stderr).not.toContain('not-the-password-7x');
    const after = await cli([...base, 'maps', 'list', '--json']);
    expect(JSON.parse(after.stdout).maps).toEqual(JSON.parse(before.stdout).maps);
  });

  it('what is not an account ID is read as a display name: without the OAuth app, refused by name in one line', async () => {
    const r = await cli([...base, 'players', 'add', 'not-an-account'], creds);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"not-an-account" is not an account ID');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('trackwatch demo', () => {
  it('syncs the demo twice, shows the comparison and the improvements, and says where the CSV and replays went', async () => {
    const data = await tempDataDir();
    try {
      const r = await cli(['--data-dir', data.dir, 'demo', '--maps', '8', '--players', '5']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.match(/^sync ok: 8 maps x 5 players/gm)).toHaveLength(2);
      expect(r.stdout).toContain('(you)');
      // Each map's leader reads "best" where the others read their delta to it.
      expect(r.stdout).toMatch(/^ +1 +.+ best +/m);
      expect(r.stdout).not.toContain('+0:00.000');
      // Its way into the app opens the same data folder, so "Try the demo" there replaces this demo, not another.
      expect(r.stdout).toContain(`node ${BIN} --data-dir ${data.dir} serve`);
      // The "what next" commands run as printed, from any folder (not only the project's, as `npm run` would).
      const browse = /^Browse it again offline: node (\S+) (.+)$/m.exec(r.stdout);
      expect(browse, r.stdout).not.toBeNull();
      expect(browse![1]).toBe(BIN);
      const browsed = await run(process.execPath, [browse![1]!, ...browse![2]!.split(' ')], { cwd: tmpdir(), env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' } });
      expect(browsed.stdout).toContain('Medals on 8 maps of "Demo"');
      expect(browsed.stdout).not.toContain('more map');
      const csv = /CSV export: +(\S+) \((\d+) rows\)/.exec(r.stdout);
      expect(csv, r.stdout).not.toBeNull();
      expect(Number(csv![2])).toBeGreaterThan(0);
      expect((await readFile(csv![1]!, 'utf8')).startsWith('map_uid,')).toBe(true);
      // Names with markup print as the text they are; nothing in the output is a terminal escape.
      expect(r.stdout.includes('\u001b')).toBe(false);
      // The improvements it shows are the `history` command's rows, each result in its map kind's unit.
      const improvements = r.stdout.split('5. Latest PB improvements seen\n')[1]!.split('\n\n')[0]!.split('\n').slice(1);
      expect(improvements.length).toBeGreaterThan(0);
      const history = await cli(['--data-dir', join(data.dir, 'demo'), 'history', '--list', 'Demo', '--limit', '500']);
      expect(history.code, history.stderr).toBe(0);
      const historyRows = history.stdout.split('\n').map((l) => l.replace(/ +/g, ' ').trim());
      for (const row of improvements) expect(historyRows, row).toContain(row.replace(/ +/g, ' ').trim());
      expect(history.stdout).not.toContain('older ones not shown');
      // A limit that leaves rows out says so, and how to see them.
      const two = await cli(['--data-dir', join(data.dir, 'demo'), 'history', '--list', 'Demo', '--limit', '2']);
      const lines = two.stdout.trim().split('\n');
      expect(lines).toHaveLength(4);
      expect(lines[3]).toBe('older ones not shown: raise --limit (2 now), or narrow with --since, --until, --map, --player or --list.');
      // The splits: where I lose most, on a map the splits view agrees on, and a rival's improvement as a sector.
      const lose = /^you lose most at CP (\d+) on (.+) \(\+/m.exec(r.stdout);
      expect(lose, r.stdout).not.toBeNull();
      expect(r.stdout).toMatch(/^.+ improved on .+: -\d:\d\d\.\d{3} found in the sector to CP \d+$/m);
      const demoStore = openStore({ file: join(data.dir, 'demo', DATABASE_FILE_NAME) });
      try {
        const map = demoStore.maps.list('Demo').find((m) => stripFormatting(m.name) === lose![2]);
        expect(map, lose![2]).toBeDefined();
        const view = splitsForMap(demoStore, { map: map!.mapId, list: 'Demo' }, demoStore.settings.me());
        expect(view.loseMostAt?.checkpoint).toBe(Number(lose![1]));
      } finally {
        demoStore.close();
      }
      // A second demo starts afresh in the folder the first one made.
      const again = await cli(['--data-dir', data.dir, 'demo', '--maps', '6', '--players', '3']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/^sync ok: 6 maps x 3 players/m);
    } finally {
      await data.remove();
    }
  }, 120_000);
});

describe('trackwatch errors before any request', () => {
  it('on a Node older than 24: one line saying which Node it needs, exit 1, before loading anything', async () => {
    // bin/trackwatch.js reads the version first; a preload makes this Node say it is 22.
    const older = 'data:text/javascript,Object.defineProperty(process.versions, "node", { value: "22.1.0" });';
    const r = await run(process.execPath, ['--import', older, BIN, 'lists'], { env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('trackwatch: needs Node 24 or newer, this is Node 22.1.0. Install Node 24 (see README.md, "Prerequisites").\n');
  });

  it('refuses the real service without a contact, and says how to give one', async () => {
    const data = await tempDataDir();
    try {
      const r = await cli(['--data-dir', data.dir, 'maps', 'add', 'PrometheusByXertroVFtArcher']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/contact/i);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await data.remove();
    }
  });

  it('refuses above 2 requests per second on the real service', async () => {
    const data = await tempDataDir();
    try {
      // A command that talks to the service (an empty folder: it has nothing to send).
      const r = await cli(['--data-dir', data.dir, '--max-rps', '5', 'sync']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/--max-rps must be .* from 0\.01 to 2 against the real services/);
    } finally {
      await data.remove();
    }
  });

  it('no network: one clear line and a non-zero exit', async () => {
    const data = await tempDataDir();
    try {
      const r = await cli(['--data-dir', data.dir, '--api-url', 'http://127.0.0.1:9', 'maps', 'add', 'PrometheusByXertroVFtArcher']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^trackwatch: .*(reach|connect)/i);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await data.remove();
    }
  }, 60_000);

  it('a history date it cannot use: names the flag and what was typed', async () => {
    const data = await tempDataDir();
    try {
      for (const [flag, value] of [['--since', 'yesterday'], ['--until', '99999-01-01']]) {
        const r = await cli(['--data-dir', data.dir, 'history', flag!, value!]);
        expect(r.code).toBe(1);
        expect(r.stderr.trim()).toBe(`trackwatch: ${flag} "${value}" is not a date; use e.g. 2026-05-01 or 2026-05-01T18:00:00Z.`);
      }
    } finally {
      await data.remove();
    }
  });

  it('a demo while another process has the demo open: one line naming it, and nothing emptied', async () => {
    const data = await tempDataDir();
    try {
      // The app in its demo, as the lock next to the demo folder says (a live process: this test's).
      await mkdir(join(data.dir, 'demo'), { recursive: true });
      await writeFile(join(data.dir, 'demo', '.trackwatch-demo'), 'made by a demo\n');
      await writeFile(join(data.dir, 'demo', 'keep.txt'), 'still here');
      await writeFile(join(data.dir, 'demo.lock'), String(process.pid));
      const r = await cli(['--data-dir', data.dir, 'demo']);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toMatch(new RegExp(`^trackwatch: the demo's folder .* is in use by another Trackwatch \\(process ${process.pid}\\)`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(await readFile(join(data.dir, 'demo', 'keep.txt'), 'utf8')).toBe('still here');
    } finally {
      await data.remove();
    }
  });

  it('unknown list: says which lists exist', async () => {
    const data = await tempDataDir();
    try {
      await cli(['--data-dir', data.dir, 'lists', 'create', 'Rivals']);
      const r = await cli(['--data-dir', data.dir, 'compare', '--list', 'Nope']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/Nope/);
    } finally {
      await data.remove();
    }
  });
});
