// What the store hands back: plain data in the player's words, IDs as Nadeo writes them, times as ISO text.
import type { MapInfo, PlayerRecord } from '../model.ts';

/** A watchlist is named by its name (case-insensitive) or by its numeric ID. */
export type WatchlistRef = string | number;

export interface Watchlist {
  id: number;
  name: string;
  createdAt: string;
}

export interface WatchlistSummary extends Watchlist {
  /** Maps whose info we have. */
  maps: number;
  /** Refs added by ID or UID that no sync has looked up yet (or the service did not know). */
  unresolvedMaps: number;
  players: number;
  /** When the last finished sync covering this list ended (a run over every list counts). */
  lastSyncAt: string | null;
  lastSyncOutcome: SyncOutcome | null;
}

/** How a player names a map to add it: its ID, its UID, or both when known. */
export interface MapRefInput {
  mapId?: string;
  mapUid?: string;
}

export interface AddMapsResult {
  /** Each added ref as the player gave it (UID, else ID). */
  added: string[];
  alreadyListed: string[];
  invalid: { ref: MapRefInput; reason: string }[];
}

/** A map membership of a list, resolved or not. */
export interface ListedMapRef {
  mapId: string | null;
  mapUid: string | null;
  resolved: boolean;
  addedAt: string;
  /** Set when the service did not know this ref the last time a sync asked. */
  notFoundAt: string | null;
}

export interface StoredMap extends MapInfo {
  fetchedAt: string;
}

export interface Player {
  accountId: string;
  /** The player's own name for this account. */
  nickname: string | null;
  /** The account's Trackmania display name, when a sync fetched it. */
  displayName: string | null;
  displayNameFetchedAt: string | null;
  /** Display name, else nickname, else account ID. */
  name: string;
}

export interface AddPlayersResult {
  added: string[];
  alreadyListed: string[];
  invalid: { accountId: string; reason: string }[];
}

/** A current record as stored: every PlayerRecord field, plus where it sits and when we saw it. */
export interface StoredRecord extends PlayerRecord {
  /** 'PersonalBest' or the season ID. */
  scope: string;
  mapUid: string;
  playerName: string;
  /** When a sync first saw this record (this version of the player's record). */
  firstSeenAt: string;
  updatedAt: string;
}

/** Why a history row was written. */
export type HistoryKind = 'first' | 'improved' | 'unhidden' | 'changed';

export interface HistoryRow {
  id: number;
  kind: HistoryKind;
  mapId: string;
  mapUid: string;
  accountId: string;
  scope: string;
  mapRecordId: string;
  /** null on a first sighting, or when the earlier record was hidden. */
  oldTime: number | null;
  newTime: number | null;
  oldScore: number | null;
  newScore: number;
  /** Platform's measure, before (null on a first sighting, before schema 6, or when not tracked) and now. */
  oldRespawnCount: number | null;
  newRespawnCount: number | null;
  hidden: boolean;
  medal: number;
  /** When the player set the record (the service's timestamp). */
  recordTimestamp: string;
  /** When our sync saw it. */
  seenAt: string;
  syncRunId: number | null;
}


export interface ApplyRecordsInput {
  mapId: string;
  /** 'PersonalBest' or the season ID. */
  scope: string;
  records: readonly PlayerRecord[];
  seenAt: string;
  syncRunId: number;
  /**
   * Accounts read beside the watched players (a map's world-record holder, issue 15): a version of one that is no
   * watched player's (PlayersRepo.onlyHolders) is stored (its replay is the WR's ghost) but is no PB history, and is
   * not in `improvements`.
   */
  beside?: readonly string[] | undefined;
}

export interface ApplyRecordsResult {
  /** First sightings and changes: replays to fetch and personal bests to announce. */
  newRecords: PlayerRecord[];
  improvements: HistoryRow[];
}

export interface HistoryFilter {
  /** Map ID or UID. */
  map?: string;
  /** Account ID. */
  player?: string;
  list?: WatchlistRef;
  scope?: string;
  /** On the record's own timestamp: since is inclusive, until exclusive. */
  since?: Date | string | undefined;
  until?: Date | string | undefined;
  limit?: number | undefined;
  /** Newest record first (the default), or oldest first (for plotting a progression). */
  order?: 'newest' | 'oldest' | undefined;
}

/** One map and the current records of a list's players on it, unranked (shared/leaderboard.ts ranks them). */
export interface MapRecords {
  map: StoredMap;
  records: StoredRecord[];
}

export type ReplayState = 'downloaded' | 'hidden' | 'failed';

export interface PendingReplay {
  mapId: string;
  accountId: string;
  mapRecordId: string;
  /** Untrusted: the downloader checks it before use. */
  url: string;
  /** Where the file goes, relative to the data folder. */
  path: string;
  /** Failed tries so far. */
  attempts: number;
}

export interface ReplayEntry {
  mapRecordId: string;
  mapId: string | null;
  mapUid: string | null;
  mapName: string | null;
  accountId: string | null;
  playerName: string | null;
  state: ReplayState;
  /** Relative to the data folder, forward slashes. */
  path: string | null;
  size: number | null;
  sha256: string | null;
  error: string | null;
  attempts: number;
  updatedAt: string;
}

export type SyncOutcome = 'ok' | 'partial' | 'failed' | 'cancelled';
export type SyncRunState = SyncOutcome | 'running';

export interface SyncCounts {
  maps: number;
  requests: number;
  records: number;
  newPbs: number;
  replays: number;
}

export interface SyncRunError {
  mapId: string | null;
  message: string;
  at: string;
}

export interface SyncRun {
  id: number;
  /** The list's name, or null for a run over every list. */
  list: string | null;
  startedAt: string;
  finishedAt: string | null;
  outcome: SyncRunState;
  counts: SyncCounts;
  errors: SyncRunError[];
}
