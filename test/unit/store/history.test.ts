import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlayerRecord } from '../../../src-main/core/model.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, mapUid, memoryStore, recordId, seasonId } from './fixtures.ts';

let store: Store;
let run: number;
function apply(map: number, records: PlayerRecord[], scope = 'PersonalBest'): void {
  store.records.applyRecords({ mapId: mapId(map), scope, records, seenAt: '2025-06-01T00:00:00.000Z', syncRunId: run });
}

beforeEach(async () => {
  store = await memoryStore();
  store.maps.upsert([makeMap(1), makeMap(2)]);
  store.watchlists.create('L');
  store.maps.addRefs('L', [{ mapId: mapId(1) }]);
  store.players.add('L', [{ accountId: accountId(1) }]);
  run = store.syncRuns.start();
  // Player 1 on map 1: three PBs over three months; player 2 on map 1; player 1 on map 2; a season record.
  apply(1, [makeRecord(1, 1, { time: 32000, timestamp: '2025-01-10T00:00:00+02:00' }), makeRecord(1, 2, { timestamp: '2025-01-20T00:00:00Z' })]);
  apply(1, [makeRecord(1, 1, { time: 31000, timestamp: '2025-02-10T00:00:00Z', mapRecordId: recordId(11) })]);
  apply(1, [makeRecord(1, 1, { time: 30000, timestamp: '2025-03-10T00:00:00Z', mapRecordId: recordId(12) })]);
  apply(2, [makeRecord(2, 1, { timestamp: '2025-02-15T00:00:00Z' })]);
  apply(1, [makeRecord(1, 1, { time: 35000, timestamp: '2025-04-01T00:00:00Z', scopeType: 'Season', scopeId: seasonId(1), mapRecordId: recordId(13) })], seasonId(1));
});
afterEach(() => store.close());

const times = (rows: { newTime: number | null }[]) => rows.map((r) => r.newTime);
const oldest = { order: 'oldest' } as const;

describe('history', () => {
  it('returns every row, newest record first by default, oldest first on request, with UTC timestamps', () => {
    expect(store.records.history().map((r) => r.recordTimestamp)).toEqual([
      '2025-04-01T00:00:00.000Z', '2025-03-10T00:00:00.000Z', '2025-02-15T00:00:00.000Z', '2025-02-10T00:00:00.000Z',
      '2025-01-20T00:00:00.000Z', '2025-01-09T22:00:00.000Z',
    ]);
    const all = store.records.history({ order: 'oldest' });
    expect(all.map((r) => r.recordTimestamp)).toEqual([
      '2025-01-09T22:00:00.000Z', '2025-01-20T00:00:00.000Z', '2025-02-10T00:00:00.000Z', '2025-02-15T00:00:00.000Z',
      '2025-03-10T00:00:00.000Z', '2025-04-01T00:00:00.000Z',
    ]);
    expect(all[2]).toMatchObject({ kind: 'improved', oldTime: 32000, newTime: 31000, mapUid: mapUid(1), seenAt: '2025-06-01T00:00:00.000Z', syncRunId: run });
  });

  it('filters by map (ID or UID), player, scope and list', () => {
    expect(times(store.records.history({ ...oldest, map: mapUid(1), player: accountId(1), scope: 'PersonalBest' }))).toEqual([32000, 31000, 30000]);
    expect(times(store.records.history({ ...oldest, player: accountId(1) }))).toEqual([32000, 31000, 30001, 30000, 35000]);
    expect(store.records.history({ map: mapId(2) })).toHaveLength(1);
    expect(store.records.history({ scope: seasonId(1) })).toHaveLength(1);
    // The list holds map 1 and player 1 only.
    expect(times(store.records.history({ ...oldest, list: 'L' }))).toEqual([32000, 31000, 30000, 35000]);
    expect(store.records.history({ map: mapId(9) })).toEqual([]);
    expect(store.records.history({ player: accountId(9) })).toEqual([]);
  });

  it('filters by the record\'s own time: since inclusive, until exclusive, with a limit', () => {
    expect(times(store.records.history({ ...oldest, player: accountId(1), since: '2025-02-10T00:00:00Z', until: new Date('2025-04-01T00:00:00Z') }))).toEqual([31000, 30001, 30000]);
    expect(times(store.records.history({ ...oldest, since: '2025-02-10T02:00:00+02:00', limit: 2 }))).toEqual([31000, 30001]);
    // The newest N: what a "recent improvements" view asks for.
    expect(times(store.records.history({ limit: 2 }))).toEqual([35000, 30000]);
    expect(() => store.records.history({ since: 'yesterday' })).toThrow(/not a date/);
    expect(() => store.records.history({ until: new Date(Date.UTC(10000, 0, 1)) })).toThrow(/between the years 0000 and 9999/);
  });

  it('over every map, a time range gives the rows a filter over all of them would, at year edges and in any zone', () => {
    // Two more rows in 2024, one of them given in a zone where it is already 2025.
    apply(2, [makeRecord(2, 3, { timestamp: '2025-01-01T00:30:00+01:00' }), makeRecord(2, 4, { timestamp: '2024-06-01T00:00:00Z' })]);
    const all = store.records.history({ order: 'oldest' });
    expect(all.map((r) => r.recordTimestamp.slice(0, 4))).toEqual(['2024', '2024', '2025', '2025', '2025', '2025', '2025', '2025']);
    const bounds = [undefined, '2024-01-01T00:00:00Z', '2024-12-31T23:30:00Z', '2024-12-31T23:30:00.001Z', '2025-01-01T00:00:00+01:00', '2025-01-01T00:00:00Z', '2025-01-09T22:00:00Z', '2025-01-10T00:00:00+02:00', '2025-02-01T00:00:00Z',
      '2025-02-10T00:00:00.001Z', '2025-02-28T23:59:59.999Z', '2025-03-01T01:00:00+01:00', '2025-03-10T00:00:00.001Z', '2025-04-01T00:00:00Z', '2026-01-01T00:00:00Z'];
    for (const since of bounds) {
      for (const until of bounds) {
        const want = all.filter((r) => (since === undefined || Date.parse(r.recordTimestamp) >= Date.parse(since))
          && (until === undefined || Date.parse(r.recordTimestamp) < Date.parse(until)));
        expect(store.records.history({ order: 'oldest', since, until }), `since ${since} until ${until}`).toEqual(want);
        expect(store.records.history({ since, until, limit: 2 })).toEqual(want.reverse().slice(0, 2));
      }
    }
  });
});
