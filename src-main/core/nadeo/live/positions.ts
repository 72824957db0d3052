// World positions (docs/live/leaderboards/position.md, top.md): the position a record of each score would have, and
// a map's world record. Many questions are packed into the fewest requests (position-packing.ts).
import { halve } from '../http/batching.ts';
import { ErrorCode, HttpError, InputError } from '../http/errors.ts';
import { parseBody } from '../http/parse.ts';
import { linkSignals } from '../http/signals.ts';
import { isSendableId } from '../../../shared/ids.ts';
import { isoFromSeconds, liveRequest, type LiveContext } from './context.ts';
import {
  MAX_MAPS_PER_POSITION_REQUEST,
  packPositionQueries,
  PERSONAL_BEST_GROUP,
  positionQueryString,
  WORLD_ZONE_ID,
  type PositionQuery,
} from './position-packing.ts';
import { LeaderboardTopWire, PositionListWire } from './schemas.ts';

export interface ZonePosition {
  zoneId: string;
  zoneName: string;
  position: number;
}

/** One answer per question, in the order asked. `asOf` is when it was asked: the service can lag hours behind. */
export type PositionResult =
  | { state: 'ranked'; mapUid: string; score: number; position: number; zones: ZonePosition[]; asOf: string }
  /**
   * The logged-in account holds a record on this map worse than `score`, and the service gives no position better
   * than an asker's own record: it answered for `ownScore` instead. Use an account without records for positions.
   */
  | { state: 'limitedByOwnRecord'; mapUid: string; score: number; ownScore: number; asOf: string }
  /** The service left the map out: unknown map, or a closed leaderboard. */
  | { state: 'unavailable'; mapUid: string; score: number; asOf: string }
  /** Not asked: the question itself was malformed. */
  | { state: 'invalid'; mapUid: string; score: number; reason: string };

export interface WorldRecord {
  mapUid: string;
  accountId: string;
  /** Null when a secret threshold hides it (the service's -1); any other value as the service sent it (unchecked). */
  score: number | null;
  position: number;
  /** ISO 8601, when the record was set (when the service says and it is a date at all). */
  setAt: string | null;
  /** The service's own timestamp (seconds), unchecked: the caller judges whether it is in range. */
  timestamp: number | null;
}

const POSITIONS_ROUTE = 'POST /api/token/leaderboard/group/map';
const TOP_ROUTE = 'GET /api/token/leaderboard/group/:groupUid/map/:mapUid/top';

/** Why a position question cannot be asked, or undefined when it can. */
function positionQueryProblem(q: PositionQuery): string | undefined {
  if (typeof q.mapUid !== 'string' || !isSendableId(q.mapUid)) return `"${String(q.mapUid).slice(0, 40)}" is not a map UID`;
  if (!Number.isSafeInteger(q.score) || q.score < 0 || q.score >= 4294967295) {
    return `${String(q.score)} is not a score to ask about (a time in milliseconds or Stunt points, 0 or more; a hidden time has no position)`;
  }
  return undefined;
}

/** More players than Trackmania has ever had: a position beyond it (9,007,199,254,740,991) is a broken answer. */
export const MAX_WORLD_POSITION = 100_000_000;

function isPlausiblePosition(position: number): boolean {
  return Number.isSafeInteger(position) && position >= 1 && position <= MAX_WORLD_POSITION;
}

/** Asks one batch (distinct maps, one score each) and files an answer per question; a 414 splits the batch. */
async function askPositions(
  ctx: LiveContext,
  batch: PositionQuery[],
  group: string,
  signal: AbortSignal,
  answers: Map<PositionQuery, PositionResult>,
): Promise<void> {
  const fixed = `${ctx.live.basePath}/api/token/leaderboard/group/map?`;
  const target = fixed + positionQueryString(batch);
  const asOf = new Date(ctx.conn.now()).toISOString();
  const body = JSON.stringify({ maps: batch.map((q) => ({ mapUid: q.mapUid, groupUid: group })) });
  let wire;
  try {
    wire = parseBody(PositionListWire, await liveRequest(ctx, 'POST', POSITIONS_ROUTE, target, signal, { body }), POSITIONS_ROUTE, 'positions');
  } catch (e) {
    // A stricter proxy: remember its limit and split the batch (each half still asks one score per map).
    if (e instanceof HttpError && e.code === ErrorCode.URI_TOO_LONG && batch.length > 1) {
      const halves = halve(batch);
      ctx.limits.lower(POSITIONS_ROUTE, Math.max(...halves.map((h) => fixed.length + positionQueryString(h).length)));
      await Promise.all(halves.map((h) => askPositions(ctx, h, group, signal, answers)));
      return;
    }
    throw e;
  }
  // A map answered twice, or with a position no leaderboard has, is not believed: no position is stored for it.
  const byMap = new Map<string, (typeof wire)[number] | null>();
  for (const entry of wire) byMap.set(entry.mapUid, byMap.has(entry.mapUid) || !entry.zones.every((z) => isPlausiblePosition(z.ranking.position)) ? null : entry);
  for (const q of batch) {
    const entry = byMap.get(q.mapUid);
    if (!entry) {
      answers.set(q, { state: 'unavailable', mapUid: q.mapUid, score: q.score, asOf });
      continue;
    }
    if (entry.score !== q.score) {
      answers.set(q, { state: 'limitedByOwnRecord', mapUid: q.mapUid, score: q.score, ownScore: entry.score, asOf });
      continue;
    }
    // World first, then the zones the service gives, in its order.
    const zones = entry.zones.map((z) => ({ zoneId: z.zoneId, zoneName: z.zoneName, position: z.ranking.position }));
    const worldAt = zones.findIndex((z) => z.zoneId === WORLD_ZONE_ID || z.zoneName === 'World');
    if (worldAt > 0) zones.unshift(...zones.splice(worldAt, 1));
    const world = zones[0];
    if (!world) {
      answers.set(q, { state: 'unavailable', mapUid: q.mapUid, score: q.score, asOf });
      continue;
    }
    answers.set(q, { state: 'ranked', mapUid: q.mapUid, score: q.score, position: world.position, zones, asOf });
  }
}

