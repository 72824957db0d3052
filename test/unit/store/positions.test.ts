import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlayerRecord } from '../../../src-main/core/model.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import { DUE_ALL_SQL, DUE_OF_LIST_SQL, type PositionsRepo, type ZoneRank } from '../../../src-main/core/store/positions.ts';
import { accountId, makeMap, makeRecord, mapId, mapUid, memoryStore, seasonId } from './fixtures.ts';

let store: Store;
let positions: PositionsRepo;
let run: number;
beforeEach(async () => {
  store = await memoryStore();
  positions = store.positions;
  store.maps.upsert([makeMap(1), makeMap(2, { mapType: 'TrackMania\\TM_Stunt' }), makeMap(3)]);
  store.watchlists.create('Fall');
  store.maps.addRefs('Fall', [1, 2].map((n) => ({ mapUid: mapUid(n) })));
  store.players.add('Fall', [1, 2, 3].map((n) => ({ accountId: accountId(n) })));
  run = store.syncRuns.start();
});
afterEach(() => store.close());

function apply(map: number, records: PlayerRecord[], scope = 'PersonalBest') {
  store.records.applyRecords({ mapId: mapId(map), scope, records, seenAt: '2026-11-20T10:00:00.000Z', syncRunId: run });
}

const world = (position: number): ZoneRank => ({ zoneId: '301e1b69-7e13-11e8-8060-e284abfd2bc4', zoneName: 'World', position });
const france = (position: number): ZoneRank => ({ zoneId: 'zone-fr', zoneName: 'France', position });
const AS_OF = '2026-11-20T10:05:00.000Z';

