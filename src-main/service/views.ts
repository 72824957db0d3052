// The store's rows in the shapes the contract promises: plain functions, no I/O, so each is tested on its own. Every
// leaderboard rule (order, rank, secret entries, deltas, medals, names) comes from shared/leaderboard.ts.
import type { z } from 'zod';
import type * as s from '../contract/schemas.ts';
import { isGivenUp } from '../core/store/index.ts';
import type { ListSyncState } from '../core/store/sync-runs.ts';
import { syncErrorFor } from './sync-outcome.ts';
import type { HistoryRow, MapRecords, Player, ReplayEntry, StoredMap, StoredPosition, StoredRecord, StoredWorldRecord, WatchlistSummary as ListSummary } from '../core/store/index.ts';
import {
  medalScores,
  deltaOf, mapKind, medalProgress, playerLabel, rankStoredBoard, resultOfWorldScore, shownResult, worldScoreOf, type Delta, type Leaderboard,
  type MapKind, type MedalScores, type RecordResult, type Standing,
} from '../shared/leaderboard.ts';

type Out<T extends z.ZodType> = z.output<T>;

/** The name shown for a player: the shared rule, here for the handlers that label one player. */
export { playerLabel };

/** "Synced" is said only of a sync that read every map (lastOkAt); the latest sync's outcome goes with it. */
export function watchlistSummary(list: ListSummary, sync: ListSyncState): Out<typeof s.WatchlistSummary> {
  const last = sync.last;
  return {
    name: list.name,
    maps: list.maps,
    players: list.players,
    lastSyncAt: sync.lastOkAt,
    lastSyncOutcome: last?.outcome ?? null,
    lastSync: last ? { outcome: last.outcome, finishedAt: last.finishedAt, failedMaps: last.failedMaps, error: syncErrorFor(last.outcome, last.firstError) } : null,
  };
}

/** Re-exported for the shells that read a map's medals beside the views (one rule: shared/leaderboard.ts). */
export { medalScores };

export function mapSummary(map: StoredMap, authorName: string | null): Out<typeof s.MapSummary> {
  const kind = mapKind(map);
  return {
    mapUid: map.mapUid,
    mapId: map.mapId,
    name: map.name,
    authorId: map.author,
    authorName,
    mapType: map.mapType,
    kind,
    isStunt: kind === 'stunt',
    medals: medalScores(map),
  };
}

export function playerSummary(player: Pick<Player, 'accountId' | 'nickname' | 'displayName'>, me: string | undefined): Out<typeof s.PlayerSummary> {
  return { accountId: player.accountId, nickname: player.nickname, displayName: player.displayName, isMe: me !== undefined && player.accountId === me };
}

/**
 * What is known beside a list's records that places secret entries (docs/game-rules.md "Secret entries"): which
 * account read them (settings.viewer(): an account ID, null for none, undefined when not known) and the stored world
 * positions of the records (by map ID and account ID).
 */
export interface ReadFacts {
  viewer?: string | null | undefined;
  positionOf?: ((mapId: string, accountId: string) => StoredPosition | undefined) | undefined;
}

type BoardMap = Pick<StoredMap, 'mapId' | 'mapType' | 'hasClones' | 'authorScore' | 'goldScore' | 'silverScore' | 'bronzeScore'>;

/**
 * One map's leaderboard among `players` (the list's): their records on it (others' are left out), ranked by the
 * shared rules with what is known of its secret entries (medals, the reader, world positions). Used by the window's
 * views and by the command line alike.
 */
export function leaderboardOf(
  map: BoardMap,
  players: readonly Player[],
  records: readonly StoredRecord[],
  me: string | undefined,
  names: ReadonlyMap<string, string> = labels(players),
  facts: ReadFacts = {},
): Leaderboard<Player> & { records: Map<string, StoredRecord> } {
  const byAccount = new Map(records.map((r) => [r.accountId, r]));
  const board = rankStoredBoard({ mapType: map.mapType, hasClones: map.hasClones, medals: medalScores(map) }, players.map((player) => ({
    player,
    accountId: player.accountId,
    name: names.get(player.accountId) ?? playerLabel(player),
    record: byAccount.get(player.accountId) ?? null,
    isMe: me !== undefined && player.accountId === me,
    position: facts.positionOf?.(map.mapId, player.accountId),
  })), facts.viewer);
  return { ...board, records: byAccount };
}

