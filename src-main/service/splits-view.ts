// The splits views (map page, list, player history) from the store's splits, by the shared rules (shared/splits.ts):
// one builder for the window's handlers and the command line (`trackwatch splits --json` is the same shape).
import type { z } from 'zod';
import type * as s from '../contract/schemas.ts';
import { parseMapRef } from '../core/refs.ts';
import { PERSONAL_BEST, type Player, type SplitsEntry, type Store, type StoredMap, type StoredRecord } from '../core/store/index.ts';
import { stripFormatting } from '../shared/format.ts';
import { mapKind, playerLabel } from '../shared/leaderboard.ts';
import { compareOutside, compareSplits, lapEnds, lapTimesOf, sectorGains, sectorsOf, splitsProblem, type Split, type SplitsInput } from '../shared/splits.ts';
import { ServiceError } from './errors.ts';
import { leaderboardOf, mapSummary, worldRecordView } from './views.ts';

type Out<T extends z.ZodType> = z.output<T>;
export type SplitsView = Out<typeof s.SplitsView>;
export type SplitsList = Out<typeof s.SplitsList>;
export type SplitsHistory = Out<typeof s.SplitsHistory>;
type Missing = SplitsView['missing'][number];
type SplitsWorldRecord = Out<typeof s.SplitsWorldRecord>;
type WorldRecordMissing = NonNullable<SplitsWorldRecord['missing']>;

/** A map as given (UID, map ID or link), among the stored maps; not found is said with what to do. */
export function resolveMap(store: Store, ref: string): StoredMap {
  const direct = store.maps.get(ref.trim());
  if (direct) return direct;
  const parsed = parseMapRef(ref);
  const found = parsed.kind === 'uid' ? store.maps.get(parsed.uid) : parsed.kind === 'id' ? store.maps.get(parsed.id) : undefined;
  if (found) return found;
  if (parsed.kind === 'invalid') throw new ServiceError('invalid_input', `"${parsed.input}" is not a map: ${parsed.reason}.`);
  throw new ServiceError('not_found', `The map "${ref.trim()}" is not in your data yet: add it to a list and sync it.`);
}

/** A player as given (account ID, nickname or display name) among `players`. */
function resolvePlayer(players: readonly Player[], ref: string): Player {
  const wanted = ref.trim().toLowerCase();
  const found = players.find((p) => p.accountId === wanted)
    ?? players.find((p) => [p.nickname, p.displayName].some((n) => n !== null && stripFormatting(n).toLowerCase() === wanted));
  if (!found) throw new ServiceError('not_found', `"${ref.trim()}" is not a watched player here: give an account ID or a watched player's name.`);
  return found;
}

/** The players whose splits a map's view shows: the list's, or those of every list holding the map. */
function watchedPlayers(store: Store, map: StoredMap, list: string | undefined): Player[] {
  if (list !== undefined) {
    const summary = store.watchlists.require(list);
    if (!store.maps.list(summary.name).some((m) => m.mapId === map.mapId)) {
      throw new ServiceError('not_found', `The map "${stripFormatting(map.name)}" is not in the list "${summary.name}".`);
    }
    return store.players.list(summary.name);
  }
  const seen = new Map<string, Player>();
  for (const l of store.watchlists.list()) {
    if (!store.maps.list(l.name).some((m) => m.mapId === map.mapId)) continue;
    for (const p of store.players.list(l.name)) seen.set(p.accountId, p);
  }
  return [...seen.values()];
}

function missingReason(store: Store, record: StoredRecord | undefined, splits: SplitsEntry | undefined): Pick<Missing, 'reason' | 'detail'> | null {
  if (!record) return { reason: 'noRecord', detail: null };
  if (record.hidden) return { reason: 'hidden', detail: null };
  if (splits?.state === 'read') return null;
  if (splits?.state === 'unreadable') return { reason: 'unreadable', detail: splits.error };
  return store.replays.has(record.mapRecordId) ? { reason: 'unread', detail: 'read at the next start' } : { reason: 'noReplay', detail: null };
}

/** The map page's "Splits": every watched player's run with splits, compared by the shared rules. */
export function splitsForMap(store: Store, query: { map: string; list?: string | undefined; vs?: string | undefined }, me: string | undefined): SplitsView {
  const map = resolveMap(store, query.map);
  const players = watchedPlayers(store, map, query.list);
  const vs = query.vs === undefined ? null : resolvePlayer(players, query.vs).accountId;
  const list = query.list === undefined ? null : store.watchlists.require(query.list).name;
  return mapView(store, map, players, list, vs, me);
}