describe('positions', () => {
  it('due: watched PBs never asked, by their Live score (time, or Stunt points); hidden ones and unwatched maps never', () => {
    apply(1, [makeRecord(1, 1, { time: 41_000 }), makeRecord(1, 2, { hidden: true, time: null })]);
    apply(2, [makeRecord(2, 1, { time: 90_000, score: 512 })]);
    apply(3, [makeRecord(3, 1)]); // map 3 is in no list
    apply(1, [makeRecord(1, 3, { time: 40_000, scopeType: 'Season', scopeId: seasonId(1) })], seasonId(1));
    const due = positions.due('Fall');
    expect(due).toEqual([
      { mapId: mapId(1), mapUid: mapUid(1), mapType: 'TrackMania\\TM_Race', accountId: accountId(1), scope: 'PersonalBest', score: 41_000, askedScore: null },
      { mapId: mapId(2), mapUid: mapUid(2), mapType: 'TrackMania\\TM_Stunt', accountId: accountId(1), scope: 'PersonalBest', score: 512, askedScore: null },
    ].sort((a, b) => a.mapId.localeCompare(b.mapId)));
    expect(positions.due()).toEqual(due);
    expect(positions.due('Fall', seasonId(1))).toMatchObject([{ accountId: accountId(3), score: 40_000, scope: seasonId(1) }]);
  });

  it('due: never on a Platform map, whose respawns-first ranking one Live score cannot express', () => {
    store.maps.upsert([makeMap(4, { mapType: 'TrackMania\\TM_Platform' })]);
    store.maps.addRefs('Fall', [{ mapUid: mapUid(4) }]);
    apply(4, [makeRecord(4, 1, { time: 61_000, respawnCount: 2 })]);
    apply(1, [makeRecord(1, 1, { time: 41_000 })]);
    expect(positions.due('Fall').map((d) => d.mapId)).toEqual([mapId(1)]);
  });

  it('save: stores answers world first; asked again only when the PB score changes; reports the changes', () => {
    apply(1, [makeRecord(1, 1, { time: 41_000 }), makeRecord(1, 2, { time: 45_000 })]);
    const first = positions.save([
      { mapId: mapId(1), accountId: accountId(1), score: 41_000, state: 'ranked', zones: [world(1234), france(98)], asOf: AS_OF },
      { mapId: mapId(1), accountId: accountId(2), score: 45_000, state: 'unavailable', asOf: AS_OF },
    ]);
    expect(first).toEqual([{ mapId: mapId(1), accountId: accountId(1), before: null, after: 1234 }]);
    expect(positions.get(mapId(1), accountId(1))).toEqual({
      mapId: mapId(1), mapUid: mapUid(1), accountId: accountId(1), scope: 'PersonalBest', score: 41_000, state: 'ranked',
      position: 1234, zones: [world(1234), france(98)], previousPosition: null, asOf: AS_OF,
    });
    expect(positions.get(mapId(1), accountId(2))).toMatchObject({ state: 'unavailable', position: null, zones: [] });
    expect(positions.due('Fall')).toEqual([]);

    // Player 1 improves: due again, with the score asked before.
    apply(1, [makeRecord(1, 1, { time: 40_100, mapRecordId: '00000000-0000-4000-8000-0000000000aa' })]);
    expect(positions.due('Fall')).toMatchObject([{ accountId: accountId(1), score: 40_100, askedScore: 41_000 }]);
    const second = positions.save([{ mapId: mapId(1), accountId: accountId(1), score: 40_100, state: 'ranked', zones: [world(990)], asOf: '2026-11-21T10:00:00Z' }]);
    expect(second).toEqual([{ mapId: mapId(1), accountId: accountId(1), before: 1234, after: 990 }]);
    expect(positions.get(mapId(1), accountId(1))).toMatchObject({ position: 990, previousPosition: 1234, asOf: '2026-11-21T10:00:00.000Z' });
  });

  it('an answer that is not ranked keeps the last ranked position as the one before; the same position is no change', () => {
    apply(1, [makeRecord(1, 1, { time: 41_000 })]);
    positions.save([{ mapId: mapId(1), accountId: accountId(1), score: 41_000, state: 'ranked', zones: [world(500)], asOf: AS_OF }]);
    expect(positions.save([{ mapId: mapId(1), accountId: accountId(1), score: 40_000, state: 'limitedByOwnRecord', asOf: AS_OF }])).toEqual([]);
    expect(positions.get(mapId(1), accountId(1))).toMatchObject({ state: 'limitedByOwnRecord', position: null, previousPosition: 500 });
    expect(positions.save([{ mapId: mapId(1), accountId: accountId(1), score: 39_000, state: 'ranked', zones: [world(420)], asOf: AS_OF }])).toEqual([
      { mapId: mapId(1), accountId: accountId(1), before: 500, after: 420 },
    ]);
    expect(positions.save([{ mapId: mapId(1), accountId: accountId(1), score: 39_000, state: 'ranked', zones: [world(420)], asOf: AS_OF }])).toEqual([]);
    expect(positions.get(mapId(1), accountId(1))).toMatchObject({ position: 420, previousPosition: 420 });
  });

  it('reads by map (best first), by player and by list', () => {
    apply(1, [makeRecord(1, 1), makeRecord(1, 2)]);
    apply(2, [makeRecord(2, 1, { score: 300 })]);
    positions.save([
      { mapId: mapId(1), accountId: accountId(1), score: 30_001, state: 'ranked', zones: [world(70)], asOf: AS_OF },
      { mapId: mapId(1), accountId: accountId(2), score: 30_002, state: 'ranked', zones: [world(12)], asOf: AS_OF },
      { mapId: mapId(2), accountId: accountId(1), score: 300, state: 'ranked', zones: [world(5)], asOf: AS_OF },
    ]);
    expect(positions.forMap(mapId(1)).map((p) => [p.accountId, p.position])).toEqual([[accountId(2), 12], [accountId(1), 70]]);
    expect(positions.forPlayer(accountId(1)).map((p) => p.mapId).sort()).toEqual([mapId(1), mapId(2)].sort());
    expect(positions.forList('Fall')).toHaveLength(3);
    store.players.remove('Fall', accountId(1));
    expect(positions.forList('Fall').map((p) => p.accountId)).toEqual([accountId(2)]);
  });

  it('refuses answers it cannot keep, saying what was wrong', () => {
    apply(1, [makeRecord(1, 1)]);
    const ok = { mapId: mapId(1), accountId: accountId(1), score: 30_001, asOf: AS_OF };
    expect(() => positions.save([{ ...ok, state: 'ranked' }])).toThrow('a ranked position needs its zones, world first');
    expect(() => positions.save([{ ...ok, state: 'ranked', zones: [world(0)] }])).toThrow(/position must be a whole number of at least 1/);
    expect(() => positions.save([{ ...ok, state: 'wrong' as 'ranked' }])).toThrow(/state is one of/);
    expect(() => positions.save([{ ...ok, state: 'unavailable', asOf: 'soon' }])).toThrow(/asOf must be an ISO date/);
    expect(() => positions.save([{ ...ok, state: 'unavailable', mapId: mapId(9) }])).toThrow(`map ${mapId(9)} is not stored`);
    // One bad answer writes none of the batch.
    expect(() => positions.save([{ ...ok, state: 'unavailable' }, { ...ok, state: 'unavailable', accountId: accountId(9) }])).toThrow(/is not stored/);
    expect(positions.get(mapId(1), accountId(1))).toBeUndefined();
  });
});

describe('positions: query plans', () => {
  it.each([['of a list', DUE_OF_LIST_SQL], ['of every list', DUE_ALL_SQL]])('the due positions %s read records and positions through their keys', (_label, sql) => {
    // As many records as a real list has around it, so that ANALYZE's statistics favour no scan by their size alone.
    store.maps.upsert(Array.from({ length: 40 }, (_, i) => makeMap(i + 10)));
    for (let m = 10; m < 50; m += 1) apply(m, Array.from({ length: 30 }, (_, a) => makeRecord(m, a + 1)));
    for (const analyze of [false, true]) {
      if (analyze) store.db.exec('ANALYZE');
      const details = store.db.prepare<Record<string, unknown>, { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(sql.includes('@list') ? { list: 1, scope: 'PersonalBest' } : { scope: 'PersonalBest' }).map((r) => r.detail);
      expect(details.filter((d) => /^SCAN (r|pos|records|positions)\b/.test(d)), details.join('\n')).toEqual([]);
    }
  });
});
