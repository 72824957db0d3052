// Replays: which records' replay files we have (or could not get), where they sit, and which are still to fetch.
import type { RepoContext } from './context.ts';
import { invalidInput } from './errors.ts';
import { describe, uuid } from './ids.ts';
import { assertSafeRelativePath } from './files.ts';
import { playerName } from './players.ts';
import type { PendingReplay, ReplayEntry, ReplayState, WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

/**
 * Failed downloads are retried until they have failed this many times; so is a replay the service refused (403) on
 * a record that is visible, one try per sync (an author may lift a secret threshold between them).
 */
export const MAX_REPLAY_ATTEMPTS = 3;

/**
 * A replay syncs stopped asking for: its download failed, or was refused on a visible record, `maxAttempts` times
 * (ReplaysRepo.retryFailed undoes it). A replay hidden with its record (attempts 0) is not given up: it waits.
 */
export function isGivenUp(entry: { state: string; attempts: number }, maxAttempts = MAX_REPLAY_ATTEMPTS): boolean {
  return (entry.state === 'failed' || entry.state === 'hidden') && entry.attempts >= maxAttempts;
}

export interface PendingOptions {
  /** Only this list's maps and players; by default the records of any list (a deleted list's leave the queue). */
  list?: WatchlistRef | undefined;
  maxAttempts?: number | undefined;
}

/**
 * Where a record's replay goes, relative to the data folder. Built only from checked IDs, never from the
 * service's file name, so nothing the service sends can steer a write.
 */
export function replayPath(mapId: string, accountId: string, mapRecordId: string): string {
  return `replays/${uuid(mapId, 'mapId')}/${uuid(accountId, 'accountId')}/${uuid(mapRecordId, 'mapRecordId')}.replay.gbx`;
}

/**
 * A replay's record: its ID, or the record itself (a PlayerRecord or a PendingReplay will do), which also tells
 * whose replay it is for replays.list().
 */
export type ReplayRecordRef = string | { mapRecordId: string; mapId: string; accountId: string };

const CANONICAL_PATH = /^replays\/([0-9a-f-]{36})\/([0-9a-f-]{36})\/([0-9a-f-]{36})\.replay\.gbx$/;

interface EntryRow {
  record_id: string;
  map_id: string | null;
  map_uid: string | null;
  map_name: string | null;
  account_id: string | null;
  display_name: string | null;
  nickname: string | null;
  state: ReplayState;
  path: string | null;
  size: number | null;
  sha256: string | null;
  error: string | null;
  attempts: number;
  updated_at: string;
}

const ENTRY_SELECT = `SELECT rp.record_id, m.map_id, m.map_uid, m.name AS map_name, p.account_id, p.display_name,
  p.nickname, rp.state, rp.path, rp.size, rp.sha256, rp.error, rp.attempts, rp.updated_at
  FROM replays rp LEFT JOIN maps m ON m.id = rp.map_ref LEFT JOIN players p ON p.id = rp.player_ref`;

const SHA256 = /^[0-9a-f]{64}$/;

type CountedTry = [recordId: string, mapRef: number | null, playerRef: number | null, error: string, updatedAt: string];

/**
 * A try that counts (a failed download, or a 403 on a visible record): its error and one more try stored, a file we
 * already have never downgraded. Returns the tries so far.
 */
function countedTry(state: 'failed' | 'hidden'): string {
  return `INSERT INTO replays (record_id, map_ref, player_ref, state, error, attempts, updated_at)
     VALUES (?, ?, ?, '${state}', ?, 1, ?)
     ON CONFLICT (record_id) DO UPDATE SET map_ref = coalesce(excluded.map_ref, map_ref),
       player_ref = coalesce(excluded.player_ref, player_ref), state = '${state}', error = excluded.error,
       attempts = replays.attempts + 1, updated_at = excluded.updated_at
     WHERE replays.state <> 'downloaded'
     RETURNING attempts`;
}

// A visible record's replay is due when never tried, or when its earlier tries failed or were refused (403) fewer
// than @max times; a replay that is hidden with its record is not asked for until the record shows.
const DUE = `SELECT m.map_id, p.account_id, r.map_record_id, r.url, coalesce(rp.attempts, 0) AS attempts`;
const DUE_WHERE = `r.current = 1 AND r.hidden = 0
  AND (rp.record_id IS NULL OR (rp.state IN ('failed', 'hidden') AND rp.attempts < @max))`;
/** Every pair a list watches (its maps x its players), then each pair's records through records_by_map, in this order. */
const WATCHED_RECORDS = `FROM watchlist_maps wm CROSS JOIN watchlist_players wp ON wp.watchlist_id = wm.watchlist_id
  CROSS JOIN records r ON r.map_ref = wm.map_ref AND r.player_ref = wp.player_ref
  JOIN maps m ON m.id = r.map_ref JOIN players p ON p.id = r.player_ref
  LEFT JOIN replays rp ON rp.record_id = r.map_record_id`;

/**
 * The due-replay queries, by name: the query-plan tests check they walk indexes. Both start from what is watched (a
 * list's maps x its players, map by map) and reach each pair's records through records_by_map, so their cost follows
 * the lists, not the records table (a million records took 463 ms when they were scanned); streamed and cut at the
 * limit by the caller (no GROUP BY or DISTINCT, which would read everything first). A pair two lists watch comes
 * twice: pending() keeps each record once.
 */
export const REPLAY_QUERIES = {
  pendingAnyList: `${DUE} ${WATCHED_RECORDS} WHERE wm.map_ref IS NOT NULL AND ${DUE_WHERE}`,
  pendingOfList: `${DUE} ${WATCHED_RECORDS} WHERE wm.watchlist_id = @list AND wm.map_ref IS NOT NULL AND ${DUE_WHERE}`,
} as const;

interface PendingRow {
  map_id: string;
  account_id: string;
  map_record_id: string;
  url: string;
  attempts: number;
}

export class ReplaysRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #pendingAnyList;
  readonly #pendingOfList;
  readonly #owner;
  readonly #downloaded;
  readonly #hidden;
  readonly #failed;
  readonly #forbidden;
  readonly #requeue;
  readonly #corrupt;
  readonly #has;
  readonly #givenUp;
  readonly #retry;
  readonly #get;
  readonly #all;
  readonly #ofList;
  readonly #failedSince;
  readonly #failedSinceOfList;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    this.#pendingAnyList = db.prepare<{ max: number }, PendingRow>(REPLAY_QUERIES.pendingAnyList);
    this.#pendingOfList = db.prepare<{ max: number; list: number }, PendingRow>(REPLAY_QUERIES.pendingOfList);
    this.#owner = db.prepare<[string, string], { map_ref: number | null; player_ref: number | null }>(
      'SELECT (SELECT id FROM maps WHERE map_id = ?) AS map_ref, (SELECT id FROM players WHERE account_id = ?) AS player_ref',
    );
    this.#downloaded = db.prepare<[string, number | null, number | null, string, number, string, string]>(
      `INSERT INTO replays (record_id, map_ref, player_ref, state, path, size, sha256, updated_at)
       VALUES (?, ?, ?, 'downloaded', ?, ?, ?, ?)
       ON CONFLICT (record_id) DO UPDATE SET map_ref = coalesce(excluded.map_ref, map_ref),
         player_ref = coalesce(excluded.player_ref, player_ref), state = 'downloaded', path = excluded.path,
         size = excluded.size, sha256 = excluded.sha256, error = NULL, updated_at = excluded.updated_at`,
    );
    // Hidden with its record (a secret threshold): no try is counted; the record showing queues it (requeue).
    this.#hidden = db.prepare<[string, number | null, number | null, string]>(
      `INSERT INTO replays (record_id, map_ref, player_ref, state, updated_at) VALUES (?, ?, ?, 'hidden', ?)
       ON CONFLICT (record_id) DO UPDATE SET map_ref = coalesce(excluded.map_ref, map_ref),
         player_ref = coalesce(excluded.player_ref, player_ref), state = 'hidden', error = NULL, attempts = 0,
         updated_at = excluded.updated_at
       WHERE replays.state <> 'downloaded'`,
    );
    // Refused (403) although the record was visible: counted as a try, asked again at later syncs up to the limit.
    this.#forbidden = db.prepare<CountedTry, { attempts: number }>(countedTry('hidden'));
    this.#requeue = db.prepare<[string, string]>(
      "UPDATE replays SET attempts = 0, error = NULL, updated_at = ? WHERE record_id = ? AND state <> 'downloaded'",
    );
    // A stored file that no longer matches its checksum: downloaded again by the next sync that wants it.
    this.#corrupt = db.prepare<[string, string, string]>(
      `UPDATE replays SET state = 'failed', path = NULL, size = NULL, sha256 = NULL, attempts = 0, error = ?,
         updated_at = ? WHERE record_id = ?`,
    );
    this.#failed = db.prepare<CountedTry, { attempts: number }>(countedTry('failed'));
    this.#givenUp = db.prepare<[number], { n: number }>(
      "SELECT count(*) AS n FROM replays WHERE state IN ('failed', 'hidden') AND attempts >= ?",
    );
    this.#retry = db.prepare<[string, number]>(
      "UPDATE replays SET attempts = 0, updated_at = ? WHERE state IN ('failed', 'hidden') AND attempts >= ?",
    );
    this.#has = db.prepare<[string], { found: number }>(
      "SELECT 1 AS found FROM replays WHERE record_id = ? AND state = 'downloaded'",
    );
    this.#get = db.prepare<[string], EntryRow>(`${ENTRY_SELECT} WHERE rp.record_id = ?`);
    this.#all = db.prepare<[], EntryRow>(`${ENTRY_SELECT} ORDER BY rp.updated_at DESC, rp.record_id`);
    this.#ofList = db.prepare<{ list: number }, EntryRow>(
      `${ENTRY_SELECT}
       WHERE rp.map_ref IN (SELECT map_ref FROM watchlist_maps WHERE watchlist_id = @list AND map_ref IS NOT NULL)
         AND rp.player_ref IN (SELECT player_ref FROM watchlist_players WHERE watchlist_id = @list)
       ORDER BY rp.updated_at DESC, rp.record_id`,
    );
    const failedSince = `rp.state = 'failed' AND rp.updated_at >= @since AND rp.attempts < @max`;
    this.#failedSince = db.prepare<{ since: string; max: number }, EntryRow>(`${ENTRY_SELECT} WHERE ${failedSince} ORDER BY rp.updated_at DESC, rp.record_id`);
    this.#failedSinceOfList = db.prepare<{ since: string; max: number; list: number }, EntryRow>(
      `${ENTRY_SELECT}
       WHERE ${failedSince}
         AND rp.map_ref IN (SELECT map_ref FROM watchlist_maps WHERE watchlist_id = @list AND map_ref IS NOT NULL)
         AND rp.player_ref IN (SELECT player_ref FROM watchlist_players WHERE watchlist_id = @list)
       ORDER BY rp.updated_at DESC, rp.record_id`,
    );
  }

  /**
   * Replays due: visible current records of a list's maps and players (of `options.list`, else of any list) with no
   * replay yet, or whose download failed or was refused fewer than `maxAttempts` times. Once per record ID, at most
   * `limit`.
   */
  pending(limit = 1000, options: PendingOptions = {}): PendingReplay[] {
    const wanted = Math.max(0, Math.floor(limit));
    const max = options.maxAttempts ?? MAX_REPLAY_ATTEMPTS;
    const found = new Map<string, PendingReplay>();
    if (wanted === 0) return [];
    const rows = options.list === undefined
      ? this.#pendingAnyList.iterate({ max })
      : this.#pendingOfList.iterate({ max, list: this.#lists.require(options.list).id });
    for (const r of rows) {
      // A personal best that is also the season's record shares its record ID, and its replay.
      if (found.has(r.map_record_id)) continue;
      found.set(r.map_record_id, {
        mapId: r.map_id,
        accountId: r.account_id,
        mapRecordId: r.map_record_id,
        url: r.url,
        path: replayPath(r.map_id, r.account_id, r.map_record_id),
        attempts: r.attempts,
      });
      if (found.size >= wanted) break; // ends the statement: the rest is never read
    }
    return [...found.values()];
  }

  /** How many replays syncs have stopped asking for: their download failed `maxAttempts` times. */
  givenUp(maxAttempts = MAX_REPLAY_ATTEMPTS): number {
    return this.#givenUp.get(maxAttempts)?.n ?? 0;
  }

  /**
   * Gives every replay syncs stopped asking for its tries back, so the next sync downloads it again (the player asked:
   * a service outage, a full disk). Returns how many. The last error stays on each until that next try.
   */
  retryFailed(maxAttempts = MAX_REPLAY_ATTEMPTS): number {
    return this.#retry.run(this.#ctx.now(), maxAttempts).changes;
  }

  /** The replay file is at `relPath` (relative to the data folder, as replayPath builds it), complete and hashed. */
  markDownloaded(record: ReplayRecordRef, relPath: string, size: number, sha256: string): void {
    assertSafeRelativePath(relPath);
    const { id, mapRef, playerRef } = this.#owner_(record, relPath);
    if (!Number.isSafeInteger(size) || size < 0) throw invalidInput(`a replay's size is a whole number of bytes, got ${describe(size)}`);
    if (typeof sha256 !== 'string' || !SHA256.test(sha256.toLowerCase())) throw invalidInput(`not a SHA-256 digest: ${describe(sha256)}`);
    this.#downloaded.run(id, mapRef, playerRef, relPath, size, sha256.toLowerCase(), this.#ctx.now());
  }

  /** The record is behind a secret threshold, and its replay with it: not asked for until the record shows. */
  markHidden(record: ReplayRecordRef): void {
    const { id, mapRef, playerRef } = this.#owner_(record);
    this.#hidden.run(id, mapRef, playerRef, this.#ctx.now());
  }

  /**
   * The service refused the replay (403) of a record we saw visible: counted as a try, so later syncs ask again up
   * to MAX_REPLAY_ATTEMPTS times. Returns the tries so far (0 when the replay was already downloaded).
   */
  markForbidden(record: ReplayRecordRef, error: string): number {
    const { id, mapRef, playerRef } = this.#owner_(record);
    const row = this.#forbidden.get(id, mapRef, playerRef, String(error).slice(0, 2000), this.#ctx.now());
    return row?.attempts ?? 0;
  }

  /** The record became visible (a threshold lifted) or changed: its replay is due again, with all its tries. */
  requeue(record: ReplayRecordRef): void {
    // Only the record ID is needed: no look-up of whose record it is (a sync calls this for every new record).
    const id = uuid(typeof record === 'string' ? record : record?.mapRecordId, 'record ID');
    this.#requeue.run(this.#ctx.now(), id);
  }

  /** The stored file did not match its checksum (or is gone): forgotten, so the next sync downloads it again. */
  markCorrupt(record: ReplayRecordRef, why: string): void {
    const { id } = this.#owner_(record);
    this.#corrupt.run(String(why).slice(0, 2000), this.#ctx.now(), id);
  }

  /** Counts a failed try; returns the tries so far (0 when the replay was already downloaded). */
  markFailed(record: ReplayRecordRef, error: string): number {
    const { id, mapRef, playerRef } = this.#owner_(record);
    const row = this.#failed.get(id, mapRef, playerRef, String(error).slice(0, 2000), this.#ctx.now());
    return row?.attempts ?? 0;
  }

  /** The record ID, and whose record it is when the caller said so (or the canonical path does). */
  #owner_(record: ReplayRecordRef, relPath?: string): { id: string; mapRef: number | null; playerRef: number | null } {
    const id = uuid(typeof record === 'string' ? record : record?.mapRecordId, 'record ID');
    let mapId: string | undefined;
    let accountId: string | undefined;
    if (typeof record === 'object') {
      mapId = uuid(record.mapId, 'mapId');
      accountId = uuid(record.accountId, 'accountId');
    } else {
      const parts = relPath === undefined ? null : CANONICAL_PATH.exec(relPath);
      if (parts && parts[3] === id) [, mapId, accountId] = parts;
    }
    if (mapId === undefined || accountId === undefined) return { id, mapRef: null, playerRef: null };
    const owner = this.#owner.get(mapId, accountId);
    return { id, mapRef: owner?.map_ref ?? null, playerRef: owner?.player_ref ?? null };
  }

  /** Whether the record's replay file is downloaded. */
  has(recordId: string): boolean {
    return typeof recordId === 'string' && this.#has.get(recordId.toLowerCase()) !== undefined;
  }

  get(recordId: string): ReplayEntry | undefined {
    const row = typeof recordId === 'string' ? this.#get.get(recordId.toLowerCase()) : undefined;
    return row && toEntry(row);
  }

  /**
   * The replays (of a list's maps and players, or all) whose download failed at or after `since` and that a sync still
   * asks for (fewer than `maxAttempts` tries), newest first: a run's failures, without reading every replay row.
   */
  failedSince(since: string, options: { list?: WatchlistRef } = {}, maxAttempts = MAX_REPLAY_ATTEMPTS): ReplayEntry[] {
    const params = { since, max: maxAttempts };
    const rows = options.list === undefined ? this.#failedSince.all(params) : this.#failedSinceOfList.all({ ...params, list: this.#lists.require(options.list).id });
    return rows.map(toEntry);
  }

  /** Every replay row (of a list's maps and players, or all), newest first, with sizes. */
  list(options: { list?: WatchlistRef } = {}): ReplayEntry[] {
    const rows = options.list === undefined ? this.#all.all() : this.#ofList.all({ list: this.#lists.require(options.list).id });
    return rows.map(toEntry);
  }
}

function toEntry(row: EntryRow): ReplayEntry {
  return {
    mapRecordId: row.record_id,
    mapId: row.map_id,
    mapUid: row.map_uid,
    mapName: row.map_name,
    accountId: row.account_id,
    playerName: row.account_id === null ? null : playerName(row.account_id, row.display_name, row.nickname),
    state: row.state,
    path: row.path,
    size: row.size,
    sha256: row.sha256,
    error: row.error,
    attempts: row.attempts,
    updatedAt: row.updated_at,
  };
}
