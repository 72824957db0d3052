// The sync engine: plan what a list needs, fetch it politely, write it in transactions, then fetch replays.
// Fetch first, then write: no await ever sits inside a transaction, so a sync killed at any moment leaves the
// store consistent and the next sync picks up whatever was not written (pending refs, pending replays).
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { NadeoClient } from '../nadeo/index.ts';
import { AbortError, AuthError, ConfigError } from '../nadeo/index.ts';
import { isStuntMapType } from '../model.ts';
import { PERSONAL_BEST, type Store } from '../store/index.ts';
import { resolveInDataDir } from '../store/files.ts';
import type { HistoryRow, PendingReplay, StoredMap, SyncOutcome } from '../store/types.ts';
import { acquireSyncLock, removePartialDownloads } from './lock.ts';
import { forEachConcurrently } from './pool.ts';

export type SyncPhase = 'maps' | 'records' | 'replays' | 'names' | 'done';

export interface SyncProgress {
  runId: number;
  phase: SyncPhase;
  mapsDone: number;
  mapsTotal: number;
  requests: number;
  replaysDone: number;
  replaysTotal: number;
  /** Records first seen or changed (personal bests only). */
  newRecords: number;
  /** Of those, the improvements on a record we already had. */
  newPersonalBests: number;
  errors: number;
  /** Estimated milliseconds left, from the pace so far; null until there is a pace to go by. */
  etaMs: number | null;
}

export interface NewPersonalBest {
  mapId: string;
  mapUid: string;
  mapName: string;
  accountId: string;
  playerName: string;
  kind: HistoryRow['kind'];
  oldTime: number | null;
  newTime: number | null;
  oldScore: number | null;
  newScore: number;
  hidden: boolean;
  isStunt: boolean;
  recordTimestamp: string;
}

export interface SyncSummary {
  runId: number;
  list: string | null;
  outcome: SyncOutcome;
  maps: number;
  players: number;
  requests: number;
  records: number;
  /** Personal-best records first seen or changed. */
  newRecords: number;
  /** Of those, the improvements on a record we already had (first sightings are not PBs we saw being set). */
  newPersonalBests: number;
  replaysDownloaded: number;
  replaysHidden: number;
  replaysFailed: number;
  unknownMaps: string[];
  errors: { mapId: string | null; message: string }[];
  durationMs: number;
}

export interface SyncOptions {
  /** A watchlist's name; every list when absent. */
  list?: string;
  /** Download replays of new records (default true). */
  replays?: boolean;
  /** Refetch every map's info, not only what is old. */
  refreshMaps?: boolean;
  /** Map info older than this is refetched (default 7 days). */
  mapInfoMaxAgeMs?: number;
  /** Season leaderboards to read besides personal bests. */
  seasonIds?: readonly string[];
  /** Maps fetched at once; the client's limiter still paces every request. */
  concurrency?: number;
  /** Whether to fetch display names (needs an OAuth app in the client). */
  displayNames?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
  onNewPersonalBest?: (event: NewPersonalBest) => void;
  /** The run is stored: its ID names it everywhere (progress, summary, the window's sync.start). */
  onRunStarted?: (runId: number) => void;
}

export interface SyncDeps {
  store: Store;
  client: NadeoClient;
  dataDir: string;
  now?: () => Date;
}

const WEEK_MS = 7 * 24 * 3600 * 1000;
const NAME_CACHE_MS = 30 * 24 * 3600 * 1000;

/**
 * Whether errors are the sync being stopped: its own signal aborted (a cancel, or a fatal error stopping the
 * workers). An AbortError without it (the client closed under the sync) is a failure like any other, not a cancel.
 */
