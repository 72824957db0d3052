// Files (replays, map files, thumbnails), both replay URL forms, the live dataset and evolve.
import { describe, expect, it } from 'vitest';
import { generateDataset, replayBytesFor, type DatasetRecord } from '../../../src-main/emulator/index.ts';
import { startTestEmulator, useEmulator } from '../../helpers/emulator.ts';
import { accountsOf, get, mapsByKind, recordsUrl, type WireMap, type WireRecord } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 9, maps: 8, players: 16 });
const emulator = useEmulator({ dataset });
const kinds = mapsByKind(dataset);
const accounts = accountsOf(dataset);

async function personalBests(mapId: string, gameMode?: string): Promise<WireRecord[]> {
  const reply = await get(recordsUrl(emulator().url, { accountIdList: accounts.join(','), mapId, gameMode }));
  return reply.json<WireRecord[]>();
}

function stored(mapRecordId: string): DatasetRecord {
  const record = emulator().dataset.records.find((r) => r.mapRecordId === mapRecordId);
  if (!record) throw new Error(`no record ${mapRecordId}`);
  return record;
}

describe('files', () => {
  it('2.2 url: both replay forms occur ({base_url}/mapRecords/<id>/replay and {storage_url}/storageObjects/<uuid>) and both download', async () => {
    const served = [...(await personalBests(kinds.race.mapId)), ...(await personalBests(kinds.platform.mapId, 'Platform'))];
    const base = emulator().url;
    const recordForm = served.find((r) => r.url === `${base}/mapRecords/${r.mapRecordId}/replay`);
    const storageForm = served.find((r) => /\/storageObjects\/[0-9a-f-]{36}$/.test(r.url));
    expect(recordForm).toBeDefined();
    expect(storageForm).toBeDefined();
    for (const record of [recordForm, storageForm]) {
      const reply = await get(record?.url ?? '');
      expect(reply.status).toBe(200);
      expect(reply.body.subarray(0, 3).toString('latin1')).toBe('GBX');
      expect(reply.body.equals(replayBytesFor(stored(record?.mapRecordId ?? ''), emulator().dataset))).toBe(true);
      expect(reply.headers['content-length']).toBe(String(reply.body.length));
    }
  });

  it('2.2 url: every record can also be fetched by /mapRecords/<mapRecordId>/replay', async () => {
    const [record] = await personalBests(kinds.race.mapId);
    const reply = await get(`${emulator().url}/mapRecords/${record?.mapRecordId}/replay`);
    expect(reply.status).toBe(200);
    expect(reply.body.length).toBeGreaterThan(1000);
  });

  it('2.1 fileUrl: the map file downloads as a GBX file with Content-Length', async () => {
    const [map] = (await get(`${emulator().url}/maps/?mapIdList=${kinds.race.mapId}`)).json<WireMap[]>();
    const reply = await get(map?.fileUrl ?? '');
    expect(reply.status).toBe(200);
    expect(reply.body.subarray(0, 3).toString('latin1')).toBe('GBX');
    expect(reply.headers['content-length']).toBe(String(reply.body.length));
  });

  it('2.1 thumbnailUrl: the thumbnail is a real JPEG image', async () => {
    const [map] = (await get(`${emulator().url}/maps/?mapIdList=${kinds.race.mapId}`)).json<WireMap[]>();
    const reply = await get(map?.thumbnailUrl ?? '');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('image/jpeg');
    // JPEG starts with SOI (FF D8 FF) and ends with EOI (FF D9).
    expect([...reply.body.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...reply.body.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it('docs/nadeo-api.md successor map info: /maps/by-id/ and /maps/by-uid/ give fileUrl {base}/maps/<mapId>/file and thumbnailUrl {base}/maps/<mapId>/thumbnail.jpg; /maps/ keeps the storage objects', async () => {
    const base = emulator().url;
    const byId = (await get(`${base}/maps/by-id/?mapIdList=${kinds.race.mapId}`)).json<WireMap[]>();
    const byUid = (await get(`${base}/maps/by-uid/?mapUidList=${kinds.race.mapUid}`)).json<WireMap[]>();
    for (const [map] of [byId, byUid]) {
      expect(map?.fileUrl).toBe(`${base}/maps/${kinds.race.mapId}/file`);
      expect(map?.thumbnailUrl).toBe(`${base}/maps/${kinds.race.mapId}/thumbnail.jpg`);
    }
    const [seed] = (await get(`${base}/maps/?mapIdList=${kinds.race.mapId}`)).json<WireMap[]>();
    expect(seed?.fileUrl).toMatch(new RegExp(`^${base}/storageObjects/[0-9a-f-]{36}$`));
    expect(seed?.thumbnailUrl).toMatch(new RegExp(`^${base}/storageObjects/[0-9a-f-]{36}\\.jpg$`));
  });

  it('docs/nadeo-api.md successor map info: the file and thumbnail addresses answer 302 to the stored object, which downloads', async () => {
    const base = emulator().url;
    const [seed] = (await get(`${base}/maps/?mapIdList=${kinds.stunt.mapId}`)).json<WireMap[]>();
    const [successor] = (await get(`${base}/maps/by-id/?mapIdList=${kinds.stunt.mapId}`)).json<WireMap[]>();
    const file = await get(successor?.fileUrl ?? '');
    expect(file.status).toBe(302);
    expect(file.headers.location).toBe(seed?.fileUrl);
    const bytes = await get(String(file.headers.location));
    expect(bytes.body.subarray(0, 3).toString('latin1')).toBe('GBX');
    const thumbnail = await get(successor?.thumbnailUrl ?? '');
    expect(thumbnail.status).toBe(302);
    expect(thumbnail.headers.location).toBe(seed?.thumbnailUrl);
    expect((await get(String(thumbnail.headers.location))).headers['content-type']).toBe('image/jpeg');
    // Upper-case IDs name the same map; an unknown or malformed one is 404.
    expect((await get(`${base}/maps/${kinds.stunt.mapId.toUpperCase()}/file`)).headers.location).toBe(seed?.fileUrl);
    expect((await get(`${base}/maps/00000000-0000-4000-8000-000000000000/file`)).status).toBe(404);
    expect((await get(`${base}/maps/not-a-map/thumbnail.jpg`)).status).toBe(404);
  });

  it('docs/nadeo-api.md successor map info: a dataset map file stored elsewhere is where the redirect points', async () => {
    const own = generateDataset({ now: DATA_NOW, seed: 2, maps: 6, players: 3 });
    const map = mapsByKind(own).race;
    map.fileUrl = 'https://core.trackmania.nadeo.live/storageObjects/11111111-2222-4333-8444-555555555555';
    const emu = await startTestEmulator({ dataset: own });
    try {
      const moved = await get(`${emu.url}/maps/${map.mapId}/file`);
      expect(moved.status).toBe(302);
      expect(moved.headers.location).toBe(map.fileUrl);
      expect(emu.stats().byRoute['GET /maps/:mapId/file']).toBe(1);
    } finally {
      await emu.close();
    }
  });

  it('files: an unknown storage object or record answers 404', async () => {
    expect((await get(`${emulator().url}/storageObjects/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await get(`${emulator().url}/mapRecords/00000000-0000-4000-8000-000000000000/replay`)).status).toBe(404);
  });

  it('files: replayBase64 in the dataset is served byte for byte', async () => {
    const own = generateDataset({ now: DATA_NOW, seed: 2, maps: 6, players: 3 });
    const record = own.records.find((r) => r.mapId === mapsByKind(own).race.mapId);
    if (!record) throw new Error('no record');
    record.replayBase64 = Buffer.from('GBX custom replay bytes').toString('base64');
    const emu = await startTestEmulator({ dataset: own });
    try {
      const reply = await get(`${emu.url}/mapRecords/${record.mapRecordId}/replay`);
      expect(reply.body.toString()).toBe('GBX custom replay bytes');
    } finally {
      await emu.close();
    }
  });
});

describe('the live dataset', () => {
  it('changes to the dataset are served: an edited time, a pushed record, a removed record', async () => {
    const live = await startTestEmulator({ seed: 21, maps: 6, players: 6 });
    try {
      const race = mapsByKind(live.dataset).race;
      const ask = async (): Promise<WireRecord[]> =>
        (await get(recordsUrl(live.url, { accountIdList: accountsOf(live.dataset).join(','), mapId: race.mapId }))).json<WireRecord[]>();
      const first = live.dataset.records.find((r) => r.mapId === race.mapId);
      if (!first) throw new Error('no record');
      first.recordScore.time = 12345;
      expect((await ask()).find((r) => r.mapRecordId === first.mapRecordId)?.recordScore.time).toBe(12345);
      const before = (await ask()).length;
      const index = live.dataset.records.indexOf(first);
      live.dataset.records.splice(index, 1);
      expect((await ask()).length).toBe(before - 1);
      live.dataset.records.push(first);
      expect((await ask()).length).toBe(before);
    } finally {
      await live.close();
    }
  });

  it('evolve: improves about the given share of personal bests with a new ID, a later timestamp, a better result and new replay bytes', async () => {
    const live = await startTestEmulator({ seed: 22, maps: 8, players: 10 });
    try {
      const before = new Map(live.dataset.records.filter((r) => r.scopeType === 'PersonalBest').map((r) => [`${r.mapId}|${r.accountId}`, structuredClone(r)]));
      const oldBytes = new Map([...before.values()].map((r) => [r.mapRecordId, replayBytesFor(r, live.dataset)]));
      const { improved, added } = live.evolve({ seed: 1, fraction: 0.3 });
      expect(improved).toBeGreaterThan(0);
      expect(improved).toBeLessThan(before.size);
      expect(added).toBeGreaterThan(0);
      const changed = live.dataset.records.filter((r) => {
        const old = before.get(`${r.mapId}|${r.accountId}`);
        return r.scopeType === 'PersonalBest' && old && old.mapRecordId !== r.mapRecordId;
      });
      expect(changed).toHaveLength(improved);
      const stuntMaps = new Set(live.dataset.maps.filter((m) => m.mapType.endsWith('TM_Stunt')).map((m) => m.mapId));
      for (const record of changed) {
        const old = before.get(`${record.mapId}|${record.accountId}`);
        if (!old) throw new Error('lost');
        expect(Date.parse(record.timestamp)).toBeGreaterThan(Date.parse(old.timestamp));
        if (stuntMaps.has(record.mapId)) expect(record.recordScore.score).toBeGreaterThan(old.recordScore.score);
        else expect(record.recordScore.time).toBeLessThan(old.recordScore.time);
        expect(replayBytesFor(record, live.dataset).equals(oldBytes.get(old.mapRecordId) ?? Buffer.alloc(0))).toBe(false);
        // The new record and its replay are served; the old replay is gone.
        const replay = await get(`${live.url}/mapRecords/${record.mapRecordId}/replay`);
        const hidden = live.dataset.maps.find((m) => m.mapId === record.mapId)?.secretThreshold !== undefined;
        if (!hidden) expect(replay.body.equals(replayBytesFor(record, live.dataset))).toBe(true);
        expect((await get(`${live.url}/mapRecords/${old.mapRecordId}/replay`)).status).toBe(404);
      }
    } finally {
      await live.close();
    }
  });
});

describe('evolve with rivals (issue 11: a few rivals improve between two syncs)', () => {
  it('issue 11: after evolve({ rivals: 3, except: [me] }) the served leaderboards change for exactly three players, never for me', async () => {
    const live = await startTestEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 2026, maps: 24, players: 12, style: 'season' }) });
    try {
      const everyone = accountsOf(live.dataset);
      const me = everyone[0] ?? '';
      const served = async (): Promise<Map<string, string>> => {
        const ids = new Map<string, string>();
        for (const map of live.dataset.maps) {
          const gameMode = map.mapType.endsWith('TM_Stunt') ? 'Stunt' : map.mapType.endsWith('TM_Platform') ? 'Platform' : map.hasClones ? 'TimeAttackClone' : undefined;
          const reply = await get(recordsUrl(live.url, { accountIdList: everyone.join(','), mapId: map.mapId, gameMode }));
          for (const r of reply.json<WireRecord[]>()) ids.set(`${map.mapId}|${r.accountId}`, r.mapRecordId);
        }
        return ids;
      };
      const before = await served();
      const { improved, added } = live.evolve({ seed: 2027, fraction: 0.3, rivals: 3, except: [me] });
      const after = await served();
      const moved = [...after].filter(([key, id]) => before.get(key) !== id).map(([key]) => key.split('|')[1]);
      expect(moved).toHaveLength(improved + added);
      expect(new Set(moved).size).toBe(3);
      expect(moved).not.toContain(me);
    } finally {
      await live.close();
    }
  });
});

