// The `sync` command's edges and the global options every command shares: a cancel is a cancel (exit 130) whatever
// was running, bad flags are refused in their own words before anything is sent, an empty folder has nothing to
// sync, and a partial sync names what failed.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_REPLAY_ATTEMPTS } from '../../../src-main/core/store/index.ts';
import { stripFormatting } from '../../../src-main/shared/format.ts';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { oneLine, trackwatch, type Result } from '../../faults/local/helpers.ts';
import { useEmulatorAndDataDir } from '../../helpers/cli.ts';
import { isHiddenByThreshold } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

/**
 * A service that answers nothing: each request is held, and the command that sent it gets Ctrl-C (SIGINT) then,
 * while that request is under way: the event the test controls.
 */
async function interruptedAtFirstRequest(args: (url: string) => string[]): Promise<Result & { held: string[] }> {
  const held: string[] = [];
  let child: { kill: (signal: NodeJS.Signals) => boolean } | undefined;
  const server: Server = createServer((request) => {
    held.push(`${request.method} ${request.url}`);
    if (held.length === 1) child?.kill('SIGINT');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const result = await trackwatch(args(url), { onSpawn: (spawned) => (child = spawned) });
    return { ...result, held };
  } finally {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
  }
}

describe('sync and the global options', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 3, maps: 6, players: 4 });
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
  const setup = useEmulatorAndDataDir(dataset, ['--max-rps', '200']);
  const { at } = setup;

  describe('Ctrl-C is a cancel, whatever the command', () => {
    it('lists create --from: exit 130, one line', async () => {
      const r = await interruptedAtFirstRequest((url) => ['--data-dir', setup.dir(), '--api-url', url, '--max-rps', '200', 'lists', 'create', '--from', 'totd:2026-11']);
      expect(r.held).toHaveLength(1);
      expect(r.code, r.stderr).toBe(130);
      expect(oneLine(r)).toBe('`trackwatch lists create` was cancelled.');
    });

    it('maps add: exit 130, one line', async () => {
      const r = await interruptedAtFirstRequest((url) => ['--data-dir', setup.dir(), '--api-url', url, 'maps', 'add', dataset.maps[0]!.mapUid]);
      expect(r.code, r.stderr).toBe(130);
      expect(oneLine(r)).toBe('`trackwatch maps add` was cancelled.');
    });

    it('sync: exit 130, its own line (what is kept)', async () => {
      expect((await trackwatch(at('maps', 'add', '--offline', dataset.maps[0]!.mapUid))).code).toBe(0);
      const r = await interruptedAtFirstRequest((url) => ['--data-dir', setup.dir(), '--api-url', url, 'sync']);
      expect(r.code, r.stderr).toBe(130);
      expect(oneLine(r)).toBe('the sync was cancelled; what it fetched is kept, and the next sync goes on from there.');
    });
  });

  describe('--season is checked before anything is planned or sent', () => {
    beforeEach(async () => {
      expect((await trackwatch(at('maps', 'add', '--offline', ...dataset.maps.map((m) => m.mapUid)))).code).toBe(0);
      expect((await trackwatch(at('players', 'add', ...accounts))).code).toBe(0);
      setup.emulator().resetStats();
    });

    it('not a season ID: says what one looks like', async () => {
      for (const season of ['', 'abc']) {
        const r = await trackwatch(at('sync', '--season', season));
        expect(r.code).toBe(1);
        expect(oneLine(r)).toBe(`--season "${season}" is not a season ID: one is a UUID like 3987d489-03ae-4645-9903-8f7679c3a418; personal bests need no --season.`);
        expect(r.stdout).toBe('');
      }
      expect(setup.emulator().stats().requests).toBe(0);
    });

    it('personal bests, however spelled: every sync reads them', async () => {
      for (const season of ['Personal_Best', 'PersonalBest']) {
        const r = await trackwatch(at('sync', '--season', season));
        expect(r.code).toBe(1);
        expect(oneLine(r)).toBe(`--season "${season}": personal bests need no --season, every sync reads them; --season adds a season's leaderboard, by its ID.`);
        expect(r.stdout).toBe('');
      }
      expect(setup.emulator().stats().requests).toBe(0);
    });
  });

  describe('--api-url and TRACKWATCH_API_URL are checked up front, naming where the value came from', () => {
    const example = 'use e.g. https://prod.trackmania.core.nadeo.online or the emulator\'s http://127.0.0.1:PORT.';
    it.each([
      ['ftp://x', '--api-url must be an http(s) URL, got ftp:; ' + example],
      ['http://127.0.0.1:1/?q=1', '--api-url must not have a query or fragment; ' + example],
      ['http://user:pw@127.0.0.1:1', '--api-url must not carry a user name or password; the login comes from TRACKWATCH_LOGIN and TRACKWATCH_PASSWORD.'],
      ['', '--api-url is empty; give a value, or leave the flag out for the default.'],
    ])('--api-url %j', async (url, message) => {
      expect((await trackwatch(['--data-dir', setup.dir(), 'maps', 'add', '--offline', dataset.maps[0]!.mapUid])).code).toBe(0);
      const r = await trackwatch(['--data-dir', setup.dir(), '--api-url', url, 'sync']);
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe(message);
      expect(r.stdout).toBe('');
    });

    it('the variable is named when the value came from it', async () => {
      const r = await trackwatch(['--data-dir', setup.dir(), 'lists'], { env: { TRACKWATCH_API_URL: 'ftp://x' } });
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe('TRACKWATCH_API_URL must be an http(s) URL, got ftp:; ' + example);
    });
  });

  describe('--max-rps and TRACKWATCH_MAX_RPS', () => {
    it('a bad value from the variable blames the variable', async () => {
      const r = await trackwatch(['--data-dir', setup.dir(), 'lists'], { env: { TRACKWATCH_MAX_RPS: '0' } });
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe('TRACKWATCH_MAX_RPS must be a number of requests per second from 0.01 to 2 against the real services (2 is the ceiling Nadeo staff gave; faster can get your account or IP banned), got "0".');
    });

    it('an empty flag is refused', async () => {
      const r = await trackwatch(['--data-dir', setup.dir(), '--max-rps', '', 'lists']);
      expect(r.code).toBe(1);
      expect(oneLine(r)).toBe('--max-rps is empty; give a value, or leave the flag out for the default.');
    });

    it('any notation of a number in range is taken', async () => {
      for (const rps of ['1e4', '.5', '2.50']) {
        const r = await trackwatch(['--data-dir', setup.dir(), '--api-url', setup.emulator().url, '--max-rps', rps, 'lists']);
        expect(r.code, r.stderr).toBe(0);
      }
    });

    it('above 2 requests/s against the real service is refused by every command, in one line, before anything starts', async () => {
      // A command that only reads and one that talks to the service (an empty folder: it has nothing to send) alike.
      for (const command of ['lists', 'sync']) {
        const r = await trackwatch(['--data-dir', setup.dir(), '--max-rps', '5', command]);
        expect(r.code, r.stderr).toBe(1);
        expect(oneLine(r)).toBe('--max-rps must be a number of requests per second from 0.01 to 2 against the real services (2 is the ceiling Nadeo staff gave; faster can get your account or IP banned), got "5".');
      }
      const ceiling = await trackwatch(['--data-dir', setup.dir(), '--max-rps', '2', 'lists']);
      expect(ceiling.code, ceiling.stderr).toBe(0);
      expect(ceiling.stderr).toBe('');
    });
  });

  describe('nothing to sync', () => {
    it('no list: one line saying how to add maps and players, exit 0, nothing sent', async () => {
      const r = await trackwatch(at('sync'));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(
        'nothing to sync: there is no watchlist yet; add maps with `trackwatch maps add <map>` (or `trackwatch lists create --from SOURCE`), ' +
          'and players with `trackwatch players add <player>`.\n',
      );
      expect(setup.emulator().stats().requests).toBe(0);
    });

    it('an empty list: the same, for that list', async () => {
      expect((await trackwatch(at('lists', 'create', 'Rivals'))).code).toBe(0);
      expect((await trackwatch(at('players', 'add', '--list', 'Rivals', accounts[0]!))).code).toBe(0);
      const r = await trackwatch(at('sync', '--list', 'Rivals'));
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(
        'nothing to sync: "Rivals" has no maps yet; add some with `trackwatch maps add <map> --list "Rivals"`, and players with `trackwatch players add <player> --list "Rivals"`.\n',
      );
      const json = await trackwatch(at('sync', '--list', 'Rivals', '--json'));
      expect(JSON.parse(json.stdout)).toMatchObject({ outcome: 'nothing' });
      expect(setup.emulator().stats().requests).toBe(0);
    });
  });

  it('a partial sync names the maps that failed by name and UID; failed replays are named, with when they are tried again', async () => {
    expect((await trackwatch(at('maps', 'add', ...dataset.maps.map((m) => m.mapUid)))).code).toBe(0);
    expect((await trackwatch(at('players', 'add', ...accounts))).code).toBe(0);
    // One replay's file is gone from the service's storage.
    const lost = dataset.records.find((r) => r.scopeType === 'PersonalBest' && !isHiddenByThreshold(dataset.maps.find((m) => m.mapId === r.mapId)!, r))!;
    const lostMap = dataset.maps.find((m) => m.mapId === lost.mapId)!;
    const url = lost.url;
    lost.url = '/storageObjects/gone';
    try {
      const r = await trackwatch(at('sync', '--no-positions'));
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[1]).toMatch(/^sync ok: 6 maps x \d+ players .*\(0 hidden, 1 failed\)$/);
      expect(lines[2]).toContain(` on "${stripFormatting(lostMap.name)}" (${lostMap.mapUid}) failed: GET (download) answered HTTP 404`);
      expect(lines[3]).toBe(`  the next sync tries it again (${MAX_REPLAY_ATTEMPTS} tries in all; after that, \`trackwatch sync --retry-replays\`).`);
    } finally {
      lost.url = url;
    }
    // The service no longer knows one map (deleted by its author).
    const gone = dataset.maps.pop()!;
    try {
      const r = await trackwatch(at('sync', '--no-positions', '--refresh-maps'));
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[1]).toMatch(/^sync partial: /);
      expect(lines[2]).toContain(`  map "${stripFormatting(gone.name)}" (${gone.mapUid}): `);
    } finally {
      dataset.maps.push(gone);
    }
  });

  it('a second sync while one runs: "another sync is running" comes before any cost line', async () => {
    expect((await trackwatch(at('maps', 'add', '--offline', dataset.maps[0]!.mapUid))).code).toBe(0);
    // A live process holds the folder's sync lock: this test's own.
    writeFileSync(join(setup.dir(), 'sync.lock'), String(process.pid));
    const r = await trackwatch(at('sync'));
    expect(r.code).toBe(75);
    expect(r.stdout).toBe('');
    expect(oneLine(r)).toMatch(/^another sync is running on this data folder/);
  });
});