function stopping(signal: AbortSignal): boolean {
  return signal.aborted;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Errors no other map or retry can get past: the whole sync stops and says why. */
function isFatal(error: unknown): boolean {
  return error instanceof AuthError || error instanceof ConfigError;
}

class FatalSyncError extends Error {}

/** Runs one sync of a list (or of every list) and resolves with its summary; never leaves a run "running". */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncSummary> {
  const now = deps.now ?? (() => new Date());
  const started = Date.now();
  const lock = await acquireSyncLock(deps.dataDir);
  try {
    await removePartialDownloads(deps.dataDir);
    return await syncLocked(deps, options, now, started);
  } finally {
    await lock.release();
  }
}

async function syncLocked(deps: SyncDeps, options: SyncOptions, now: () => Date, started: number): Promise<SyncSummary> {
  const { store, client } = deps;
  // A fatal error (bad credentials) stops every worker, as a cancel would, but is reported as a failure.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let fatal: unknown;
  const list = options.list;
  store.syncRuns.closeInterrupted();
  const runId = store.syncRuns.start(list);
  options.onRunStarted?.(runId);
  const requestsAtStart = client.stats().requests;
  const errors: { mapId: string | null; message: string }[] = [];
  const unknownMaps: string[] = [];
  let records = 0;
  let newRecords = 0;
  let newPersonalBests = 0;
  let mapsDone = 0;
  let mapsOk = 0;
  let mapsTotal = 0;
  let replaysDone = 0;
  let replaysTotal = 0;
  let replaysDownloaded = 0;
  let replaysHidden = 0;
  let replaysFailed = 0;
  let phase: SyncPhase = 'maps';
  let cancelled = false;
  let players: string[] = [];

  const requests = (): number => client.stats().requests - requestsAtStart;
  const fail = (mapId: string | null, error: unknown): void => {
    const message = messageOf(error);
    errors.push({ mapId, message });
    store.syncRuns.addError(runId, mapId, message);
  };
  const progress = (): void => {
    if (!options.onProgress) return;
    const elapsed = Date.now() - started;
    // Work left in requests: about one records request per map still to do, one per replay still to fetch.
    const unitsDone = mapsDone + replaysDone;
    const unitsLeft = mapsTotal - mapsDone + (replaysTotal - replaysDone);
    const etaMs = unitsDone > 0 ? Math.round((elapsed / unitsDone) * unitsLeft) : null;
    options.onProgress({
      runId, phase, mapsDone, mapsTotal, requests: requests(), replaysDone, replaysTotal,
      newRecords, newPersonalBests, errors: errors.length, etaMs,
    });
  };

  /** Works through items concurrently: a fatal error stops everything, a cancel ends quietly, others go to onError. */
  const each = async <T>(items: readonly T[], work: (item: T) => Promise<void>, onError: (item: T, error: unknown) => void, after: () => void): Promise<void> => {
    await forEachConcurrently(items, options.concurrency ?? 4, async (item) => {
      try {
        await work(item);
      } catch (error) {
        if (isFatal(error)) {
          fatal ??= error;
          stop.abort();
        } else if (!stopping(signal)) onError(item, error);
      } finally {
        after();
      }
    }, signal);
    if (fatal) throw new FatalSyncError();
    if (signal.aborted) throw new AbortError('The sync was cancelled.');
  };

  try {
    // 1. Maps: resolve UIDs added since the last sync, refresh info that is old.
    const pendingUids = store.maps.unresolvedUids(list);
    if (pendingUids.length > 0) {
      progress();
      try {
        const found = await client.getMapsByUid(pendingUids, { signal });
        store.maps.upsert(found.maps, now().toISOString());
        if (found.notFound.length > 0) {
          store.maps.markNotFound(found.notFound);
          unknownMaps.push(...found.notFound);
        }
      } catch (error) {
        if (stopping(signal) || isFatal(error)) throw error;
        fail(null, new Error(`could not look up ${pendingUids.length} map UID(s): ${messageOf(error)}`));
      }
    }
    const staleBefore = options.refreshMaps ? new Date(now().getTime() + 1) : new Date(now().getTime() - (options.mapInfoMaxAgeMs ?? WEEK_MS));
    const pendingIds = pendingMapIds(store, list);
    const staleIds = [...new Set([...store.maps.staleIds(staleBefore, list), ...pendingIds])];
    if (staleIds.length > 0) {
      try {
        const found = await client.getMapsById(staleIds, { signal });
        store.maps.upsert(found.maps, now().toISOString());
        const missing = [...found.notFound, ...found.invalid];
        if (missing.length > 0) {
          store.maps.markNotFound(missing);
          unknownMaps.push(...missing.filter((id) => pendingIds.includes(id)));
        }
      } catch (error) {
        if (stopping(signal) || isFatal(error)) throw error;
        fail(null, new Error(`could not refresh the info of ${staleIds.length} map(s): ${messageOf(error)}`));
      }
    }

    // 2. Records: one map at a time per worker, every watched player in as few requests as the URI allows.
    phase = 'records';
    const maps = store.maps.list(list);
    const watched = store.players.list(list);
    players = watched.map((p) => p.accountId);
    // Names as they stand for this phase (display names are fetched after it): one query, not one per new record.
    const names = new Map(watched.map((p) => [p.accountId, p.name]));
    mapsTotal = maps.length;
    const scopes = [PERSONAL_BEST, ...(options.seasonIds ?? [])];
    progress();
    if (players.length === 0) mapsDone = mapsTotal; // nothing to ask for: no watched players
    else {
      await each(maps, async (map) => {
        for (const scope of scopes) {
          const fetched = await client.getRecords(map, players, {
            signal,
            ...(scope === PERSONAL_BEST ? {} : { seasonId: scope }),
          });
          records += fetched.records.length;
          // The map's records and its hidden replays in one commit.
          const applied = store.transaction(() => {
            const result = store.records.applyRecords({
              mapId: map.mapId, scope, records: fetched.records, seenAt: now().toISOString(), syncRunId: runId,
            });
            for (const record of result.newRecords) if (record.hidden) store.replays.markHidden(record);
            return result;
          });
          if (scope === PERSONAL_BEST) {
            announce(map, applied.improvements, (accountId) => names.get(accountId) ?? accountId, options.onNewPersonalBest);
            newRecords += applied.improvements.length;
            newPersonalBests += applied.improvements.filter((h) => h.kind !== 'first').length;
          }
        }
        mapsOk += 1;
      }, (map, error) => fail(map.mapId, error), () => {
        mapsDone += 1;
        progress();
      });
    }

    // 3. Replays: everything still pending, including what an interrupted sync left behind.
    if (options.replays !== false) {
      phase = 'replays';
      // Every pending replay at once (a few small objects each), so progress and time left count them all.
      const pending = store.replays.pending(Number.MAX_SAFE_INTEGER);
      replaysTotal = pending.length;
      progress();
      await each(pending, async (replay) => {
        const state = await fetchReplay(deps, replay, signal);
        if (state === 'hidden') replaysHidden += 1;
        else replaysDownloaded += 1;
      }, (replay, error) => {
        replaysFailed += 1;
        store.replays.markFailed(replay, messageOf(error));
      }, () => {
        replaysDone += 1;
        progress();
      });
    }

    // 4. Display names, when an OAuth app is configured; cached for 30 days (names change at most that often).
    if (options.displayNames) {
      phase = 'names';
      progress();
      const stale = store.players.needingDisplayNames(new Date(now().getTime() - NAME_CACHE_MS));
      if (stale.length > 0) {
        try {
          const names = await client.getDisplayNames(stale, { signal });
          store.players.setDisplayNames(names, now().toISOString());
        } catch (error) {
          if (stopping(signal) || isFatal(error)) throw error;
          fail(null, new Error(`could not fetch display names: ${messageOf(error)}`));
        }
      }
    }
  } catch (error) {
    if (fatal || isFatal(error)) fail(null, fatal ?? error);
    else if (stopping(signal)) cancelled = true;
    else fail(null, error);
  }

  const outcome: SyncOutcome =
    fatal || errors.some((e) => e.mapId === null && mapsOk === 0)
      ? 'failed'
      : cancelled
        ? 'cancelled'
        : errors.length === 0
          ? 'ok'
          : mapsOk > 0
            ? 'partial'
            : 'failed';
  const counts = { maps: mapsDone, requests: requests(), records, newPbs: newRecords, replays: replaysDownloaded };
  store.syncRuns.finish(runId, outcome, counts);
  phase = 'done';
  progress();
  return {
    runId, list: list ?? null, outcome, maps: mapsDone, players: players.length, requests: counts.requests, records,
    newRecords, newPersonalBests, replaysDownloaded, replaysHidden, replaysFailed, unknownMaps, errors,
    durationMs: Date.now() - started,
  };
}

/** Map IDs added to the list that no sync has resolved yet. */
function pendingMapIds(store: Store, list?: string): string[] {
  const lists = list === undefined ? store.watchlists.list().map((l) => l.id) : [list];
  const ids = new Set<string>();
  for (const l of lists) for (const ref of store.maps.refs(l)) if (!ref.resolved && ref.mapId && !ref.mapUid) ids.add(ref.mapId);
  return [...ids];
}

function announce(
  map: StoredMap,
  improvements: readonly HistoryRow[],
  nameOf: (accountId: string) => string,
  onNewPersonalBest?: (event: NewPersonalBest) => void,
): void {
  if (!onNewPersonalBest) return;
  const isStunt = isStuntMapType(map.mapType);
  for (const row of improvements) {
    onNewPersonalBest({
      mapId: map.mapId, mapUid: map.mapUid, mapName: map.name, accountId: row.accountId,
      playerName: nameOf(row.accountId), kind: row.kind, oldTime: row.oldTime, newTime: row.newTime,
      oldScore: row.oldScore, newScore: row.newScore, hidden: row.hidden, isStunt, recordTimestamp: row.recordTimestamp,
    });
  }
}

/**
 * Downloads one replay into the store's path for it. A file already at that path is complete (files are only ever
 * renamed into place), so a sync killed between the rename and the database write keeps it instead of fetching again.
 */
async function fetchReplay(deps: SyncDeps, replay: PendingReplay, signal?: AbortSignal): Promise<'downloaded' | 'hidden'> {
  const { store, client, dataDir } = deps;
  const file = resolveInDataDir(dataDir, replay.path);
  const existing = await readFile(file).catch(() => null);
  if (existing) {
    const sha256 = createHash('sha256').update(existing).digest('hex');
    store.replays.markDownloaded(replay, replay.path, existing.length, sha256);
    return 'downloaded';
  }
  await mkdir(dirname(file), { recursive: true });
  const result = await client.download(replay.url, file, { signal });
  if (result.state === 'hidden') {
    store.replays.markHidden(replay);
    return 'hidden';
  }
  store.replays.markDownloaded(replay, replay.path, result.bytes, result.sha256);
  return 'downloaded';
}
