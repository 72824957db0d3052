import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { StoreError } from '../../../src-main/core/store/index.ts';
import type { SourcesRepo } from '../../../src-main/core/store/sources.ts';
import { makeMap, mapId, mapUid, memoryStore } from './fixtures.ts';

let store: Store;
let sources: SourcesRepo;
beforeEach(async () => {
  store = await memoryStore();
  sources = store.sources;
  store.maps.upsert([1, 2, 3, 4].map((n) => makeMap(n)));
  store.watchlists.create('Fall');
});
afterEach(() => store.close());

const FALL = { source: 'campaign:current', pinned: 'campaign:Fall 2026', title: 'Fall 2026' };

describe('list sources', () => {
  it('a list remembers its source, pinned form, title, when and how many maps it brought; others have none', () => {
    store.maps.addRefs('Fall', [1, 2].map((n) => ({ mapUid: mapUid(n) })));
    const attached = sources.attach('Fall', FALL, [mapUid(1), mapUid(2)], '2026-11-20T10:00:00.000Z');
    expect(attached).toEqual({
      listId: store.watchlists.require('Fall').id,
      list: 'Fall',
      ...FALL,
      createdAt: '2026-11-20T10:00:00.000Z',
      resolvedAt: '2026-11-20T10:00:00.000Z',
      broughtMaps: 2,
    });
    expect(sources.get('fall')).toEqual(attached);
    store.watchlists.create('Mine');
    expect(sources.get('Mine')).toBeUndefined();
    expect(sources.list().map((s) => s.list)).toEqual(['Fall']);
    expect(() => sources.get('Nope')).toThrow(StoreError);
  });

  it('resolving again: only UIDs never brought are new, and a map the player removed stays out', () => {
    store.maps.addRefs('Fall', [1, 2, 3].map((n) => ({ mapUid: mapUid(n) })));
    sources.attach('Fall', FALL, [mapUid(1), mapUid(2), mapUid(3)]);
    store.maps.removeFromList('Fall', { mapId: mapId(2) });
    expect(sources.removed('Fall')).toEqual([mapUid(2)]);
    // The source now also holds map 4: only it is new; map 2 was brought before and the player took it out.
    expect(sources.notYetBrought('Fall', [mapUid(1), mapUid(2), mapUid(3), mapUid(4), mapUid(4)])).toEqual([mapUid(4)]);
    sources.recordResolved('Fall', { pinned: FALL.pinned, title: 'Fall 2026 (renamed)', brought: [mapUid(4)] }, '2026-11-21T10:00:00.000Z');
    expect(sources.get('Fall')).toMatchObject({ title: 'Fall 2026 (renamed)', resolvedAt: '2026-11-21T10:00:00.000Z', broughtMaps: 4 });
    expect(sources.notYetBrought('Fall', [mapUid(4)])).toEqual([]);
    expect(sources.brought('Fall').sort()).toEqual([1, 2, 3, 4].map(mapUid).sort());
    // Map 4 was brought but never added (say the service did not know it): it counts as removed, not as present.
    expect(sources.removed('Fall')).toEqual([mapUid(2), mapUid(4)]);
  });

  it('a pending UID still in the list is not removed', () => {
    store.maps.addRefs('Fall', [{ mapUid: 'PendingUid0000000000000000' }]);
    sources.attach('Fall', FALL, ['PendingUid0000000000000000']);
    expect(sources.removed('Fall')).toEqual([]);
  });

  it('a new source replaces the old one and what it brought; detaching keeps the maps; deleting the list forgets all', () => {
    store.maps.addRefs('Fall', [{ mapUid: mapUid(1) }]);
    sources.attach('Fall', FALL, [mapUid(1)]);
    sources.attach('Fall', { source: 'totd:2026-11', pinned: 'totd:2026-11', title: 'Track of the Day 2026-11' }, [mapUid(3)]);
    expect(sources.brought('Fall')).toEqual([mapUid(3)]);
    expect(sources.detach('Fall')).toBe(true);
    expect(sources.detach('Fall')).toBe(false);
    expect(store.maps.list('Fall').map((m) => m.mapUid)).toEqual([mapUid(1)]);
    sources.attach('Fall', FALL, [mapUid(1)]);
    store.watchlists.delete('Fall');
    expect(store.db.prepare('SELECT count(*) AS n FROM list_source_maps').get()).toEqual({ n: 0 });
    expect(store.db.prepare('SELECT count(*) AS n FROM list_sources').get()).toEqual({ n: 0 });
  });

  it('refuses what it cannot keep, saying what was wrong', () => {
    expect(() => sources.attach('Fall', { ...FALL, title: ' ' }, [])).toThrow('a list source needs a title');
    expect(() => sources.attach('Fall', { ...FALL, source: 'campaign:\nx' }, [])).toThrow(/control characters/);
    expect(() => sources.attach('Fall', { ...FALL, pinned: 'x'.repeat(201) }, [])).toThrow(/at most 200 characters/);
    expect(() => sources.attach('Fall', FALL, ['not a uid'])).toThrow(/is not a map UID/);
    expect(() => sources.recordResolved('Fall', { pinned: 'campaign:Fall 2026', title: 'Fall', brought: [] })).toThrow('the list "Fall" does not follow a source');
    expect(sources.get('Fall')).toBeUndefined();
  });
});
