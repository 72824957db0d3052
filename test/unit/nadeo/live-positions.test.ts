import { describe, expect, it } from 'vitest';
import {
  minimumPositionRequests,
  packPositionQueries,
  positionQueryString,
  type PositionQuery,
} from '../../../src-main/core/nadeo/live-positions.ts';
// The emulator's reading of the Live scores (the product's is shared/leaderboard.ts worldScoreOf, tested there).
import { isBetterLiveScore, liveScoreOf } from '../../../src-main/core/model.ts';

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

describe('Live leaderboard scores', () => {
  it('race and Platform rank by time (lower first), Stunt by points (higher first)', () => {
    expect(liveScoreOf('TrackMania\\TM_Race', { time: 41234, score: 0 })).toBe(41234);
    expect(liveScoreOf('TrackMania\\TM_Stunt', { time: 80000, score: 5120 })).toBe(5120);
    expect(liveScoreOf('TrackMania\\TM_Race', { time: null, score: 0 })).toBeNull();
    expect(liveScoreOf('TrackMania\\TM_Race', { time: 4294967295, score: 0 })).toBeNull();
    expect(isBetterLiveScore('TrackMania\\TM_Race', 40000, 40001)).toBe(true);
    expect(isBetterLiveScore('TrackMania\\TM_Race', 40000, 40000)).toBe(false);
    expect(isBetterLiveScore('TrackMania\\TM_Stunt', 5000, 4000)).toBe(true);
  });
});
