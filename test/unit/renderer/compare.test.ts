// The compare view's model: filters, sorting within a unit, totals over comparable maps, medal progress.
import { describe, expect, it } from 'vitest';
import type { CompareCell, CompareTable, Delta } from '../../../src-main/contract/index.ts';
import { GAP_LIMITS } from '../../../src-main/shared/leaderboard.ts';
import { buildCompareModel, filterRows, sortRows, totalsOf } from '../../../src-renderer/lib/compare.ts';

const player = (accountId: string, isMe = false) => ({ accountId, nickname: accountId, displayName: null, isMe });
const raceMedals = { author: 50_000, gold: 53_000, silver: 60_000, bronze: 75_000 };
const stuntMedals = { author: 7000, gold: 6000, silver: 5000, bronze: 4000 };
const platformMedals = { author: 0, gold: 1, silver: 3, bronze: 5 };
const d = (unit: Delta['unit'], value: number, time: number | null = null): Delta => ({ unit, value, time });

const cell = (o: Omit<CompareCell, 'medal'> & { medal?: number }): CompareCell => ({ medal: 0, ...o });
const secret = (medal: number): CompareCell => ({ hidden: true, medal });

// Columns: me, rival, third. As main sends them: sparse, ranked, the best visible cell marked, deltas worked out
// (test/unit/contract/views.test.ts holds main's to the map view's; test/integration/cli/compare.test.ts to the CLI's).
const table: CompareTable = {
  list: 'L',
  players: [player('me', true), player('rival'), player('third')],
  me: 0,
  total: 5,
  complete: true,
  rows: [
    { mapUid: 'A', name: '$f00Alpha', mapType: 'TrackMania\\TM_Race', kind: 'race', medals: raceMedals, secret: 0, bestIsKnown: true, cells: [
      cell({ time: 50_100, medal: 3, rank: 2, deltaToBest: d('time', 200) }),
      cell({ time: 49_900, medal: 4, rank: 1, isBest: true, deltaToBest: d('time', 0), deltaToMe: d('time', -200) }),
      null,
    ] },
    { mapUid: 'B', name: 'Bravo', mapType: 'TrackMania\\TM_Race', kind: 'clones', medals: raceMedals, secret: 0, bestIsKnown: true, cells: [
      cell({ time: 48_000, medal: 4, rank: 1, isBest: true, deltaToBest: d('time', 0) }),
      cell({ time: 48_000, medal: 4, rank: 1, isBest: true, deltaToBest: d('time', 0), deltaToMe: d('time', 0) }),
      cell({ time: 51_000, medal: 3, rank: 3, deltaToBest: d('time', 3000), deltaToMe: d('time', 3000) }),
    ] },
    // A secret author entry may be ahead of the rival's 7,100 pts or not (the threshold is a time): ranks 1–2.
    { mapUid: 'C', name: 'Charlie Stunt', mapType: 'TrackMania\\TM_Stunt', kind: 'stunt', medals: stuntMedals, secret: 1, bestIsKnown: false, cells: [
      cell({ score: 5900, medal: 2, rank: 3, deltaToBestVisible: d('points', -1200) }),
      cell({ score: 7100, medal: 4, rankRange: { min: 1, max: 2 }, isBestVisible: true, deltaToBestVisible: d('points', 0), deltaToMe: d('points', 1200) }),
      { ...secret(4), rankRange: { min: 1, max: 2 } },
    ] },
    // A secret silver entry is faster than the rival's bronze: the rival is 2nd, best visible, not best.
    { mapUid: 'D', name: 'delta', mapType: 'TrackMania\\TM_Race', kind: 'race', medals: raceMedals, secret: 1, bestIsKnown: false, cells: [
      null,
      cell({ time: 70_000, medal: 1, rank: 2, isBestVisible: true, deltaToBestVisible: d('time', 0) }),
      { ...secret(2), rank: 1, isBest: true },
    ] },
    { mapUid: 'E', name: 'Echo Platform', mapType: 'TrackMania\\TM_Platform', kind: 'platform', medals: platformMedals, secret: 0, bestIsKnown: true, cells: [
      cell({ time: 61_000, respawnCount: 2, medal: 2, rank: 2, deltaToBest: d('respawns', 1, 6000) }),
      cell({ time: 55_000, respawnCount: 1, medal: 3, rank: 1, isBest: true, deltaToBest: d('respawns', 0, 0), deltaToMe: d('respawns', -1, -6000) }),
      cell({ time: 40_000, respawnCount: 4, medal: 1, rank: 3, deltaToBest: d('respawns', 3, -15_000), deltaToMe: d('respawns', 2, -21_000) }),
    ] },
  ],
};

