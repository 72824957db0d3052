// The store's rows in the shapes the contract promises: plain functions, no I/O, so each is tested on its own.
import type { z } from 'zod';
import type * as s from '../contract/schemas.ts';
import { isStuntMapType } from '../core/model.ts';
import { isGivenUp } from '../core/store/index.ts';
import type { ListSyncState } from '../core/store/sync-runs.ts';
import { syncErrorFor } from './sync-outcome.ts';
import type { CompareMap, HistoryRow, Player, ReplayEntry, StoredMap, StoredRecord, WatchlistSummary as ListSummary } from '../core/store/index.ts';

type Out<T extends z.ZodType> = z.output<T>;

/** The store signs deltas so that positive means worse; the contract gives value − reference (see schemas.ts). */
export function naturalDelta(worseIsPositive: number | null, isStunt: boolean): number | null {
  if (worseIsPositive === null) return null;
  return isStunt ? -worseIsPositive : worseIsPositive;
}

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

export function mapSummary(map: StoredMap, authorName: string | null): Out<typeof s.MapSummary> {
  return {
    mapUid: map.mapUid,
    mapId: map.mapId,
    name: map.name,
    authorId: map.author,
    authorName,
    mapType: map.mapType,
    isStunt: isStuntMapType(map.mapType),
    medals: { author: map.authorScore, gold: map.goldScore, silver: map.silverScore, bronze: map.bronzeScore },
  };
}

export function playerSummary(player: Pick<Player, 'accountId' | 'nickname' | 'displayName'>, me: string | undefined): Out<typeof s.PlayerSummary> {
  return { accountId: player.accountId, nickname: player.nickname, displayName: player.displayName, isMe: me !== undefined && player.accountId === me };
}

/** What players call someone: their nickname for them, the display name, or the start of the account ID. */
export function playerLabel(player: Pick<Player, 'accountId' | 'nickname' | 'displayName'>): string {
  return player.nickname || player.displayName || player.accountId.slice(0, 8);
}

type ReplayLookup = (mapRecordId: string) => Pick<ReplayEntry, 'state' | 'path' | 'size'> | undefined;

function replayOf(record: StoredRecord | undefined, lookup: ReplayLookup): Out<typeof s.RankedEntry>['replay'] {
  if (!record) return { state: 'none', file: null, bytes: null };
  if (record.hidden) return { state: 'hidden', file: null, bytes: null };
  const replay = lookup(record.mapRecordId);
  if (replay?.state === 'downloaded') return { state: 'downloaded', file: replay.path, bytes: replay.size };
  if (replay?.state === 'hidden') return { state: 'hidden', file: null, bytes: null };
  return { state: 'available', file: null, bytes: null };
}

/**
 * One map's watched players, ranked like the compare view (competition ranking, earlier record first on ties),
 * then hidden entries, then players without a record.
 */
export function rankedEntries(
  map: Pick<StoredMap, 'mapType'>,
  players: readonly Player[],
  records: readonly StoredRecord[],
  me: string | undefined,
  replays: ReplayLookup,
): Out<typeof s.RankedEntry>[] {
  const stunt = isStuntMapType(map.mapType);
  const byAccount = new Map(records.map((r) => [r.accountId, r]));
  const entries = players.map((player) => {
    const record = byAccount.get(player.accountId);
    const hidden = record?.hidden === true;
    const value = !record || hidden ? null : stunt ? record.score : record.time;
    return {
      player: playerSummary(player, me),
      hasRecord: record !== undefined,
      hidden,
      rank: null as number | null,
      time: record && !hidden ? record.time : null,
      score: stunt && record && !hidden ? record.score : null,
      medal: record?.medal ?? 0,
      setAt: record?.timestamp ?? null,
      deltaToBest: null as number | null,
      deltaToMe: null as number | null,
      replay: replayOf(record, replays),
      value,
    };
  });
  const better = (a: number, b: number): number => (stunt ? b - a : a - b);
  const ranked = entries.filter((e) => e.value !== null).sort((a, b) => better(a.value!, b.value!) || (a.setAt ?? '').localeCompare(b.setAt ?? ''));
  const best = ranked[0]?.value ?? null;
  const mine = ranked.find((e) => e.player.isMe)?.value ?? null;
  ranked.forEach((e, i) => {
    const previous = ranked[i - 1];
    e.rank = previous && previous.value === e.value ? previous.rank : i + 1;
    e.deltaToBest = best === null ? null : e.value! - best;
    e.deltaToMe = mine === null || e.player.isMe ? null : e.value! - mine;
  });
  const order = (e: (typeof entries)[number]): number => (e.rank !== null ? 0 : e.hasRecord ? 1 : 2);
  const position = new Map(ranked.map((e, i) => [e, i]));
  return entries
    .sort((a, b) => order(a) - order(b) || (position.get(a) ?? 0) - (position.get(b) ?? 0))
    .map(({ value: _value, ...entry }) => entry);
}

