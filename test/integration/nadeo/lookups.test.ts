import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, generateDataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { startProxy, testClientOptions } from './helpers.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 1, maps: 1000, players: 3 }) });
});
afterAll(async () => {
  await emu.close();
});

async function withClient<T>(baseUrl: string, fn: (c: NadeoClient) => Promise<T>, extra = {}): Promise<T> {
  const client = createNadeoClient(testClientOptions(baseUrl, extra));
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('map lookups against the emulator', () => {
  it('looks up 1,000 UIDs in the fewest requests the URI limit allows, with no 414, reporting unknown UIDs', async () => {
    emu.resetStats();
    const uids = emu.dataset.maps.map((m) => m.mapUid);
    const unknown = ['ThisUidDoesNotExist000000', 'NeitherDoesThisOne11111111'];
    const { maps, notFound, rejected } = await withClient(emu.url, (c) => c.getMapsByUid([...unknown, ...uids]));
    expect(maps.map((m) => m.mapUid)).toEqual(uids);
    expect(notFound).toEqual(unknown);
    expect(rejected).toEqual([]); // every generated map passes the value checks
    const first = emu.dataset.maps[0]!;
    expect(maps[0]).toMatchObject({ mapId: first.mapId, name: first.name, mapType: first.mapType, hasClones: first.hasClones, authorScore: first.authorScore });
    const stats = emu.stats();
    expect(stats.uriTooLong).toBe(0);
    expect(stats.maxUriLength).toBeLessThanOrEqual(8219);
    const prefix = '/maps/?mapUidList='.length;
    const total = [...unknown, ...uids].reduce((s, k) => s + k.length + 1, 0);
    expect(stats.requests).toBe(Math.ceil(total / (8219 - prefix + 1)));
  });

  it('looks up 1,000 map IDs: invalid ones by name, unknown ones as not found, nothing lost', async () => {
    emu.resetStats();
    const ids = emu.dataset.maps.map((m) => m.mapId);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const { maps, notFound, invalid } = await withClient(emu.url, (c) => c.getMapsById([...ids, 'not-a-map-id', unknown]));
    expect(maps).toHaveLength(1000);
    expect(invalid).toEqual(['not-a-map-id']);
    expect(notFound).toEqual([unknown]);
    expect(emu.stats().uriTooLong).toBe(0);
    expect(emu.stats().byStatus['400']).toBeUndefined();
  });

  it('splits a batch the service rejects and keeps the good IDs', async () => {
    const ids = emu.dataset.maps.slice(0, 300).map((m) => m.mapId);
    const poisoned = ids[123]!;
    // The proxy turns one well-formed ID into a malformed one, so the emulator answers its real validation error.
    const proxy = await startProxy(emu.url, { rewrite: (t) => t.replace(poisoned, 'zzzzzzzz-not-a-uuid') });
    try {
      const { maps, invalid, notFound } = await withClient(proxy.url, (c) => c.getMapsById(ids));
      expect(invalid).toEqual([poisoned]);
      expect(notFound).toEqual([]);
      expect(maps).toHaveLength(299);
      expect(proxy.seen.length).toBeLessThanOrEqual(2 + 2 * Math.ceil(Math.log2(300)));
    } finally {
      await proxy.close();
    }
  });

  it('halves batches on a 414 from a stricter proxy, then packs for its limit', async () => {
    const proxy = await startProxy(emu.url, { maxUriLength: 2500 });
    try {
      await withClient(proxy.url, async (c) => {
        const uids = emu.dataset.maps.map((m) => m.mapUid);
        const first = await c.getMapsByUid(uids.slice(0, 500));
        expect(first.maps).toHaveLength(500);
        expect(first.notFound).toEqual([]);
        const seen414 = proxy.uriTooLong;
        expect(seen414).toBeGreaterThan(0);
        expect(c.stats().uriTooLong).toBe(seen414);
        const second = await c.getMapsByUid(uids.slice(500));
        expect(second.maps).toHaveLength(500);
        expect(proxy.uriTooLong).toBe(seen414);
      });
    } finally {
      await proxy.close();
    }
  });
});

describe('successor routes', () => {
  it('falls back from the seed routes when they are gone, and remembers it', async () => {
    const modern = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 3, maps: 30, players: 4 }), withoutDeprecatedRoutes: true });
    try {
      await withClient(modern.url, async (c) => {
        const maps = modern.dataset.maps;
        expect((await c.getMapsByUid(maps.map((m) => m.mapUid))).maps).toHaveLength(30);
        expect((await c.getMapsByUid([maps[0]!.mapUid])).maps).toHaveLength(1);
        expect((await c.getMapsById(maps.map((m) => m.mapId))).maps).toHaveLength(30);
        const { records } = await c.getRecords(maps[0]!, Object.keys(modern.dataset.displayNames!));
        expect(records.length).toBeGreaterThan(0);
        await c.getRecords(maps[5]!, Object.keys(modern.dataset.displayNames!));
      });
      const byRoute = modern.stats().byRoute;
      // One failed try per seed route in the client's lifetime.
      expect(byRoute['GET /maps/']).toBe(2); // one for UIDs, one for IDs
      expect(byRoute['GET /v2/mapRecords/']).toBe(1);
      expect(byRoute['GET /maps/by-uid/']).toBe(2);
      expect(byRoute['GET /maps/by-id/']).toBe(1);
      expect(byRoute['GET /v2/mapRecords/by-account/']).toBe(2);
    } finally {
      await modern.close();
    }
  });

  it('handles /maps/by-id/ dropping a rejected ID silently (reported as not found)', async () => {
    const modern = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 3, maps: 30, players: 4 }), withoutDeprecatedRoutes: true, byIdDropsInvalid: true });
    const ids = modern.dataset.maps.map((m) => m.mapId);
    const proxy = await startProxy(modern.url, { rewrite: (t) => t.replace(ids[7]!, 'zzzzzzzz-not-a-uuid') });
    try {
      const { maps, notFound, invalid } = await withClient(proxy.url, (c) => c.getMapsById(ids));
      expect(maps).toHaveLength(29);
      expect(notFound).toEqual([ids[7]]);
      expect(invalid).toEqual([]);
    } finally {
      await proxy.close();
      await modern.close();
    }
  });
});
