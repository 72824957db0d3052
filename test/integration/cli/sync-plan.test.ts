// `trackwatch sync` says what it will cost before it asks anything of the service, and a large first sync starts only
// when the player said so: a question on a terminal, --yes otherwise (issue 9 §1); `replays policy` sets what a
// list's syncs download.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { BIN, cli, useEmulatorAndDataDir } from '../../helpers/cli.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

describe('the cost of a sync, and a large first sync', () => {
  // 20 maps x 15 players at 1 request/s: 20 record requests and up to 300 replays, over five minutes.
  // The replays' and positions' share of the cost: world records (a request per map) are left out, counted in plan.test.ts.
  const dataset = generateDataset({ now: DATA_NOW, seed: 41, maps: 20, players: 15 });
  const setup = useEmulatorAndDataDir(dataset);
  const { at } = setup;
  beforeEach(async () => {
    const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
    expect((await cli(at('maps', 'add', '--offline', ...dataset.maps.map((m) => m.mapUid)))).code).toBe(0);
    expect((await cli(at('players', 'add', ...accounts))).code).toBe(0);
    setup.emulator().resetStats();
  });

  it('without a terminal and without --yes: refused in one line, nothing asked of the service', async () => {
    const r = await cli(at('--max-rps', '1', 'sync', '--no-world-records'));
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'trackwatch: this first sync of every list is large: about 20 record requests, 1 map lookup, 300 replay downloads and 15 position requests, about 6 min at 1 request/s. ' +
        "Nothing was asked of Nadeo's service; run it again with --yes to start it, or make it smaller (`trackwatch replays policy --list NAME best 3`, or `sync --no-replays`).",
    );
    expect(setup.emulator().stats().requests).toBe(0);
  });

  it('a smaller policy makes it small enough to start at once, and says its cost first', async () => {
    const set = await cli(at('replays', 'policy', 'best', '2'));
    expect(set.stdout.trim()).toBe('syncs of "Default" download your replays ("me") and the list\'s best 2 of each map');
    const r = await cli(at('--max-rps', '50', 'sync', '--no-world-records', '--list', 'Default'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('sync of "Default": about 20 record requests, 1 map lookup, 40 replay downloads and 15 position requests, under a minute at 50 requests/s');
  });

  it('--yes starts a large one', async () => {
    // 60 more players, none of whom has a record here: planned as 300 replays and 60 position requests (a map asked
    // about for 60 players), over five minutes at 1 request/s, though the sync itself only reads the records.
    const strangers = Array.from({ length: 60 }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
    expect((await cli(at('players', 'add', '--list', 'Strangers', '--create', ...strangers))).code).toBe(0);
    expect((await cli(at('maps', 'add', '--offline', '--list', 'Strangers', ...dataset.maps.slice(0, 5).map((m) => m.mapUid)))).code).toBe(0);
    const refused = await cli(at('--max-rps', '1', 'sync', '--no-world-records', '--list', 'Strangers'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('this first sync of "Strangers" is large: about 5 record requests, 1 map lookup, 300 replay downloads and 60 position requests, about 6 min at 1 request/s. Nothing');
    // 60 of 366 seconds: not enough to name --no-positions.
    expect(refused.stderr).not.toContain('--no-positions');
    const started = await cli(at('--max-rps', '1', 'sync', '--no-world-records', '--list', 'Strangers', '--yes'));
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(/^sync ok: 5 maps x 60 players/m);
  }, 60_000);

  /**
   * 400 players on the 20 maps: with replays off, 40 record requests, and a map asked about for 400 players takes 400
   * position requests, one score per map a request.
   */
  async function addCrowd(): Promise<void> {
    const crowd = Array.from({ length: 400 }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);
    expect((await cli(at('players', 'add', '--list', 'Crowd', '--create', ...crowd))).code).toBe(0);
    expect((await cli(at('maps', 'add', '--offline', '--list', 'Crowd', ...dataset.maps.map((m) => m.mapUid)))).code).toBe(0);
  }

  it('when the positions are a big part of the time, it says that --no-positions skips them', async () => {
    await addCrowd();
    const refused = await cli(at('--max-rps', '1', 'sync', '--no-world-records', '--list', 'Crowd', '--no-replays'));
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'trackwatch: this first sync of "Crowd" is large: about 40 record requests, 1 map lookup, 0 replay downloads and 400 position requests, about 7 min at 1 request/s. ' +
        // Replays are already left out: it does not suggest leaving them out.
        "Nothing was asked of Nadeo's service; run it again with --yes to start it. " +
        '`sync --no-positions` skips the 400 position requests, about 7 min of it.',
    );
    expect(setup.emulator().stats().requests).toBe(0);
    // Without them, the plan counts none and the sync asks none.
    const r = await cli(at('--max-rps', '50', 'sync', '--no-world-records', '--list', 'Crowd', '--no-replays', '--no-positions', '--json'));
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { plan: { positionRequests: number } }).plan.positionRequests).toBe(0);
    expect(setup.emulator().stats().byRoute['POST /api/token/leaderboard/group/map'] ?? 0).toBe(0);
  }, 60_000);

  it('at a pace that makes it short, it is not large; --json carries the plan', async () => {
    const r = await cli(at('--max-rps', '500', 'sync', '--no-world-records', '--json', '--list', 'Default'));
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as { plan: { large: boolean; replayDownloads: number }; replaysDownloaded: number };
    // At 500 requests/s the same sync takes a second: not large.
    expect(summary.plan).toMatchObject({ large: false, replayDownloads: 300 });
    expect(summary.replaysDownloaded).toBeGreaterThan(100);
  });

  it.runIf(spawnSync('script', ['--version']).status === 0)('on a terminal: asks, and "n" starts nothing', async () => {
    const command = [process.execPath, BIN, ...at('--max-rps', '1', 'sync', '--no-world-records')].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const answered = spawnSync('script', ['-qec', command, '/dev/null'], { input: 'n\n', encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' }, timeout: 30_000 });
    expect(answered.stdout).toContain('Start it? [y/N]');
    expect(answered.stdout).toContain("not started; nothing was asked of Nadeo's service.");
    expect(answered.status).toBe(1);
    expect(setup.emulator().stats().requests).toBe(0);
  });

  it.runIf(spawnSync('script', ['--version']).status === 0)('on a terminal, the question names --no-positions when the positions are a big part of the time', async () => {
    await addCrowd();
    const command = [process.execPath, BIN, ...at('--max-rps', '1', 'sync', '--no-world-records', '--list', 'Crowd', '--no-replays')].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const answered = spawnSync('script', ['-qec', command, '/dev/null'], { input: 'n\n', encoding: 'utf8', env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' }, timeout: 30_000 });
    expect(answered.stdout).toContain('400 position requests, about 7 min at 1 request/s.\r\n`sync --no-positions` skips the 400 position requests, about 7 min of it.\r\nStart it? [y/N]');
    expect(answered.status).toBe(1);
    expect(setup.emulator().stats().requests).toBe(0);
  }, 60_000);
});