/** Each player's name shown, worked out once for the many maps of a list. */
export function labels(players: readonly Player[]): Map<string, string> {
  return new Map(players.map((p) => [p.accountId, playerLabel(p)]));
}

type ReplayLookup = (mapRecordId: string) => Pick<ReplayEntry, 'state' | 'path' | 'size'> | undefined;

function replayOf(record: StoredRecord | undefined, lookup: ReplayLookup): Out<typeof s.RankedEntry>['replay'] {
  if (!record) return { state: 'none', file: null, bytes: null };
  // A secret entry has no replay (the service answers 403): whatever the replay log holds is not shown.
  if (record.hidden) return { state: 'hidden', file: null, bytes: null };
  const replay = lookup(record.mapRecordId);
  if (replay?.state === 'downloaded') return { state: 'downloaded', file: replay.path, bytes: replay.size };
  if (replay?.state === 'hidden') return { state: 'hidden', file: null, bytes: null };
  return { state: 'available', file: null, bytes: null };
}

/** A grid cell as the contract carries it: only the fields that hold something (schemas.ts CompareCell). */
function sparseCell(kind: MapKind, standing: Standing<unknown>): Out<typeof s.CompareCell> {
  const record = standing.record!;
  const cell: Out<typeof s.CompareCell> = record.hidden ? { hidden: true, medal: record.medal } : { medal: record.medal };
  if (!record.hidden) {
    const shown = shownResult(kind, record);
    if (shown.time !== null) cell.time = shown.time;
    if (shown.score !== null) cell.score = shown.score;
    if (shown.respawnCount !== null) cell.respawnCount = shown.respawnCount;
  }
  const range = standing.rankRange;
  if (standing.rank !== null) cell.rank = standing.rank;
  else if (range) cell.rankRange = range;
  if (standing.isBest) cell.isBest = true;
  if (standing.isBestVisible) cell.isBestVisible = true;
  // The two deltas to the best are the same where the best is known: one of them is sent.
  if (standing.deltaToBest) cell.deltaToBest = standing.deltaToBest;
  else if (standing.deltaToBestVisible) cell.deltaToBestVisible = standing.deltaToBestVisible;
  if (standing.deltaToMe) cell.deltaToMe = standing.deltaToMe;
  return cell;
}

/**
 * A stored world position as the views show it, when it is the position of the result shown (asked for the same
 * score); null otherwise: never asked, or asked for an earlier PB (the next sync asks again).
 */
export function worldPosition(
  stored: StoredPosition | undefined,
  mapType: string,
  shown: { hidden: boolean; time: number | null; score: number | null },
): Out<typeof s.WorldPosition> | null {
  const score = worldScoreOf(mapKind({ mapType }), shown);
  if (!stored || score === null || score !== stored.score) return null;
  return {
    state: stored.state,
    position: stored.position,
    zones: stored.zones.slice(1).map((z) => ({ zoneName: z.zoneName, position: z.position })),
    previous: stored.previousPosition,
    asOf: stored.asOf,
  };
}

/** What a grid cell says of its rank and of the best, in full (the sparse form leaves nulls and falses out). */
export interface FullCell extends RecordResult {
  medal: number;
  rank: number | null;
  rankRange: { min: number; max: number } | null;
  isBest: boolean;
  isBestVisible: boolean;
  deltaToBest: Delta | null;
  deltaToBestVisible: Delta | null;
  deltaToMe: Delta | null;
}

/** A grid cell in full: nulls where the sparse form leaves a field out. */
export function fullCell(cell: Out<typeof s.CompareCell>): FullCell {
  const rank = cell.rank ?? null;
  return {
    hidden: cell.hidden ?? false, time: cell.time ?? null, score: cell.score ?? null, respawnCount: cell.respawnCount ?? null,
    medal: cell.medal, rank, rankRange: cell.rankRange ?? (rank === null ? null : { min: rank, max: rank }),
    isBest: cell.isBest ?? false, isBestVisible: cell.isBestVisible ?? false,
    deltaToBest: cell.deltaToBest ?? null, deltaToBestVisible: cell.deltaToBestVisible ?? cell.deltaToBest ?? null, deltaToMe: cell.deltaToMe ?? null,
  };
}

