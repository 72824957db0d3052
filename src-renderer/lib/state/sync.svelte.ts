import type { Api, SyncFinished, SyncProgress } from '../../../src-main/contract/index.ts';
import { messageOf } from '../api/errors.ts';

/** The running sync (if any) and the last one, from a snapshot then events. */
export class SyncState {
  #api: Api;
  #progress = $state.raw<SyncProgress | null>(null);
  #last = $state.raw<SyncFinished | null>(null);
  #nextScheduledAt = $state<string | null>(null);
  #starting = $state(false);
  #error = $state<string | null>(null);
  #cost = $state<string | null>(null);

  constructor(api: Api, onFinished: (finished: SyncFinished) => void) {
    this.#api = api;
    api.on('sync.progress', (progress) => {
      this.#progress = progress;
      this.#starting = false;
    });
    api.on('sync.finished', (finished) => {
      this.#progress = null;
      this.#starting = false;
      this.#last = finished;
      onFinished(finished);
    });
  }

  get progress(): SyncProgress | null {
    return this.#progress;
  }
  get last(): SyncFinished | null {
    return this.#last;
  }
  get running(): boolean {
    return this.#progress !== null || this.#starting;
  }
  get nextScheduledAt(): string | null {
    return this.#nextScheduledAt;
  }
  get error(): string | null {
    return this.#error;
  }
  /** What the last sync started here was to cost: "about 26 record requests, … and 50 position requests, about 22 min at 1 request/s". */
  get cost(): string | null {
    return this.#cost;
  }
  /** 0..1, or null while the total is unknown. */
  get fraction(): number | null {
    const p = this.#progress;
    return p && p.total > 0 ? Math.min(1, p.done / p.total) : null;
  }

  async load(): Promise<void> {
    const status = await this.#api.invoke('sync.status', {});
    this.#progress = status.running;
    this.#last = status.last;
    this.#nextScheduledAt = status.nextScheduledAt;
  }

  /**
   * Starts a sync after saying what it will cost; a large first sync starts only if `confirm` says so. Resolves
   * false when it did not start.
   */
  async start(list?: string, confirm: (question: string) => boolean = (q) => window.confirm(q)): Promise<boolean> {
    if (this.running) return false;
    const plan = await this.#api.invoke('sync.plan', list ? { list } : {});
    this.#cost = plan.line;
    if (plan.large && !confirm(`This first sync of ${list ? `"${list}"` : 'every list'} is large: ${plan.line}. Start it?`)) return false;
    this.#starting = true;
    this.#error = null;
    try {
      await this.#api.invoke('sync.start', list ? { list } : {});
      return true;
    } catch (error) {
      this.#starting = false;
      this.#error = messageOf(error);
      throw error;
    }
  }

  /** The demo's tour: a sync, time passing, a second sync, reported as one run. */
  async startDemoTour(): Promise<void> {
    if (this.running) return;
    this.#starting = true;
    this.#error = null;
    try {
      await this.#api.invoke('demo.tour', {});
    } catch (error) {
      this.#starting = false;
      this.#error = messageOf(error);
      throw error;
    }
  }

  async cancel(): Promise<void> {
    await this.#api.invoke('sync.cancel', {});
  }
}
