// What a sync takes and gives: its options, its dependencies, its progress events and its summary. engine.ts runs it;
// the phases (phases/) and the run state (run-state.ts) read and fill these.
import type { NadeoClient, RequestEvent } from '../nadeo/index.ts';
import type { MapKind, RecordResult } from '../../shared/leaderboard.ts';
import type { LocalFaultCode } from '../store/errors.ts';
import type { Store } from '../store/index.ts';
import type { HistoryRow, ReplayEntry, SyncOutcome } from '../store/types.ts';
import type { SourceRefresh } from '../sources.ts';
import type { PositionsAnswers, PositionsSummary } from './positions.ts';
import type { WorldRecordsSummary } from './world-records.ts';
import type { WorldRecord } from '../nadeo/index.ts';

/** What the progress bar says the sync is doing (the window words each: service/sync-runner.ts). */
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
  /**
   * Estimated milliseconds left in the whole sync: the requests still due (what the current phase has left, and the
   * plan's estimate of the phases after it) at the pace kept so far; null until there is a pace to go by.
   */
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

/** Something that went wrong, for one map or (mapId null) for the run as a whole. */
export interface SyncError {
  mapId: string | null;
  message: string;
}

export interface SyncSummary {
  runId: number;
  list: string | null;
  outcome: SyncOutcome;
  maps: number;
  players: number;
  /** Requests this run sent (see SyncDeps.requestEvents). */
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
  errors: SyncError[];
  /** Maps that lists following a source gained since it was last read (a new Track of the Day), per list. */
  newMaps: { list: string; title: string; mapUids: string[] }[];
  /** The world positions asked for (Live services), or null when none were asked for. */
  positions: PositionsSummary | null;
  /** The world records asked for (Live top route) and the WR ghosts asked along, or null when none were asked for. */
  worldRecords: WorldRecordsSummary | null;
  /** Replays whose download failed in this run and that the next sync asks for again (report.ts). */
  failedReplays: ReplayEntry[];
  /** Replays of every list that failed too often and are no longer asked for. */
  replaysGivenUp: number;
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
  /** Ask the world record of the maps of lists whose "world record" setting is on (default true, when it can be asked). */
  worldRecords?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
  onNewPersonalBest?: (event: NewPersonalBest) => void;
  /** The run is stored: its ID names it everywhere (progress, summary, the window's sync.start). */
  onRunStarted?: (runId: number) => void;
}

/** The request events of every client a sync uses (each client's onRequest, fanned out): see run-requests.ts. */
export interface RequestEvents {
  /** Calls `listener` for each request event from now on; the returned function stops it. */
  subscribe(listener: (event: RequestEvent) => void): () => void;
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
  /** Before the records: a map's world record from the Live top route (LiveClient.getWorldRecord); null when empty. */
  worldRecord?: ((mapUid: string, signal: AbortSignal) => Promise<WorldRecord | null>) | undefined;
  /**
   * After the records: the world positions of PBs whose score changed (core/sync/positions.ts); the phase counts their
   * requests from the run's own.
   */
  syncPositions?: ((list: string | undefined, signal: AbortSignal) => Promise<PositionsAnswers>) | undefined;
  /**
   * The request events of every client of the connection this sync uses (one hub per connection: core/trackwatch/
   * clients.ts): the run counts those sent from inside it, and no request made meanwhile by anyone else (a thumbnail,
   * a name look-up, another run).
   */
  requestEvents: RequestEvents;
  /** The sync's clock: what it stores as when, and what the time left is measured on. */
  now?: () => Date;
}
