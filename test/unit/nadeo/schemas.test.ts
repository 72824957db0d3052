import { describe, expect, it } from 'vitest';
import { MapInfoListWire, MapRecordListWire, ApiErrorWire, parseBody, readApiError, isApiErrorCode } from '../../../src-main/core/nadeo/schemas.ts';
import { SchemaError, HttpError } from '../../../src-main/core/nadeo/errors.ts';

export const sampleMap = {
  author: 'd2372a08-a8a1-46cb-97fb-23a161d85ad0',
  authorScore: 26972,
  bronzeScore: 41000,
  silverScore: 33000,
  goldScore: 29000,
  collectionName: 'Stadium',
  createdWithGamepadEditor: false,
  createdWithSimpleEditor: false,
  filename: 'Megacity Race.Map.Gbx',
  hasClones: false,
  isPlayable: true,
  mapId: '8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1b',
  mapUid: 'ZNE7Z4Gu0rBFXgSHO6yEjXTrS6i',
  mapStyle: '',
  mapType: 'TrackMania\\TM_Race',
  name: '$i$a1bLaserhawk $fff- Megacity Race',
  submitter: 'd2372a08-a8a1-46cb-97fb-23a161d85ad0',
  timestamp: '2021-07-01T17:00:00+00:00',
  fileUrl: 'https://core.trackmania.nadeo.live/storageObjects/abc',
  thumbnailUrl: 'https://core.trackmania.nadeo.live/storageObjects/abc.jpg',
};

export function sampleRecord(i: number) {
  return {
    accountId: `00000000-0000-4000-8000-00000000000${i}`,
    mapId: sampleMap.mapId,
    mapRecordId: `10000000-0000-4000-8000-00000000000${i}`,
    filename: 'Replays\\Downloaded\\x.replay.gbx',
    gameMode: 'TimeAttack',
    gameModeCustomData: '',
    medal: 4,
    recordScore: { respawnCount: 4294967295, score: 0, time: 22340 },
    removed: false,
    scopeId: null,
    scopeType: 'PersonalBest',
    timestamp: '2026-01-02T03:04:05+00:00',
    url: 'https://core.trackmania.nadeo.live/mapRecords/x/replay',
  };
}

describe('schemas', () => {
  it('accepts the seed objects and lets unknown extra fields through', () => {
    const maps = parseBody(MapInfoListWire, [{ ...sampleMap, newField: { a: 1 } }], 'GET /maps/', 'maps');
    expect(maps[0]!.mapUid).toBe(sampleMap.mapUid);
    expect((maps[0] as Record<string, unknown>)['newField']).toEqual({ a: 1 });
    expect(parseBody(MapRecordListWire, [sampleRecord(1), { ...sampleRecord(2), scopeId: 'season-1', extra: true }], 'r', 'records')).toHaveLength(2);
  });

  it('names the field path of a wrong type, distinct from HttpError', () => {
    const records = [0, 1, 2, 3].map(sampleRecord);
    (records[3]!.recordScore as Record<string, unknown>).time = '22340';
    let error: unknown;
    try {
      parseBody(MapRecordListWire, records, 'GET /v2/mapRecords/', 'records');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaError);
    expect(error).not.toBeInstanceOf(HttpError);
    expect((error as SchemaError).path).toBe('records[3].recordScore.time');
    expect((error as SchemaError).message).toContain('records[3].recordScore.time: expected number, got string');
    expect((error as SchemaError).code).toBe('SCHEMA');
  });

  it('reports a missing field and a non-array body', () => {
    const { mapUid: _, ...noUid } = sampleMap;
    expect(() => parseBody(MapInfoListWire, [sampleMap, noUid], 'r', 'maps')).toThrow(/maps\[1\]\.mapUid: expected string, got missing/);
    expect(() => parseBody(MapInfoListWire, { maps: [] }, 'r', 'maps')).toThrow(/maps: expected array, got object/);
  });

  it('reads error bodies whose info is an object or an array of strings', () => {
    expect(ApiErrorWire.safeParse({ code: 'C-AA-00-03', correlation_id: 'f00', message: 'm', info: { mapIdList: 'x' } }).success).toBe(true);
    expect(ApiErrorWire.safeParse({ code: 'C-AA-00-03', message: 'm', info: ['accountIdList: Invalid account id.'] }).success).toBe(true);
    expect(readApiError({ code: 'C-AL-02-03', message: 'Not Found' })?.code).toBe('C-AL-02-03');
    expect(readApiError('<html>')).toBeUndefined();
    expect(isApiErrorCode('C-AL-02-03')).toBe(true);
    expect(isApiErrorCode('NotFound')).toBe(false);
  });
});