/** What an entry shows of its record, the same for the map view and `compare --json`. */
function cellValues(kind: MapKind, standing: Standing<unknown>) {
  const record = standing.record;
  return {
    hidden: record?.hidden ?? false,
    ...(record ? shownResult(kind, record) : { time: null, score: null, respawnCount: null }),
    medal: record?.medal ?? 0,
    rank: standing.rank,
    rankRange: standing.rankRange,
    visibleRank: standing.visibleRank,
    isBest: standing.isBest,
    isBestVisible: standing.isBestVisible,
    deltaToBest: standing.deltaToBest,
    deltaToBestVisible: standing.deltaToBestVisible,
    deltaToMe: standing.deltaToMe,
  };
}

/** cellValues and the medal progress: what an entry of the map view and of `compare --json` shows. */
export function entryValues(kind: MapKind, medals: MedalScores, standing: Standing<unknown>) {
  return { ...cellValues(kind, standing), progress: medalProgress(kind, standing.record, medals) };
}

/** One map's watched players in leaderboard order, as the map view shows them. */
export function rankedEntries(
  map: BoardMap,
  players: readonly Player[],
  records: readonly StoredRecord[],
  me: string | undefined,
  replays: ReplayLookup,
  facts: ReadFacts = {},
): { entries: Out<typeof s.RankedEntry>[]; secret: number; bestIsKnown: boolean } {
  const board = leaderboardOf(map, players, records, me, labels(players), facts);
  const medals = medalScores(map);
  const entries = board.entries.map((standing) => {
    const record = board.records.get(standing.player.accountId);
    return {
      player: playerSummary(standing.player, me),
      name: standing.name,
      hasRecord: record !== undefined,
      ...entryValues(board.kind, medals, standing),
      setAt: record?.timestamp ?? null,
      replay: replayOf(record, replays),
    };
  });
  return { entries, secret: board.secret, bestIsKnown: board.bestIsKnown };
}

/** A map's world record as the views show it; `name` is the holder's name as the store knows it. */
export function worldRecordView(kind: MapKind, wr: StoredWorldRecord, name: string): Out<typeof s.WorldRecord> {
  const result = resultOfWorldScore(kind, wr.score);
  return {
    accountId: wr.accountId, name, secret: wr.secret, time: result.time, score: result.score, setAt: wr.setAt, readAt: wr.readAt,
    mapRecordId: wr.mapRecordId,
  };
}

/** A result's gap to the map's world record (value − WR, deltaOf); null for a secret WR or a hidden result. */
export function deltaToWorldRecord(kind: MapKind, wr: Pick<StoredWorldRecord, 'score'> | undefined, result: RecordResult | null): Delta | null {
  if (!wr || !result) return null;
  return deltaOf(kind, result, resultOfWorldScore(kind, wr.score));
}

/**
 * The compare grid: one row per map, one cell per player (in `players` order), ranked among the list's players; with
 * `worldRecords` (by map ID, and the holders' names), each row's world record and each cell's gap to it.
 */
export function compareTable(
  list: string,
  players: readonly Player[],
  maps: readonly MapRecords[],
  me: string | undefined,
  facts: ReadFacts = {},
  worldRecords?: { byMap: ReadonlyMap<string, StoredWorldRecord>; nameOf: (accountId: string) => string },
): Out<typeof s.CompareTable> {
  const column = new Map(players.map((p, i) => [p.accountId, i]));
  const names = labels(players);
  const rows = maps.map(({ map, records }) => {
    const board = leaderboardOf(map, players, records, me, names, facts);
    const medals = medalScores(map);
    const cells: Out<typeof s.CompareRow>['cells'] = new Array(players.length).fill(null);
    const wr = worldRecords?.byMap.get(map.mapId);
    for (const standing of board.entries) {
      if (standing.status === 'none') continue;
      const cell = sparseCell(board.kind, standing);
      const gap = deltaToWorldRecord(board.kind, wr, standing.record);
      if (gap) cell.deltaToWorldRecord = gap;
      cells[column.get(standing.player.accountId)!] = cell;
    }
    const row = { mapUid: map.mapUid, name: map.name, mapType: map.mapType, kind: board.kind, medals, secret: board.secret, bestIsKnown: board.bestIsKnown, cells };
    return wr && worldRecords ? { ...row, worldRecord: worldRecordView(board.kind, wr, worldRecords.nameOf(wr.accountId)) } : row;
  });
  const meColumn = me === undefined ? undefined : column.get(me);
  return { list, players: players.map((p) => playerSummary(p, me)), rows, me: meColumn ?? null, total: rows.length, complete: true };
}

