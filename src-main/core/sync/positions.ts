// World positions of watched personal bests, after a sync's records: only the PBs whose score changed since their
// position was asked (or never asked) are asked about, packed by the Live client into the fewest requests
// (minimumPositionRequests: 25 maps x 50 players cost 50), and stored with when they were asked.
import { minimumPositionRequests, type LiveClient, type PositionQuery } from '../nadeo/index.ts';
import type { MapsRepo, PlayersRepo } from '../store/index.ts';
import type { DuePosition, PositionChange, PositionsRepo } from '../store/positions.ts';

export interface PositionsDeps {
  store: { positions: PositionsRepo; maps: MapsRepo; players: PlayersRepo };
  live: LiveClient;
}

/** A watched player's world position on a map, in the player's words. */
export interface PositionMoment {
  mapId: string;
  mapUid: string;
  mapName: string;
  accountId: string;
  playerName: string;
  /** The world position before; null when there was none. */
  before: number | null;
  after: number;
}

export interface PositionsSummary {
  /** Personal bests asked about. */
  asked: number;
  /** Live requests the run made for them (counted by the sync's positions phase), and the fewest any packing could use. */
  requests: number;
  minimumRequests: number;
  ranked: number;
  /** The account Trackwatch logs in with holds a worse record on the map: no position better than its own. */
  limitedByOwnRecord: number;
  /** Maps the service left out (not on its leaderboards, or closed). */
  unavailable: number;
  /** World positions that changed (first positions included). */
  changed: number;
  /** The biggest climb since the position before; null when nobody climbed. */
  bestClimb: PositionMoment | null;
  /** The best world position among those that changed; null when none did. */
  bestPosition: PositionMoment | null;
}

/** What asking for the positions found; the sync's positions phase adds the requests it took (the run's own count). */
export type PositionsAnswers = Omit<PositionsSummary, 'requests'>;

/** The distinct questions of due PBs: players with the same score on a map share one question (so does the client). */
export function positionQuestions(due: readonly DuePosition[]): PositionQuery[] {
  return [...new Map(due.map((q) => [`${q.mapUid}\n${q.score}`, { mapUid: q.mapUid, score: q.score }])).values()];
}

/** Asks the Live services for the world positions that are due on a list (or every list) and stores them. */
export async function syncPositions(
  deps: PositionsDeps,
  o: { list?: string | number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<PositionsAnswers> {
  const { store, live } = deps;
  const due = store.positions.due(o.list);
  const summary: PositionsAnswers = {
    asked: due.length,
    minimumRequests: minimumPositionRequests(positionQuestions(due)),
    ranked: 0,
    limitedByOwnRecord: 0,
    unavailable: 0,
    changed: 0,
    bestClimb: null,
    bestPosition: null,
  };
  if (due.length === 0) return summary;
  const results = await live.getPositions(due, { signal: o.signal });
  const answers = results.flatMap((r, i) => {
    const q = due[i]!;
    // 'invalid' is never stored: the question was malformed, and asking again will not help until the score changes.
    if (r.state === 'invalid') return [];
    summary[r.state] += 1;
    return [{ mapId: q.mapId, accountId: q.accountId, score: q.score, state: r.state, asOf: r.asOf, ...(r.state === 'ranked' ? { zones: r.zones } : {}) }];
  });
  const changes = store.positions.save(answers);
  summary.changed = changes.length;
  const climbs = changes.filter((c) => c.before !== null && c.after < c.before);
  const climb = climbs.reduce<PositionChange | null>((best, c) => (!best || c.before! - c.after > best.before! - best.after ? c : best), null);
  const top = changes.reduce<PositionChange | null>((best, c) => (!best || c.after < best.after ? c : best), null);
  const moment = (c: PositionChange | null): PositionMoment | null => {
    if (!c) return null;
    const map = store.maps.get(c.mapId);
    return {
      mapId: c.mapId,
      mapUid: map?.mapUid ?? '',
      mapName: map?.name ?? c.mapId,
      accountId: c.accountId,
      playerName: store.players.nameOf(c.accountId),
      before: c.before,
      after: c.after,
    };
  };
  summary.bestClimb = moment(climb);
  summary.bestPosition = moment(top);
  return summary;
}
