// The sync engine: plan what a list needs, fetch it politely, write it in transactions, then fetch replays.
// Fetch first, then write: no await ever sits inside a transaction, so a sync killed at any moment leaves the
// store consistent and the next sync picks up whatever was not written (pending refs, pending replays).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { NadeoClient } from '../nadeo/index.ts';
import { AbortError, AuthError, ConfigError } from '../nadeo/index.ts';
import { mapKind, type MapKind, type RecordResult } from '../../shared/leaderboard.ts';
import { PERSONAL_BEST, replayPath, type Store } from '../store/index.ts';
import { StoreError, StoreErrorCode, localFault, notFound, type LocalFaultCode } from '../store/errors.ts';
import { matchesStored, resolveInDataDir } from '../store/files.ts';
import type { HistoryRow, PendingReplay, ReplayEntry, StoredMap, SyncOutcome } from '../store/types.ts';
import type { SourceRefresh } from '../sources.ts';
import { acquireSyncLock } from './lock.ts';
import { MAP_INFO_MAX_AGE_MS, replaysWanted } from './plan.ts';
import { forEachConcurrently } from './pool.ts';
import type { PositionsSummary } from './positions.ts';
import { longWaitOf, isUnreachable, UNREACHABLE_AFTER_FAILURES, unreachableMessage, waitMessage } from './waits.ts';

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
  /** How the map ranks (shared/leaderboard.ts): the results read in its unit. */
  mapKind: MapKind;
  result: RecordResult;
  /** The result before; null for a first sighting. */
  previous: RecordResult | null;
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
  /** Maps that lists following a source gained since it was last read (a new Track of the Day), per list. */
  newMaps: { list: string; title: string; mapUids: string[] }[];
  /** The world positions asked for (Live services), or null when none were asked for. */
  positions: PositionsSummary | null;
  /** What stopped the sync on this machine (a full disk, a read-only or damaged database), when that did. */
  localFault: { code: LocalFaultCode; message: string } | null;
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
  /** The player's own account, for lists that download only "me" and the best N replays per map. */
  me?: string | undefined;
  /** Ask the Live services for the world positions of PBs whose score changed (default true, when they can be asked). */
  positions?: boolean;
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
  /** The API's host (map info, records): a long wait it asks for stops every call to it. */
  apiHost?: string | undefined;
  /** The Live services' host (sources, positions): a long wait it asks for stops every call to it. */
  liveHost?: string | undefined;
  /** Before the maps are read: a list that follows a source adds the maps that appeared since (core/sources.ts). */
  refreshSource?: ((list: number, signal: AbortSignal) => Promise<SourceRefresh | undefined>) | undefined;
  /** After the records: the world positions of PBs whose score changed (core/sync/positions.ts). */
  syncPositions?: ((list: string | undefined, signal: AbortSignal) => Promise<PositionsSummary>) | undefined;
  now?: () => Date;
}

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

/**
 * Errors no other map or retry can get past: the whole sync stops and says why. Bad credentials or settings, and a
 * local fault (a full disk, a read-only or damaged database): every next write would fail the same way.
 */
function isFatal(error: unknown): boolean {
  return error instanceof AuthError || error instanceof ConfigError || localFault(error) !== undefined;
}

/** A fatal error as the player reads it: a local fault in its store words (what to do), others as they are. */
function fatalMessage(error: unknown): string {
  return localFault(error)?.message ?? messageOf(error);
}

class FatalSyncError extends Error {}

/** Runs one sync of a list (or of every list) and resolves with its summary; never leaves a run "running". */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncSummary> {
  const now = deps.now ?? (() => new Date());
  const started = Date.now();
  const lock = await acquireSyncLock(deps.dataDir);
  try {
    return await syncLocked(deps, options, now, started);
  } finally {
    await lock.release();
  }
}

