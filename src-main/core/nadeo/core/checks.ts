// The server is untrusted, value by value (issue 9 §4): what the zod schemas cannot say. A record or a map that
// fails is left out and reported with its reason; the rest of the answer is kept. Facts: the seed (2.1, 2.2) and
// docs/nadeo-api.md ("Wire details worth knowing", "Conventions players expect").
import { SENTINEL_U32 } from '../../model.ts';
import { isSendableId, isUuid } from '../../../shared/ids.ts';
import { MIN_RUN_TIME } from '../../../shared/leaderboard.ts';
import type { MapInfoWire, MapRecordWire } from './schemas.ts';

/** A record the service sent that was not kept, and why (`accountId` when it names a watched account). */
export interface RejectedRecord {
  accountId?: string;
  mapRecordId?: string;
  reason: string;
}

/** A map the service sent that was not kept, and why. */
export interface RejectedMap {
  mapId?: string;
  mapUid?: string;
  reason: string;
}

/** An untrusted value shown in a message: quoted, cut short, control characters (C0, DEL and C1) escaped. */
export function shown(value: unknown): string {
  return JSON.stringify(String(value).slice(0, 60)).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

/** ISO 8601 date-time with an offset (`Z` or `±hh:mm`), naming a day that exists (no February 30th). */
export function isIsoTimestamp(text: string): boolean {
  const m = ISO_8601.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => Number(m[i] ?? 0)) as [
    number, number, number, number, number, number, number, number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 18 || offsetMinutes > 59) return false;
  return !Number.isNaN(Date.parse(text));
}

/** A 32-bit counter the wire may carry (time, score, respawns): 0 ..< 2^32-1, or the sentinel itself. */
function u32Problem(name: string, value: number): string | undefined {
  if (value < 0) return `${name} ${value} is negative`;
  if (value > SENTINEL_U32) return `${name} ${value} is beyond 2^32-1`;
  return undefined;
}

/** What is wrong with one record's own values, or undefined. */
export function recordProblem(w: MapRecordWire): string | undefined {
  const { time, score, respawnCount } = w.recordScore;
  const problem = u32Problem('time', time) ?? u32Problem('score', score) ?? u32Problem('respawnCount', respawnCount);
  if (problem) return problem;
  // The sentinel (a secret entry's time) is no run time; any other is at least one physics tick.
  if (time !== SENTINEL_U32 && time < MIN_RUN_TIME) return `time ${time} ms is shorter than any run the game can time (at least ${MIN_RUN_TIME} ms, one physics tick)`;
  if (w.medal < 0 || w.medal > 4) return `medal ${w.medal} is not one of 0 (none) to 4 (author)`;
  if (!isIsoTimestamp(w.timestamp)) return `timestamp ${shown(w.timestamp)} is not an ISO 8601 date and time with an offset`;
  if (!isUuid(w.mapRecordId)) return `record ID ${shown(w.mapRecordId)} is not a UUID`;
  return undefined;
}

export interface RecordsAsked {
  /** The map asked for, lower case. */
  mapId: string;
  /** Accounts asked for, lower case → the caller's spelling. */
  accounts: ReadonlyMap<string, string>;
  /** The season asked for; undefined for personal bests (scopeId null). */
  seasonId: string | undefined;
}

/**
 * Keeps the records that answer what was asked, one per account, each with sane values. Left out and reported:
 * a record for another map, account or scope; one with a value out of range; every record of an account that
 * got several different ones; every record whose ID is shared by several accounts (they would share a replay).
 */
