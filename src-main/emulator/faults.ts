// Bad days on the wire, on purpose: injected failures and a rate limit, so clients prove their retry and pacing.
import { fnv1a, unitHash } from './prng.ts';

export const FAULT_KINDS = ['500', '503', '429', 'drop', 'truncate'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Chooses faults from the seed, the request and how often that exact request came before: the nth request of
 * a given URI always meets the same fate, whatever other requests run alongside it, and a retry gets a new draw.
 */
export class FaultPlan {
  readonly #failRate: number;
  readonly #seed: number;
  readonly #seen = new Map<string, number>();

  constructor(failRate: number, seed: number) {
    this.#failRate = failRate;
    this.#seed = seed >>> 0;
  }

  next(requestKey: string): FaultKind | undefined {
    if (this.#failRate <= 0) return undefined;
    const n = this.#seen.get(requestKey) ?? 0;
    this.#seen.set(requestKey, n + 1);
    const draw = `${n}|${requestKey}`;
    if (unitHash(draw, this.#seed ^ 0x2545f491) >= this.#failRate) return undefined;
    return FAULT_KINDS[fnv1a(draw, this.#seed ^ 0x9e3779b9) % FAULT_KINDS.length];
  }
}

/** A token bucket: `rps` tokens a second, holding at most ceil(rps) (the burst). */
export class TokenBucket {
  readonly #rps: number;
  readonly #capacity: number;
  readonly #now: () => number;
  #tokens: number;
  #updatedMs: number;

  constructor(rps: number, now: () => number = Date.now) {
    this.#rps = rps;
    this.#capacity = Math.max(1, Math.ceil(rps));
    this.#now = now;
    this.#tokens = this.#capacity;
    this.#updatedMs = now();
  }

  /** Undefined when the request may go; otherwise the Retry-After in whole seconds (at least 1). */
  take(): number | undefined {
    const now = this.#now();
    this.#tokens = Math.min(this.#capacity, this.#tokens + ((now - this.#updatedMs) / 1000) * this.#rps);
    this.#updatedMs = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - this.#tokens) / this.#rps));
  }
}
