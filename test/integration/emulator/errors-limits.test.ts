// Seed 7 (errors), 8 (limits) and 9 (versioning: deprecated routes and their successors), over real HTTP.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { startTestEmulator, useEmulator } from '../../helpers/emulator.ts';
import { accountsOf, get, mapsByKind, recordsOf, recordsUrl, unknownUuid, type ApiErrorBody, type WireMap, type WireRecord } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 3, maps: 8, players: 12 });
const emulator = useEmulator({ dataset });
const kinds = mapsByKind(dataset);
const accounts = accountsOf(dataset);

/** A URI of exactly `length` characters on the given route, padded inside a list parameter. */
function uriOfLength(prefix: string, length: number): string {
  const pad = length - prefix.length;
  if (pad < 0) throw new Error('prefix longer than the length asked');
  return prefix + 'A'.repeat(pad);
}

describe('7 errors', () => {
  it('7: an error body has exactly code, correlation_id (hex), message, and info only on validation errors', async () => {
    const validation = (await get(`${emulator().url}/maps/?mapIdList=x`)).json<Record<string, unknown>>();
    expect(Object.keys(validation).sort()).toEqual(['code', 'correlation_id', 'info', 'message']);
    const notFound = (await get(recordsUrl(emulator().url, { accountIdList: accounts[0], mapId: unknownUuid(1) }))).json<Record<string, unknown>>();
    expect(Object.keys(notFound).sort()).toEqual(['code', 'correlation_id', 'message']);
    expect(notFound.correlation_id).toMatch(/^[0-9a-f]{16,}$/);
  });

  it('7: correlation_id is fresh for every answer', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add((await get(`${emulator().url}/maps/?mapIdList=x`)).json<ApiErrorBody>().correlation_id);
    expect(ids.size).toBe(3);
  });

  it('7.1: all three validation conditions have code C-AA-00-03 and the seed message, HTTP 400', async () => {
    const replies = [
      await get(`${emulator().url}/maps/?mapIdList=bad`),
      await get(recordsUrl(emulator().url, { accountIdList: accounts[0], mapId: 'bad' })),
      await get(recordsUrl(emulator().url, { accountIdList: 'bad', mapId: kinds.race.mapId })),
    ];
    const bodies = replies.map((r) => r.json<ApiErrorBody>());
    expect(replies.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(bodies.map((b) => [b.code, b.message])).toEqual(Array(3).fill(['C-AA-00-03', 'There was a validation error.']));
    expect(bodies.map((b) => b.info)).toEqual([{ mapIdList: 'Invalid uuid.' }, ['mapId: Invalid uuid.'], ['accountIdList: Invalid account id.']]);
  });

  it('7.1: an invalid mapId and an invalid account ID together list both info entries', async () => {
    const body = (await get(recordsUrl(emulator().url, { accountIdList: 'bad', mapId: 'bad' }))).json<ApiErrorBody>();
    expect(body.info).toEqual(['mapId: Invalid uuid.', 'accountIdList: Invalid account id.']);
  });

  it('7.2: records lookup of a map that cannot be found (or wrong gameMode) is C-AL-02-03 "Not Found" without info, HTTP 404', async () => {
    for (const params of [{ mapId: unknownUuid(2) }, { mapId: kinds.stunt.mapId }, { mapId: kinds.platform.mapId, gameMode: 'Stunt' }]) {
      const reply = await get(recordsUrl(emulator().url, { accountIdList: accounts.join(','), ...params }));
      expect(reply.status).toBe(404);
      const body = reply.json<ApiErrorBody>();
      expect(body).toEqual({ code: 'C-AL-02-03', correlation_id: expect.stringMatching(/^[0-9a-f]+$/), message: 'Not Found' });
    }
  });

  it('7.3: a URI of 8220 characters gets 414; 8219 does not (map info lookup)', async () => {
    const prefix = '/maps/?mapUidList=';
    const ok = await get(emulator().url + uriOfLength(prefix, 8219));
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual([]);
    expect((await get(emulator().url + uriOfLength(prefix, 8220))).status).toBe(414);
  });

  it('7.3: a URI of 8220 characters gets 414; 8219 does not (records lookup)', async () => {
    const prefix = `/v2/mapRecords/?mapId=${kinds.race.mapId}&accountIdList=${accounts.join(',')}&gameMode=TimeAttack&x=`;
    expect((await get(emulator().url + uriOfLength(prefix, 8219))).status).toBe(200);
    expect((await get(emulator().url + uriOfLength(prefix, 8220))).status).toBe(414);
  });

  it('7.3: the 414 applies on every route, and stats count it with the longest URI seen', async () => {
    emulator().resetStats();
    expect((await get(emulator().url + uriOfLength('/storageObjects/x?y=', 8220))).status).toBe(414);
    expect((await get(emulator().url + uriOfLength('/v2/mapRecords/by-account/?x=', 9000))).status).toBe(414);
    const stats = emulator().stats();
    expect(stats.uriTooLong).toBe(2);
    expect(stats.maxUriLength).toBe(9000);
    expect(stats.byStatus['414']).toBe(2);
  });

  it('7.3: a replay url of a secret-threshold entry answers 403', async () => {
    const hidden = recordsOf(dataset, kinds.secret.mapId).find((r) => r.recordScore.time < (kinds.secret.secretThreshold ?? 0));
    const [served] = (await get(recordsUrl(emulator().url, { accountIdList: hidden?.accountId, mapId: kinds.secret.mapId }))).json<WireRecord[]>();
    expect((await get(served?.url ?? '')).status).toBe(403);
  });
});

