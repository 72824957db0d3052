import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { makeMap, mapId, mapUid, memoryStore } from './fixtures.ts';

let store: Store;
beforeEach(async () => {
  store = await memoryStore();
  store.watchlists.create('Weekly');
  store.watchlists.create('Campaign');
});
afterEach(() => store.close());

describe('maps', () => {
  it('stores every field of the info object, with when it was fetched, and finds it by ID or UID', () => {
    const map = makeMap(1, { hasClones: true, createdWithSimpleEditor: true, mapStyle: 'Tech' });
    store.maps.upsert([map], '2025-01-02T03:04:05.000Z');
    expect(store.maps.get(map.mapId)).toEqual({ ...map, fetchedAt: '2025-01-02T03:04:05.000Z' });
    expect(store.maps.get(map.mapUid)).toEqual({ ...map, fetchedAt: '2025-01-02T03:04:05.000Z' });
    expect(store.maps.get(map.mapId.toUpperCase())?.mapUid).toBe(map.mapUid);
    expect(store.maps.get(mapId(2))).toBeUndefined();
  });

  it('refreshes a map on a second upsert', () => {
    store.maps.upsert([makeMap(1)], '2025-01-01T00:00:00.000Z');
    store.maps.upsert([makeMap(1, { name: 'Renamed', goldScore: 1 })], '2025-02-01T00:00:00.000Z');
    expect(store.maps.get(mapId(1))).toMatchObject({ name: 'Renamed', goldScore: 1, fetchedAt: '2025-02-01T00:00:00.000Z' });
    expect(store.maps.list()).toHaveLength(1);
  });

  it('keeps UID refs pending until the map info arrives, then resolves them in every list', () => {
    const added = store.maps.addRefs('Weekly', [{ mapUid: mapUid(1) }, { mapUid: mapUid(2) }]);
    store.maps.addRefs('Campaign', [{ mapUid: mapUid(1) }]);
    expect(added).toEqual({ added: [mapUid(1), mapUid(2)], alreadyListed: [], invalid: [] });
    expect(store.maps.unresolvedUids('Weekly')).toEqual([mapUid(1), mapUid(2)]);
    expect(store.maps.unresolvedUids()).toEqual([mapUid(1), mapUid(2)]);
    expect(store.maps.list('Weekly')).toEqual([]);

    store.maps.upsert([makeMap(1)]);

    expect(store.maps.unresolvedUids('Weekly')).toEqual([mapUid(2)]);
    expect(store.maps.unresolvedUids('Campaign')).toEqual([]);
    expect(store.maps.list('Weekly').map((m) => m.mapUid)).toEqual([mapUid(1)]);
    expect(store.maps.list('Campaign').map((m) => m.mapUid)).toEqual([mapUid(1)]);
    expect(store.maps.refs('Weekly')).toEqual([
      { mapId: mapId(1), mapUid: mapUid(1), resolved: true, addedAt: expect.any(String), notFoundAt: null },
      { mapId: null, mapUid: mapUid(2), resolved: false, addedAt: expect.any(String), notFoundAt: null },
    ]);
  });

  it('joins a map already stored at once, whether named by ID or UID', () => {
    store.maps.upsert([makeMap(1)]);
    store.maps.addRefs('Weekly', [{ mapUid: mapUid(1) }]);
    expect(store.maps.unresolvedUids()).toEqual([]);
    expect(store.maps.addRefs('Weekly', [{ mapId: mapId(1) }])).toEqual({ added: [], alreadyListed: [mapId(1)], invalid: [] });
  });

  it('merges a map added by both ID and UID into one membership when it resolves', () => {
    store.maps.addRefs('Weekly', [{ mapUid: mapUid(1) }, { mapId: mapId(1) }]);
    expect(store.watchlists.get('Weekly')?.unresolvedMaps).toBe(2);
    store.maps.upsert([makeMap(1)]);
    expect(store.watchlists.get('Weekly')).toMatchObject({ maps: 1, unresolvedMaps: 0 });
  });

  it('reports duplicate and bad refs instead of failing the whole call', () => {
    const result = store.maps.addRefs('Weekly', [
      { mapUid: mapUid(1) },
      { mapUid: mapUid(1) },
      { mapUid: 'short' },
      { mapId: 'not-a-uuid' },
      {},
    ]);
    expect(result.added).toEqual([mapUid(1)]);
    expect(result.alreadyListed).toEqual([mapUid(1)]);
    expect(result.invalid.map((i) => i.reason)).toEqual([
      'map UID "short" is not a map UID (18-32 letters and digits)',
      'map ID "not-a-uuid" is not a UUID',
      'a map is named by its ID or UID',
    ]);
    expect(() => store.maps.addRefs('Nope', [{ mapUid: mapUid(1) }])).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('remembers refs the service did not know, still pending', () => {
    store.maps.addRefs('Weekly', [{ mapUid: mapUid(7) }]);
    store.maps.markNotFound([mapUid(7)], '2025-05-05T00:00:00.000Z');
    expect(store.maps.refs('Weekly')[0]).toMatchObject({ resolved: false, notFoundAt: '2025-05-05T00:00:00.000Z' });
    expect(store.maps.unresolvedUids('Weekly')).toEqual([mapUid(7)]);
  });

  it('removes maps from one list only, resolved or pending, keeping the map info', () => {
    store.maps.upsert([makeMap(1)]);
    store.maps.addRefs('Weekly', [{ mapId: mapId(1) }, { mapUid: mapUid(2) }]);
    store.maps.addRefs('Campaign', [{ mapId: mapId(1) }]);
    expect(store.maps.removeFromList('Weekly', [{ mapUid: mapUid(1) }, { mapUid: mapUid(2) }])).toBe(2);
    expect(store.maps.removeFromList('Weekly', { mapUid: mapUid(1) })).toBe(0);
    expect(store.maps.refs('Weekly')).toEqual([]);
    expect(store.maps.list('Campaign')).toHaveLength(1);
    expect(store.maps.get(mapId(1))).toBeDefined();
  });

  it('names the listed maps to refresh: fetched before the cut-off, or never (added by ID)', () => {
    store.maps.upsert([makeMap(1)], '2025-01-01T00:00:00.000Z');
    store.maps.upsert([makeMap(2)], '2025-03-01T00:00:00.000Z');
    store.maps.upsert([makeMap(3)], '2025-01-01T00:00:00.000Z'); // in no list: nobody needs it fresh
    store.maps.addRefs('Weekly', [{ mapId: mapId(1) }, { mapId: mapId(2) }, { mapId: mapId(4) }]);
    store.maps.addRefs('Campaign', [{ mapId: mapId(5) }]);
    expect(store.maps.staleIds('2025-02-01T00:00:00.000Z', 'Weekly').sort()).toEqual([mapId(1), mapId(4)].sort());
    expect(store.maps.staleIds(new Date('2025-02-01T00:00:00Z')).sort()).toEqual([mapId(1), mapId(4), mapId(5)].sort());
  });

  it('refuses map info without a valid map ID, writing none of the batch', () => {
    expect(() => store.maps.upsert([makeMap(1), makeMap(2, { mapId: '../../etc' })])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(store.maps.list()).toEqual([]);
  });
});
