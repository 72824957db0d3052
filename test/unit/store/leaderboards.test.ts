// The store hands a list's leaderboards over unranked: each map of the list with its watched players' records.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, memoryStore, seasonId } from './fixtures.ts';

let store: Store;
beforeEach(async () => {
  store = await memoryStore();
  store.maps.upsert([makeMap(1), makeMap(2, { mapType: 'TrackMania\\TM_Stunt' }), makeMap(3)]);
  store.watchlists.create('L');
  store.maps.addRefs('L', [{ mapId: mapId(2) }, { mapId: mapId(1) }]);
  store.players.add('L', [1, 2, 3].map((n) => ({ accountId: accountId(n), nickname: `P${n}` })));
  const run = store.syncRuns.start();
  const apply = (map: number, records: ReturnType<typeof makeRecord>[], scope = 'PersonalBest') =>
    store.records.applyRecords({ mapId: mapId(map), scope, records, seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run });
  apply(1, [makeRecord(1, 1, { time: 31000 }), makeRecord(1, 2, { hidden: true, time: null }), makeRecord(1, 9, { time: 1 })]);
  apply(1, [makeRecord(1, 1, { time: 40000, scopeType: 'Season', scopeId: seasonId(1) })], seasonId(1));
  apply(2, [makeRecord(2, 3, { gameMode: 'Stunt', score: 900 })]);
  apply(3, [makeRecord(3, 1)]);
});
afterEach(() => store.close());

describe('records.leaderboards', () => {
  it('gives each map of the list in the order added, with the records of the list\'s players only, unranked', () => {
    const boards = store.records.leaderboards('L');
    expect(boards.map((b) => [b.map.mapId, b.records.map((r) => r.accountId).sort()])).toEqual([
      [mapId(2), [accountId(3)]],
      [mapId(1), [accountId(1), accountId(2)].sort()],
    ]);
    // Rows as stored: no rank, no delta; a hidden one keeps its hidden flag and no time.
    const hidden = boards[1]!.records.find((r) => r.accountId === accountId(2))!;
    expect(hidden).toMatchObject({ hidden: true, time: null });
    expect(Object.keys(hidden)).not.toContain('rank');
  });

  it('reads one scope: the personal bests unless a season is named', () => {
    expect(store.records.leaderboards('L', { scope: seasonId(1) })[1]!.records.map((r) => r.time)).toEqual([40000]);
  });

  it('covers a map of the list with no records yet', () => {
    store.maps.addRefs('L', [{ mapId: mapId(3) }]);
    store.players.remove('L', [accountId(1)]);
    expect(store.records.leaderboards('L').map((b) => [b.map.mapId, b.records.length])).toEqual([[mapId(2), 1], [mapId(1), 1], [mapId(3), 0]]);
  });
});
