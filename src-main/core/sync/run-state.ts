// What one sync run has done so far: its counters, the phase it is in, its errors, and the time it has left. The
// phases fill it; the engine turns it into progress events and, at the end, the summary.
import type { PositionsSummary } from './positions.ts';
import { emptyWorldRecordsSummary, type WorldRecordsSummary } from './world-records.ts';
import type { SyncError, SyncPhase, SyncProgress, SyncSummary } from './types.ts';

export interface RunStateOptions {
  runId: number;
  /** The sync's clock, in ms (the time left is measured on it). */
  clock: () => number;
  /** The requests the run has sent so far (run-requests.ts). */
  requests: () => number;
  /** Stores an error with the run, as it happens (a sync killed later keeps it). */
  persistError: (error: SyncError) => void;
  onProgress?: ((progress: SyncProgress) => void) | undefined;
}

export class RunState {
  readonly runId: number;
  /** When the phases started, on the sync's clock. */
  readonly startedAt: number;
  phase: SyncPhase = 'maps';
  mapsTotal = 0;
  mapsDone = 0;
  /** Maps not asked for because their host asked for a long wait. */
  mapsSkipped = 0;
  /** Maps whose records were all read and stored. */
  mapsOk = 0;
  replaysTotal = 0;
  replaysDone = 0;
  replaysDownloaded = 0;
  replaysHidden = 0;
  replaysFailed = 0;
  records = 0;
  newRecords = 0;
  newPersonalBests = 0;
  /** The watched players' account IDs, as the records phase read them. */
  players: string[] = [];
  readonly errors: SyncError[] = [];
  readonly unknownMaps: string[] = [];
  readonly newMaps: SyncSummary['newMaps'] = [];
  positions: PositionsSummary | null = null;
  /** What the world-records phase asked and found; null when it asked nothing. */
  worldRecords: WorldRecordsSummary | null = null;
  /** Top-route requests the world-records phase still has to send. */
  worldRecordsLeft = 0;
  /** Each map's visible world record holder (map ID → account ID), for the records phase to ask along. */
  readonly worldRecordHolders = new Map<string, string>();
  /** Requests still due in the sync: set by the engine as phases start (see etaMs). */
  requestsLeft: () => number = () => 0;
  readonly #o: RunStateOptions;

  constructor(options: RunStateOptions) {
    this.#o = options;
    this.runId = options.runId;
    this.startedAt = options.clock();
  }

  /** The world-records summary, made when the phase first needs it. */
  worldRecordsSummary(): WorldRecordsSummary {
    return (this.worldRecords ??= emptyWorldRecordsSummary());
  }

  get requests(): number {
    return this.#o.requests();
  }

  addError(error: SyncError): void {
    this.errors.push(error);
    this.#o.persistError(error);
  }

  /**
   * Milliseconds left in the whole sync: the requests still due at the pace kept so far (the run's time per request,
   * waits and writes included); null before the first request, when there is no pace to go by.
   */
  etaMs(): number | null {
    const done = this.requests;
    if (done <= 0) return null;
    return Math.round(((this.#o.clock() - this.startedAt) / done) * Math.max(0, this.requestsLeft()));
  }

  /** Tells the caller where the sync stands (when it listens). */
  progress(): void {
    const onProgress = this.#o.onProgress;
    if (!onProgress) return;
    onProgress({
      runId: this.runId, phase: this.phase, mapsDone: this.mapsDone, mapsTotal: this.mapsTotal, requests: this.requests,
      replaysDone: this.replaysDone, replaysTotal: this.replaysTotal, newRecords: this.newRecords,
      newPersonalBests: this.newPersonalBests, errors: this.errors.length, etaMs: this.etaMs(),
    });
  }
}
