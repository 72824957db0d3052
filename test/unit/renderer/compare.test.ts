import { describe, expect, it } from 'vitest';
import type { CompareTable } from '../../../src-main/contract/index.ts';
import { buildCompareModel, filterRows, sortRows, totalsOf } from '../../../src-renderer/lib/compare.ts';

const player = (accountId: string, isMe = false) => ({ accountId, nickname: accountId, displayName: null, isMe });
const medals = { author: 50_000, gold: 53_000, silver: 60_000, bronze: 75_000 };

const table: CompareTable = {
  list: 'L',
  players: [player('me', true), player('rival'), player('third')],
  me: 0,
  total: 4,
  complete: true,
  rows: [
    { mapUid: 'A', name: '$f00Alpha', isStunt: false, medals, values: [50_100, 49_900, null], earned: [3, 4, 0], hidden: [false, false, false] },
    { mapUid: 'B', name: 'Bravo', isStunt: false, medals, values: [48_000, 48_000, 51_000], earned: [4, 4, 3], hidden: [false, false, false] },
    { mapUid: 'C', name: 'Charlie Stunt', isStunt: true, medals: { author: 7000, gold: 6000, silver: 5000, bronze: 4000 }, values: [6500, 7100, null], earned: [3, 4, 0], hidden: [false, false, true] },
    { mapUid: 'D', name: 'delta', isStunt: false, medals, values: [null, 70_000, null], earned: [0, 1, 2], hidden: [false, false, true] },
  ],
};

describe('compare model', () => {
  const model = buildCompareModel(table);

  it('marks the best of each row, ties included, by time on race maps and by points on Stunt maps', () => {
    expect(model[0]!.cells.map((c) => c.isBest)).toEqual([false, true, false]);
    expect(model[1]!.cells.map((c) => c.isBest)).toEqual([true, true, false]);
    expect(model[2]!.cells.map((c) => c.isBest)).toEqual([false, true, false]);
    expect(model[2]!.best).toBe(7100);
  });

  it('gives each cell its delta to me as value − mine, and my gap to the best', () => {
    expect(model[0]!.cells.map((c) => c.deltaToMe)).toEqual([null, -200, null]);
    expect(model[0]!.myGap).toBe(200);
    expect(model[1]!.myGap).toBe(0);
    expect(model[2]!.cells[1]!.deltaToMe).toBe(600);
    expect(model[2]!.myGap).toBe(-600);
    expect(model[3]!.myGap).toBeNull();
  });

  it('filters on the name without its formatting codes, and by what the player is missing', () => {
    expect(filterRows(model, { text: 'alpha', show: 'all' }, 0).map((r) => r.mapUid)).toEqual(['A']);
    expect(filterRows(model, { text: 'f00', show: 'all' }, 0)).toEqual([]);
    expect(filterRows(model, { text: '', show: 'notBest' }, 0).map((r) => r.mapUid)).toEqual(['A', 'C', 'D']);
    expect(filterRows(model, { text: '', show: 'missing' }, 0).map((r) => r.mapUid)).toEqual(['D']);
    expect(filterRows(model, { text: '', show: 'hidden' }, 0).map((r) => r.mapUid)).toEqual(['C', 'D']);
  });

  it('sorts a player column best first with empty cells last in both directions', () => {
    // The rival has a value on every map: race times best lowest, Stunt points best highest (C's 7100 is best).
    const byRival = (descending: boolean) => sortRows(model, { key: { by: 'player', column: 1 }, descending }).map((r) => r.mapUid);
    expect(byRival(false)).toEqual(['C', 'B', 'A', 'D']);
    expect(byRival(true)).toEqual(['D', 'A', 'B', 'C']);
    // The third player has one value: it comes first either way, the empty cells after it in table order.
    const byThird = (descending: boolean) => sortRows(model, { key: { by: 'player', column: 2 }, descending }).map((r) => r.mapUid);
    expect(byThird(false)).toEqual(['B', 'A', 'C', 'D']);
    expect(byThird(true)).toEqual(['B', 'A', 'C', 'D']);
    expect(sortRows(model, { key: { by: 'map' }, descending: true }).map((r) => r.mapUid)).toEqual(['D', 'C', 'B', 'A']);
  });

  it('totals times, points, medals (hidden records keep theirs) and wins per column', () => {
    const [mine, rival, third] = totalsOf(model, 3);
    expect(mine).toMatchObject({ sumTime: 98_100, timedMaps: 2, sumScore: 6500, scoredMaps: 1, wins: 1, missing: 1, hidden: 0 });
    expect(rival).toMatchObject({ sumTime: 167_900, timedMaps: 3, wins: 4 });
    expect(rival!.medals).toEqual([0, 1, 0, 0, 3]);
    expect(third).toMatchObject({ timedMaps: 1, hidden: 2, missing: 1, wins: 0 });
    expect(third!.medals[2]).toBe(1);
  });
});
