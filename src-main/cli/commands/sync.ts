// `sync`: fetch what the watchlists need, with a progress bar on a terminal and one summary line at the end.
import { createInterface } from 'node:readline/promises';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { LocalFaultError, MAX_REPLAY_ATTEMPTS } from '../../core/store/index.ts';
import type { SyncProgress, SyncSummary } from '../../core/sync/engine.ts';
import { describeCost, describeDuration, type SyncPlan } from '../../core/sync/plan.ts';
import type { Trackwatch } from '../../core/trackwatch.ts';
import { withTrackwatch } from '../context.ts';
import { ExitCode, UserError, terminalSafe } from '../errors.ts';
import { formatPosition, formatPositionChange } from '../../shared/format.ts';
import { colours, line, plainName, printJson } from '../output.ts';
import { plural } from '../words.ts';

interface SyncFlags {
  list?: string;
  replays: boolean;
  positions: boolean;
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
async function confirmLargeSync(plan: SyncPlan, list: string | undefined, yes: boolean, signal: AbortSignal): Promise<void> {
  // What would make it smaller: a replay policy, or leaving replays out (unless they already are).
  const smaller = plan.replayDownloads > 0 ? ' (`trackwatch replays policy --list NAME best 3`, or `sync --no-replays`)' : '';
  if (!plan.large || yes) return;
  const what = `this first sync of ${scopeOf(plan, list)} is large: ${describeCost(plan)}`;
  const skip = positionsSkip(plan);
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    throw new UserError(
      `${what}. Nothing was asked of Nadeo's service; run it again with --yes to start it${smaller ? `, or make it smaller${smaller}` : ''}.` +
        `${skip ? ` ${skip}` : ''}`,
    );
  }
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${what}.\n${skip ? `${skip}\n` : ''}Start it? [y/N] `, { signal });
    if (!/^\s*y(es)?\s*$/i.test(answer)) throw new UserError('not started; nothing was asked of Nadeo\'s service.');
  } catch (error) {
    if (signal.aborted) throw new UserError('not started; nothing was asked of Nadeo\'s service.', ExitCode.CANCELLED);
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

/** Runs a sync with a terminal progress bar (when stdout is a terminal) and prints its summary. */
export async function syncWithProgress(
  tw: Trackwatch,
  options: { list?: string; replays?: boolean; positions?: boolean; refreshMaps?: boolean; seasonIds?: string[]; signal?: AbortSignal; quiet?: boolean },
): Promise<SyncSummary> {
  const bar = process.stderr.isTTY && !options.quiet
    ? new cliProgress.SingleBar(
        { format: ' {phase} {bar} {value}/{total} | {requests} req | {pbs} new records{errors} | left {left}', barsize: 24, hideCursor: true, clearOnComplete: true, stream: process.stderr },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let started = false;
  const onProgress = (p: SyncProgress): void => {
    if (!bar) return;
    const replays = p.phase === 'replays';
    const payload = { phase: p.phase.padEnd(7), requests: p.requests, pbs: p.newRecords, errors: p.errors ? ` | ${p.errors} errors` : '', left: timeLeft(p.etaMs) };
    const total = replays ? p.replaysTotal : p.mapsTotal;
    const value = replays ? p.replaysDone : p.mapsDone;
    if (!started) {
      bar.start(Math.max(total, 1), value, payload);
      started = true;
    } else {
      bar.setTotal(Math.max(total, 1));
      bar.update(value, payload);
    }
  };
  try {
    return await tw.sync({
      list: options.list,
      replays: options.replays,
      ...(options.positions === false ? { positions: false } : {}),
      refreshMaps: options.refreshMaps,
      seasonIds: options.seasonIds,
      signal: options.signal,
      onProgress,
    });
  } finally {
    if (started) bar?.stop();
  }
}

export function registerSyncCommand(program: Command): void {
  program
    .command('sync')
    .description('fetch map info, personal bests and replays for a watchlist (or every list)')
    .option('--list <name>', 'only this watchlist')
    .option('--no-replays', 'do not download replays')
    .option('--no-positions', 'do not ask the Live services for world positions')
    .option('--refresh-maps', 'refetch every map\'s info, not only old info')
    .option('--season <seasonId...>', 'also read these seasons\' leaderboards')
    .option('--retry-replays', `download again the replays earlier syncs gave up on (${MAX_REPLAY_ATTEMPTS} failed tries)`)
    .option('--yes', 'start a large first sync without asking')
    .option('--json', 'print a machine-readable summary')
    .action(async (flags: SyncFlags, command: Command) => {
      await withTrackwatch(command, async (tw, signal) => {
        if (flags.list) tw.store.watchlists.require(flags.list);
        if (flags.retryReplays && !flags.replays) throw new UserError('--retry-replays downloads replays: leave out --no-replays.');
        const plan = tw.planSync({ list: flags.list, replays: flags.replays, positions: flags.positions, refreshMaps: flags.refreshMaps, seasonIds: flags.season });
        await confirmLargeSync(plan, flags.list, flags.yes === true, signal);
        if (!flags.json) line(`sync of ${scopeOf(plan, flags.list)}: ${describeCost(plan)}`);
        const retried = flags.retryReplays ? tw.store.replays.retryFailed() : 0;
        if (flags.retryReplays && !flags.json) line(`${plural(retried, 'replay')} given up on earlier will be tried again.`);
        const summary = await syncWithProgress(tw, {
          list: flags.list, replays: flags.replays, positions: flags.positions, refreshMaps: flags.refreshMaps, seasonIds: flags.season, signal, quiet: flags.json,
        });
        if (flags.json) printJson({ ...summary, plan, ...(flags.retryReplays ? { replaysRetried: retried } : {}) });
        else {
          line(summaryLine(summary));
          const best = positionLine(summary);
          if (best) line(best);
          // A sync that failed for one reason says it once, as the command's last line (below).
          const listed = summary.outcome === 'failed' && summary.errors.length === 1 ? [] : summary.errors;
          for (const e of listed.slice(0, 10)) line(colours.yellow(`  ${e.mapId ? `map ${e.mapId}: ` : ''}${terminalSafe(e.message)}`));
          if (listed.length > 10) line(colours.yellow(`  … and ${listed.length - 10} more (see \`trackwatch sync --json\`)`));
          const givenUp = tw.store.replays.givenUp();
          if (givenUp > 0) line(colours.yellow(`  ${plural(givenUp, 'replay')} failed ${MAX_REPLAY_ATTEMPTS} times and ${givenUp === 1 ? 'is' : 'are'} no longer asked for; \`trackwatch sync --retry-replays\` tries them again.`));
        }
        if (summary.outcome === 'failed') {
          if (summary.localFault) throw new LocalFaultError(summary.localFault.code, summary.localFault.code, summary.localFault.message);
          const only = summary.errors.length === 1 ? summary.errors[0]!.message : undefined;
          throw new UserError(only ?? 'the sync failed; nothing stored was lost. Check the errors above and try again.');
        }
        if (summary.outcome === 'cancelled') throw new UserError('the sync was cancelled; what it fetched is kept, and the next sync goes on from there.', ExitCode.CANCELLED);
      });
    });
}
