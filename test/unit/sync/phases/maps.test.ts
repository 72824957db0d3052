// The maps phase alone, against the emulator: UIDs and IDs added since resolved, old info refreshed, unknown maps named.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UnreachableError } from '../../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { mapsPhase } from '../../../../src-main/core/sync/phases/maps.ts';
import { mapId, mapUid, memoryStore } from '../../store/fixtures.ts';
import { phaseContext, stubClient } from './context.ts';
import { emulatedService, type EmulatedService } from './emulator.ts';

describe('the maps phase', () => {
  let service: EmulatedService;
  let store: Store;
  beforeAll(async () => {
    service = await emulatedService({ seed: 31, maps: 4, players: 2 });
  });
  afterAll(async () => service.close());
  beforeEach(async () => {
    store = await memoryStore();
    service.emulator.resetStats();
  });

  it('resolves the UIDs and IDs added since, in one lookup each, and names the maps the service does not know', async () => {
    const [a, b, c] = service.dataset.maps;
    store.watchlists.create('Fall');
    store.maps.addRefs('Fall', [{ mapUid: a!.mapUid }, { mapUid: b!.mapUid }, { mapId: c!.mapId }, { mapUid: mapUid(999) }]);
    const ctx = phaseContext({ store, client: service.client, options: { list: 'Fall' } });
    await mapsPhase.run(ctx);
    expect(store.maps.list('Fall').map((m) => m.mapUid).sort()).toEqual([a!.mapUid, b!.mapUid, c!.mapUid].sort());
    expect(store.maps.get(c!.mapId)?.name).toBe(c!.name);
    expect(ctx.run.unknownMaps).toEqual([mapUid(999)]);
    expect(ctx.run.errors).toEqual([]);
    expect(service.emulator.stats().requests).toBe(2);
  });

  it('asks nothing when every map is known and fresh; refreshMaps asks for them all again', async () => {
    store.watchlists.create('Fall');
    store.maps.addRefs('Fall', service.dataset.maps.map((m) => ({ mapUid: m.mapUid })));
    await mapsPhase.run(phaseContext({ store, client: service.client, options: { list: 'Fall' } }));
    service.emulator.resetStats();
    await mapsPhase.run(phaseContext({ store, client: service.client, options: { list: 'Fall' } }));
    expect(service.emulator.stats().requests).toBe(0);
    await mapsPhase.run(phaseContext({ store, client: service.client, options: { list: 'Fall', refreshMaps: true } }));
    expect(service.emulator.stats().requests).toBe(1);
  });

  it('holds back a lookup that met no answer until the service answers again', async () => {
    store.watchlists.create('Fall');
    store.maps.addRefs('Fall', [{ mapUid: mapUid(1) }, { mapId: mapId(2) }]);
    const client = stubClient({
      getMapsByUid: async () => Promise.reject(new UnreachableError('connection refused')),
      getMapsById: async () => ({ maps: [], notFound: [mapId(2)], invalid: [], rejected: [] }),
    });
    const ctx = phaseContext({ store, client, options: { list: 'Fall' } });
    await mapsPhase.run(ctx);
    // The by-ID lookup answered: the failure before it was a one-off after all, and is said.
    expect(ctx.run.errors).toEqual([{ mapId: null, message: 'connection refused' }]);
    expect(ctx.run.unknownMaps).toEqual([mapId(2)]);
  });

  it("says which lookup failed when the service answered with an error", async () => {
    store.watchlists.create('Fall');
    store.maps.addRefs('Fall', [{ mapUid: mapUid(1) }]);
    const ctx = phaseContext({ store, client: stubClient({ getMapsByUid: async () => Promise.reject(new Error('garbage')) }), options: { list: 'Fall' } });
    await mapsPhase.run(ctx);
    expect(ctx.run.errors).toEqual([{ mapId: null, message: 'could not look up 1 map UID(s): garbage' }]);
  });
});
