import { describe, expect, it } from 'vitest';
import {
  minimumPositionRequests,
  packPositionQueries,
  positionQueryString,
  type PositionQuery,
} from '../../../src-main/core/nadeo/live/position-packing.ts';

const FIXED = '/api/token/leaderboard/group/map?'.length;
const uid = (i: number) => `Map${String(i).padStart(3, '0')}xxxxxxxxxxxxxxxxxxxxxx`;

function grid(maps: number, perMap: number): PositionQuery[] {
  const out: PositionQuery[] = [];
  for (let m = 0; m < maps; m++) for (let p = 0; p < perMap; p++) out.push({ mapUid: uid(m), score: 40_000 + p * 7 + m });
  return out;
}

function checkBatches(batches: PositionQuery[][], queries: PositionQuery[], limit: number): void {
  const seen = batches.flat();
  expect(seen).toHaveLength(queries.length);
  expect(new Set(seen)).toEqual(new Set(queries));
  for (const b of batches) {
    expect(b.length).toBeGreaterThan(0);
    expect(b.length).toBeLessThanOrEqual(50);
    expect(new Set(b.map((q) => q.mapUid)).size).toBe(b.length);
    expect(FIXED + positionQueryString(b).length).toBeLessThanOrEqual(limit);
  }
}

describe('packing position questions', () => {
  it('25 maps x 50 players take 50 requests, the minimum', () => {
    const queries = grid(25, 50);
    const batches = packPositionQueries(queries, { limit: 8219, fixedLength: FIXED });
    expect(minimumPositionRequests(queries)).toBe(50);
    expect(batches).toHaveLength(50);
    checkBatches(batches, queries, 8219);
  });

  it('120 maps x 3 players fill requests of 50 maps: ceil(360 / 50) = 8', () => {
    const queries = grid(120, 3);
    const batches = packPositionQueries(queries, { limit: 8219, fixedLength: FIXED });
    expect(minimumPositionRequests(queries)).toBe(8);
    expect(batches).toHaveLength(8);
    checkBatches(batches, queries, 8219);
  });

  it('uneven maps: the busiest map sets the count when it exceeds the capacity bound', () => {
    const queries = [...grid(1, 30), ...grid(60, 1).map((q) => ({ ...q, mapUid: q.mapUid.replace('Map', 'Oth') }))];
    const batches = packPositionQueries(queries, { limit: 8219, fixedLength: FIXED });
    expect(batches).toHaveLength(minimumPositionRequests(queries));
    expect(batches).toHaveLength(30);
    checkBatches(batches, queries, 8219);
  });

  it('a tight URI limit lowers the maps per request, and the packing still respects it', () => {
    const queries = grid(40, 2);
    const limit = FIXED + 10 * 50;
    const batches = packPositionQueries(queries, { limit, fixedLength: FIXED });
    checkBatches(batches, queries, limit);
    const perRequest = Math.floor((limit - FIXED + 1) / (positionQueryString([queries[0]!]).length + 1));
    expect(batches).toHaveLength(Math.ceil(queries.length / perRequest));
  });

  it('nothing to ask gives no request; a question too long for any request is an InputError', () => {
    expect(packPositionQueries([], { limit: 8219, fixedLength: FIXED })).toEqual([]);
    expect(minimumPositionRequests([])).toBe(0);
    expect(() => packPositionQueries([{ mapUid: uid(1), score: 1 }], { limit: FIXED + 10, fixedLength: FIXED })).toThrow(/address limit/);
  });
});
