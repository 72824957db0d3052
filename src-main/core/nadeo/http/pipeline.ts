// The request pipeline: transport (one undici dispatcher) wrapped by auth (token only to its own origin),
// the per-host limiter and the retry policy. Endpoint code describes a request and how to read its answer;
// everything about being a careful, polite client happens here, once.
import type { Dispatcher } from 'undici';
import { discardBody, toNadeoError } from './answers.ts';
import { AbortError, AuthError, HttpError, RetryLaterError, TimeoutError, isUnreachable } from './errors.ts';
import { MAX_TIMER_MS, type LimiterPool } from './limiter.ts';
import { decideRetry, type RetryPolicy } from './retry.ts';
import type { AuthKind, RawResponse, RequestSpec } from './request.ts';
import { linkSignals, throwIfAborted } from './signals.ts';

export type { AuthKind, BodyReadable, RawResponse, RequestSpec } from './request.ts';

/** Where a token may go and how to get or renew it. */
export interface TokenSource {
  /** Only requests to this origin carry the token. */
  readonly origin: string;
  authorization(signal: AbortSignal): Promise<{ header: string; token: string }>;
  /** The service answered 401 to `token`: get a fresh one (shared with concurrent callers). */
  renewAfterRejection(token: string, signal: AbortSignal): Promise<void>;
}

export interface RequestEvent {
  /** scheme://host[:port] the attempt went to (never a path or query). */
  origin: string;
  method: string;
  route: string;
  status: number | 'error';
  /** The attempt met no answer at all (no connection, or no headers in time: isUnreachable), not an error answer. */
  unanswered?: true;
  attempt: number;
  ms: number;
}

export interface PipelineStats {
  requests: number;
  retries: number;
  uriTooLong: number;
  byRoute: Record<string, number>;
}

/** Arms a deadline of `ms`: `expire` runs then, unless the returned function disarms it first. */
export type ArmDeadline = (ms: number, expire: () => void) => () => void;

/** Deadlines on the system's timers. */
export const armDeadline: ArmDeadline = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

export interface PipelineOptions {
  dispatcher: Dispatcher;
  limiters: LimiterPool;
  retry: RetryPolicy;
  userAgent: string;
  /** Per attempt: the wait for the answer's headers, and the longest silence inside its body. */
  timeoutMs: number;
  /** Per attempt: the whole answer, headers and body, within this time; a trickling body ends with a TimeoutError. */
  deadlineMs: number;
  /** Wall clock, ms (Retry-After dates). */
  now: () => number;
  /** Arms an answer's deadline: `expire` runs after `ms` unless the returned disarm runs first. */
  armDeadline: ArmDeadline;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  /** Aborts when the client closes. */
  lifetime: AbortSignal;
  onRequest?: ((e: RequestEvent) => void) | undefined;
  tokens: Partial<Record<AuthKind, TokenSource>>;
  /** The origin each kind of token belongs to, known even without credentials (to word a 401 well). */
  authOrigins: Partial<Record<AuthKind, string>>;
}

export class Pipeline {
  readonly #o: PipelineOptions;
  readonly #stats: PipelineStats = { requests: 0, retries: 0, uriTooLong: 0, byRoute: {} };

  constructor(options: PipelineOptions) {
    this.#o = options;
  }

  get userAgent(): string {
    return this.#o.userAgent;
  }

