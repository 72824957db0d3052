import { describe, expect, it } from 'vitest';
import { MapInfoListWire, MapRecordListWire } from '../../../src-main/core/nadeo/core/schemas.ts';
import { ApiErrorWire, parseBody, readApiError, isApiErrorCode } from '../../../src-main/core/nadeo/http/parse.ts';
import { DisplayNamesWire } from '../../../src-main/core/nadeo/oauth/schemas.ts';
import { SchemaError, HttpError } from '../../../src-main/core/nadeo/http/errors.ts';
import { sampleMap, sampleRecord } from './fixtures.ts';


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

  it('reads a display-names answer of [] (an empty map from a PHP backend) as no names, and refuses other arrays', () => {
    expect(parseBody(DisplayNamesWire, [], 'r', 'names')).toEqual({});
    expect(parseBody(DisplayNamesWire, { a: 'Name' }, 'r', 'names')).toEqual({ a: 'Name' });
    expect(() => parseBody(DisplayNamesWire, ['Name'], 'r', 'names')).toThrow(SchemaError);
    expect(() => parseBody(DisplayNamesWire, { a: 3 }, 'r', 'names')).toThrow(/names\.a: expected string, got number/);
  });
});