/** One map's view among `players`, in leaderboard order (shared/leaderboard.ts ranks them as the game does). */
function mapView(store: Store, map: StoredMap, players: readonly Player[], list: string | null, vs: string | null, me: string | undefined): SplitsView {
  const records = store.records.forMap(map.mapId, { scope: PERSONAL_BEST });
  const board = leaderboardOf(map, players, records, me);
  const splits = store.splits.forRecords(records.map((r) => r.mapRecordId));
  const kind = mapKind(map);
  const missing: Missing[] = [];
  const runs: { player: Player; record: StoredRecord; splits: SplitsEntry }[] = [];
  for (const { player } of board.entries) {
    const record = board.records.get(player.accountId);
    const entry = record && splits.get(record.mapRecordId);
    const why = missingReason(store, record, entry);
    if (why) missing.push({ accountId: player.accountId, name: stripFormatting(playerLabel(player)), ...why });
    else runs.push({ player, record: record!, splits: entry! });
  }
  const inputs = runs.map((r) => ({ id: r.player.accountId, checkpoints: r.splits.checkpoints }));
  const compared = compareSplits(inputs, me ?? null, vs);
  const wr = worldRecordOf(store, map, inputs, me, vs);
  const laps = runs.find((r) => r.splits.laps !== null)?.splits.laps ?? null;
  const ends = lapEnds(compared.checkpoints, laps);
  return {
    map: mapSummary(map, store.players.get(map.author)?.displayName ?? null),
    list,
    checkpoints: compared.checkpoints,
    laps: ends === null ? null : { count: ends.length, ends },
    players: runs.map((r, i) => {
      const c = compared.runs[i]!;
      return {
        accountId: r.player.accountId,
        name: stripFormatting(playerLabel(r.player)),
        recordId: r.record.mapRecordId,
        time: r.record.time,
        isMe: r.player.accountId === me,
        checkpoints: r.splits.checkpoints,
        sectors: c.sectors,
        deltaToBest: c.deltaToBest,
        deltaToMe: c.deltaToMe,
        ...(c.deltaToVs === undefined ? {} : { deltaToVs: c.deltaToVs }),
        ...(ends === null || !c.comparable ? {} : { lapTimes: lapTimesOf(r.splits.checkpoints, ends) }),
        ...(wr?.deltasToIt ? { deltaToWorldRecord: wr.deltasToIt.get(c.id) ?? new Array<Split>(compared.checkpoints).fill(null) } : {}),
        respawns: kind === 'platform' ? r.splits.respawns : null,
        stuntScores: kind === 'stunt' ? r.splits.stuntScores : [],
        comparable: c.comparable,
        note: c.note,
        setAt: r.record.timestamp,
      };
    }),
    ideal: compared.ideal,
    loseMostAt: compared.loseMostAt,
    vs,
    missing,
    worldRecord: wr?.view ?? null,
  };
}

/** One line per reason the world record is no splits reference, after "World record, <holder> <time>: ". */
function worldRecordNote(reason: WorldRecordMissing['reason'], detail: string | null): string {
  switch (reason) {
    case 'secret':
    case 'hidden':
      return "secret: the map's Top Secret threshold hides its time and its ghost, so there is nothing to compare with.";
    case 'noRecord':
      return "its ghost is not here: the holder's record was not read (a sync of a list with the world record on asks it when the records request has room).";
    case 'noReplay':
      return "its replay is not downloaded: the list's replay policy downloads it unless it is \"none\" (the Replays view says if a download failed).";
    case 'unread':
      return 'its replay is read at the next start.';
    default:
      return `its replay could not be read${detail ? `: ${detail}` : ''}.`;
  }
}

/**
 * The map's stored world record in the splits view: its ghost's run compared with the watched `inputs` (and each
 * watched run's delta to it), or why there is none. Null when no sync read the map's WR.
 */
