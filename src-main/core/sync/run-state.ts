// What one sync run has done so far: its counters, the phase it is in, its errors, and the time it has left. The
// phases fill it; the engine turns it into progress events and, at the end, the summary.
import type { PositionsSummary } from './positions.ts';
import type { SyncError, SyncPhase, SyncProgress, SyncSummary } from './types.ts';

export interface RunStateOptions {
  runId: number;
  /** Date.now() when the sync started (the lock included). */
  startedAt: number;
  /** The requests the run has sent so far (run-requests.ts). */
  requests: () => number;
  /** Stores an error with the run, as it happens (a sync killed later keeps it). */
  persistError: (error: SyncError) => void;
  onProgress?: ((progress: SyncProgress) => void) | undefined;
}

export class RunState {
  readonly runId: number;
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
  readonly #o: RunStateOptions;

  constructor(options: RunStateOptions) {
    this.#o = options;
    this.runId = options.runId;
    this.startedAt = options.startedAt;
  }

  get requests(): number {
    return this.#o.requests();
  }

  addError(error: SyncError): void {
    this.errors.push(error);
    this.#o.persistError(error);
  }

  /** Milliseconds left from the pace so far; null until there is a pace to go by. */
  etaMs(now = Date.now()): number | null {
    // Work left in requests: about one records request per map still to do, one per replay still to fetch.
    const unitsDone = this.mapsDone + this.replaysDone;
    const unitsLeft = this.mapsTotal - this.mapsDone + (this.replaysTotal - this.replaysDone);
    return unitsDone > 0 ? Math.round(((now - this.startedAt) / unitsDone) * unitsLeft) : null;
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
