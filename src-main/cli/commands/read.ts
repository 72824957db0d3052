// `records`, `compare`, `history`: what is stored, read with no network. Ranks, names, deltas and medals come from
// the shared leaderboard module, through the same functions the window's views use (service/views.ts).
import type { Command } from 'commander';
import type { HistoryRow } from '../../core/store/types.ts';
import type { Trackwatch } from '../../core/trackwatch.ts';
import { deltaToWorldRecord, entryValues, leaderboardOf, mapSummary, medalScores, wasSecret, worldPosition, worldRecordView } from '../../service/views.ts';
import {
  countMedals, formatGapLimit, formatMedalGap, formatMedalScore, formatRank, formatResult, GAP_LIMITS, kindLabel, mapKind, medalProgress, playerLabel, rankLeaderboard,
  type Delta, type MapKind, type RankableRecord, type MedalProgress, type MedalScores,
} from '../../shared/leaderboard.ts';
import { withTrackwatch } from '../context.ts';
import { existingList } from '../lists.ts';
import { resolveMap } from '../maps.ts';
import { resolvePlayer } from '../players.ts';
import { UserError, terminalSafe } from '../errors.ts';
import { count, plainName, type Output } from '../output.ts';
import { jsonArrayPieces, tablePieces, writePieces } from '../stream.ts';

/** Records grouped by map (in the order the maps first come), each map's in leaderboard order (the shared rule). */
function inLeaderboardOrder<R extends RankableRecord & { mapId: string; playerName: string }>(records: readonly R[], kindOf: (mapId: string) => MapKind): R[] {
  const byMap = new Map<string, R[]>();
  for (const r of records) {
    const group = byMap.get(r.mapId);
    if (group) group.push(r);
    else byMap.set(r.mapId, [r]);
  }
  return [...byMap].flatMap(([mapId, group]) =>
    rankLeaderboard(kindOf(mapId), group.map((r) => ({ player: r, name: r.playerName, record: r }))).entries.map((e) => e.player));
}

function parseDate(raw: string | undefined, flag: string): string | undefined {
  if (raw === undefined) return undefined;
  const d = new Date(raw);
  const year = d.getUTCFullYear();
  if (Number.isNaN(d.getTime()) || year < 0 || year > 9999) {
    throw new UserError(`${flag} "${raw}" is not a date; use e.g. 2026-05-01 or 2026-05-01T18:00:00Z.`);
  }
  return d.toISOString();
}

function parseLimit(raw: string, flag: string): number {
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit <= 0) throw new UserError(`${flag} must be a whole number above 0, got "${raw}".`);
  return limit;
}

/** One player on one map, as `compare --json` writes it (README, "compare --json"). */
export interface CompareJsonEntry {
  accountId: string;
  /** The name shown (your nickname for them, display name, or the start of the account ID), formatting stripped. */
  name: string;
  isMe: boolean;
  hasRecord: boolean;
  /** On the board, secret entries counted, when known exactly; null when only a range is known, or unranked. */
  rank: number | null;
  /** The ranks it may hold ("2–4" where secret entries blur the order); min = max = rank when exact. */
  rankRange: { min: number; max: number } | null;
  /** Among the visible entries alone; null unless ranked. */
  visibleRank: number | null;
  hidden: boolean;
  time: number | null;
  score: number | null;
  respawnCount: number | null;
  medal: number;
  /** Surely the best on the board: nothing, secret or visible, can be ahead of it. */
  isBest: boolean;
  /** Holds the best visible result; a secret entry may still be ahead of it. */
  isBestVisible: boolean;
  /** value − the best on the board; null unless that best is known (the map's bestIsKnown). */
  deltaToBest: Delta | null;
  /** value − the best visible result. */
  deltaToBestVisible: Delta | null;
  deltaToMe: Delta | null;
  /** The next medal (1 bronze … 4 author) and the gap to it; null at author or without a record. */
  nextMedal: { medal: number; gap: Delta | null; text: string } | null;
  setAt: string | null;
  /** The PB's world position (Live services); null when none was given for this PB (not asked yet, or not given). */
  position: number | null;
  /** When that position was asked (it can lag behind); null when it was never asked for this PB. */
  positionAsOf: string | null;
  /** value − the map's world record (deltaOf); null without a WR, with a secret one, or for a hidden entry. */
  deltaToWorldRecord: Delta | null;
}