function worldRecordOf(
  store: Store, map: StoredMap, inputs: readonly SplitsInput[], me: string | undefined, vs: string | null,
): { view: SplitsWorldRecord; deltasToIt: Map<string, Split[]> | null } | null {
  const stored = store.worldRecords.get(map.mapId);
  if (!stored) return null;
  const kind = mapKind(map);
  const name = stripFormatting(store.players.nameOf(stored.accountId));
  const base = worldRecordView(kind, stored, name);
  const without = (reason: WorldRecordMissing['reason'], detail: string | null = null) =>
    ({ view: { ...base, run: null, missing: { reason, note: worldRecordNote(reason, detail) } }, deltasToIt: null });
  if (stored.secret) return without('secret');
  const record = stored.mapRecordId === null ? undefined : store.records.get(map.mapId, stored.accountId);
  if (!record || record.mapRecordId !== stored.mapRecordId) return without('noRecord');
  const splits = store.splits.get(record.mapRecordId);
  const why = missingReason(store, record, splits);
  if (why || !splits) return without(why?.reason ?? 'unread', why?.detail ?? null);
  const { run, deltasToIt } = compareOutside({ id: stored.accountId, checkpoints: splits.checkpoints }, inputs, me ?? null, vs);
  return {
    view: {
      ...base,
      run: {
        accountId: stored.accountId,
        name,
        recordId: record.mapRecordId,
        time: record.time,
        isMe: stored.accountId === me,
        checkpoints: splits.checkpoints,
        sectors: run.sectors,
        deltaToBest: run.deltaToBest,
        deltaToMe: run.deltaToMe,
        ...(run.deltaToVs === undefined ? {} : { deltaToVs: run.deltaToVs }),
        respawns: kind === 'platform' ? splits.respawns : null,
        stuntScores: kind === 'stunt' ? splits.stuntScores : [],
        comparable: run.comparable,
        note: run.note,
        setAt: record.timestamp,
      },
      missing: null,
    },
    deltasToIt: run.comparable ? deltasToIt : null,
  };
}

/** Per map of a list: where I lose most and what the ideal run would gain me; with the list's totals. */
export function splitsForList(store: Store, list: string, me: string | undefined): SplitsList {
  const summary = store.watchlists.require(list);
  const maps = store.maps.list(summary.name);
  const players = store.players.list(summary.name);
  const rows: SplitsList['maps'] = [];
  let myTotal = 0;
  let idealTotal = 0;
  let counted = 0;
  for (const map of maps) {
    const view = mapView(store, map, players, summary.name, null, me);
    const mine = view.players.find((p) => p.isMe && p.comparable);
    const myTime = mine?.checkpoints.at(-1) ?? null;
    rows.push({
      mapUid: map.mapUid,
      mapName: map.name,
      loseMostAt: view.loseMostAt,
      possibleGain: view.ideal.gain,
      myTime,
      idealTime: view.ideal.time,
      runs: view.players.filter((p) => p.comparable).length,
    });
    if (myTime !== null && view.ideal.time !== null) {
      myTotal += myTime;
      idealTotal += view.ideal.time;
      counted += 1;
    }
  }
  return {
    list: summary.name,
    maps: rows,
    totals: {
      maps: counted,
      myTime: counted > 0 ? myTotal : null,
      idealTime: counted > 0 ? idealTotal : null,
      possibleGain: counted > 0 ? myTotal - idealTotal : null,
    },
  };
}

/** A player's PB improvements on a map, oldest first, each with its splits and what each sector gained. */
export function splitsHistory(store: Store, query: { player: string; map: string }): SplitsHistory {
  const map = resolveMap(store, query.map);
  const accountId = query.player.trim().toLowerCase();
  const player = store.players.get(accountId);
  if (!player) throw new ServiceError('not_found', `No watched player has the account ID "${query.player.trim()}".`);
  const rows = store.records.history({ map: map.mapId, player: accountId, scope: PERSONAL_BEST, order: 'oldest', limit: 1000 })
    .filter((r) => r.kind !== 'changed');
  const splits = store.splits.forRecords(rows.map((r) => r.mapRecordId));
  let previous: (number | null)[] | null = null;
  const improvements = rows.map((row) => {
    const entry = splits.get(row.mapRecordId);
    const ok = entry?.state === 'read' && splitsProblem(entry.checkpoints) === null;
    const checkpoints = ok ? entry.checkpoints : null;
    const sectors = checkpoints === null ? null : sectorsOf(checkpoints);
    const gains = sectors === null ? null : sectorGains(previous, sectors);
    if (sectors !== null) previous = sectors;
    const missing: SplitsHistory['improvements'][number]['missing'] = ok ? null
      : row.hidden ? 'hidden' : entry?.state === 'unreadable' ? 'unreadable' : store.replays.has(row.mapRecordId) ? 'unread' : 'noReplay';
    return {
      recordId: row.mapRecordId,
      time: row.newTime,
      setAt: row.recordTimestamp,
      seenAt: row.seenAt,
      checkpoints,
      sectors,
      sectorGains: gains,
      respawns: ok ? entry.respawns : null,
      missing,
    };
  });
  return { map: mapSummary(map, store.players.get(map.author)?.displayName ?? null), accountId, name: stripFormatting(playerLabel(player)), improvements };
}