/**
 * The world position (and the zones the service adds) a record of each score would have: one result per
 * question, same order. Distinct (map, score) questions are packed into the fewest requests (50 maps a request,
 * one score per map); repeated questions are asked once.
 */
export async function getPositions(
  ctx: LiveContext,
  queries: readonly PositionQuery[],
  o: { signal?: AbortSignal | undefined; groupUid?: string | undefined } = {},
): Promise<PositionResult[]> {
  ctx.conn.ensureOpen();
  const group = o.groupUid ?? PERSONAL_BEST_GROUP;
  if (!isSendableId(group)) throw new InputError(`"${group.slice(0, 60)}" is not a leaderboard group; use "${PERSONAL_BEST_GROUP}" or a season ID.`);
  // One question per distinct (map, score): players with the same score get the same answer.
  const distinct = new Map<string, PositionQuery>();
  const problems = new Map<number, string>();
  queries.forEach((q, i) => {
    const problem = positionQueryProblem(q);
    if (problem !== undefined) problems.set(i, problem);
    else {
      const key = `${q.mapUid}\n${q.score}`;
      if (!distinct.has(key)) distinct.set(key, { mapUid: q.mapUid, score: q.score });
    }
  });
  const fixedLength = `${ctx.live.basePath}/api/token/leaderboard/group/map?`.length;
  const batches = packPositionQueries([...distinct.values()], { limit: ctx.limits.get(POSITIONS_ROUTE), fixedLength, maxMaps: MAX_MAPS_PER_POSITION_REQUEST });
  const answers = new Map<PositionQuery, PositionResult>();
  // One failed batch cancels its siblings: the call fails as a whole.
  const linked = linkSignals(o.signal);
  try {
    await Promise.all(batches.map((b) => askPositions(ctx, b, group, linked.signal, answers)));
  } catch (e) {
    linked.abort();
    throw e;
  } finally {
    linked.dispose();
  }
  return queries.map((q, i) => {
    const problem = problems.get(i);
    if (problem !== undefined) return { state: 'invalid', mapUid: String(q.mapUid), score: q.score, reason: problem };
    return answers.get(distinct.get(`${q.mapUid}\n${q.score}`)!)!;
  });
}

/** The map's world record on the personal-best leaderboard; null when the leaderboard is empty. */
export async function getWorldRecord(ctx: LiveContext, mapUid: string, o: { signal?: AbortSignal | undefined } = {}): Promise<WorldRecord | null> {
  ctx.conn.ensureOpen();
  if (typeof mapUid !== 'string' || !isSendableId(mapUid)) throw new InputError(`"${String(mapUid).slice(0, 40)}" is not a map UID.`);
  const target = `${ctx.live.basePath}/api/token/leaderboard/group/${PERSONAL_BEST_GROUP}/map/${mapUid}/top?length=1&onlyWorld=true`;
  const wire = parseBody(LeaderboardTopWire, await liveRequest(ctx, 'GET', TOP_ROUTE, target, o.signal), TOP_ROUTE, 'top');
  const world = wire.tops?.find((t) => t.zoneId === WORLD_ZONE_ID || t.zoneName === 'World') ?? wire.tops?.[0];
  const best = world?.top[0];
  if (!best) return null;
  const timestamp = best.timestamp ?? null;
  // Dates reach +-8.64e12 s; a timestamp beyond is no date (the caller rejects it), never a throw here.
  const dated = timestamp !== null && timestamp > 0 && timestamp < 8.64e12;
  return {
    mapUid,
    accountId: best.accountId,
    score: best.score === -1 ? null : best.score,
    position: best.position,
    setAt: dated ? isoFromSeconds(timestamp) : null,
    timestamp,
  };
}