/** One player's PBs from a compare table (cached between syncs, so the player view is quick on big lists). */
export function playerPbs(
  table: Out<typeof s.CompareTable>,
  column: number,
  setAtOf: (mapUid: string) => string | null,
): Out<typeof s.PlayerPb>[] {
  return table.rows.map((row) => {
    const raw = row.cells[column] ?? null;
    const cell = raw && fullCell(raw);
    return {
      mapUid: row.mapUid,
      mapName: row.name,
      kind: row.kind,
      medals: row.medals,
      hasRecord: cell !== null,
      hidden: cell?.hidden ?? false,
      time: cell?.time ?? null,
      score: cell?.score ?? null,
      respawnCount: cell?.respawnCount ?? null,
      medal: cell?.medal ?? 0,
      setAt: cell ? setAtOf(row.mapUid) : null,
      rank: cell?.rank ?? null,
      rankRange: cell?.rankRange ?? null,
      isBest: cell?.isBest ?? false,
      isBestVisible: cell?.isBestVisible ?? false,
      deltaToBest: cell?.deltaToBest ?? null,
      deltaToBestVisible: cell?.deltaToBestVisible ?? null,
      bestIsKnown: row.bestIsKnown,
      secret: row.secret,
      progress: cell ? medalProgress(row.kind, cell, row.medals) : null,
    };
  });
}

/**
 * Whether a history row's earlier record was secret: the store keeps no time for a hidden record (HistoryRow.oldTime),
 * and every visible one has a time, whatever its kind; a first sighting has no earlier record.
 */
export function wasSecret(row: Pick<HistoryRow, 'kind' | 'oldTime'>): boolean {
  return row.kind !== 'first' && row.oldTime === null;
}

/** History rows as the player view lists them (first sightings and improvements; bare record changes left out). */
export function improvements(
  rows: readonly HistoryRow[],
  mapOf: (mapId: string) => Pick<StoredMap, 'name' | 'mapType' | 'hasClones'> | undefined,
): Out<typeof s.Improvement>[] {
  return rows
    .filter((row) => row.kind !== 'changed')
    .map((row) => {
      const map = mapOf(row.mapId);
      const kind = map ? mapKind(map) : 'other';
      const stunt = kind === 'stunt';
      return {
        mapUid: row.mapUid,
        mapName: map?.name ?? row.mapUid,
        kind,
        isStunt: stunt,
        hidden: row.hidden,
        value: row.hidden ? null : stunt ? row.newScore : row.newTime,
        previous: wasSecret(row) ? null : stunt ? row.oldScore : row.oldTime,
        previousHidden: wasSecret(row),
        respawnCount: row.hidden ? null : row.newRespawnCount,
        previousRespawnCount: row.oldRespawnCount,
        medal: row.medal,
        setAt: row.recordTimestamp,
        seenAt: row.seenAt,
        first: row.kind === 'first',
      };
    });
}

export function replayInfos(
  entries: readonly ReplayEntry[],
  folder: string,
  absolute: (relPath: string) => string,
  recordOf: (mapId: string, accountId: string) => StoredRecord | undefined,
  mapOf: (mapId: string) => Pick<StoredMap, 'mapType' | 'hasClones'> | undefined,
  nameOf: (accountId: string) => string | undefined = () => undefined,
): Out<typeof s.ReplayList> {
  const replays: Out<typeof s.ReplayInfo>[] = [];
  let totalBytes = 0;
  let givenUp = 0;
  for (const entry of entries) {
    if (isGivenUp(entry)) givenUp += 1;
    if (entry.state !== 'downloaded' || !entry.path || !entry.mapId || !entry.accountId) continue;
    const map = mapOf(entry.mapId);
    const kind = map ? mapKind(map) : 'other';
    const record = recordOf(entry.mapId, entry.accountId);
    const current = record?.mapRecordId === entry.mapRecordId ? record : undefined;
    const bytes = entry.size ?? 0;
    totalBytes += bytes;
    replays.push({
      mapUid: entry.mapUid ?? entry.mapId,
      mapName: entry.mapName ?? entry.mapUid ?? entry.mapId,
      accountId: entry.accountId,
      playerName: nameOf(entry.accountId) ?? entry.playerName ?? playerLabel({ accountId: entry.accountId }),
      file: absolute(entry.path),
      bytes,
      downloadedAt: entry.updatedAt,
      kind,
      result: current && !current.hidden ? { ...shownResult(kind, current), hidden: false } : null,
    });
  }
  return { folder, totalBytes, replays, givenUp };
}
