// `trackwatch compare` and the window's views read one dataset the same way (issue 8, "Done when"): the service's
// answers to compare.get and maps.get, and the CLI's `compare --json`, give the same order, ranks, names and deltas.
// Then the terminal table: compact, limited, plural-aware, and a --me it cannot find is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { stripFormatting } from '../../../src-main/shared/format.ts';
import type { CompareJsonMap } from '../../../src-main/cli/commands/read.ts';
import { buildCompareModel } from '../../../src-renderer/lib/compare.ts';
import { LIST, MAPS, PLAYERS, writeLeaderboardData } from '../../helpers/leaderboard-data.ts';
import { cli } from '../../helpers/cli.ts';
import { serviceCaller, testHost } from '../../helpers/service.ts';

let dataDir: string;
let service: TrackwatchService;
const { call } = serviceCaller(() => service);
let json: CompareJsonMap[];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tw-compare-'));
  writeLeaderboardData(dataDir);
  service = await TrackwatchService.open({ dataDir, host: testHost(), apiUrl: 'http://127.0.0.1:9' });
  const r = await cli(['--data-dir', dataDir, 'compare', '--json']);
  expect(r.code, r.stderr).toBe(0);
  json = JSON.parse(r.stdout) as CompareJsonMap[];
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('one dataset, the window and the command line agree', () => {
  it('maps.get and compare --json: the same order, ranks, names and deltas on every map kind', async () => {
    expect(json.map((m) => m.mapUid)).toEqual(Object.values(MAPS).map((m) => m.mapUid));
    for (const m of json) {
      const detail = await call('maps.get', { list: LIST, mapUid: m.mapUid });
      expect(detail.map.kind).toBe(m.kind);
      expect(detail.secret).toBe(m.secret);
      const window = detail.entries.map((e) => ({
        accountId: e.player.accountId, name: stripFormatting(e.name), rank: e.rank, hidden: e.hidden, time: e.time, score: e.score,
        respawnCount: e.respawnCount, medal: e.medal, deltaToBest: e.deltaToBest, deltaToMe: e.deltaToMe, next: e.progress?.next ?? null,
      }));
      const terminal = m.entries.map((e) => ({
        accountId: e.accountId, name: e.name, rank: e.rank, hidden: e.hidden, time: e.time, score: e.score,
        respawnCount: e.respawnCount, medal: e.medal, deltaToBest: e.deltaToBest, deltaToMe: e.deltaToMe, next: e.nextMedal?.medal ?? null,
      }));
      expect(terminal, m.name).toEqual(window);
    }
  });

  it('compare.get: each cell holds what compare --json says of that player on that map; the window works out the same deltas', async () => {
    const table = await call('compare.get', { list: LIST });
    expect(table.players[table.me!]!.accountId).toBe(PLAYERS.me.accountId);
    const model = buildCompareModel(table);
    table.rows.forEach((row, i) => {
      const m = json[i]!;
      // The deltas the compare view shows, worked out from the cells, are the CLI's.
      table.players.forEach((player, column) => {
        const entry = m.entries.find((e) => e.accountId === player.accountId)!;
        expect([model[i]!.cells[column]?.deltaToBest ?? null, model[i]!.cells[column]?.deltaToMe ?? null], `${m.name} ${entry.name}`)
          .toEqual([entry.deltaToBest, entry.deltaToMe]);
      });
      expect(row.mapUid).toBe(m.mapUid);
      table.players.forEach((player, column) => {
        const entry = m.entries.find((e) => e.accountId === player.accountId)!;
        const cell = row.cells[column] ?? null;
        if (!entry.hasRecord) return expect(cell).toBeNull();
        // The grid's cells are sparse (schemas.ts CompareCell): a field left out is null, a flag left out false.
        expect({
          hidden: cell?.hidden ?? false, time: cell?.time ?? null, score: cell?.score ?? null, respawnCount: cell?.respawnCount ?? null,
          medal: cell?.medal, rank: cell?.rank ?? null, isBest: cell?.isBest ?? false,
        }).toEqual({
          hidden: entry.hidden, time: entry.time, score: entry.score, respawnCount: entry.respawnCount, medal: entry.medal,
          rank: entry.rank, isBest: entry.isBest,
        });
      });
    });
  });

  it('the rules show through: secret entries placed by their medals, Platform by respawns, a secret score never leaks', () => {
    const byName = (uid: string) => json.find((m) => m.mapUid === uid)!;
    const secret = byName(MAPS.secret.mapUid);
    expect(secret.secret).toBe(3);
    // Read as me (gold, 0:47.200, never hidden from myself): the two secret author entries are ahead, the secret gold
    // one may be ahead or behind (3–4), Late (silver, slower than me: at or above the threshold) is behind them all.
    expect(secret.entries.map((e) => [e.name, e.rank, e.rankRange, e.hidden])).toEqual([
      ['Red Baron', null, { min: 1, max: 2 }, true], ['Rival', null, { min: 1, max: 2 }, true], ['Me', null, { min: 3, max: 4 }, false],
      [PLAYERS.anon.accountId.slice(0, 8), null, { min: 3, max: 4 }, true], ['Late', 5, { min: 5, max: 5 }, false],
    ]);
    expect(secret.bestIsKnown).toBe(false);
    expect(secret.entries.map((e) => [e.isBest, e.isBestVisible, e.visibleRank])).toEqual([[false, false, null], [false, false, null], [false, true, 1], [false, false, null], [false, false, 2]]);
    expect(secret.entries[2]!.deltaToBest).toBeNull();
    expect(secret.entries[4]!.deltaToBestVisible).toEqual({ unit: 'time', value: 1800, time: null });

    const race = byName(MAPS.race.mapUid);
    expect(race.entries.map((e) => [e.name, e.rank])).toEqual([['Rival', 1], ['Red Baron', 1], ['Me', 3], [PLAYERS.anon.accountId.slice(0, 8), 4], ['Late', null]]);
    expect(race.entries[2]!.nextMedal).toEqual({ medal: 4, gap: { unit: 'time', value: 412, time: null }, text: '0:00.412 to author' });

    const platform = byName(MAPS.platform.mapUid);
    expect(platform.entries.map((e) => [e.name, e.rank, e.respawnCount])).toEqual([
      ['Rival', 1, 0], [PLAYERS.anon.accountId.slice(0, 8), 2, 1], ['Me', 3, 1], ['Red Baron', 4, 3], ['Late', null, null],
    ]);
    expect(platform.entries[2]!.nextMedal?.text).toBe('1 respawn to author');
    expect(platform.entries[1]!.deltaToMe).toEqual({ unit: 'respawns', value: 0, time: -1000 });

    const stunt = byName(MAPS.stunt.mapUid);
    // On Stunt the threshold (a time) says nothing of points: the secret author entry and Rival's 6,200 pts share 1–2.
    expect(stunt.entries[1]).toMatchObject({ name: 'Red Baron', hidden: true, score: null, time: null, respawnCount: null, rankRange: { min: 1, max: 2 } });
    expect(stunt.entries[0]).toMatchObject({ name: 'Rival', rank: null, rankRange: { min: 1, max: 2 }, isBest: false, isBestVisible: true });
    expect(stunt.entries.find((e) => e.name === 'Me')!.nextMedal?.text).toBe('215 pts to gold');
    expect(JSON.stringify(json)).not.toContain('4294967295');
  });
});

