// What a sync will ask for, before it asks (issue 9 §1): which replays it downloads (its lists' maps and players
// only, by each list's replay policy), the world positions it asks the Live services for, and what the whole sync
// costs in requests and time at the configured pace. A player who fears a ban sees "about 26 record requests,
// 1,250 replay downloads and 50 position requests, about 22 min at 1 request/s".
import { DEFAULT_MAX_URI_LENGTH, MAX_MAPS_PER_POSITION_REQUEST, minimumPositionRequests, type PositionQuery } from '../nadeo/index.ts';
import { MAX_REPLAY_ATTEMPTS, type PendingReplay, type Store } from '../store/index.ts';
import { positionQuestions } from './positions.ts';
import { worldRecordLists } from './world-records.ts';
import { mapKind, playerLabel, rankLeaderboard } from '../../shared/leaderboard.ts';
import { DEFAULT_MAX_RPS } from '../../shared/rate-policy.ts';

/** Map info older than this is looked up again by a sync (and by the plan's count). */
export const MAP_INFO_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** A first sync that takes at least this long at the pace kept (300 requests at 1 request/s) asks before it starts. */
export const LARGE_SYNC_SECONDS = 300;

// Keys per lookup request under the URI limit, with room for the route and the other parameters (batching.ts packs
// the real requests on the exact strings; the plan only needs "about"): an account or map ID is 36 characters and a
// comma, a map UID about 27.
const ROOM = DEFAULT_MAX_URI_LENGTH - 200;
const IDS_PER_REQUEST = Math.floor(ROOM / 37);
const UIDS_PER_REQUEST = Math.floor(ROOM / 28);

export interface SyncPlanOptions {
  /** A watchlist's name; every list when absent. */
  list?: string | undefined;
  /** Whether replays are downloaded (default true). */
  replays?: boolean | undefined;
  refreshMaps?: boolean | undefined;
  seasonIds?: readonly string[] | undefined;
  /** The player's own account ("me"), for lists that download only me and the best N. */
  me?: string | undefined;
  /** Whether the world positions of changed PBs are asked after the records (default true; `sync --no-positions`). */
  positions?: boolean | undefined;
  /** Whether the world records of lists that ask for them are read (default true). */
  worldRecords?: boolean | undefined;
  /** The pace the client keeps, requests per second (default 1). */
  maxRps?: number | undefined;
  /** The pace kept with the Live services, which answer the positions (default maxRps). */
  liveMaxRps?: number | undefined;
  now?: Date | undefined;
}

export interface SyncPlan {
  /** The lists the sync covers. */
  lists: string[];
  maps: number;
  players: number;
  mapLookups: number;
  recordRequests: number;
  /** Replays due now, plus an estimate for the maps no sync has read yet. */
  replayDownloads: number;
  /**
   * Live requests for world positions: the PBs already stored whose position is due, packed as the Live client packs
   * them, plus an estimate for the maps no sync has read yet (a PB per player each). 0 when positions are off.
   */
  positionRequests: number;
  /**
   * Live top-route requests for world records: one per map of the lists whose "world record" setting is on (maps
   * still to look up included). 0 when world records are off. The WR's ghost costs no record request of its own.
   */
  worldRecordRequests: number;
  /** Every request: map lookups, record requests and replay downloads (Core), position and world record requests (Live). */
  requests: number;
  maxRps: number;
  liveMaxRps: number;
  /** About how long the position requests take at liveMaxRps (part of seconds). */
  positionSeconds: number;
  /** About how long the world record requests take at liveMaxRps (part of seconds). */
  worldRecordSeconds: number;
  /**
   * About how long the whole sync takes: the Core requests at maxRps, then the position requests at liveMaxRps (the
   * engine asks them after the records and before the replays, one after the other, never side by side).
   */
  seconds: number;
  /** One of the lists has never been synced. */
  firstSync: boolean;
  /** A first sync this big asks before it starts. */
  large: boolean;
}

/** The lists a sync of `list` (or of every list) covers, by name. */
function listsOf(store: Store, list: string | undefined): string[] {
  return list === undefined ? store.watchlists.list().map((l) => l.name) : [store.watchlists.require(list).name];
}

/**
 * The replays a sync downloads: for each list it covers, the due replays of that list's maps and players, by the
 * list's policy ('all' of them, only "me" and the best N of each map, or 'none'). Once per record.
 */
