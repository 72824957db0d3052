// `trackwatch splits` and `export csv --splits` on a data folder whose replays were archived before splits existed:
// the command reads them first, prints the JSON shape, the same view the window's splits.forMap gives, a
// table with sectors, deltas and the ideal run, and a CSV row per record and checkpoint.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { cli } from '../../helpers/cli.ts';
import { archivedRunsFolder, ghostBytes } from '../../helpers/ghosts.ts';
import { serviceCaller, testHost } from '../../helpers/service.ts';
import { accountId, makeMap, mapUid } from '../../unit/store/fixtures.ts';

const LIST = 'Splits';
// Me (1), a faster rival (2) who gains most in sector 2, a slower one (3), and a ghost of an older map version (4).
const RUNS: Record<number, number[]> = {
  1: [10000, 22000, 30000],
  2: [9900, 20900, 29000],
  3: [10500, 22500, 31000],
  4: [9000, 28000],
};

let dataDir: string;
let service: TrackwatchService | undefined;
const { call } = serviceCaller(() => service!);

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tw-splits-'));
  archivedRunsFolder(dataDir, LIST, RUNS, (record, _p, cps) => ghostBytes(record.accountId, cps), 5);
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('trackwatch splits', () => {
  it('reads the archived replays first, then prints the JSON shape of the issue, as the window gets it', async () => {
    const r = await cli(['--data-dir', dataDir, 'splits', '--map', mapUid(1), '--list', LIST, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const view = JSON.parse(r.stdout) as Record<string, unknown> & { players: Record<string, unknown>[] };
    expect(Object.keys(view)).toEqual(expect.arrayContaining(['map', 'checkpoints', 'players', 'ideal', 'worldRecord']));
    expect(view.worldRecord).toBeNull();
    expect(view.checkpoints).toBe(3);
    for (const p of view.players) {
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['accountId', 'name', 'recordId', 'time', 'checkpoints', 'sectors', 'deltaToBest', 'deltaToMe']));
    }
    const rival = view.players.find((p) => p.accountId === accountId(2))!;
    expect(rival).toMatchObject({ checkpoints: [9900, 20900, 29000], sectors: [9900, 11000, 8100], deltaToBest: [0, 0, 0], deltaToMe: [-100, -1100, -1000] });
    // Sectors: me 10000/12000/8000, rival 9900/11000/8100, slow 10500/12000/8500: the best are 9900 + 11000 + 8000.
    expect(view.ideal).toEqual({ time: 28900, sectors: [9900, 11000, 8000], owners: [accountId(2), accountId(2), accountId(1)], gain: 1100 });
    expect(view.loseMostAt).toEqual({ checkpoint: 2, ms: 1000 });
    const old = view.players.find((p) => p.accountId === accountId(4))!;
    expect(old).toMatchObject({ comparable: false, note: expect.stringMatching(/2 checkpoints where the map has 3/) });
    expect(view.missing).toEqual([{ accountId: accountId(5), name: 'P5', reason: 'noRecord', detail: null }]);

    service = await TrackwatchService.open({ dataDir, host: testHost(), apiUrl: 'http://127.0.0.1:9' });
    expect(await call('splits.forMap', { map: mapUid(1), list: LIST })).toEqual(view);
  });

  it('prints sectors, deltas, the ideal run and where I lose most; --vs measures against a rival', async () => {
    const r = await cli(['--data-dir', dataDir, 'splits', '--map', mapUid(1), '--vs', 'P3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/to vs/);
    expect(r.stdout).toMatch(/ideal run \(best sectors\): 0:28\.900, -0:01\.100 for me/);
    // Against P3 I lose nowhere: no "lose most" line.
    expect(r.stdout).not.toMatch(/you lose most/);
    // The map by its name, as `history --map` takes it.
    const plain = await cli(['--data-dir', dataDir, 'splits', '--map', makeMap(1).name.toUpperCase()]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/you lose most at CP 2 \(\+0:01\.000\)/);
    expect(plain.stdout).toMatch(/P5: no record on this map/);
  });

  it('refuses a map or a rival it does not know in one line', async () => {
    const map = await cli(['--data-dir', dataDir, 'splits', '--map', mapUid(9)]);
    expect(map.code).not.toBe(0);
    expect(map.stderr.trim().split('\n')).toHaveLength(1);
    expect(map.stderr).toMatch(/not in your data yet/);
    const vs = await cli(['--data-dir', dataDir, 'splits', '--map', mapUid(1), '--vs', 'nobody']);
    expect(vs.code).not.toBe(0);
    expect(vs.stderr).toMatch(/"nobody" is not a watched player here/);
  });

  it('export csv --splits writes a row per record and checkpoint', async () => {
    const out = join(dataDir, 'splits.csv');
    const r = await cli(['--data-dir', dataDir, 'export', 'csv', '--splits', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(lines[0]).toBe('map_uid,map_name,account_id,player_name,record_id,current,record_time_ms,record_timestamp,checkpoint,lap,time_ms,sector_ms,stunt_score,respawns');
    expect(lines).toHaveLength(1 + 3 + 3 + 3 + 2);
    const rival = lines.filter((l) => l.includes(accountId(2))).map((l) => l.split(','));
    expect(rival.map((cells) => [cells[8], cells[10], cells[11]])).toEqual([['1', '9900', '9900'], ['2', '20900', '11000'], ['3', '29000', '8100']]);
  });

  it('splits.forList gives where I lose most per map and the list totals; splits.history each PB with its splits', async () => {
    service ??= await TrackwatchService.open({ dataDir, host: testHost(), apiUrl: 'http://127.0.0.1:9' });
    const list = await call('splits.forList', { list: LIST });
    expect(list.maps).toEqual([{ mapUid: mapUid(1), mapName: makeMap(1).name, loseMostAt: { checkpoint: 2, ms: 1000 }, possibleGain: 1100, myTime: 30000, idealTime: 28900, runs: 3 }]);
    expect(list.totals).toEqual({ maps: 1, myTime: 30000, idealTime: 28900, possibleGain: 1100 });
    const history = await call('splits.history', { player: accountId(2), map: mapUid(1) });
    expect(history.improvements).toHaveLength(1);
    expect(history.improvements[0]).toMatchObject({ time: 29000, checkpoints: [9900, 20900, 29000], sectorGains: null, missing: null });
  });
});
