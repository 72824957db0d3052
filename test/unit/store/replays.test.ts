import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { replayPath } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, memoryStore, recordId, seasonId } from './fixtures.ts';

let store: Store;
const SHA = 'a'.repeat(64);
beforeEach(async () => {
  store = await memoryStore();
  store.maps.upsert([makeMap(1)]);
  const run = store.syncRuns.start();
  store.records.applyRecords({
    mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run,
    records: [makeRecord(1, 1), makeRecord(1, 2), makeRecord(1, 3, { hidden: true, time: null })],
  });
  // Player 1's PB is also the season record: same record ID, one replay.
  store.records.applyRecords({
    mapId: mapId(1), scope: seasonId(1), seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run,
    records: [makeRecord(1, 1, { scopeType: 'Season', scopeId: seasonId(1) })],
  });
  // Only records of a list's maps and players are due: these are watched.
  store.watchlists.create('Watched');
  store.maps.addRefs('Watched', [{ mapId: mapId(1) }]);
  store.players.add('Watched', [1, 2, 3].map((n) => ({ accountId: accountId(n) })));
});
afterEach(() => store.close());

describe('replay paths', () => {
  it('are built from the IDs alone, under replays/, in lower case', () => {
    expect(replayPath(mapId(1).toUpperCase(), accountId(1), recordId(1))).toBe(
      `replays/${mapId(1)}/${accountId(1)}/${recordId(1)}.replay.gbx`,
    );
  });

  it.each([
    ['..', accountId(1), recordId(1)],
    [mapId(1), '../../etc', recordId(1)],
    [mapId(1), accountId(1), `${recordId(1)}/../../x`],
    [mapId(1), accountId(1), "Replays\\Downloaded\\x_(0'22''34).replay.gbx"],
    ['C:\\Windows', accountId(1), recordId(1)],
    ['', accountId(1), recordId(1)],
  ])('refuse anything that is not a UUID: %j / %j / %j', (m, a, r) => {
    expect(() => replayPath(m, a, r)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('replays', () => {
  it('lists visible records without a replay as pending, once per record ID, with where to put them', () => {
    const pending = store.replays.pending();
    expect(pending.map((p) => p.accountId).sort()).toEqual([accountId(1), accountId(2)].sort());
    expect(pending.find((p) => p.accountId === accountId(1))).toEqual({
      mapId: mapId(1), accountId: accountId(1), mapRecordId: makeRecord(1, 1).mapRecordId, url: makeRecord(1, 1).url,
      path: replayPath(mapId(1), accountId(1), makeRecord(1, 1).mapRecordId), attempts: 0,
    });
    expect(store.replays.pending(1)).toHaveLength(1);
  });

  it('records a download; it is no longer pending', () => {
    const [first] = store.replays.pending();
    store.replays.markDownloaded(first!.mapRecordId, first!.path, 12345, SHA.toUpperCase());
    expect(store.replays.has(first!.mapRecordId)).toBe(true);
    expect(store.replays.pending().map((p) => p.mapRecordId)).not.toContain(first!.mapRecordId);
    expect(store.replays.get(first!.mapRecordId)).toMatchObject({ state: 'downloaded', path: first!.path, size: 12345, sha256: SHA, mapId: mapId(1) });
  });

  it('retries a failed download until it has failed the allowed number of times', () => {
    const id = makeRecord(1, 2).mapRecordId;
    expect(store.replays.markFailed(id, 'HTTP 503')).toBe(1);
    expect(store.replays.pending().find((p) => p.mapRecordId === id)?.attempts).toBe(1);
    store.replays.markFailed(id, 'HTTP 503');
    expect(store.replays.markFailed(id, 'timeout')).toBe(3);
    expect(store.replays.pending().map((p) => p.mapRecordId)).not.toContain(id);
    expect(store.replays.pending(10, { maxAttempts: 5 }).map((p) => p.mapRecordId)).toContain(id);
    expect(store.replays.get(id)).toMatchObject({ state: 'failed', error: 'timeout', attempts: 3 });
    expect(store.replays.has(id)).toBe(false);
  });

  it('on request, gives the replays it gave up on their tries back, and only those', () => {
    const gaveUp = makeRecord(1, 2).mapRecordId;
    const once = makeRecord(1, 1).mapRecordId;
    for (let i = 0; i < 3; i += 1) store.replays.markFailed(gaveUp, 'HTTP 503');
    store.replays.markFailed(once, 'timeout');
    expect(store.replays.givenUp()).toBe(1);
    expect(store.replays.pending().map((p) => p.mapRecordId)).toEqual([once]);

    expect(store.replays.retryFailed()).toBe(1);
    expect(store.replays.givenUp()).toBe(0);
    expect(store.replays.pending().map((p) => p.mapRecordId).sort()).toEqual([once, gaveUp].sort());
    // The last error is kept until the next try; the count starts again.
    expect(store.replays.get(gaveUp)).toMatchObject({ state: 'failed', error: 'HTTP 503', attempts: 0 });
    expect(store.replays.get(once)).toMatchObject({ attempts: 1 });
    expect(store.replays.markFailed(gaveUp, 'HTTP 503')).toBe(1);
    expect(store.replays.retryFailed()).toBe(0);
  });

  it("gives a run's failed downloads that a sync still asks for, from a moment on, of a list or all", () => {
    // Named with their map and player, as the sync names them: a list reaches its replays through them.
    const ref = (p: number) => ({ mapRecordId: makeRecord(1, p).mapRecordId, mapId: mapId(1), accountId: accountId(p) });
    const gaveUp = makeRecord(1, 2).mapRecordId;
    const once = makeRecord(1, 1).mapRecordId;
    for (let i = 0; i < 3; i += 1) store.replays.markFailed(ref(2), 'HTTP 503');
    store.replays.markFailed(ref(1), 'timeout');
    const since = '2000-01-01T00:00:00.000Z'; // before every try above
    expect(store.replays.failedSince(since).map((r) => r.mapRecordId)).toEqual([once]);
    expect(store.replays.failedSince(since, { list: 'Watched' })).toMatchObject([{ mapRecordId: once, mapId: mapId(1), error: 'timeout', attempts: 1 }]);
    expect(store.replays.failedSince(since, {}, 5).map((r) => r.mapRecordId).sort()).toEqual([once, gaveUp].sort());
    // Not a failure of this run: it failed before the run started.
    expect(store.replays.failedSince('9999-01-01T00:00:00.000Z')).toEqual([]);
    // Nor of a list that does not watch the player.
    store.watchlists.create('Other');
    store.maps.addRefs('Other', [{ mapId: mapId(1) }]);
    store.players.add('Other', [{ accountId: accountId(3) }]);
    expect(store.replays.failedSince(since, { list: 'Other' })).toEqual([]);
  });

  it('never downgrades a downloaded replay to failed or hidden', () => {
    const id = makeRecord(1, 1).mapRecordId;
    store.replays.markDownloaded(id, replayPath(mapId(1), accountId(1), id), 10, SHA);
    expect(store.replays.markFailed(id, 'late failure')).toBe(0);
    store.replays.markHidden(id);
    expect(store.replays.get(id)?.state).toBe('downloaded');
  });

  it('marks secret-threshold replays hidden; they are not asked for while their record is hidden', () => {
    const id = makeRecord(1, 3).mapRecordId;
    store.replays.markHidden(makeRecord(1, 3));
    expect(store.replays.pending().map((p) => p.mapRecordId)).not.toContain(id);
    expect(store.replays.get(id)).toMatchObject({ state: 'hidden', attempts: 0 });
    expect(store.replays.givenUp()).toBe(0);
  });

  it('refuses unsafe paths and bad digests when marking a download', () => {
    const id = makeRecord(1, 1).mapRecordId;
    expect(() => store.replays.markDownloaded(id, '../outside.gbx', 1, SHA)).toThrow(expect.objectContaining({ code: 'PATH_OUTSIDE_DATA_FOLDER' }));
    expect(() => store.replays.markDownloaded(id, 'replays/x.gbx', -1, SHA)).toThrow(/size/);
    expect(() => store.replays.markDownloaded(id, 'replays/x.gbx', 1, 'abc')).toThrow(/SHA-256/);
  });

  it('lists replays with sizes, names and state, for all or for a list', () => {
    store.watchlists.create('L');
    store.maps.addRefs('L', [{ mapId: mapId(1) }]);
    store.players.add('L', [{ accountId: accountId(1), nickname: 'Me' }]);
    const [one, two] = [makeRecord(1, 1), makeRecord(1, 2)];
    const path = replayPath(mapId(1), accountId(1), one.mapRecordId);
    store.replays.markDownloaded(one.mapRecordId, path, 100, SHA); // whose it is: read from the path replayPath built
    store.replays.markDownloaded(two, 'replays/elsewhere.replay.gbx', 200, SHA); // or from the record itself
    expect(store.replays.list().map((r) => r.size).sort()).toEqual([100, 200]);
    expect(store.replays.list({ list: 'L' })).toEqual([
      expect.objectContaining({ playerName: 'Me', mapName: makeMap(1).name, path, size: 100, state: 'downloaded' }),
    ]);
    expect(store.replays.get(two.mapRecordId)).toMatchObject({ accountId: accountId(2), mapId: mapId(1) });
    // A bare ID with a path of another shape: the file is logged, its owner unknown.
    store.replays.markHidden(makeRecord(1, 3).mapRecordId);
    expect(store.replays.get(makeRecord(1, 3).mapRecordId)).toMatchObject({ state: 'hidden', accountId: null });
    store.replays.markHidden(makeRecord(1, 3));
    expect(store.replays.get(makeRecord(1, 3).mapRecordId)).toMatchObject({ state: 'hidden', accountId: accountId(3) });
  });
});
