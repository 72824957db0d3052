// `sync`: fetch what the watchlists need, with a progress bar on a terminal and one summary line at the end.
import { createInterface } from 'node:readline/promises';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { isUuid } from '../../shared/ids.ts';
import { LocalFaultError, MAX_REPLAY_ATTEMPTS, PERSONAL_BEST } from '../../core/store/index.ts';
import type { SyncProgress, SyncSummary } from '../../core/sync/engine.ts';
import { describeCost, describeDuration, type SyncPlan } from '../../core/sync/plan.ts';
import type { Trackwatch } from '../../core/trackwatch.ts';
import { withTrackwatch } from '../context.ts';
import { CancelledError, UserError, terminalSafe } from '../errors.ts';
import { formatPosition, formatPositionChange } from '../../shared/format.ts';
import { plainName, type Output } from '../output.ts';
import { plural } from '../words.ts';

interface SyncFlags {
  list?: string;
  replays: boolean;
  positions: boolean;
  worldRecords: boolean;
  json?: boolean;
  refreshMaps?: boolean;
  season?: string[];
  retryReplays?: boolean;
  yes?: boolean;
}

/** What a sync covers, for the cost line and the question: `"Rivals"` or `every list`. */
function scopeOf(plan: SyncPlan, list: string | undefined): string {
  return list === undefined ? 'every list' : `"${plan.lists[0] ?? list}"`;
}

/** Positions that take at least this share of a sync's time are worth naming the flag that skips them. */
const BIG_SHARE_OF_TIME = 0.25;

/**
 * "`sync --no-positions` skips the 1,600 position requests, about 27 min of it.", when they are a big part of the
 * time; '' otherwise.
 */
function positionsSkip(plan: SyncPlan): string {
  if (plan.positionRequests === 0 || plan.positionSeconds < plan.seconds * BIG_SHARE_OF_TIME) return '';
  return `\`sync --no-positions\` skips the ${plural(plan.positionRequests, 'position request')}, ${describeDuration(plan.positionSeconds)} of it.`;
}

/**
 * A large first sync starts only when the player said so: asked on a terminal, `--yes` otherwise. Resolves when it
 * may start; throws when it may not (nothing has been asked of the service).
 */
async function confirmLargeSync(out: Output, plan: SyncPlan, list: string | undefined, yes: boolean, signal: AbortSignal): Promise<void> {
  // What would make it smaller: a replay policy, or leaving replays out (unless they already are).
  const smaller = plan.replayDownloads > 0 ? ' (`trackwatch replays policy --list NAME best 3`, or `sync --no-replays`)' : '';
  if (!plan.large || yes) return;
  const what = `this first sync of ${scopeOf(plan, list)} is large: ${describeCost(plan)}`;
  const skip = positionsSkip(plan);
  if (!out.io.stdin.isTTY || !out.io.stderr.isTTY) {
    throw new UserError(
      `${what}. Nothing was asked of Nadeo's service; run it again with --yes to start it${smaller ? `, or make it smaller${smaller}` : ''}.` +
        `${skip ? ` ${skip}` : ''}`,
    );
  }
  const prompt = createInterface({ input: out.io.stdin, output: out.io.stderr });
  try {
    const answer = await prompt.question(`${what}.\n${skip ? `${skip}\n` : ''}Start it? [y/N] `, { signal });
    if (!/^\s*y(es)?\s*$/i.test(answer)) throw new UserError('not started; nothing was asked of Nadeo\'s service.');
  } catch (error) {
    if (signal.aborted) throw new CancelledError('not started; nothing was asked of Nadeo\'s service.');
    throw error;
  } finally {
    prompt.close();
  }
}

