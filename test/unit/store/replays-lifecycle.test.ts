// Which replays a sync asks for: only its list's, each list by its policy, and a replay follows its record
// (issue 9 §1-2): hidden with it, due again when it shows, refused (403) on a visible record tried a few more times.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { MAX_REPLAY_ATTEMPTS, isGivenUp, replayPath } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, memoryStore } from './fixtures.ts';

let store: Store;
let run: number;
const due = (list?: string): string[] => store.replays.pending(1000, list === undefined ? {} : { list }).map((p) => p.mapRecordId).sort();
const id = (map: number, account: number): string => makeRecord(map, account).mapRecordId;

beforeEach(async () => {
  store = await memoryStore();
  store.maps.upsert([makeMap(1), makeMap(2)]);
  run = store.syncRuns.start();
  for (const map of [1, 2]) {
    store.records.applyRecords({
      mapId: mapId(map), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run,
      records: [makeRecord(map, 1), makeRecord(map, 2), makeRecord(map, 3, { hidden: true, time: null })],
    });
  }
  // Rivals: map 1 x players 1 and 3. Others: map 2 x player 2.
  store.watchlists.create('Rivals');
  store.maps.addRefs('Rivals', [{ mapId: mapId(1) }]);
  store.players.add('Rivals', [{ accountId: accountId(1) }, { accountId: accountId(3) }]);
  store.watchlists.create('Others');
  store.maps.addRefs('Others', [{ mapId: mapId(2) }]);
  store.players.add('Others', [{ accountId: accountId(2) }]);
});
afterEach(() => store.close());

describe('the replay queue is scoped to lists', () => {
  it("a list's queue holds only its maps x its players, visible records only", () => {
    expect(due('Rivals')).toEqual([id(1, 1)]);
    expect(due('Others')).toEqual([id(2, 2)]);
  });

  it('without a list: the records of any list, and no others (map 1 x player 2 is in none)', () => {
    expect(due()).toEqual([id(1, 1), id(2, 2)].sort());
  });

  it('a record two lists watch is due once, and counts once towards the limit', () => {
    store.maps.addRefs('Others', [{ mapId: mapId(1) }]);
    store.players.add('Others', [{ accountId: accountId(1) }]);
    // Others now watches maps 1 and 2 x players 1 and 2; Rivals still watches map 1 x player 1.
    const all = store.replays.pending(1000).map((p) => p.mapRecordId);
    expect(all.sort()).toEqual([id(1, 1), id(1, 2), id(2, 1), id(2, 2)].sort());
    expect(store.replays.pending(2).map((p) => p.mapRecordId)).toHaveLength(2);
    expect(new Set(store.replays.pending(2).map((p) => p.mapRecordId)).size).toBe(2);
  });

  it("a deleted list's records leave the queue", () => {
    store.watchlists.delete('Others');
    expect(due()).toEqual([id(1, 1)]);
  });
});

