import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlayerRecord } from '../../../src-main/core/model.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, mapUid, memoryStore, recordId, seasonId } from './fixtures.ts';

let store: Store;
let run: number;
beforeEach(async () => {
  store = await memoryStore();
  store.maps.upsert([makeMap(1), makeMap(2, { mapType: 'TrackMania\\TM_Stunt' })]);
  run = store.syncRuns.start();
});
afterEach(() => store.close());

const PB = 'PersonalBest';
let seen = 0;
function apply(map: number, records: PlayerRecord[], scope = PB) {
  seen += 1;
  return store.records.applyRecords({ mapId: mapId(map), scope, records, seenAt: `2025-01-0${Math.min(seen, 9)}T00:00:00.000Z`, syncRunId: run });
}
function count(what: 'records' | 'history'): number {
  const where = what === 'history' ? 'WHERE change IS NOT NULL' : 'WHERE current = 1';
  return (store.db.prepare(`SELECT count(*) AS n FROM records ${where}`).get() as { n: number }).n;
}

describe('applyRecords', () => {
  it('stores first sightings with every field and returns them as new, with a history row each', () => {
    const hidden = makeRecord(1, 2, { hidden: true, time: null, respawnCount: 3, medal: 4, gameModeCustomData: 'x' });
    const { newRecords, improvements } = apply(1, [makeRecord(1, 1), hidden]);
    expect(newRecords).toEqual([makeRecord(1, 1), hidden]);
    expect(improvements.map((i) => [i.kind, i.accountId, i.oldTime, i.newTime, i.hidden])).toEqual([
      ['first', accountId(1), null, 30001, false],
      ['first', accountId(2), null, null, true],
    ]);
    expect(improvements[0]).toMatchObject({ mapId: mapId(1), mapUid: mapUid(1), scope: PB, syncRunId: run, recordTimestamp: '2024-02-01T12:00:00.000Z' });

    const stored = store.records.get(mapId(1), accountId(2));
    expect(stored).toMatchObject({
      ...hidden,
      timestamp: '2024-02-01T12:00:00.000Z', // kept as UTC ISO so it sorts
      scope: PB,
      mapUid: mapUid(1),
      playerName: accountId(2).slice(0, 8), // no name known: the start of the account ID
    });
    // The service's file name is kept as text, exactly.
    expect(stored?.filename).toBe(hidden.filename);
    // An account seen in records becomes a known player, but joins no list.
    expect(store.players.get(accountId(2))).toBeDefined();
    expect(store.players.list()).toEqual([]);
  });

  it('is idempotent: the same records again write nothing', () => {
    apply(1, [makeRecord(1, 1), makeRecord(1, 2, { hidden: true, time: null })]);
    const before = store.db.prepare('SELECT * FROM records ORDER BY player_ref').all();
    const again = apply(1, [makeRecord(1, 1), makeRecord(1, 2, { hidden: true, time: null })]);
    expect(again).toEqual({ newRecords: [], improvements: [] });
    expect(count('history')).toBe(2);
    expect(store.db.prepare('SELECT * FROM records ORDER BY player_ref').all()).toEqual(before);
  });

  it('records an improved time with old and new values', () => {
    apply(1, [makeRecord(1, 1, { time: 30000 })]);
    const better = makeRecord(1, 1, { time: 29500, mapRecordId: recordId(77), timestamp: '2024-03-01T00:00:00Z', medal: 3 });
    const { newRecords, improvements } = apply(1, [better]);
    expect(newRecords).toEqual([better]);
    expect(improvements).toEqual([expect.objectContaining({ kind: 'improved', oldTime: 30000, newTime: 29500, mapRecordId: recordId(77), medal: 3 })]);
    expect(store.records.get(mapId(1), accountId(1))).toMatchObject({ time: 29500, mapRecordId: recordId(77), medal: 3 });
  });

  it('records a better time under the same record ID too', () => {
    apply(1, [makeRecord(1, 1, { time: 30000 })]);
    expect(apply(1, [makeRecord(1, 1, { time: 29000 })]).improvements.map((i) => i.kind)).toEqual(['improved']);
  });

  it('on a Platform map, fewer respawns is the improvement even when slower; as many and faster too (shared/leaderboard.ts)', () => {
    store.maps.upsert([makeMap(3, { mapType: 'TrackMania\\TM_Platform' })]);
    apply(3, [makeRecord(3, 1, { gameMode: 'Platform', respawnCount: 2, time: 40000 })]);
    const fewer = apply(3, [makeRecord(3, 1, { gameMode: 'Platform', respawnCount: 1, time: 55000, mapRecordId: recordId(301) })]);
    expect(fewer.improvements.map((i) => [i.kind, i.oldRespawnCount, i.newRespawnCount, i.oldTime, i.newTime])).toEqual([['improved', 2, 1, 40000, 55000]]);
    // The history keeps the respawns replaced, as it keeps the time.
    expect(store.records.history({ map: mapId(3), limit: 1 })[0]).toMatchObject({ kind: 'improved', oldRespawnCount: 2, newRespawnCount: 1 });
    const faster = apply(3, [makeRecord(3, 1, { gameMode: 'Platform', respawnCount: 1, time: 54000, mapRecordId: recordId(302) })]);
    expect(faster.improvements.map((i) => i.kind)).toEqual(['improved']);
    // More respawns, however fast, is a new record but no improvement.
    const worse = apply(3, [makeRecord(3, 1, { gameMode: 'Platform', respawnCount: 3, time: 20000, mapRecordId: recordId(303) })]);
    expect(worse.improvements.map((i) => i.kind)).toEqual(['changed']);
  });

  it('a new record behind the secret threshold improves on a visible one: a secret entry beats every visible one', () => {
    apply(1, [makeRecord(1, 1, { time: 30000 })]);
    const secret = apply(1, [makeRecord(1, 1, { hidden: true, time: null, mapRecordId: recordId(88) })]);
    expect(secret.improvements).toEqual([expect.objectContaining({ kind: 'improved', oldTime: 30000, newTime: null, hidden: true })]);
  });

  it('on a Stunt map, a higher score is the improvement, whatever the run time', () => {
    apply(2, [makeRecord(2, 1, { gameMode: 'Stunt', score: 1000, time: 60000 })]);
    const higher = makeRecord(2, 1, { gameMode: 'Stunt', score: 1200, time: 70000 });
    const { improvements } = apply(2, [higher]);
    expect(improvements).toEqual([expect.objectContaining({ kind: 'improved', oldScore: 1000, newScore: 1200 })]);
    // A lower score under the same record ID is no improvement; the stored row follows the service.
    const lower = makeRecord(2, 1, { gameMode: 'Stunt', score: 900, time: 50000 });
    expect(apply(2, [lower]).improvements).toEqual([]);
    expect(store.records.get(mapId(2), accountId(1))?.score).toBe(900);
  });

  it('counts a record that became visible (its time revealed) as new, without a later ID', () => {
    apply(1, [makeRecord(1, 1, { hidden: true, time: null })]);
    const revealed = makeRecord(1, 1, { time: 28000 });
    const { newRecords, improvements } = apply(1, [revealed]);
    expect(newRecords).toEqual([revealed]);
    expect(improvements).toEqual([expect.objectContaining({ kind: 'unhidden', oldTime: null, newTime: 28000, hidden: false })]);
  });

  it('records a different record ID that is not better as a change', () => {
    apply(1, [makeRecord(1, 1, { time: 30000 })]);
    const reset = makeRecord(1, 1, { time: 31000, mapRecordId: recordId(5) });
    expect(apply(1, [reset]).improvements).toEqual([expect.objectContaining({ kind: 'changed', oldTime: 30000, newTime: 31000 })]);
  });

  it('updates changed details (medal, URL) without a history row', () => {
    apply(1, [makeRecord(1, 1)]);
    const moved = makeRecord(1, 1, { url: 'https://storage.example/storageObjects/x', medal: 4 });
    expect(apply(1, [moved])).toEqual({ newRecords: [], improvements: [] });
    expect(store.records.get(mapId(1), accountId(1))).toMatchObject({ url: moved.url, medal: 4 });
    expect(count('history')).toBe(1);
  });

  it('keeps what history showed when a record gets worse under the same ID, or becomes hidden', () => {
    apply(1, [makeRecord(1, 1, { time: 30000 })]);
    expect(apply(1, [makeRecord(1, 1, { time: 30400 })])).toEqual({ newRecords: [], improvements: [] });
    expect(store.records.get(mapId(1), accountId(1))?.time).toBe(30400);
    expect(apply(1, [makeRecord(1, 1, { hidden: true, time: null })]).improvements).toEqual([]);
    expect(store.records.get(mapId(1), accountId(1))).toMatchObject({ hidden: true, time: null });
    // The history still holds the time the sync saw first; one current record remains.
    expect(store.records.history({ player: accountId(1) }).map((h) => [h.kind, h.newTime])).toEqual([['first', 30000]]);
    expect(count('records')).toBe(1);
    // Revealed again: that is history.
    expect(apply(1, [makeRecord(1, 1, { time: 30400 })]).improvements.map((i) => i.kind)).toEqual(['unhidden']);
  });

  it('groups several maps in one store.transaction, all or nothing', () => {
    store.transaction(() => {
      apply(1, [makeRecord(1, 1)]);
      apply(2, [makeRecord(2, 1, { gameMode: 'Stunt', score: 5 })]);
    });
    expect(count('records')).toBe(2);
    expect(() =>
      store.transaction(() => {
        apply(1, [makeRecord(1, 2)]);
        apply(3, [makeRecord(3, 1)]); // map 3 is not stored
      }),
    ).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(count('records')).toBe(2);
  });

  it('forgets player rows a rolled-back transaction created (no stale references afterwards)', () => {
    expect(() =>
      store.transaction(() => {
        apply(1, [makeRecord(1, 5)]); // creates player 5's row
        apply(2, [makeRecord(2, 5, { gameMode: 'Stunt', score: 1 })]); // finds it (and remembers it)
        throw new Error('the sync was cancelled');
      }),
    ).toThrow('cancelled');
    expect(store.players.get(accountId(5))).toBeUndefined();
    apply(1, [makeRecord(1, 6)]); // takes the row ID the rolled-back player had
    apply(2, [makeRecord(2, 5, { gameMode: 'Stunt', score: 1 })]);
    expect(store.records.get(mapId(2), accountId(5))?.accountId).toBe(accountId(5));
    expect(store.records.get(mapId(1), accountId(6))?.accountId).toBe(accountId(6));
    expect(store.records.forPlayer(accountId(6)).map((r) => r.mapId)).toEqual([mapId(1)]);
  });

  it.each([
    ['2024-02-01T12:00:00+00:00', '2024-02-01T12:00:00.000Z'],
    ['2024-02-01T12:00:00.5+0000', '2024-02-01T12:00:00.500Z'],
    ['2024-02-01T12:00:00Z', '2024-02-01T12:00:00.000Z'],
    ['2024-02-01T14:00:00.250+02:00', '2024-02-01T12:00:00.250Z'],
    ['2024-02-01T12:00:00.123Z', '2024-02-01T12:00:00.123Z'],
    ['not a date', 'not a date'],
  ])('stores the record time %s as %s', (given, stored) => {
    apply(1, [makeRecord(1, 1, { timestamp: given })]);
    expect(store.records.get(mapId(1), accountId(1))?.timestamp).toBe(stored);
  });

  it('keeps the personal best and season scopes apart', () => {
    const season = seasonId(1);
    apply(1, [makeRecord(1, 1, { time: 30000 })]);
    const seasonal = makeRecord(1, 1, { time: 32000, scopeType: 'Season', scopeId: season, mapRecordId: recordId(8) });
    expect(apply(1, [seasonal], season).improvements.map((i) => [i.kind, i.scope])).toEqual([['first', season]]);
    expect(store.records.get(mapId(1), accountId(1))?.time).toBe(30000);
    expect(store.records.get(mapId(1), accountId(1), season)).toMatchObject({ time: 32000, scopeType: 'Season', scopeId: season });
    expect(store.records.forMap(mapId(1), { scope: PB })).toHaveLength(1);
    expect(store.records.forMap(mapId(1))).toHaveLength(2);
  });

  it('refuses a record that does not belong to the call, writing nothing', () => {
    expect(() => apply(1, [makeRecord(1, 1), makeRecord(2, 1)])).toThrow(/is on map .* not on/);
    expect(() => apply(1, [makeRecord(1, 1, { scopeType: 'Season', scopeId: seasonId(1) })])).toThrow(/in scope/);
    expect(() => apply(1, [makeRecord(1, 1, { accountId: 'x' })])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => store.records.applyRecords({ mapId: mapId(1), scope: 'Personal_Best', records: [], seenAt: 'x', syncRunId: run })).toThrow(/scope/);
    expect(() => apply(3, [makeRecord(3, 1)])).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(count('records')).toBe(0);
  });

  it('stores account IDs given in upper case in lower case, map after map, and still refuses a bad one after good ones', () => {
    const upper = (map: number, account: number): PlayerRecord => makeRecord(map, account, { accountId: accountId(account).toUpperCase() });
    apply(1, [upper(1, 1), upper(1, 2)]);
    apply(2, [upper(2, 1), makeRecord(2, 2)]);
    expect(store.records.forPlayer(accountId(1)).map((r) => [r.mapId, r.accountId])).toEqual([[mapId(1), accountId(1)], [mapId(2), accountId(1)]]);
    expect(store.records.forPlayer(accountId(2))).toHaveLength(2);
    expect(store.db.prepare('SELECT count(*) AS n FROM players').get()).toEqual({ n: 2 });
    expect(() => apply(1, [upper(1, 1), makeRecord(1, 3, { accountId: `${accountId(3)}x` })])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('rolls the whole batch back if a write fails', () => {
    // A sync run that does not exist breaks the foreign key on the second player's history row.
    expect(() =>
      store.records.applyRecords({ mapId: mapId(1), scope: PB, records: [makeRecord(1, 1), makeRecord(1, 2)], seenAt: 'x', syncRunId: 999 }),
    ).toThrow(/FOREIGN KEY/);
    expect(count('records')).toBe(0);
    expect(count('history')).toBe(0);
  });

  it('compares a player listed twice in one batch with the first copy', () => {
    const { improvements } = apply(1, [makeRecord(1, 1, { time: 30000 }), makeRecord(1, 1, { time: 29000, mapRecordId: recordId(3) })]);
    expect(improvements.map((i) => i.kind)).toEqual(['first', 'improved']);
    expect(store.records.get(mapId(1), accountId(1))?.time).toBe(29000);
  });

  it('writes a long batch of first sightings, improvements and a repeated player in the order given, each history row naming its stored row', () => {
    apply(1, [makeRecord(1, 5), makeRecord(1, 17)]);
    // 25 first sightings (more than one multi-row INSERT holds) around two improvements and a player listed twice.
    const batch: PlayerRecord[] = [];
    const kinds: string[] = [];
    const add = (record: PlayerRecord, kind: string): void => void (batch.push(record), kinds.push(kind));
    for (let p = 1; p <= 12; p += 1) if (p !== 5) add(makeRecord(1, p), 'first');
    add(makeRecord(1, 5, { time: 20000, mapRecordId: recordId(5005) }), 'improved');
    for (let p = 13; p <= 27; p += 1) if (p !== 17) add(makeRecord(1, p), 'first');
    add(makeRecord(1, 3, { time: 20003, mapRecordId: recordId(5003) }), 'improved');
    add(makeRecord(1, 17, { time: 20017, mapRecordId: recordId(5017) }), 'improved');
    const { newRecords, improvements } = apply(1, batch);

    expect(newRecords).toEqual(batch);
    expect(improvements.map((i) => [i.kind, i.accountId, i.newTime])).toEqual(batch.map((r, n) => [kinds[n], r.accountId, r.time]));
    // Row IDs follow the batch: each history row is the stored version it names.
    const ids = improvements.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const byId = store.db.prepare<[number], { account_id: string; time: number; change: string }>(
      'SELECT p.account_id, r.time, r.change FROM records r JOIN players p ON p.id = r.player_ref WHERE r.id = ?',
    );
    for (const i of improvements) expect(byId.get(i.id)).toEqual({ account_id: i.accountId, time: i.newTime, change: i.kind });
    // Player 3's first sighting was replaced by the copy later in the batch; 27 players, 27 current records.
    expect(store.records.get(mapId(1), accountId(3))?.time).toBe(20003);
    expect(count('records')).toBe(27);
    expect(count('history')).toBe(2 + batch.length);
  });
});

describe('record queries', () => {
  beforeEach(() => {
    store.watchlists.create('L');
    store.maps.addRefs('L', [{ mapId: mapId(1) }]);
    store.players.add('L', [{ accountId: accountId(1), nickname: 'Me' }, { accountId: accountId(2) }]);
    apply(1, [makeRecord(1, 1), makeRecord(1, 2), makeRecord(1, 3)]);
    apply(2, [makeRecord(2, 1, { gameMode: 'Stunt', score: 10 })]);
  });

  it('by map (ID or UID), by player, and by list (its players on its maps only)', () => {
    expect(store.records.forMap(mapUid(1)).map((r) => r.accountId)).toEqual([accountId(1), accountId(2), accountId(3)]);
    expect(store.records.forPlayer(accountId(1)).map((r) => r.mapId)).toEqual([mapId(1), mapId(2)]);
    expect(store.records.forList('L').map((r) => [r.mapId, r.accountId, r.playerName])).toEqual([
      [mapId(1), accountId(1), 'Me'],
      [mapId(1), accountId(2), accountId(2).slice(0, 8)],
    ]);
    expect(store.records.forMap(mapId(9))).toEqual([]);
    expect(store.records.forPlayer(accountId(9))).toEqual([]);
  });
});
