import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, mapUid, memoryStore } from './fixtures.ts';

let store: Store;
beforeEach(async () => {
  store = await memoryStore();
});
afterEach(() => store.close());

describe('watchlists', () => {
  it('creates lists with trimmed names, and finds them by name regardless of case, or by ID', () => {
    const list = store.watchlists.create('  Weekly Shorts  ');
    expect(list.name).toBe('Weekly Shorts');
    expect(store.watchlists.get('weekly shorts')?.id).toBe(list.id);
    expect(store.watchlists.get(list.id)?.name).toBe('Weekly Shorts');
    expect(store.watchlists.get('Other')).toBeUndefined();
  });

  it.each([
    ['', /needs a name/],
    ['   ', /needs a name/],
    ['x'.repeat(65), /at most 64 characters; this one has 65/],
    ['two\nlines', /control characters/],
  ])('refuses the name %j with a clear message', (name, message) => {
    expect(() => store.watchlists.create(name)).toThrow(message);
    expect(store.watchlists.list()).toEqual([]);
  });

  it('accepts 64 characters, counted as characters, not bytes', () => {
    expect(store.watchlists.create('é'.repeat(64)).name).toHaveLength(64);
  });

  it('refuses a second list with the same name, whatever the case', () => {
    store.watchlists.create('Campaign');
    expect(() => store.watchlists.create('campaign')).toThrow(expect.objectContaining({ code: 'CONFLICT', message: 'a list named "Campaign" already exists' }));
  });

  it('renames, including a change of case only, but not onto another list', () => {
    const a = store.watchlists.create('a');
    store.watchlists.create('b');
    expect(store.watchlists.rename('a', 'A').name).toBe('A');
    expect(() => store.watchlists.rename(a.id, 'B')).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => store.watchlists.rename('missing', 'c')).toThrow(expect.objectContaining({ code: 'NOT_FOUND', message: 'there is no list "missing"' }));
  });

  it('lists every list by name with map, pending map and player counts and the last finished sync', () => {
    store.watchlists.create('Zeta');
    store.watchlists.create('alpha');
    store.maps.upsert([makeMap(1)]);
    store.maps.addRefs('alpha', [{ mapId: mapId(1) }, { mapUid: mapUid(2) }]);
    store.players.add('alpha', [{ accountId: accountId(1) }, { accountId: accountId(2) }, { accountId: accountId(3) }]);
    const run = store.syncRuns.start('alpha');
    expect(store.watchlists.get('alpha')?.lastSyncAt).toBeNull(); // still running
    store.syncRuns.finish(run, 'partial', {}, '2025-03-01T00:00:00.000Z');

    const [alpha, zeta] = store.watchlists.list();
    expect(alpha).toMatchObject({ name: 'alpha', maps: 1, unresolvedMaps: 1, players: 3, lastSyncAt: '2025-03-01T00:00:00.000Z', lastSyncOutcome: 'partial' });
    expect(zeta).toMatchObject({ name: 'Zeta', maps: 0, unresolvedMaps: 0, players: 0, lastSyncAt: null });

    // A sync over every list counts for each list.
    const all = store.syncRuns.start();
    store.syncRuns.finish(all, 'ok', {}, '2025-03-02T00:00:00.000Z');
    expect(store.watchlists.list().map((l) => l.lastSyncAt)).toEqual(['2025-03-02T00:00:00.000Z', '2025-03-02T00:00:00.000Z']);
  });

  it('deletes a list and its memberships, keeping maps, players, records, history and other lists', () => {
    store.watchlists.create('Gone');
    store.watchlists.create('Kept');
    store.maps.upsert([makeMap(1)]);
    for (const list of ['Gone', 'Kept']) {
      store.maps.addRefs(list, [{ mapId: mapId(1) }, { mapUid: mapUid(9) }]);
      store.players.add(list, [{ accountId: accountId(1) }]);
    }
    const run = store.syncRuns.start('Gone');
    store.records.applyRecords({ mapId: mapId(1), scope: 'PersonalBest', records: [makeRecord(1, 1)], seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run });
    store.syncRuns.finish(run, 'ok');

    store.watchlists.delete('gone');

    expect(store.watchlists.get('Gone')).toBeUndefined();
    expect(store.watchlists.get('Kept')).toMatchObject({ maps: 1, unresolvedMaps: 1, players: 1 });
    expect(store.maps.get(mapId(1))).toBeDefined();
    expect(store.players.get(accountId(1))).toBeDefined();
    expect(store.records.forMap(mapId(1))).toHaveLength(1);
    expect(store.records.history({ map: mapId(1) })).toHaveLength(1);
    // The run still names the list it covered.
    expect(store.syncRuns.get(run)?.list).toBe('Gone');
    expect(() => store.watchlists.delete('Gone')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});
