// World positions at the product level, against the emulator: a sync of a list of 25 maps x 50 players gets every
// PB's position in 50 requests (the minimum), nothing is asked again until a PB changes, and then only that PB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PositionsSummary } from '../../../src-main/core/sync/positions.ts';
import { generateDataset, WorldBoard, type Dataset, type DatasetRecord } from '../../../src-main/emulator/index.ts';
import { startTestEmulator } from '../../helpers/emulator.ts';
import { openProduct, type Product } from '../sources/helpers.ts';
import type { RunningEmulator } from '../../../src-main/emulator/index.ts';

const POSITIONS = 'POST /api/token/leaderboard/group/map';

/** A season whose first 25 maps (its official campaign) have a PB of every player, all scores distinct per map. */
function fullCampaign(): Dataset {
  // As of mid-November 2026 (the emulator's calendar follows `now`): Fall 2026, records before the 15th.
  const dataset = generateDataset({ seed: 61, maps: 40, players: 50, style: 'season', now: Date.parse('2026-11-15T20:00:00Z') });
  const players = [...new Set(dataset.records.map((r) => r.accountId))];
  expect(players).toHaveLength(50);
  dataset.maps.slice(0, 25).forEach((map, m) => {
    const pbs = dataset.records.filter((r) => r.mapId === map.mapId && r.scopeId === null);
    const template = pbs[0]!;
    players.forEach((accountId, p) => {
      let pb = pbs.find((r) => r.accountId === accountId);
      if (!pb) {
        pb = { ...template, accountId, recordScore: { ...template.recordScore }, mapRecordId: `0b0b${String(m).padStart(4, '0')}-0000-4000-8000-${String(p).padStart(12, '0')}` };
        dataset.records.push(pb);
      }
      pb.recordScore.time = 40_000 + m * 1000 + p * 11;
      // The medal its new time earns (a record's medal agrees with its time, or the sync says it does not).
      const t = pb.recordScore.time;
      pb.medal = t <= map.authorScore ? 4 : t <= map.goldScore ? 3 : t <= map.silverScore ? 2 : t <= map.bronzeScore ? 1 : 0;
    });
  });
  return dataset;
}


