import { describe, expect, it } from 'vitest';
import { checkMaps, checkRecords, isIsoTimestamp, mapProblem, recordProblem } from '../../../src-main/core/nadeo/core/checks.ts';
import { MapInfoWire, MapRecordWire } from '../../../src-main/core/nadeo/core/schemas.ts';
import { SENTINEL_U32 } from '../../../src-main/core/model.ts';
import { makeMap, sampleRecord, uuid } from './fixtures.ts';

describe('isIsoTimestamp', () => {
  it('accepts ISO 8601 date-times with an offset', () => {
    for (const t of ['2026-01-02T03:04:05+00:00', '2026-01-02T03:04:05.123456Z', '2024-02-29T23:59:59-05:30', '2026-01-02T03:04+0100']) {
      expect(isIsoTimestamp(t), t).toBe(true);
    }
  });
  it('refuses no offset, impossible days and times, and text', () => {
    for (const t of ['2026-01-02T03:04:05', '2026-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-02T24:00:00Z',
      '2026-01-02T03:60:00Z', '2026-01-02 03:04:05Z', 'not-a-date', '', '2026-01-02T03:04:05+25:00']) {
      expect(isIsoTimestamp(t), t).toBe(false);
    }
  });
});

describe('recordProblem', () => {
  const wire = (change: (r: ReturnType<typeof sampleRecord>) => void) => {
    const r = { ...sampleRecord(1), recordScore: { ...sampleRecord(1).recordScore } };
    change(r);
    return MapRecordWire.parse(r);
  };
  it('lets the sentinel through where it means something, and sane values', () => {
    expect(recordProblem(wire(() => {}))).toBeUndefined();
    expect(recordProblem(wire((r) => (r.recordScore = { time: SENTINEL_U32, score: SENTINEL_U32, respawnCount: SENTINEL_U32 })))).toBeUndefined();
  });
  it('names the value that is wrong', () => {
    expect(recordProblem(wire((r) => (r.recordScore.score = -3)))).toBe('score -3 is negative');
    expect(recordProblem(wire((r) => (r.medal = 5)))).toMatch(/^medal 5/);
    expect(recordProblem(wire((r) => (r.mapRecordId = '../x')))).toBe('record ID "../x" is not a UUID');
  });
});

describe('checkRecords', () => {
  const mapId = sampleRecord(0).mapId.toLowerCase();
  const accounts = new Map([0, 1].map((i) => [uuid(i, 0xacc), uuid(i, 0xacc).toUpperCase()]));
  it('reports with the caller spelling of the account and refuses records of another scope', () => {
    const season = uuid(1, 0x5ea);
    const wire = [0, 1].map((i) => MapRecordWire.parse({ ...sampleRecord(i), scopeType: 'Season', scopeId: i === 0 ? season : null }));
    const { kept, rejected } = checkRecords(wire, { mapId, accounts, seasonId: season.toUpperCase() });
    expect(kept.map((w) => w.accountId)).toEqual([uuid(0, 0xacc)]);
    expect(rejected).toEqual([
      { accountId: uuid(1, 0xacc).toUpperCase(), mapRecordId: sampleRecord(1).mapRecordId, reason: `a record of scope "null", not season "${season.toUpperCase()}" asked for` },
    ]);
  });
});

describe('maps', () => {
  it('mapProblem accepts a seed-shaped map and names a bad medal score', () => {
    expect(mapProblem(MapInfoWire.parse(makeMap(1)))).toBeUndefined();
    expect(mapProblem(MapInfoWire.parse(makeMap(1, { goldScore: SENTINEL_U32 + 1 })))).toBe('goldScore 4294967296 is not a medal score (0 to 2^32-1)');
    expect(mapProblem(MapInfoWire.parse(makeMap(1, { author: 'nobody' })))).toBe('author "nobody" is not an account ID');
  });
  it('checkMaps keeps one of exact repeats and refuses a key answered with two different maps', () => {
    const a = MapInfoWire.parse(makeMap(1));
    const b = MapInfoWire.parse(makeMap(2));
    const asked = new Map([a.mapUid, b.mapUid].map((k) => [k, k]));
    const { kept, rejected } = checkMaps([a, a, b, { ...b, name: 'Another' }], asked, (w) => w.mapUid, 'mapUid');
    expect([...kept.keys()]).toEqual([a.mapUid]);
    expect(rejected).toEqual([{ mapUid: b.mapUid, reason: 'the service answered several different maps for this key' }]);
  });
});
