// A manual clock for the limiter: time moves only when the test says so; `lateMs` makes every timer fire late, and
// `lateness` gives each timer its own lateness.
import type { LimiterClock } from '../../../src-main/core/nadeo/http/limiter.ts';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

export class FakeClock implements LimiterClock {
  t = 0;
  lateMs = 0;
  /** Each timer's own lateness, added to `lateMs`; below zero it fires early (as libuv's cached loop time can). */
  lateness: () => number = () => 0;
  #timers: Timer[] = [];
  #next = 1;

  now = (): number => this.t;

  setTimeout = (fn: () => void, ms: number): unknown => {
    const timer = { id: this.#next++, at: Math.max(this.t, this.t + ms + this.lateMs + this.lateness()), fn };
    this.#timers.push(timer);
    return timer.id;
  };

  clearTimeout = (handle: unknown): void => {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  };

  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward to `t + ms`, firing due timers in order and letting promise callbacks run between them. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await flush();
      this.#timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const due = this.#timers[0];
      if (!due || due.at > target) break;
      this.#timers.shift();
      this.t = due.at;
      due.fn();
    }
    this.t = target;
    await flush();
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** A clock whose timers fire at once and move its time forward: a client paced by it never really waits. */
export function warpClock(): LimiterClock & { waited: number[] } {
  let offset = 0;
  const waited: number[] = [];
  return {
    waited,
    now: () => performance.now() + offset,
    setTimeout: (fn, ms) => {
      waited.push(ms);
      offset += ms;
      return setImmediate(fn);
    },
    clearTimeout: (h) => clearImmediate(h as ReturnType<typeof setImmediate>),
  };
}