export function replaysWanted(store: Store, options: { list?: string | undefined; me?: string | undefined } = {}): PendingReplay[] {
  const wanted = new Map<string, PendingReplay>();
  for (const name of listsOf(store, options.list)) {
    const policy = store.watchlists.replayPolicy(name);
    if (policy.mode === 'none') continue;
    let due = store.replays.pending(Number.MAX_SAFE_INTEGER, { list: name });
    if (policy.mode === 'best') {
      // The ranking is the leaderboard's own (shared/leaderboard.ts): the best N visible records of each map, and mine.
      const keep = new Set<string>();
      const players = store.players.list(name);
      for (const { map, records } of store.records.leaderboards(name)) {
        const byAccount = new Map(records.map((r) => [r.accountId, r]));
        const board = rankLeaderboard(mapKind(map), players.map((p) => ({
          player: p, name: playerLabel(p), record: byAccount.get(p.accountId) ?? null, isMe: p.accountId === options.me,
        })));
        for (const entry of board.entries) {
          const record = byAccount.get(entry.player.accountId);
          // Ranks count the secret entries ahead, whose replays the service refuses: N counts visible ones.
          if (record && entry.status !== 'secret' && (entry.isMe || (entry.visibleRank !== null && entry.visibleRank <= policy.best))) keep.add(record.mapRecordId);
        }
      }
      due = due.filter((replay) => keep.has(replay.mapRecordId));
    }
    for (const replay of due) if (!wanted.has(replay.mapRecordId)) wanted.set(replay.mapRecordId, replay);
    // The WR's ghost, when the list asks for world records: a reference like the list's best, by the same policy.
    if (store.worldRecords.setting(name).on) {
      for (const replay of store.worldRecords.pendingReplays(name, MAX_REPLAY_ATTEMPTS)) if (!wanted.has(replay.mapRecordId)) wanted.set(replay.mapRecordId, replay);
    }
  }
  return [...wanted.values()];
}

/** What a sync with these options will ask for, counted from the store without touching the network. */
export function planSync(store: Store, options: SyncPlanOptions = {}): SyncPlan {
  const list = options.list;
  const lists = listsOf(store, list);
  const now = options.now ?? new Date();
  const maxRps = options.maxRps ?? DEFAULT_MAX_RPS;
  const maps = store.maps.list(list).length;
  const players = store.players.list(list).length;
  const pendingUids = store.maps.unresolvedUids(list).length;
  const staleBefore = options.refreshMaps ? new Date(now.getTime() + 1) : new Date(now.getTime() - MAP_INFO_MAX_AGE_MS);
  const staleIds = store.maps.staleIds(staleBefore, list).length;
  const summaries = lists.map((name) => store.watchlists.get(name)!);
  const unresolved = summaries.reduce((n, s) => n + s.unresolvedMaps, 0);
  const mapLookups = Math.ceil(pendingUids / UIDS_PER_REQUEST) + Math.ceil((staleIds + Math.max(0, unresolved - pendingUids)) / IDS_PER_REQUEST);
  const scopes = 1 + (options.seasonIds?.length ?? 0);
  // Maps still to look up (by UID or by ID) are read too, once found.
  const recordRequests = players === 0 ? 0 : (maps + unresolved) * Math.ceil(players / IDS_PER_REQUEST) * scopes;

  let replayDownloads = 0;
  if (options.replays !== false) {
    replayDownloads = replaysWanted(store, { list, me: options.me }).length;
    // Maps no sync has read for a list: each may bring a replay per player the list's policy keeps.
    for (const name of lists) {
      const policy = store.watchlists.replayPolicy(name);
      if (policy.mode === 'none') continue;
      const listPlayers = store.players.list(name);
      const perMap = policy.mode === 'all'
        ? listPlayers.length
        : Math.min(listPlayers.length, policy.best + (listPlayers.some((p) => p.accountId === options.me) ? 1 : 0));
      // And the WR's ghost of each, when the list asks for world records.
      const worldRecord = options.worldRecords !== false && store.worldRecords.setting(name).on ? 1 : 0;
      replayDownloads += store.watchlists.unsyncedMaps(name) * (perMap + worldRecord);
    }
  }

  // The sync asks positions only when the synced lists have players (phases/positions.ts).
  const positionRequests = options.positions === false || players === 0 ? 0 : positionRequestsOf(store, lists, list);
  const worldRecordRequests = options.worldRecords === false ? 0 : worldRecordRequestsOf(store, list);
  const liveMaxRps = options.liveMaxRps ?? maxRps;
  const coreRequests = mapLookups + recordRequests + replayDownloads;
  const positionSeconds = positionRequests / liveMaxRps;
  const worldRecordSeconds = worldRecordRequests / liveMaxRps;
  const seconds = coreRequests / maxRps + positionSeconds + worldRecordSeconds;
  const firstSync = summaries.some((s) => s.lastSyncAt === null && s.maps + s.unresolvedMaps > 0);
  return {
    lists, maps: maps + unresolved, players, mapLookups, recordRequests, replayDownloads, positionRequests, worldRecordRequests,
    requests: coreRequests + positionRequests + worldRecordRequests, maxRps, liveMaxRps, positionSeconds, worldRecordSeconds, seconds,
    firstSync, large: firstSync && seconds >= LARGE_SYNC_SECONDS,
  };
}