describe('8 limits', () => {
  it('8: just over 200 map IDs reach the URI limit (414), 200 do not', async () => {
    const many = await startTestEmulator({ seed: 4, maps: 230, players: 1 });
    try {
      const ids = many.dataset.maps.map((m) => m.mapId);
      expect((await get(`${many.url}/maps/?mapIdList=${ids.slice(0, 200).join(',')}`)).json<WireMap[]>()).toHaveLength(200);
      expect((await get(`${many.url}/maps/?mapIdList=${ids.slice(0, 225).join(',')}`)).status).toBe(414);
    } finally {
      await many.close();
    }
  });

  it('8: one map and just above 200 accounts reach the URI limit; 200 accounts are fine', async () => {
    const ids = (n: number): string => [...accounts, ...Array.from({ length: n - accounts.length }, (_, i) => unknownUuid(i + 100))].join(',');
    const ok = await get(recordsUrl(emulator().url, { accountIdList: ids(200), mapId: kinds.race.mapId, gameMode: 'TimeAttack' }));
    expect(ok.status).toBe(200);
    expect(ok.json<WireRecord[]>()).toHaveLength(recordsOf(dataset, kinds.race.mapId).length);
    expect((await get(recordsUrl(emulator().url, { accountIdList: ids(225), mapId: kinds.race.mapId }))).status).toBe(414);
  });

  it('8: an observed 37,000-character request still gets 414, not a server header error', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => unknownUuid(i)).join(',');
    const reply = await get(recordsUrl(emulator().url, { accountIdList: ids, mapId: kinds.race.mapId }));
    expect(reply.status).toBe(414);
  });
});

describe('9 versioning: deprecated routes and their successors', () => {
  it('9: the successors take the same parameters and give the same bodies (but for the file addresses, docs/nadeo-api.md)', async () => {
    const base = emulator().url;
    // The successors' fileUrl and thumbnailUrl are {base}/maps/<mapId>/... addresses; every other field is the same.
    const withoutFiles = (maps: WireMap[]): unknown[] => maps.map(({ fileUrl: _, thumbnailUrl: __, ...rest }) => rest);
    const idsQuery = `mapIdList=${kinds.race.mapId},${kinds.stunt.mapId}`;
    const seedMaps = (await get(`${base}/maps/?${idsQuery}`)).json<WireMap[]>();
    expect(seedMaps).toHaveLength(2);
    expect(withoutFiles((await get(`${base}/maps/by-id/?${idsQuery}`)).json<WireMap[]>())).toEqual(withoutFiles(seedMaps));
    const uidsQuery = `mapUidList=${kinds.race.mapUid},nope`;
    expect(withoutFiles((await get(`${base}/maps/by-uid/?${uidsQuery}`)).json<WireMap[]>())).toEqual(withoutFiles((await get(`${base}/maps/?${uidsQuery}`)).json<WireMap[]>()));
    const params = { accountIdList: accounts.join(','), mapId: kinds.clones.mapId, gameMode: 'TimeAttackClone' };
    const seed = (await get(recordsUrl(base, params))).json<WireRecord[]>();
    expect(seed.length).toBeGreaterThan(0);
    expect((await get(recordsUrl(base, params, '/v2/mapRecords/by-account/'))).json()).toEqual(seed);
    const invalid = await get(recordsUrl(base, { ...params, mapId: 'x' }, '/v2/mapRecords/by-account/'));
    expect([invalid.status, invalid.json<ApiErrorBody>().info]).toEqual([400, ['mapId: Invalid uuid.']]);
  });

  it('9: /maps/by-id/ answers the validation error for an invalid ID by default', async () => {
    const reply = await get(`${emulator().url}/maps/by-id/?mapIdList=${kinds.race.mapId},bad`);
    expect(reply.status).toBe(400);
    expect(reply.json<ApiErrorBody>().info).toEqual({ mapIdList: 'Invalid uuid.' });
  });

  it('9: with byIdDropsInvalid, /maps/by-id/ drops invalid IDs silently; /maps/ still validates', async () => {
    const lenient = await startTestEmulator({ dataset, byIdDropsInvalid: true });
    try {
      const reply = await get(`${lenient.url}/maps/by-id/?mapIdList=${kinds.race.mapId},bad`);
      expect(reply.status).toBe(200);
      expect(reply.json<WireMap[]>().map((m) => m.mapId)).toEqual([kinds.race.mapId]);
      expect((await get(`${lenient.url}/maps/?mapIdList=${kinds.race.mapId},bad`)).status).toBe(400);
    } finally {
      await lenient.close();
    }
  });

  it('9: withoutDeprecatedRoutes, the seed routes answer 404 with a body that is not an API error; successors work', async () => {
    const removed = await startTestEmulator({ dataset, withoutDeprecatedRoutes: true });
    try {
      for (const path of [`/maps/?mapIdList=${kinds.race.mapId}`, `/v2/mapRecords/?accountIdList=${accounts[0]}&mapId=${kinds.race.mapId}`]) {
        const reply = await get(removed.url + path);
        expect(reply.status).toBe(404);
        expect(reply.json()).not.toHaveProperty('code');
      }
      expect((await get(`${removed.url}/maps/by-id/?mapIdList=${kinds.race.mapId}`)).json<WireMap[]>()).toHaveLength(1);
      expect((await get(`${removed.url}/v2/mapRecords/by-account/?accountIdList=${accounts.join(',')}&mapId=${kinds.race.mapId}`)).status).toBe(200);
    } finally {
      await removed.close();
    }
  });

  it('9: an unknown route answers the same non-API 404', async () => {
    const reply = await get(`${emulator().url}/v3/nothing`);
    expect(reply.status).toBe(404);
    expect(reply.json()).toEqual({ message: 'No route found' });
  });
});
