// Seed 2.1 (map info object) and 4.1 (map info lookup), over real HTTP.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { useEmulator } from '../../helpers/emulator.ts';
import { get, mapsByKind, SEASON_NOW, unknownUuid, type ApiErrorBody, type WireMap } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: 220, players: 2 });
const emulator = useEmulator({ dataset });
const [first, second, third] = dataset.maps;
if (!first || !second || !third) throw new Error('dataset too small');

const MAP_FIELDS = [
  'author', 'authorScore', 'bronzeScore', 'collectionName', 'createdWithGamepadEditor', 'createdWithSimpleEditor', 'fileUrl',
  'filename', 'goldScore', 'hasClones', 'isPlayable', 'mapId', 'mapStyle', 'mapType', 'mapUid', 'name', 'silverScore',
  'submitter', 'thumbnailUrl', 'timestamp',
].sort();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function mapsById(ids: string[]): Promise<WireMap[]> {
  const reply = await get(`${emulator().url}/maps/?mapIdList=${ids.join(',')}`);
  expect(reply.status).toBe(200);
  return reply.json<WireMap[]>();
}

describe('2.1 map info object', () => {
  it('2.1: a map info object has exactly the seed fields, with their types', async () => {
    const [map] = await mapsById([first.mapId]);
    expect(Object.keys(map ?? {}).sort()).toEqual(MAP_FIELDS);
    expect(map).toMatchObject({ mapId: first.mapId, mapUid: first.mapUid, name: first.name, author: first.author });
    expect(map?.author).toMatch(UUID);
    expect(map?.submitter).toMatch(UUID);
    expect(map?.mapUid).toMatch(/^[A-Za-z0-9]{24,27}$/);
    for (const score of ['authorScore', 'goldScore', 'silverScore', 'bronzeScore'] as const) expect(Number.isInteger(map?.[score])).toBe(true);
    for (const flag of ['createdWithGamepadEditor', 'createdWithSimpleEditor', 'hasClones', 'isPlayable'] as const) expect(typeof map?.[flag]).toBe('boolean');
    expect(map?.filename).toMatch(/\.Map\.Gbx$/);
    expect(map?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
  });

  it('2.1: fileUrl is {storage_url}/storageObjects/<id> and thumbnailUrl the same form ending .jpg', async () => {
    const [map] = await mapsById([first.mapId]);
    expect(map?.fileUrl).toMatch(new RegExp(`^${emulator().url}/storageObjects/[0-9a-f-]{36}$`));
    expect(map?.thumbnailUrl).toMatch(new RegExp(`^${emulator().url}/storageObjects/[0-9a-f-]{36}\\.jpg$`));
  });

  it('2.1: mapType is <prefix>\\TM_Race, TM_Stunt or TM_Platform with one backslash; secretThreshold stays private', async () => {
    const kinds = mapsByKind(dataset);
    const maps = await mapsById([kinds.race.mapId, kinds.stunt.mapId, kinds.platform.mapId, kinds.secret.mapId]);
    expect(maps.map((m) => m.mapType).sort()).toEqual(['TrackMania\\TM_Platform', 'TrackMania\\TM_Race', 'TrackMania\\TM_Race', 'TrackMania\\TM_Stunt']);
    for (const map of maps) expect(map.mapType.split('\\')).toHaveLength(2);
    for (const map of maps) expect(map).not.toHaveProperty('secretThreshold');
  });

  it('2.1: name keeps in-game formatting codes and hostile text exactly as stored', async () => {
    const maps = await mapsById(dataset.maps.slice(0, 15).map((m) => m.mapId));
    const names = maps.map((m) => m.name);
    expect(names).toContain('$i$a1bLaser $fff- Race');
    expect(names).toContain('<img src=x onerror=alert(1)>');
    expect(names).toContain('=HYPERLINK("http://x","y")');
  });
});

describe('4.1 get map info (multiple)', () => {
  it('4.1 rule 1: only one parameter is used; with both, mapIdList wins and mapUidList is ignored', async () => {
    const both = await get(`${emulator().url}/maps/?mapIdList=${first.mapId}&mapUidList=${second.mapUid}`);
    expect(both.json<WireMap[]>().map((m) => m.mapId)).toEqual([first.mapId]);
    // An invalid ID still fails even though the UID list alone would succeed: the ID list is the one read.
    const invalid = await get(`${emulator().url}/maps/?mapIdList=not-a-uuid&mapUidList=${second.mapUid}`);
    expect(invalid.status).toBe(400);
    const uidsOnly = await get(`${emulator().url}/maps/?mapUidList=${second.mapUid}`);
    expect(uidsOnly.json<WireMap[]>().map((m) => m.mapId)).toEqual([second.mapId]);
  });

  it('4.1 rule 2: success is a JSON array with one map info object per found map', async () => {
    const maps = await mapsById([first.mapId, second.mapId, first.mapId, third.mapId]);
    expect(maps.map((m) => m.mapId).sort()).toEqual([first.mapId, second.mapId, third.mapId].sort());
    const byUid = await get(`${emulator().url}/maps/?mapUidList=${third.mapUid},${first.mapUid}`);
    expect(byUid.status).toBe(200);
    expect(byUid.json<WireMap[]>().map((m) => m.mapUid).sort()).toEqual([first.mapUid, third.mapUid].sort());
  });

  it('4.1 rule 3: an invalid UID is left out, no error', async () => {
    const reply = await get(`${emulator().url}/maps/?mapUidList=${first.mapUid},no-such-uid,%3Cx%3E,${second.mapUid}`);
    expect(reply.status).toBe(200);
    expect(reply.json<WireMap[]>().map((m) => m.mapUid).sort()).toEqual([first.mapUid, second.mapUid].sort());
  });

  it('4.1 rule 4: an invalid ID gives the validation error, info an object keyed mapIdList with the invalid-uuid text', async () => {
    const reply = await get(`${emulator().url}/maps/?mapIdList=${first.mapId},${first.mapUid}`);
    expect(reply.status).toBe(400);
    const body = reply.json<ApiErrorBody>();
    expect(body).toEqual({ code: 'C-AA-00-03', correlation_id: expect.stringMatching(/^[0-9a-f]+$/), message: 'There was a validation error.', info: { mapIdList: 'Invalid uuid.' } });
  });

  it('4.1 rule 4: an unknown but valid map ID is left out, no error', async () => {
    const maps = await mapsById([unknownUuid(1), first.mapId]);
    expect(maps.map((m) => m.mapId)).toEqual([first.mapId]);
  });

  it('4.1 rule 5: no fixed cap on the number of IDs below the URI limit (200 IDs in one request)', async () => {
    const ids = dataset.maps.slice(0, 200).map((m) => m.mapId);
    const url = `${emulator().url}/maps/?mapIdList=${ids.join(',')}`;
    expect(new URL(url).pathname.length + new URL(url).search.length).toBeLessThan(8220);
    const maps = await mapsById(ids);
    expect(maps).toHaveLength(200);
  });

  it('4.1: the answer order does not follow the request order', async () => {
    const ids = dataset.maps.slice(0, 12).map((m) => m.mapId);
    const forward = (await mapsById(ids)).map((m) => m.mapId);
    const backward = (await mapsById([...ids].reverse())).map((m) => m.mapId);
    expect(forward).toEqual(backward);
    expect(forward).not.toEqual(ids);
    expect([...forward].sort()).toEqual([...ids].sort());
  });

  it('4.1: neither parameter gives the validation error', async () => {
    const reply = await get(`${emulator().url}/maps/`);
    expect(reply.status).toBe(400);
    expect(reply.json<ApiErrorBody>().info).toHaveProperty('mapIdList');
  });
});

describe("a season of the game (style 'season', issue 11), served", () => {
  const season = generateDataset({ seed: 2026, maps: 24, players: 12, style: 'season', now: SEASON_NOW });
  const served = useEmulator({ dataset: season });

  it('issue 11 / 16: official and community names reach the client exactly as generated; display names come plain, club tags from their own route', async () => {
    const reply = await get(`${served().url}/maps/?mapUidList=${season.maps.map((m) => m.mapUid).join(',')}`);
    const names = reply.json<WireMap[]>().map((m) => m.name);
    expect(names).toContain('Fall 2026 - 01');
    expect(names.filter((n) => n.includes('$')).length).toBeGreaterThan(3);
    expect(names.sort()).toEqual(season.maps.map((m) => m.name).sort());
    const ids = Object.keys(season.displayNames ?? {}).slice(0, 12);
    const display = await get(`${served().url}/api/display-names?${ids.map((id) => `accountId[]=${id}`).join('&')}`);
    const shown = Object.values(display.json<Record<string, string>>());
    expect(shown).toEqual(ids.map((id) => season.displayNames?.[id]));
    expect(shown.filter((n) => n.includes('$') || n.includes(' '))).toEqual([]);
    const tags = await get(`${served().url}/accounts/clubTags/?accountIdList=${ids.join(',')}`);
    const tagged = tags.json<{ accountId: string; clubTag: string; timestamp: string }[]>();
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.map((t) => [t.accountId, t.clubTag]).sort()).toEqual(ids.filter((id) => season.clubTags?.[id] !== undefined).map((id) => [id, season.clubTags![id]]).sort());
    expect(tagged.some((t) => t.clubTag.startsWith('$'))).toBe(true);
  });
});