/** One top-route request per distinct map of the covered lists that ask for world records, maps to look up included. */
function worldRecordRequestsOf(store: Store, list: string | undefined): number {
  const maps = new Set<string>();
  let unresolved = 0;
  for (const name of worldRecordLists(store, list)) {
    for (const map of store.maps.list(name)) maps.add(map.mapId);
    unresolved += store.watchlists.get(name)?.unresolvedMaps ?? 0;
  }
  return maps.size + unresolved;
}

/**
 * The Live requests a sync's positions take: the questions due now (syncPositions asks them all in one call) and,
 * for each map no sync has read for a list, one question per player of the list. The Live client packs one call
 * into max(the busiest map's questions, ceil(questions / 50)) requests (minimumPositionRequests); unsynced maps are
 * counted rather than listed (a 5,000 x 400 list would be 2 million questions), so their busiest map joins the due
 * questions and their number joins the total.
 */
function positionRequestsOf(store: Store, lists: readonly string[], list: string | undefined): number {
  const due = positionQuestions(store.positions.due(list));
  let busiest: PositionQuery[] = [];
  let questions = due.length;
  for (const name of lists) {
    const unsynced = store.watchlists.unsyncedMaps(name);
    if (unsynced === 0) continue;
    const listPlayers = store.players.list(name).length;
    questions += unsynced * listPlayers;
    if (listPlayers > busiest.length) busiest = Array.from({ length: listPlayers }, (_, score) => ({ mapUid: '(a map no sync has read)', score }));
  }
  return Math.max(minimumPositionRequests([...due, ...busiest]), Math.ceil(questions / MAX_MAPS_PER_POSITION_REQUEST));
}

const count = (n: number): string => n.toLocaleString('en-US');

/** "under a minute", "about 21 min", "about 16 h". */
export function describeDuration(seconds: number): string {
  if (seconds < 60) return 'under a minute';
  const minutes = seconds / 60;
  if (minutes < 90) return `about ${Math.round(minutes)} min`;
  const hours = minutes / 60;
  return `about ${hours < 10 ? Math.round(hours * 10) / 10 : Math.round(hours)} h`;
}

const some = (n: number, what: string): string => `${count(n)} ${what}${n === 1 ? '' : 's'}`;
const rateOf = (rps: number): string => `${some(rps, 'request')}/s`;

/**
 * The cost line the command line and the window show before a sync: "about 26 record requests, 1,250 replay
 * downloads and 50 position requests, about 22 min at 1 request/s". No position or world record part when none will be asked.
 */
export function describeCost(plan: SyncPlan): string {
  const parts = [some(plan.recordRequests, 'record request')];
  if (plan.mapLookups > 0) parts.push(some(plan.mapLookups, 'map lookup'));
  parts.push(some(plan.replayDownloads, 'replay download'));
  if (plan.positionRequests > 0) parts.push(some(plan.positionRequests, 'position request'));
  if (plan.worldRecordRequests > 0) parts.push(some(plan.worldRecordRequests, 'world record request'));
  const joined = parts.length === 2 ? parts.join(' and ') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const liveWhat = plan.positionRequests > 0 && plan.worldRecordRequests > 0 ? 'positions and world records' : plan.positionRequests > 0 ? 'positions' : 'world records';
  const live = plan.positionRequests + plan.worldRecordRequests > 0 && plan.liveMaxRps !== plan.maxRps ? ` (${liveWhat} at ${rateOf(plan.liveMaxRps)})` : '';
  return `about ${joined}, ${describeDuration(plan.seconds)} at ${rateOf(plan.maxRps)}${live}`;
}
