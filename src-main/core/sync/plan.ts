// What a sync will ask for, before it asks (issue 9 §1): which replays it downloads (its lists' maps and players
// only, by each list's replay policy) and what the whole sync costs in requests and time at the configured pace.
// A player who fears a ban sees "about 26 record requests and 1,250 replay downloads, about 21 min at 1 request/s".
import { DEFAULT_MAX_URI_LENGTH } from '../nadeo/index.ts';
import type { PendingReplay, Store } from '../store/index.ts';
import { mapKind, playerLabel, rankLeaderboard } from '../../shared/leaderboard.ts';

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
  /** The pace the client keeps, requests per second (default 1). */
  maxRps?: number | undefined;
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
  requests: number;
  maxRps: number;
  /** About how long the requests take at maxRps. */
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
          const visibleRank = entry.rank === null ? null : entry.rank - board.secret;
          if (record && entry.status !== 'secret' && (entry.isMe || (visibleRank !== null && visibleRank <= policy.best))) keep.add(record.mapRecordId);
        }
      }
      due = due.filter((replay) => keep.has(replay.mapRecordId));
    }
    for (const replay of due) if (!wanted.has(replay.mapRecordId)) wanted.set(replay.mapRecordId, replay);
  }
  return [...wanted.values()];
}

/** What a sync with these options will ask for, counted from the store without touching the network. */
export function planSync(store: Store, options: SyncPlanOptions = {}): SyncPlan {
  const list = options.list;
  const lists = listsOf(store, list);
  const now = options.now ?? new Date();
  const maxRps = options.maxRps ?? 1;
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
      replayDownloads += store.watchlists.unsyncedMaps(name) * perMap;
    }
  }

  const requests = mapLookups + recordRequests + replayDownloads;
  const firstSync = summaries.some((s) => s.lastSyncAt === null && s.maps + s.unresolvedMaps > 0);
  return {
    lists, maps: maps + unresolved, players, mapLookups, recordRequests, replayDownloads, requests, maxRps,
    seconds: requests / maxRps, firstSync, large: firstSync && requests / maxRps >= LARGE_SYNC_SECONDS,
  };
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

/** The cost line the command line and the window show before a sync. */
export function describeCost(plan: SyncPlan): string {
  const parts = [`${count(plan.recordRequests)} record request${plan.recordRequests === 1 ? '' : 's'}`];
  if (plan.mapLookups > 0) parts.push(`${count(plan.mapLookups)} map lookup${plan.mapLookups === 1 ? '' : 's'}`);
  parts.push(`${count(plan.replayDownloads)} replay download${plan.replayDownloads === 1 ? '' : 's'}`);
  const joined = parts.length === 2 ? parts.join(' and ') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  const rate = `${count(plan.maxRps)} request${plan.maxRps === 1 ? '' : 's'}/s`;
  return `about ${joined}, ${describeDuration(plan.seconds)} at ${rate}`;
}