/** A map's world record in `compare --json` (README, "compare --json"): null result fields when secret. */
export interface CompareJsonWorldRecord {
  accountId: string;
  name: string;
  secret: boolean;
  time: number | null;
  score: number | null;
  setAt: string | null;
  readAt: string;
  mapRecordId: string | null;
}

export interface CompareJsonMap {
  mapUid: string;
  mapId: string;
  name: string;
  /** As the service names it, e.g. `TrackMania\\TM_Platform`; `kind` is how it ranks. */
  mapType: string;
  kind: MapKind;
  medals: MedalScores;
  /** Secret entries among the watched players. */
  secret: number;
  /** Whether the best visible result is surely the best on the board (then deltaToBest is given). */
  bestIsKnown: boolean;
  /** The map's world record, when the list asks for it and a sync read it; else null. */
  worldRecord: CompareJsonWorldRecord | null;
  entries: CompareJsonEntry[];
}

function nextMedalOf(progress: MedalProgress | null): CompareJsonEntry['nextMedal'] {
  if (!progress || progress.next === null) return null;
  return { medal: progress.next, gap: progress.gap, text: formatMedalGap(progress) };
}

/** The list's maps, each with its watched players in leaderboard order. */
export function compareMaps(tw: Trackwatch, list: string, me: string | undefined): CompareJsonMap[] {
  const players = tw.store.players.list(list);
  const positions = new Map(tw.store.positions.forList(list).map((p) => [`${p.mapId}/${p.accountId}`, p]));
  const facts = { viewer: tw.store.settings.viewer(), positionOf: (mapId: string, accountId: string) => positions.get(`${mapId}/${accountId}`) };
  const names = new Map(players.map((p) => [p.accountId, playerLabel(p)]));
  const worldRecords = new Map(tw.store.worldRecords.forList(list).map((wr) => [wr.mapId, wr]));
  return tw.store.records.leaderboards(list).map(({ map, records }) => {
    const board = leaderboardOf(map, players, records, me, names, facts);
    const medals = medalScores(map);
    const summary = mapSummary(map, null);
    const wr = worldRecords.get(map.mapId);
    return {
      mapUid: map.mapUid,
      mapId: map.mapId,
      name: plainName(map.name),
      mapType: map.mapType,
      kind: board.kind,
      medals,
      secret: board.secret,
      bestIsKnown: board.bestIsKnown,
      worldRecord: wr ? { ...worldRecordView(board.kind, wr, plainName(tw.store.players.nameOf(wr.accountId))) } : null,
      entries: board.entries.map((standing): CompareJsonEntry => {
        const { progress, ...values } = entryValues(summary.kind, medals, standing);
        const position = worldPosition(positions.get(`${map.mapId}/${standing.player.accountId}`), map.mapType, values);
        return {
          accountId: standing.player.accountId,
          name: plainName(standing.name),
          isMe: standing.isMe,
          hasRecord: standing.record !== null,
          ...values,
          nextMedal: nextMedalOf(progress),
          setAt: board.records.get(standing.player.accountId)?.timestamp ?? null,
          position: position?.position ?? null,
          positionAsOf: position?.asOf ?? null,
          deltaToWorldRecord: deltaToWorldRecord(board.kind, wr, standing.record),
        };
      }),
    };
  });
}

/**
 * Prints a list's comparison: per map a compact table of the watched players in leaderboard order (rank, result,
 * medal, delta to the best and to me, the next medal), then each player's medals. `limit` shows the first maps
 * only; `rest` is the command that shows more, printed after them.
 */
