import { afterEach, describe, expect, it } from 'vitest';
import { createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { HttpError, InputError } from '../../../src-main/core/nadeo/http/errors.ts';
import { SENTINEL_U32 } from '../../../src-main/core/model.ts';
import { startLocalServer, sendJson, pathOf, queryOf, type LocalServer, type SeenRequest } from './local-server.ts';
import { fastOptions, makeMap, sampleRecord, uuid } from './fixtures.ts';
import type { ServerResponse } from 'node:http';

let server: LocalServer | undefined;
let client: NadeoClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

interface FakeOptions {
  /** Answer 414 from this request-target length on (a stricter proxy). */
  uriLimit?: number;
  /** Route paths that answer a non-API 404. */
  gone?: string[];
  /** IDs (valid UUIDs) this service nevertheless calls invalid. */
  rejectIds?: string[];
}

/** Map info like the service: unknown keys left out, answers in reverse order. */
function fakeMaps(maps: ReturnType<typeof makeMap>[], o: FakeOptions = {}) {
  return (req: SeenRequest, res: ServerResponse) => {
    if (o.uriLimit !== undefined && req.url.length >= o.uriLimit) {
      res.writeHead(414).end('URI Too Long');
      return;
    }
    if (o.gone?.includes(pathOf(req.url))) return sendJson(res, 404, { message: 'No route found' });
    const q = queryOf(req.url);
    const ids = q.get('mapIdList')?.split(',');
    if (ids?.some((id) => o.rejectIds?.includes(id))) {
      return sendJson(res, 400, { code: 'C-AA-00-03', correlation_id: 'ab', message: 'There was a validation error.', info: { mapIdList: 'Invalid uuid.' } });
    }
    const uids = q.get('mapUidList')?.split(',') ?? [];
    sendJson(res, 200, maps.filter((m) => uids.includes(m.mapUid) || ids?.includes(m.mapId)).reverse());
  };
}

const mapList = Array.from({ length: 700 }, (_, i) => makeMap(i));

describe('map lookups', () => {
  it('packs 700 UIDs into the fewest requests, never over the limit, and matches results by key', async () => {
    server = await startLocalServer(fakeMaps(mapList));
    client = createNadeoClient(fastOptions(server.url));
    const wanted = [...mapList.map((m) => m.mapUid), 'UnknownUid123', mapList[0]!.mapUid /* duplicate */];
    const { maps, notFound } = await client.getMapsByUid(wanted);
    expect(maps.map((m) => m.mapUid)).toEqual(mapList.map((m) => m.mapUid));
    expect(notFound).toEqual(['UnknownUid123']);
    const room = 8219 - '/maps/?mapUidList='.length + 1;
    const total = [...new Set(wanted)].reduce((s, k) => s + k.length + 1, 0);
    expect(server.requests).toHaveLength(Math.ceil(total / room));
    for (const r of server.requests) {
      expect(r.url.length).toBeLessThanOrEqual(8219);
      expect(r.url).not.toContain('%2C');
    }
    expect(client.stats().uriTooLong).toBe(0);
  });

  it('reports malformed UIDs as not found without sending them', async () => {
    server = await startLocalServer(fakeMaps(mapList));
    client = createNadeoClient(fastOptions(server.url));
    const { maps, notFound } = await client.getMapsByUid([mapList[1]!.mapUid, 'bad,uid', 'x&y=1']);
    expect(maps).toHaveLength(1);
    expect(notFound).toEqual(['bad,uid', 'x&y=1']);
    expect(server.requests[0]!.url).toBe(`/maps/?mapUidList=${mapList[1]!.mapUid}`);
  });

  it('reports malformed map IDs as invalid and unknown ones as not found; case-insensitive matching', async () => {
    server = await startLocalServer(fakeMaps(mapList));
    client = createNadeoClient(fastOptions(server.url));
    const upper = mapList[2]!.mapId.toUpperCase();
    const { maps, notFound, invalid } = await client.getMapsById([upper, 'not-a-uuid', uuid(999_999, 0xdead)]);
    expect(maps.map((m) => m.mapId)).toEqual([mapList[2]!.mapId]);
    expect(invalid).toEqual(['not-a-uuid']);
    expect(notFound).toEqual([uuid(999_999, 0xdead)]);
    expect(server.requests).toHaveLength(1);
  });

  it('bisects a batch the service rejects, isolating the bad ID and keeping the good ones', async () => {
    const bad = mapList[77]!.mapId;
    server = await startLocalServer(fakeMaps(mapList, { rejectIds: [bad] }));
    client = createNadeoClient(fastOptions(server.url));
    const ids = mapList.slice(0, 150).map((m) => m.mapId);
    const { maps, invalid, notFound } = await client.getMapsById(ids);
    expect(invalid).toEqual([bad]);
    expect(notFound).toEqual([]);
    expect(maps).toHaveLength(149);
    // One failed batch, then about two requests per halving level down to the bad ID.
    expect(server.requests.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(150)));
  });

  it('halves a batch on 414 from a stricter proxy and remembers the lower limit for that route', async () => {
    server = await startLocalServer(fakeMaps(mapList, { uriLimit: 3000 }));
    client = createNadeoClient(fastOptions(server.url));
    const uids = mapList.slice(0, 280).map((m) => m.mapUid);
    const first = await client.getMapsByUid(uids);
    expect(first.maps).toHaveLength(280);
    expect(first.notFound).toEqual([]);
    const after414s = client.stats().uriTooLong;
    expect(after414s).toBeGreaterThan(0);
    const before = server.requests.length;
    const second = await client.getMapsByUid(mapList.slice(300, 580).map((m) => m.mapUid));
    expect(second.maps).toHaveLength(280);
    expect(client.stats().uriTooLong).toBe(after414s);
    for (const r of server.requests.slice(before)) expect(r.url.length).toBeLessThan(3000);
  });

  it('honours a configured lower maxUriLength', async () => {
    server = await startLocalServer(fakeMaps(mapList, { uriLimit: 1001 }));
    client = createNadeoClient({ ...fastOptions(server.url), maxUriLength: 1000 });
    const { maps } = await client.getMapsByUid(mapList.slice(0, 100).map((m) => m.mapUid));
    expect(maps).toHaveLength(100);
    expect(client.stats().uriTooLong).toBe(0);
  });

  it('falls back to the successor route when the seed route is gone, and remembers it', async () => {
    server = await startLocalServer(fakeMaps(mapList, { gone: ['/maps/'] }));
    client = createNadeoClient(fastOptions(server.url));
    const { maps } = await client.getMapsByUid([mapList[0]!.mapUid]);
    expect(maps).toHaveLength(1);
    await client.getMapsByUid([mapList[1]!.mapUid]);
    await client.getMapsById([mapList[1]!.mapId]);
    expect(server.requests.map((r) => pathOf(r.url))).toEqual(['/maps/', '/maps/by-uid/', '/maps/by-uid/', '/maps/', '/maps/by-id/']);
  });

  it('falls back the other way when told to prefer successors that are missing', async () => {
    server = await startLocalServer(fakeMaps(mapList, { gone: ['/maps/by-uid/'] }));
    client = createNadeoClient({ ...fastOptions(server.url), preferSuccessorRoutes: true });
    await client.getMapsByUid([mapList[0]!.mapUid]);
    expect(server.requests.map((r) => pathOf(r.url))).toEqual(['/maps/by-uid/', '/maps/']);
  });

  // Changed with issue 9: the map lookup documents no 404 of its own, so even an API-looking one means the route is gone.
  it('takes any 404 on a map lookup, even with an API-looking body, for a gone route', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 404, { code: 'C-AL-02-03', correlation_id: '1f', message: 'Not Found' }));
    client = createNadeoClient(fastOptions(server.url));
    await expect(client.getMapsByUid(['abc'])).rejects.toMatchObject({ code: 'ROUTE_GONE' });
    expect(server.requests.map((r) => pathOf(r.url))).toEqual(['/maps/', '/maps/by-uid/']);
  });

  it('a saved route choice wins over preferSuccessorRoutes for its family; an unknown saved value is ignored', async () => {
    server = await startLocalServer(fakeMaps(mapList));
    const changes: unknown[] = [];
    client = createNadeoClient({
      ...fastOptions(server.url),
      preferSuccessorRoutes: true,
      routeChoice: { initial: { mapsByUid: 'seed', mapsById: 'sideways' as 'seed' }, onChange: (c) => changes.push(c) },
    });
    await client.getMapsByUid([mapList[0]!.mapUid]);
    await client.getMapsById([mapList[0]!.mapId]);
    expect(server.requests.map((r) => pathOf(r.url))).toEqual(['/maps/', '/maps/by-id/']);
    expect(changes).toEqual([]);
  });

  it('an onChange that throws does not fail the lookup', async () => {
    server = await startLocalServer(fakeMaps(mapList, { gone: ['/maps/'] }));
    client = createNadeoClient({
      ...fastOptions(server.url),
      routeChoice: {
        onChange: () => {
          throw new Error('disk full');
        },
      },
    });
    await expect(client.getMapsByUid([mapList[0]!.mapUid])).resolves.toMatchObject({ maps: [{ mapUid: mapList[0]!.mapUid }] });
  });

  it('fails clearly when every route is gone', async () => {
    server = await startLocalServer(fakeMaps(mapList, { gone: ['/maps/', '/maps/by-uid/'] }));
    client = createNadeoClient(fastOptions(server.url));
    await expect(client.getMapsByUid(['abc'])).rejects.toMatchObject({ code: 'ROUTE_GONE' });
    expect(server.requests).toHaveLength(2);
  });
});

