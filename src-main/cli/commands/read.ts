// `records`, `compare`, `history`: what is stored, read with no network.
import type { Command } from 'commander';
import { formatTime, formatScore } from '../../shared/format.ts';
import type { CompareMap } from '../../core/store/types.ts';
import { isStuntMapType } from '../../core/model.ts';
import { parseMapRef } from '../../core/refs.ts';
import type { Trackwatch } from '../../core/trackwatch.ts';
import { withTrackwatch } from '../context.ts';
import { resolvePlayer } from '../players.ts';
import { UserError } from '../errors.ts';
import { colours, delta, line, medal, plainName, printJson, result, table } from '../output.ts';

function mapIdOf(tw: Trackwatch, ref: string): string {
  const parsed = parseMapRef(ref);
  if (parsed.kind === 'invalid') throw new UserError(`"${ref}" is not a map: ${parsed.reason}`);
  const map = tw.store.maps.get(parsed.kind === 'uid' ? parsed.uid : parsed.id);
  if (!map) throw new UserError(`no stored map ${ref}; add it with \`trackwatch maps add ${ref}\` and sync.`);
  return map.mapId;
}

/** The list a command means when none is named: the only one there is. */
function onlyList(tw: Trackwatch): string {
  const lists = tw.store.watchlists.list();
  if (lists.length === 1) return lists[0]!.name;
  if (lists.length === 0) throw new UserError('no watchlists yet: add maps with `trackwatch maps add <uid>` first.');
  throw new UserError(`several watchlists (${lists.map((l) => `"${l.name}"`).join(', ')}): name one with --list.`);
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

/** Prints a comparison: one block per map, players ranked by PB, deltas to the best and to me. */
/** `limit` shows the first maps only; `rest` is the command that shows them all, printed after them. */
export function printCompare(maps: readonly CompareMap[], opts: { limit?: number; rest?: string } = {}): void {
  const shown = opts.limit === undefined ? maps : maps.slice(0, opts.limit);
  for (const m of shown) {
    const isStunt = m.isStunt;
    const unit = isStunt ? `Stunt, author ${formatScore(m.map.authorScore)} pts` : `author ${formatTime(m.map.authorScore)}`;
    line(`${colours.bold(plainName(m.map.name))} ${colours.dim(`(${m.map.mapUid}, ${unit})`)}`);
    const rows = m.entries
      .filter((e) => e.hasRecord)
      .map((e) => [
        e.rank === null ? '-' : String(e.rank),
        plainName(e.playerName) + (e.isMe ? colours.cyan(' (you)') : ''),
        result(e, isStunt),
        medal(e.medal),
        delta(e.deltaToBest, isStunt),
        delta(e.deltaToMe, isStunt),
        e.setAt ? e.setAt.slice(0, 10) : '',
      ]);
    const missing = m.entries.filter((e) => !e.hasRecord).length;
    if (rows.length) line(table(['#', 'player', isStunt ? 'score' : 'time', 'medal', 'to best', 'to me', 'set'], rows));
    if (missing) line(colours.dim(`  ${missing} watched player(s) without a record`));
  }
  if (shown.length < maps.length) line(colours.dim(`… ${maps.length - shown.length} more map(s): ${opts.rest ?? 'trackwatch compare'}`));
}

export function registerReadCommands(program: Command): void {
  program
    .command('records')
    .description('stored records, by map and/or player (no network)')
    .option('--map <ref>', 'a map UID, ID or link')
    .option('--player <player>', 'an account ID, nickname or display name (any case)')
    .option('--list <name>', 'only this watchlist')
    .option('--json', 'machine-readable output')
    .action(async (flags: { map?: string; player?: string; list?: string; json?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const mapId = flags.map ? mapIdOf(tw, flags.map) : undefined;
        const player = flags.player === undefined ? undefined : resolvePlayer(tw, flags.player, '--player');
        let records = mapId ? tw.store.records.forMap(mapId) : player ? tw.store.records.forPlayer(player) : flags.list ? tw.store.records.forList(flags.list) : tw.store.records.forList(onlyList(tw));
        if (mapId && player) records = records.filter((r) => r.accountId === player);
        if (flags.list && (mapId || player)) {
          const inList = new Set(tw.store.records.forList(flags.list).map((r) => r.mapRecordId));
          records = records.filter((r) => inList.has(r.mapRecordId));
        }
        if (flags.json) return printJson(records);
        if (records.length === 0) return line('no stored records match; run `trackwatch sync` first.');
        line(table(
          ['map', 'player', 'scope', 'result', 'medal', 'respawns', 'set'],
          records.map((r) => {
            const map = tw.store.maps.get(r.mapId);
            const isStunt = map ? isStuntMapType(map.mapType) : false;
            return [plainName(map?.name ?? r.mapUid), plainName(r.playerName), r.scope, result(r, isStunt), medal(r.medal), r.respawnCount ?? '', r.timestamp.slice(0, 10)];
          }),
        ));
      });
    });

  program
    .command('compare')
    .description('per map: each watched player\'s PB, rank, medal, delta to the best and to you (no network)')
    .option('--me <player>', 'compare to this player: account ID, nickname or display name (default: the one marked with `players add --me`)')
    .option('--list <name>', 'watchlist (default: every watched map and player)')
    .option('--json', 'machine-readable output')
    .action(async (flags: { me?: string; list?: string; json?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const me = flags.me === undefined ? tw.me : resolvePlayer(tw, flags.me, '--me');
        const maps = tw.store.records.compare(flags.list ?? onlyList(tw), { me });
        if (flags.json) return printJson(maps);
        if (maps.length === 0) return line('nothing to compare yet: add maps and players, then `trackwatch sync`.');
        printCompare(maps);
      });
    });

  program
    .command('history')
    .description('PB improvements seen by syncs, newest first (no network)')
    .option('--map <ref>', 'a map UID, ID or link')
    .option('--player <player>', 'an account ID, nickname or display name (any case)')
    .option('--list <name>', 'only this watchlist')
    .option('--since <date>', 'set on or after this date')
    .option('--until <date>', 'set before this date')
    .option('--limit <n>', 'at most this many rows', '50')
    .option('--json', 'machine-readable output')
    .action(async (flags: { map?: string; player?: string; list?: string; since?: string; until?: string; limit: string; json?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const limit = Number(flags.limit);
        if (!Number.isInteger(limit) || limit <= 0) throw new UserError(`--limit must be a whole number above 0, got "${flags.limit}".`);
        const rows = tw.store.records.history({
          map: flags.map ? mapIdOf(tw, flags.map) : undefined,
          player: flags.player === undefined ? undefined : resolvePlayer(tw, flags.player, '--player'),
          list: flags.list,
          since: parseDate(flags.since, '--since'),
          until: parseDate(flags.until, '--until'),
          limit,
        });
        if (flags.json) return printJson(rows);
        if (rows.length === 0) return line('no history yet: each sync records first sightings and improvements.');
        line(table(
          ['set', 'map', 'player', 'was', 'now', 'kind'],
          rows.map((h) => {
            const map = tw.store.maps.get(h.mapId);
            const isStunt = map ? isStuntMapType(map.mapType) : false;
            const show = (time: number | null, score: number | null, hidden: boolean) => (hidden ? 'hidden' : isStunt ? `${formatScore(score)} pts` : formatTime(time));
            return [
              h.recordTimestamp.slice(0, 16).replace('T', ' '),
              plainName(map?.name ?? h.mapUid),
              plainName(tw.store.players.nameOf(h.accountId)),
              h.kind === 'first' ? '' : show(h.oldTime, h.oldScore, false),
              show(h.newTime, h.newScore, h.hidden),
              h.kind,
            ];
          }),
        ));
      });
    });
}