export function printCompare(out: Output, tw: Trackwatch, list: string, opts: { me?: string | undefined; limit?: number | undefined; rest?: string } = {}): void {
  const maps = compareMaps(tw, list, opts.me);
  if (maps.length === 0) return out.line('nothing to compare yet: add maps and players, then `trackwatch sync`.');
  // Said once for the list, not as "without a record" on every map.
  if (tw.store.players.list(list).length === 0) {
    return out.line(`"${list}" has no players: add some with \`trackwatch players add <player> --list "${list}"\`, then \`trackwatch sync --list "${list}"\`.`);
  }
  if (tw.store.syncRuns.stateOf(list).last === undefined && maps.every((m) => m.entries.every((e) => !e.hasRecord))) {
    return out.line(`"${list}" has never been synced: run \`trackwatch sync --list "${list}"\`.`);
  }
  const shown = opts.limit === undefined ? maps : maps.slice(0, opts.limit);
  for (const m of shown) {
    const notes = [kindLabel(m.kind, m.mapType), `author ${formatMedalScore(m.kind, m.medals.author)}`];
    if (m.secret > 0) notes.push(`${count(m.secret, 'secret entry', 'secret entries')}${m.bestIsKnown ? '' : ': "to best" is to the best visible'}`);
    out.line(`${out.colours.bold(m.name)} ${out.colours.dim(`(${m.mapUid}) ${notes.join(' · ')}`)}`);
    if (m.worldRecord) out.line(`  ${worldRecordWords(out, m.kind, m.worldRecord)}`);
    const withRecord = m.entries.filter((e) => e.hasRecord);
    // A column for the gap to the world record, on maps whose WR is known and visible.
    const toWr = m.worldRecord !== null && !m.worldRecord.secret;
    if (withRecord.length > 0) {
      out.line(out.table(
        ['#', 'player', 'result', 'medal', 'to best', 'to me', ...(toWr ? ['to WR'] : []), 'next medal'],
        withRecord.map((e) => [
          // A range ("2–4") where secret entries blur the order; dim for a secret entry, whose result is not shown.
          e.hidden ? out.colours.dim(formatRank(e.rankRange) || '-') : formatRank(e.rankRange) || '-',
          e.name + (e.isMe ? out.colours.cyan(' (you)') : ''),
          out.result(m.kind, e),
          out.medal(e.medal),
          // The leader's own row says so, as the window's map page does, instead of a zero delta; only when surely best.
          e.isBest ? out.colours.dim('best') : out.delta(e.deltaToBest ?? e.deltaToBestVisible),
          out.delta(e.deltaToMe),
          // Who holds (or ties) the WR says so, as the leader says "best", instead of a zero delta.
          ...(toWr ? [isLevel(e.deltaToWorldRecord) ? out.colours.dim('WR') : out.delta(e.deltaToWorldRecord)] : []),
          out.colours.dim(e.nextMedal?.text ?? ''),
        ]),
        { compact: true, align: ['right', 'left', 'right', 'left', 'right', 'right', ...(toWr ? ['right' as const] : []), 'left'] },
      ).replace(/^/gm, '  '));
    }
    const missing = m.entries.length - withRecord.length;
    if (missing > 0) out.line(out.colours.dim(`  ${count(missing, 'watched player')} without a record`));
  }
  if (shown.length < maps.length) {
    out.line(out.colours.dim(`… ${count(maps.length - shown.length, 'more map')}: ${opts.rest ?? `trackwatch compare --list "${list}" --limit ${maps.length}`}`));
  }
  printMedalSummary(out, tw, list, maps);
}

function isLevel(d: Delta | null): boolean {
  return d !== null && d.value === 0 && !d.time;
}

/** "world record 0:41.207 by Rival (2026-11-20)", or "world record: secret (held by Rival)". */
export function worldRecordWords(out: Output, kind: MapKind, wr: CompareJsonWorldRecord): string {
  if (wr.secret) return `world record: ${out.colours.yellow('secret')} (held by ${wr.name}; the service hides its time)`;
  const when = wr.setAt ? out.colours.dim(` (${wr.setAt.slice(0, 10)})`) : '';
  return `world record ${out.result(kind, { hidden: false, time: wr.time, score: wr.score, respawnCount: null })} by ${wr.name}${when}`;
}

