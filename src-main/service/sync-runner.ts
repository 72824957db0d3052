// One sync at a time for the window: started by a command or the schedule, reported as events, cancellable. A run is
// named by its stored run's ID (sync_runs), the same in sync.start, every progress event and sync.finished.
import type { EventPayload } from '../contract/events.ts';
import type { NewPersonalBest as EngineNewPersonalBest, SyncProgress as EngineProgress, SyncSummary } from '../core/sync/engine.ts';
import { ServiceError, toErrorValue } from './errors.ts';
import type { EventHub } from './events.ts';
import { failedMapsOf, syncErrorFor } from './sync-outcome.ts';

type Progress = EventPayload<'sync.progress'>;
type Finished = EventPayload<'sync.finished'>;

const PHASES: Record<EngineProgress['phase'], string> = {
  maps: 'Looking up maps',
  records: 'Reading records',
  replays: 'Downloading replays',
  names: 'Fetching player names',
  done: 'Finishing',
};

/** The engine's counters in the words the progress bar shows: what it does, how far, how long is left. */
export function progressOf(runId: string, list: string | null, startedAt: string, p: EngineProgress): Progress {
  const [done, total] = p.phase === 'replays' ? [p.replaysDone, p.replaysTotal] : p.phase === 'records' || p.phase === 'done' ? [p.mapsDone, p.mapsTotal] : [0, 0];
  return { runId, list, phase: PHASES[p.phase], done, total, newRecords: p.newRecords, startedAt, etaMs: p.etaMs };
}

export function finishedOf(runId: string, summary: SyncSummary, finishedAt: string): Finished {
  // The run's own error says why it failed; a map's error why it was partial.
  const firstError = summary.errors.find((e) => e.mapId === null) ?? summary.errors[0];
  return {
    runId,
    list: summary.list,
    outcome: summary.outcome,
    maps: summary.maps,
    newRecords: summary.newRecords,
    replays: summary.replaysDownloaded,
    durationMs: summary.durationMs,
    finishedAt,
    failedMaps: failedMapsOf(summary.errors),
    error: summary.localFault && (summary.outcome === 'failed' || summary.outcome === 'partial')
      ? { code: 'local_fault', message: summary.localFault.message }
      : syncErrorFor(summary.outcome, firstError?.message),
  };
}

export interface SyncJob {
  list?: string | undefined;
  replays?: boolean | undefined;
  signal: AbortSignal;
  onProgress: (p: EngineProgress) => void;
  onNewPersonalBest: (e: EngineNewPersonalBest) => void;
  onRunStarted: (runId: number) => void;
}

export interface SyncRunnerOptions {
  events: EventHub;
  run: (job: SyncJob) => Promise<SyncSummary>;
  /** Told of each new personal best worth announcing, and of the run's end (to batch notifications). */
  onNewPersonalBest?: (e: EngineNewPersonalBest, list: string | null) => void;
  onStarted?: () => void;
  onFinished?: (finished: Finished) => void;
  now?: () => Date;
  /** Progress events at most this often (the last one of a run always goes). */
  progressEveryMs?: number;
}

interface Running {
  /** The stored run's ID; null until the engine has stored it. */
  runId: string | null;
  list: string | null;
  startedAt: string;
  controller: AbortController;
  progress: Progress | null;
  done: Promise<void>;
}

export class SyncRunner {
  readonly #o: SyncRunnerOptions;
  #running: Running | undefined;
  #last: Finished | null = null;

  constructor(options: SyncRunnerOptions) {
    this.#o = options;
  }

  get running(): Progress | null {
    const r = this.#running;
    if (!r || r.runId === null) return null;
    return r.progress ?? { runId: r.runId, list: r.list, phase: 'Starting', done: 0, total: 0, newRecords: 0, startedAt: r.startedAt, etaMs: null };
  }

  get last(): Finished | null {
    return this.#last;
  }

  set last(finished: Finished | null) {
    this.#last = finished;
  }

  /**
   * Starts a sync in the background; resolves with its run's ID once the engine has stored the run, or rejects when
   * the sync fails before that (another process syncing the folder): then there is no run to report. A second
   * start while one runs is refused.
   */
  start(options: { list?: string | undefined; replays?: boolean | undefined } = {}): Promise<string> {
    if (this.#running) throw new ServiceError('busy', 'A sync is already running; wait for it or cancel it.', true);
    const now = this.#o.now ?? (() => new Date());
    const list = options.list ?? null;
    const startedAt = now().toISOString();
    const controller = new AbortController();
    let lastSent = 0;
    const every = this.#o.progressEveryMs ?? 100;
    const running: Running = { runId: null, list, startedAt, controller, progress: null, done: Promise.resolve() };
    this.#running = running;
    let stored!: (runId: string) => void;
    let failedFirst!: (error: unknown) => void;
    const runId = new Promise<string>((resolve, reject) => {
      stored = resolve;
      failedFirst = reject;
    });

    const job: SyncJob = {
      list: options.list,
      replays: options.replays,
      signal: controller.signal,
      // A job of several stored runs (the demo's tour: sync, time passes, sync) is one run to the window, named by
      // its first.
      onRunStarted: (id) => {
        if (running.runId !== null) return;
        running.runId = String(id);
        stored(running.runId);
      },
      onProgress: (p) => {
        const progress = progressOf(running.runId ?? String(p.runId), list, startedAt, p);
        const phaseChanged = running.progress?.phase !== progress.phase;
        running.progress = progress;
        const t = Date.now();
        if (phaseChanged || t - lastSent >= every || progress.done === progress.total) {
          lastSent = t;
          this.#o.events.emit('sync.progress', progress);
        }
      },
      onNewPersonalBest: (e) => this.#o.onNewPersonalBest?.(e, list),
    };

    this.#o.onStarted?.();
    running.done = (async () => {
      let finished: Finished;
      try {
        const summary = await this.#o.run(job);
        finished = finishedOf(running.runId ?? String(summary.runId), summary, now().toISOString());
      } catch (error) {
        if (running.runId === null) {
          // Nothing was stored: the caller of start hears why, and no run ends.
          this.#running = undefined;
          failedFirst(error);
          return;
        }
        const value = toErrorValue(error);
        finished = {
          runId: running.runId, list, outcome: value.code === 'cancelled' ? 'cancelled' : 'failed', maps: 0, newRecords: 0, replays: 0, failedMaps: 0,
          durationMs: now().getTime() - Date.parse(startedAt), finishedAt: now().toISOString(),
          error: value.code === 'cancelled' ? null : { code: value.code, message: value.message },
        };
      }
      this.#running = undefined;
      this.#last = finished;
      this.#o.onFinished?.(finished);
      this.#o.events.emit('sync.finished', finished);
    })();
    return runId;
  }

  /** A cancel (or stop) is under way: requests failing now were cut short by it, not by the network. */
  get stopping(): boolean {
    return this.#running?.controller.signal.aborted ?? false;
  }

  cancel(): boolean {
    if (!this.#running || this.#running.controller.signal.aborted) return false;
    this.#running.controller.abort();
    return true;
  }

  /** Cancels any running sync and waits for it to wind down. */
  async stop(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    running.controller.abort();
    await running.done;
  }
}
