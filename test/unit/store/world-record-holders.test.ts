// A map's world-record holder's record is stored (its replay is the WR's ghost) but is no watched player's: the
// listings, the history and the exports leave it out (schema 10), and a list taking the holder in brings it back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlayerRecord } from '../../../src-main/core/model.ts';
import type { SplitsWrite, Store } from '../../../src-main/core/store/index.ts';
import { accountId, exportRows, makeMap, makeRecord, mapId, memoryStore, recordId } from './fixtures.ts';

let store: Store;
let run: number;
beforeEach(async () => {
  store = await memoryStore();
  store.maps.upsert([makeMap(1), makeMap(2)]);
  store.watchlists.create('L');
  store.maps.addRefs('L', [{ mapId: mapId(1) }, { mapId: mapId(2) }]);
  store.players.add('L', [{ accountId: accountId(1) }, { accountId: accountId(2) }]);
  run = store.syncRuns.start();
});
afterEach(() => store.close());

const HOLDER = accountId(9);
let seen = 0;
function apply(map: number, records: PlayerRecord[], beside: string[] = []) {
  seen += 1;
  return store.records.applyRecords({ mapId: mapId(map), scope: 'PersonalBest', records, seenAt: `2025-01-0${seen}T00:00:00.000Z`, syncRunId: run, beside });
}
const holderRecord = (map: number, time: number, n: number): PlayerRecord => makeRecord(map, 9, { time, mapRecordId: recordId(900 + n) });
const accounts = (records: readonly { accountId: string }[]): string[] => [...new Set(records.map((r) => r.accountId))].sort();
const READ: SplitsWrite = { readerVersion: 1, sha256: 'a'.repeat(64), state: 'read', ghostIndex: 0, ghostName: null, raceTime: 25000, respawns: null, stuntScore: null, checkpoints: [10000, 25000], stuntScores: [], laps: null };

describe("a world record holder's records", () => {
  it('are stored, and their new versions come back (their replays are due) but are no history', () => {
    const first = apply(1, [makeRecord(1, 1), holderRecord(1, 25000, 1)], [HOLDER]);
    expect(first.newRecords.map((r) => r.accountId)).toEqual([accountId(1), HOLDER]);
    expect(first.improvements.map((h) => h.accountId)).toEqual([accountId(1)]);
    // The holder improves: a new version, still no history.
    const better = apply(1, [makeRecord(1, 1), holderRecord(1, 24000, 2)], [HOLDER]);
    expect(better.newRecords.map((r) => r.mapRecordId)).toEqual([recordId(902)]);
    expect(better.improvements).toEqual([]);
    expect(store.records.get(mapId(1), HOLDER)).toMatchObject({ time: 24000, mapRecordId: recordId(902) });
    expect(store.records.history({ limit: 100 }).map((h) => h.accountId)).toEqual([accountId(1)]);
    expect(store.records.history({ map: mapId(1) }).map((h) => h.accountId)).toEqual([accountId(1)]);
  });

  it('stay out of a map\'s records, every record, the export and the splits export; a list taking the holder in brings them back', () => {
    apply(1, [makeRecord(1, 1), makeRecord(1, 2), holderRecord(1, 25000, 1)], [HOLDER]);
    store.splits.put(recordId(901), READ);
    store.splits.put(makeRecord(1, 1).mapRecordId, { ...READ, raceTime: 30001, checkpoints: [12000, 30001] });
    expect(accounts(store.records.forMap(mapId(1)))).toEqual([accountId(1), accountId(2)]);
    expect(accounts([...exportRows(store)])).toEqual([accountId(1), accountId(2)]);
    expect(accounts([...store.splits.exportRows()])).toEqual([accountId(1)]);

    store.watchlists.create('Rivals');
    store.players.add('Rivals', [{ accountId: HOLDER }]);
    expect(accounts(store.records.forMap(mapId(1)))).toEqual([accountId(1), accountId(2), HOLDER]);
    expect(accounts([...exportRows(store)])).toEqual([accountId(1), accountId(2), HOLDER]);
    expect(store.records.history({ player: HOLDER }).map((h) => [h.kind, h.mapRecordId])).toEqual([['first', recordId(901)]]);
    // Watched now: later versions are history like any.
    expect(apply(1, [holderRecord(1, 24000, 2)], [HOLDER]).improvements.map((h) => h.kind)).toEqual(['improved']);
  });

  it("stay a watched player's when the holder is in a list, or was (a deleted list's player keeps their records)", () => {
    apply(1, [makeRecord(1, 1)], [accountId(1)]);
    expect(store.records.history({ player: accountId(1) })).toHaveLength(1);
    store.players.remove('L', accountId(2));
    apply(2, [makeRecord(2, 2)]);
    // Player 2 left every list but has records: as a WR holder on map 1 their record still counts.
    const asHolder = apply(1, [makeRecord(1, 2)], [accountId(2)]);
    expect(asHolder.improvements.map((h) => h.accountId)).toEqual([accountId(2)]);
    expect(accounts(store.records.forMap(mapId(1)))).toEqual([accountId(1), accountId(2)]);
  });
});