describe('trackwatch compare on a terminal', () => {
  it('a compact table: no line under every row, each map in its kind\'s unit, medals per player at the end', async () => {
    const r = await cli(['--data-dir', dataDir, 'compare']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/[─┼├┤│]/);
    expect(r.stdout).toContain('3 secret entries: "to best" is to the best visible');
    expect(r.stdout).toMatch(/^ +3–4 +Me \(you\) +0:47\.200/m);
    expect(r.stdout).toMatch(/Me \(you\) +1 respawn \(1:02\.000\)/);
    expect(r.stdout).toContain('1 respawn to author');
    expect(r.stdout).toContain('215 pts to gold');
    expect(r.stdout).toContain('1 watched player without a record');
    expect(r.stdout).toContain('2 watched players without a record');
    expect(r.stdout).toMatch(/Medals on 6 maps of "Season"/);
    // One line per record and nothing between them: the 6 maps hold 20 records, 6 of them mine.
    expect(r.stdout.split('\n').filter((l) => /^\s+(\d+(–\d+)?|-)\s{2,}\S.*\s(SECRET|\d+:\d\d\.\d{3}|[\d,]+ pts|\d+ respawns?\b)/.test(l))).toHaveLength(20);
    expect(r.stdout.split('\n').filter((l) => l.includes('(you)'))).toHaveLength(6);
    expect(r.stdout).toContain('Royal Arena (LeaderboardUid0006xxxxx) Royal · author 0:30.000');
  });

  it('--limit shows the first maps and says how to see the rest, with proper plurals', async () => {
    const one = await cli(['--data-dir', dataDir, 'compare', '--limit', '5']);
    expect(one.stdout).toContain('… 1 more map: trackwatch compare --list "Season" --limit 6');
    const two = await cli(['--data-dir', dataDir, 'compare', '--limit', '4']);
    expect(two.stdout).toContain('… 2 more maps');
    expect((await cli(['--data-dir', dataDir, 'compare', '--limit', '0'])).stderr).toMatch(/--limit must be a whole number above 0, got "0"/);
    const limited = JSON.parse((await cli(['--data-dir', dataDir, 'compare', '--json', '--limit', '2'])).stdout) as unknown[];
    expect(limited).toHaveLength(2);
  });

  it('--me takes an account ID or a watched player\'s name, and refuses one it cannot find', async () => {
    const byName = JSON.parse((await cli(['--data-dir', dataDir, 'compare', '--json', '--me', 'rival'])).stdout) as CompareJsonMap[];
    expect(byName[0]!.entries.find((e) => e.isMe)?.accountId).toBe(PLAYERS.rival.accountId);
    const bad = await cli(['--data-dir', dataDir, 'compare', '--me', 'Nobody']);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim()).toMatch(/^trackwatch: no player named "Nobody" \(--me takes an account ID, a nickname or a display name of a player of "[^"]+"\)\. Watched players: .*Rival/);
  });
});