  stats(): PipelineStats {
    return { ...this.#stats, byRoute: { ...this.#stats.byRoute } };
  }

  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const linked = linkSignals(spec.signal, this.#o.lifetime);
    const signal = linked.signal;
    try {
      return await this.#run(spec, signal);
    } catch (e) {
      if (signal.aborted && !(e instanceof AbortError)) {
        throw this.#o.lifetime.aborted ? new AbortError('The client was closed.', { cause: e }) : new AbortError(undefined, { cause: e });
      }
      throw e;
    } finally {
      linked.dispose();
    }
  }

  async #run<T>(spec: RequestSpec<T>, signal: AbortSignal): Promise<T> {
    const source = spec.auth ? this.#o.tokens[spec.auth] : undefined;
    // The token goes to its own origin only: a storage URL on another host gets no Authorization header.
    const tokenSource = source && source.origin === spec.origin ? source : undefined;
    const limiter = this.#o.limiters.for(spec.origin);
    let attempt = 1;
    let renewedAfter401 = false;
    for (;;) {
      throwIfAborted(signal);
      const headers: Record<string, string> = { ...spec.headers, 'user-agent': this.#o.userAgent };
      let usedToken: string | undefined;
      if (tokenSource) {
        // Before the limiter: a login goes through the same limiter and must not wait behind our own slot.
        const auth = await tokenSource.authorization(signal);
        headers['authorization'] = auth.header;
        usedToken = auth.token;
      }
      const release = await limiter.acquire(signal);
      const started = performance.now();
      let status: number | 'error' = 'error';
      let failure: unknown;
      let value: T | undefined;
      let ok = false;
      // The whole answer, headers and body, has a deadline: undici's timeouts only bound each silence.
      const deadline = new AbortController();
      let deadlineHit = false;
      const deadlineMs = spec.deadlineMs ?? this.#o.deadlineMs;
      const disarm = this.#o.armDeadline(Math.min(deadlineMs, MAX_TIMER_MS), () => {
        deadlineHit = true;
        deadline.abort(new TimeoutError(`${spec.route}: the answer took longer than ${deadlineMs} ms.`));
      });
      const attemptSignal = linkSignals(signal, deadline.signal);
      try {
        this.#stats.requests++;
        this.#stats.byRoute[spec.route] = (this.#stats.byRoute[spec.route] ?? 0) + 1;
        const res = await this.#o.dispatcher.request({
          origin: spec.origin,
          path: spec.target,
          method: spec.method,
          headers,
          body: spec.body ?? null,
          signal: attemptSignal.signal,
          headersTimeout: this.#o.timeoutMs,
          bodyTimeout: this.#o.timeoutMs,
        });
        status = res.statusCode;
        if (status === 414) this.#stats.uriTooLong++;
        const raw: RawResponse = { status: res.statusCode, headers: res.headers, body: res.body };
        try {
          value = await spec.handle(raw, attemptSignal.signal);
          ok = true;
        } finally {
          if (!res.body.readableEnded) discardBody(res.body);
        }
      } catch (e) {
        if (deadlineHit && !signal.aborted) {
          failure = new TimeoutError(
            `The service at ${new URL(spec.origin).host} ${status === 'error' ? 'gave no answer' : 'did not send its answer in full'} within ` +
              `${formatMs(deadlineMs)} (a slow or stalled service). Trackwatch retries a few times.`,
            { cause: e, phase: status === 'error' ? 'headers' : 'body' },
          );
        } else failure = toNadeoError(e, signal, spec.origin, status !== 'error');
      } finally {
        disarm();
        attemptSignal.dispose();
        release();
        try {
          const unanswered = status === 'error' && isUnreachable(failure) ? { unanswered: true as const } : {};
          this.#o.onRequest?.({ origin: spec.origin, method: spec.method, route: spec.route, status, ...unanswered, attempt, ms: performance.now() - started });
        } catch {
          // An observer's bug must not fail or repeat a request.
        }
      }
      if (ok) return value as T;

      if (failure instanceof HttpError && failure.status === 401 && spec.auth && this.#o.authOrigins[spec.auth] === spec.origin) {
        if (!tokenSource) {
          throw new AuthError(
            spec.auth === 'nadeo'
              ? `${spec.route} needs a login: set a Nadeo service account (login and password) in the settings.`
              : `${spec.route} needs a Trackmania OAuth app: set its client ID and secret in the settings.`,
            401,
            { cause: failure },
          );
        }
        if (!renewedAfter401 && usedToken !== undefined) {
          renewedAfter401 = true;
          this.#stats.retries++;
          await tokenSource.renewAfterRejection(usedToken, signal);
          continue;
        }
        throw new AuthError(
          `${spec.route} refused a freshly renewed token (401). The account may lack access; check the login in the settings.`,
          401,
          { cause: failure },
        );
      }
      const tooLong = this.#longWait(failure, spec.origin);
      if (tooLong) {
        limiter.block(tooLong.ms, () => tooLong.error());
        throw tooLong.error();
      }
      const decision = decideRetry(failure, attempt, this.#o.retry, this.#o.random);
      // The service asked everyone to wait, so nobody talks to this host meanwhile: also when this call gives up
      // on its last try, or the next call would go out at once. (A wait longer than we wait is #longWait's.)
      if (decision.retry && decision.fromRetryAfter) limiter.pauseFor(decision.delayMs);
      else if (failure instanceof HttpError && failure.retryAfterMs !== undefined && failure.retryAfterMs <= this.#o.retry.maxRetryAfterMs) {
        limiter.pauseFor(failure.retryAfterMs);
      }
      if (!decision.retry) throw failure;
      this.#stats.retries++;
      await this.#o.sleep(decision.delayMs, signal);
      attempt++;
    }
  }

  /** A Retry-After longer than the client waits: how long the host stays paused, and the error every call gets meanwhile. */
  #longWait(failure: unknown, origin: string): { ms: number; error: () => RetryLaterError } | undefined {
    if (!(failure instanceof HttpError) || !failure.retryable || failure.retryAfterMs === undefined) return undefined;
    if (failure.retryAfterMs <= this.#o.retry.maxRetryAfterMs) return undefined;
    // An absurd Retry-After still gives a real date: nobody keeps a client open for a year.
    const ms = Math.min(failure.retryAfterMs, MAX_PAUSE_MS);
    const retryAt = new Date(this.#o.now() + ms);
    const status = failure.status;
    return { ms, error: () => new RetryLaterError(origin, status, retryAt, { cause: failure }) };
  }
}

/** The longest pause a Retry-After can impose on a host. */
const MAX_PAUSE_MS = 366 * 24 * 3600_000;

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