async function syncLocked(deps: SyncDeps, options: SyncOptions, now: () => Date, started: number): Promise<SyncSummary> {
  const { store, client } = deps;
  // Where every API call goes (map info, records): the key of its long wait. The Live services may share it.
  const API_HOST = deps.apiHost ?? 'the API';
  const LIVE_HOST = deps.liveHost ?? 'the Live services';
  // A fatal error (bad credentials, a full disk) or a service that cannot be reached stops every worker, as a
  // cancel would, but is reported as a failure.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let fatal: unknown;
  let unreachable = false;
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
  let mapsSkipped = 0;
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
  const newMaps: SyncSummary['newMaps'] = [];
  let positions: PositionsSummary | null = null;
  // Answers the service gave (anything stored from it), and network failures in a row with no answer between.
  let answers = 0;
  let unansweredInARow = 0;
  // Network failures held back until the service answers again: if it does not, one line says so instead.
  let heldBack: { mapId: string | null; message: string }[] = [];
  // Hosts that asked for a wait longer than the sync will make (Retry-After): nothing more is asked of them.
  const waiting = new Map<string, string>();

  const requests = (): number => client.stats().requests - requestsAtStart;
  const record = (mapId: string | null, message: string): void => {
    errors.push({ mapId, message });
    store.syncRuns.addError(runId, mapId, message);
  };
  const answered = (): void => {
    answers += 1;
    unansweredInARow = 0;
    for (const e of heldBack) record(e.mapId, e.message);
    heldBack = [];
  };
  const fail = (mapId: string | null, error: unknown, host?: string): void => {
    const wait = longWaitOf(error, host);
    if (wait) {
      // One line per host, however many calls were turned back.
      if (!waiting.has(wait.host)) {
        waiting.set(wait.host, wait.retryAt);
        record(null, waitMessage(wait));
        hostStops.get(wait.host)?.abort();
      }
      return;
    }
    if (isUnreachable(error)) {
      unansweredInARow += 1;
      if (unansweredInARow >= UNREACHABLE_AFTER_FAILURES) {
        if (!unreachable) {
          unreachable = true;
          heldBack = [];
          record(null, unreachableMessage(answers > 0));
          stop.abort();
        }
        return;
      }
      // Held back until the service answers again: if it never does, the one line above says it all.
      heldBack.push({ mapId, message: messageOf(error) });
      return;
    }
    record(mapId, messageOf(error));
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

  /** Aborts the calls to a host that asked for a long wait; the sync's own signal (cancel, fatal) aborts them all. */
  const hostStops = new Map<string, AbortController>();
  const signalFor = (host: string): AbortSignal => {
    let stopHost = hostStops.get(host);
    if (!stopHost) hostStops.set(host, (stopHost = new AbortController()));
    return AbortSignal.any([signal, stopHost.signal]);
  };

  /**
   * Works through items concurrently: a fatal error stops everything, a cancel ends quietly, others go to onError.
   * An item whose host asked for a long wait is skipped, and so is one whose call that wait cut short (hostOf says
   * where an item goes; the API's host by default). Returns how many were skipped.
   */
  const each = async <T>(
    items: readonly T[],
    work: (item: T, signal: AbortSignal) => Promise<void>,
    onError: (item: T, error: unknown) => void,
    after: () => void,
    hostOf: (item: T) => string = () => API_HOST,
  ): Promise<number> => {
    let skipped = 0;
    await forEachConcurrently(items, options.concurrency ?? 4, async (item) => {
      const host = hostOf(item);
      try {
        if (waiting.has(host)) {
          skipped += 1;
          return;
        }
        await work(item, signalFor(host));
      } catch (error) {
        if (isFatal(error)) {
          fatal ??= error;
          stop.abort();
        } else if (stopping(signal)) {
          // cancelled, or stopped by a fatal error: said once, by the caller
        } else if (waiting.has(host) && !longWaitOf(error)) skipped += 1;
        else onError(item, error);
      } finally {
        after();
      }
    }, signal);
    if (fatal) throw new FatalSyncError();
    if (signal.aborted) throw new AbortError('The sync was cancelled.');
    return skipped;
  };

  try {
    // 0. Lists made from a source (a campaign, a Track of the Day month...) add the maps that appeared since.
    if (deps.refreshSource) {
      const only = list === undefined ? undefined : store.watchlists.get(list)?.id;
      for (const followed of store.sources.list()) {
        if (signal.aborted || waiting.has(LIVE_HOST)) break;
        if (list !== undefined && followed.listId !== only) continue;
        try {
          const refreshed = await deps.refreshSource(followed.listId, signalFor(LIVE_HOST));
          if (refreshed && refreshed.added.length > 0) newMaps.push({ list: refreshed.list, title: refreshed.title, mapUids: refreshed.added });
        } catch (error) {
          if (stopping(signal) || isFatal(error)) throw error;
          // The host that failed (the Live services, or Trackmania Exchange for a pack) says itself in the error.
          fail(null, prefixed(`could not read what ${followed.title} holds now (list "${followed.list}")`, error));
        }
      }
    }

    // 1. Maps: resolve UIDs added since the last sync, refresh info that is old.
    const pendingUids = store.maps.unresolvedUids(list);
    if (pendingUids.length > 0) {
      progress();
      try {
        const found = await client.getMapsByUid(pendingUids, { signal: signalFor(API_HOST) });
        answered();
        store.maps.upsert(found.maps, now().toISOString());
        for (const r of found.rejected) record(null, `map ${r.mapUid ?? r.mapId ?? ''} left out: ${r.reason}`);
        if (found.notFound.length > 0) {
          store.maps.markNotFound(found.notFound);
          unknownMaps.push(...found.notFound);
        }
      } catch (error) {
        if (stopping(signal) || isFatal(error)) throw error;
        fail(null, prefixed(`could not look up ${pendingUids.length} map UID(s)`, error), API_HOST);
      }
    }
    const staleBefore = options.refreshMaps ? new Date(now().getTime() + 1) : new Date(now().getTime() - (options.mapInfoMaxAgeMs ?? MAP_INFO_MAX_AGE_MS));
    const pendingIds = pendingMapIds(store, list);
    const staleIds = [...new Set([...store.maps.staleIds(staleBefore, list), ...pendingIds])];
    if (staleIds.length > 0 && !waiting.has(API_HOST) && !signal.aborted) {
      try {
        const found = await client.getMapsById(staleIds, { signal: signalFor(API_HOST) });
        answered();
        store.maps.upsert(found.maps, now().toISOString());
        for (const r of found.rejected) record(r.mapId ?? null, `map ${r.mapId ?? r.mapUid ?? ''} left out: ${r.reason}`);
        const missing = [...found.notFound, ...found.invalid];
        if (missing.length > 0) {
          store.maps.markNotFound(missing);
          unknownMaps.push(...missing.filter((id) => pendingIds.includes(id)));
        }
      } catch (error) {
        if (stopping(signal) || isFatal(error)) throw error;
        fail(null, prefixed(`could not refresh the info of ${staleIds.length} map(s)`, error), API_HOST);
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
    if (signal.aborted) throw new AbortError('The sync was stopped.');
    if (players.length === 0) mapsDone = mapsTotal; // nothing to ask for: no watched players
    else {
      mapsSkipped = await each(maps, async (map, callSignal) => {
        for (const scope of scopes) {
          const fetched = await client.getRecords(map, players, {
            signal: callSignal,
            ...(scope === PERSONAL_BEST ? {} : { seasonId: scope }),
          });
          answered();
          records += fetched.records.length;
          // Records the service sent with values out of range are left out, each said once; the rest of the map is kept.
          for (const r of fetched.rejected) {
            record(map.mapId, `a record${r.accountId ? ` of ${names.get(r.accountId) ?? r.accountId}` : ''} was left out: ${r.reason}`);
          }
          // The map's records and its replays' states in one commit: a hidden record's replay waits with it, and a
          // record that shows (a secret threshold lifted) or changed has its replay due again.
          const applied = store.transaction(() => {
            const result = store.records.applyRecords({
              mapId: map.mapId, scope, records: fetched.records, seenAt: now().toISOString(), syncRunId: runId,
            });
            for (const r of result.newRecords) {
              if (r.hidden || r.time === null) store.replays.markHidden(r);
              else store.replays.requeue(r);
            }
            return result;
          });
          if (scope === PERSONAL_BEST) {
            announce(map, applied.improvements, (accountId) => names.get(accountId) ?? accountId, options.onNewPersonalBest);
            newRecords += applied.improvements.length;
            newPersonalBests += applied.improvements.filter((h) => h.kind !== 'first').length;
          }
        }
        mapsOk += 1;
      }, (map, error) => fail(map.mapId, error, API_HOST), () => {
        mapsDone += 1;
        progress();
      });
    }

    // 2b. World positions of the PBs whose score changed since their position was asked (Live services).
    if (deps.syncPositions && options.positions !== false && players.length > 0 && !signal.aborted && !waiting.has(LIVE_HOST)) {
      try {
        positions = await deps.syncPositions(list, signalFor(LIVE_HOST));
      } catch (error) {
        if (stopping(signal) || isFatal(error)) throw error;
        fail(null, prefixed('could not ask for world positions', error), LIVE_HOST);
      }
    }

    // 3. Replays: those of the synced lists' maps and players the lists' policies want, including what an
    //    interrupted sync left behind; never another list's.
    if (options.replays !== false) {
      phase = 'replays';
      // Every due replay at once (a few small objects each), so progress and time left count them all.
      const pending = replaysWanted(store, { list, me: options.me });
      replaysTotal = pending.length;
      progress();
      await each(pending, async (replay, callSignal) => {
        const state = await fetchReplay(deps, replay, callSignal);
        answered();
        if (state === 'hidden') replaysHidden += 1;
        else replaysDownloaded += 1;
      }, (replay, error) => {
        const host = hostOf(replay.url);
        if (longWaitOf(error, host) || isUnreachable(error)) fail(null, error, host);
        else {
          replaysFailed += 1;
          store.replays.markFailed(replay, messageOf(error));
        }
      }, () => {
        replaysDone += 1;
        progress();
      }, (replay) => hostOf(replay.url) ?? API_HOST);
    }

    // 4. Display names, when an OAuth app is configured; cached for 30 days (names change at most that often). A
    // player the service gives no name for is stamped as asked too, so they wait out the same 30 days.
    if (options.displayNames) {
      phase = 'names';
      progress();
      const stale = store.players.needingDisplayNames(new Date(now().getTime() - NAME_CACHE_MS));
      if (stale.length > 0) {
        try {
          const names = await client.getDisplayNames(stale, { signal: signalFor(NAMES_HOST) });
          store.players.setDisplayNames(names, now().toISOString(), stale);
        } catch (error) {
          if (stopping(signal) || isFatal(error)) throw error;
          fail(null, prefixed('could not fetch display names', error), NAMES_HOST);
        }
      }
    }
  } catch (error) {
    if (fatal || isFatal(error)) record(null, fatalMessage(fatal ?? error));
    else if (unreachable) {
      // Said already, in one line.
    } else if (stopping(signal)) cancelled = true;
    else record(null, messageOf(error));
  }
  for (const e of heldBack) record(e.mapId, e.message);

  const fault = fatal === undefined ? undefined : localFault(fatal);
  const outcome: SyncOutcome =
    fatal || unreachable || errors.some((e) => e.mapId === null && mapsOk === 0)
      ? 'failed'
      : cancelled
        ? 'cancelled'
        : errors.length === 0
          ? 'ok'
          : mapsOk > 0
            ? 'partial'
            : 'failed';
  const counts = { maps: mapsDone - mapsSkipped, requests: requests(), records, newPbs: newRecords, replays: replaysDownloaded };
  finishRun(store, runId, outcome, counts);
  phase = 'done';
  progress();
  return {
    runId, list: list ?? null, outcome, maps: counts.maps, players: players.length, requests: counts.requests, records,
    newRecords, newPersonalBests, replaysDownloaded, replaysHidden, replaysFailed, unknownMaps, errors, newMaps, positions,
    localFault: fault ? { code: fault.code, message: fault.message } : null,
    durationMs: Date.now() - started,
  };
}

/**
 * Closes the run. When even that cannot be written (the disk that failed the sync is still full), the run stays
 * 'running' on disk until the next sync closes it as interrupted; the summary says how it ended either way.
 */
function finishRun(store: Store, runId: number, outcome: SyncOutcome, counts: Parameters<Store['syncRuns']['finish']>[2]): void {
  try {
    store.syncRuns.finish(runId, outcome, counts);
  } catch (error) {
    if (localFault(error) === undefined) throw error;
  }
}

const NAMES_HOST = 'the names service';


function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** An error with what the sync was doing in front of its message; the error's kind (and wait) stays readable. */
function prefixed(what: string, error: unknown): unknown {
  if (longWaitOf(error) || isUnreachable(error)) return error;
  return new Error(`${what}: ${messageOf(error)}`, { cause: error });
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
  const kind = mapKind(map);
  for (const row of improvements) {
    const before = row.kind === 'first' ? null : { hidden: row.kind === 'unhidden', time: row.oldTime, score: row.oldScore, respawnCount: row.oldRespawnCount };
    onNewPersonalBest({
      mapId: map.mapId, mapUid: map.mapUid, mapName: map.name, accountId: row.accountId,
      playerName: nameOf(row.accountId), kind: row.kind, mapKind: kind,
      result: { hidden: row.hidden, time: row.newTime, score: row.newScore, respawnCount: row.newRespawnCount },
      previous: before, recordTimestamp: row.recordTimestamp,
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
  const result = await client.download(replay.url, file, { signal, dataDir });
  if (result.state === 'hidden') {
    // Refused although its record is visible: tried again at later syncs, a bounded number of times.
    store.replays.markForbidden(replay, 'the service refused this replay (403); a later sync asks again');
    return 'hidden';
  }
  store.replays.markDownloaded(replay, replay.path, result.bytes, result.sha256);
  return 'downloaded';
}

/**
 * Downloads one record's replay now, on demand (a list whose policy is 'none', the map view's "fetch replay"), under
 * the data folder's sync lock like any download. Returns the replay's entry: downloaded, or hidden when the service
 * refused it. A record we do not have, or one hidden behind a secret threshold, is refused with what to do.
 */
export async function fetchReplayNow(
  deps: SyncDeps,
  ref: { mapId: string; accountId: string; mapRecordId?: string | undefined },
  signal?: AbortSignal,
): Promise<{ entry: ReplayEntry; alreadyStored: boolean }> {
  const { store } = deps;
  const record = store.records.get(ref.mapId, ref.accountId);
  if (!record || (ref.mapRecordId !== undefined && record.mapRecordId !== ref.mapRecordId.toLowerCase())) {
    throw notFound('no stored record of this player on this map to fetch a replay for; a sync of its list brings it');
  }
  if (record.hidden) {
    throw new StoreError(StoreErrorCode.CONFLICT, "this record is behind the map's secret threshold: its replay cannot be had until the author lifts it");
  }
  const existing = store.replays.get(record.mapRecordId);
  if (existing?.state === 'downloaded' && existing.path) {
    // Stored and still matching its checksum: nothing to ask. A damaged file is removed and downloaded again.
    if (await matchesStored(deps.dataDir, existing.path, existing)) return { entry: existing, alreadyStored: true };
    await rm(resolveInDataDir(deps.dataDir, existing.path), { force: true });
    store.replays.markCorrupt(record, 'the file on disk no longer matched its checksum; it was removed');
  }
  const lock = await acquireSyncLock(deps.dataDir);
  try {
    const replay: PendingReplay = {
      mapId: record.mapId, accountId: record.accountId, mapRecordId: record.mapRecordId, url: record.url,
      path: replayPath(record.mapId, record.accountId, record.mapRecordId), attempts: existing?.attempts ?? 0,
    };
    try {
      await fetchReplay(deps, replay, signal);
    } catch (error) {
      if (!signal?.aborted && localFault(error) === undefined) store.replays.markFailed(replay, messageOf(error));
      throw error;
    }
    return { entry: store.replays.get(record.mapRecordId)!, alreadyStored: false };
  } finally {
    await lock.release();
  }
}
