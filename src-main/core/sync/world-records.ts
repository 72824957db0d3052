// World records (issue 15 part 4): which maps a sync asks the Live top route about (lists whose "world record"
// setting is on, store/world-records.ts), what an answer must look like to be kept, and what the run says about them.
// Facts: docs/nadeo-api.md ("Beyond the seed": the top route; "Top Secret": a hidden WR is -1, its holder named).
import type { WorldRecord } from '../nadeo/index.ts';
import type { Store } from '../store/index.ts';
import type { StoredMap } from '../store/types.ts';
import { isUuid } from '../../shared/ids.ts';
import { mapKind } from '../../shared/leaderboard.ts';

/** Trackmania (2020) came out on 1 July 2020: no record of its leaderboards was set before. */
export const EARLIEST_RECORD_SEC = Date.UTC(2020, 6, 1) / 1000;
/** A clock a day ahead of ours is a clock, not a hostile answer. */
const CLOCK_SLACK_SEC = 24 * 3600;
/** 2^32-1 is the service's "no value" sentinel (docs/nadeo-api.md), never a score. */
const SENTINEL_U32 = 4294967295;

export interface WorldRecordsSummary {
  /** Maps asked about (one top-route request each). */
  asked: number;
  /** World records stored with a score. */
  found: number;
  /** Hidden by a secret threshold: the holder is known, the score is not. */
  secret: number;
  /** Maps whose leaderboard is empty (or that the service does not know). */
  empty: number;
  /** Answers left out, each said in the run's errors with the reason. */
  rejected: number;
  /** Maps whose WR holder's record was asked in the watched players' records request (no extra request). */
  ghostsAsked: number;
  /** Maps where one more account would have cost one more records request: not asked, and said. */
  ghostsSkipped: number;
}

export function emptyWorldRecordsSummary(): WorldRecordsSummary {
  return { asked: 0, found: 0, secret: 0, empty: 0, rejected: 0, ghostsAsked: 0, ghostsSkipped: 0 };
}

/**
 * Why a top-route answer cannot be kept, or undefined when it can: a holder that is no account ID, a score that is
 * negative (other than the secret -1, already null here), the sentinel or beyond, no time at all on a map ranked by
 * time, a position that is not the first, a set date before the game existed or after tomorrow.
 */
export function worldRecordProblem(wr: WorldRecord, map: Pick<StoredMap, 'mapType'>, nowMs: number): string | undefined {
  if (typeof wr.accountId !== 'string' || !isUuid(wr.accountId)) return `its holder ${JSON.stringify(String(wr.accountId).slice(0, 40))} is not an account ID`;
  if (wr.score !== null) {
    if (!Number.isSafeInteger(wr.score) || wr.score < 0) return `its score ${wr.score} is negative`;
    if (wr.score >= SENTINEL_U32) return `its score ${wr.score} is not a score (2^32-1 or more)`;
    if (wr.score === 0 && mapKind(map) !== 'stunt') return 'its time is 0 ms';
  }
  if (!Number.isSafeInteger(wr.position) || wr.position < 1) return `its position ${wr.position} is not a position`;
  if (wr.timestamp !== null) {
    const latest = nowMs / 1000 + CLOCK_SLACK_SEC;
    if (!Number.isFinite(wr.timestamp) || wr.timestamp < EARLIEST_RECORD_SEC || wr.timestamp > latest) {
      return `its date (${wr.timestamp} s) is ${wr.timestamp > latest ? 'in the future' : 'before the game came out'}`;
    }
  }
  return undefined;
}

/**
 * The lists a sync of `list` (or of every list) covers whose world-record setting is on and that have players: a list
 * without any has no records read, and the WR is asked only for maps a sync reads.
 */
export function worldRecordLists(store: Store, list: string | undefined): string[] {
  const lists = list === undefined ? store.watchlists.list() : [store.watchlists.get(store.watchlists.require(list).id)!];
  return lists.filter((l) => l.players > 0 && store.worldRecords.setting(l.id).on).map((l) => l.name);
}

/** The maps a sync asks the world record of: those of the covered lists that ask for it, once each, in list order. */
export function worldRecordMaps(store: Store, list: string | undefined): StoredMap[] {
  const maps = new Map<string, StoredMap>();
  for (const name of worldRecordLists(store, list)) for (const map of store.maps.list(name)) if (!maps.has(map.mapId)) maps.set(map.mapId, map);
  return [...maps.values()];
}