/** Each player's medals over the list's maps, and how many are within reach of the next one. */
function printMedalSummary(out: Output, tw: Trackwatch, list: string, maps: readonly CompareJsonMap[]): void {
  const limit = GAP_LIMITS[1]!;
  const players = tw.store.players.list(list);
  if (players.length === 0) return;
  const progressOf = (accountId: string) => maps.map((m): MedalProgress | null => {
    const e = m.entries.find((x) => x.accountId === accountId);
    return e?.hasRecord ? medalProgress(m.kind, e, m.medals) : null;
  });
  out.line('');
  out.line(out.colours.bold(`Medals on ${count(maps.length, 'map')} of "${list}"`) + out.colours.dim(` (near: within ${formatGapLimit(limit)} of the next medal)`));
  out.line(out.table(
    ['player', 'author', 'gold', 'silver', 'bronze', 'none', 'no record', 'near'],
    players.map((p) => {
      const c = countMedals(progressOf(p.accountId), limit);
      return [plainName(playerLabel(p)), c.author, c.gold, c.silver, c.bronze, c.none, c.missing, c.near];
    }),
    { compact: true, align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'] },
  ).replace(/^/gm, '  '));
}

/** PB improvements as the `history` command and the demo show them: each result in its map kind's unit. */
export function historyTable(out: Output, tw: Trackwatch, rows: readonly HistoryRow[]): string {
  const maps = new Map(rows.map((h) => [h.mapId, tw.store.maps.get(h.mapId)]));
  return out.table(
    ['set', 'map', 'player', 'was', 'now', 'kind'],
    rows.map((h) => {
      const map = maps.get(h.mapId);
      const kind = mapKind(map ?? { mapType: '' });
      const was = { hidden: false, time: h.oldTime, score: h.oldScore, respawnCount: h.oldRespawnCount };
      const now = { hidden: h.hidden, time: h.newTime, score: h.newScore, respawnCount: h.newRespawnCount };
      return [
        h.recordTimestamp.slice(0, 16).replace('T', ' '),
        plainName(map?.name ?? h.mapUid),
        plainName(tw.store.players.nameOf(h.accountId)),
        // An earlier secret record reads SECRET, never an empty time (nor the score the service sent in its place).
        h.kind === 'first' ? '' : wasSecret(h) ? 'SECRET' : formatResult(kind, was),
        out.result(kind, now),
        h.kind,
      ];
    }),
    { compact: true },
  );
}

export function registerReadCommands(program: Command, out: Output): void {
  program
    .command('records')
    .description('stored records, by map and/or player (no network)')
    .option('--map <map>', 'a map name (any case), UID, ID or link')
    .option('--player <player>', 'an account ID, nickname or display name (any case)')
    .option('--list <name>', 'only this watchlist')
    .option('--json', 'machine-readable output')
    .action(async (flags: { map?: string; player?: string; list?: string; json?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const mapId = flags.map ? resolveMap(tw, flags.map, '--map') : undefined;
        const player = flags.player === undefined ? undefined : resolvePlayer(tw, flags.player, '--player');
        // Without a filter, every stored record: those of deleted lists and removed players too, as the export has them.
        let records = mapId ? tw.store.records.forMap(mapId)
          : player ? tw.store.records.forPlayer(player)
          : flags.list ? tw.store.records.forList(flags.list)
          : tw.store.maps.list().flatMap((m) => tw.store.records.forMap(m.mapId));
        if (mapId && player) records = records.filter((r) => r.accountId === player);
        if (flags.list && (mapId || player)) {
          const inList = new Set(tw.store.records.forList(flags.list).map((r) => r.mapRecordId));
          records = records.filter((r) => inList.has(r.mapRecordId));
        }
        const kinds = new Map<string, MapKind>();
        const kindOf = (mapId: string): MapKind => {
          let kind = kinds.get(mapId);
          if (kind === undefined) kinds.set(mapId, (kind = mapKind(tw.store.maps.get(mapId) ?? { mapType: '' })));
          return kind;
        };
        // A secret entry's score and respawn count are whatever the service sent: never shown.
        const shown = records.map((r) => (r.hidden ? { ...r, time: null, score: null, respawnCount: null } : r));
        // Streamed: 600,000 records are never one string, 150,000 rows never one table.
        if (flags.json) return writePieces(out.io.stdout, jsonArrayPieces(shown));
        if (records.length === 0) {
          return out.line(mapId || player || flags.list ? 'no stored record matches these filters.' : 'no records stored yet: `trackwatch sync` fetches them.');
        }
        // The scope is said only when it tells records apart (every personal best is "PersonalBest").
        const scoped = records.some((r) => r.scope !== 'PersonalBest');
        await writePieces(out.io.stdout, tablePieces(
          ['map', 'player', ...(scoped ? ['scope'] : []), 'result', 'medal', 'set'],
          inLeaderboardOrder(records, kindOf).map((r) => {
            const map = tw.store.maps.get(r.mapId);
            return [plainName(map?.name ?? r.mapUid), plainName(r.playerName), ...(scoped ? [r.scope] : []), out.result(kindOf(r.mapId), r), out.medal(r.medal), r.timestamp.slice(0, 10)];
          }),
          undefined,
          out.colours,
        ));
      });
    });

  program
    .command('compare')
    .description('per map: each watched player\'s PB in leaderboard order, rank, medal, delta to the best and to you, the next medal (no network)')
    .option('--me <player>', 'compare to this player: account ID, nickname or display name (default: the one marked with `players add --me`)')
    .option('--list <name>', 'watchlist (default: "Default", else the only one)')
    .option('--limit <n>', 'the first n maps only (default: 10 on a terminal, all with --json)')
    .option('--json', 'machine-readable output: per map, the entries in leaderboard order (README, "compare --json")')
    .action(async (flags: { me?: string; list?: string; limit?: string; json?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const list = existingList(tw, flags.list);
        const me = flags.me === undefined ? tw.store.settings.me() : resolvePlayer(tw, flags.me, '--me', list);
        const limit = flags.limit === undefined ? undefined : parseLimit(flags.limit, '--limit');
        if (flags.json) {
          const maps = compareMaps(tw, list, me);
          return out.json(limit === undefined ? maps : maps.slice(0, limit));
        }
        printCompare(out, tw, list, { me, limit: limit ?? 10 });
      });
    });

  program
    .command('history')
    .description('PBs seen by syncs, newest first: first sightings, improvements, unhidings (no network)')
    .option('--map <map>', 'a map name (any case), UID, ID or link')
    .option('--player <player>', 'an account ID, nickname or display name (any case)')
    .option('--list <name>', 'only this watchlist')
    .option('--since <date>', 'set on or after this date')
    .option('--until <date>', 'set before this date')
    .option('--limit <n>', 'at most this many rows', '50')
    .option('--json', 'machine-readable output')
    .action(async (flags: { map?: string; player?: string; list?: string; since?: string; until?: string; limit: string; json?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const limit = parseLimit(flags.limit, '--limit');
        const since = parseDate(flags.since, '--since');
        const until = parseDate(flags.until, '--until');
        if (since !== undefined && until !== undefined && since >= until) {
          throw new UserError(`--since ${flags.since} is not before --until ${flags.until}: no PB can be in that range; give the earlier date to --since.`);
        }
        const filter = {
          map: flags.map ? resolveMap(tw, flags.map, '--map') : undefined,
          player: flags.player === undefined ? undefined : resolvePlayer(tw, flags.player, '--player'),
          list: flags.list,
          since,
          until,
        };
        // One more than shown tells whether there are more.
        const rows = tw.store.records.history({ ...filter, limit: limit + 1 });
        const shown = rows.slice(0, limit);
        if (flags.json) return out.json(shown);
        if (shown.length === 0) {
          const given = (['map', 'player', 'list', 'since', 'until'] as const).flatMap((name) => {
            const value = flags[name];
            return value === undefined ? [] : [`--${name} ${/\s|^$/.test(value) ? `"${terminalSafe(value)}"` : terminalSafe(value)}`];
          });
          if (given.length > 0 && tw.store.records.history({ limit: 1 }).length > 0) {
            return out.line(`no PB was seen with ${given.join(' ')}; other PBs are stored: widen or drop these filters.`);
          }
          return out.line('no history yet: each sync records first sightings and improvements.');
        }
        out.line(historyTable(out, tw, shown));
        if (rows.length > limit) out.line(out.colours.dim(`older ones not shown: raise --limit (${limit} now), or narrow with --since, --until, --map, --player or --list.`));
      });
    });
}