describe('a replay follows its record', () => {
  const lift = (): void => {
    store.records.applyRecords({
      mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-02T00:00:00.000Z', syncRunId: run,
      records: [makeRecord(1, 3, { time: 29000 })],
    });
  };

  it('hidden with its record, due once the threshold is lifted', () => {
    store.replays.markHidden(makeRecord(1, 3));
    expect(due('Rivals')).not.toContain(id(1, 3));
    lift();
    expect(store.records.get(mapId(1), accountId(3))).toMatchObject({ hidden: false, time: 29000 });
    expect(due('Rivals')).toContain(id(1, 3));
  });

  it('a 403 on a visible record is tried again at later syncs, up to the limit, and retryFailed gives it its tries back', () => {
    const visible = makeRecord(1, 1);
    for (let n = 1; n < MAX_REPLAY_ATTEMPTS; n++) {
      expect(store.replays.markForbidden(visible, 'HTTP 403')).toBe(n);
      expect(due('Rivals')).toContain(visible.mapRecordId);
    }
    expect(store.replays.markForbidden(visible, 'HTTP 403')).toBe(MAX_REPLAY_ATTEMPTS);
    expect(due('Rivals')).not.toContain(visible.mapRecordId);
    const entry = store.replays.get(visible.mapRecordId)!;
    expect(entry).toMatchObject({ state: 'hidden', error: 'HTTP 403', attempts: MAX_REPLAY_ATTEMPTS });
    expect(isGivenUp(entry)).toBe(true);
    expect(store.replays.givenUp()).toBe(1);
    expect(store.replays.retryFailed()).toBe(1);
    expect(due('Rivals')).toContain(visible.mapRecordId);
  });

  it('a record shown again gets all its tries back (requeue), a downloaded replay stays downloaded', () => {
    const visible = makeRecord(1, 1);
    for (let n = 0; n < MAX_REPLAY_ATTEMPTS; n++) store.replays.markForbidden(visible, 'HTTP 403');
    store.replays.requeue(visible);
    expect(store.replays.get(visible.mapRecordId)).toMatchObject({ attempts: 0, error: null });
    expect(due('Rivals')).toContain(visible.mapRecordId);
    store.replays.markDownloaded(visible, replayPath(mapId(1), accountId(1), visible.mapRecordId), 5, 'b'.repeat(64));
    store.replays.requeue(visible);
    store.replays.markForbidden(visible, 'HTTP 403');
    expect(store.replays.get(visible.mapRecordId)?.state).toBe('downloaded');
  });

  it('a stored file that fails its checksum is forgotten and due again', () => {
    const visible = makeRecord(1, 1);
    store.replays.markDownloaded(visible, replayPath(mapId(1), accountId(1), visible.mapRecordId), 5, 'b'.repeat(64));
    expect(due('Rivals')).toEqual([]);
    store.replays.markCorrupt(visible, 'the file on disk does not match its checksum');
    expect(store.replays.get(visible.mapRecordId)).toMatchObject({ state: 'failed', path: null, sha256: null, attempts: 0 });
    expect(due('Rivals')).toEqual([visible.mapRecordId]);
  });
});

describe('replay policy of a list', () => {
  it("is 'all' by default, and can be set to 'best' N or 'none'", () => {
    expect(store.watchlists.replayPolicy('Rivals')).toEqual({ mode: 'all', best: 3 });
    expect(store.watchlists.setReplayPolicy('Rivals', { mode: 'best', best: 5 })).toEqual({ mode: 'best', best: 5 });
    expect(store.watchlists.setReplayPolicy('Rivals', { mode: 'none' })).toEqual({ mode: 'none', best: 5 });
    expect(store.watchlists.replayPolicy('Rivals')).toEqual({ mode: 'none', best: 5 });
    expect(store.watchlists.replayPolicy('Others')).toEqual({ mode: 'all', best: 3 });
  });

  it.each([
    [{ mode: 'some' }, /replay policy is 'all', 'best', 'none'/],
    [{ mode: 'best', best: 0 }, /1 to 100/],
    [{ mode: 'best', best: 2.5 }, /1 to 100/],
    [{ mode: 'best', best: 101 }, /1 to 100/],
  ])('refuses %j, saying what is allowed', (policy, message) => {
    expect(() => store.watchlists.setReplayPolicy('Rivals', policy as never)).toThrow(message);
    expect(store.watchlists.replayPolicy('Rivals')).toEqual({ mode: 'all', best: 3 });
  });

  it("counts a list's maps no sync has brought a record for yet", () => {
    expect(store.watchlists.unsyncedMaps('Rivals')).toBe(0);
    store.maps.upsert([makeMap(3)]);
    store.maps.addRefs('Rivals', [{ mapId: mapId(3) }, { mapUid: 'PendingUid00000000000000' }]);
    expect(store.watchlists.unsyncedMaps('Rivals')).toBe(2);
  });
});
