// What every phase of a sync works over: the store and clients, the options, the run state it fills, the failure
// policy it reports to, and the plan made when the sync started. One phase is a file under phases/.
import { AbortError, type NadeoClient } from '../nadeo/index.ts';
import type { Store } from '../store/index.ts';
import { FailurePolicy, FatalSyncError, isFatal } from './failures.ts';
import { planSync, type SyncPlan } from './plan.ts';
import { forEachConcurrently } from './pool.ts';
import { longWaitOf } from './waits.ts';
import { RunState } from './run-state.ts';
import type { SyncDeps, SyncOptions } from './types.ts';

export interface SyncContext {
  readonly deps: SyncDeps;
  readonly options: SyncOptions;
  readonly store: Store;
  readonly client: NadeoClient;
  /** The list synced; every list when undefined. */
  readonly list: string | undefined;
  readonly now: () => Date;
  readonly run: RunState;
  readonly failures: FailurePolicy;
  /** How the failure policy keys each service's long waits. */
  readonly hosts: { api: string; live: string; names: string };
  /**
   * What the sync was expected to ask for when its phases started (planSync), for the time left; undefined when nobody
   * listens to progress, and before the phases start.
   */
  plan: SyncPlan | undefined;
}

/**
 * What the sync will ask for, as the time left counts it: counted from the store (planSync), so made only when someone
 * listens to progress.
 */
export function planFor(ctx: SyncContext): SyncPlan | undefined {
  const o = ctx.options;
  if (!o.onProgress) return undefined;
  return planSync(ctx.store, { list: o.list, replays: o.replays, refreshMaps: o.refreshMaps, seasonIds: o.seasonIds, me: o.me, positions: o.positions,
    // Asked only when the sync can ask them (a Live client), as the phase does.
    worldRecords: o.worldRecords !== false && ctx.deps.worldRecord !== undefined });
}

/** One step of a sync (phases/index.ts lists them in order). */
export interface Phase {
  readonly name: string;
  /** Requests the plan expects of it: the time left counts them before it starts. 0 when the plan does not count it. */
  planned(ctx: SyncContext): number;
  /** Requests it still has to send while it runs; what was planned, until it ends, when absent. */
  left?(ctx: SyncContext): number;
  run(ctx: SyncContext): Promise<void>;
}

export interface ContextInput {
  runId: number;
  /** The requests the run has sent so far. */
  requests: () => number;
}

/** A sync's context for a stored run: its run state and failure policy. */
export function createContext(deps: SyncDeps, options: SyncOptions, input: ContextInput): SyncContext {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());
  const run = new RunState({
    runId: input.runId,
    clock: () => now().getTime(),
    requests: input.requests,
    persistError: (e) => store.syncRuns.addError(input.runId, e.mapId, e.message),
    onProgress: options.onProgress,
  });
  const failures = new FailurePolicy((e) => run.addError(e), options.signal);
  return {
    deps, options, store, client: deps.client, list: options.list, now, run, failures, plan: undefined,
    // Where every API call goes (map info, records): the key of its long wait. The Live services may share it.
    hosts: { api: deps.apiHost ?? 'the API', live: deps.liveHost ?? 'the Live services', names: 'the names service' },
  };
}

export interface EachOptions<T> {
  work: (item: T, signal: AbortSignal) => Promise<void>;
  /** A failure that neither stops the sync nor is its host's long wait. */
  onError: (item: T, error: unknown) => void;
  /** After each item, done or not; `cut` when a stop (Ctrl-C, a fatal error) ended its work unfinished. */
  after: (cut: boolean) => void;
  /** Where an item's calls go; the API's host by default. */
  hostOf?: (item: T) => string;
}

/**
 * Works through items concurrently: a fatal error stops everything, a cancel ends quietly, others go to onError.
 * An item whose host asked for a long wait is skipped, and so is one whose call that wait cut short. Returns how many
 * were skipped; throws FatalSyncError or AbortError when the sync stops.
 */
export async function forEachItem<T>(ctx: SyncContext, items: readonly T[], o: EachOptions<T>): Promise<number> {
  const { failures } = ctx;
  const hostOf = o.hostOf ?? (() => ctx.hosts.api);
  let skipped = 0;
  await forEachConcurrently(items, ctx.options.concurrency ?? 4, async (item) => {
    const host = hostOf(item);
    let cut = false;
    try {
      if (failures.isWaiting(host)) {
        skipped += 1;
        return;
      }
      await o.work(item, failures.signalFor(host));
    } catch (error) {
      if (isFatal(error)) failures.stopFatally(error);
      else if (failures.stopping) {
        // cancelled, or stopped by a fatal error: said once, by the engine
        cut = true;
      } else if (failures.isWaiting(host) && !longWaitOf(error)) skipped += 1;
      else o.onError(item, error);
    } finally {
      o.after(cut);
    }
  }, failures.signal);
  if (failures.fatal) throw new FatalSyncError();
  if (failures.signal.aborted) throw new AbortError('The sync was cancelled.');
  return skipped;
}

/** For a single call of a phase: a fatal error or a stop goes up to the engine; any other failure to the policy. */
export function rethrowIfStopping(ctx: SyncContext, error: unknown): void {
  if (ctx.failures.stopping || isFatal(error)) throw error;
}
