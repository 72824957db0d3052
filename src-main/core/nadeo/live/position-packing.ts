// World positions by score (docs/live/leaderboards/position.md): the rules of the route and the packing of many
// (map, score) questions into the fewest requests. Pure: no I/O.
import { MAX_MAPS_PER_POSITION_REQUEST } from '../../model.ts';

// The Live leaderboards' wire facts live in the domain model; their rule is shared/leaderboard.ts.
export { MAX_MAPS_PER_POSITION_REQUEST, PERSONAL_BEST_GROUP, WORLD_ZONE_ID } from '../../model.ts';
import { InputError } from '../http/errors.ts';

/** One question: the position a record of `score` would have on the map. */
export interface PositionQuery {
  mapUid: string;
  /** Milliseconds on race and Platform maps, points on Stunt maps (liveScoreOf). */
  score: number;
}

/** `scores[<mapUid>]=<score>`: one map's part of the query string. */
export function scoreParam(q: PositionQuery): string {
  return `scores[${q.mapUid}]=${q.score}`;
}

/** What a request of `queries` sends after the path (`scores[a]=1&scores[b]=2`). */
export function positionQueryString(queries: readonly PositionQuery[]): string {
  return queries.map(scoreParam).join('&');
}

/**
 * The fewest requests any packing can use: one score per map a request means a map asked about n times needs n
 * requests, and a request holds at most `maxMaps` maps.
 */
export function minimumPositionRequests(queries: readonly PositionQuery[], maxMaps = MAX_MAPS_PER_POSITION_REQUEST): number {
  if (queries.length === 0) return 0;
  const perMap = new Map<string, number>();
  for (const q of queries) perMap.set(q.mapUid, (perMap.get(q.mapUid) ?? 0) + 1);
  return Math.max(Math.max(...perMap.values()), Math.ceil(queries.length / maxMaps));
}

export interface PositionPackSpec {
  /** Longest request-target allowed. */
  limit: number;
  /** Length of the request-target with no scores (`/api/token/leaderboard/group/map?`). */
  fixedLength: number;
  /** Maps a request at most (default 50). */
  maxMaps?: number;
}

/**
 * Packs distinct (map, score) queries into requests of distinct maps, never more than minimumPositionRequests when
 * the URI limit is not the binding one: with B requests, queries grouped by map and dealt round robin land a map's
 * (at most B) queries in distinct requests and give each request at most ceil(N / B) of them. B is the larger of
 * the busiest map's count and what the per-request capacity (50 maps, or fewer if the URI limit says so) needs.
 */
export function packPositionQueries(queries: readonly PositionQuery[], spec: PositionPackSpec): PositionQuery[][] {
  if (queries.length === 0) return [];
  const longest = Math.max(...queries.map((q) => scoreParam(q).length));
  // k entries cost k * longest plus k - 1 '&' separators.
  const byLength = Math.floor((spec.limit - spec.fixedLength + 1) / (longest + 1));
  if (byLength < 1) {
    throw new InputError(`A position question for map "${queries[0]!.mapUid.slice(0, 40)}" does not fit the ${spec.limit}-character address limit.`);
  }
  const capacity = Math.min(spec.maxMaps ?? MAX_MAPS_PER_POSITION_REQUEST, byLength);
  const byMap = new Map<string, PositionQuery[]>();
  for (const q of queries) {
    const list = byMap.get(q.mapUid);
    if (list) list.push(q);
    else byMap.set(q.mapUid, [q]);
  }
  const busiest = Math.max(...[...byMap.values()].map((l) => l.length));
  const requests = Math.max(busiest, Math.ceil(queries.length / capacity));
  const bins: PositionQuery[][] = Array.from({ length: requests }, () => []);
  let i = 0;
  for (const list of byMap.values()) {
    for (const q of list) {
      bins[i % requests]!.push(q);
      i++;
    }
  }
  return bins;
}