const all = { text: '', show: 'all', near: null } as const;

describe('compare model', () => {
  const model = buildCompareModel(table);

  it('takes each cell\'s deltas as main sends them: to the best visible result, and to mine', () => {
    expect(model[0]!.cells.map((c) => [c?.deltaToBest ?? null, c?.deltaToMe ?? null])).toEqual([[d('time', 200), null], [d('time', 0), d('time', -200)], [null, null]]);
    expect(model[1]!.cells.map((c) => c?.deltaToMe ?? null)).toEqual([null, d('time', 0), d('time', 3000)]);
    // Where a secret entry may be ahead, the deltas are to the best visible result, and none to the best.
    expect(model[2]!.cells.map((c) => [c?.deltaToBestVisible ?? null, c?.deltaToMe ?? null])).toEqual([[d('points', -1200), null], [d('points', 0), d('points', 1200)], [null, null]]);
    expect(model[2]!.cells.map((c) => c?.deltaToBest ?? null)).toEqual([null, null, null]);
    expect(model[0]!.cells.map((c) => c?.deltaToBestVisible ?? null)).toEqual([d('time', 200), d('time', 0), null]);
    expect(model[4]!.cells.map((c) => c?.deltaToMe ?? null)).toEqual([null, d('respawns', -1, -6000), d('respawns', 2, -21_000)]);
    // Nobody's delta to me where I have no record.
    expect(model[3]!.cells.map((c) => c?.deltaToMe ?? null)).toEqual([null, null, null]);
  });

  it("carries each map's world record and each cell's gap to it, as main sends them", () => {
    const wr = { accountId: 'holder', name: 'Holder', secret: false, time: 49_000, score: null, setAt: null, readAt: '2026-11-01T00:00:00.000Z', mapRecordId: null };
    const withWr = buildCompareModel({ ...table, rows: [{ ...table.rows[0]!, worldRecord: wr, cells: [cell({ time: 50_100, medal: 3, rank: 2, deltaToWorldRecord: d('time', 1_100) }), null, null] }] });
    expect(withWr[0]!.worldRecord).toEqual(wr);
    expect(withWr[0]!.cells[0]!.deltaToWorldRecord).toEqual(d('time', 1_100));
    expect(model[0]!.worldRecord).toBeNull();
    expect(model[0]!.cells[0]!.deltaToWorldRecord).toBeNull();
  });

  it('keeps main\'s ranks and marks, and takes my gap to the best visible entry from my cell', () => {
    expect(model.map((r) => r.unit)).toEqual(['time', 'time', 'points', 'time', 'respawns']);
    expect(model[0]!.myGap).toEqual(d('time', 200));
    expect(model[2]!.myGap).toEqual(d('points', -1200));
    expect(model[3]!.myGap).toBeNull();
  });

  it('gives each cell its medal progress in the map\'s unit', () => {
    expect(model[0]!.cells[0]!.progress).toEqual({ medal: 3, next: 4, gap: d('time', 100) });
    expect(model[2]!.cells[0]!.progress).toEqual({ medal: 2, next: 3, gap: d('points', -100) });
    expect(model[4]!.cells[0]!.progress).toEqual({ medal: 2, next: 3, gap: d('respawns', 1) });
    expect(model[2]!.cells[2]!.progress).toEqual({ medal: 4, next: null, gap: null });
  });

  it('filters on the name without its formatting codes, by what I am missing, and by secret entries', () => {
    expect(filterRows(model, { ...all, text: 'alpha' }, 0).map((r) => r.mapUid)).toEqual(['A']);
    expect(filterRows(model, { ...all, text: 'f00' }, 0)).toEqual([]);
    expect(filterRows(model, { ...all, show: 'notBest' }, 0).map((r) => r.mapUid)).toEqual(['A', 'C', 'D', 'E']);
    expect(filterRows(model, { ...all, show: 'missing' }, 0).map((r) => r.mapUid)).toEqual(['D']);
    expect(filterRows(model, { ...all, show: 'hidden' }, 0).map((r) => r.mapUid)).toEqual(['C', 'D']);
  });

  it('filters maps where my next medal is within a gap, each in its own unit', () => {
    // A: 100 ms to author; C: 100 pts to gold; E: 1 respawn to gold; B: author held.
    expect(filterRows(model, { ...all, near: { time: 100, points: 50, respawns: 1 } }, 0).map((r) => r.mapUid)).toEqual(['A', 'E']);
    expect(filterRows(model, { ...all, near: { time: 99, points: 100, respawns: 0 } }, 0).map((r) => r.mapUid)).toEqual(['C']);
    expect(filterRows(model, { ...all, near: GAP_LIMITS[0]! }, null)).toEqual([]);
  });

  it('sorts a player column within a unit, never mixing times, respawns and points; empty cells last either way', () => {
    const byRival = (descending: boolean) => sortRows(model, { key: { by: 'player', column: 1 }, descending }).map((r) => r.mapUid);
    // Times (B 48.000, A 49.900, D 70.000), then respawns (E), then points (C).
    expect(byRival(false)).toEqual(['B', 'A', 'D', 'E', 'C']);
    expect(byRival(true)).toEqual(['D', 'A', 'B', 'E', 'C']);
    // The third player: a secret entry leads its unit; maps without a record come last.
    const byThird = sortRows(model, { key: { by: 'player', column: 2 }, descending: false }).map((r) => r.mapUid);
    expect(byThird).toEqual(['D', 'B', 'E', 'C', 'A']);
    expect(sortRows(model, { key: { by: 'map' }, descending: true }).map((r) => r.mapUid)).toEqual(['E', 'D', 'C', 'B', 'A']);
    // My gap: closest first within each unit, maps without my result last.
    expect(sortRows(model, { key: { by: 'gap' }, descending: false }).map((r) => r.mapUid)).toEqual(['B', 'A', 'E', 'C', 'D']);
  });

  it('totals only over maps where every player has a visible result, and says how many', () => {
    const { basis, columns } = totalsOf(model, 3, GAP_LIMITS[1]!);
    // A: the third player has no record; C, D: secret entries. B (time) and E (respawns) count.
    expect(basis).toEqual({ maps: 2, time: 1, points: 0, respawns: 1 });
    expect(columns.map((c) => [c.sumTime, c.sumRespawns, c.sumPoints])).toEqual([[48_000, 2, 0], [48_000, 1, 0], [51_000, 4, 0]]);
    // Wins are maps surely won: on C the secret entry may be ahead of the rival; on D it is, and wins it.
    expect(columns.map((c) => [c.wins, c.hidden])).toEqual([[1, 0], [3, 0], [1, 2]]);
  });

  it('counts medals held and records near the next medal per player, over every row shown', () => {
    const { columns } = totalsOf(model, 3, { time: 100, points: 50, respawns: 1 });
    expect(columns[0]!.medals).toEqual({ author: 1, gold: 1, silver: 2, bronze: 0, none: 0, missing: 1, near: 2 });
    expect(columns[2]!.medals).toMatchObject({ author: 1, gold: 1, silver: 1, bronze: 1, missing: 1 });
  });
});
