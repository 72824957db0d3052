// Retry policy as pure functions (Octokit's retry plugin, undici's RetryHandler): which failures are worth
// another try, how long to wait, and when to give up. The request pipeline (http.ts) applies it.
import { AbortError, NadeoError, ErrorCode } from './errors.ts';
import { checkRange, MAX_TIMER_MS } from './limiter.ts';

export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  maxAttempts?: number;
  /** Backoff before the second attempt; doubles each time (default 500 ms). */
  baseDelayMs?: number;
  /** Cap of the computed backoff (default 30 s). */
  maxDelayMs?: number;
  /**
   * The longest Retry-After waited out (default 120 s). A longer one fails the call at once with a RetryLaterError
   * (code RATE_LIMITED_LONG) and pauses the host until the time the service named.
   */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

/** Sane ranges of the retry settings: every wait stays bounded (an hour at most). */
export const RETRY_LIMITS = {
  maxAttempts: { min: 1, max: 20 },
  baseDelayMs: { min: 0, max: 60_000 },
  maxDelayMs: { min: 0, max: 600_000 },
  maxRetryAfterMs: { min: 0, max: 3_600_000 },
} as const;

/** The policy for `options`; a setting outside RETRY_LIMITS is a ConfigError naming it. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  checkRange('retry.maxAttempts', options.maxAttempts, RETRY_LIMITS.maxAttempts, true);
  checkRange('retry.baseDelayMs', options.baseDelayMs, RETRY_LIMITS.baseDelayMs, false);
  checkRange('retry.maxDelayMs', options.maxDelayMs, RETRY_LIMITS.maxDelayMs, false);
  checkRange('retry.maxRetryAfterMs', options.maxRetryAfterMs, RETRY_LIMITS.maxRetryAfterMs, false);
  return {
    maxAttempts: Math.max(1, Math.floor(options.maxAttempts ?? 5)),
    baseDelayMs: Math.max(0, options.baseDelayMs ?? 500),
    maxDelayMs: Math.max(0, options.maxDelayMs ?? 30_000),
    maxRetryAfterMs: Math.max(0, options.maxRetryAfterMs ?? 120_000),
  };
}

/**
 * Retry-After as milliseconds from `nowMs` (wall clock): delta-seconds or an HTTP date. Undefined when absent
 * or unreadable; never negative.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only HTTP dates: a bare number with a fraction or sign is malformed, not a date.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Capped exponential backoff with "equal jitter": half fixed, half random, so retries spread but still back off. */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const exp = policy.baseDelayMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(policy.maxDelayMs, exp);
  return capped / 2 + random() * (capped / 2);
}

/** Statuses never retried: the answer would be the same (400, 404, 410), or it needs a different request (401, 403, 414). */
export const DO_NOT_RETRY_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 410, 414, 422]);

export function isRetryableStatus(status: number): boolean {
  if (DO_NOT_RETRY_STATUSES.has(status)) return false;
  if (status === 408 || status === 429) return true;
  // 501 and 505 are permanent: the server does not do this at all.
  return status >= 500 && status !== 501 && status !== 505;
}

export type RetryDecision = { retry: false } | { retry: true; delayMs: number; fromRetryAfter: boolean };

/**
 * Decides whether a failed attempt number `attempt` (1-based) is tried again and after how long. Retry-After,
 * when the service sent one, beats the computed backoff.
 */
export function decideRetry(error: unknown, attempt: number, policy: RetryPolicy, random: () => number = Math.random): RetryDecision {
  if (!(error instanceof NadeoError) || !error.retryable) return { retry: false };
  if (error instanceof AbortError || error.code === ErrorCode.ABORTED) return { retry: false };
  if (attempt >= policy.maxAttempts) return { retry: false };
  const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs;
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > policy.maxRetryAfterMs) return { retry: false };
    return { retry: true, delayMs: retryAfterMs, fromRetryAfter: true };
  }
  return { retry: true, delayMs: backoffDelay(attempt, policy, random), fromRetryAfter: false };
}

/** Sleeps `ms`, or rejects with AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new AbortError());
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.min(ms, MAX_TIMER_MS));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