describe('world positions of a list', () => {
  let emu: RunningEmulator;
  let p: Product;
  let dataset: Dataset;
  /** A sync of the list: records, then the positions that are due. */
  const run = async (expectNewPbs = 0): Promise<PositionsSummary> => {
    const summary = await p.tw.sync({ list: 'Fall', replays: false });
    expect(summary).toMatchObject({ outcome: 'ok', errors: [], newPersonalBests: expectNewPbs });
    return summary.positions!;
  };

  beforeAll(async () => {
    dataset = fullCampaign();
    emu = await startTestEmulator({ dataset });
    p = await openProduct(emu);
    await p.tw.addMaps('Fall', dataset.maps.slice(0, 25).map((m) => m.mapUid));
    p.tw.store.players.add('Fall', [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
  });
  afterAll(async () => {
    await p.close();
    await emu.close();
  });

  it('25 maps x 50 players: the first sync asks 1,250 positions in 50 requests, the minimum, each its PB\'s, as of now', async () => {
    // No map read yet: the plan expects a PB of every player on every map, which this campaign has.
    const plan = p.tw.planSync({ list: 'Fall', replays: false });
    expect(plan).toMatchObject({ firstSync: true, positionRequests: 50 });
    emu.resetStats();
    const before = Date.now();
    const summary = await run();
    expect(summary).toMatchObject({ asked: 1250, requests: 50, minimumRequests: 50, ranked: 1250, unavailable: 0, limitedByOwnRecord: 0, changed: 1250, bestClimb: null });
    expect(emu.stats().byRoute[POSITIONS]).toBe(plan.positionRequests);
    const stored = p.positions.forList('Fall');
    expect(stored).toHaveLength(1250);
    for (const pos of stored) {
      const map = dataset.maps.find((m) => m.mapUid === pos.mapUid)!;
      expect(pos.position).toBe(WorldBoard.of(dataset, map, 'Personal_Best')!.position(pos.score));
      expect(pos.zones[0]).toMatchObject({ zoneName: 'World', position: pos.position });
      expect(Date.parse(pos.asOf)).toBeGreaterThanOrEqual(before - 1000);
    }
    const top = stored.reduce((a, b) => (b.position! < a.position! ? b : a));
    expect(summary.bestPosition).toMatchObject({ accountId: top.accountId, after: top.position, before: null, mapName: expect.stringMatching(/^Fall 2026 - \d\d$/) });
  });

  it('a sync where nothing changed asks nothing', async () => {
    expect(p.tw.planSync({ list: 'Fall', replays: false }).positionRequests).toBe(0);
    emu.resetStats();
    expect(await run()).toMatchObject({ asked: 0, requests: 0, changed: 0 });
    expect(emu.stats().byRoute[POSITIONS] ?? 0).toBe(0);
  });

  it('three PBs improve on two maps: the next sync asks only them, in 2 requests, and reports the biggest climb', async () => {
    const [m0, m1] = dataset.maps;
    const pbOf = (mapId: string, accountId: string): DatasetRecord =>
      dataset.records.find((r) => r.mapId === mapId && r.accountId === accountId && r.scopeId === null)!;
    const players = [...new Set(dataset.records.map((r) => r.accountId))];
    // The slowest players of map 0 move up a lot and a little; one on map 1 a little.
    const improve = (mapId: string, accountId: string, time: number) => {
      const pb = pbOf(mapId, accountId);
      pb.recordScore.time = time;
      pb.mapRecordId = `0c0c0c0c-0000-4000-8000-${accountId.slice(-12)}`;
      pb.timestamp = '2026-11-19T12:00:00+00:00';
    };
    improve(m0!.mapId, players[49]!, 40_000 - 5);
    improve(m0!.mapId, players[48]!, 40_000 + 48 * 11 - 3);
    improve(m1!.mapId, players[30]!, 41_000 + 29 * 11 + 1);
    const was = p.positions.get(m0!.mapId, players[49]!)!.position!;
    emu.resetStats();
    const summary = await run(3);
    expect(summary).toMatchObject({ asked: 3, requests: 2, minimumRequests: 2, ranked: 3 });
    expect(emu.stats().byRoute[POSITIONS]).toBe(2);
    const now = p.positions.get(m0!.mapId, players[49]!)!;
    expect(now).toMatchObject({ score: 40_000 - 5, previousPosition: was });
    expect(now.position).toBeLessThan(was);
    expect(summary.bestClimb).toMatchObject({ mapId: m0!.mapId, accountId: players[49], before: was, after: now.position, mapName: 'Fall 2026 - 01' });
  });

  it('the plan counts the position requests the sync then makes: the PBs due, players with one score on a map asked once', async () => {
    const players = [...new Set(dataset.records.map((r) => r.accountId))];
    const maps = dataset.maps.slice(0, 25);
    const improve = (mapId: string, accountId: string, time: number, n: number) => {
      const pb = dataset.records.find((r) => r.mapId === mapId && r.accountId === accountId && r.scopeId === null)!;
      pb.recordScore.time = time;
      pb.mapRecordId = `0d0d0d0d-0000-4000-8000-${String(n).padStart(12, '0')}`;
      pb.timestamp = '2026-11-20T12:00:00+00:00';
    };
    // Map 1: three players tie on a new best time (one question) and a fourth improves (another): two requests, one
    // score per map a request. Every other map: one player improves. 26 questions, 28 PBs.
    [0, 1, 2].forEach((i) => improve(maps[0]!.mapId, players[i]!, 39_000, i));
    improve(maps[0]!.mapId, players[10]!, 40_000 + 10 * 11 - 1, 3);
    maps.slice(1).forEach((map, m) => improve(map.mapId, players[20]!, 41_000 + m * 1000 + 20 * 11 - 1, 10 + m));
    // The records first, positions off: the store then holds the PBs whose position is due.
    expect(await p.tw.sync({ list: 'Fall', replays: false, positions: false })).toMatchObject({ outcome: 'ok', newPersonalBests: 28, positions: null });
    const plan = p.tw.planSync({ list: 'Fall', replays: false });
    expect(plan).toMatchObject({ firstSync: false, positionRequests: 2 });
    emu.resetStats();
    expect(await run()).toMatchObject({ asked: 28, requests: 2, minimumRequests: 2 });
    expect(emu.stats().byRoute[POSITIONS]).toBe(plan.positionRequests);
    expect(p.tw.planSync({ list: 'Fall', replays: false }).positionRequests).toBe(0);
  });
});
