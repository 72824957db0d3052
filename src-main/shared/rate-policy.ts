// The request-rate rule, written once (docs/nadeo-api.md "Being a good citizen"): how many requests per second
// Trackwatch may send. The API client enforces it (core/nadeo/http/connection.ts); the command line, the contract and
// the window say it in these words. Pure: main, CLI, contract and renderer all read it.

/** Requests per second when nobody says otherwise: what other clients of the service default to. */
export const DEFAULT_MAX_RPS = 1;

/**
 * The ceiling against the real services: Nadeo staff put it at about 2 requests/second in short bursts, and
 * accounts and IPs that abuse the API get banned. A tool that gets its users banned is worse than none: above
 * this, a rate is refused, not warned about.
 */
export const REAL_SERVICE_MAX_RPS = 2;

/** The slowest rate taken: below it a wait would outlast any use (and overflow Node's timers). */
export const MIN_RPS = 0.01;

/** The fastest rate taken against anything else (an emulator on this machine): above it nothing is paced at all. */
export const EMULATOR_MAX_RPS = 10_000;

/** The demo's pace: it talks to its own emulator on this machine, so it goes fast, but still paced. */
export const DEMO_MAX_RPS = 50;

/** Requests that may start back to back: two, as Nadeo staff allow short bursts, so a pause is made up for. */
export const DEFAULT_BURST = 2;

export interface RateRange {
  min: number;
  max: number;
}

/** The rates taken against the real services (`real`) or an emulator. */
export function rateRange(real: boolean): RateRange {
  return { min: MIN_RPS, max: real ? REAL_SERVICE_MAX_RPS : EMULATOR_MAX_RPS };
}

export function isAllowedRate(value: number, real: boolean): boolean {
  const { min, max } = rateRange(real);
  return Number.isFinite(value) && value >= min && value <= max;
}

/** Why the ceiling is where it is, in the words every surface uses. */
export const CEILING_REASON = `${REAL_SERVICE_MAX_RPS} is the ceiling Nadeo staff gave; faster can get your account or IP banned`;

/** The range in words, as every refusal says it: "from 0.01 to 2 against the real services (2 is the ceiling ...)". */
export function rateRangeWords(real: boolean): string {
  const { min, max } = rateRange(real);
  return real ? `from ${min} to ${max} against the real services (${CEILING_REASON})` : `from ${min} to ${max}`;
}

/**
 * A saved rate as it is used: the default when none (or nonsense) is saved, else kept within the range; a rate an
 * older version saved above today's ceiling is slowed to it.
 */
export function keptRate(saved: unknown, real: boolean): number {
  if (typeof saved !== 'number' || !Number.isFinite(saved) || saved <= 0) return DEFAULT_MAX_RPS;
  const { min, max } = rateRange(real);
  return Math.min(max, Math.max(min, saved));
}
