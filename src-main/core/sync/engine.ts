// The sync engine: plan what a list needs, fetch it politely, write it in transactions, then fetch replays.
// Fetch first, then write: no await ever sits inside a transaction, so a sync killed at any moment leaves the
// store consistent and the next sync picks up whatever was not written (pending refs, pending replays).
// runSync holds the lock and the run row and runs the phases (phases/index.ts) in order over one context.
import type { Store } from '../store/index.ts';
import { localFault } from '../store/errors.ts';
import type { SyncOutcome } from '../store/types.ts';
import { createContext, planFor, type SyncContext } from './context.ts';
import { fatalMessage, isFatal, messageOf } from './failures.ts';
import { acquireSyncLock } from './lock.ts';
import { PHASES } from './phases/index.ts';
import { EMPTY_REPORT, readReport, type RunReport } from './report.ts';
import { RunRequests } from './run-requests.ts';
import type { SyncDeps, SyncOptions, SyncSummary } from './types.ts';

export type { NewPersonalBest, RequestEvents, SyncDeps, SyncError, SyncOptions, SyncPhase, SyncProgress, SyncSummary } from './types.ts';
export { fetchReplayNow } from './replay-files.ts';

/** Runs one sync of a list (or of every list) and resolves with its summary; never leaves a run "running". */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncSummary> {
  const started = Date.now();
  const lock = await acquireSyncLock(deps.dataDir);
  try {
    const requests = new RunRequests(deps.requestEvents);
    try {
      // The caller's hooks run outside the run's scope: what they start is not the sync's.
      const hooks: Partial<SyncOptions> = {
        onProgress: requests.outside(options.onProgress),
        onNewPersonalBest: requests.outside(options.onNewPersonalBest),
        onRunStarted: requests.outside(options.onRunStarted),
      };
      return await requests.within(() => syncLocked(deps, { ...options, ...hooks }, started, requests));
    } finally {
      requests.close();
    }
  } finally {
    await lock.release();
  }
}

async function syncLocked(deps: SyncDeps, options: SyncOptions, started: number, requests: RunRequests): Promise<SyncSummary> {
  const { store } = deps;
  store.syncRuns.closeInterrupted();
  const runId = store.syncRuns.start(options.list);
  options.onRunStarted?.(runId);
  const ctx = createContext(deps, options, { runId, requests: () => requests.count });
  const { run, failures } = ctx;
  requests.observe((event) => failures.attempted(event));
  let cancelled = false;
  try {
    await runPhases(ctx);
  } catch (error) {
    // A fatal error out of a single-call phase (a full disk in maps, an AuthError in positions) did not pass through
    // the workers' policy: it is the run's fatal error all the same, so the run fails with its local fault.
    if (!failures.fatal && isFatal(error)) failures.stopFatally(error);
    if (failures.fatal) addErrorIfPossible(ctx, fatalMessage(failures.fatal));
    else if (failures.unreachable) {
      // Said already, in one line.
    } else if (failures.stopping) cancelled = true;
    else run.addError({ mapId: null, message: messageOf(error) });
  }
  const report = reportOf(ctx, options.list);
  failures.releaseHeldBack();

  const counts = { maps: run.mapsDone - run.mapsSkipped, requests: run.requests, records: run.records, newPbs: run.newRecords, replays: run.replaysDownloaded };
  let outcome = outcomeOf(ctx, cancelled);
  const unfinished = finishRun(store, runId, outcome, counts);
  if (unfinished && !failures.fatal) {
    // The run's row could not be closed (a damaged page, a full disk): that is how the run ended, said once.
    failures.stopFatally(unfinished);
    addErrorIfPossible(ctx, fatalMessage(unfinished));
    outcome = 'failed';
  }
  const fault = failures.fatal === undefined ? undefined : localFault(failures.fatal);
  run.phase = 'done';
  run.requestsLeft = () => 0;
  run.progress();
  return {
    runId, list: options.list ?? null, outcome, maps: counts.maps, players: playersOf(ctx), requests: counts.requests,
    records: run.records, newRecords: run.newRecords, newPersonalBests: run.newPersonalBests,
    replaysDownloaded: run.replaysDownloaded, replaysHidden: run.replaysHidden, replaysFailed: run.replaysFailed,
    unknownMaps: run.unknownMaps, errors: run.errors, newMaps: run.newMaps, positions: run.positions, worldRecords: run.worldRecords,
    ...report,
    localFault: fault ? { code: fault.code, message: fault.message } : null,
    durationMs: Date.now() - started,
  };
}

/**
 * The phases in order; a phase that throws (a stop, a fatal error) ends the sync there. While one runs, the time left
 * counts what it has left and what the plan expects of every phase after it: one estimate for the whole sync.
 */
async function runPhases(ctx: SyncContext): Promise<void> {
  ctx.plan = planFor(ctx);
  const planned = PHASES.map((phase) => phase.planned(ctx));
  for (const [i, phase] of PHASES.entries()) {
    const after = planned.slice(i + 1).reduce((sum, n) => sum + n, 0);
    const left = phase.left;
    ctx.run.requestsLeft = left ? () => left(ctx) + after : () => planned[i]! + after;
    await phase.run(ctx);
  }
}

function outcomeOf(ctx: SyncContext, cancelled: boolean): SyncOutcome {
  const { run, failures } = ctx;
  if (failures.fatal || failures.unreachable || run.errors.some((e) => e.mapId === null && run.mapsOk === 0)) return 'failed';
  if (cancelled) return 'cancelled';
  if (run.errors.length === 0) return 'ok';
  return run.mapsOk > 0 ? 'partial' : 'failed';
}

/**
 * What the summary reports of the store (report.ts), read inside the run: a local fault met there (a damaged page
 * only this read reaches) is the run's fatal error, as it would be in any phase.
 */
function reportOf(ctx: SyncContext, list: string | undefined): RunReport {
  const { store, run, failures } = ctx;
  try {
    return readReport(store, run.runId, list, run.replaysFailed);
  } catch (error) {
    if (!isFatal(error)) throw error;
    if (!failures.fatal) {
      failures.stopFatally(error);
      addErrorIfPossible(ctx, fatalMessage(error));
    }
    return EMPTY_REPORT;
  }
}

/** Notes the run's fatal error; on a store that cannot take it (the fault itself), the summary still carries it. */
function addErrorIfPossible(ctx: SyncContext, message: string): void {
  try {
    ctx.run.addError({ mapId: null, message }); // kept in the summary before it is written
  } catch (error) {
    if (localFault(error) === undefined) throw error;
  }
}

/**
 * Closes the run; returns the local fault that kept it from being written, if one did. The row then stays 'running'
 * on disk until the next sync closes it as interrupted; the summary says the run failed, and why.
 */
function finishRun(store: Store, runId: number, outcome: SyncOutcome, counts: Parameters<Store['syncRuns']['finish']>[2]): unknown {
  try {
    store.syncRuns.finish(runId, outcome, counts);
    return undefined;
  } catch (error) {
    if (localFault(error) === undefined) throw error;
    try {
      // What failed may have been the counts' page, not the outcome's: the outcome alone is what matters most.
      store.syncRuns.finish(runId, 'failed');
    } catch {
      // Left to the next sync's closeInterrupted.
    }
    return error;
  }
}

/**
 * The watched players the sync was for: as the records phase read them, or, when it stopped before that phase (a
 * cancel while the maps are looked up), as its plan counted them; never "0 players" beside a plan that said 8.
 */
function playersOf(ctx: SyncContext): number {
  return ctx.run.players.length > 0 ? ctx.run.players.length : (ctx.plan?.players ?? 0);
}