export function compareTable(list: string, players: readonly Player[], maps: readonly CompareMap[], me: string | undefined): Out<typeof s.CompareTable> {
  const column = new Map(players.map((p, i) => [p.accountId, i]));
  const rows = maps.map((compared) => {
    const values: (number | null)[] = new Array<number | null>(players.length).fill(null);
    const earned: number[] = new Array<number>(players.length).fill(0);
    const hidden: boolean[] = new Array<boolean>(players.length).fill(false);
    for (const entry of compared.entries) {
      const i = column.get(entry.accountId);
      if (i === undefined || !entry.hasRecord) continue;
      hidden[i] = entry.hidden;
      earned[i] = entry.medal;
      values[i] = entry.hidden ? null : compared.isStunt ? entry.score : entry.time;
    }
    const map = compared.map;
    return {
      mapUid: map.mapUid,
      name: map.name,
      isStunt: compared.isStunt,
      medals: { author: map.authorScore, gold: map.goldScore, silver: map.silverScore, bronze: map.bronzeScore },
      values,
      earned,
      hidden,
    };
  });
  const meColumn = me === undefined ? undefined : column.get(me);
  return { list, players: players.map((p) => playerSummary(p, me)), rows, me: meColumn ?? null, total: rows.length, complete: true };
}

/** The first rows of a compare table straight from each map's records: its cost follows `first`, not the list. */
export function compareRowsOf(maps: readonly StoredMap[], recordsOf: (mapId: string) => readonly StoredRecord[]): CompareMap[] {
  return maps.map((map) => {
    const stunt = isStuntMapType(map.mapType);
    const entries = recordsOf(map.mapId).map((r) => ({
      accountId: r.accountId, playerName: r.playerName, isMe: false, hasRecord: true, hidden: r.hidden,
      time: r.hidden ? null : r.time, score: r.score, medal: r.medal, respawnCount: r.respawnCount, setAt: r.timestamp,
      mapRecordId: r.mapRecordId, rank: null, deltaToBest: null, deltaToMe: null,
    }));
    return { map, isStunt: stunt, entries };
  });
}

/**
 * One player's PBs from a compare table (cached between syncs, so the player view is quick on big lists): rank is
 * competition ranking among the visible values, delta to the best as value − best.
 */
export function playerPbs(
  table: Out<typeof s.CompareTable>,
  column: number,
  setAtOf: (mapUid: string) => string | null,
): Out<typeof s.PlayerPb>[] {
  return table.rows.map((row) => {
    const value = row.values[column] ?? null;
    const hidden = row.hidden[column] ?? false;
    let best: number | null = null;
    let better = 0;
    for (const other of row.values) {
      if (other === null) continue;
      if (best === null || (row.isStunt ? other > best : other < best)) best = other;
      if (value !== null && (row.isStunt ? other > value : other < value)) better += 1;
    }
    const hasRecord = value !== null || hidden;
    return {
      mapUid: row.mapUid,
      mapName: row.name,
      isStunt: row.isStunt,
      hasRecord,
      hidden,
      value,
      medal: row.earned[column] ?? 0,
      setAt: hasRecord ? setAtOf(row.mapUid) : null,
      rank: value === null ? null : better + 1,
      deltaToBest: value === null || best === null ? null : value - best,
    };
  });
}

export function improvements(rows: readonly HistoryRow[], mapOf: (mapId: string) => Pick<StoredMap, 'name' | 'mapType'> | undefined): Out<typeof s.Improvement>[] {
  return rows
    .filter((row) => row.kind !== 'changed')
    .map((row) => {
      const map = mapOf(row.mapId);
      const stunt = map ? isStuntMapType(map.mapType) : false;
      return {
        mapUid: row.mapUid,
        mapName: map?.name ?? row.mapUid,
        isStunt: stunt,
        hidden: row.hidden,
        value: stunt ? row.newScore : row.hidden ? null : row.newTime,
        previous: stunt ? row.oldScore : row.oldTime,
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
  mapOf: (mapId: string) => Pick<StoredMap, 'mapType'> | undefined,
  nameOf: (accountId: string) => string | undefined = () => undefined,
): Out<typeof s.ReplayList> {
  const replays: Out<typeof s.ReplayInfo>[] = [];
  let totalBytes = 0;
  let givenUp = 0;
  for (const entry of entries) {
    if (isGivenUp(entry)) givenUp += 1;
    if (entry.state !== 'downloaded' || !entry.path || !entry.mapId || !entry.accountId) continue;
    const map = mapOf(entry.mapId);
    const stunt = map ? isStuntMapType(map.mapType) : false;
    const record = recordOf(entry.mapId, entry.accountId);
    const current = record?.mapRecordId === entry.mapRecordId ? record : undefined;
    const bytes = entry.size ?? 0;
    totalBytes += bytes;
    replays.push({
      mapUid: entry.mapUid ?? entry.mapId,
      mapName: entry.mapName ?? entry.mapUid ?? entry.mapId,
      accountId: entry.accountId,
      playerName: nameOf(entry.accountId) ?? entry.playerName ?? entry.accountId.slice(0, 8),
      file: absolute(entry.path),
      bytes,
      downloadedAt: entry.updatedAt,
      isStunt: stunt,
      value: current ? (stunt ? current.score : current.time) : null,
    });
  }
  return { folder, totalBytes, replays, givenUp };
}