function timeLeft(ms: number | null): string {
  if (ms === null) return '…';
  const s = Math.ceil(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** The one line a sync ends with. */
export function summaryLine(s: SyncSummary): string {
  const seconds = (s.durationMs / 1000).toFixed(1);
  const parts = [
    plural(s.requests, 'request'),
    `${plural(s.newRecords, 'new record')} (${plural(s.newPersonalBests, 'improved PB')})`,
    `${plural(s.replaysDownloaded, 'replay')} downloaded` + (s.replaysHidden || s.replaysFailed ? ` (${s.replaysHidden} hidden, ${s.replaysFailed} failed)` : ''),
  ];
  for (const gained of s.newMaps) parts.push(`${plural(gained.mapUids.length, 'new map')} from ${plainName(gained.title)}`);
  if (s.positions && s.positions.asked > 0) parts.push(`${plural(s.positions.asked, 'world position')} (${plural(s.positions.requests, 'request')})`);
  if (s.unknownMaps.length) parts.push(`${plural(s.unknownMaps.length, 'map ref')} not found`);
  if (s.errors.length) parts.push(plural(s.errors.length, 'error'));
  return `sync ${s.outcome}: ${plural(s.maps, 'map')} x ${plural(s.players, 'player')} in ${seconds}s, ${parts.join(', ')}`;
}

/** The best position change of a sync: the biggest climb, else the best new position; '' when none. */
export function positionLine(s: SyncSummary): string {
  const climb = s.positions?.bestClimb;
  if (climb) {
    return `best climb: ${plainName(climb.playerName)} ${formatPosition(climb.before)} → ${formatPosition(climb.after)} (${formatPositionChange(climb.before, climb.after)}) in the world on ${plainName(climb.mapName)}`;
  }
  const top = s.positions?.bestPosition;
  return top ? `best position: ${plainName(top.playerName)} ${formatPosition(top.after)} in the world on ${plainName(top.mapName)}` : '';
}

/**
 * What the sync said of world records: "25 world records (2 secret)", and the WR ghosts one more account could not
 * join the records request for (not asked rather than a request more); '' when none were asked.
 */
export function worldRecordLine(s: SyncSummary): string {
  const wr = s.worldRecords;
  if (!wr || wr.asked === 0) return '';
  const parts = [`${plural(wr.found + wr.secret, 'world record')} read${wr.secret > 0 ? ` (${wr.secret} secret: the holder is known, the time is not)` : ''}`];
  if (wr.ghostsSkipped > 0) {
    parts.push(`the WR ghost of ${plural(wr.ghostsSkipped, 'map')} was not asked: one more account would not fit the records request (the address limit), and it costs no request of its own`);
  }
  return parts.join('; ');
}

/** What the progress bar shows of one progress report. */
export interface BarFrame {
  value: number;
  total: number;
  payload: { phase: string; requests: number; pbs: number; errors: string; left: string };
}

/**
 * The bar's frame for a progress report; null for the run's closing report, whose full bar would read as a finished
 * sync right before a summary saying "cancelled" (issue 17 §2.10): the summary says how it ended. Once the player has
 * pressed Ctrl-C (`stopping`) the bar says so, and no time left.
 */
export function barFrame(p: SyncProgress, stopping: boolean): BarFrame | null {
  if (p.phase === 'done') return null;
  const replays = p.phase === 'replays';
  return {
    value: replays ? p.replaysDone : p.mapsDone,
    total: Math.max(replays ? p.replaysTotal : p.mapsTotal, 1),
    payload: {
      phase: (stopping ? 'stopping' : p.phase).padEnd(8),
      requests: p.requests,
      pbs: p.newRecords,
      errors: p.errors ? ` | ${p.errors} errors` : '',
      left: stopping ? '-' : timeLeft(p.etaMs),
    },
  };
}

/** Runs a sync with a terminal progress bar (when stdout is a terminal) and prints its summary. */
export async function syncWithProgress(
  out: Output,
  tw: Trackwatch,
  options: {
    list?: string; replays?: boolean; positions?: boolean; worldRecords?: boolean; refreshMaps?: boolean; seasonIds?: string[]; signal?: AbortSignal; quiet?: boolean;
    /** Once the sync holds the data folder's lock, before it sends anything. */
    onStarted?: () => void;
  },
): Promise<SyncSummary> {
  const bar = out.io.stderr.isTTY && !options.quiet
    ? new cliProgress.SingleBar(
        { format: ' {phase} {bar} {value}/{total} | {requests} req | {pbs} new records{errors} | left {left}', barsize: 24, hideCursor: true, clearOnComplete: true, stream: out.io.stderr as NodeJS.WritableStream },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let started = false;
  let last: SyncProgress | undefined;
  const show = (p: SyncProgress): void => {
    const frame = bar && barFrame(p, options.signal?.aborted === true);
    if (!bar || !frame) return;
    last = p;
    if (!started) {
      bar.start(frame.total, frame.value, frame.payload);
      started = true;
    } else {
      bar.setTotal(frame.total);
      bar.update(frame.value, frame.payload);
    }
  };
  const onProgress = (p: SyncProgress): void => show(p);
  // Ctrl-C: the bar says at once that the sync is stopping (it ends the requests under way), not a time left.
  const onStop = (): void => {
    if (last) show(last);
  };
  options.signal?.addEventListener('abort', onStop, { once: true });
  try {
    return await tw.sync({
      list: options.list,
      replays: options.replays,
      ...(options.positions === false ? { positions: false } : {}),
      ...(options.worldRecords === false ? { worldRecords: false } : {}),
      refreshMaps: options.refreshMaps,
      seasonIds: options.seasonIds,
      signal: options.signal,
      onProgress,
      ...(options.onStarted ? { onRunStarted: options.onStarted } : {}),
    });
  } finally {
    options.signal?.removeEventListener('abort', onStop);
    if (started) bar?.stop();
  }
}

/**
 * Refuses a --season that no sync could read, before anything is planned or sent. The store keeps a season's records
 * under its ID, a UUID (core/store/ids.ts); personal bests are read by every sync, under no season.
 */
function checkSeasons(seasons: readonly string[]): void {
  for (const season of seasons) {
    if (season.replace(/[\s_-]/g, '').toLowerCase() === PERSONAL_BEST.toLowerCase()) {
      throw new UserError(`--season ${JSON.stringify(season)}: personal bests need no --season, every sync reads them; --season adds a season's leaderboard, by its ID.`);
    }
    if (!isUuid(season.trim())) {
      throw new UserError(`--season ${JSON.stringify(season)} is not a season ID: one is a UUID like 3987d489-03ae-4645-9903-8f7679c3a418; personal bests need no --season.`);
    }
  }
}

/**
 * Why a sync would have nothing to read, or undefined: no list, or no list with maps (or a source that brings them).
 * Players without maps have nothing to be read on.
 */
function nothingToSync(tw: Trackwatch, lists: readonly string[], list: string | undefined): string | undefined {
  const hasMaps = (name: string): boolean => {
    const summary = tw.store.watchlists.get(name);
    return (summary !== undefined && summary.maps + summary.unresolvedMaps > 0) || tw.store.sources.get(name) !== undefined;
  };
  if (lists.some(hasMaps)) return undefined;
  if (list !== undefined) {
    const named = ` --list ${JSON.stringify(lists[0] ?? list)}`;
    return `nothing to sync: ${JSON.stringify(lists[0] ?? list)} has no maps yet; add some with \`trackwatch maps add <map>${named}\`, and players with \`trackwatch players add <player>${named}\`.`;
  }
  return `nothing to sync: ${lists.length === 0 ? 'there is no watchlist yet' : 'no watchlist has any maps yet'}; ` +
    'add maps with `trackwatch maps add <map>` (or `trackwatch lists create --from SOURCE`), and players with `trackwatch players add <player>`.';
}

/** A map as an error line names it: `"Fall 2026 - 03" (UID)`, its ID when the store does not know it. */
function mapLabel(tw: Trackwatch, mapId: string): string {
  const map = tw.store.maps.get(mapId);
  return map ? `"${plainName(map.name)}" (${map.mapUid})` : mapId;
}

/** Lines naming the replays whose download failed in this run and that the next sync asks for again. */
function failedReplayLines(summary: SyncSummary): string[] {
  const failed = summary.failedReplays;
  if (failed.length === 0) return [];
  const lines = failed.slice(0, 10).map((r) =>
    `  replay of ${plainName(r.playerName ?? r.accountId ?? 'a player')} on ${r.mapName !== null ? `"${plainName(r.mapName)}" (${r.mapUid})` : r.mapId ?? 'a map'} failed: ${terminalSafe(r.error ?? 'no reason given')}`);
  if (failed.length > 10) lines.push(`  … and ${failed.length - 10} more`);
  const them = failed.length === 1 ? 'it' : 'them';
  lines.push(`  the next sync tries ${them} again (${MAX_REPLAY_ATTEMPTS} tries in all; after that, \`trackwatch sync --retry-replays\`).`);
  return lines;
}

/**
 * Everything a finished sync prints, composed before the first line is: the map names its error lines read come from
 * the store, and a damaged page met there must not follow a printed "sync ok" (issue 17 §1.7).
 */
function summaryLines(out: Output, tw: Trackwatch, summary: SyncSummary, list: string | undefined): string[] {
  const lines = [summaryLine(summary)];
  // Maps and no players: a sync reads the watched players' records only, so it found none; said, not left as "0 new records".
  if (summary.maps > 0 && summary.players === 0 && summary.outcome !== 'failed') {
    const inList = list ? ` --list "${list}"` : '';
    lines.push(out.colours.yellow(`no players are watched${list ? ` in "${list}"` : ''}, so no records were read: add some with \`trackwatch players add <player>${inList}\`, then sync again.`));
  }
  const best = positionLine(summary);
  if (best) lines.push(best);
  // A sync that failed for one reason says it once, as the command's last line (below).
  const listed = summary.outcome === 'failed' && summary.errors.length === 1 ? [] : summary.errors;
  for (const e of listed.slice(0, 10)) lines.push(out.colours.yellow(`  ${e.mapId ? `map ${mapLabel(tw, e.mapId)}: ` : ''}${terminalSafe(e.message)}`));
  if (listed.length > 10) lines.push(out.colours.yellow(`  … and ${listed.length - 10} more (see \`trackwatch sync --json\`)`));
  for (const text of failedReplayLines(summary)) lines.push(out.colours.yellow(text));
  const givenUp = summary.replaysGivenUp;
  if (givenUp > 0) lines.push(out.colours.yellow(`  ${plural(givenUp, 'replay')} failed ${MAX_REPLAY_ATTEMPTS} times and ${givenUp === 1 ? 'is' : 'are'} no longer asked for; \`trackwatch sync --retry-replays\` tries them again.`));
  // After what went wrong, which a reader looks for first.
  const worldRecords = worldRecordLine(summary);
  if (worldRecords) lines.push(worldRecords);
  return lines;
}

export function registerSyncCommand(program: Command, out: Output): void {
  program
    .command('sync')
    .description('fetch map info, personal bests and replays for a watchlist (or every list)')
    .option('--list <name>', 'only this watchlist')
    .option('--no-replays', 'do not download replays')
    .option('--no-positions', 'do not ask the Live services for world positions')
    .option('--no-world-records', 'do not ask the Live services for the world records of lists that show them')
    .option('--refresh-maps', 'refetch every map\'s info, not only old info')
    .option('--season <seasonId...>', 'also read these seasons\' leaderboards (season IDs; personal bests are always read)')
    .option('--retry-replays', `download again the replays earlier syncs gave up on (${MAX_REPLAY_ATTEMPTS} failed tries)`)
    .option('--yes', 'start a large first sync without asking')
    .option('--json', 'print a machine-readable summary')
    .action(async (flags: SyncFlags, command: Command) => {
      checkSeasons(flags.season ?? []);
      if (flags.retryReplays && !flags.replays) throw new UserError('--retry-replays downloads replays: leave out --no-replays.');
      const seasonIds = flags.season?.map((season) => season.trim());
      await withTrackwatch(out, command, async (tw, signal) => {
        if (flags.list) tw.store.watchlists.require(flags.list);
        const plan = tw.planSync({ list: flags.list, replays: flags.replays, positions: flags.positions, worldRecords: flags.worldRecords, refreshMaps: flags.refreshMaps, seasonIds });
        // Nothing to read is not a failure: an empty folder is as synced as it can be.
        const nothing = nothingToSync(tw, plan.lists, flags.list);
        if (nothing) {
          if (flags.json) out.json({ outcome: 'nothing', message: nothing, plan });
          else out.line(nothing);
          return;
        }
        await confirmLargeSync(out, plan, flags.list, flags.yes === true, signal);
        let retried = 0;
        // Once the sync holds the folder's lock (another sync running is said first), before it sends anything.
        const onStarted = (): void => {
          if (!flags.json) out.line(`sync of ${scopeOf(plan, flags.list)}: ${describeCost(plan)}`);
          if (!flags.retryReplays) return;
          retried = tw.store.replays.retryFailed();
          if (!flags.json) out.line(`${plural(retried, 'replay')} given up on earlier will be tried again.`);
        };
        const summary = await syncWithProgress(out, tw, {
          list: flags.list, replays: flags.replays, positions: flags.positions, worldRecords: flags.worldRecords, refreshMaps: flags.refreshMaps, seasonIds, signal, quiet: flags.json, onStarted,
        });
        if (flags.json) out.json({ ...summary, plan, ...(flags.retryReplays ? { replaysRetried: retried } : {}) });
        else for (const text of summaryLines(out, tw, summary, flags.list)) out.line(text);
        if (summary.outcome === 'failed') {
          if (summary.localFault) throw new LocalFaultError(summary.localFault.code, summary.localFault.code, summary.localFault.message);
          const only = summary.errors.length === 1 ? summary.errors[0]!.message : undefined;
          throw new UserError(only ?? 'the sync failed; nothing stored was lost. Check the errors above and try again.');
        }
        if (summary.outcome === 'cancelled') throw new CancelledError('the sync was cancelled; what it fetched is kept, and the next sync goes on from there.');
      });
    });
}
