// The first-start reading of replays archived before splits existed (core/splits/backfill.ts), in the background:
// slices that yield, so the window keeps answering; its progress goes out as 'splits.backfill' events.
import { backfillSplits } from '../../core/splits/backfill.ts';
import type { Store } from '../../core/store/index.ts';
import type { EventHub } from '../events.ts';

export class SplitsBackfill {
  readonly #events: EventHub;
  #abort: AbortController | undefined;
  #running: Promise<void> | undefined;

  constructor(events: EventHub) {
    this.#events = events;
  }

  /** Starts reading what waits in this store's folder; nothing when nothing waits or a reading runs. */
  start(tw: { store: Store; dataDir: string }, onDone: () => void): void {
    if (this.#running) return;
    const abort = new AbortController();
    this.#abort = abort;
    this.#running = backfillSplits(tw.store, tw.dataDir, {
      signal: abort.signal,
      onProgress: (p) => {
        if (p.total > 0) this.#events.emit('splits.backfill', p);
      },
    })
      .then((p) => {
        if (p.done > 0) onDone();
      })
      // A store closed under it (the app quitting): the cursor keeps what was read, the next start goes on.
      .catch((error: unknown) => process.emitWarning(`Reading the archived replays' splits stopped: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.#running = undefined;
      });
  }

  /** Resolves when no reading runs (at once when none does). */
  async idle(): Promise<void> {
    await this.#running;
  }

  async stop(): Promise<void> {
    this.#abort?.abort();
    await this.#running;
  }
}