export function checkRecords(wire: readonly MapRecordWire[], asked: RecordsAsked): { kept: MapRecordWire[]; rejected: RejectedRecord[] } {
  const rejected: RejectedRecord[] = [];
  const reject = (w: MapRecordWire, reason: string) => {
    const account = asked.accounts.get(w.accountId.toLowerCase());
    rejected.push({ ...(account !== undefined ? { accountId: account } : {}), ...(isUuid(w.mapRecordId) ? { mapRecordId: w.mapRecordId } : {}), reason });
  };
  const scope = asked.seasonId?.toLowerCase() ?? null;
  const answering: MapRecordWire[] = [];
  for (const w of wire) {
    if (w.mapId.toLowerCase() !== asked.mapId) reject(w, `a record for map ${shown(w.mapId)}, not the map asked for`);
    else if (!asked.accounts.has(w.accountId.toLowerCase())) reject(w, `a record for account ${shown(w.accountId)}, not one asked for`);
    else if ((w.scopeId?.toLowerCase() ?? null) !== scope) {
      reject(w, `a record of scope ${shown(w.scopeId)}, not ${scope === null ? 'the personal bests' : `season ${shown(asked.seasonId)}`} asked for`);
    } else answering.push(w);
  }

  // One record ID belongs to one account: a shared one would point several players to one replay.
  const accountsOfId = new Map<string, Set<string>>();
  for (const w of answering) {
    const id = w.mapRecordId.toLowerCase();
    let set = accountsOfId.get(id);
    if (!set) accountsOfId.set(id, (set = new Set()));
    set.add(w.accountId.toLowerCase());
  }
  // One record per account: of two different ones, nothing says which is true. Exact repeats are one record.
  const byAccount = new Map<string, { first: MapRecordWire; text: string; differing: boolean }>();
  for (const w of answering) {
    const k = w.accountId.toLowerCase();
    const text = JSON.stringify(w);
    const seen = byAccount.get(k);
    if (!seen) byAccount.set(k, { first: w, text, differing: false });
    else if (seen.text !== text) seen.differing = true;
  }

  const kept: MapRecordWire[] = [];
  for (const { first: w, differing } of byAccount.values()) {
    const sharing = accountsOfId.get(w.mapRecordId.toLowerCase())!.size;
    if (differing) reject(w, 'the service answered several different records for this account');
    else if (sharing > 1) reject(w, `record ID ${shown(w.mapRecordId)} is shared by ${sharing} accounts`);
    else {
      const problem = recordProblem(w);
      if (problem) reject(w, problem);
      else kept.push(w);
    }
  }
  return { kept, rejected };
}

/** Longest text kept in a map's descriptive fields; a longer one is garbage, not a name. */
const MAX_TEXT = 1000;

function hasControl(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text);
}

/** What is wrong with one map's own values, or undefined. */
export function mapProblem(w: MapInfoWire): string | undefined {
  if (!isUuid(w.mapId)) return `map ID ${shown(w.mapId)} is not a UUID`;
  if (!isSendableId(w.mapUid)) return `map UID ${shown(w.mapUid)} is not a map UID`;
  for (const field of ['author', 'submitter'] as const) {
    if (!isUuid(w[field])) return `${field} ${shown(w[field])} is not an account ID`;
  }
  for (const field of ['authorScore', 'goldScore', 'silverScore', 'bronzeScore'] as const) {
    const v = w[field];
    if (v < 0 || v > SENTINEL_U32) return `${field} ${v} is not a medal score (0 to 2^32-1)`;
  }
  if (w.mapType === '' || w.mapType.length > 100 || hasControl(w.mapType)) return `map type ${shown(w.mapType)} is not a map type`;
  if (!isIsoTimestamp(w.timestamp)) return `timestamp ${shown(w.timestamp)} is not an ISO 8601 date and time with an offset`;
  for (const field of ['name', 'mapStyle', 'collectionName', 'filename', 'fileUrl', 'thumbnailUrl'] as const) {
    if (w[field].length > MAX_TEXT) return `${field} is longer than ${MAX_TEXT} characters`;
  }
  return undefined;
}

/**
 * Keeps the maps that answer what was asked (by `keyOf`, normalised like the caller's keys), one per key, each
 * with sane values; reports the rest. Exact repeats of a map are one map.
 */
export function checkMaps(
  wire: readonly MapInfoWire[],
  asked: ReadonlyMap<string, string>,
  keyOf: (w: MapInfoWire) => string,
  by: 'mapId' | 'mapUid',
): { kept: Map<string, MapInfoWire>; rejected: RejectedMap[] } {
  const rejected: RejectedMap[] = [];
  const reject = (w: MapInfoWire, reason: string) => {
    const key = asked.get(keyOf(w));
    rejected.push({ ...(key !== undefined ? { [by]: key } : {}), reason });
  };
  const byKey = new Map<string, { first: MapInfoWire; text: string; differing: boolean }>();
  for (const w of wire) {
    const k = keyOf(w);
    if (!asked.has(k)) {
      reject(w, `the service answered map ${shown(by === 'mapId' ? w.mapId : w.mapUid)}, which was not asked for`);
      continue;
    }
    const text = JSON.stringify(w);
    const seen = byKey.get(k);
    if (!seen) byKey.set(k, { first: w, text, differing: false });
    else if (seen.text !== text) seen.differing = true;
  }
  const kept = new Map<string, MapInfoWire>();
  for (const [k, { first: w, differing }] of byKey) {
    if (differing) reject(w, 'the service answered several different maps for this key');
    else {
      const problem = mapProblem(w);
      if (problem) reject(w, problem);
      else kept.set(k, w);
    }
  }
  return { kept, rejected };
}
