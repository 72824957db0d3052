// Lap boundaries in `trackwatch splits`: replays of a 2-lap race hold their map, which says its laps; the view gives
// where each lap ends and each run's lap times, the table says "lap 2" at the second lap's first checkpoint, and the
// splits CSV gives each checkpoint's lap.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../../helpers/cli.ts';
import { archivedRunsFolder, ghostBytes, replayBytes } from '../../helpers/ghosts.ts';
import { accountId, mapUid } from '../../unit/store/fixtures.ts';

const LIST = 'Laps';
// Two laps of two checkpoints: me (1) and a rival (2) from replays holding the map; a third (3) from a ghost file.
const RUNS: Record<number, number[]> = {
  1: [10_000, 21_000, 30_000, 40_500],
  2: [9_500, 20_000, 29_000, 38_000],
  3: [9_900, 20_500, 30_100, 40_000],
};

let dataDir: string;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tw-splits-laps-'));
  archivedRunsFolder(dataDir, LIST, RUNS, (record, p, cps) => (p === 3 ? ghostBytes(record.accountId, cps) : replayBytes(record.accountId, cps, 2)));
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('trackwatch splits on a lap race', () => {
  it("gives where each lap ends and every comparable run's lap times, in the JSON and the table", async () => {
    const json = await cli(['--data-dir', dataDir, 'splits', '--map', mapUid(1), '--list', LIST, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const view = JSON.parse(json.stdout) as { laps: unknown; players: { accountId: string; lapTimes?: number[] }[] };
    expect(view.laps).toEqual({ count: 2, ends: [2, 4] });
    // The ghost file says no laps, but the map's laps are the map's: its run gets lap times too.
    expect(Object.fromEntries(view.players.map((p) => [p.accountId, p.lapTimes]))).toEqual({
      [accountId(1)]: [21_000, 19_500],
      [accountId(2)]: [20_000, 18_000],
      [accountId(3)]: [20_500, 19_500],
    });

    const text = await cli(['--data-dir', dataDir, 'splits', '--map', mapUid(1), '--list', LIST]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/4 checkpoints, 2 laps \(ends at CP 2, 4\)/);
    expect(text.stdout).toMatch(/lap 2 · CP 3/);
    expect(text.stdout).not.toMatch(/lap 3/);
    expect(text.stdout).toMatch(/laps: 1 0:20\.000 · 2 0:18\.000/);
  });

  it("gives every checkpoint row of the splits CSV its lap, a ghost file's rows too (the map's laps)", async () => {
    const out = join(dataDir, 'splits.csv');
    const exported = await cli(['--data-dir', dataDir, 'export', 'csv', '--splits', '--list', LIST, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const [header, ...lines] = readFileSync(out, 'utf8').trim().split(/\r?\n/);
    const columns = header!.replace(/^\uFEFF/, '').split(',');
    const at = (name: string): number => columns.indexOf(name);
    const laps = new Map<string, string[]>();
    for (const line of lines) {
      const cells = line.split(',');
      laps.set(cells[at('account_id')]!, [...(laps.get(cells[at('account_id')]!) ?? []), `${cells[at('checkpoint')]}:${cells[at('lap')]}`]);
    }
    for (const p of [1, 2, 3]) expect(laps.get(accountId(p)), `player ${p}`).toEqual(['1:1', '2:1', '3:2', '4:2']);
  });
});
