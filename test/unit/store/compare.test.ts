import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlayerRecord } from '../../../src-main/core/model.ts';
import type { CompareMap, Store } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, memoryStore, seasonId } from './fixtures.ts';

let store: Store;
let run: number;
beforeEach(async () => {
  store = await memoryStore();
  store.maps.upsert([makeMap(1), makeMap(2, { mapType: 'TrackMania\\TM_Stunt' })]);
  store.watchlists.create('L');
  store.maps.addRefs('L', [{ mapId: mapId(1) }, { mapId: mapId(2) }]);
  store.players.add('L', [1, 2, 3, 4, 5].map((n) => ({ accountId: accountId(n), nickname: `P${n}` })));
  run = store.syncRuns.start();
});
afterEach(() => store.close());

function apply(map: number, records: PlayerRecord[], scope = 'PersonalBest'): void {
  store.records.applyRecords({ mapId: mapId(map), scope, records, seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run });
}
const table = (m: CompareMap) => m.entries.map((e) => [e.playerName, e.rank, e.time ?? e.score, e.deltaToBest, e.deltaToMe]);

describe('compare', () => {
  it('ranks times lower-first, ties share a rank, hidden entries come after unranked, then players without a record', () => {
    apply(1, [
      makeRecord(1, 1, { time: 30500 }),
      makeRecord(1, 2, { time: 30000, timestamp: '2024-01-02T00:00:00Z' }),
      makeRecord(1, 3, { time: 30000, timestamp: '2024-01-01T00:00:00Z' }), // same time, set earlier
      makeRecord(1, 4, { hidden: true, time: null }),
    ]);
    const [race] = store.records.compare('L', { me: accountId(1) });
    expect(race!.isStunt).toBe(false);
    expect(table(race!)).toEqual([
      ['P3', 1, 30000, 0, -500],
      ['P2', 1, 30000, 0, -500],
      ['P1', 3, 30500, 500, 0],
      ['P4', null, null, null, null],
      ['P5', null, null, null, null],
    ]);
    const hidden = race!.entries[3]!;
    expect(hidden).toMatchObject({ hasRecord: true, hidden: true, time: null });
    expect(race!.entries[4]).toMatchObject({ hasRecord: false, hidden: false, medal: 0, setAt: null });
    expect(race!.entries[2]).toMatchObject({ isMe: true });
  });

  it('ranks Stunt maps by score, higher first, with deltas in points (positive = worse)', () => {
    apply(2, [
      makeRecord(2, 1, { gameMode: 'Stunt', score: 900, time: 50000 }),
      makeRecord(2, 2, { gameMode: 'Stunt', score: 1200, time: 90000 }),
      makeRecord(2, 3, { gameMode: 'Stunt', score: 1000, time: 10000 }),
    ]);
    const stunt = store.records.compare('L', { me: accountId(3) })[1]!;
    expect(stunt.isStunt).toBe(true);
    expect(stunt.entries.slice(0, 3).map((e) => [e.playerName, e.rank, e.score, e.deltaToBest, e.deltaToMe])).toEqual([
      ['P2', 1, 1200, 0, -200],
      ['P3', 2, 1000, 200, 0],
      ['P1', 3, 900, 300, 100],
    ]);
  });

  it('has no delta to me when I have no visible record, and reads the scope asked for', () => {
    apply(1, [makeRecord(1, 1, { time: 30000 }), makeRecord(1, 2, { hidden: true, time: null })]);
    apply(1, [makeRecord(1, 1, { time: 40000, scopeType: 'Season', scopeId: seasonId(1) })], seasonId(1));
    const [pb] = store.records.compare('L', { me: accountId(2) });
    expect(pb!.entries[0]).toMatchObject({ playerName: 'P1', time: 30000, deltaToMe: null, deltaToBest: 0 });
    const [season] = store.records.compare('L', { scope: seasonId(1) });
    expect(season!.entries[0]).toMatchObject({ playerName: 'P1', time: 40000, isMe: false });
    expect(season!.entries.filter((e) => e.hasRecord)).toHaveLength(1);
  });

  it('covers each resolved map of the list, in the order added, even with no records yet', () => {
    expect(store.records.compare('L').map((m) => [m.map.mapId, m.entries.length])).toEqual([[mapId(1), 5], [mapId(2), 5]]);
  });
});
