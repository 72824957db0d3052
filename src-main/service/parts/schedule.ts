// The scheduled sync: off by default, never more often than every SYNC_EVERY_MINUTES_MIN minutes, skipped while a
// sync runs or when there is no account to sync with.
import type { z } from 'zod';
import type * as s from '../../contract/schemas.ts';
import { SYNC_EVERY_MINUTES_MIN } from '../../contract/schemas.ts';
import type { SyncRunner } from '../sync-runner.ts';

export interface ScheduleOptions {
  runner: SyncRunner;
  now: () => Date;
  /** The saved setting. */
  setting: () => z.output<typeof s.ScheduledSync>;
  /** Whether syncs may run at all now (a setup chosen, the folder writable, the service open). */
  allowed: () => boolean;
  /** Whether the active data has an account behind it. */
  canSync: () => boolean;
}

export class SyncSchedule {
  readonly #o: ScheduleOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #nextAt: string | null = null;

  constructor(options: ScheduleOptions) {
    this.#o = options;
  }

  /** When the next scheduled sync is due, or null when none is. */
  get nextAt(): string | null {
    return this.#nextAt;
  }

  /** Applies the scheduled-sync setting. */
  reschedule(): void {
    this.stop();
    const { enabled, everyMinutes } = this.#o.setting();
    if (!enabled || !this.#o.allowed()) return;
    const everyMs = Math.max(SYNC_EVERY_MINUTES_MIN, everyMinutes) * 60_000;
    const plan = (): void => {
      this.#nextAt = new Date(this.#o.now().getTime() + everyMs).toISOString();
    };
    plan();
    this.#timer = setInterval(() => {
      plan();
      if (this.#o.runner.running || !this.#o.canSync()) return;
      try {
        // A scheduled sync that cannot start (another process syncing the folder) waits for the next round.
        this.#o.runner.start({}).catch(() => {});
      } catch {
        // A sync started by hand in the meantime: this round is skipped.
      }
    }, everyMs);
    this.#timer.unref?.();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#nextAt = null;
  }
}
