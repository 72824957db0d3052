// Requests per second + burst (a token bucket, kept as GCRA's "theoretical arrival time") + max concurrency,
// shared by everything that talks to one host. Every grant moves the schedule from the moment it really happened:
// a request never starts sooner than the rate allows after the one before, however late a timer fired. Lateness
// below the burst's tolerance is absorbed by it (Trackwatch runs with a burst of 2); at burst 1 it adds up.
import { DEFAULT_MAX_RPS, EMULATOR_MAX_RPS, MIN_RPS } from '../../../shared/rate-policy.ts';
import { AbortError, ConfigError } from './errors.ts';

export interface LimiterClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: LimiterClock = {
  now: () => performance.now(),
  // Not unref'd: a pending grant is awaited by a caller, so it must keep the process alive (close() clears it).
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface LimiterOptions {
  /** Requests per second, on average. */
  maxRps: number;
  /** Requests that may start back to back after a quiet spell (default 1). */
  burst?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  clock?: LimiterClock;
}

export type Release = () => void;

/**
 * The sane range of each pacing setting: the rate policy's widest for maxRps (shared/rate-policy.ts; the real
 * services' lower ceiling is checked where a client knows its host, http/connection.ts); above the others' maximums
 * nothing is paced at all.
 */
export const RATE_LIMITS = {
  maxRps: { min: MIN_RPS, max: EMULATOR_MAX_RPS },
  burst: { min: 1, max: 64 },
  concurrency: { min: 1, max: 64 },
} as const;

/** Longest delay a Node timer takes; longer ones fire at once with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Throws a ConfigError naming the option and its range when `value` is outside it (undefined passes). */
export function checkRange(name: string, value: number | undefined, range: { min: number; max: number }, integer: boolean): void {
  if (value === undefined) return;
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max && (!integer || Number.isInteger(value)))) {
    throw new ConfigError(`${name} must be ${integer ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}, got ${String(value)}.`);
  }
}

interface Waiter {
  resolve: (release: Release) => void;
  reject: (e: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export interface LimiterStats {
  granted: number;
  active: number;
  waiting: number;
}

export class Limiter {
  readonly maxRps: number;
  readonly burst: number;
  readonly concurrency: number;
  readonly #clock: LimiterClock;
  readonly #interval: number;
  readonly #tolerance: number;
  #tat = Number.NEGATIVE_INFINITY;
  #pausedUntil = Number.NEGATIVE_INFINITY;
  #active = 0;
  #granted = 0;
  #queue: Waiter[] = [];
  #timer: unknown = undefined;
  #disposed: Error | undefined;
  #blocked: { until: number; error: () => Error } | undefined;

  constructor(options: LimiterOptions) {
    const { maxRps, burst = 1, concurrency = 4 } = options;
    checkRange('maxRps', maxRps, RATE_LIMITS.maxRps, false);
    checkRange('burst', burst, RATE_LIMITS.burst, true);
    checkRange('concurrency', concurrency, RATE_LIMITS.concurrency, true);
    this.maxRps = maxRps;
    this.burst = burst;
    this.concurrency = concurrency;
    this.#clock = options.clock ?? systemClock;
    this.#interval = 1000 / maxRps;
    this.#tolerance = (burst - 1) * this.#interval;
  }

  /** Waits for a concurrency slot and a rate token; resolves with the function that gives the slot back. */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (this.#disposed) return Promise.reject(this.#disposed);
    if (signal?.aborted) return Promise.reject(new AbortError());
    const blocked = this.#blockedError();
    if (blocked) return Promise.reject(blocked);
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.#queue.indexOf(waiter);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(new AbortError());
          this.#pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Nobody starts a request before `ms` from now (the service said 429 / Retry-After). */
  pauseFor(ms: number): void {
    if (!(ms > 0)) return;
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
    this.#pump();
  }

  /**
   * Nobody starts a request before `ms` from now, and nobody waits for it either: until then every acquire (and
   * everyone already waiting) fails at once with `error()` (the service asked for a wait longer than we wait).
   */
  block(ms: number, error: () => Error): void {
    if (!(ms > 0)) return;
    const until = this.#clock.now() + ms;
    if (!this.#blocked || until > this.#blocked.until) this.#blocked = { until, error };
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const w of this.#queue.splice(0)) {
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.reject(error());
    }
  }

  #blockedError(): Error | undefined {
    if (!this.#blocked) return undefined;
    if (this.#clock.now() >= this.#blocked.until) {
      this.#blocked = undefined;
      return undefined;
    }
    return this.#blocked.error();
  }

  stats(): LimiterStats {
    return { granted: this.#granted, active: this.#active, waiting: this.#queue.length };
  }

  /** Rejects everyone waiting; later acquires fail at once. */
  dispose(reason: Error = new AbortError('The client was closed.')): void {
    this.#disposed = reason;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const w of this.#queue.splice(0)) {
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.reject(reason);
    }
  }

  #pump(): void {
    if (this.#timer !== undefined) {
      this.#clock.clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    while (this.#queue.length > 0 && this.#active < this.concurrency) {
      const now = this.#clock.now();
      const allowedAt = Math.max(this.#tat - this.#tolerance, this.#pausedUntil);
      if (now < allowedAt) {
        const delay = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(allowedAt - now)));
        this.#timer = this.#clock.setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, delay);
        return;
      }
      const waiter = this.#queue.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      // From the grant's real time: crediting a late timer's lateness back (scheduling from when it should have
      // fired) let the next start come sooner than 1/rate after this one, above the rate (the api bench's 1.001).
      this.#tat = Math.max(this.#tat, now) + this.#interval;
      this.#active++;
      this.#granted++;
      let released = false;
      waiter.resolve(() => {
        if (released) return;
        released = true;
        this.#active--;
        this.#pump();
      });
    }
  }
}

export interface LimiterPoolOptions {
  maxRps?: number;
  burst?: number;
  concurrency?: number;
  clock?: LimiterClock;
}

/** One limiter per origin; pass the same pool to several clients to share a host's budget between them. */
export class LimiterPool {
  readonly #options: LimiterOptions;
  readonly #byOrigin = new Map<string, Limiter>();
  constructor(options: LimiterPoolOptions = {}) {
    this.#options = { maxRps: options.maxRps ?? DEFAULT_MAX_RPS, burst: options.burst ?? 1, concurrency: options.concurrency ?? 4 };
    if (options.clock) this.#options.clock = options.clock;
    // Validate once up front so a bad setting fails at construction, not at the first request.
    new Limiter(this.#options);
  }
  for(origin: string): Limiter {
    let limiter = this.#byOrigin.get(origin);
    if (!limiter) {
      limiter = new Limiter(this.#options);
      this.#byOrigin.set(origin, limiter);
    }
    return limiter;
  }
  dispose(reason?: Error): void {
    for (const l of this.#byOrigin.values()) l.dispose(reason);
  }
}