describe('records', () => {
  const race = makeMap(1);
  const accounts = Array.from({ length: 500 }, (_, i) => uuid(i, 0xacc));

  function fakeRecords(o: FakeOptions & { badAccounts?: string[] } = {}) {
    return (req: SeenRequest, res: ServerResponse) => {
      if (o.gone?.includes(pathOf(req.url))) return sendJson(res, 404, { message: 'No route found' });
      const q = queryOf(req.url);
      const list = q.get('accountIdList')!.split(',');
      if (list.some((a) => o.badAccounts?.includes(a))) {
        return sendJson(res, 400, { code: 'C-AA-00-03', correlation_id: 'ab', message: 'There was a validation error.', info: ['accountIdList: Invalid account id.'] });
      }
      const records = list.map((a, i) => ({
        ...sampleRecord(i),
        accountId: a,
        // One record ID per account, across batches too (a shared one is refused).
        mapRecordId: `5ec${a.slice(3)}`,
        mapId: q.get('mapId')!,
        gameMode: q.get('gameMode')!,
        scopeId: q.get('seasonId'),
        recordScore: { time: i === 0 ? SENTINEL_U32 : 30_000 + i, score: 0, respawnCount: i === 1 ? SENTINEL_U32 : 2 },
      }));
      sendJson(res, 200, records.reverse());
    };
  }

  it('always sends the derived gameMode, omits seasonId for personal bests, and packs accounts by length', async () => {
    server = await startLocalServer(fakeRecords());
    client = createNadeoClient(fastOptions(server.url));
    const { records, invalidAccounts } = await client.getRecords({ ...race, hasClones: true }, accounts);
    expect(records.map((r) => r.accountId)).toEqual(accounts);
    expect(invalidAccounts).toEqual([]);
    const fixed = `/v2/mapRecords/?accountIdList=&mapId=${race.mapId}&gameMode=TimeAttackClone`.length;
    expect(server.requests).toHaveLength(Math.ceil((500 * 37) / (8219 - fixed + 1)));
    for (const r of server.requests) {
      const q = queryOf(r.url);
      expect(q.get('gameMode')).toBe('TimeAttackClone');
      expect(q.has('seasonId')).toBe(false);
      expect(r.url.length).toBeLessThanOrEqual(8219);
    }
  });

  it('turns sentinels into meaning', async () => {
    server = await startLocalServer(fakeRecords());
    client = createNadeoClient(fastOptions(server.url));
    const { records } = await client.getRecords(race, accounts.slice(0, 3));
    const first = records.find((r) => r.accountId === accounts[0])!;
    expect(first).toMatchObject({ hidden: true, time: null });
    expect(records.find((r) => r.accountId === accounts[1])).toMatchObject({ hidden: false, respawnCount: null });
  });

  it('sends a season and TimeAttack for a map with clones when a season is read', async () => {
    server = await startLocalServer(fakeRecords());
    client = createNadeoClient(fastOptions(server.url));
    const seasonId = uuid(3, 0x5ea);
    await client.getRecords({ ...race, hasClones: true }, accounts.slice(0, 2), { seasonId });
    const q = queryOf(server.requests[0]!.url);
    expect(q.get('seasonId')).toBe(seasonId);
    expect(q.get('gameMode')).toBe('TimeAttack');
  });

  it('rejects Personal_Best and a malformed map ID before any request', async () => {
    server = await startLocalServer(fakeRecords());
    client = createNadeoClient(fastOptions(server.url));
    await expect(client.getRecords(race, accounts.slice(0, 1), { seasonId: 'Personal_Best' })).rejects.toBeInstanceOf(InputError);
    await expect(client.getRecords({ ...race, mapId: race.mapUid }, accounts.slice(0, 1))).rejects.toThrow(/not a map ID/);
    expect(server.requests).toHaveLength(0);
  });

  it('reports malformed accounts by name and isolates one the service rejects', async () => {
    const rejected = accounts[41]!;
    server = await startLocalServer(fakeRecords({ badAccounts: [rejected] }));
    client = createNadeoClient(fastOptions(server.url));
    const { records, invalidAccounts } = await client.getRecords(race, [...accounts.slice(0, 100), 'nobody']);
    expect(invalidAccounts.sort()).toEqual(['nobody', rejected].sort());
    expect(records).toHaveLength(99);
  });

  it('a map not found (wrong mode) is a NOT_FOUND HttpError naming the game mode', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 404, { code: 'C-AL-02-03', correlation_id: '1', message: 'Not Found' }));
    client = createNadeoClient(fastOptions(server.url));
    const error = await client.getRecords({ ...race, mapType: 'TrackMania\\TM_Stunt' }, accounts.slice(0, 1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((error as Error).message).toContain('Stunt');
  });

  it('falls back to /v2/mapRecords/by-account/', async () => {
    server = await startLocalServer(fakeRecords({ gone: ['/v2/mapRecords/'] }));
    client = createNadeoClient(fastOptions(server.url));
    const { records } = await client.getRecords(race, accounts.slice(0, 2));
    expect(records).toHaveLength(2);
    expect(server.requests.map((r) => pathOf(r.url))).toEqual(['/v2/mapRecords/', '/v2/mapRecords/by-account/']);
  });
});
